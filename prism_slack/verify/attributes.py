"""Attribute warrant (check 7): nothing positive says the claim measures something its
cited fields do not hold.

Each rule reports **problems** (positive evidence: the check fails) or **doubts** (the
claim's wording is simply not found in its evidence: the claim is *undecided*, left to
the judge, never failed). Words are read with the claim's quantities, identifiers and
names masked out.

1. **Binding** (facts and coaching), for each warranted amount (not dates, periods,
   years or derived figures). Its *clause* is the words around it up to a comma or
   sentence end, a clause word (``and``, ``while`` …) or another quantity. One field that
   warrants the amount must fit the clause (``_fits``). It *contradicts* when

   a. the clause names a measure (``lexicon.MEASURES``; roles excepted) that another
      field of the report holds, the field does not, and nothing in the clause names the
      field (``churn is 3.66%`` citing ``metrics.trial_conversion_pct``);
   b. the clause names the measure but drops or swaps a qualifier the field carries
      (``revenue was $3M`` citing ``net_revenue_usd``; ``net margin`` for gross);
   c. a word right around the number names another field of this report and nothing in
      the clause names this one (``personalization scores 4 out of 10`` citing
      ``scores.search_relevance``; the path's section word ``scores`` names no field);
   d. in a report sentence, the clause's words sit around *another* number (``pages load
      in 2.5 s`` citing ``2.9 s … against a 2.5 s target``).

   Otherwise a clause whose words are not found there is a doubt. A number the field's
   own path names (``rule_of_40``) always fits.
2. **Measures** (facts). A measure or field word the claim names that another field of
   the report holds, when the claim names nothing the cited fields hold, fails
   (``Their EHR vendor is Sitecore`` citing ``tech_stack.website_cms``); so does naming
   the key words of a field next to the cited one and none of its own
   (``VerifierIndex.sibling_swap``: ``Medicare`` citing ``payer_mix.medicaid_pct``). A
   measure the evidence does not name is otherwise a doubt.
3. **Content** (facts). Every content word — not a stop, direction, month, number or unit
   word — should be found in the evidence (cited values and path words, the prospect's
   names; by light stem, a six-letter prefix or a synonym group). One that is not is a
   doubt. An *unanchored* fact (no number, name or identifier) of at least
   ``OFF_TOPIC_WORDS`` content words with at most ``OFF_TOPIC_SHARE`` of them found is
   about something else (an invented finding citing a real one) and fails.
4. **Swaps** (facts). A distinctive lower-case word (not ordinary English by wordfreq)
   or a role that belongs to another item of a cited list — another row, finding,
   stakeholder — and not to the cited one, when that item holds more of the claim's
   words than the cited one, points to that item and fails
   (``swap_problems``); so does a name held by one cited item with a role held by another
   (``ClaimContext.crossed_records``).
5. **Quantifiers** (facts): ``verify.quantifiers``.
6. **Relations** (facts). A stated value — an anchored amount or a cited text cell
   (``stated_cells``) — whose naming words (``naming_runs``: the content words right
   before and after it, past link words) name the key of another field of its record
   better than its own, by a distinctive key word, when that field could hold it, fails
   (``VerifierIndex.renamed``: ``footscray have a crowd of 11.11 (77)``; ``footscray be
   the home team`` when footscray is ``away_team``).
7. **Phrase swaps** (facts). Another item's multi-word cell written whole, in a column
   where the cited item holds something else (``the united state``), fails
   (``swap_problems``); so does a cited multi-word cell written with one word swapped for
   a lower-case, not common, word found nowhere in the report (``substituted_cells``:
   ``arizona 21`` for ``california 21``).
8. **Denials** (facts). A negator (``no``, ``not``, ``never``) right before a stated cell
   or before words naming a cited field's whole key fails when that field states the
   thing (``denials``: ``england do not have a bronze`` when bronze is 1); an absent value
   (``none``, ``0``, ``-``) may be denied, and a value the claim goes on to give
   (``no video, audio only``) is not denied. A claim with no negator naming a cited
   field's whole key whose value is ``no`` or ``none`` says the thing is there, and fails
   (``ClaimContext.affirmed_absences``: ``there be moving part of lead - acid``).

Rule 1b's dropped qualifier is positive evidence only when another field holds the
measure with another qualifier, or the qualifier changes the quantity itself
(``lexicon.QUANTITY_QUALIFIERS``). Rule 1d also reads the whole of a one-figure claim:
more than half its words, and more than around its own number, around another number of
the sentence (``38.2% of searches come back with zero results``).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from prism_slack import language
from prism_slack.evidence import first_segment
from prism_slack.facts.words import MEASURE_LABEL_KEYS, UNIT_KEYS, key_words
from prism_slack.language import stem, words
from prism_slack.verdict import Problem
from prism_slack.verify import concepts, lexicon
from prism_slack.verify.anchors import Anchoring, matches
from prism_slack.verify.concepts import WordSet
from prism_slack.verify.entities import Name
from prism_slack.verify.index import (
    STATED_CELL_WORDS,
    VALUE_ZIPF,
    Container,
    ItemStems,
    LeafFacts,
    Phrases,
    phrase_stems,
)
from prism_slack.verify.numbers import MASK, QKind, Quantity, Scan
from prism_slack.verify.text import list_item, path_words

_CLAUSE_END = re.compile(r"[.;!?,](?:\s|$)|" + MASK)


@dataclass(frozen=True, slots=True)
class ContentEvidence:
    """The words a fact's content may be found in: its cited leaves, cited lists and
    objects, and the prospect's names."""

    words: WordSet
    measures: frozenset[str] = frozenset()
    """Measure concepts the cited fields name (synonym groups excluded)."""

    @classmethod
    def of(
        cls,
        leaves: Sequence[LeafFacts],
        containers: Sequence[Container],
        extra_stems: frozenset[str] = frozenset(),
    ) -> ContentEvidence:
        sets = [WordSet(leaf.stems, leaf.prefixes, leaf.concepts) for leaf in leaves]
        sets += [WordSet(frozenset(), frozenset(), c.concepts) for c in containers]
        sets.append(WordSet(extra_stems, frozenset(), frozenset()))
        measures = frozenset().union(
            *(leaf.measures for leaf in leaves), *(c.measures for c in containers)
        )
        return cls(WordSet.union(sets), measures)

    @property
    def concepts(self) -> frozenset[str]:
        return self.words.concepts


