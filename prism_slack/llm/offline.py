"""The offline facts-only answerer: the embedded default model. No network, deterministic.

For a question it ranks the report's items (``offline_index``: BM25 over field names,
values, finding titles and details, synonym concepts; typos corrected) and answers in the
claim contract:

- *vague and pre-call asks* ("summarise the audit", "give me talking points", "what
  should I lead with"): the most severe findings with a figure each and a playbook move
  each; a summary adds the headline financials;
- *size* ("how big are they"): revenue, employees and the counts of places and customers;
- *people* ("who's the decision maker?"), *findings* ("what's broken on mobile?");
- *coaching* ("how do I get past security?"): a playbook move anchored to the person,
  competitor or finding asked about, the facts it leans on, and a discovery question;
- *scores*: a score with its scale; the best and worst scores;
- a *lookup*: the best-ranked fields, worded from their own names and values.

- *concepts* the report keeps in its structure (``offline_concepts``): competitors,
  people by role (the nearest person when none holds it), risks, the company's age.

Unknown words lower a field's coverage of the question; they never veto it. ``absent``
("That's not in the audit report.") is said only when no field covers enough of the
question, or a figure was asked and the best field holds none; the nearest fields follow
it. Questions joined by "and", commas or "vs" are answered part by part, a missing part
named ("Not in the audit report: page speed."), a comparison's sides in the same terms;
a follow-up ("out of what?", "who owns that?", "how do I handle her?", "since when?") is
read with the previous question of the conversation. The company's name is cut out of the
question first.
"""

from __future__ import annotations

import json
import logging
import re
import time
from dataclasses import dataclass, field, fields, replace
from decimal import Decimal
from functools import cache
from itertools import pairwise, takewhile
from typing import TYPE_CHECKING

from prism_slack import language
from prism_slack.claims import ABSENT_TEXT, Answer, Claim
from prism_slack.evidence import Leaf
from prism_slack.facts.model import FactKind
from prism_slack.llm import lexicon
from prism_slack.llm import offline_concepts as concepts
from prism_slack.llm import offline_figures as figures
from prism_slack.llm import offline_heads as heads
from prism_slack.llm import offline_wording as wording
from prism_slack.llm.offline_index import VALUE_PRIOR, Hit, Item, ReportIndex, Terms, index_for
from prism_slack.llm.playbook import Frame, Move, Playbook, load_playbook
from prism_slack.ports import AnswerRequest, HistoryTurn
from prism_slack.reports.hazards import cites_instruction

if TYPE_CHECKING:  # the facts package imports the verifier, which imports reports
    from prism_slack.facts import Quantity

logger = logging.getLogger(__name__)

MAX_CLAIMS = 6
MAX_BRIEF_CLAIMS = 9
"""Talking points and summaries: three findings, a figure and a move each; coaching: the
move, the facts it leans on (the person, what their record says, the finding that matters
to them) and the question to ask."""
MAX_LOOKUP_ITEMS = 4
MAX_FINDINGS = 5
RELATIVE_CUTOFF = 0.6
"""A lookup keeps items scoring at least this share of the best item's score."""
RELATED_CUTOFF = 0.4
"""A lookup adds a finding that mentions the subject when it scores this share of the best."""
COVERAGE = 0.5
"""An item must hold more than this weighted share of the question's content terms to
answer it (calibrated on the rep-questions dev set: below it, "not in the report")."""
NEARBY = 2

_FIRST_PERSON = lexicon.wordset("i we me my our us")
_AUDIT_WORDS = lexicon.wordset("audit report assessment review")
_OWNS = re.compile(
    r"\b(?:owns?|owned|runs?|leads?|manages?|heads?|oversees?|responsible|accountable)\b", re.I
)
_STRONG_COACHING = lexicon.wordset(
    "pitch opener coach coaching advice advise tip tips objection objections pushback playbook "
    "strategy angle position frame handle discovery"
)
_PERSON_PRONOUNS = lexicon.wordset("he she him her his hers")
_DEMONSTRATIVES = lexicon.wordset("that this it those these")
_THEY = lexicon.wordset("they them their theirs")
"""A "they" that may point back at one person, as reps write of someone."""
_HOW_DO_I = re.compile(r"\bhow (?:do|should|can|could|would|will) (?:i|we)\b", re.I)
_SIZE_WORDS = lexicon.wordset("big size sized large larger scale")
_BEST_WORDS = lexicon.wordset("best highest strongest top")
_WORST_WORDS = lexicon.wordset("worst lowest weakest bottom")
_AUDIENCE = re.compile(
    r"\bfor (?:my|our|your) ((?:[a-z]+ ?){1,3}?)(?=\s+(?:on|about|re)\b|\W*$)", re.I
)
"""Whom a summary is for ("3 bullets for my exec sponsor on cvhp")."""
_PERCENT_ASK = re.compile(r"%|\bpercent(?:age)?\b|\bwhat share\b", re.I)
_PERCENT = re.compile(r"\d\s?%|\bpercent\b", re.I)
_TOP_N = re.compile(r"\btop\s+(?:\d+|two|three|four|five|six|seven|eight|nine|ten)\b", re.I)
""""top 3 things" with nothing else named: the most important few (the findings), not the
best score ("top 3 scores" is)."""
_FIGURE_ASKS = re.compile(
    r"\bhow (?:many|much)\b|%|\bpercent(?:age)?\b|\bnumber of\b|\b(?:rate|ratio)\b\W*$", re.I
)
"""A question that asks for a figure: how many, a percent, a rate or ratio it ends on."""
_METRIC_TERMS = lexicon.wordset(
    "nps csat ltv cac arr mrr aov gmv dso nrr grossmargin operatingmargin ebitdamargin "
    "netmargin netincome netrevenue"
)
_COMPARATIVE = r"\b(?:better|worse|higher|lower|stronger|weaker|bigger|smaller|more|less) than\b"
_SPLIT = re.compile(
    r"\s*(?:,|;(?!\w)|(?<!\b\w)&(?!\w\b)|(?<![\w+])\+(?![\d+])|\band\b|\bplus\b"
    r"|\bas well as\b|\bvs\.?|\bversus\b"
    r"|\bcompared? (?:to|with|against)\b|\bagainst\b|\bstacks? up (?:to|against)\b"
    rf"|{_COMPARATIVE})\s*",
    re.IGNORECASE,
)
_COMPARISON = re.compile(
    rf"\bvs\.?|\bversus\b|\bcompared?\b|\bstacks? up\b|\bagainst\b|{_COMPARATIVE}",
    re.IGNORECASE,
)
"""A question that sets two things side by side: each side is answered in the same terms
(a score beside a score)."""
_SIZE_SECTIONS = ("facilities", "locations", "stores", "offices", "sites", "branches")
_SIZE_KEYS = lexicon.wordset(
    "hospitals clinics stores warehouses offices locations sites branches facilities customers"
)


def absent(text: str = ABSENT_TEXT) -> Claim:
    """ "Not in the report": the fixed sentence, or a plain one naming what is missing."""
    return Claim(text=text, kind="absent", evidence=[])


@dataclass
class Question:
    """What a question (or one part of it) asks for, in index terms."""

    text: str
    content: Terms = field(default_factory=dict)
    """Subject concepts → weight; an item's coverage is the share of these it holds."""
    soft: Terms = field(default_factory=dict)
    """Concepts that only sharpen the ranking."""
    coaching: bool = False
    summary: bool = False
    brief: bool = False
    size: bool = False
    scale: bool = False
    best: bool = False
    worst: bool = False
    who: bool = False
    wants_figure: bool = False
    counts: bool = False
    """Asks how many ("hw mny custmers"): a count, which a score on a scale is not."""
    pronoun: bool = False
    """Names a person already spoken of ("what does she need?")."""
    refers: bool = False
    """Leans on the previous question ("who owns that?", "how slow exactly?")."""
    names_company: bool = False
    unheld: tuple[str, ...] = ()
    """What the question asks of a figure in words the report never uses ("cargo
    revenue"): a part the report does not hold, whatever it holds of the figure."""

    @property
    def known_content(self) -> bool:
        """A subject the report or the lexicon knows (not only unknown words)."""
        return any(w >= 1.0 for w in self.content.values())

    @property
    def empty(self) -> bool:
        return not (
            self.content or self.coaching or self.summary or self.size or self.best or self.worst
        )

    def merged(self, other: Question) -> Question:
        """This part with the flags and terms of an empty neighbour ("best" in "best vs
        worst score", "the max" in "search score vs the max")."""
        flags = {
            f.name: getattr(self, f.name) or getattr(other, f.name)
            for f in fields(self)
            if f.type in (bool, "bool")
        }
        return Question(
            text=f"{self.text} {other.text}",
            content={**other.content, **self.content},
            soft={**other.soft, **self.soft},
            **flags,
        )


