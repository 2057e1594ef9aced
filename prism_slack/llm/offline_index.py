"""Per-report search index for the offline answerer: answer units, terms and ranking.

A report is cut into *items*, the units an answer is made of:

- a ``leaf``: one scalar field outside any list (``financials.revenue_usd``);
- a ``list``: a list of scalars, taken whole (``company.channels``);
- a ``record``: one object inside a list (``findings[2]``, ``stakeholders[0]``).

Each item carries, per concept term (see ``lexicon``), how strongly it holds the term: the
last key of a field's path names what the field *is* (strongest), the keys above it place it,
values mention things. Ranking is BM25 (``rank_bm25``) over each item's terms, the stronger
places repeated so that they weigh more; a term's scores over every item are computed once
and kept. Question words the report does not hold are corrected to the closest report or
lexicon word (``rapidfuzz``, a typo or two) before they become terms.

The index is built once per report (``index_for``) and reused.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from typing import TYPE_CHECKING, Any, Literal

from rank_bm25 import BM25Okapi
from rapidfuzz import process
from rapidfuzz.distance import OSA

from prism_slack.evidence import Leaf, join_key
from prism_slack.facts.words import (
    QUALIFIER_KEYS,
    ROW_LABEL_KEYS,
    UNIT_KEYS,
    VALUE_META_KEYS,
    labelled,
)
from prism_slack.llm import lexicon
from prism_slack.reports.detect import CompanyIndex
from prism_slack.reports.model import Report

if TYPE_CHECKING:  # the facts package imports the verifier, which imports reports
    from prism_slack.facts import ReportFacts
    from prism_slack.facts.tables import Table

ItemKind = Literal["leaf", "list", "record"]

CURRENCIES = {"usd": "$", "eur": "€", "gbp": "£"}
KEY_SCALES = {"thousands": 3, "millions": 6, "billions": 9, "mn": 6, "bn": 9}
"""Scale words a key may carry: ``total_assets_usd_millions = 3412.8`` is $3.41B."""
UNIT_WORDS = frozenset({"pct", "percent", "bps", *CURRENCIES, *KEY_SCALES})
SKIPPED_SECTIONS = frozenset({"access"})
SCALE_KEYS = ("max", "scale", "out_of", "max_score", "scale_max", "score_max", "maximum")
SEVERITY_RANK = {"critical": 0, "high": 1, "medium": 2, "low": 3}

LAST_KEY, MIDDLE_KEY, SECTION_KEY, FIELD_KEY, TITLE_VALUE, VALUE = 3.0, 2.0, 1.5, 0.5, 1.5, 1.0


@dataclass(frozen=True, slots=True)
class Item:
    """One answer unit. ``keys`` are the path's keys without list indices."""

    order: int
    kind: ItemKind
    path: str
    keys: tuple[str, ...]
    leaves: tuple[Leaf, ...]
    fields: Mapping[str, Leaf] = field(default_factory=dict)
    """For a record: its top-level scalar fields by key (``title``, ``severity``, …)."""
    row_key: str = ""
    """For a row of a table of figures (``Builder.named_row``): the key of its figure
    (``value``); its last key is then the row's name, not a key of its path."""
    labelled: bool = False
    """An item of a list of ``"Label: value"`` strings (``Builder.scalar_list``): its last
    key is the label, and it is said as written."""
    headers: Mapping[str, str] = field(default_factory=dict)
    """For a row of a header-and-rows table: each cell's path → its column's header."""

    def key_of(self, path: str) -> str:
        """The key of this record's field at ``path``: its column's header, or its own."""
        return self.headers.get(path) or field_key(path)

    @property
    def section(self) -> str:
        return self.keys[0] if self.keys else ""

    def get(self, key: str) -> str | None:
        leaf = self.fields.get(key)
        return leaf.value if leaf is not None and isinstance(leaf.value, str) else None

    @property
    def is_finding(self) -> bool:
        return self.kind == "record" and "title" in self.fields and "severity" in self.fields

    @property
    def is_person(self) -> bool:
        return (
            self.kind == "record"
            and "name" in self.fields
            and ("title" in self.fields or "role" in self.fields)
        )

    @property
    def severity_rank(self) -> int:
        word = severity_word(self.get("severity") or "")
        return SEVERITY_RANK[word] if word is not None else len(SEVERITY_RANK)


@dataclass(frozen=True, slots=True)
class Hit:
    item: Item
    score: float
    covered: frozenset[str]
    """The question's content terms this item holds."""
    coverage: float
    """Weighted share of the question's content terms this item holds (0–1)."""
    named: bool = False
    """A content term is in the item's keys (its name or place), not only in its values."""


Terms = dict[str, float]
"""A question's terms: concept → weight."""

_LEXICON_WORDS = tuple(sorted(lexicon.VOCABULARY))
SOFT_WEIGHT = 0.3
UNKNOWN_WEIGHT = 0.5
"""Weight of a question word neither the report nor the lexicon knows ("ppl", "list"): it
lowers an item's coverage, it never vetoes it."""
COMPONENT = 0.7
"""Strength share of a word inside a merged phrase (``margin`` inside ``gross margin``)."""
VALUE_PRIOR = {"report": 0.4}
"""Values of sections about the audit rather than the prospect (its scope, its method)
weigh less: they mention the things audited, they do not state facts about them."""
HEAD_BONUS = 1.0
"""Score added when a question term is the head of an item's name: "revenue" asks for
``Annual Revenue`` (a revenue) before ``Revenue Growth`` (a growth) or ``field_sales_reps``
(a count of reps): in an English compound the last word names the thing, the words before it
qualify it."""
PURE_BONUS = 0.5
"""Added again when the head's only qualifiers are soft words (``annual``, ``total``): the
measure itself, not one part of it (``Rooms Revenue``)."""
REPEAT = {LAST_KEY: 3, MIDDLE_KEY: 2, SECTION_KEY: 1, FIELD_KEY: 1, TITLE_VALUE: 2, VALUE: 1}


