"""Per-report precomputation for the verifier, built once per report and cached.

``VerifierIndex`` holds, for every leaf of a report, what the checks need from it — its
quantities (value and path), its words, stems and concepts, its names — plus the size of
every list and object (for counts), the prospect's own names and the report's lower-case
vocabulary. Verifying a claim then only looks things up; nothing is parsed twice.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from prism_slack import language
from prism_slack.evidence import Leaf, canonical_path, join_key
from prism_slack.facts.model import FactKind, Source, TypedFact
from prism_slack.facts.words import key_words, labelled
from prism_slack.language import stem, words
from prism_slack.reports.model import Report
from prism_slack.verify import concepts, lexicon
from prism_slack.verify.concepts import WordSet
from prism_slack.verify.entities import Name, NameEvidence, find_names, units_of
from prism_slack.verify.fields import leaf_quantities, path_periods
from prism_slack.verify.numbers import DatePoint, QKind, Quantity, Scan, record_key, scan
from prism_slack.verify.text import (
    Squashed,
    fold,
    list_item,
    name_tokens,
    path_phrases,
    path_words,
    prefix,
    squash_name,
    squash_text,
)


@dataclass(frozen=True, slots=True)
class LeafFacts:
    """What the checks read from one report leaf."""

    path: str
    is_text: bool
    """The value is a string (a sentence, a name) rather than a number, date or flag."""
    quantities: tuple[Quantity, ...]
    """From the value, read with the path's hints, and the periods the path names."""
    clauses: tuple[WordSet | None, ...]
    """For a text value, the content words of each quantity's clause and the path words
    (aligned with ``quantities``; ``None`` for a number value or a quantity from the
    path)."""
    stems: frozenset[str]
    """Stems of the value's words and of the path's words."""
    prefixes: frozenset[str]
    concepts: frozenset[str]
    """Measure and synonym concepts named by the value and the path."""
    measures: frozenset[str]
    """Measure concepts only."""
    qualifiers: frozenset[str]
    """Distinguishing qualifiers the path carries (``gross``, ``net`` …)."""
    value_text: Squashed | None
    path_texts: tuple[Squashed, ...]
    units: frozenset[str]
    """Complete names: the value's names and identifiers, a short value, path keys."""
    record_text: str
    """The value as ``numbers.record_key`` writes it, to find a score or time string in."""
    figure: bool = False
    """A text value that is one figure (``"1.9x"``, ``"£471"``): its key says what it is."""


@dataclass(frozen=True, slots=True)
class Container:
    """A cited list or object, for counts (``6 findings`` citing ``findings``)."""

    path: str
    size: int
    measures: frozenset[str]
    concepts: frozenset[str]
    is_list: bool = False


def _labelled_figure(found: Scan, i: int) -> bool:
    """Is quantity ``i`` of a "Label: value" string one its label names: the first, or a
    change (a percent after an ``up``/``down``) that no ``from``/``than`` sets apart?"""
    if i == 0:
        return True
    q = found.quantities[i]
    before = words(found.masked[found.quantities[i - 1].end : q.start])
    return q.kind is QKind.PERCENT and bool(before) and before[-1] in {"up", "down"}


_IDENTIFIER = re.compile(r"[A-Z]?[a-z]+(?:[A-Z][a-z]+)+")
"""A value written as one camel-case identifier: its words are its humps."""