def clause_words(found: Scan, q: Quantity) -> tuple[list[str], list[str]]:
    """The words of the clause before and after quantity ``q`` of ``found``."""
    masked = found.masked
    before = _CLAUSE_END.split(masked[: q.start])[-1]
    after = _CLAUSE_END.split(masked[q.end :])[0]
    before_words = words(before)
    opened_at = q.start - len(before)
    previous = next((p for p in found.quantities if p.end == opened_at), None)
    if previous is not None and measured(previous) and before_words:
        before_words = before_words[1:]  # "1,874 customers process 3.1M …": not 3.1M's noun
    back: list[str] = []
    for word in reversed(before_words):
        if word in lexicon.CLAUSE_BREAKS:
            break
        back.append(word)
    ahead: list[str] = []
    for word in words(after):
        if word in lexicon.CLAUSE_BREAKS:
            break
        ahead.append(word)
    return list(reversed(back)), ahead


SCOPE_REACH = 3
"""How many words either side of a passage's figure may name what it is of (``81% at
Brno``, ``Brno's 81%``)."""


def unsaid_scope(
    passage: Scan, held: Sequence[Quantity], names: Sequence[Name], said: set[str]
) -> list[str]:
    """The names that ``passage`` gives beside every figure of it a claim figure matches
    (``held``, within ``SCOPE_REACH``) and that the claim's words (``said``) have no word
    of: ``Brno`` for ``81% across the group`` from ``88.9% across the group but 81% at
    Brno``. Empty when a held figure has none, or none is held."""
    unsaid: list[str] = []
    for v in held:
        before, after = clause_words(passage, v)
        near = set(before[-SCOPE_REACH:] + after[:SCOPE_REACH])
        beside = [n.text for n in names if (ws := set(words(n.text))) & near and not ws & said]
        if not beside:
            return []
        unsaid += beside
    return list(dict.fromkeys(unsaid))


def other_base(q: Quantity, claim: Scan, passage: Scan, held: Sequence[Quantity]) -> list[str]:
    """The words a passage gives as the base of a share (``46% of closed accounts``) when
    claim figure ``q`` is the same share (``held``: the passage's figures it matches) of
    another base (``46% of the membership``, or ``63% of their customers`` for ``63% of
    trial accounts``): empty when a held share has no ``of …`` base, or one whose every
    word the claim's base says."""
    mine = _base(clause_words(claim, q)[1])
    if q.kind is not QKind.PERCENT or not mine:
        return []
    said = WordSet.of(mine)
    theirs = [_base(clause_words(passage, v)[1]) for v in held]
    if not theirs or any(all(said.has(w) for w in base) for base in theirs):
        return []
    return theirs[0]


_SENTENCE_END = re.compile(r"[.;!?](?:\s|$)")


def sentence_of(passage: Scan, v: Quantity) -> WordSet:
    """The words of the sentence (to ``;``) of ``passage`` that figure ``v`` is in."""
    masked = passage.masked
    before = _SENTENCE_END.split(masked[: v.start])[-1]
    after = _SENTENCE_END.split(masked[v.end :])[0]
    return WordSet.of(concepts.content_words(f"{before} {after}"))


def _base(ahead: Sequence[str]) -> list[str]:
    """The noun phrase of ``of …`` right after a share (``of closed accounts``, ``of the
    membership``), up to ``SCOPE_REACH`` words; none for a pronoun (``of them``) or a word
    for the base itself (``of the base``)."""
    if ahead[:1] != ["of"]:
        return []
    phrase: list[str] = []
    for word in ahead[1 : 2 + SCOPE_REACH]:
        if not phrase and word in lexicon.BASE_DETERMINERS:
            continue
        if word in language.STOP_WORDS:
            break
        phrase.append(word)
    base = concepts.content_words(" ".join(phrase))
    return [] if set(base) <= lexicon.BASE_WORDS else base


NEAR_AHEAD = 1
"""How many content words after a number still name what it measures: its noun
(``1,874 customers``); later words belong to the rest of the sentence."""


def figure_words(found: Scan, q: Quantity) -> tuple[list[str], list[str]]:
    """The words of the clause before and after figure ``q``; a share's own noun counts
    as before it (``one member in fourteen``: ``member`` names its measure)."""
    back, ahead = clause_words(found, q)
    return ([*back, *words(q.text)] if q.share else back), ahead


def near_words(back: Sequence[str], ahead: Sequence[str]) -> list[str]:
    """The content words that say what a figure measures: its clause before it, and its
    noun after it (``NEAR_AHEAD``)."""
    after = concepts.content_words(" ".join(ahead))[:NEAR_AHEAD]
    return [*concepts.content_words(" ".join(back)), *after]