@dataclass
class ReportIndex:
    """Everything the offline answerer needs of one report, computed once."""

    items: list[Item]
    postings: dict[str, dict[int, float]]
    """Concept → item → strength."""
    name_terms: list[frozenset[str]]
    """Per item, the concepts of the key that names it (units left out)."""
    company_terms: frozenset[str]
    scales: dict[str, Leaf]
    """Score leaf path → the leaf holding its scale (``scores.max``)."""
    words: tuple[str, ...]
    """Every word of the report's keys and values, as written, sorted (typo-correction
    targets; sorted so that ties always break the same way)."""
    key_terms: frozenset[str]
    """Terms of the report's keys (what its fields are named), as against its values."""
    proper_terms: frozenset[str]
    """Terms the report's values write capitalised inside a sentence and never in lower
    case: places, products, names ("Brno", "Trailhead")."""
    short_keys: frozenset[str]
    """Short words of the report's keys (``adr``, ``oee``): initials a rep may spell out."""
    initials: Mapping[str, tuple[str, ...]]
    """The initials of two or three words of a key or a short value → those words
    (``pss``: passenger service system, ``pms``: practice management, its system's S)."""
    companies: CompanyIndex
    bm25: BM25Okapi
    holders: dict[str, list[Item]]
    """Leaf or record path → the items that are or hold it."""
    measures: frozenset[str]
    """The terms that name a numeric field (``employee`` for ``headcount = 940``)."""
    facts: ReportFacts
    """The report's typed facts: what each leaf means and how a rep says it."""
    heads: list[Head | None] = field(default_factory=list)
    """Per item, the head of its name (``None`` for a record or list)."""
    caps: frozenset[str] = frozenset()
    """Words the report's text writes only in capitals ("CAPA backlog"): acronyms, in lower
    case, that its labels write in capitals too."""
    key_stems: frozenset[str] = frozenset()
    """The stems of every word of the report's keys (``close`` in ``median_days_to_close``)."""
    naming: dict[int, frozenset[str]] = field(default_factory=dict)
    """The items whose values are the company's own names → the terms of those names: an
    item holding only those answers nothing ("how many hotels" is not "Marlow Grange
    Hotels")."""
    _known_words: frozenset[str] = frozenset()
    _cache: dict[str, list[float]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def scale_paths(self) -> frozenset[str]:
        return frozenset(leaf.path for leaf in self.scales.values())

    @cached_property
    def scored_terms(self) -> frozenset[str]:
        """The terms of the sections that hold scores (``maturity``, ``assessment``): a
        question naming only them asks of the scores as a whole ("strongest maturity
        score")."""
        return frozenset(
            t
            for item in self.items
            if item.path in self.scales and item.keys
            for t in lexicon.text_terms(item.keys[0])
        )

    def holding(self, path: str) -> list[Item]:
        """The items that are, or hold, the leaf or record at ``path``."""
        return self.holders.get(path, [])

    def knows(self, term: str) -> bool:
        return term in self.postings or term in lexicon.KNOWN

    def weight(self, term: str) -> float:
        return 1.0 if self.knows(term) else UNKNOWN_WEIGHT

    def term_scores(self, term: str) -> list[float]:
        """BM25 score of every item for one term (computed once per term)."""
        with self._lock:
            scores = self._cache.get(term)
            if scores is None:
                scores = [float(x) for x in self.bm25.get_scores([term])]
                self._cache[term] = scores
            return scores

    def rank(self, content: Terms, soft: Terms) -> list[Hit]:
        """Items holding any question term, best first (score, then document order).

        Score: BM25 per term times its weight (soft terms ×0.3), plus a bonus for the
        share of the item's own name the question used. Coverage: the weighted share of
        content terms the item holds.
        """
        scores: dict[int, float] = {}
        covered: dict[int, set[str]] = {}
        for terms, factor in ((content, 1.0), (soft, SOFT_WEIGHT)):
            for term, weight in terms.items():
                posting = self.postings.get(term)
                if not posting:
                    continue
                per_item = self.term_scores(term)
                for i in posting:
                    scores[i] = scores.get(i, 0.0) + max(per_item[i], 0.05) * weight * factor
                    if factor == 1.0:
                        covered.setdefault(i, set()).add(term)
        total = sum(content.values())
        asked = set(content) | set(soft)
        hits = []
        for i, raw in scores.items():
            names = self.name_terms[i]
            precision = len(names & asked) / len(names) if names else 0.0
            head = self.heads[i] if i < len(self.heads) else None
            bonus = 0.0
            if head is not None and head.term in content:
                bonus = HEAD_BONUS + (PURE_BONUS if head.pure else 0.0)
            held = covered.get(i, set())
            if i in self.naming and held and held <= self.naming[i]:
                continue
            coverage = sum(content[t] for t in held) / total if total else 0.0
            named = any(self.postings[t][i] >= SECTION_KEY for t in held)
            score = raw + bonus + 0.5 * precision
            hit = Hit(self.items[i], score, frozenset(held), coverage, named)
            hits.append(hit)
        hits.sort(key=lambda h: (-h.score, h.item.order))
        return hits

    def named_by(self, item: Item, terms: AbstractSet[str]) -> bool:
        """Some of ``terms`` is in ``item``'s keys (its name or place), not only in its
        values."""
        return any(self.postings.get(t, {}).get(item.order, 0.0) >= SECTION_KEY for t in terms)

    def correct(self, word: str) -> str:
        """``word``, or the report or lexicon word it is a typo or a short form of."""
        if (
            len(word) < 4
            or word.isdigit()
            or word in self._known_words
            or word in lexicon.VOCABULARY
            or word in lexicon.ABBREVIATIONS
        ):
            return word
        limit = 1 if len(word) <= 8 else 2
        best: tuple[tuple[float, bool, int], str] | None = None
        for source, choices in enumerate((self.words, _LEXICON_WORDS)):
            found = process.extract(
                word, choices, scorer=OSA.distance, score_cutoff=limit, processor=None, limit=8
            )
            for choice, distance, _ in found:
                if choice[:1] != word[:1]:
                    continue
                # at one distance, a word the typo drops letters of ("basd" → based, not
                # bad; "whre" → where, not were): a dropped key is the commonest slip
                rank = (distance, not _subsequence(word, choice), source)
                if best is None or rank < best[0]:
                    best = (rank, choice)
        if best is not None:
            return str(best[1])
        longer = sorted(w for w in self.words if w.startswith(word) and len(w) >= len(word) + 2)
        return longer[0] if len(longer) == 1 else word

    def findings(self) -> list[Item]:
        """Finding records, most severe first (document order within a severity)."""
        found = [item for item in self.items if item.is_finding]
        return sorted(found, key=lambda item: (item.severity_rank, item.order))

    def people(self) -> list[Item]:
        return [item for item in self.items if item.is_person]


class _Builder:
    def __init__(self, facts: ReportFacts) -> None:
        self.facts = facts
        self.items: list[Item] = []
        self.postings: dict[str, dict[int, float]] = {}
        self.docs: list[list[str]] = []
        self.name_terms: list[frozenset[str]] = []
        self.scales: dict[str, Leaf] = {}
        self.words: set[str] = set()
        self.key_terms: set[str] = set()
        self.key_words: set[str] = set()
        self.proper: set[str] = set()
        self.common: set[str] = set()
        self.caps: set[str] = set()
        self.lower: set[str] = set()
        self.parts: dict[str, set[str]] = {}
        """A row's figure name → the parts of the business rows give it for (``revenue`` →
        ``{BRA, BRA-CARGO}``): a name given for two parts is said with its part."""

    def part_of(self, row: Mapping[str, Any], label: str) -> str | None:
        """The part of the business a row's figure is of, as the row writes it, when rows
        of other parts hold a figure of the same name (``revenue`` of ``BRA-CARGO``)."""
        part = _qualifier(row)
        return part if part is not None and len(self.parts.get(label, ())) > 1 else None

    def add(self, item: Item, strengths: _Strengths, names: frozenset[str]) -> None:
        i = len(self.items)
        self.items.append(item)
        self.name_terms.append(names)
        self.docs.append(strengths.doc)
        self.words |= strengths.raw
        self.key_terms |= strengths.keyed
        self.key_words |= strengths.key_words
        self.proper |= strengths.proper
        self.common |= strengths.common
        self.caps |= strengths.caps
        self.lower |= strengths.lower
        for term, strength in strengths.concepts.items():
            self.postings.setdefault(term, {})[i] = strength

    def walk(self, path: str, keys: tuple[str, ...], value: Any, scale: Leaf | None = None) -> None:
        """``scale``: the scale a mapping of scores inherits from its parent
        (``assessment.scale_max`` for ``assessment.scores.*``)."""
        if isinstance(value, Mapping) and (table := self.facts.tables.get(path)) is not None:
            self.table(table, keys, _scale_leaf(path, value) or scale)
        elif isinstance(value, Mapping) and (across := self.facts.across.get(path)):
            self.across(path, keys, value, across, scale)
        elif isinstance(value, Mapping):
            scale = _scale_leaf(path, value) or scale
            if path in self.facts.series or _value_key(value, self.facts, path) is not None:
                self.one_value(path, keys, value, scale)
                return
            columns = column_table(value)
            if columns and not any(join_key(path, k) in self.facts.series for k in columns):
                self.by_column(path, keys, value, columns, scale)
                value = {k: v for k, v in value.items() if k not in columns}
            gathered: dict[str, list[Leaf]] = {}
            for key, child in value.items():
                child_path = join_key(path, str(key))
                if (series := self.facts.gathered.get(child_path)) is not None:
                    gathered.setdefault(series, []).append(Leaf(child_path, child))
                    continue  # "Revenue GJ 2024" beside "Revenue GJ 2025": one series
                if scale is not None and "_".join(lexicon.key_words(str(key))) not in SCALE_KEYS:
                    self.scales[child_path] = scale
                scored = {"score", "scores", "rating", "ratings"} & set(lexicon.key_words(str(key)))
                inherited = scale if scored and isinstance(child, Mapping) else None
                self.walk(child_path, (*keys, str(key)), child, inherited)
            for series, leaves in gathered.items():
                leaves.reverse()  # the latest first
                self.named_figure(series, (*keys, self.facts.series[series].label), leaves)
        elif isinstance(value, list):
            if value and all(isinstance(v, Mapping) for v in value):
                earlier: dict[str, list[tuple[str, Mapping[str, Any]]]] = {}
                for i, child in enumerate(value):
                    row = f"{path}[{i}]"
                    if (latest := self.facts.gathered.get(row, row)) != row:
                        # an earlier row of a series: said, and cited, with its latest row
                        earlier.setdefault(latest, []).insert(0, (row, child))
                for i, child in enumerate(value):
                    row = f"{path}[{i}]"
                    if self.facts.gathered.get(row, row) != row:
                        continue
                    name = _row_name(child, self.facts, row)
                    if name is not None:
                        self.named_row(row, keys, child, name, earlier.get(row, []))
                    else:
                        self.record(f"{path}[{i}]", keys, child)
            elif path in self.facts.series:
                self.column_series(path, keys, value)
            else:
                self.scalar_list(path, keys, value)
        elif value is not None:
            self.leaf(path, keys, value)

    def table(self, table: Table, keys: tuple[str, ...], scale: Leaf | None) -> None:
        """A header-and-rows table (``facts.tables``): a figure table's row is one figure
        (or series) named by its label, citing its cells and its label; a record table's
        row is one record, its fields named by the header."""
        for i, row in enumerate(table.rows):
            label = table.label(i)
            if label is None:
                cells = {c: table.cell(i, j) for j, c in enumerate(table.columns)}
                self.record(table.row(i), keys, dict(zip(table.columns, row, strict=True)), cells)
                continue
            figures = [Leaf(table.cell(i, j), v) for j, v in enumerate(row) if j and v is not None]
            if not figures:
                continue
            path = table.row(i) if table.row(i) in self.facts.series else figures[-1].path
            leaves = [*figures, Leaf(table.cell(i, 0), label)]
            if label in table.units:  # the unit the figures are said in ("megalitres per day")
                unit = join_key(join_key(table.path, "units"), label)
                leaves.append(Leaf(unit, table.units[label]))
            if scale is not None:
                self.scales[path] = scale
            self.named_figure(path, (*keys, label), leaves)

    def across(
        self,
        path: str,
        keys: tuple[str, ...],
        value: Mapping[str, Any],
        across: Mapping[str, str],
        scale: Leaf | None,
    ) -> None:
        """An object keyed by period whose periods are objects (``facts.across``): each
        key the periods share is one series named by the key, citing every period's value;
        what only one period holds is walked as any object's fields."""
        for key, at in across.items():
            series = self.facts.series[at].series
            assert series is not None
            points = [
                Leaf(p.path, value[p.period][key]) for p in series.points if p.period in value
            ]
            self.named_figure(at, (*keys, key), points)
        for period, child in value.items():
            rest = {k: v for k, v in child.items() if k not in across}
            self.walk(join_key(path, str(period)), (*keys, str(period)), rest, scale)

    def named_figure(
        self,
        path: str,
        named: tuple[str, ...],
        leaves: list[Leaf],
        *,
        said: bool = False,
        **fields: Any,
    ) -> None:
        """One figure named by ``named`` (its last key a row's label, not always a key of
        its path), citing ``leaves``; ``said``: its values are searched too."""
        strengths = _Strengths()
        strengths.keys(named)
        for leaf in leaves if said else ():
            strengths.value(leaf.value, VALUE * VALUE_PRIOR.get(named[0], 1.0))
        item = Item(len(self.items), "leaf", path, named, tuple(leaves), **fields)
        self.add(item, strengths, _names(named))

    def column_series(self, path: str, keys: tuple[str, ...], values: list[Any]) -> None:
        """A column of a table whose index column gives each cell's period (``revenue:
        [871.4, 904.2, 958.7]`` beside ``years: [FY23, FY24, FY25]``): one series, like a
        series keyed by period, that cites every cell."""
        leaves = tuple(Leaf(f"{path}[{i}]", v) for i, v in enumerate(values) if v is not None)
        self._cells("leaf", path, keys, leaves)

    def _cells(
        self, kind: ItemKind, path: str, keys: tuple[str, ...], leaves: tuple[Leaf, ...]
    ) -> None:
        """One item of a list's (or a column's) plain values, named by its keys."""
        strengths = _Strengths()
        strengths.keys(keys)
        for leaf in leaves:
            strengths.value(leaf.value, VALUE * VALUE_PRIOR.get(keys[0], 1.0))
        self.add(Item(len(self.items), kind, path, keys, leaves), strengths, _names(keys))

    def by_column(
        self,
        path: str,
        keys: tuple[str, ...],
        value: Mapping[str, Any],
        columns: tuple[str, ...],
        scale: Leaf | None,
    ) -> None:
        """A table stored by column (``stakeholders: {name: [...], title: [...]}``): the
        cells of one index are one record, read as a list of objects is."""
        size = len(value[columns[0]])
        figures = _figure_columns(value, columns)
        if figures is not None:
            self.column_figures(path, keys, value, figures, scale)
            return
        for i in range(size):
            row = {k: value[k][i] for k in columns}
            cells = {k: f"{join_key(path, k)}[{i}]" for k in columns}
            if scale is not None:
                for cell in cells.values():
                    self.scales[cell] = scale
            self.record(path, keys, row, cells)

    def one_value(
        self, path: str, keys: tuple[str, ...], value: Mapping[str, Any], scale: Leaf | None
    ) -> None:
        """A value with its unit, period or scale beside it (``{"value": 812.6, "unit":
        "EUR million", "period": "FY25"}``), or a series keyed by period (``{"2024": 0.09,
        "2025": 0.083}``): one answer unit that cites every leaf it is read from. Its path
        is the value's (``….value``) or the series'."""
        leaves: list[Leaf] = []
        _flatten(path, value, leaves)
        key = _value_key(value, self.facts, path)
        if key is not None and path not in self.facts.series:
            path = join_key(path, key)
            first = [leaf for leaf in leaves if leaf.path == path or leaf.path.startswith(path)]
            leaves = first + [leaf for leaf in leaves if leaf not in first]
            if scale is not None:
                self.scales[path] = scale
        strengths = _Strengths()
        strengths.keys(keys)
        for leaf in leaves:
            strengths.value(leaf.value, VALUE * VALUE_PRIOR.get(keys[0], 1.0))
        item = Item(len(self.items), "leaf", path, keys, tuple(leaves))
        self.add(item, strengths, _names(keys))

    def named_row(
        self,
        path: str,
        keys: tuple[str, ...],
        value: Mapping[str, Any],
        name: str,
        earlier: Sequence[tuple[str, Mapping[str, Any]]] = (),
    ) -> None:
        """A row of a table of figures, named by one of its own fields (``{"metric":
        "Active grower accounts", "value": 1630, "unit": "accounts", "period": …}``): one
        figure, like a value object, whose name is the row's name. The name stands as the
        item's last key (``("kpis", "Active grower accounts")``), so it is matched, headed
        and worded as a key is; the unit's words say what the figure counts or measures
        (``accounts``, ``devices``), the way a key's unit word does."""
        label = str(value[name]).strip()
        part = self.part_of(value, label)
        key = _row_value_key({k: v for k, v in value.items() if k != name}, self.facts, path)
        assert key is not None  # _row_name checked it
        first = join_key(path, key)
        typed = self.facts.get(first)
        if " " not in label and typed is not None and typed.label:
            label = typed.label  # an identifier (``otp_departure_d15``) as its words
        named = (*keys, f"{label} ({part})" if part else label)
        leaves: list[Leaf] = []
        _flatten(path, value, leaves)
        leaves = sorted(leaves, key=lambda leaf: leaf.path != first)
        if earlier:  # the latest row of a long table's series: its earlier rows' figures
            # and periods too (what they share with it is cited once, from it)
            leaves[1:1] = [
                Leaf(join_key(row, str(k)), v)
                for row, other in earlier
                for k, v in other.items()
                if v is not None and v != value.get(k)
            ]
            first = path
        strengths = _Strengths()
        strengths.keys(named)
        own = (f"{path}.", f"{path}[")  # an earlier row's figures are not searched
        for leaf in (leaf for leaf in leaves[1:] if leaf.path.startswith(own)):
            named_key = "_".join(lexicon.key_words(leaf.path.rsplit(".", 1)[-1]))
            if named_key in UNIT_KEYS and isinstance(leaf.value, str):
                strengths.put(lexicon.words(leaf.value), MIDDLE_KEY, key=True)
            elif leaf.path != join_key(path, name):
                strengths.value(leaf.value, VALUE * VALUE_PRIOR.get(keys[0], 1.0))
        item = Item(len(self.items), "leaf", first, named, tuple(leaves), row_key=key)
        self.add(item, strengths, _names(named))

    def leaf(self, path: str, keys: tuple[str, ...], value: Any) -> None:
        strengths = _Strengths()
        strengths.keys(keys)
        strengths.value(value, VALUE * VALUE_PRIOR.get(keys[0], 1.0))
        self.add(
            Item(len(self.items), "leaf", path, keys, (Leaf(path, value),)), strengths, _names(keys)
        )

    def scalar_list(self, path: str, keys: tuple[str, ...], values: list[Any]) -> None:
        leaves = tuple(
            Leaf(f"{path}[{i}]", v) for i, v in enumerate(values) if not _is_container(v)
        )
        labels = [labelled(str(leaf.value)) for leaf in leaves]
        people = [
            _PERSON_LINE.match(v) if isinstance(v := leaf.value, str) else None for leaf in leaves
        ]
        if len(leaves) >= 2 and 2 * sum(m is not None for m in people) > len(leaves):
            # "**Martina Kovács**, Operations Director — champion. Wants …": a person a line
            for leaf, m in zip(leaves, people, strict=True):
                if m is None:
                    self._cells("list", leaf.path, keys, (leaf,))
                    continue
                said = {k: v.strip() for k, v in m.groupdict().items() if v and v.strip()}
                self.record(leaf.path, keys, said, dict.fromkeys(said, leaf.path))
        elif len(leaves) >= 2 and 2 * sum(label is not None for label in labels) >= len(leaves):
            # ``["Revenue: AUD 188.4 million (FY25)", "EBITDA margin: 9.8%"]``: each item is
            # one field, named by its label
            for leaf, label in zip(leaves, labels, strict=True):
                named = (*keys, label) if label is not None else keys
                self.named_figure(leaf.path, named, [leaf], said=True, labelled=True)
        elif leaves:
            self._cells("list", path, keys, leaves)

    def column_figures(
        self,
        path: str,
        keys: tuple[str, ...],
        value: Mapping[str, Any],
        figures: tuple[str, str],
        scale: Leaf | None,
    ) -> None:
        """A table stored by column of names and figures (``areas: [...]`` beside
        ``score: [...]``): each index is one figure named by its name cell, as a row
        ``{"label": …, "value": …}`` is."""
        names, numbers = figures
        for i, (label, figure) in enumerate(zip(value[names], value[numbers], strict=True)):
            at = f"{join_key(path, numbers)}[{i}]"
            named = (*keys, str(label).strip())
            leaves = [Leaf(at, figure), Leaf(f"{join_key(path, names)}[{i}]", label)]
            if scale is not None:
                self.scales[at] = scale
            self.named_figure(at, named, leaves, row_key=numbers)

    def record(
        self,
        path: str,
        keys: tuple[str, ...],
        value: Mapping[str, Any],
        cells: Mapping[str, str] | None = None,
    ) -> None:
        """One record: an object in a list, or (``cells``: each field's own path) one index
        of a table stored by column, whose item path is the table's."""
        leaves: list[Leaf] = []
        if cells is None:
            _flatten(path, value, leaves)
        else:
            leaves = [Leaf(cells[k], v) for k, v in value.items() if v is not None]
        fields = _roles(
            {
                str(k): Leaf(cells[k] if cells is not None else join_key(path, str(k)), v)
                for k, v in value.items()
                if not _is_container(v) and v is not None
            }
        )
        heads = {fields[k].path for k in ("title", "name", "severity", "role") if k in fields}
        strengths = _Strengths()
        for i, key in enumerate(keys):
            strengths.put(lexicon.key_words(key), MIDDLE_KEY if i else SECTION_KEY + 0.5, key=True)
        headers = {p: k for k, p in cells.items()} if cells is not None else {}
        item = Item(len(self.items), "record", path, keys, tuple(leaves), fields, headers=headers)
        for leaf in leaves:
            strengths.put(lexicon.key_words(item.key_of(leaf.path)), FIELD_KEY, key=True)
            strengths.value(leaf.value, TITLE_VALUE if leaf.path in heads else VALUE)
        if item.is_person:  # whatever its section is called (team, decision_makers)
            strengths.put([lexicon.STAKEHOLDER], SECTION_KEY, key=True)
        self.add(item, strengths, frozenset())


@dataclass
class _Strengths:
    """How strongly one item holds each concept, and its BM25 document."""

    concepts: dict[str, float] = field(default_factory=dict)
    doc: list[str] = field(default_factory=list)
    raw: set[str] = field(default_factory=set)
    keyed: set[str] = field(default_factory=set)
    key_words: set[str] = field(default_factory=set)
    proper: set[str] = field(default_factory=set)
    common: set[str] = field(default_factory=set)
    caps: set[str] = field(default_factory=set)
    lower: set[str] = field(default_factory=set)

    def put(self, tokens: list[str], strength: float, *, key: bool = False) -> None:
        """``key``: the tokens are words of a key (a field's name), not of a value."""
        if key:
            self.key_words.update(t for t in tokens if 2 <= len(t) <= 6 and t.isalpha())
        self.raw.update(t for t in tokens if len(t) >= 4 and not t.isdigit())
        repeat = REPEAT.get(strength, 1)
        for stemmed, read, parts in lexicon.term_parts(tokens):
            # a key's "close", "open": what the field measures, as said, not a call to coach
            concept = stemmed if key and read == lexicon.COACHING else read
            self._one(concept, strength, repeat)
            if key:
                self.keyed.add(concept)
            if len(parts) > 1:  # the words of a merged phrase still count on their own
                for word in parts:
                    for _, part in lexicon.term_pairs([word]):
                        if part != concept:
                            self._one(part, strength * COMPONENT, max(repeat - 1, 1))
                            if key:
                                self.keyed.add(part)

    def _one(self, concept: str, strength: float, repeat: int) -> None:
        if self.concepts.get(concept, 0.0) < strength:
            self.concepts[concept] = strength
        self.doc.extend([concept] * repeat)

    def keys(self, keys: tuple[str, ...]) -> None:
        for i, key in enumerate(keys):
            if i == len(keys) - 1:
                strength = LAST_KEY
            elif i == 0:
                strength = SECTION_KEY
            else:
                strength = MIDDLE_KEY
            self.put(lexicon.key_words(key), strength, key=True)
            if i and i == len(keys) - 2:  # an object's own name: ServiceOperationVessels.Owned
                for acronym in _acronyms(key):
                    self._one(acronym, strength, REPEAT[strength])
        for acronym in _acronyms(keys[-1]):
            self._one(acronym, LAST_KEY, REPEAT[LAST_KEY])
        whole = keys[-1].lower()
        if whole.isalnum() and len(lexicon.key_words(keys[-1])) > 1:  # RevPAR read as "revpar"
            self._one(whole, LAST_KEY, REPEAT[LAST_KEY])

    def value(self, value: Any, strength: float) -> None:
        if isinstance(value, str):
            self.put(lexicon.words(value), strength)
            self.proper.update(lexicon.text_terms(" ".join(_PROPER.findall(value))))
            self.common.update(lexicon.text_terms(" ".join(_COMMON.findall(value))))
            self.caps.update(w.lower() for w in _CAPS.findall(value))
            self.lower.update(_COMMON.findall(value))
        elif isinstance(value, int) and not isinstance(value, bool):
            self.put([str(value)], strength)


_PROPER = re.compile(r"(?<=[\w,;:)] )[A-Z][a-z]+\b")
"""A capitalised word inside a sentence (not its first word)."""
_COMMON = re.compile(r"\b[a-z]+\b")
_CAPS = re.compile(r"\b[A-Z]{2,6}(?=s?\b)")
"""A word written in capitals ("CAPA", "CAPAs")."""


def _subsequence(short: str, long: str) -> bool:
    """``short`` is ``long`` with letters left out."""
    rest = iter(long)
    return all(ch in rest for ch in short)


def _acronyms(key: str) -> set[str]:
    """The initials a rep may type for a key of several words: ``net_interest_margin_pct``
    → ``nim``, ``return_on_assets`` → ``roa`` and ``ra``, ``food_and_beverage`` → ``fb``."""
    head = key.split("(", 1)[0]  # "Practice management (Canada)": also "pm"
    found = _acronyms(head) if head.strip() and head != key else set()
    words = [w for w in lexicon.key_words(key) if w not in UNIT_WORDS and not w.isdigit()]
    if len(words) < 2:
        return found
    content = [w for w in words if not lexicon.is_stop(w)]
    return found | {"".join(w[0] for w in ws) for ws in (words, content) if len(ws) >= 2}


@dataclass(frozen=True, slots=True)
class Head:
    """The head of a field's name: the term of its last content word (``premium`` for
    ``grossWrittenPremium``, ``rep`` for ``field_sales_reps``), read from the parent key when
    the last key holds only units and qualifiers (``revenue.total_usd`` → ``revenue``); in
    "X of Y" it is X (``share_of_revenue_pct`` is a share)."""

    term: str
    pure: bool
    """Nothing but words of the whole qualify it (``Annual Revenue``, ``revenue.total_usd``;
    not ``Online Sales``)."""


_PARENTHESIS = re.compile(r"\([^)]*\)")
_WHOLE_WORDS = frozenset(
    lexicon.stem(line.strip())
    for line in resources.files("prism_slack")
    .joinpath("data", "whole_words.txt")
    .read_text("utf-8")
    .splitlines()
    if line.strip() and not line.startswith("#")
)
"""Qualifiers that keep a name the measure as a whole (``data/whole_words.txt``)."""


def head_of(keys: tuple[str, ...]) -> Head | None:
    """The head of the name ``keys`` end in (see ``Head``), or ``None``."""
    for key in reversed(keys[-2:]):
        words = [
            w
            for w in lexicon.key_words(_PARENTHESIS.sub(" ", key))
            if w not in UNIT_WORDS and not w.isdigit()
        ]
        if "of" in words[1:]:  # "share of revenue" is a share
            before = lexicon.terms(words[: words.index("of")])
            return Head(before[-1], pure=len(set(before)) == 1) if before else None
        found = lexicon.terms(words)
        hard = [t for t in found if not lexicon.is_soft(t)]
        if hard:
            qualifiers = set(found) - {hard[-1]}
            return Head(hard[-1], pure=qualifiers <= _WHOLE_WORDS)
    return None


def _names(keys: tuple[str, ...]) -> frozenset[str]:
    words = [w for w in lexicon.key_words(keys[-1]) if w not in UNIT_WORDS]
    return frozenset(lexicon.terms(words))


def _roles(fields: dict[str, Leaf]) -> dict[str, Leaf]:
    """A finding's or a person's fields under the names the answerer reads (``title``,
    ``severity``, ``detail``; ``name``, ``title``, ``role``, ``notes``), whatever keys the
    report gives them (``headline``, ``rating``, ``explanation``; ``full_name``,
    ``position``, ``buying_role``, ``remarks``), in any case style (``fullName``, ``"Role
    in Deal"``). A person is a record with a name and a
    position or role; a finding, one with a severity word in a field and a headline. Any
    other record keeps its keys."""
    severity = next((k for k, leaf in fields.items() if severity_word(leaf.value)), None)
    if severity is None and (said := _severity_said(fields)) is not None:
        fields, severity = said, "severity"  # "4. Finding A — Two PMSs (severity: critical)"
    kinds = ("person", "finding") if severity is not None else ("person",)
    named = {k: "_".join(lexicon.key_words(k)) for k in fields}  # fullName, "Role in Deal"
    for kind in kinds:
        picked: dict[str, str] = {"severity": severity} if kind == "finding" and severity else {}
        for role, keys in lexicon.RECORD_FIELDS[kind].items():
            free = [k for k in fields if k not in picked.values()]
            key = next((k for want in keys for k in free if named[k] == want), None)
            if key is None:  # "Stakeholder Name", "contactTitle": the key's last word
                key = next((k for k in free if named[k].rsplit("_", 1)[-1] in keys), None)
            if key is not None:
                picked[role] = key
        complete = (
            "title" in picked
            if kind == "finding"
            else ("name" in picked and ("title" in picked or "role" in picked))
        )
        if complete:
            renamed = {role: fields[key] for role, key in picked.items()}
            taken = set(picked.values())
            return renamed | {
                k: v for k, v in fields.items() if k not in taken and k not in renamed
            }
    return fields


def severity_word(value: Any) -> str | None:
    """The severity a value states: the word itself, or one of the forms it gives
    ("kritisch / critical")."""
    if not isinstance(value, str):
        return None
    for part in value.lower().split("/"):
        if part.strip() in SEVERITY_RANK:
            return part.strip()
    return None


_SEVERITY_IN = re.compile(r"\s*\(?\bseverity\s*[:=]\s*([a-z]+)\s*\)?", re.IGNORECASE)
_LABEL_HEAD = re.compile(r"^\s*(?:\d+[.)]\s*)?(?:finding\s+[A-Z0-9]+\s*[—–:-]\s*)?", re.IGNORECASE)
SEVERITY_IN_CHARS = 200
"""A heading this short may state a finding's severity inside it."""


def _severity_said(fields: dict[str, Leaf]) -> dict[str, Leaf] | None:
    """A record whose short text field states a severity inside it ("Vet vacancies drive
    locum cost (severity: high)"): its fields with that text as the title (without the
    severity and a "4. Finding C —" label) and the severity as a field of its own."""
    for key, leaf in fields.items():
        text = leaf.value if isinstance(leaf.value, str) else ""
        m = _SEVERITY_IN.search(text) if len(text) <= SEVERITY_IN_CHARS else None
        if m is None or m.group(1).lower() not in SEVERITY_RANK:
            continue
        title = _LABEL_HEAD.sub("", _SEVERITY_IN.sub("", text)).strip(" —–-:")
        return {**fields, key: Leaf(leaf.path, title), "severity": Leaf(leaf.path, m.group(1))}
    return None


def field_key(path: str) -> str:
    """The key of a record's field at ``path``: its last key, without the index of a table
    stored by column (``stakeholders.title[2]`` → ``title``), a quoted key unquoted
    (``Competitors[0]["Distance by road (km)"]`` → ``Distance by road (km)``)."""
    bare = re.sub(r"\[\d+\]$", "", path)
    quoted = _LAST_QUOTED.search(bare)
    if quoted is not None:
        return str(json.loads(quoted.group(1)))
    return re.sub(r"\[\d+\]$", "", bare.rsplit(".", 1)[-1])


_LAST_QUOTED = re.compile(r'\[("(?:[^"\\]|\\.)*")\]$')


def column_table(value: Mapping[str, Any]) -> tuple[str, ...]:
    """The columns of a table stored by column: at least two lists of scalars, all of one
    length (two or more), that are most of the object's fields (a ``scale`` or ``units``
    may sit beside them); else ``()``."""
    columns = tuple(
        str(k)
        for k, v in value.items()
        if isinstance(v, list) and not any(_is_container(x) for x in v)
    )
    sizes = {len(value[k]) for k in columns}
    if len(columns) < 2 or len(sizes) != 1 or min(sizes) < 2 or 2 * len(columns) < len(value):
        return ()
    return columns


def _figure_columns(value: Mapping[str, Any], columns: tuple[str, ...]) -> tuple[str, str] | None:
    """(name column, figure column) when a table stored by column is two columns, one of
    text and one of numbers: a table of named figures; else ``None``."""
    if len(columns) != 2:
        return None
    text = [k for k in columns if all(isinstance(x, str) for x in value[k])]
    numbers = [
        k
        for k in columns
        if all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in value[k])
    ]
    return (text[0], numbers[0]) if len(text) == 1 and len(numbers) == 1 else None