def _leaf_facts(leaf: Leaf, ordinary: frozenset[str], typed: TypedFact | None) -> LeafFacts:
    path_word_list = path_words(leaf.path)
    value_words: list[str] = []
    value_text: Squashed | None = None
    units: set[str] = set()
    is_text = isinstance(leaf.value, str)
    found: Scan | None = None
    if isinstance(leaf.value, str):
        found = scan(leaf.value, report_text=True)
        value_words = words(found.masked)
        if _IDENTIFIER.fullmatch(leaf.value):  # ``InstalledCapacity``, ``EconomicBuyer``
            value_words += key_words(leaf.value)
        value_text = squash_text(leaf.value)
        names = find_names(found.masked, ordinary.__contains__)
        units |= units_of(leaf.value, names, found.identifiers)
    if typed is not None and typed.sources.get("label") in (Source.SIBLING, Source.HEADER):
        path_word_list = path_word_list + key_words(typed.label)  # a row's label names it
    if typed is not None and typed.period_text and typed.period_text not in leaf.path:
        path_word_list = path_word_list + words(typed.period_text)  # its period: "TTM Q3 2025"
    phrases = path_phrases(leaf.path)
    path_texts = tuple(squash_text(p) for p in phrases)
    units |= {squash_name(p) for p in phrases} | {w for w in path_word_list if w.isalnum()}
    quantities = leaf_quantities(leaf.value, leaf.path, found, fact=typed)
    all_words = value_words + path_word_list + _calendar_word(quantities, path_word_list)
    path_measures = concepts.measures(path_word_list)
    hits = concepts.hits(value_words) + concepts.hits(path_word_list)
    if found is not None and len(quantities) == len(found.quantities):
        # a "Label: value" string's label names its first figure, and its change said
        # beside it ("Energy cost: AUD 9.4m (FY25, up 22% on FY24)"); not a figure it is
        # set against ("up from 171.9m")
        label = labelled(leaf.value) if isinstance(leaf.value, str) else None
        clauses: tuple[WordSet | None, ...] = tuple(
            WordSet.of(
                concepts.content_words(_sentence_clause(found.masked, q.start, q.end))
                + path_word_list
                + (words(label) if label and _labelled_figure(found, i) else [])
            )
            for i, q in enumerate(found.quantities)
        )
    else:
        clauses = (None,) * len(quantities)
    periods = path_periods(leaf.path, typed)
    return LeafFacts(
        path=leaf.path,
        is_text=is_text,
        quantities=quantities + periods,
        clauses=clauses + (None,) * len(periods),
        stems=frozenset(stem(w) for w in all_words),
        prefixes=frozenset(p for w in all_words if (p := prefix(w))),
        concepts=frozenset(h.concept for h in hits),
        measures=frozenset(h.concept for h in hits if h.measure),
        qualifiers=path_measures & lexicon.REVERSE_QUALIFIERS,
        value_text=value_text,
        path_texts=path_texts,
        units=frozenset(u for u in units if u),
        record_text=record_key(fold(str(leaf.value))),
        figure=is_text and typed is not None and typed.kind is FactKind.QUANTITY,
    )


def _calendar_word(quantities: Sequence[Quantity], path_word_list: Sequence[str]) -> list[str]:
    """``calendar`` for a value that is a calendar year: a period from 1 January to
    31 December, or a fiscal year that ends on 31 December (``fiscal_year_end``)."""
    fiscal_end = bool(lexicon.FISCAL_PATH_WORDS & set(path_word_list)) and "end" in path_word_list
    for q in quantities:
        span = q.period.span if q.period is not None else None
        if span and span[0].year == span[1].year and [_day(d) for d in span] == [JAN_1, DEC_31]:
            return ["calendar"]
        if fiscal_end and q.kind is QKind.DATE and [_day(d) for d in q.dates] == [DEC_31]:
            return ["calendar"]
    return []


JAN_1, DEC_31 = (1, 1), (12, 31)


def _day(d: DatePoint) -> tuple[int | None, int | None]:
    return d.month, d.day


_CLAUSE_MARK = re.compile(r"[.;!?,](?:\s|$)")


_OPENING = re.compile(r"\s*[—–;:(]\s*|\s+-\s+")
"""Where a value's opening statement ends: "none — contracts tracked in SAP SD"."""
_RELATIVE = re.compile(r",\s+(?:which|who|whose)\b[^,.;!?]*,")
"""A relative clause set off by commas: the figure after it is its sentence subject's
("Adjusted EBITDA, which adds back acquisition costs, was £24.1m")."""


def _sentence_clause(masked: str, start: int, end: int) -> str:
    """The part of a report sentence around ``masked[start:end]``, between punctuation
    (a relative clause before it passed over)."""
    head = _RELATIVE.sub(lambda m: " " * len(m.group(0)), masked[:start])
    clauses = _CLAUSE_MARK.split(head)
    before = clauses[-1]
    opening = before.lower().split()
    if len(clauses) > 1 and opening[:1] and opening[0] in _CHANGE_WORDS and "from" not in opening:
        # "…are abandoned, rising to 27%": its subject (not "up from 171.9m", a prior value)
        before = f"{clauses[-2]} {before}"
    after = _CLAUSE_MARK.split(masked[end:])[0]
    return f"{before} {after}"