def measured(q: Quantity) -> bool:
    """Amounts are bound to what they measure; dates, periods and years only qualify."""
    return q.kind in (QKind.NUMBER, QKind.PERCENT, QKind.CURRENCY, QKind.SCORE) and not (
        q.year_like
    )


def _record(path: str) -> str | None:
    """The list item a leaf belongs to (``opportunities[2]`` for
    ``opportunities[2].estimated_impact``), or ``None`` outside lists."""
    end = path.rfind("]")
    return path[: end + 1] if end != -1 else None


Fit = Literal["fits", "doubt", "contradicts"]
Requalified = Callable[[LeafFacts, frozenset[str]], bool]
"""Does another field hold these measures with other qualifiers than this one
(``VerifierIndex.requalified``)?"""


def _qualifier_dropped(
    q: Quantity, pairs: Sequence[tuple[Quantity, WordSet | None]], clause: Sequence[str]
) -> bool:
    """Do the passage and the claim qualify the figure differently (``adjusted``,
    ``like-for-like``): one says the qualifier and the other does not?"""
    said = {w.lower() for w in clause}
    own = [t for v, t in pairs if t is not None and matches(q, v)]
    return bool(own) and all(
        any(t.has(w) != (w in said) for w in lexicon.FIGURE_QUALIFIERS) for t in own
    )


def _fits(
    q: Quantity,
    clause: list[str],
    *,
    foreign: list[str],
    source: LeafFacts | Container,
    cited: Sequence[LeafFacts] = (),
    named: frozenset[str] = frozenset(),
    requalified: Requalified = lambda source, measures: True,
    claim_words: Sequence[str] = (),
) -> Fit:
    """Does ``source`` hold what the claim's clause around ``q`` says it measures?

    ``contradicts`` only on positive evidence: the clause names a measure that some other
    field of the report (``named``: every concept the report names) holds and this one
    does not, and names nothing of this field; it drops a qualifier the field carries; a
    word right around the number names another field (``foreign``) that is not a word of
    ``source`` (its path, its report sentence, another cited field of the same list item)
    and nothing in the clause names this one; or, in a report sentence, the clause's
    words sit around another number. ``doubt`` when the clause's words are simply not
    found there.
    """
    measures = concepts.measures(clause) - lexicon.ROLE_CONCEPTS - lexicon.IMPLICIT_QUALIFIERS
    said = concepts.content_words(" ".join(clause))
    if not isinstance(source, LeafFacts):
        absent = measures - source.concepts
        return "fits" if not absent else "contradicts" if absent & named else "doubt"
    whole = WordSet(source.stems, source.prefixes, source.concepts)
    # the clause points to this field too: one of its measures or words is the field's
    top = path_words(first_segment(source.path)[0])  # "scores" of scores.* names no field
    section, section_concepts = {stem(w) for w in top}, concepts.all_concepts(top)
    specific = [w for w in said if stem(w) not in section]
    record = _record(source.path)
    siblings = [c for c in cited if record is not None and _record(c.path) == record]
    # a row's value is named by its cited label and unit cells (``metric: Net revenue
    # retention``, ``unitRef: FTE``); its other cells (a name, a place) are its subject
    labels = [c for c in siblings if c.is_text and _names_value(c.path)]
    kin = frozenset().union(*(c.concepts for c in labels)) - section_concepts
    label_words = WordSet.union([WordSet(c.stems, c.prefixes, c.concepts) for c in labels])
    speaks = bool(
        (concepts.all_concepts(clause) & (source.measures | kin)) - section_concepts
    ) or any(whole.has_exactly(w) or label_words.has_exactly(w) for w in specific)
    missing = {c for c in measures - source.concepts - kin if not _spelt_in(c, clause, whole)}
    if any(missing & family and source.measures & family for family in lexicon.EXCLUSIVE_MEASURES):
        return "contradicts"  # "gross revenue retention" citing net_revenue_retention_pct
    # (a section's own word, ``QUARTERLY.CALL_WAIT``, names the section, not the field)
    qualifiers = source.qualifiers - section_concepts
    reversed_ = missing & lexicon.REVERSE_QUALIFIERS
    reversed_ = reversed_ & _attributive_concepts(clause) if reversed_ else reversed_
    if reversed_ and (qualifiers or (reversed_ & named and not speaks)):
        return "contradicts"  # "net margin" citing gross_margin
    pairs = list(zip(source.quantities, source.clauses, strict=True))
    if source.is_text and _qualifier_dropped(q, pairs, clause):
        return "doubt"  # "EBITDA was £24.1m" of "Adjusted EBITDA … was £24.1m", or back
    if any(v.from_path and matches(q, v) for v in source.quantities):
        return "fits"  # the field's own path names the number (``rule_of_40``, "30 days")
    if missing:
        if missing & named and not speaks:
            return "contradicts"
        own = [t for v, t in pairs if t is not None and matches(q, v)]
        if source.is_text and not any(t.has(w) for t in own for w in said):
            return "contradicts" if _elsewhere(q, pairs, said, claim_words) else "doubt"
        return "doubt"
    dropped = not qualifiers <= concepts.all_concepts(clause)
    if (measures or said) and dropped and requalified(source, measures):
        return "contradicts"  # "revenue was $3M" citing net_revenue_usd beside gross
    record_words = WordSet.union(
        [whole, *(WordSet(c.stems, c.prefixes, c.concepts) for c in siblings)]
    )
    if not all(record_words.has_exactly(w) for w in foreign):
        return "doubt" if speaks else "contradicts"
    if not source.is_text or source.figure:  # the path is all it says: the clause names it
        return "fits" if not said or speaks or any(whole.has(w) for w in said) else "doubt"
    if not said or any(  # some of the same words around the same number in the sentence
        there is not None and matches(q, v) and any(there.has(w) for w in said)
        for v, there in pairs
    ):
        return "fits"
    return "contradicts" if _elsewhere(q, pairs, said, claim_words) else "doubt"


