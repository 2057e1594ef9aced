"""The offline facts-only answerer: the embedded default model. No network, deterministic.

For a question it ranks the report's items (``offline_index``) and answers in the claim
contract with at most ``max_claims`` claims:

- a *summary* ("summarize the audit"): the most severe findings and headline financials;
- *findings* ("top findings?", "what are the search issues?"): findings by severity/match;
- *people* ("who should I talk to?"): stakeholders with titles and roles, and a move;
- *coaching* ("how do I open the call?"): a playbook move anchored to a finding or field,
  the facts it leans on, and a discovery question;
- a *lookup*: the fields that hold every subject word of the question, worded from their
  own path and values (``offline_wording``);
- ``absent`` when the report holds nothing for a subject word of the question.

Questions joined by "and" or commas are answered part by part.
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass, field, replace

from prism_slack.claims import ABSENT_TEXT, Answer, Claim
from prism_slack.llm import lexicon
from prism_slack.llm import offline_wording as wording
from prism_slack.llm.offline_index import Hit, Item, ReportIndex, Terms, index_for
from prism_slack.llm.playbook import Frame, Move, Playbook, load_playbook
from prism_slack.ports import AnswerRequest

logger = logging.getLogger(__name__)

MAX_CLAIMS = 6
MAX_LOOKUP_ITEMS = 5
MAX_FINDINGS = 5
RELATIVE_CUTOFF = 0.6
"""A lookup keeps items scoring at least this share of the best item's score."""
RELATED_CUTOFF = 0.4
"""A lookup adds a finding that mentions the subject when it scores this share of the best."""

_FIRST_PERSON = lexicon.wordset("i we me my our us")
_STRONG_COACHING = lexicon.wordset(
    "pitch opener coach coaching advice advise tip tips objection objections pushback playbook "
    "strategy angle"
)
_SPLIT = re.compile(r"\s*(?:,|;|&|\band\b|\bplus\b|\bas well as\b)\s*", re.IGNORECASE)
_HEADLINES: tuple[frozenset[str], ...] = (
    frozenset({"revenue"}),
    frozenset({"revenue", "growth"}),
    frozenset({"margin"}),
)


def absent() -> Claim:
    return Claim(text=ABSENT_TEXT, kind="absent", evidence=[])


@dataclass
class Question:
    """What a question asks for, in index terms."""

    text: str
    required: Terms = field(default_factory=dict)
    """Subject concepts: an answer must hold every one (each with the stems used)."""
    soft: Terms = field(default_factory=dict)
    """Concepts that only sharpen the ranking."""
    coaching: bool = False
    summary: bool = False
    names_company: bool = False

    @property
    def subjects(self) -> frozenset[str]:
        return frozenset(self.required)

    @property
    def empty(self) -> bool:
        return not (self.required or self.coaching or self.summary)


def parse_question(text: str, index: ReportIndex) -> Question:
    tokens = lexicon.words(text)
    q = Question(text)
    coaching_terms = False
    for stem, term in lexicon.term_pairs(tokens):
        if term in index.company_terms:
            q.names_company = True
            continue
        if term == lexicon.COACHING:
            coaching_terms = True
        elif term == lexicon.SUMMARY:
            q.summary = True
        elif lexicon.is_soft(term):
            q.soft.setdefault(lexicon.soft_concept(term) or term, set()).add(stem)
        else:
            q.required.setdefault(term, set()).add(stem)
    strong = bool(_STRONG_COACHING & set(tokens))
    first_person = bool(_FIRST_PERSON & set(tokens))
    q.coaching = coaching_terms and (strong or first_person or not q.required)
    if q.names_company and not (q.required or q.soft or q.coaching):
        q.summary = True  # "Tell me about Acme" / just the company's name
    return q