def _is_container(value: Any) -> bool:
    return isinstance(value, (Mapping, list))


_PERSON_LINE = re.compile(
    r"^\s*\**\s*(?P<name>(?:Dr\.?\s+)?[A-Z][\w'’.-]+(?:\s+[A-Z][\w'’.-]+){1,3})\s*\**\s*,"
    r"\s*(?P<title>[^—–]+?)\s+[—–-]\s+(?P<role>[^.;]+)[.;]?\s*(?P<notes>.*)$"
)
"""A person written as a line: ``**Name**, Title — buying role. Notes``."""

INITIALS_VALUE_WORDS = 6
"""A string value of at most this many words may be written by its initials."""


def _initials(items: Sequence[Item]) -> dict[str, tuple[str, ...]]:
    """The initials a rep may type for two or three content words of a key or a short
    value (``PassengerService``, ``"passenger service system"``), with a trailing ``s`` for
    a system's when the run is a whole key or value (``pms`` of "Practice management"): the
    words of every run they spell that is a whole key or value, else of every run inside
    one."""
    whole: dict[str, list[tuple[str, ...]]] = {}
    part: dict[str, list[tuple[str, ...]]] = {}
    for item in items:
        said = [v for leaf in item.leaves if isinstance(v := leaf.value, str)]
        texts = [*item.keys, *(v for v in said if len(v.split()) <= INITIALS_VALUE_WORDS)]
        for text in texts:
            words = [w.lower() for w in lexicon.key_words(text)]
            for n in (2, 3):
                for i in range(len(words) - n + 1):
                    run = tuple(words[i : i + n])
                    if any(lexicon.is_stop(w) or not w.isalpha() for w in run):
                        continue
                    short = "".join(w[0] for w in run)
                    found = whole if n == len(words) else part
                    # a whole key's initials with a system's S: ``pms``, "Practice management"
                    for spelt in (short, f"{short}s") if found is whole else (short,):
                        if run not in found.setdefault(spelt, []):
                            found[spelt].append(run)
    return {
        k: tuple(dict.fromkeys(w for run in whole.get(k) or part[k] for w in run))
        for k in {*whole, *part}
    }