def _names_value(path: str) -> bool:
    """A row's cell at ``path`` names what the row's value measures: its label or unit."""
    key = path.rsplit(".", 1)[-1]
    return key.lower() in MEASURE_LABEL_KEYS or "_".join(key_words(key)) in UNIT_KEYS


def _attributive_concepts(clause: Sequence[str]) -> frozenset[str]:
    """Concepts the clause names in words that can qualify a noun: a plural noun is who
    or what is counted (``members wait``), not a qualifier (``member fees``)."""
    return frozenset(
        h.concept
        for h in concepts.hits(clause)
        if not any(language.plural_noun(w) for w in clause[h.start : h.end])
    )


def _elsewhere(
    q: Quantity,
    pairs: Sequence[tuple[Quantity, WordSet | None]],
    said: Sequence[str],
    claim: Sequence[str],
) -> bool:
    """Do the claim's words sit around *another* number of a report sentence: at least
    half the clause's words (none of which are around ``q`` there), or more than half of
    the words of a one-figure ``claim`` and more of them than around ``q`` (``38.2% of
    searches come back with zero results`` when zero results sit by 11.4%)?"""

    def count(there: WordSet, words_: Sequence[str]) -> int:
        return sum(there.has(w) for w in words_)

    ours = max((count(t, claim) for v, t in pairs if t is not None and matches(q, v)), default=0)
    for v, there in pairs:
        if there is None or matches(q, v):
            continue
        if count(there, said) * 2 >= len(said):
            return True
        theirs = count(there, claim)
        if theirs * 2 > len(claim) and theirs > ours:
            return True
    return False


def _spelt_in(concept: str, clause: Sequence[str], whole: WordSet) -> bool:
    """Are the clause's words for ``concept`` all words of the field (``average order``
    in ``average_order_value``, which reads as the concept ``aov``)?"""
    return any(
        hit.concept == concept and all(whole.has_exactly(w) for w in clause[hit.start : hit.end])
        for hit in concepts.hits(clause)
    )


@dataclass
class Findings:
    """What check 7 found: ``problems`` fail it (positive evidence); ``doubts`` leave the
    claim undecided (its wording is not found, nothing speaks against it)."""

    problems: list[Problem] = field(default_factory=list)
    doubts: list[Problem] = field(default_factory=list)

    def extend(self, other: Findings) -> None:
        self.problems += other.problems
        self.doubts += other.doubts


def binding_problems(
    found: Scan,
    anchorings: Sequence[Anchoring],
    field_stems: frozenset[str] = frozenset(),
    cited: Sequence[LeafFacts] = (),
    named: frozenset[str] = frozenset(),
    *,
    requalified: Requalified = lambda source, measures: True,
) -> Findings:
    """Rule 1: each warranted quantity's clause names what one of its fields holds.

    ``field_stems``: stems of the words that name this report's fields
    (``VerifierIndex.field_stems``); ``cited``: every cited leaf; ``named``: every concept
    the report names.
    """
    out = Findings()
    figures = [a for a in anchorings if measured(a.quantity)]
    claim_words = concepts.content_words(found.masked) if len(figures) == 1 else []
    for a in anchorings:
        if not a.sources or not measured(a.quantity) or a.derivation is not None or a.counts:
            continue  # a derived figure's relation, a count's noun, says what it is
        if a.quantity.optional:
            continue  # a claim's "one" is read for context, never bound
        back, ahead = figure_words(found, a.quantity)
        near = near_words(back, ahead)
        foreign = [w for w in near if stem(w) in field_stems and w not in lexicon.SELF_WORDS]
        fits = {
            _fits(
                a.quantity,
                back + ahead,
                foreign=foreign,
                source=s,
                cited=cited,
                named=named,
                requalified=requalified,
                claim_words=claim_words,
            )
            for s in a.sources
        }
        if "fits" in fits:
            continue
        paths = ", ".join(s.path for s in a.sources)
        said = " ".join(back + ahead)
        if "doubt" in fits:
            message = f"'{a.quantity.text}' is stated as {said!r}; {paths} does not say so"
            out.doubts.append(Problem("attribute.figure_unnamed", message))
        else:
            message = (
                f"'{a.quantity.text}' is stated as {said!r}, but {paths} gives it for another thing"
            )
            out.problems.append(Problem("attribute.figure_of_another", message))
    return out