_PERIOD = re.compile(r"(?:q[1-4]|h[12])(?:fy)?\d{0,4}")
_FIGURE = re.compile(r"\d+(?:k|m|mm|b|bn)?")
"""A figure the rep typed ("$5B", "40%"): it sharpens the ranking, it is never a subject (a
passage repeating the rep's figure does not answer "what is revenue?" better than the field)."""
_COUNT_ASKS = re.compile(r"\bhow many\b|\bnumber of\b|\bcount of\b")
_MONEY_ASK = re.compile(
    r"\bin (?:dollars|euros|pounds|cash|money)\b|\bdollar (?:amount|figure|value)\b"
    r"|\bhow much money\b|\bin \$",
    re.IGNORECASE,
)
"""A figure asked as an amount of money ("EBITDA in dollars")."""
_PERIOD_WORDS = re.compile(
    r"\b(?:q[1-4]|h[12]|[12]h)\s?(?:fy)?\s?'?(?:19|20)?\d\d\b"
    r"|\b(?:(?:fy|q[1-4]|h[12])\s?)?(?:19|20)?\d\d\b|\b(?:q[1-4]|h[12]|[12]h)\b(?!\s?'?\d)"
)
"""A period a question names: a year, ``FY25``, ``Q3 2025`` (matched to a series' keys)."""
_COUNT_TEXT = re.compile(r"(?:approx\.?|about|c\.|around|over|some)?\s*\d[\d,]*\s+[A-Za-z]", re.I)
"""A text that opens with how many of something: "27 hotels (19 country house, 8 city)"."""
_USE_FOR = re.compile(
    r"\b(?:use[sd]?|using|runs?|relys?|relies|relying) (?:on )?(?:for|to)\b", re.IGNORECASE
)
"""The tool a job is done with ("what do they use for field service"): the vendor is asked,
not only leaned to."""
_ACRONYM = re.compile(r"\b[A-Z](?:&?[A-Z0-9])+s?\b")
"""An acronym as typed ("R&D", "NPS", "CAPAs"): a subject, like a name, that a field without
it does not answer."""
_NAMES = re.compile(r"(?<=\w\W)\b[A-Z][a-z]+\b")


_DEMONYM_ENDS = ("ian", "ean", "ese", "ish", "an", "i")
_PLACE_ENDS = ("", "a", "ia", "y", "o")


def _places_of(tokens: list[str], known: dict[str, dict[int, float]]) -> list[str]:
    """The place a people's word names, when the report has it ("canadian" → canada,
    "italian" → italy): a word of its own, so the report's "Canada" answers it too."""
    out = []
    for t in tokens:
        for end in _DEMONYM_ENDS if len(t) >= 6 else ():
            if t.endswith(end):
                base = t[: -len(end)]
                out += [p for e in _PLACE_ENDS if (p := base + e) != t and p in known][:1]
    return out


def parse_question(text: str, index: ReportIndex, *, names_company: bool = False) -> Question:
    """``text`` in index terms. A word the report and the lexicon do not know weighs half,
    unless it is a name (capitalised inside the sentence: "Brazil") or a quarter ("Q1"):
    those qualify the subject, and a field without them does not answer it. A figure
    (``5b``) only sharpens the ranking."""
    tokens = [index.correct(t) for t in lexicon.words(text)]
    system = {  # "PMS", "TMS": the report's "PM"/"TM" with its system (or plural) S
        m.lower(): m.lower()[:-1]
        for m in _ACRONYM.findall(text)
        if len(m) >= 3 and m.endswith("S") and m.isalpha()
        if m.lower() not in index.postings and m.lower()[:-1] in index.postings
    }
    tokens = [system.get(t, t) for t in tokens]
    tokens += _spelled_out(tokens, index.short_keys)
    tokens += [  # "what pss are they on": the report's "passenger service system"
        w
        for t in list(tokens)
        if 2 <= len(t) <= 4
        and not language.common(t)
        and not lexicon.is_stop(t)
        and t not in lexicon.KNOWN  # "nps" is a measure the lexicon reads
        for w in index.initials.get(t, ())
    ]
    tokens += _places_of(tokens, index.postings)
    raw = set(tokens)
    specific = {lexicon.stem(w) for w in _NAMES.findall(text)} | {
        t for t in tokens if _PERIOD.fullmatch(t)
    }
    specific |= {  # an acronym typed in capitals names its subject: "R&D", "CAPAs"
        system.get(s, s)
        for m in _ACRONYM.findall(text)
        for s in (lexicon.stem(w) for w in lexicon.words(m))
    }
    periods = _series_periods(index) if any(_PART_PERIOD.fullmatch(t) for t in tokens) else set()
    q = Question(text, names_company=names_company)
    coaching_terms = False
    coaching_stems: set[str] = set()
    for stemmed, asked, _parts in lexicon.term_parts(tokens, question=True):
        term = asked
        own = lexicon.report_concept(stemmed)
        if asked != own and own in index.key_terms:
            term = own  # a rep's word a report key uses ("spoilage") is that key's word
        if term in index.company_terms:
            q.names_company = True
            continue
        if term == lexicon.COACHING:
            coaching_terms = True
            coaching_stems.add(stemmed)
        elif term == lexicon.SUMMARY:
            q.summary = True
        elif term == lexicon.BRIEF:
            q.summary = q.brief = True
        elif term in (lexicon.SCALE, "max", "maximum"):
            q.scale = True
        elif lexicon.is_soft(term) or _FIGURE.fullmatch(term) or term in periods:
            concept = lexicon.soft_concept(term) or term
            if concept == lexicon.SCALE:
                q.scale = True
            else:
                q.soft[concept] = 1.0
        else:
            q.content[term] = 1.0 if term in specific else index.weight(term)
    if q.summary:  # "3 bullets for my exec sponsor": who it is for, not what it is about
        for words in _AUDIENCE.findall(text):
            for term in lexicon.text_terms(words):
                q.content.pop(term, None)
    _mark_unheld(q, tokens, index)
    if _USE_FOR.search(text) and q.soft.get(lexicon.VENDOR):  # "what do they use for X"
        del q.soft[lexicon.VENDOR]
        q.content[lexicon.VENDOR] = 1.0
    q.who = bool(raw & {"who", "whom", "whos"})
    known = {t for t, w in q.content.items() if w >= 1.0}
    subject = known - {"score"} - index.scored_terms  # "strongest maturity score": the scores
    few = not q.content and bool(_TOP_N.search(text))
    q.best = bool(raw & _BEST_WORDS) and not subject and not few
    q.worst = bool(raw & _WORST_WORDS) and not subject
    # "how big is their book": a size asked of the company in a word no field is named by
    # (only the report's prose says "book"), not of a field ("how big is their sales team")
    named = {t for t in q.content if t in index.key_terms or t in specific | _METRIC_TERMS}
    q.size = bool(raw & _SIZE_WORDS) and not named and not q.best and not q.worst
    q.pronoun = bool(raw & _PERSON_PRONOUNS)
    q.refers = bool(raw & _DEMONSTRATIVES)
    if q.who and "them" in raw and set(q.content) == {"owner"} and not q.refers:
        q.who = False  # "who owns them": the company's owners, not a stakeholder
    spelled = " ".join(lexicon.expand(lexicon.words(text)))  # "hw mny" asks how many too
    q.counts = bool(_COUNT_ASKS.search(spelled))
    q.wants_figure = bool(_FIGURE_ASKS.search(text) or _FIGURE_ASKS.search(spelled)) or bool(
        set(q.content) & _METRIC_TERMS
    )
    strong = bool(_STRONG_COACHING & raw)
    first_person = bool(_FIRST_PERSON & raw)
    asked_to_coach = strong or first_person or bool(_HOW_DO_I.search(text))
    if coaching_terms and coaching_stems <= index.key_stems and not asked_to_coach:
        coaching_terms = False  # "days to close": a field's word, not a call to coach
        q.content.update(dict.fromkeys(coaching_stems, 1.0))
    q.coaching = (coaching_terms and (strong or first_person or not q.content)) or bool(
        _HOW_DO_I.search(text)
    )
    if q.summary and (q.brief or not strong) and not q.content:
        q.coaching = False  # "tl;dr before my call?", "what should I lead with?"
    if q.coaching:
        q.summary = False
    if q.names_company and q.empty and not (q.soft or q.scale or q.who):
        q.summary = True  # "Tell me about Acme" / just the company's name
    if raw & _AUDIT_WORDS and not q.known_content and not (q.coaching or q.who or q.soft):
        q.summary = True  # "what's in the audit?", "walk me through the report"
    return q