def _figure(item: Item, facts: ReportFacts) -> bool:
    """The item is a figure: a JSON number, or a value typed as a quantity or a series
    (``"221,7 Mio. EUR"``, ``Revenue GJ 2023…2025``)."""
    if isinstance(item.leaves[0].value, (int, float)) and not isinstance(
        item.leaves[0].value, bool
    ):
        return True
    fact = facts.get(item.path) or facts.get(item.leaves[0].path)
    return fact is not None and (fact.quantity is not None or fact.series is not None)


def _flatten(path: str, value: Any, out: list[Leaf]) -> None:
    if isinstance(value, Mapping):
        for key, child in value.items():
            _flatten(join_key(path, str(key)), child, out)
    elif isinstance(value, list):
        for i, child in enumerate(value):
            _flatten(f"{path}[{i}]", child, out)
    elif value is not None:
        out.append(Leaf(path, value))


def _scale_leaf(path: str, obj: Mapping[str, Any]) -> Leaf | None:
    """The leaf of ``obj`` holding its scores' scale, under a scale key in any case style
    (``max``, ``scale_max``, ``scaleMax``, ``"Out Of"``)."""
    named = {"_".join(lexicon.key_words(str(k))): str(k) for k in obj}
    for want in SCALE_KEYS:
        key = named.get(want)
        value = obj.get(key) if key is not None else None
        if isinstance(value, Mapping):  # ``scale: {min: 0, max: 5}``: its top
            return _scale_leaf(join_key(path, str(key)), value)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return Leaf(join_key(path, str(key)), value)
        if isinstance(value, str) and _SCALE_RANGE.fullmatch(value):  # scale: "0-10"
            return Leaf(join_key(path, str(key)), value)
    return None