def measure_problems(
    text: str,
    evidence: ContentEvidence,
    field_stems: frozenset[str] = frozenset(),
    named: frozenset[str] = frozenset(),
    swapped: Callable[[list[str]], str | None] = lambda words: None,
    *,
    names_cited: bool = False,
) -> Findings:
    """Rule 2: the measures the claim names, and the words that name a field of this
    report (``EHR`` when the report has ``vendors.ehr``), point to its evidence.

    It fails when the claim names a measure or field that another field of the report
    holds and the cited ones do not, and names nothing the cited fields hold (nor a
    cited key whole, ``names_cited``: ``Their Rule of 40 score`` citing ``rule_of_40``)
    (``Their EHR vendor is Sitecore`` citing ``tech_stack.website_cms``); a measure the
    report names nowhere only leaves the claim undecided. It also fails when the claim
    uses the key words of a field next to the cited one and none of the cited field's
    own (``swapped``: ``VerifierIndex.sibling_swap``; ``Medicare is 15.1% of the payer
    mix`` citing ``payer_mix.medicaid_pct``). ``text`` is the claim with quantities,
    identifiers and names masked."""
    tokens = words(text)
    out = Findings()
    hits = concepts.hits(tokens)
    named_here = concepts.measures(tokens) - evidence.concepts
    # "average contract" in average_contract_value, which reads as acv, names it
    missing = sorted(c for c in named_here if not _spelt_in(c, tokens, evidence.words))
    covered = {  # "top" of "top line" when the evidence holds revenue
        i for h in hits if h.concept in evidence.concepts for i in range(h.start, h.end)
    }
    fields = [w for i, w in enumerate(tokens) if stem(w) in field_stems and i not in covered]
    fields = list(dict.fromkeys(fields))
    other = [w for w in fields if not evidence.words.has_exactly(w)]
    # a typical value said as such ("41 days on average") names no rival field
    elsewhere = [c for c in missing if c in named] + other
    elsewhere = [w for w in elsewhere if w not in lexicon.IMPLICIT_QUALIFIERS]
    speaks_of_cited = bool(concepts.all_concepts(tokens) & evidence.measures) or any(
        stem(w) in evidence.words.stems for w in concepts.content_words(text)
    )
    better = swapped(tokens) if other else None
    if elsewhere and not (speaks_of_cited or names_cited):
        message = (
            f"the claim speaks of {', '.join(elsewhere)}, which another field of this report "
            "holds, not the cited one"
        )
        out.problems.append(Problem("attribute.rival_field", message))
    elif better is not None:
        message = f"the claim names {better}, the field next to the cited one"
        out.problems.append(Problem("attribute.sibling_field", message))
    elif missing or other:
        message = f"the cited fields do not name {', '.join([*missing, *other])}"
        out.doubts.append(Problem("attribute.measure_unnamed", message))
    return out


def swap_problems(
    text: str,
    evidence: ContentEvidence,
    cited: Sequence[LeafFacts],
    records: Mapping[str, Sequence[frozenset[str]]],
    *,
    cells: Mapping[str, Mapping[str, Mapping[int, frozenset[str]]]] | None = None,
    phrases: tuple[Phrases, ItemStems] | None = None,
) -> list[Problem]:
    """Rule 4: a content word that is not in the cited evidence but is a distinctive word
    of *another* item of a cited list (another row, finding, stakeholder) points to that
    item: the claim swapped records. ``records``: for each list, the stems of each item.
    Distinctive: no ordinary English word (``language.common``), held by at most a third
    of the items, and not by the cited one; and, when a cited value is a passage
    (``PROSE_WORDS``), that item must hold more of the claim's content words than the
    cited one (one stray word of another finding's text is no swap). Or (``cells``: list
    → column → item → stems of its short cells) a word that is another item's value in a
    column where the cited item holds something else (``his position be a pitcher`` when
    this row says catcher), however many items hold it, unless it is very common English."""
    items: dict[str, set[int]] = {}
    for leaf in cited:
        at = list_item(leaf.path)
        if at is not None and at.list_path in records:
            items.setdefault(at.list_path, set()).add(at.item)
    problems = _phrase_swaps(text, items, cells or {}, *(phrases or ({}, {})))
    roles = concepts.all_concepts(words(text)) & lexicon.ROLE_CONCEPTS - evidence.concepts
    for role in sorted(roles):  # "the Chief Digital Officer" of another stakeholder
        for head, mine in items.items():
            holders = [j for j, held in enumerate(records[head]) if f"concept:{role}" in held]
            if holders and not mine & set(holders):
                message = f"{role} is {head}[{holders[0]}]'s, not the cited {head}[{min(mine)}]'s"
                problems.append(Problem("attribute.role_of_another", message))
                break
    lower = set(re.findall(r"\b[a-z]+\b", text))  # capitalised words are check 6's
    said = {stem(w) for w in concepts.content_words(text)}
    # a passage, or a list of strings (bullets), is paraphrased: the other item must fit
    prose = any(
        leaf.is_text and (len(leaf.stems) > PROSE_WORDS or _whole_item(leaf.path)) for leaf in cited
    )

    def fit(held: frozenset[str]) -> int:
        return len(said & held)

    for word in dict.fromkeys(concepts.content_words(text)):
        if word not in lower or len(word) < 2 or language.zipf(word) >= VALUE_ZIPF:
            continue
        if evidence.words.has(word):
            continue
        key = stem(word)
        swapped = _column_swap(key, items, cells or {}, word, said)
        if swapped is not None:
            problems.append(swapped)
            continue
        if len(word) < 3 or language.common(word):
            continue
        for head, mine in items.items():
            held = records[head]
            holders = [j for j, stems in enumerate(held) if key in stems]
            if not holders or mine & set(holders) or len(holders) * 3 > len(held):
                continue
            if prose:  # a paraphrase: the other item must fit the claim better
                ours = max((fit(held[i]) for i in mine if i < len(held)), default=0)
                holders = [j for j in holders if fit(held[j]) > ours]
            if holders and not _names_own_cell(key, holders, mine, (cells or {}).get(head), said):
                message = (
                    f"'{word}' is a word of {head}[{holders[0]}], not of the cited "
                    f"{head}[{min(mine)}]"
                )
                problems.append(Problem("attribute.word_of_another", message))
                break
    return problems