class Composer:
    """Builds the claims of one answer from a report index and the playbook."""

    def __init__(self, index: ReportIndex, playbook: Playbook, max_claims: int) -> None:
        self.index = index
        self.playbook = playbook
        self.max_claims = max_claims
        self.periods: frozenset[str] = frozenset()
        """The years and periods the question names ("2023 vs 2025", "FY24")."""

    def answer(self, text: str, history: list[HistoryTurn] | None = None) -> list[Claim]:
        self.periods = frozenset(_PERIOD_WORDS.findall(text.lower()))
        return self.consistent(self.compose(text, history))

    def compose(self, text: str, history: list[HistoryTurn] | None) -> list[Claim]:
        stripped = self.index.companies.strip(text)
        named = stripped != " ".join(text.split())
        text = stripped or text
        previous = self.subject_question(history or [])
        whole = parse_question(text, self.index, names_company=named)
        if previous is not None:
            followed = self.follow_up(whole, self.index.companies.strip(previous) or previous)
            if followed is not None:
                return _dedupe(followed)[: MAX_BRIEF_CLAIMS if whole.coaching else self.max_claims]
        brief = (whole.summary and not whole.known_content) or whole.coaching
        limit = MAX_BRIEF_CLAIMS if brief else self.max_claims
        if whole.coaching:
            return _dedupe(self.part(whole))[:limit]
        parts = _parts(text, self.index)
        if len(parts) <= 1:
            return _dedupe(self.part(whole))[:limit]
        share = max(2, self.max_claims // len(parts))
        if _COMPARISON.search(text):
            parts = self.alike(_shared(parts))
        claims: list[Claim] = []
        for part in parts:
            claims += _part_claims(self.part(part)[:share], part.text)
        return _dedupe(claims)[: max(self.max_claims, 2 * len(parts))]

    def subject_question(self, history: list[HistoryTurn]) -> str | None:
        """The latest earlier question with a subject of its own: after "churn?" » "and
        last year?", a third "what about 2023?" is still about churn."""
        for turn in reversed(history[-3:]):
            if parse_question(self.index.companies.strip(turn.question), self.index).content:
                return turn.question
        return history[-1].question if history else None

    def alike(self, parts: list[Question]) -> list[Question]:
        """The sides of a comparison in the same terms: when one side is a score ("is
        checkout better than search?"), every side is read as a score."""
        scored = [self.scored(part) for part in parts]
        if not any(scored) or all(scored):
            return parts
        for part, is_score in zip(parts, scored, strict=True):
            if not is_score:
                part.content = {**part.content, "score": 1.0}
        return parts

    def scored(self, part: Question) -> bool:
        hits = self.ranked(part) if part.content else []
        return bool(hits) and hits[0].item.path in self.index.scales

    def consistent(self, claims: list[Claim]) -> list[Claim]:
        """``claims`` without the quoted passages that state another amount or percentage
        for a field the answer states ("revenue is $5B" beside ``Revenue: $412.5M``),
        unless the figure is that of another field the passage names."""
        stated = [
            item
            for item in self.items_of([c for c in claims if c.kind == "fact"])
            if item.kind == "leaf"
        ]
        if not stated:
            return claims
        return [c for c in claims if not self.contradicts_any(c, stated)]

    def contradicts_any(self, claim: Claim, stated: list[Item]) -> bool:
        if not self.quotes_a_passage(claim):
            return False
        terms = set(lexicon.text_terms(claim.text))
        passage = figures.text_figures(claim.text)
        for item in stated:
            found = figures.field_kind(item.keys, item.leaves[0].value)
            if found is None:
                continue
            kind, value = found
            subject = self.index.name_terms[item.order]
            if not figures.contradicts(claim.text, subject=subject, kind=kind, value=value):
                continue
            if not any(self.names_figure(terms, f) for f in passage if f.kind == kind):
                return True
        return False

    def quotes_a_passage(self, claim: Claim) -> bool:
        """``claim`` is a sentence quoted from a finding's detail (whatever its key)."""
        path = claim.evidence[0] if len(claim.evidence) == 1 else None
        return path is not None and any(
            "detail" in item.fields and item.fields["detail"].path == path
            for item in self.index.holding(path)
        )

    def names_figure(self, terms: set[str], figure: figures.Figure) -> bool:
        """Some field whose name ``terms`` hold has ``figure`` as its value."""
        for item, names in zip(self.index.items, self.index.name_terms, strict=True):
            if item.kind != "leaf" or not names or not names <= terms:
                continue
            found = figures.field_kind(item.keys, item.leaves[0].value)
            if found is not None and found[0] == figure.kind and figure.matches(abs(found[1])):
                return True
        return False

    # -- conversation --------------------------------------------------------------------

    def follow_up(self, q: Question, previous: str) -> list[Claim] | None:
        """The answer to ``q`` read with the previous question, or ``None`` when ``q``
        stands on its own."""
        before = parse_question(previous, self.index)
        if q.pronoun:
            people = [i for i in self.items_of(self.part(before)) if i.is_person]
            if people and q.coaching:  # "how do I handle her?"
                return self.coaching(q, people[0])
            if people:
                own = self.person_field(people[0], q)  # "what does he need?": his needs
                return [own] if own is not None else self.person_claims(people[0], notes_first=True)
        one = self.singular_they(q, before)
        if one is not None:  # "who's the champion?" » "what do they own?": that person
            own = self.person_field(one, q)
            return [own] if own is not None else self.person_claims(one, notes_first=True)
        earlier = self.earlier_point(q, before)
        if earlier is not None:  # "and last year?" after a series: the point before
            return earlier
        record = self.record_field(q, before)
        if record is not None:  # "since when?" after a stack row: that row's own field
            return self.item_claims(record)[:1]
        attribute = concepts.only_figure_attribute(q.text)  # "and the target?": the figure's
        if q.known_content and not q.refers and not q.scale and not attribute:
            return None  # "and their margin?": a subject of its own
        explained = self.figure_explained(q, before)
        if explained is not None:  # "what does that cost them?" after a rate: the finding
            return explained
        merged = _with_previous(q, before)
        if q.who:
            items = self.items_of(self.part(before))
            related = self.related_terms(items)
            owner = self.owner_of({**related, **before.content}, items)
            if owner is not None:
                return self.person_claims(owner)
            merged.content = {**related, **merged.content}
            if "owner" in merged.content:
                merged.content["owner"] = 2.0
        return self.part(merged)

    def figure_explained(self, q: Question, before: Question) -> list[Claim] | None:
        """A follow-up pointing back at a figure ("that", "it") and asking what its own
        field does not hold ("what does that cost them?", "why is it so high?"): the
        finding sentence that states the figure, where the report explains it. ``None``
        when the previous answer held no figure a finding states, or the field answers."""
        if not q.refers or q.who or q.coaching or not (q.content or q.soft):
            return None
        records = (r for r in self.index.items if r.kind == "record")
        if any(set(q.content) & _record_terms(r) for r in records):
            return None  # "how much could we save on that": records keep what is asked
        leaves = [i for i in self.items_of(self.part(before)) if i.kind == "leaf"][:1]
        for item in leaves:
            if set(q.content) & _key_terms(item.keys):
                return None  # "and the target for that?" where the field's keys say so
            value = item.leaves[0].value
            if not wording.is_number(value):
                return None
            said = wording.shown(item.keys, item.leaves[0], self.index.facts)
            numbers = set(_NUMBER.findall(said)) | set(_NUMBER.findall(str(value)))
            figures = [n for n in numbers if len(n.replace(".", "")) >= 2]
            for finding in self.index.findings():
                for sentence in wording.detail_sentences(finding):
                    if any(
                        re.search(rf"(?<![\d.]){re.escape(n)}(?![\d])", sentence) for n in figures
                    ):
                        return [wording.detail_claim(finding, sentence)]
        return None

    def earlier_point(self, q: Question, before: Question) -> list[Claim] | None:
        """The series the previous answer gave, at the period the follow-up asks for: the
        one it names ("what about 2023?") or the one before the latest ("and last year?");
        ``None`` when the follow-up asks for no period, or names one and the answer held no
        series."""
        if q.known_content or not (self.periods or concepts.asks_previous(q.text)):
            return None
        series = self.index.facts.series
        answered = self.part(before)
        items = [i for i in self.items_of(answered) if i.path in series]
        if not items:
            return self.no_earlier(q, answered)
        claims: list[Claim] = []
        asked = self.periods
        for item in items[:2]:
            points = series[item.path].series
            if points is None or len(points.points) < 2:
                continue
            named = {p.period.lower() for p in points.points} & asked
            self.periods = frozenset(named) or frozenset({points.points[-2].period.lower()})
            claims += self.item_claims(item)[:1]
        self.periods = asked
        return claims or None

    def no_earlier(self, q: Question, answered: list[Claim]) -> list[Claim] | None:
        """ "And last year?" after figures the report gives for one period only: that
        earlier period is not in the report, said of the figure asked, with the figures it
        does give ("Revenue growth: down 5%")."""
        facts = [c for c in answered if c.kind == "fact"]
        leaves = [i for i in self.items_of(facts) if i.kind == "leaf"]
        if not concepts.asks_previous(q.text) or not leaves:
            return None
        name = wording.label(leaves[0].keys, self.index.caps).lower()
        return [absent(f"Not in the audit report: {name} for an earlier period."), *facts[:NEARBY]]

    def record_field(self, q: Question, before: Question) -> Item | None:
        """The record the previous answer was about (not a person or finding) when the
        follow-up asks for one of its own fields by the field's key ("since when?")."""
        asked = set(q.content) | set(q.soft)
        if not asked:
            return None
        for item in self.items_of(self.part(before))[:1]:
            if item.kind != "record" or item.is_person or item.is_finding:
                continue
            keys = {t for key in item.fields for t in lexicon.terms(lexicon.key_words(key))}
            if asked & keys:
                return item
        return None

    def owner_of(self, subject: Terms, items: list[Item]) -> Item | None:
        """The person who owns what the previous answer was about: ``subject`` (its terms,
        the findings behind its figures), the values and finding titles ``items`` cites,
        matched first in the clauses of a person's notes that say what they own or run
        ("Owns the trial funnel"), then in their title, then anywhere in title, role and
        notes."""
        terms = dict(subject)
        for item in items:
            if item.is_finding:
                for t in lexicon.text_terms(item.get("title") or ""):
                    terms.setdefault(t, 0.5)
            elif item.kind != "record":  # the vendor or value the answer named: "Alkami"
                for leaf in item.leaves:
                    for t in lexicon.text_terms(str(leaf.value)):
                        terms.setdefault(t, 1.0)
        best: tuple[tuple[float, ...], Item] | None = None
        for person in self.index.people():
            clauses = re.split(r"[;,.]", person.get("notes") or "")
            owned = " ".join(c for c in clauses if _OWNS.search(c))
            said = " ".join(person.get(key) or "" for key in ("title", "role", "notes"))
            score = tuple(
                sum(w for t, w in terms.items() if t in set(lexicon.text_terms(text)))
                for text in (owned, person.get("title") or "", said)
            )
            if score[-1] >= 0.5 and (best is None or score > best[0]):
                best = (score, person)
        return best[1] if best else None

    def items_of(self, claims: list[Claim]) -> list[Item]:
        """The items ``claims`` cite, in the order the claims cite them."""
        out: list[Item] = []
        for path in (p for c in claims for p in c.evidence):
            out += [item for item in self.index.holding(path) if item not in out]
        return out

    def related_terms(self, items: list[Item]) -> Terms:
        """Title terms of the findings that state a figure of ``items`` (the finding
        behind a metric), at half weight: who owns a metric is who owns its finding."""
        out: Terms = {}
        for item in items:
            if item.kind != "leaf" or not wording.is_number(item.leaves[0].value):
                continue
            figure = wording.format_value(item.keys, item.leaves[0].value).lstrip("$")
            for finding in self.index.findings():
                if figure in (finding.get("detail") or ""):
                    for term in lexicon.text_terms(finding.get("title") or ""):
                        out.setdefault(term, 0.5)
        return out

    # -- one part ------------------------------------------------------------------------

    def part(self, q: Question) -> list[Claim]:
        claims = self.answered(q)
        if q.unheld and all(c.kind != "absent" or c.text == ABSENT_TEXT for c in claims):
            # "cargo revenue" where only the group's revenue is kept: the near fact, as such
            missing = [absent(f"Not in the audit report: {said}.") for said in q.unheld]
            return [*missing, *[c for c in claims if c.kind != "absent"][:NEARBY]]
        return [*self.not_given(q, claims), *claims]

    def not_given(self, q: Question, claims: list[Claim]) -> list[Claim]:
        """A plain "no figure" line for each field answering ``q`` by name whose value says
        the report gives none (``null``, "n/a", "not disclosed"), so the rep does not
        read one; a nearby field's missing value is no answer missing."""
        asked = {t for t, w in q.content.items() if w >= 1.0}
        labels: list[str] = []
        for claim in claims:
            for path in claim.evidence if claim.kind == "fact" else ():
                fact = self.index.facts.get(path)
                if fact is None or fact.kind is not FactKind.NOT_GIVEN or not fact.label:
                    continue
                if asked and asked <= set(lexicon.text_terms(fact.label)):
                    labels.append(fact.label)
        return [
            absent(f"The report doesn't give a figure for {said}.")
            for said in dict.fromkeys(_absent_words(label) for label in labels)
            if said
        ]

    def answered(self, q: Question) -> list[Claim]:
        if q.coaching:
            return self.coaching(q)
        found = self.concept(q)
        if found is not None:
            return found
        if q.summary and not q.known_content:
            return self.summary(q)
        if q.size:
            return self.size()
        if q.best or q.worst:
            return self.extremes(q)
        if not q.content:
            if lexicon.FINDING in q.soft:
                return self.findings(self.index.findings())
            if lexicon.STAKEHOLDER in q.soft:
                return self.people(self.index.people(), q.text)
        if q.who and not q.known_content and self.index.people():
            return self.people(self.index.people(), q.text)  # "who do I need to win over?"
        if not q.content:
            if not q.soft:
                return self.scales_only() if q.scale else [absent()]
            q = Question(q.text, content=dict(q.soft), soft={}, scale=q.scale, who=q.who)
        hits = self.ranked(q)
        if not _answers(hits) and lexicon.FINDING in q.content and len(q.content) > 1:
            # "what are their payment issues?" with no such finding: the payment facts
            q.content.pop(lexicon.FINDING)
            hits = self.ranked(q)
        return self.headed(q, hits)

    def headed(self, q: Question, hits: list[Hit]) -> list[Claim]:
        """The answer to ``q`` read by its head when it asks how many of a thing or how
        often a thing does something (``offline_heads``), else the ranked fields'."""
        head = self.ask_head(q)
        if head is None:
            return self.looked_up(q, hits)
        if head.counts and not _answers(hits):
            q, hits = self.head_only(q, head, hits)
        # a head the report never uses ("sensors"); a soft word ("people") is no subject
        unheld = head.term not in self.index.postings and not lexicon.is_soft(head.term)
        if head.counts and unheld and not _answers(hits):  # "how many trucks"
            return [absent(f"The report doesn't mention {head.word}."), *self.counts(q)]
        if head.counts and _answers(hits) and not self.counted_by(head, hits, q.text):
            return [absent(f"Not in the audit report: a count of {head.word}."), *self.counts(q)]
        claims = self.looked_up(q, hits)
        if unheld and any(c.kind == "fact" for c in claims) and claims[0].kind != "absent":
            # "how often do the sensors break": the failures it records, and no sensors
            claims.append(absent(f"The report doesn't mention {head.word}."))
        return claims

    def looked_up(self, q: Question, hits: list[Hit]) -> list[Claim]:
        """The answer the ranked fields give: the tools, findings or people asked, else a
        lookup of the best fields; "not in the report" when none answers, with the
        nearest."""
        kind = self.tool_kind(q)
        if kind is not None and _answers(hits) and not any(self.for_kind(h, kind) for h in hits):
            # "what's their cloud provider" where only a product is called "Sales Cloud"
            return [absent(f"Not in the audit report: {kind[0]}."), *self.nearby(q, hits)]
        if not _answers(hits) or self.unmeasured(q, hits):
            return [absent(), *self.nearby(q, hits)]
        hits = [h for h in hits if h.coverage > COVERAGE] + [
            h for h in hits if h.coverage <= COVERAGE
        ]
        tool = lexicon.VENDOR in q.content  # a tool asked: the tools first
        hits.sort(
            key=lambda h: (
                -(h.coverage > COVERAGE),
                -(tool and lexicon.VENDOR in h.covered),
                -(q.counts and h.item.kind == "leaf" and self.counted(h.item)),
                -h.score,
                h.item.order,
            )
        )
        if lexicon.FINDING in q.content and any(
            h.item.is_finding and h.coverage > COVERAGE for h in hits[:3]
        ):
            return self.findings_for(q, hits)
        if (q.who or lexicon.STAKEHOLDER in q.content) and any(
            h.item.is_person and h.coverage > COVERAGE for h in hits[:6]
        ):
            return self.people_for(q, hits)
        claims = self.lookup(q, hits)
        counted = [c for c in claims if not (q.counts and self.scored_claim(c))]
        if q.wants_figure and not any(_has_figure(c) for c in counted):
            return [absent(), *claims[:NEARBY]]  # a score does not say how many
        if _PERCENT_ASK.search(q.text) and not any(_PERCENT.search(c.text) for c in counted):
            return [absent(), *claims[:NEARBY]]  # "what % of fuel do they hedge": no share
        if _MONEY_ASK.search(q.text) and not any(map(self.is_money, self.items_of(claims))):
            # "EBITDA in dollars" where only the margin is kept: the near fact, as such
            return [_named(absent(), q.text), *claims[:NEARBY]]
        if "target" in q.content and not any(
            "target" in self.sentence_terms(c.text) for c in claims
        ):
            return [*claims, absent()]  # "churn vs target": the churn, and no target stated
        return claims

    def ask_head(self, q: Question) -> heads.AskHead | None:
        """What a count ask counts ("how many farms…": farms), or what a frequency ask is
        about ("how often do the sensors break": sensors); ``None`` for any other ask."""
        return heads.ask_head(q.text, self.index.correct)

    def head_only(
        self, q: Question, head: heads.AskHead, hits: list[Hit]
    ) -> tuple[Question, list[Hit]]:
        """``q`` asked again with the words that only place its head as soft words ("how
        many growers are on the platform" → growers, leaning to the platform), when that
        finds an answer; else ``q`` and ``hits`` as they were."""
        qualifiers = head.qualifiers & set(q.content)
        if head.term not in q.content or not qualifiers:
            return q, hits
        content = {t: w for t, w in q.content.items() if t not in qualifiers}
        soft = {**q.soft, **dict.fromkeys(qualifiers, 1.0)}
        retried = replace(q, content=content, soft=soft)
        found = self.ranked(retried)
        return (retried, found) if _answers(found) else (q, hits)

    def counted_by(self, head: heads.AskHead, hits: list[Hit], text: str) -> bool:
        """A count ask is answered by the report's fields: some well-ranked field is named
        by the ask's words (in its key, a table row's name or its unit; by the words that
        place the head only when it is a count: "on the platform" asks for no tool, "on
        their email list" for the subscribers; a person or a finding is no figure,
        whatever their title says), or a text that
        answers counts the head ("27,800 probes"); a text that only mentions it ("19 farm
        visits") counts no farms; so much per unit ("crane rate, moves per hour") counts
        nothing unless the ask is per unit too."""
        per_ask = "per" in lexicon.words(text)
        figures = [
            h
            for h in hits[:8]
            if h.item.kind != "record" and (per_ask or "per" not in _key_words(h.item.path))
        ]
        if any(self.index.named_by(h.item, h.covered - head.qualifiers) for h in figures):
            return True  # a field named by the ask ("how many customers bail": abandonment)
        if any(self.index.named_by(h.item, h.covered) and self.counted(h.item) for h in figures):
            return True  # a count named where it is ("people on the email list": subscribers)
        return any(
            heads.counts_in(str(leaf.value), head.word)
            for h in hits[:8]
            if h.coverage > COVERAGE and h.item.section not in VALUE_PRIOR  # not the audit's
            for leaf in h.item.leaves
            if isinstance(leaf.value, str)
        )

    def counts(self, q: Question) -> list[Claim]:
        """The counts the report keeps, as the near facts of a count it lacks: those the
        question's words rank first, then those that say what they count (``1,630
        accounts``, not a bare ``184``), in report order."""
        ranked = {h.item.order: h.score for h in self.index.rank(q.content, q.soft)}
        found = [
            item
            for item in self.index.items
            if item.kind == "leaf"
            and item.section not in VALUE_PRIOR  # the audit's own fields (its version)
            and item.path not in self.index.scales
            and self.counted(item)
            and self.whole(item)
            and self.money(item) is None
        ]
        found.sort(key=lambda i: (-ranked.get(i.order, 0.0), not self.measured(i), i.order))
        return [self.item_claims(item)[0] for item in found[:NEARBY]]

    def whole(self, item: Item) -> bool:
        """``item``'s figure is a whole number of things, as a count is (not "1.8 nights",
        not "3 working days")."""
        typed = self.quantity(item)
        if typed is None:
            return True
        timed = typed.measure is not None and heads.is_duration(typed.measure)
        return float(typed.value).is_integer() and not timed

    def measured(self, item: Item) -> bool:
        """``item``'s figure says what it counts or measures (its unit: ``accounts``)."""
        typed = self.quantity(item)
        return typed is not None and typed.measure is not None

    def counted(self, item: Item) -> bool:
        """``item`` states how many of something (a count, as a number or in its text:
        ``"27 hotels (19 country house, 8 city)"``), not a score or a share."""
        if item.path in self.index.scales:
            return False
        typed = self.index.facts.get(item.leaves[0].path)
        if typed is None:
            return False
        if typed.quantity is not None:
            return typed.quantity.unit.value in ("count", "number")
        return bool(_COUNT_TEXT.match(str(item.leaves[0].value)))

    def scored_claim(self, claim: Claim) -> bool:
        """``claim`` states a score on a scale (``6/10``)."""
        return any(path in self.index.scale_paths for path in claim.evidence)

    def concept(self, q: Question) -> list[Claim] | None:
        """The answer to a concept the report keeps in its structure (``offline_concepts``):
        people by role, competitors, risks, the company's age, measures asked in a rep's
        words (how well capitalised, what customers think); ``None`` for anything else."""
        if self.names_a_field(q):
            return None  # "what's their legal name": the field, not the legal contact
        role = concepts.role_asked(q.text)
        if role is not None:
            exact, near = concepts.holders(role, self.index.people())
            if exact:
                return [c for person in exact[:2] for c in self.person_claims(person)]
            missing = absent(f"The report doesn't name {role.article} {role.name}.")
            return [missing, *(near and self.person_claims(near[0]))]
        if concepts.asks_competitors(q.text):
            found = concepts.competitor_items(self.index)
            if not found:
                return [absent("The report doesn't list any competitors.")]
            return [self.item_claims(item)[0] for item in found[:MAX_LOOKUP_ITEMS]]
        if concepts.asks_risks(q.text) and self.index.findings():
            return self.risks()
        measure = concepts.measure_asked(q.text)
        if measure is not None and lexicon.VENDOR not in q.content:  # not "using for reviews"
            held, unheld = concepts.measure_items(self.index, measure, q.text)
            held = [item for item in held if self.quantity(item) is not None]  # figures only
            if not held:
                missing = absent(f"The report doesn't give {measure.name}.")
                return [missing, *self.nearby(q, self.ranked(q) if q.content else [])]
            claims = [self.item_claims(item)[0] for item in held[: MAX_LOOKUP_ITEMS - 1]]
            if unheld:  # "how much of their business is consumables": the parts it has
                return [absent(f"Not in the audit report: {unheld}."), *claims]
            return claims
        if concepts.asks_age(q.text) and not concepts.age_of_a_part(self.index, q.text):
            aged = concepts.age_items(self.index)
            if not aged:
                return [absent("The report doesn't give the year the company was founded.")]
            return [self.item_claims(item)[0] for item in aged[:1]]
        return None

    def tool_kind(self, q: Question) -> tuple[str, str] | None:
        """The kind of tool a question asks for by a word before a vendor word ("cloud
        provider", "email platform"): (the words as said, the kind's term), or ``None``."""
        tokens = [self.index.correct(t) for t in lexicon.words(q.text)]
        for i in range(1, len(tokens)):
            if lexicon.concept(tokens[i]) != lexicon.VENDOR or lexicon.is_stop(tokens[i - 1]):
                continue
            kind = lexicon.terms(tokens[i - 1 : i])
            if kind and kind[0] != lexicon.VENDOR and kind[0] in q.content:
                return f"{tokens[i - 1]} {tokens[i]}", kind[0]
        return None

    def for_kind(self, hit: Hit, kind: tuple[str, str]) -> bool:
        """``hit`` is a tool of ``kind``: its keys say so (``vendors.email``), or a field of
        its record that is not the tool's own name (``category: Email``). A product merely
        called "Sales Cloud" is no cloud provider."""
        term = kind[1]
        if term not in hit.covered:
            return False
        if term in _key_terms(hit.item.keys):
            return True
        for key, leaf in hit.item.fields.items():
            words = lexicon.key_words(key)
            if set(lexicon.terms(words)) & {lexicon.VENDOR, "name", "product"}:
                continue  # the tool's own name says nothing of what it is for
            if term in lexicon.terms(words) or term in lexicon.text_terms(str(leaf.value)):
                return True
        return False

    def names_a_field(self, q: Question) -> bool:
        """The question's subject words, two or more, are all words of one field's name."""
        asked = {t for t, w in q.content.items() if w >= 1.0}
        return len(asked) >= 2 and any(asked <= names for names in self.index.name_terms)

    def unmeasured(self, q: Question, hits: list[Hit]) -> bool:
        """A measure asked of something the report does not measure ("headcount at the
        Brno plant" where only the group's headcount is kept): the question names a figure
        a field holds and a thing the report only names in its values (a place, a
        product: a capitalised word), and no item holds both."""
        known = {t for t, w in q.content.items() if w >= 1.0 and t in self.index.postings}
        measures = known & self.index.measures
        subjects = (known - self.index.key_terms) & self.index.proper_terms
        if not measures or not subjects:
            return False
        return not any(h.covered & measures and subjects <= h.covered for h in hits)

    def ranked(self, q: Question) -> list[Hit]:
        scales = self.index.scale_paths
        return [h for h in self.index.rank(q.content, q.soft) if h.item.path not in scales]

    def nearby(self, q: Question, hits: list[Hit]) -> list[Claim]:
        """What the report holds closest to an absent subject: the best hits, else the
        people for a "who", else nothing."""
        if not hits and q.who:
            return [wording.person_claim(p) for p in self.index.people()[:NEARBY]]
        claims: list[Claim] = []
        for hit in hits[:NEARBY]:
            claims += self.item_claims(hit.item)[:1]
        return claims

    # -- answer kinds ------------------------------------------------------------------

    def summary(self, q: Question) -> list[Claim]:
        """The three most severe findings, a figure each; then a move each (talking
        points, what to lead with) or the headline financials (a summary)."""
        findings = self.index.findings()[:3]
        claims: list[Claim] = []
        for item in findings:
            claims += self.finding_with_figure(item)
            if q.brief:
                title = item.fields["title"].path
                claims.append(wording.coaching_claim(self.entry_for(item), [title]))
        if not q.brief or not findings:
            claims += [self.item_claims(item)[0] for item in self.headlines()]
        return claims or [absent()]

    def risks(self) -> list[Claim]:
        """The three most severe findings, each with the figure of its detail."""
        return [c for item in self.index.findings()[:3] for c in self.finding_with_figure(item)]

    def finding_with_figure(self, item: Item) -> list[Claim]:
        """A finding's title and severity, and the first sentence of its detail with a
        figure."""
        claims = [wording.finding_claim(item)]
        sentence = self.best_sentence(item, frozenset(), want_number=True)
        if sentence is not None and _digits(sentence):
            claims.append(wording.detail_claim(item, sentence))
        return claims

    def size(self) -> list[Claim]:
        """How big the prospect is: its revenue (or largest amount), headcount, and the
        counts the report keeps about the company (places, customers, members)."""
        claims = [self.item_claims(item)[0] for item in self.headlines()[:1]]
        for item, names in self.numbers():
            keys = set(lexicon.key_words(item.keys[-1]))
            if "founded" in names or "year" in keys or self.money(item) is not None:
                continue
            if "employee" in names or (
                item.section in ("company", "metrics")
                and (
                    item.section == "company"
                    or keys & _SIZE_KEYS
                    or any(k in _SIZE_SECTIONS for k in item.keys)
                )
                and figures.field_kind(item.keys, item.leaves[0].value) is None
            ):
                claims.append(self.item_claims(item)[0])
        return claims[:5] or [absent()]

    def extremes(self, q: Question) -> list[Claim]:
        """The highest and/or lowest score, each with its scale; "weakest" adds the most
        severe finding."""
        scored = [
            item
            for item in self.index.items
            if item.path in self.index.scales and wording.is_number(item.leaves[0].value)
        ]
        if not scored:
            return self.findings(self.index.findings()) if q.worst else [absent()]
        ordered = sorted(scored, key=lambda i: (float(i.leaves[0].value), i.order))  # type: ignore[arg-type]
        claims = []
        if q.best:
            claims.append(self.item_claims(ordered[-1])[0])
        if q.worst:
            claims.append(self.item_claims(ordered[0])[0])
            if not q.best and self.index.findings():
                claims.append(wording.finding_claim(self.index.findings()[0]))
        return claims

    def scales_only(self) -> list[Claim]:
        """ "What's the scale?" with no score named: every score with its scale."""
        return [self.item_claims(i)[0] for i in self.index.items if i.path in self.index.scales]

    def findings(self, items: list[Item]) -> list[Claim]:
        """Finding titles with their severity, in the order given."""
        return [wording.finding_claim(item) for item in items[:MAX_FINDINGS]] or [absent()]

    def people(self, items: list[Item], text: str = "") -> list[Claim]:
        """People with their titles and roles, and the move for mapping them."""
        claims = [wording.person_claim(p) for p in items[: self.max_claims - 1]]
        entry = self.playbook.for_question(text) or self.playbook.for_section("stakeholders")
        if entry is not None and claims:
            claims.append(wording.coaching_claim(entry, [items[0].fields["name"].path]))
        return claims or [absent()]

    def findings_for(self, q: Question, hits: list[Hit]) -> list[Claim]:
        found = [h.item for h in hits if h.item.is_finding]
        if set(q.content) == {lexicon.FINDING}:
            found.sort(key=lambda item: (item.severity_rank, item.order))
            return self.findings(found)
        claims: list[Claim] = []
        for item in found[:2]:
            claims.append(wording.finding_claim(item))
            best = self.best_sentence(item, frozenset(q.content))
            if best is not None:
                claims.append(wording.detail_claim(item, best))
        return claims

    def people_for(self, q: Question, hits: list[Hit]) -> list[Claim]:
        people = [h.item for h in hits if h.item.is_person]
        specific = set(q.content) - {lexicon.STAKEHOLDER}
        if not specific:
            people.sort(key=lambda item: item.order)
            return self.people(people, q.text)
        claims = self.person_claims(people[0])
        claims += [wording.person_claim(p) for p in people[1:2]]
        return claims

    def singular_they(self, q: Question, before: Question) -> Item | None:
        """The one person a "they" follow-up points back at: the previous question asked
        who, its answer was one person, and every subject of the follow-up is in that
        person's record ("what do they own?" where the notes say "Owns the trial
        funnel"); ``None`` otherwise (then "they" is the company)."""
        if q.pronoun or not before.who or not q.content or q.coaching:
            return None
        if not set(lexicon.words(q.text)) & _THEY:
            return None
        people = [i for i in self.items_of(self.part(before)) if i.is_person]
        if len(people) != 1:
            return None
        held = {t for leaf in people[0].leaves for t in lexicon.text_terms(str(leaf.value))}
        held |= {t for leaf in people[0].leaves for t in _key_terms((leaf.path,))}
        return people[0] if set(q.content) <= held else None

    def person_field(self, person: Item, q: Question) -> Claim | None:
        """The field of ``person``'s record a follow-up names by its key ("what does he
        need?" → ``NEEDS``, "what does she care about?" → ``cares-about``): its values, or
        ``None`` when the question names no field of the record but its person."""
        asked = {  # every word, stop words too: "need" and "want" name fields here
            lexicon.stem(w) for w in lexicon.words(q.text) if len(w) > 2
        } - {lexicon.stem(w) for w in _PERSON_PRONOUNS}
        fields = _record_fields(person)
        for key, leaves in fields.items():
            if asked & {lexicon.stem(w) for w in lexicon.key_words(key) if len(w) > 2}:
                return _field_claim(person, key, leaves)
        roles = [role for role, said in lexicon.PERSON_ASKS.items() if asked & said]
        if lexicon.FINDING in lexicon.terms(lexicon.words(q.text)):  # "what's his issue?"
            roles.append("concerns")
        for role in roles:  # "what's he after" → needs; "what's holding her back" → concerns
            keys = set(lexicon.RECORD_FIELDS["person"].get(role, ()))
            for key, leaves in fields.items():
                words = lexicon.key_words(key)
                if keys & {*words, "_".join(words)}:
                    return _field_claim(person, key, leaves)
        return None

    def on_record(self, person: Item) -> list[Claim]:
        """What ``person``'s record says of them beyond name, title and role: their notes,
        needs, objections or remit, one claim a field, in record order."""
        shown = {person.fields[k].path for k in ("name", "title", "role") if k in person.fields}
        claims = []
        for key, leaves in _record_fields(person).items():
            if any(leaf.path in shown for leaf in leaves):
                continue
            if all(isinstance(leaf.value, str) for leaf in leaves):
                notes = person.fields.get("notes")
                if notes is not None and [notes] == leaves:
                    claims.append(wording.fact(str(notes.value), [notes.path]))
                else:
                    claims.append(_field_claim(person, key, leaves))
        return claims

    def person_claims(self, person: Item, *, notes_first: bool = False) -> list[Claim]:
        claims = [wording.person_claim(person)]
        notes = wording.notes_claim(person)
        if notes is not None:
            claims = [notes, *claims] if notes_first else [*claims, notes]
        return claims

    def lookup(self, q: Question, hits: list[Hit]) -> list[Claim]:
        top = hits[0].score
        picked = [
            h
            for h in hits
            if h.score >= RELATIVE_CUTOFF * top
            and h.coverage > 0
            and (h.named or not hits[0].named or h.item.kind == "record")
        ]
        chosen = self.wholes(q, picked)[:MAX_LOOKUP_ITEMS]
        claims: list[Claim] = []
        for item in chosen:
            claims += self.item_claims(item)
            if item.is_finding:
                sentence = self.best_sentence(item, frozenset(q.content), want_number=True)
                if sentence is not None:
                    claims.append(wording.detail_claim(item, sentence))
        if not any(item.is_finding for item in chosen):
            related = next(
                (h.item for h in hits if h.item.is_finding and h.score >= RELATED_CUTOFF * top),
                None,
            )
            if related is not None:
                sentence = self.best_sentence(related, frozenset(q.content), want_number=True)
                claims.append(wording.finding_claim(related))
                if sentence is not None and self.sentence_terms(sentence) & set(q.content):
                    claims.append(wording.detail_claim(related, sentence))
        return claims

    def wholes(self, q: Question, chosen: list[Hit]) -> list[Item]:
        """The items of ``chosen`` with the measure asked first and its parts left out: when
        a best-covering item is the measure itself (the question's term heads its name,
        qualified by soft words only: ``Annual Revenue``, ``revenue.total_usd``), the kinds
        of it the question did not ask for (``Rooms Revenue``) and the parts nested beside
        the whole (``revenue.by_segment.pumps.revenue_usd``) give way to it, and so do
        other sections' fields that only mention it (``Scores["Revenue Management"]``). An
        item holding a question term the whole lacks ("ecom rev") always stays."""
        heads, names = self.index.heads, self.index.name_terms
        best = max((h.coverage for h in chosen), default=0.0)
        soft = set(q.soft)  # "online sales": a kind the rep named, in a soft word
        pure = [
            h
            for h in chosen
            if h.coverage == best
            and (head := heads[h.item.order]) is not None
            and head.pure
            and head.term in q.content
            and self.quantity(h.item) is not None  # a figure: "payments" (Adyen) is no measure
        ]
        if not pure:
            return [h.item for h in chosen]
        whole = min(pure, key=lambda h: (len(h.item.keys), chosen.index(h)))
        if any(names[h.item.order] & soft - names[whole.item.order] for h in chosen):
            return [h.item for h in chosen]
        whole_head = heads[whole.item.order]
        assert whole_head is not None
        term = whole_head.term
        parent = whole.item.path.rsplit(".", 1)[0] if "." in whole.item.path else ""

        def part(hit: Hit) -> bool:
            item, head = hit.item, heads[hit.item.order]
            if hit.covered - whole.covered:
                return False
            if head is None or head.term != term:  # another measure: only the whole's own
                return item.kind == "leaf" and item.section != whole.item.section
            nested = bool(parent) and item.path.startswith(parent + ".")
            return not head.pure or nested

        return [whole.item, *(h.item for h in chosen if h is not whole and not part(h))]

    def coaching(self, q: Question, person: Item | None = None) -> list[Claim]:
        """A move anchored to ``person`` (a follow-up's "her"), else to the person,
        competitor or finding the question names, with the facts it leans on."""
        asked = self.playbook.for_question(q.text)
        hits = self.ranked(q) if q.content else []
        anchor = (
            person
            or self.person_named(q.text)
            or self.person_in_role(q.text)
            or concepts.competitor_named(self.index, q.text)
            or (_coaching_anchor(hits) if _answers(hits) else self.anchor_for(asked))
        )
        if anchor is None:
            entry = asked or self.playbook.moves[0]
            return [wording.coaching_claim(entry, []), wording.ask_claim(entry, [])]
        entry = asked or self.entry_for(anchor)
        facts = self.leaning_facts(anchor, frozenset(q.content))
        if anchor.is_person:
            entry, facts = self.person_coaching(q, anchor, entry)
        cite = facts[0].evidence[:1] if facts else []
        return [wording.coaching_claim(entry, cite), *facts, wording.ask_claim(entry, cite)]

    def person_coaching(
        self, q: Question, person: Item, entry: Move | Frame
    ) -> tuple[Move | Frame, list[Claim]]:
        """The move for ``person`` and the facts it leans on. What they have on record
        (needs, objections, remit: any field of their record beyond name, title and role)
        picks the move and is stated; so is the finding that matters to them: the one the
        question names ("how do I sell X to their CFO"), else the one their record speaks
        of (two of its words at least, not counting time and coaching words), else the most
        severe."""
        record = self.on_record(person)
        # the record's words and the names of its fields ("pushback", "needs") pick the move
        keys = " ".join(" ".join(lexicon.key_words(k)) for k in _record_fields(person))
        values = [str(leaf.value) for leaf in person.leaves if isinstance(leaf.value, str)]
        needs = " ".join([keys, *(v for v in values if v != person.get("name"))])
        entry = self.playbook.for_question(needs) or entry
        facts = [wording.person_claim(person), *record[:2]]
        named = _named_terms(person)
        asked = {t: w for t, w in q.content.items() if t not in named and w >= 1.0}
        spoken = {
            t: 1.0
            for c in record
            for t in lexicon.text_terms(c.text)
            if t not in named and t != lexicon.COACHING and not lexicon.is_soft(t)
        }
        wanted = 1 if asked else 2
        finding = next(
            (
                h.item
                for h in self.index.rank(asked or spoken, {})
                if h.item.is_finding and len(h.covered) >= wanted
            ),
            None,
        )
        if finding is None and not asked:
            finding = next(iter(self.index.findings()), None)
        if finding is not None:
            facts += self.leaning_facts(finding, frozenset(asked or spoken))
        return entry, facts

    # -- helpers -----------------------------------------------------------------------

    def person_named(self, text: str) -> Item | None:
        """The person the question names by full name, or by two words or more of a title
        ("their head of IT", "the quality director", "the works council" of "Works council
        chair"), stop words and case included."""
        said = f" {' '.join(lexicon.words(text))} "
        for person in self.index.people():
            phrase = " ".join(lexicon.words(person.get("name") or ""))
            if phrase.count(" ") >= 1 and f" {phrase} " in said:
                return person
        for person in self.index.people():  # "the works council" of "Works council chair"
            title = lexicon.words(person.get("title") or "")
            for n in range(len(title), 1, -1):
                for i in range(len(title) - n + 1):
                    run = title[i : i + n]
                    hard = [w for w in run if not lexicon.is_stop(w)]
                    if len(hard) >= 2 and f" {' '.join(run)} " in said:
                        return person
        return None

    def person_in_role(self, text: str) -> Item | None:
        """The person holding the role the question names ("their CFO", "the champion"),
        else the nearest one."""
        role = concepts.role_asked(text)
        if role is None:
            return None
        exact, near = concepts.holders(role, self.index.people())
        found = exact or near
        return found[0] if found else None

    def anchor_for(self, entry: Move | Frame | None) -> Item | None:
        """The finding a move is best anchored to: one it fits, else one of the severities
        it is meant for, else the most severe."""
        findings = self.index.findings()
        if entry is None or not findings:
            return findings[0] if findings else None
        for item in findings:
            if self.entry_for(item) == entry:
                return item
        for item in findings:
            if (item.get("severity") or "").lower() in entry.when.severities:
                return item
        return findings[0]

    def entry_for(self, anchor: Item) -> Move | Frame:
        if anchor.is_finding:
            return self.playbook.for_finding({k: v.value for k, v in anchor.fields.items()})
        return self.playbook.for_section(anchor.section) or self.playbook.moves[0]

    def leaning_facts(self, anchor: Item, required: frozenset[str]) -> list[Claim]:
        """The anchor as a fact, plus the figure a coaching move leans on."""
        if anchor.is_finding:
            claims = [wording.finding_claim(anchor)]
            sentence = self.best_sentence(anchor, required, want_number=True)
            if sentence is not None:
                claims.append(wording.detail_claim(anchor, sentence))
            return claims
        return self.item_claims(anchor)[:2]

    def sentence_terms(self, text: str) -> set[str]:
        return set(lexicon.text_terms(text))

    def best_sentence(
        self, item: Item, required: frozenset[str], *, want_number: bool = False
    ) -> str | None:
        """The detail sentence sharing most terms with the question (ties: the first)."""
        best: tuple[int, str] | None = None
        for text in wording.detail_sentences(item):
            score = len(required & self.sentence_terms(text)) * 2
            if want_number and _digits(text):
                score += 1
            if best is None or score > best[0]:
                best = (score, text)
        return best[1] if best else None

    def headlines(self) -> list[Item]:
        """Revenue, its growth and a margin, wherever the report keeps them. Revenue: the
        amount of money named revenue (exactly, else the shortest such name), else the
        largest amount the report states (total assets); growth: a change of revenue;
        margin: the first margin."""
        numbers = self.numbers()
        money = [(i, n) for i, n in numbers if self.money(i) is not None and "growth" not in n]
        revenue = [(i, n) for i, n in money if "revenue" in _key_terms(i.keys)]
        if revenue:
            top = min(revenue, key=lambda p: (p[1] != {"revenue"}, len(p[1]), p[0].order))[0]
        elif money:
            top = max(money, key=lambda p: (abs(self.money(p[0]) or 0), -p[0].order))[0]
        else:
            return []
        out = [top]
        growth = [i for i, n in numbers if "growth" in n and "revenue" in _key_terms(i.keys)]
        margin = [i for i, n in numbers if any(t.endswith("margin") for t in n)]
        for found in (growth, margin):
            out += found[:1]
        return out

    def numbers(self) -> list[tuple[Item, frozenset[str]]]:
        """Numeric leaves (a JSON number, or a display string typed as a quantity:
        ``"£212.4m"``) with the terms of their names."""
        return [
            (item, names)
            for item, names in zip(self.index.items, self.index.name_terms, strict=True)
            if item.kind == "leaf"
            and (wording.is_number(item.leaves[0].value) or self.quantity(item) is not None)
        ]

    def quantity(self, item: Item) -> Quantity | None:
        typed = self.index.facts.get(item.leaves[0].path) if item.leaves else None
        return typed.quantity if typed is not None else None

    def is_money(self, item: Item) -> bool:
        """``item`` states an amount of money (its typed fact is a currency quantity)."""
        return self.money(item) is not None

    def money(self, item: Item) -> Decimal | None:
        """The amount of money ``item`` states, from its typed fact (in any house style),
        else from its key's currency word."""
        typed = self.quantity(item)
        if typed is not None and typed.unit.value == "currency":
            return Decimal(repr(typed.amount))
        found = figures.field_kind(item.keys, item.leaves[0].value)
        return found[1] if found is not None and found[0] == "money" else None

    def item_claims(self, item: Item) -> list[Claim]:
        if item.is_finding:
            return [wording.finding_claim(item)]
        if item.is_person:
            return self.person_claims(item)
        facts = self.index.facts
        caps = self.index.caps
        if item.kind == "record":
            return [wording.record_claim(item, facts, caps)]
        if item.kind == "list":
            return [wording.list_claim(item, facts, caps)]
        scale = self.index.scales.get(item.path)
        return [wording.leaf_claim(item, scale, facts, self.periods, caps)]


_NUMBER = re.compile(r"\d+(?:\.\d+)?")

_PART_PERIOD = re.compile(r"(?:q[1-4]|h[12]|[12]h)(?:fy)?\d{0,4}|fy\d{2}(?:\d{2})?")
"""A word of a quarter or half as typed: ``q1``, ``h2``, ``1h``, ``fy25`` (of "1H FY25")."""


def _series_periods(index: ReportIndex) -> set[str]:
    """The quarters and halves the report's series are kept by, as a rep types them
    (``Q1'25`` → q1, q125; ``2H FY25`` → h2): a question's period that names one picks a
    point of the series, it is no subject a field must be named by."""
    found: set[str] = set()
    for fact in index.facts.series.values():
        for point in fact.series.points if fact.series is not None else ():
            label = re.sub(r"[\s']+", "", point.period.lower())
            found |= {label, *lexicon.words(label)}  # "fy25" for ``FY25`` and ``FY2025``
            part = re.match(r"(q[1-4]|h[12]|[12]h)", label)
            if part is not None:
                name = part.group(1)
                words = lexicon.words(point.period.replace("'", " "))
                found |= {label, name, name[::-1], *words}
    return found


def _parts(text: str, index: ReportIndex) -> list[Question]:
    """The parts of a question joined by "and", commas or "vs"; a part with no subject of
    its own ("best" in "best vs worst score") or only a target ("churn vs the target")
    joins its neighbour."""
    parts = [parse_question(p, index) for p in _SPLIT.split(text) if p.strip()]
    out: list[Question] = []
    pending: Question | None = None
    for part in parts:
        named = [*part.content, *part.soft]
        qualifier = (
            (bool(part.content) and set(part.content) <= {"target"})
            or (
                bool(named)
                and all(_PERIOD.fullmatch(t) or _PERIOD_WORDS.fullmatch(t) for t in named)
            )
            or concepts.only_relative_period(part.text)
        )  # "Q1 vs Q4", "this yr vs last"
        if qualifier or (part.empty and not part.soft and not part.who):
            if out:
                out[-1] = out[-1].merged(part)
            else:
                pending = part if pending is None else pending.merged(part)
            continue
        out.append(part if pending is None else part.merged(pending))
        pending = None
    return out


def _mark_unheld(q: Question, tokens: list[str], index: ReportIndex) -> None:
    """What ``q`` asks in words the report never uses, so no field answers it whole:
    a noun right before a figure the report holds ("cargo revenue") or before another such
    noun ("development pipeline") weighs in full and is named back as absent, and so is a
    named metric ("NPS") the report never uses."""
    for (said, _, before), (_, held, after) in pairwise(lexicon.term_parts(tokens, question=True)):
        figure = held in index.measures and held in q.content
        thing = q.content.get(held, 1.0) < 1.0 and len(after) == 1 and language.noun(after[0])
        if q.content.get(said, 1.0) < 1.0 and (figure or thing):
            word = before[0] if len(before) == 1 else ""
            phrase = " ".join((word, *after))
            next_to = re.search(rf"\b{re.escape(phrase)}\b", " ".join(tokens))  # not "money in"
            if next_to and language.noun(word) and not language.verb(word):  # not "get back to"
                q.content[said] = q.content[held] = 1.0
                q.unheld += (phrase,)
    q.unheld += tuple(
        t.upper() for t in q.content if t in _METRIC_TERMS and t not in index.postings
    )
    for i in range(1, len(tokens) - 1):  # "cost per patient visit": a rate no key names
        head = lexicon.terms(tokens[i - 1 : i])
        if tokens[i] != "per" or not head or head[0] in index.key_terms:
            continue
        if language.noun(tokens[i - 1]):
            tail = list(takewhile(lambda w: not lexicon.is_stop(w), tokens[i + 1 : i + 4]))
            q.content[head[0]] = 1.0
            q.unheld += (" ".join([tokens[i - 1], "per", *tail]),)


def _spelled_out(tokens: list[str], short_keys: frozenset[str]) -> list[str]:
    """The report's short key words a run of question words spells out by its initials
    ("average daily rate" → ``adr``, "overall equipment effectiveness" → ``oee``)."""
    found = []
    for i in range(len(tokens)):
        for n in range(2, 5):
            run = tokens[i : i + n]
            if lexicon.is_stop(run[0]) or lexicon.is_stop(run[-1]):
                continue  # "bring in" spells no "BI": a run opens and ends on a content word
            content = [w for w in run if not lexicon.is_stop(w)]
            for words in (run, content):
                initials = "".join(w[0] for w in words)
                if len(run) == n and len(words) >= 2 and initials in short_keys:
                    found.append(initials)
    return [w for w in dict.fromkeys(found) if w not in tokens]


def _with_previous(q: Question, before: Question) -> Question:
    merged = q.merged(before)
    # "how much could we save on that": what the follow-up asks leads, its "that" places it
    lead = 2.0 if q.refers else 1.0
    merged.content = {**before.content, **{t: w * lead for t, w in q.content.items()}}
    merged.coaching = q.coaching
    merged.summary = q.summary and not before.content
    merged.who = q.who
    merged.size = q.size and not (q.scale and "score" in before.content)  # "what's the scale?"
    return merged


@cache
def _key_terms(keys: tuple[str, ...]) -> frozenset[str]:
    """The terms of every key of a path (``performance.revenue.total`` → revenue, total)."""
    return frozenset(t for key in keys for t in lexicon.terms(lexicon.key_words(key)))


def _record_terms(record: Item) -> frozenset[str]:
    """The terms of a record's keys and of its fields' keys (``opportunities``,
    ``estimated_impact``)."""
    return _key_terms(record.keys) | _key_terms(tuple(record.fields))


def _coaching_anchor(hits: list[Hit]) -> Item:
    """The person, competitor or finding a coaching question is about, before a field. A
    person counts only when the question names them (name, title or role), not when their
    notes merely mention its subject."""
    covered = [h for h in hits if h.coverage > COVERAGE]
    pool = covered or hits
    top = pool[0].score
    for hit in pool:
        item = hit.item
        if item.kind != "record" or hit.score < 0.5 * top:
            continue
        if item.is_person and not hit.covered & _named_terms(item):
            continue
        return item
    top = hits[0].score
    findings = [h.item for h in hits if h.item.is_finding and h.score >= 0.3 * top]
    others = [h.item for h in pool if not h.item.is_person]
    return (findings or others or [pool[0].item])[0]


_QUOTED_KEY = re.compile(r'\[("(?:[^"\\]|\\.)*")\]')


def _record_fields(record: Item) -> dict[str, list[Leaf]]:
    """A record's leaves by the key of its own they are under (a list's items together)."""
    fields: dict[str, list[Leaf]] = {}
    prefix = len(record.path)
    for leaf in record.leaves:
        if leaf.path in record.headers:  # a row of a header-and-rows table
            fields.setdefault(record.headers[leaf.path], []).append(leaf)
            continue
        rest = leaf.path[prefix:]
        quoted = _QUOTED_KEY.match(rest)  # People[0]["Objections / concerns"]
        if quoted is not None:
            key = str(json.loads(quoted.group(1)))
        else:
            key = re.split(r"[.\[]", rest.lstrip("."), maxsplit=1)[0]
        fields.setdefault(key, []).append(leaf)
    return fields


def _field_claim(person: Item, key: str, leaves: list[Leaf]) -> Claim:
    """One field of a person's record as said: ``Cares about: keeping runway above 18
    months``."""
    said = "; ".join(wording.format_value((), leaf.value) for leaf in leaves)
    name = wording.label((person.section, key))
    return wording.fact(f"{name}: {said}", [leaf.path for leaf in leaves])


def _named_terms(item: Item) -> set[str]:
    return {t for key in ("name", "title", "role") for t in lexicon.text_terms(item.get(key) or "")}


def _answers(hits: list[Hit]) -> bool:
    """Some well-ranked item covers enough of the question to answer it."""
    return any(h.coverage > COVERAGE for h in hits[:8])


def _digits(text: str) -> bool:
    return any(ch.isdigit() for ch in text)


def _has_figure(claim: Claim) -> bool:
    """A fact stating a number other than a year."""
    if claim.kind != "fact":
        return False
    numbers = re.findall(r"(?<![\w.])\d[\d,]*(?:\.\d+)?", claim.text)
    return any(not re.fullmatch(r"(?:19|20)\d\d", n) for n in numbers)


def _absent_words(label: str) -> str:
    """A field's label as an absent line may say it: lower-case words and no figure (a
    period it names becomes "that period": "net income for that period")."""
    words = re.findall(r"[A-Za-z][A-Za-z0-9'&/-]*", label)
    kept = [w.lower() for w in words if not _digits(w)]
    if len(kept) < len(words) and kept:
        kept += ["for", "that", "period"]
    return " ".join(kept[:10])


def _named(claim: Claim, part: str) -> Claim:
    """A bare "not in the report" of one part of a question, naming that part."""
    if claim.kind != "absent" or claim.text != ABSENT_TEXT:
        return claim
    said: list[str] = re.findall(r"[A-Za-z][A-Za-z'&/-]*", part)
    while said and lexicon.is_stop(said[0].lower()):
        said.pop(0)
    while said and lexicon.is_stop(said[-1].lower()):
        said.pop()
    subject = " ".join(w if w.isupper() and len(w) <= 6 else w.lower() for w in said[:10])
    return absent(f"Not in the audit report: {subject}.") if subject else claim


def _shared(parts: list[Question]) -> list[Question]:
    """The sides of a comparison with the words that only sharpen one side read on every
    side: "direct vs OTA share" compares two shares."""
    soft: Terms = {t: w for part in parts for t, w in part.soft.items()}
    for part in parts:
        part.soft = {**soft, **part.soft}
    return parts


def _part_claims(claims: list[Claim], part: str) -> list[Claim]:
    """One part's answer inside a question of several: a missing part named by its own
    words, and without the near facts a whole question would get ("mobile share, churn
    and page speed": no portal share offered beside the churn, where it would read as the
    mobile share)."""
    if claims and claims[0].kind == "absent":
        return [_named(claims[0], part)]
    return [_named(c, part) for c in claims]


def _dedupe(claims: list[Claim]) -> list[Claim]:
    seen: set[tuple[str, str]] = set()
    out: list[Claim] = []
    for claim in claims:
        key = (claim.kind, claim.text)
        if key not in seen:
            seen.add(key)
            out.append(claim)
    facts = [c for c in out if c.kind != "absent"]
    absents = [c for c in out if c.kind == "absent"]
    if not facts or not absents or (out[0].kind == "absent" and len(absents) == 1):
        return out  # "not in the report", then what it does hold
    # the facts, then each part that is missing, named (the bare sentence only when none is)
    return facts + ([c for c in absents if c.text != ABSENT_TEXT] or absents[:1])


class OfflineAnswerer:
    """``AnswerModel`` that answers from the report alone, with no network and no model."""

    name = "offline"

    def __init__(self, playbook: Playbook | None = None, *, max_claims: int = MAX_CLAIMS) -> None:
        self._playbook = playbook or load_playbook()
        self._max_claims = max_claims

    def answer(self, request: AnswerRequest) -> Answer:
        started = time.perf_counter()
        index = index_for(request.report)
        history = [t for t in request.history if t.report in (None, request.report.slug)]
        composer = Composer(index, self._playbook, self._max_claims)
        claims = composer.answer(request.question, history)
        # Report text is data (issue 22): a value addressing an assistant is never a fact.
        kept = [c for c in claims if not cites_instruction(request.report, c.evidence)]
        claims = kept if kept or not claims else [absent()]
        logger.debug(
            "offline answer report=%s claims=%d kinds=%s latency_ms=%.2f",
            request.report.slug,
            len(claims),
            ",".join(c.kind for c in claims),
            (time.perf_counter() - started) * 1000,
        )
        return Answer(claims=claims)


def _key_words(path: str) -> list[str]:
    """The words of a field path's last key (``Operations["Crane rate (moves per hour)"]``)."""
    return lexicon.words(re.split(r"\.(?![^\[]*\])", path)[-1])