_SCALE_RANGE = re.compile(r"\s*[01]\s*(?:[-–—]|to)\s*\d+(?:\.\d+)?\s*")
"""A scale written as its range ("0-10", "1 to 5")."""


def build_index(report: Report) -> ReportIndex:
    """Index every section of ``report`` (except access control) in document order."""
    builder = _Builder(report.facts)
    builder.parts = _parts(report.data)
    for key, value in report.data.items():
        if key not in SKIPPED_SECTIONS:
            builder.walk(join_key("", key), (key,), value)
    company = report.company
    names = [company.name, *company.aliases]
    if company.domain:
        names.append(company.domain.split(".")[0])
    # the words that name the company and nothing else: "Hotels" in "Marlow Grange Hotels"
    # is also what the report counts ("27 hotels"), "Systems" a word for a tool
    lowered = [n.lower() for n in names if n]
    naming = {
        i
        for i, item in enumerate(builder.items)
        if item.leaves and all(any(n in str(x.value).lower() for n in lowered) for x in item.leaves)
    }
    name_terms = frozenset(t for name in names for t in lexicon.text_terms(name))
    company_terms = frozenset(
        t
        for t in name_terms
        if t not in lexicon.KNOWN and set(builder.postings.get(t, {})) <= naming
    )
    docs: Sequence[list[str]] = [doc or ["_"] for doc in builder.docs] or [["_"]]
    holders: dict[str, list[Item]] = {}
    for item in builder.items:
        for path in dict.fromkeys([item.path, *(leaf.path for leaf in item.leaves)]):
            holders.setdefault(path, []).append(item)
    measures = frozenset(
        t
        for item, names in zip(builder.items, builder.name_terms, strict=True)
        if item.kind == "leaf" and _figure(item, report.facts)
        for t in names
    )
    return ReportIndex(
        items=builder.items,
        postings=builder.postings,
        name_terms=builder.name_terms,
        company_terms=company_terms,
        scales=builder.scales,
        words=tuple(sorted(builder.words)),
        key_terms=frozenset(builder.key_terms),
        short_keys=frozenset(builder.key_words),
        initials=_initials(builder.items),
        proper_terms=frozenset(builder.proper - builder.common),
        _known_words=frozenset(builder.words),
        holders=holders,
        measures=measures,
        companies=CompanyIndex([report]),
        bm25=BM25Okapi(list(docs)),
        facts=report.facts,
        heads=[head_of(item.keys) if item.kind == "leaf" else None for item in builder.items],
        naming=dict.fromkeys(naming, name_terms),
        caps=frozenset(builder.caps - builder.lower),
        key_stems=frozenset(
            lexicon.stem(w)
            for item in builder.items
            for k in item.keys
            for w in lexicon.key_words(k)
        )
        | frozenset(
            lexicon.stem(w)
            for item in builder.items
            for k in item.fields
            for w in lexicon.key_words(k)
        ),
    )