def _whole_item(path: str) -> bool:
    """The path is a list item itself (``bullets[2]``), not a field of one."""
    at = list_item(path)
    return at is not None and not at.field


def _names_own_cell(
    key: str,
    holders: Sequence[int],
    mine: set[int],
    columns: Mapping[str, Mapping[int, frozenset[str]]] | None,
    said: set[str],
) -> bool:
    """Is ``key`` another item's cell in a column whose cited cell the claim names too
    (``churn`` of ``Logo churn`` beside the cited ``Net revenue retention``, said ``net``)?
    Then the word qualifies the cited item; it does not stand in for it."""
    return any(
        any(key in by_item.get(j, ()) for j in holders)
        and any(by_item.get(i, frozenset()) & said for i in mine)
        for by_item in (columns or {}).values()
    )


PROSE_WORDS = 8
"""A cited text with more distinct words than this is a passage, not a table cell."""


def _column_swap(
    key: str,
    items: Mapping[str, set[int]],
    cells: Mapping[str, Mapping[str, Mapping[int, frozenset[str]]]],
    word: str,
    said: set[str],
) -> Problem | None:
    """Another item's cell word, in a column where the claim names no word of the cited
    item's own cell (``net of churn`` beside ``NRR``, the cited row's ``Net revenue
    retention``, qualifies; it does not replace)."""
    for head, mine in items.items():
        for column, by_item in cells.get(head, {}).items():
            holders = [j for j, stems in by_item.items() if key in stems and j not in mine]
            own = [by_item[i] for i in mine if i in by_item]
            if holders and own and not any(key in cell or cell & said for cell in own):
                message = (
                    f"'{word}' is {head}[{holders[0]}].{column}, not the cited "
                    f"{head}[{min(mine)}].{column}"
                )
                return Problem("attribute.cell_of_another", message)
    return None


def _phrase_swaps(
    text: str,
    items: Mapping[str, set[int]],
    cells: Mapping[str, Mapping[str, Mapping[int, frozenset[str]]]],
    phrases: Phrases,
    held_stems: ItemStems,
) -> list[Problem]:
    """Another item's multi-word cell written whole (``robert allenby represent the united
    state`` when another row's country is ``united states``), in a column where the cited
    item holds something else, with a word the cited evidence does not hold."""
    tokens = phrase_stems(text)
    for head, mine in items.items():
        starts = phrases.get(head, {})
        for i in range(len(tokens) - 1):
            for stems, j, column in starts.get(tokens[i : i + 2], ()):
                if j in mine or tuple(tokens[i : i + len(stems)]) != stems:
                    continue
                held = cells.get(head, {}).get(column, {})
                if not any(k in held and held[k] != frozenset(stems) for k in mine):
                    continue
                own = set().union(*(held_stems.get(head, {}).get(k, set()) for k in mine))
                if all(s.isdigit() or s in own for s in stems):
                    continue
                phrase = " ".join(stems)
                message = (
                    f"'{phrase}' is {head}[{j}].{column}, not the cited "
                    f"{head}[{min(mine)}].{column}"
                )
                return [Problem("attribute.phrase_of_another", message)]
    return []


OFF_TOPIC_WORDS = 3
"""A fact with at least this many content words, and at most ``OFF_TOPIC_SHARE`` of them
found in its evidence, is not about what it cites (an invented finding citing a real one)."""
OFF_TOPIC_SHARE = 0.25


def content_problems(total: int, missing: Sequence[str], *, anchored: bool = False) -> Findings:
    """Rule 3: the claim's content words are found in its evidence. A word that is not
    found leaves the claim undecided; a claim with nothing anchored (no number, name or
    identifier) whose words are nearly all missing from the evidence it cites is about
    something else, and fails. ``total`` and ``missing``: the claim's content words and
    those its evidence lacks (``content_missing``)."""
    out = Findings()
    if not missing:
        return out
    found = total - len(missing)
    line = (
        f"{found} of {total} content words are found in the cited evidence; "
        f"not found: {', '.join(dict.fromkeys(missing))}"
    )
    if not anchored and total >= OFF_TOPIC_WORDS and found <= OFF_TOPIC_SHARE * total:
        message = f"the cited fields are about something else: {line}"
        out.problems.append(Problem("attribute.off_topic", message))
    else:
        out.doubts.append(Problem("attribute.words_unfound", line))
    return out


def content_missing(text: str, evidence: ContentEvidence) -> tuple[int, list[str]]:
    """How many content words ``text`` has, and those not found in ``evidence``."""
    tokens = words(text)
    covered: dict[int, set[str]] = {}
    for hit in concepts.hits(tokens):
        for i in range(hit.start, hit.end):
            covered.setdefault(i, set()).add(hit.concept)
    total = 0
    missing: list[str] = []
    for i, word in enumerate(tokens):
        if word in lexicon.POLARITY:
            # "none of", "every one of", "not": a claim that negates or generalises must
            # find that word in its evidence too, or it is left to the judge. "every
            # month" is how often, not how many.
            frequency = word in lexicon.FREQUENCY_WORDS and (
                i + 1 < len(tokens) and tokens[i + 1] in lexicon.PERIOD_WORDS
            )
            if not frequency and not evidence.words.has(word):
                total += 1
                missing.append(word)
            continue
        if not concepts.is_content(word):
            continue
        total += 1
        if evidence.words.has(word) or covered.get(i, set()) & evidence.concepts:
            continue
        missing.append(word)
    return total, missing