class Composer:
    """Builds the claims of one answer from a report index and the playbook."""

    def __init__(self, index: ReportIndex, playbook: Playbook, max_claims: int) -> None:
        self.index = index
        self.playbook = playbook
        self.max_claims = max_claims

    def answer(self, text: str) -> list[Claim]:
        parts = [parse_question(p, self.index) for p in _SPLIT.split(text) if p.strip()]
        parts = [p for p in parts if not p.empty]
        whole = parse_question(text, self.index)
        if len(parts) <= 1:
            return _dedupe(self.part(whole))[: self.max_claims]
        share = max(2, self.max_claims // len(parts))
        claims: list[Claim] = []
        for part in parts:
            claims += self.part(part)[:share]
        return _dedupe(claims)[: self.max_claims]

    def part(self, q: Question) -> list[Claim]:
        if q.summary and not q.coaching:
            return self.summary()
        if q.coaching:
            return self.coaching(q)
        if not q.required:
            if lexicon.FINDING in q.soft:
                return self.findings(self.index.findings())
            return [absent()]
        hits = self.covering(q)
        if not hits and lexicon.FINDING in q.required and len(q.required) > 1:
            # "what are their payment issues?" with no such finding: the payment facts
            q = replace(q, required={k: v for k, v in q.required.items() if k != lexicon.FINDING})
            hits = self.covering(q)
        if not hits:
            return [absent()]
        if lexicon.FINDING in q.required and any(h.item.is_finding for h in hits):
            return self.findings_for(q, hits)
        if lexicon.STAKEHOLDER in q.required and any(h.item.is_person for h in hits):
            return self.people_for(q, hits)
        return self.lookup(q, hits)

    # -- answer kinds ------------------------------------------------------------------

    def summary(self) -> list[Claim]:
        claims = [wording.finding_claim(f) for f in self.index.findings()[:3]]
        claims += [self.item_claims(item)[0] for item in self.headlines()]
        return claims or [absent()]

    def findings(self, items: list[Item]) -> list[Claim]:
        """Finding titles with their severity, in the order given."""
        return [wording.finding_claim(item) for item in items[:MAX_FINDINGS]] or [absent()]

    def findings_for(self, q: Question, hits: list[Hit]) -> list[Claim]:
        found = [h.item for h in hits if h.item.is_finding]
        if q.subjects == {lexicon.FINDING}:
            found.sort(key=lambda item: (item.severity_rank, item.order))
            return self.findings(found)
        claims: list[Claim] = []
        for item in found[:2]:
            claims.append(wording.finding_claim(item))
            best = self.best_sentence(item, q.subjects)
            if best is not None:
                claims.append(wording.detail_claim(item, best))
        return claims

    def people_for(self, q: Question, hits: list[Hit]) -> list[Claim]:
        people = [h.item for h in hits if h.item.is_person]
        specific = q.subjects != {lexicon.STAKEHOLDER}
        if not specific:
            people.sort(key=lambda item: item.order)
        claims = [wording.person_claim(p) for p in people[: self.max_claims - 1]]
        if specific and people:
            notes = wording.notes_claim(people[0])
            if notes is not None:
                claims.insert(1, notes)
        entry = self.playbook.for_question(q.text) or self.playbook.for_section("stakeholders")
        if entry is not None and people:
            claims = claims[: self.max_claims - 1]
            claims.append(wording.coaching_claim(entry, [people[0].fields["name"].path]))
        return claims

    def lookup(self, q: Question, hits: list[Hit]) -> list[Claim]:
        best = hits[0].score
        chosen = [h.item for h in hits if h.score >= RELATIVE_CUTOFF * best][:MAX_LOOKUP_ITEMS]
        claims: list[Claim] = []
        for item in chosen:
            claims += self.item_claims(item)
            if item.is_finding:
                sentence = self.best_sentence(item, q.subjects)
                if sentence is not None:
                    claims.append(wording.detail_claim(item, sentence))
        if not any(item.is_finding for item in chosen):
            related = next(
                (h.item for h in hits if h.item.is_finding and h.score >= RELATED_CUTOFF * best),
                None,
            )
            if related is not None:
                claims.append(wording.finding_claim(related))
        return claims

    def coaching(self, q: Question) -> list[Claim]:
        asked = self.playbook.for_question(q.text)
        anchor: Item | None
        if q.required:
            hits = self.covering(q)
            if not hits:
                entry = asked or self.playbook.moves[0]
                return [absent(), wording.coaching_claim(entry, [])]
            anchor = hits[0].item
        else:
            anchor = self.anchor_for(asked)
        if anchor is None:
            entry = asked or self.playbook.moves[0]
            return [wording.coaching_claim(entry, []), wording.ask_claim(entry, [])]
        entry = asked or self.entry_for(anchor)
        facts = self.leaning_facts(anchor, q.subjects)
        cite = facts[0].evidence[:1] if facts else []
        return [
            wording.coaching_claim(entry, cite),
            *facts,
            wording.ask_claim(entry, cite),
        ]

    # -- helpers -----------------------------------------------------------------------

    def covering(self, q: Question) -> list[Hit]:
        """Ranked items holding every required term (a score's scale is not an answer)."""
        scales = self.index.scale_paths
        return [
            h
            for h in self.index.rank(q.required, q.soft)
            if h.covered == q.subjects and h.item.path not in scales
        ]

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

    def best_sentence(
        self, item: Item, required: frozenset[str], *, want_number: bool = False
    ) -> str | None:
        """The detail sentence sharing most terms with the question (ties: the first)."""
        best: tuple[int, str] | None = None
        for text in wording.detail_sentences(item):
            score = len(required & set(lexicon.text_terms(text))) * 2
            if want_number and any(ch.isdigit() for ch in text):
                score += 1
            if best is None or score > best[0]:
                best = (score, text)
        return best[1] if best else None

    def headlines(self) -> list[Item]:
        """Revenue, its growth and a margin: the financials named exactly so, else the first
        financial field whose key holds those words."""
        out: list[Item] = []
        for wanted in _HEADLINES:
            found = self.financial(wanted, exact=True) or self.financial(wanted, exact=False)
            if found is not None:
                out.append(found)
        return out

    def financial(self, wanted: frozenset[str], *, exact: bool) -> Item | None:
        for item, names in zip(self.index.items, self.index.name_terms, strict=True):
            if item.kind != "leaf" or item.section != "financials":
                continue
            if names == wanted if exact else wanted <= names:
                return item
        return None

    def item_claims(self, item: Item) -> list[Claim]:
        if item.is_finding:
            return [wording.finding_claim(item)]
        if item.is_person:
            claims = [wording.person_claim(item)]
            notes = wording.notes_claim(item)
            return [*claims, notes] if notes is not None else claims
        if item.kind == "record":
            return [wording.record_claim(item)]
        if item.kind == "list":
            return [wording.list_claim(item)]
        return [wording.leaf_claim(item, self.index.scales.get(item.path))]


def _dedupe(claims: list[Claim]) -> list[Claim]:
    seen: set[tuple[str, str]] = set()
    out: list[Claim] = []
    for claim in claims:
        key = (claim.kind, claim.text)
        if key not in seen:
            seen.add(key)
            out.append(claim)
    if len(out) > 1 and any(c.kind != "absent" for c in out):
        # one absent claim is enough, and it goes last
        facts = [c for c in out if c.kind != "absent"]
        out = facts + ([absent()] if len(facts) < len(out) else [])
    return out


class OfflineAnswerer:
    """``AnswerModel`` that answers from the report alone, with no network and no model."""

    name = "offline"

    def __init__(self, playbook: Playbook | None = None, *, max_claims: int = MAX_CLAIMS) -> None:
        self._playbook = playbook or load_playbook()
        self._max_claims = max_claims

    def answer(self, request: AnswerRequest) -> Answer:
        started = time.perf_counter()
        index = index_for(request.report)
        claims = Composer(index, self._playbook, self._max_claims).answer(request.question)
        logger.debug(
            "offline answer report=%s claims=%d kinds=%s latency_ms=%.2f",
            request.report.slug,
            len(claims),
            ",".join(c.kind for c in claims),
            (time.perf_counter() - started) * 1000,
        )
        return Answer(claims=claims)