VALUE_KEYS = frozenset({"value", "amount", "score"})
NOTE_KEYS = frozenset({"note", "notes", "comment", "comments"})


def _value_key(value: Mapping[str, Any], facts: ReportFacts, path: str) -> str | None:
    """The key of a value object's value (or of a series with its unit beside it:
    ``{"values": {"FY24": …}, "unit": "EUR million"}``), or ``None`` when ``value`` is not
    one."""
    found = None
    for key, child in value.items():
        words = "_".join(lexicon.key_words(str(key)))
        if join_key(path, str(key)) in facts.series and found is None:
            found = str(key)
            continue
        if words in VALUE_KEYS and found is None and not _is_container(child):
            found = str(key)
        elif words not in VALUE_META_KEYS:  # a period ``{start, end}`` is what it is of
            return None
    return found if found is not None and len(value) > 1 else None


def _row_name(value: Mapping[str, Any], facts: ReportFacts, path: str) -> str | None:
    """The key of the field that names ``value`` when it is a row of a table of figures:
    a name field (``metric``, ``name``, ``label``, …) holding text, and otherwise a value
    object (a scalar value with its unit or period beside it, or a bare ``value``);
    ``None`` for any other record."""
    for key, child in value.items():
        named = "_".join(lexicon.key_words(str(key))) in ROW_LABEL_KEYS
        if not named or not isinstance(child, str):
            continue
        rest = {k: v for k, v in value.items() if k != key}
        found = _row_value_key(rest, facts, path)
        if not child.strip() or found is None:
            return None
        figure = rest[found]
        return str(key) if not _is_container(figure) and figure is not None else None
    return None


