"""Attribute warrant (check 7): the claim measures what its cited fields hold.

Three rules, on words of the claim with its quantities masked out:

1. **Binding** (facts and coaching), for each warranted amount (not dates, periods or
   years, which only qualify). Its *clause* is the words around it up to a comma or
   sentence end, a clause word (``and``, ``while``, ``with`` …) or another quantity (the
   noun right after an earlier number belongs to that number). One field that warrants
   the amount must fit the clause:

   a. every measure concept the clause names (``churn``, ``gross``, ``monthly`` … —
      ``lexicon.MEASURES``; titles, buying roles and severity excepted) is named by the
      field (its path words, or the words of the cited report sentence);
   b. when the clause says what the number is, the field's distinguishing qualifiers
      (``gross``, ``net``, ``operating``, ``EBITDA``, ``monthly``, ``p75``, square feet …)
      are in the clause too;
   c. every word right around the number that names another field of this report
      (``VerifierIndex.field_stems``) is a word of this field, or of another cited field
      of the same list item — by stem or synonym, never by a prefix guess;
   d. the clause, when it has content words, shares one with the field: with its path for
      a number field, with the part of the sentence around the same number for a report
      sentence.

   So ``churn is 3.66%`` citing ``metrics.trial_conversion_pct`` fails though 3.66
   matches (a); ``revenue was $351M`` citing ``net_revenue_usd`` fails for dropping
   ``net`` (b); ``personalization scores 4 out of 10`` citing ``scores.search_relevance``
   fails (c); ``pages load in 2.5 s`` citing ``2.9 s … against a 2.5 s target`` fails (d).
   A number the field's own path names (``rule_of_40``) always fits.
2. **Measures** (facts). Every measure concept the claim names, and every word that names
   a field of this report (``EHR`` when the report has ``vendors.ehr``), must be named
   somewhere in its evidence.
3. **Content** (facts). At least ``CONTENT_SHARE`` (60%, rounded up; all but one of two
   or three, the only one of one — see ``needed``) of the claim's content words —
   words that are not stop words, direction words, month or number words — must be found
   in the evidence: the cited values' words and path words, the prospect's names, matched
   by light stem, by a shared six-letter prefix (``converts``/``conversion``) or by a
   synonym group (``vendor``/``platform``). A paraphrase of the cited finding keeps most
   of its words; an invented finding citing an unrelated one does not.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from prism_slack.verify import concepts, lexicon
from prism_slack.verify.anchors import Anchoring, matches
from prism_slack.verify.concepts import WordSet
from prism_slack.verify.index import Container, LeafFacts
from prism_slack.verify.numbers import MASK, QKind, Quantity, Scan
from prism_slack.verify.text import stem, words

CONTENT_SHARE = Fraction(3, 5)
"""The share of a fact's content words that must be found in its evidence."""

_CLAUSE_END = re.compile(r"[.;!?,](?:\s|$)|" + MASK)


@dataclass(frozen=True, slots=True)
class ContentEvidence:
    """The words a fact's content may be found in: its cited leaves, cited lists and
    objects, and the prospect's names."""

    words: WordSet

    @classmethod
    def of(
        cls,
        leaves: Iterable[LeafFacts],
        containers: Iterable[Container],
        extra_stems: frozenset[str] = frozenset(),
    ) -> ContentEvidence:
        sets = [WordSet(leaf.stems, leaf.prefixes, leaf.concepts) for leaf in leaves]
        sets += [WordSet(frozenset(), frozenset(), c.concepts) for c in containers]
        sets.append(WordSet(extra_stems, frozenset(), frozenset()))
        return cls(WordSet.union(sets))

    @property
    def concepts(self) -> frozenset[str]:
        return self.words.concepts


def _clause(found: Scan, q: Quantity) -> tuple[list[str], list[str]]:
    """The words of the clause before and after quantity ``q`` of ``found``."""
    masked = found.masked
    before = _CLAUSE_END.split(masked[: q.start])[-1]
    after = _CLAUSE_END.split(masked[q.end :])[0]
    before_words = words(before)
    opened_at = q.start - len(before)
    previous = next((p for p in found.quantities if p.end == opened_at), None)
    if previous is not None and _measured(previous) and before_words:
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


NEAR_AHEAD = 1
"""How many content words after a number still name what it measures: its noun
(``1,874 customers``); later words belong to the rest of the sentence."""


def clause_measures(found: Scan, start: int, end: int) -> frozenset[str]:
    """Measure concepts named in the clause of the quantity at ``start:end``."""
    q = next(q for q in found.quantities if (q.start, q.end) == (start, end))
    back, ahead = _clause(found, q)
    return concepts.measures(back + ahead)


def _measured(q: Quantity) -> bool:
    """Amounts are bound to what they measure; dates, periods and years only qualify."""
    return q.kind in (QKind.NUMBER, QKind.PERCENT, QKind.CURRENCY, QKind.SCORE) and not (
        q.year_like
    )