@dataclass(frozen=True, slots=True)
class Stated:
    """A value the claim states — an anchored quantity or a cited text cell's words —
    at ``start:end`` of the claim, with the cited fields that hold it."""

    start: int
    end: int
    text: str
    sources: tuple[LeafFacts, ...]
    amount: bool = True
    """A number (else the words of a text cell)."""


_TOKEN = re.compile(MASK + r"+|[a-z][a-z0-9]*|\S")
_SKIPPED = frozenset("()")
_WORD = re.compile(r"[a-z][a-z0-9]*")
_NEGATED = re.compile(r"['’]t\b")
"""The tail of a negative contraction ("aren't"): its head is no content word."""
_POSSESSIVE = frozenset("s")
"""A one-letter word that is a possessive tail, not a key letter (``segment d``)."""
RUN_WORDS = 4
"""At most this many words next to a value name what it is."""
UNIT_WORDS = 2
"""At most this many words right after a number, with no link word, name it
(``0 wsop earnings``; later words are the rest of the sentence)."""


@dataclass(frozen=True, slots=True)
class Naming:
    """The words around a stated value: ``near`` (every word of the runs right before and
    after it, which may name its own field) and ``naming`` (those that, by their place,
    say what it is, which may name another field)."""

    near: list[str]
    naming: list[str]


def naming_runs(masked: str, stated: Sequence[Stated]) -> list[Naming]:
    """For each stated value, the runs of content words right before and after it, past
    link words only (``lexicon.RELATION_LINKS``: ``a crowd of 11.11 (77)``, ``footscray
    be the home team``), passing over values that share a field with it (``11.11 (77)``).

    A run names the value (``Naming.naming``) unless its place says otherwise: a run
    that another stated value sits against on its far side names that one (``20 in round
    5``, ``the round of 16``); ``the K of V`` is V's K, not V (``the mascot of west
    central``; ``a position of ray rissmiller`` is V), and ``X be the K of V`` says X is
    it (``michael e briant be the writer of new girl``); a text value followed by a word
    with no link is its subject (``keith clearwater place at t7``); a number's unlinked
    noun is at most
    ``UNIT_WORDS``; ``in`` and ``at`` link forward after ``be`` only (``be in the
    north``); a value written right against another one is part of a longer name."""
    if not stated:
        return []
    tokens = [(m.start(), m.group(0)) for m in _TOKEN.finditer(masked.lower())]
    owner: list[int | None] = [None] * len(tokens)
    inside: list[list[int]] = [[] for _ in stated]
    for k, (a, _) in enumerate(tokens):
        for n, s in enumerate(stated):
            if s.start <= a < s.end:
                owner[k] = n
                inside[n].append(k)
                break
    fields = [frozenset(leaf.path for leaf in s.sources) for s in stated]

    def word(k: int) -> str:
        return tokens[k][1] if 0 <= k < len(tokens) else ""

    def valued(k: int) -> bool:
        return 0 <= k < len(tokens) and (owner[k] is not None or word(k)[0] == MASK)

    def content(k: int) -> bool:
        w = word(k)
        return (
            not valued(k)
            and w[:1].isalpha()
            and (len(w) > 1 or w not in _POSSESSIVE)
            and not (w in language.STOP_WORDS or w in lexicon.CLAUSE_BREAKS)
        )

    def skip(n: int, k: int, step: int) -> int:
        """Past parentheses and values that share a field with value ``n``."""
        while 0 <= k < len(tokens):
            o = owner[k]
            if word(k) not in _SKIPPED and (o is None or not fields[o] & fields[n]):
                break
            k += step
        return k

    def run(n: int, i: int, step: int) -> tuple[list[str], bool]:
        k, links = skip(n, i, step), []
        while word(k) in lexicon.RELATION_LINKS:
            links.append(word(k))
            k += step
        place = lexicon.PLACE_LINKS & set(links)
        if place and (step < 0 or not set(links) & lexicon.BE_VERBS):
            return [], False  # "the home team at lake oval": where, not what
        found: list[int] = []
        while content(k) and len(found) < RUN_WORDS:
            found.append(k)
            k += step
        if step > 0 and not links and stated[n].amount and len(found) > UNIT_WORDS:
            return [word(j) for j in found], False  # "(9) score high rebound": a verb
        far, attaching = k, []
        while word(far) in lexicon.ATTACHING_LINKS:
            attaching.append(word(far))
            far += step
        names = bool(found) and not (0 <= far < len(tokens) and owner[far] is not None)
        if step > 0 and attaching[:1] == ["of"] and set(links) & lexicon.BE_VERBS:
            names = bool(found)  # "michael e briant be the writer of new girl": he is
        if step < 0 and links[:1] == ["of"] and word(k) not in ("a", "an"):
            names = False  # "the mascot of west central": west central's mascot
        if step > 0 and not links and not stated[n].amount:
            names = False  # "keith clearwater place at t7": a verb, not a name
        return [word(j) for j in sorted(found)], names

    out = []
    for n, ks in enumerate(inside):
        if not ks:
            out.append(Naming([], []))
            continue
        before, before_names = run(n, ks[0] - 1, -1)
        after, after_names = run(n, ks[-1] + 1, 1)
        if valued(skip(n, ks[-1] + 1, 1)):
            before_names = False  # "chassis model scania k360ua": a longer name
        if valued(skip(n, ks[0] - 1, -1)):
            after_names = False
        naming = (before if before_names else []) + (after if after_names else [])
        out.append(Naming(before + after, naming))
    return out