_CHANGE_WORDS = lexicon.DIRECTION_UP | lexicon.DIRECTION_DOWN
"""A clause opening with one (``rising to``, ``down from``) goes on with the clause before."""


def _containers(data: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    def walk(path: str, value: Any) -> Iterator[tuple[str, Any]]:
        if isinstance(value, Mapping):
            yield path, value
            for key, child in value.items():
                yield from walk(join_key(path, str(key)), child)
        elif isinstance(value, list):
            yield path, value
            for i, child in enumerate(value):
                yield from walk(f"{path}[{i}]", child)

    for key, value in data.items():
        yield from walk(join_key("", key), value)


PROSE_WORDS = 8
"""A text of this many words is a sentence of the report's prose, not a table cell."""

FIELD_WORD_MAX_LEAVES = 6
"""A word names a field when it is in the last key of at most this many leaves: rarer
words (``personalization``, ``churn``, ``search``) name fields; words in many keys only
shape them (and ``lexicon.GENERIC_FIELD_WORDS`` never name one)."""

DISTINCT_KEY_SHARE = 1 / 3
"""A key word held by at most this share of the report's keys is distinctive enough to
point a value to another field (``home`` and ``away``, not ``team``)."""

ENVELOPE_KEYS = frozenset({"report", "company.name", "company.aliases", "company.legal_name",
                           "company.domain"})  # fmt: skip
"""Fields that describe the document or name the prospect, not its measures and tools."""


def _field_stems(leaves: Iterable[Leaf], sections: Iterable[str]) -> frozenset[str]:
    """Stems of the words that name the report's attribute fields: last keys of leaves
    outside lists and the envelope (``metrics.churn_rate``, ``vendors.ehr``,
    ``company.facilities.clinics``)."""
    counts: Counter[str] = Counter()
    for leaf in leaves:
        if "[" in leaf.path or any(
            leaf.path == key or leaf.path.startswith(f"{key}.") for key in ENVELOPE_KEYS
        ):
            continue
        last = leaf.path.rsplit(".", 1)[-1]
        counts.update({stem(w) for w in path_words(last) if w.isalpha()})
    skip = {stem(w) for s in sections for w in path_words(s)}
    skip |= {stem(w) for w in concepts.NOT_CONTENT | lexicon.GENERIC_FIELD_WORDS}
    return frozenset(
        s for s, n in counts.items() if n <= FIELD_WORD_MAX_LEAVES and s not in skip and len(s) > 2
    )


def _vocabulary(leaves: Iterable[Leaf]) -> frozenset[str]:
    """Words the report writes in lower case (and its path words): ordinary words here."""
    out: set[str] = set()
    for leaf in leaves:
        out.update(path_words(leaf.path))
        if isinstance(leaf.value, str):
            out.update(w for w in leaf.value.split() if w.isalpha() and w.islower())
    return frozenset(out)


def _records(leaves: Iterable[LeafFacts]) -> dict[str, tuple[frozenset[str], ...]]:
    """For each list of the report, the stems and concepts of each of its items (``rows``
    → one set per row), for check 7's record-swap rule."""
    found: dict[str, dict[int, set[str]]] = {}
    for leaf in leaves:
        if (at := list_item(leaf.path)) is not None:
            item = found.setdefault(at.list_path, {}).setdefault(at.item, set())
            item.update(leaf.stems)
            item.update(f"concept:{c}" for c in leaf.concepts)
    return {
        head: tuple(frozenset(items.get(i, ())) for i in range(max(items) + 1))
        for head, items in found.items()
    }


CELL_WORDS = 3
"""A list item's field of at most this many words is a cell value (a name, a position)."""


def _cells(leaves: Iterable[LeafFacts]) -> dict[str, dict[str, dict[int, frozenset[str]]]]:
    """List → column → item → stems of its value, for short text values only."""
    out: dict[str, dict[str, dict[int, frozenset[str]]]] = {}
    for leaf in leaves:
        at = list_item(leaf.path)
        if at is None or not leaf.is_text or leaf.value_text is None:
            continue
        if not at.field or "." in at.field or "[" in at.field:
            continue
        value_stems = leaf.stems - {stem(w) for w in path_words(leaf.path)}
        if 0 < len(value_stems) <= CELL_WORDS:
            out.setdefault(at.list_path, {}).setdefault(at.field, {})[at.item] = value_stems
    return out


PHRASE_WORDS = (2, 6)
"""A list item's text cell of this many words (fewest, most) is a phrase a claim may
state whole (``united states``, ``south korea``), however common its words."""

_TOKEN = re.compile(r"[a-z0-9]+")


@lru_cache(maxsize=65536)
def phrase_stems(text: str) -> tuple[str, ...]:
    """The stems of a text's words and digit runs, in order (``united states`` →
    ``unit``, ``state``): how a cell phrase is found in a claim."""
    return tuple(stem(t) for t in _TOKEN.findall(text.lower()))


Phrases = dict[str, dict[tuple[str, ...], list[tuple[tuple[str, ...], int, str]]]]
"""List → first two stems → (the phrase's stems, item, column) of each multi-word cell."""
ItemStems = dict[str, dict[int, set[str]]]
"""List → item → the ``phrase_stems`` of all its text cells."""


def _phrases(leaves: Iterable[Leaf]) -> tuple[Phrases, ItemStems]:
    out: Phrases = {}
    held: ItemStems = {}
    for leaf in leaves:
        at = list_item(leaf.path)
        if at is None or not isinstance(leaf.value, str):
            continue
        stems = phrase_stems(leaf.value)
        held.setdefault(at.list_path, {}).setdefault(at.item, set()).update(stems)
        fewest, most = PHRASE_WORDS
        if at.field and "." not in at.field and fewest <= len(stems) <= most:
            out.setdefault(at.list_path, {}).setdefault(stems[:2], []).append(
                (stems, at.item, at.field)
            )
    return out, held


STATED_CELL_WORDS = 6
"""A cited text cell of at most this many words is a value a claim may state."""

VALUE_ZIPF = 5.2
"""A word this common in English (``good``, ``new``) says too little to be a cell value."""

_CELL_WORD = re.compile(r"[a-z][a-z0-9]*")


def cell_words(value: str) -> tuple[str, ...]:
    """The stems of a text cell a claim may state (``stated_cells``): at most
    ``STATED_CELL_WORDS`` words, one of them neither a stop word nor very common English
    (``VALUE_ZIPF``); else ``()``."""
    value_words = _CELL_WORD.findall(value.lower())
    if not value_words or len(value_words) > STATED_CELL_WORDS:
        return ()
    if all(language.zipf(w) >= VALUE_ZIPF or w in language.STOP_WORDS for w in value_words):
        return ()
    return tuple(stem(w) for w in value_words)


def _trends(leaves: Iterable[LeafFacts]) -> dict[str, list[tuple[str, int]]]:
    """Measure concept → (path, sign) of each change field that measures it
    (``financials.revenue_growth_pct = -5.0`` → ``revenue``: the report's trend)."""
    out: dict[str, list[tuple[str, int]]] = {}
    for leaf in leaves:
        if "[" in leaf.path or not set(path_words(leaf.path)) & lexicon.TREND_PATH_WORDS:
            continue
        value = next((q.value for q in leaf.quantities if q.numeric and not q.from_path), None)
        if value is None or value == 0:
            continue
        for concept in leaf.measures - {"growth"}:
            out.setdefault(concept, []).append((leaf.path, 1 if value > 0 else -1))
    return out


@lru_cache(maxsize=65536)
def _key_words(key: str) -> frozenset[str]:
    """Stems of a field key's own words (``medicaid_pct`` → ``medicaid``)."""
    return frozenset(
        stem(w) for w in path_words(key) if w.isalpha() and w not in lexicon.GENERIC_FIELD_WORDS
    )


def _last_key(path: str) -> str:
    """A leaf's own key, without list indexes (``rows[3].away_team_score`` →
    ``away_team_score``)."""
    return re.sub(r"\[\d+\]", "", path).rpartition(".")[2]


def _naming_stems(key: str) -> frozenset[str]:
    """Stems of every word of a key that can name it (``written_by`` → ``written``; the
    plural mark of ``writer_s``, written "writer (s)", names nothing)."""
    return frozenset(
        stem(w)
        for w in path_words(key)
        if not w.isdigit() and w not in language.STOP_WORDS and w != "s"
    )


def _key_weights(paths: Iterable[str]) -> dict[str, float]:
    """How distinctive each key word is among the report's distinct keys (a list's column
    counts once): ``log(keys / keys holding it)``. ``team`` in four of seven columns says
    little; ``crowd``, ``home`` or ``away`` say a lot."""
    keys = {_last_key(p) for p in paths}
    counts: Counter[str] = Counter(w for key in keys for w in _naming_stems(key))
    return {w: math.log(len(keys) / n) for w, n in counts.items()}


@lru_cache(maxsize=65536)
def _key_concepts(key: str) -> frozenset[str]:
    return concepts.all_concepts(path_words(key))


VALUE_WORDS = 4
"""A text of at most this many words is one value (a vendor, a place, a status); a longer
one is a passage."""


class VerifierIndex:
    """Everything the checks need from one report, computed once."""

    def __init__(self, report: Report) -> None:
        self.slug = report.slug
        evidence = report.evidence
        self.evidence = evidence
        self.typed = report.facts
        self.vocabulary = _vocabulary(evidence)
        self.field_stems = _field_stems(evidence, report.data)
        self.leaves: dict[str, LeafFacts] = {
            leaf.path: _leaf_facts(leaf, self.vocabulary, report.facts.get(leaf.path))
            for leaf in evidence
        }
        self.containers: dict[str, Container] = {}
        for path, value in _containers(report.data):
            found = path_words(path)
            self.containers[path] = Container(
                path,
                len(value),
                concepts.measures(found),
                concepts.all_concepts(found),
                is_list=isinstance(value, list),
            )
        self.named: frozenset[str] = frozenset().union(
            *(leaf.concepts for leaf in self.leaves.values()),
            *(c.concepts for c in self.containers.values()),
        )
        """Every concept some field of the report names (by path or value)."""
        self.owners: dict[str, list[LeafFacts]] = {}
        """A field stem or a concept (``concept:…``) → the leaves that name it; concepts
        named by a list or object are not here (``named_by_container``)."""
        for leaf in self.leaves.values():
            last = leaf.path.rsplit(".", 1)[-1]
            for s in {stem(w) for w in path_words(last)} & self.field_stems:
                self.owners.setdefault(s, []).append(leaf)
            for c in leaf.concepts:
                self.owners.setdefault(f"concept:{c}", []).append(leaf)
        self.named_by_container: frozenset[str] = frozenset().union(
            *(c.concepts for c in self.containers.values())
        )
        self.key_weights = _key_weights(self.leaves)
        self.key_stems = {path: _naming_stems(_last_key(path)) for path in self.leaves}
        """Each leaf's key words, stemmed (``rows[3].away_team`` → ``away``, ``team``)."""
        self.key_holders: dict[tuple[str, str], list[str]] = {}
        """(parent path, key stem) → the leaves under that parent whose key has it."""
        for path, key_stems in self.key_stems.items():
            for w in key_stems:
                self.key_holders.setdefault((path.rpartition(".")[0], w), []).append(path)
        self.texts: dict[str, str] = {
            leaf.path: leaf.value for leaf in evidence if isinstance(leaf.value, str)
        }
        """Each text leaf's value, for the values a claim states (check 7's relation rule)."""
        self.passages = frozenset(p for p, t in self.texts.items() if len(words(t)) > VALUE_WORDS)
        sentences = [t for t in self.texts.values() if len(words(t)) >= PROSE_WORDS]
        self.prose = frozenset(
            w for t in sentences for w in t.split() if w.isalpha() and w.islower()
        )
        """Words the report's sentences write in lower case: words of its prose, not names
        (a table's cells are not prose: ``john breaux (d) unopposed``)."""
        self._cell_words: dict[str, tuple[str, ...]] = {}
        self._scans: dict[str, tuple[Scan, tuple[Name, ...]]] = {}
        self.records = _records(self.leaves.values())
        self.cells = _cells(self.leaves.values())
        self.phrases, self.item_stems = _phrases(evidence)
        self.all_stems: frozenset[str] = frozenset().union(
            *(leaf.stems for leaf in self.leaves.values())
        )
        """Stems of every value and key of the report."""
        self.trends = _trends(self.leaves.values())
        self.children: dict[str, list[str]] = {}
        """Parent path → the leaf paths directly under it (``financials.payer_mix``)."""
        for path in self.leaves:
            self.children.setdefault(path.rpartition(".")[0], []).append(path)
        company = report.company
        names = [company.name, *company.aliases]
        extra = company.model_extra or {}
        names += [v for k, v in extra.items() if k == "legal_name" and isinstance(v, str)]
        if company.domain:
            names.append(company.domain.split(".")[0])
        self.company_names = tuple(n for n in names if n.strip())
        self.company = NameEvidence(
            texts=tuple(squash_text(n) for n in self.company_names),
            units=frozenset(squash_name(n) for n in self.company_names),
        )
        self.company_stems = frozenset(stem(t) for n in self.company_names for t in name_tokens(n))

    def sibling_swap(
        self, tokens: Sequence[str], cited: Sequence[LeafFacts], holds: Callable[[LeafFacts], bool]
    ) -> str | None:
        """A field next to a cited one (same parent, ``payer_mix.medicare_pct`` beside
        ``payer_mix.medicaid_pct``) whose own key words the claim uses while it uses none
        of the cited field's own (``Medicare is 15.1% of the payer mix``; a concept both
        keys name, ``conversion`` of ``trial_conversion_pct`` and ``conversion_rate_pct``,
        is neither's own), and that could
        hold the claim's figures (``holds``); else ``None``."""
        stems = {stem(t) for t in tokens}
        said = concepts.all_concepts(tokens)
        cited_paths = {leaf.path for leaf in cited}
        for leaf in cited:
            parent, _, key = leaf.path.rpartition(".")
            mine = _key_words(key)
            for path in self.children.get(parent, ()):
                theirs = _key_words(path.rpartition(".")[2])
                own, other = mine - theirs, theirs - mine
                if path in cited_paths or not other:  # a more specific sibling counts too
                    continue
                theirs_concepts = _key_concepts(path.rpartition(".")[2])
                named_mine = stems & own or said & (_key_concepts(key) - theirs_concepts)
                if stems & other and not named_mine and holds(self.leaves[path]):
                    return path
        return None

    def requalified(self, source: LeafFacts, measures: frozenset[str]) -> bool:
        """Does dropping ``source``'s qualifier point elsewhere? Yes for one of
        ``lexicon.QUANTITY_QUALIFIERS``. When the claim names no measure, yes unless the
        qualifier goes without saying (``lexicon.IMPLICIT_QUALIFIERS``: ``Calls are
        answered in 3.5 minutes`` citing ``avg_speed_of_answer_seconds``). Else only when
        another field holds the measures the claim names (``measures``, qualifiers aside)
        with other qualifiers (``gross_revenue_usd`` beside ``net_revenue_usd`` for
        ``revenue``; not ``revenue to churn`` for ``annual_gross_revenue_churn`` when no
        other field measures revenue churn)."""
        base = measures - lexicon.REVERSE_QUALIFIERS
        if source.qualifiers & lexicon.QUANTITY_QUALIFIERS:
            return True
        if not base:  # nothing named: the dropped qualifier must be one a claim says
            return bool(source.qualifiers - lexicon.IMPLICIT_QUALIFIERS)
        first = min(base)
        return any(
            leaf.path != source.path
            and base <= leaf.measures
            and leaf.qualifiers != source.qualifiers
            for leaf in self.owners.get(f"concept:{first}", ())
        )

    def passage_scan(self, path: str) -> tuple[Scan, tuple[Name, ...]]:
        """The scan of the text at ``path`` and the names in it, kept per leaf."""
        found = self._scans.get(path)
        if found is None:
            text = scan(self.texts.get(path, ""), report_text=True)
            names = tuple(find_names(text.masked, self.ordinary))
            found = self._scans[path] = (text, names)
        return found

    def cell_words(self, leaf: LeafFacts) -> tuple[str, ...]:
        """``attributes.cell_words`` of a text leaf with no figure in it, kept per leaf."""
        found = self._cell_words.get(leaf.path)
        if found is None:
            text = self.texts.get(leaf.path)
            plain = text is not None and not any(not q.from_path for q in leaf.quantities)
            found = self._cell_words[leaf.path] = cell_words(text) if text and plain else ()
        return found

    def present(self, leaf: LeafFacts) -> bool:
        """Does the leaf state that something is there: not an absent value (``none``,
        ``-``, ``0``: ``lexicon.ABSENT_VALUES``)?"""
        text = self.texts.get(leaf.path)
        if text is not None:
            opening = _OPENING.split(text, maxsplit=1)[0]  # "none — tracked in Excel"
            return (
                not {" ".join(t.lower().split()) for t in (text, opening)} & lexicon.ABSENT_VALUES
            )
        return any(q.value != 0 for q in leaf.quantities if q.numeric and not q.from_path)

    def key_fit(self, path: str, said: frozenset[str]) -> float:
        """How well the stems ``said`` name the key of ``path``: the weight of its words
        they name, less the weight of those they leave out."""
        weights = self.key_weights
        # fsum: exact, so the order a frozenset iterates in (the hash seed) cannot break a tie
        return math.fsum(
            weights.get(w, 0.0) * (1 if w in said else -1) for w in self.key_stems[path]
        )

    def renamed(
        self,
        own: Sequence[LeafFacts],
        holds: Callable[[LeafFacts], bool],
        *,
        near: Sequence[str],
        naming: Sequence[str],
    ) -> str | None:
        """The field next to ``own`` (same parent) whose key the ``naming`` words
        (``attributes.Naming``) name better than the ``near`` words name any of
        ``own``'s, by a word none of ``own``'s keys has that is distinctive
        (``DISTINCT_KEY_SHARE``), and that could hold the value (``holds``): ``a crowd of
        11.11 (77)`` when 11.11 (77) is ``away_team_score``; else ``None``. Words of the
        value's own cell (``+ 4 laps``) name nothing else."""
        cell = frozenset().union(
            *(leaf.stems - {stem(w) for w in path_words(leaf.path)} for leaf in own)
        )
        stems = frozenset(stem(w) for w in naming) - cell
        mine = {leaf.path for leaf in own}
        own_words = frozenset().union(*(self.key_stems[p] for p in mine))
        floor = math.log(1 / DISTINCT_KEY_SHARE)
        distinct = [w for w in stems - own_words if self.key_weights.get(w, 0.0) >= floor]
        candidates = {
            path
            for parent in {p.rpartition(".")[0] for p in mine}
            for w in distinct
            for path in self.key_holders.get((parent, w), ())
            if path not in mine
        }
        if not candidates:
            return None
        # "write by sam snape" names writer: a verb names its agent noun's key
        near_stems = {stem(w) for w in near}
        near_stems |= {stem(a) for w in near for a in language.agent_nouns(w)}
        ours = max(self.key_fit(p, frozenset(near_stems)) for p in mine)
        best: tuple[float, str] | None = None
        for path in sorted(candidates):
            fit = self.key_fit(path, stems)
            better = fit > ours and fit > 0 and (best is None or fit > best[0])
            if better and holds(self.leaves[path]):
                best = (fit, path)
        return best[1] if best is not None else None

    def rivals(
        self, tokens: Iterable[str], holds: Callable[[LeafFacts], bool], *, counts: bool = True
    ) -> tuple[frozenset[str], frozenset[str]]:
        """The field stems and concepts among ``tokens`` that name some field that could
        hold the claim's figures (``holds``): a word of a field of another kind (a room
        count, a cost per room, for a percentage) is no evidence against the cited one. A
        list or object holds only a count: its concepts are rivals when ``counts`` (every
        figure of the claim could count items)."""
        said = list(tokens)
        field_stems = frozenset(
            s
            for s in {stem(t) for t in said} & self.field_stems
            if any(holds(leaf) for leaf in self.owners.get(s, ()))
        )
        named = frozenset(
            c
            for c in concepts.all_concepts(said) & self.named
            if (counts and c in self.named_by_container)
            or any(holds(leaf) for leaf in self.owners.get(f"concept:{c}", ()))
        )
        return field_stems, named

    def passage(self, path: str) -> bool:
        """Is the value at ``path`` a passage — text of more than ``VALUE_WORDS`` words,
        which can say many things — rather than one value (a number, a date, a name)?"""
        return path in self.passages

    def facts(self, leaves: Iterable[Leaf]) -> list[LeafFacts]:
        return [self.leaves[leaf.path] for leaf in leaves if leaf.path in self.leaves]

    def container(self, path: str) -> Container | None:
        canonical = canonical_path(path)
        return self.containers.get(canonical) if canonical is not None else None

    def ordinary(self, word: str) -> bool:
        """A lower-case word this report writes in lower case."""
        return word in self.vocabulary


def index_for(report: Report) -> VerifierIndex:
    """The report's index, built once per report (under its lock) and kept with it."""
    return report.derived(VerifierIndex)