def _record(path: str) -> str | None:
    """The list item a leaf belongs to (``opportunities[2]`` for
    ``opportunities[2].estimated_impact``), or ``None`` outside lists."""
    end = path.rfind("]")
    return path[: end + 1] if end != -1 else None


def _fits(
    q: Quantity,
    clause: list[str],
    foreign: list[str],
    source: LeafFacts | Container,
    cited: Sequence[LeafFacts] = (),
) -> bool:
    """Does ``source`` hold what the claim's clause around ``q`` says it measures?

    ``foreign``: words right around the number that name some field of this report; each
    must be a word of ``source`` too — of its path, its report sentence, or another cited
    field of the same list item (``personalization`` does not fit
    ``scores.search_relevance``; ``order-status`` fits ``opportunities[2].estimated_impact``
    when ``opportunities[2].area`` is cited with it).
    """
    measures = concepts.measures(clause) - lexicon.ROLE_CONCEPTS
    if not measures <= source.concepts:
        return False
    if not isinstance(source, LeafFacts):
        return True
    if any(v.from_path and matches(q, v) for v in source.quantities):
        return True  # the field's own path names the number (``rule_of_40``)
    said = concepts.content_words(" ".join(clause))
    if (measures or said) and not source.qualifiers <= concepts.all_concepts(clause):
        return False
    whole = WordSet(source.stems, source.prefixes, source.concepts)
    record = _record(source.path)
    siblings = [c for c in cited if record is not None and _record(c.path) == record]
    record_words = WordSet.union(
        [whole, *(WordSet(c.stems, c.prefixes, c.concepts) for c in siblings)]
    )
    if not all(record_words.has_exactly(w) for w in foreign):
        return False
    if not source.is_text:  # the field's path is all it says
        return not said or any(whole.has(w) for w in said)
    return any(  # some of the same words around the same number in the report sentence
        there is not None and matches(q, v) and (not said or any(there.has(w) for w in said))
        for v, there in zip(source.quantities, source.clauses, strict=True)
    )


def binding_problems(
    found: Scan,
    anchorings: Sequence[Anchoring],
    field_stems: frozenset[str] = frozenset(),
    cited: Sequence[LeafFacts] = (),
) -> list[str]:
    """Rule 1: each warranted quantity's clause names what one of its fields holds.

    ``field_stems``: stems of the words that name this report's fields
    (``VerifierIndex.field_stems``); ``cited``: every cited leaf.
    """
    problems = []
    for a in anchorings:
        if not a.sources or not _measured(a.quantity):
            continue
        back, ahead = _clause(found, a.quantity)
        near = [
            *concepts.content_words(" ".join(back)),
            *concepts.content_words(" ".join(ahead))[:NEAR_AHEAD],
        ]
        foreign = [w for w in near if stem(w) in field_stems]
        if any(_fits(a.quantity, back + ahead, foreign, s, cited) for s in a.sources):
            continue
        paths = ", ".join(s.path for s in a.sources)
        said = " ".join(back + ahead)
        problems.append(
            f"'{a.quantity.text}' is stated as {said!r}, but {paths} gives it for another thing"
        )
    return problems


def measure_problems(
    text: str, evidence: ContentEvidence, field_stems: frozenset[str] = frozenset()
) -> list[str]:
    """Rule 2: every measure the claim names, and every word that names a field of this
    report (``Their EHR vendor is Sitecore`` citing ``tech_stack.website_cms``), is in its
    evidence. ``text`` is the claim with quantities, identifiers and names masked."""
    tokens = words(text)
    missing = sorted(concepts.measures(tokens) - evidence.concepts)
    problems = []
    if missing:
        problems.append(
            f"the claim speaks of {', '.join(missing)}, which the cited fields do not hold"
        )
    fields = [w for w in dict.fromkeys(tokens) if stem(w) in field_stems]
    other = [w for w in fields if not evidence.words.has_exactly(w)]
    if other:
        problems.append(
            f"the claim names {', '.join(other)}, another field of this report, not the cited one"
        )
    return problems


def content_problems(text: str, evidence: ContentEvidence) -> list[str]:
    """Rule 3: enough of the claim's content words are found in its evidence. ``text`` is
    the claim with quantities, identifiers and names masked."""
    total, missing = content_missing(text, evidence)
    need = needed(total)
    if total - len(missing) >= need:
        return []
    return [
        f"only {total - len(missing)} of {total} content words are found in the cited "
        f"evidence (need {need}); not found: {', '.join(dict.fromkeys(missing))}"
    ]


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
        if len(word) < 2 or word in concepts.NOT_CONTENT:
            continue
        total += 1
        if evidence.words.has(word) or covered.get(i, set()) & evidence.concepts:
            continue
        missing.append(word)
    return total, missing


def needed(total: int) -> int:
    """How many of ``total`` content words must be found: all but one of two or three,
    the one word of one, and ``CONTENT_SHARE`` (rounded up) of four or more."""
    if total <= 3:
        return max(total - 1, min(total, 1))
    return math.ceil(CONTENT_SHARE * total)