def _row_value_key(rest: Mapping[str, Any], facts: ReportFacts, path: str) -> str | None:
    """The key of a row's figure, once its name field is set aside; a note beside it
    (``{"label": "Practices", "value": 146, "unit": "locations", "note": …}``) is no
    other field."""
    rest = {
        k: v
        for k, v in rest.items()
        if "_".join(lexicon.key_words(str(k))) not in NOTE_KEYS | QUALIFIER_KEYS
    }
    if len(rest) == 1:
        only = str(next(iter(rest)))
        return only if "_".join(lexicon.key_words(only)) in VALUE_KEYS else None
    return _value_key(rest, facts, path)


def _parts(data: Mapping[str, Any]) -> dict[str, set[str]]:
    """Each name a row gives its figure (``metric: revenue``) → the parts of the business
    (``entity``, ``segment``) rows give it for, ``""`` for a row of the whole business."""
    out: dict[str, set[str]] = {}
    stack: list[Any] = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack += node
        elif isinstance(node, Mapping):
            fields = {"_".join(lexicon.key_words(str(k))): v for k, v in node.items()}
            label = next((v for k, v in fields.items() if k in ROW_LABEL_KEYS), None)
            if isinstance(label, str):  # a row of no part is the whole business's: ""
                out.setdefault(label.strip(), set()).add(_qualifier(node) or "")
            stack += list(node.values())
    return out


def _qualifier(row: Mapping[str, Any]) -> str | None:
    """The part of the business a row's figure is of: a qualifier field of the row, or of a
    mapping it holds (XBRL's ``dimensions: {LegalEntity: …}``)."""
    nested = [v for v in row.values() if isinstance(v, Mapping)]
    for fields in (row, *nested):
        for key, value in fields.items():
            if "_".join(lexicon.key_words(str(key))) in QUALIFIER_KEYS and isinstance(value, str):
                return value.strip()
    return None


def index_for(report: Report) -> ReportIndex:
    """The index of ``report``, built once per report (under its lock) and kept with it."""
    return report.derived(build_index)