def stated_cells(
    text: str, cited: Sequence[LeafFacts], cell: Callable[[LeafFacts], tuple[str, ...]]
) -> list[Stated]:
    """The cited text cells whose words the claim writes in a row, longest first, with
    every cited cell of the same value; ``cell``: a leaf's ``cell_words`` (``()`` for a
    leaf that is no such cell)."""
    spots = [(m.start(), m.end(), stem(m.group(0))) for m in _WORD.finditer(text.lower())]
    by_span: dict[tuple[int, int], list[LeafFacts]] = {}
    for leaf in cited:
        keys = cell(leaf)
        if not keys:
            continue
        for i in range(len(spots) - len(keys) + 1):
            if all(spots[i + j][2] == k for j, k in enumerate(keys)):
                span = (spots[i][0], spots[i + len(keys) - 1][1])
                by_span.setdefault(span, []).append(leaf)
    out: list[Stated] = []
    for (a, b), leaves in sorted(by_span.items(), key=lambda kv: kv[0][0] - kv[0][1]):
        if any(s.start <= a and b <= s.end for s in out):
            continue
        out.append(Stated(a, b, text[a:b], tuple(leaves), amount=False))
    return out


SUBSTITUTE_LIKENESS = 0.5
"""A substitute this alike to the word it replaces (``lose`` for ``lost``, by
``difflib`` ratio) is an inflection or a typo, not another name."""


def substituted_cells(
    text: str,
    cited: Sequence[LeafFacts],
    values: Mapping[str, str],
    vocabulary: frozenset[str],
) -> list[Problem]:
    """A cited multi-word cell the claim writes with one word replaced by a word found
    nowhere in the report (``bill thomas be from arizona 21 district`` when the row says
    ``california 21``): another entity's name in this one's place. ``vocabulary``: the
    stems of every value and key of the report. A stop word, a capitalised word (check 6
    reads names), a common English word (``language.common``), an inflection or typo of
    the replaced word, or a replaced word the claim writes elsewhere, is no substitution."""
    tokens = phrase_stems(text)
    found = list(re.finditer(r"[A-Za-z0-9]+", text))  # what phrase_stems stems, as written
    raw = [m.group() for m in found]
    row_values = [phrase_stems(values[leaf.path]) for leaf in cited if leaf.path in values]
    held = {t for cell in row_values for t in cell}
    for cell in row_values:
        if len(cell) < 2 or len(cell) > STATED_CELL_WORDS:
            continue
        for i in range(len(tokens) - len(cell) + 1):
            window = tokens[i : i + len(cell)]
            diff = [j for j, (a, b) in enumerate(zip(window, cell, strict=True)) if a != b]
            if len(diff) != 1:
                continue
            if re.search(r"[,;:.()]", text[found[i].end() : found[i + len(cell) - 1].start()]):
                continue  # ``out of Fresno, competes``: two clauses, no one cell
            said, meant = window[diff[0]], cell[diff[0]]
            if not said.isalpha() or not meant.isalpha() or min(len(said), len(meant)) < 3:
                continue
            if said in language.STOP_WORDS or meant in language.STOP_WORDS:
                continue
            if said in held or said in vocabulary or meant in tokens:
                continue
            written = raw[i + diff[0]]
            if _NEGATED.match(text, found[i + diff[0]].end()):
                continue  # "aren't disclosed": a negation, not a word for "paid"
            if written.lower() in lexicon.DIRECTION_UP | lexicon.DIRECTION_DOWN:
                continue  # "margin slipped" for "margin change": a direction, read elsewhere
            if any(written.lower() in w for w in lexicon.RELATION_WORDS.values()):
                continue  # "operating margin" of operating profit and revenue: a relation
            if not written.islower() or language.common(written):
                continue  # a capitalised name is check 6's; "bad" for "worst": a paraphrase
            if difflib.SequenceMatcher(None, said, meant).ratio() >= SUBSTITUTE_LIKENESS:
                continue
            message = (
                f"'{' '.join(window)}' reads as the cited '{' '.join(cell)}' with "
                f"'{said}' for '{meant}'"
            )
            return [Problem("attribute.substituted_word", message)]
    return []


@dataclass(frozen=True, slots=True)
class Denial:
    """What a negator of the claim denies: a stated value (its index in the stated
    list), or the words right after it (which may name a field)."""

    value: int | None
    words: list[str]
    at: int = 0
    """Where the negator is in the claim."""


def denials(masked: str, stated: Sequence[Stated]) -> list[Denial]:
    """For each negator (``lexicon.NEGATION_WORDS``: ``no``, ``not``, ``never``), what it
    denies: the stated value right after it, past link and helper words (``be not from
    the democratic party``), or else the run of content words there (``there be no extra
    point``, ``do not have a bronze``)."""
    tokens = [(m.start(), m.group(0)) for m in _TOKEN.finditer(masked.lower())]
    out = []
    for i, (at, token) in enumerate(tokens):
        end = at + len(token)
        if token not in lexicon.NEGATION_WORDS or masked[end : end + 1] == "-":
            continue  # "not-for-profit", "no-show": a compound, not a denial
        k = i + 1
        while k < len(tokens) and tokens[k][1] in lexicon.DENIAL_SKIPS:
            k += 1
        if k >= len(tokens):
            continue
        start = tokens[k][0]
        owner = next((n for n, s in enumerate(stated) if s.start <= start < s.end), None)
        if owner is not None:
            out.append(Denial(owner, []))
            continue
        run: list[str] = []
        while k < len(tokens) and len(run) < RUN_WORDS:
            word = tokens[k][1]
            if not word[0].isalpha() or word in language.STOP_WORDS:
                break
            run.append(word)
            k += 1
        if run:
            out.append(Denial(None, run, at))
    return out
