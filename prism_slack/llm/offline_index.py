"""Per-report search index for the offline answerer: answer units, terms and ranking.

A report is cut into *items*, the units an answer is made of:

- a ``leaf``: one scalar field outside any list (``financials.revenue_usd``);
- a ``list``: a list of scalars, taken whole (``company.channels``);
- a ``record``: one object inside a list (``findings[2]``, ``stakeholders[0]``).

Each item carries, per concept term (see ``lexicon``), how strongly it holds the term: the
last key of a field's path names what the field *is* (strongest), the keys above it place it,
values mention things. Ranking sums ``strength × idf`` over the question's terms; an item
*covers* a question when it holds every required term.

The index is built once per report (``index_for``) and reused: a question then costs a few
dictionary lookups per term.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from prism_slack.evidence import Leaf, join_key
from prism_slack.llm import lexicon
from prism_slack.reports.model import Report

ItemKind = Literal["leaf", "list", "record"]

UNIT_WORDS = frozenset({"usd", "pct", "percent", "eur", "gbp"})
SKIPPED_SECTIONS = frozenset({"access"})
SCALE_KEYS = ("max", "scale", "out_of", "max_score")
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
        return SEVERITY_RANK.get((self.get("severity") or "").lower(), len(SEVERITY_RANK))


@dataclass(frozen=True, slots=True)
class Hit:
    item: Item
    score: float
    covered: frozenset[str]


Terms = dict[str, set[str]]
"""A question's terms: concept → the literal stems the question used for it."""

SYNONYM_SHARE = 0.6
"""Share of a match's strength earned by the concept alone; a literal match earns the rest."""
VALUE_PRIOR = {"report": 0.4}
"""Values of sections about the audit rather than the prospect (its scope, its method)
weigh less: they mention the things audited, they do not state facts about them."""


@dataclass
class ReportIndex:
    """Everything the offline answerer needs of one report, computed once."""

    items: list[Item]
    postings: dict[str, dict[int, float]]
    """Concept → item → strength."""
    literals: dict[str, dict[int, float]]
    """Literal stem → item → strength."""
    name_terms: list[frozenset[str]]
    """Per item, the concepts of the key that names it (units left out)."""
    company_terms: frozenset[str]
    scales: dict[str, Leaf]
    """Score leaf path → the leaf holding its scale (``scores.max``)."""

    @property
    def scale_paths(self) -> frozenset[str]:
        return frozenset(leaf.path for leaf in self.scales.values())

    def idf(self, term: str) -> float:
        df = len(self.postings.get(term, ()))
        return 1.0 + math.log((1 + len(self.items)) / (1 + df))

    def rank(self, required: Terms, soft: Terms) -> list[Hit]:
        """Items holding any question term, best first (score, then document order).

        A term's contribution is ``idf × strength``, of which a concept (synonym) match
        earns ``SYNONYM_SHARE`` and the same literal stem the rest; soft terms count 0.3.
        """
        scores: dict[int, float] = {}
        covered: dict[int, set[str]] = {}
        for terms, weight_of in ((required, 1.0), (soft, 0.3)):
            for term, stems in terms.items():
                weight = self.idf(term) * weight_of
                for i, strength in self.postings.get(term, {}).items():
                    scores[i] = scores.get(i, 0.0) + strength * weight * SYNONYM_SHARE
                    if weight_of == 1.0:
                        covered.setdefault(i, set()).add(term)
                for stem in stems:
                    for i, strength in self.literals.get(stem, {}).items():
                        if i in scores:
                            scores[i] += strength * weight * (1 - SYNONYM_SHARE)
        hits = []
        required_terms = set(required)
        for i, raw in scores.items():
            item = self.items[i]
            names = self.name_terms[i]
            precision = len(names & required_terms) / len(names) if names else 0.0
            score = raw + 0.5 * precision
            hits.append(Hit(item, score, frozenset(covered.get(i, ()))))
        hits.sort(key=lambda h: (-h.score, h.item.order))
        return hits

    def findings(self) -> list[Item]:
        """Finding records, most severe first (document order within a severity)."""
        found = [item for item in self.items if item.is_finding]
        return sorted(found, key=lambda item: (item.severity_rank, item.order))


class _Builder:
    def __init__(self) -> None:
        self.items: list[Item] = []
        self.postings: dict[str, dict[int, float]] = {}
        self.literals: dict[str, dict[int, float]] = {}
        self.name_terms: list[frozenset[str]] = []
        self.scales: dict[str, Leaf] = {}

    def add(self, item: Item, strengths: _Strengths, names: frozenset[str]) -> None:
        i = len(self.items)
        self.items.append(item)
        self.name_terms.append(names)
        for term, strength in strengths.concepts.items():
            self.postings.setdefault(term, {})[i] = strength
        for stem, strength in strengths.literals.items():
            self.literals.setdefault(stem, {})[i] = strength

    def walk(self, path: str, keys: tuple[str, ...], value: Any) -> None:
        if isinstance(value, Mapping):
            scale = _scale_leaf(path, value)
            for key, child in value.items():
                child_path = join_key(path, str(key))
                if scale is not None and str(key) not in SCALE_KEYS:
                    self.scales[child_path] = scale
                self.walk(child_path, (*keys, str(key)), child)
        elif isinstance(value, list):
            if value and all(isinstance(v, Mapping) for v in value):
                for i, child in enumerate(value):
                    self.record(f"{path}[{i}]", keys, child)
            else:
                self.scalar_list(path, keys, value)
        elif value is not None:
            self.leaf(path, keys, value)

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
        if not leaves:
            return
        strengths = _Strengths()
        strengths.keys(keys)
        for leaf in leaves:
            strengths.value(leaf.value, VALUE * VALUE_PRIOR.get(keys[0], 1.0))
        self.add(Item(len(self.items), "list", path, keys, leaves), strengths, _names(keys))

    def record(self, path: str, keys: tuple[str, ...], value: Mapping[str, Any]) -> None:
        leaves: list[Leaf] = []
        _flatten(path, value, leaves)
        fields = {
            str(k): Leaf(join_key(path, str(k)), v)
            for k, v in value.items()
            if not _is_container(v) and v is not None
        }
        strengths = _Strengths()
        for i, key in enumerate(keys):
            strengths.put(lexicon.key_words(key), MIDDLE_KEY if i else SECTION_KEY + 0.5)
        for leaf in leaves:
            last = leaf.path.rsplit(".", 1)[-1]
            strengths.put(lexicon.key_words(last), FIELD_KEY)
            title_like = last in ("title", "name", "severity", "role")
            strengths.value(leaf.value, TITLE_VALUE if title_like else VALUE)
        item = Item(len(self.items), "record", path, keys, tuple(leaves), fields)
        self.add(item, strengths, frozenset())


@dataclass
class _Strengths:
    """How strongly one item holds each concept and each literal stem."""

    concepts: dict[str, float] = field(default_factory=dict)
    literals: dict[str, float] = field(default_factory=dict)

    def put(self, tokens: list[str], strength: float) -> None:
        for stem, concept in lexicon.term_pairs(tokens):
            if self.concepts.get(concept, 0.0) < strength:
                self.concepts[concept] = strength
            if self.literals.get(stem, 0.0) < strength:
                self.literals[stem] = strength

    def keys(self, keys: tuple[str, ...]) -> None:
        for i, key in enumerate(keys):
            if i == len(keys) - 1:
                strength = LAST_KEY
            elif i == 0:
                strength = SECTION_KEY
            else:
                strength = MIDDLE_KEY
            self.put(lexicon.key_words(key), strength)

    def value(self, value: Any, strength: float) -> None:
        if isinstance(value, str):
            self.put(lexicon.words(value), strength)
        elif isinstance(value, int) and not isinstance(value, bool):
            self.put([str(value)], strength)


def _names(keys: tuple[str, ...]) -> frozenset[str]:
    words = [w for w in lexicon.key_words(keys[-1]) if w not in UNIT_WORDS]
    return frozenset(lexicon.terms(words))


def _is_container(value: Any) -> bool:
    return isinstance(value, (Mapping, list))


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
    for key in SCALE_KEYS:
        value = obj.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return Leaf(join_key(path, key), value)
    return None


def build_index(report: Report) -> ReportIndex:
    """Index every section of ``report`` (except access control) in document order."""
    builder = _Builder()
    for key, value in report.data.items():
        if key not in SKIPPED_SECTIONS:
            builder.walk(join_key("", key), (key,), value)
    company = report.company
    names = [company.name, *company.aliases]
    if company.domain:
        names.append(company.domain.split(".")[0])
    company_terms = frozenset(t for name in names for t in lexicon.text_terms(name))
    return ReportIndex(
        builder.items,
        builder.postings,
        builder.literals,
        builder.name_terms,
        company_terms,
        builder.scales,
    )


def index_for(report: Report) -> ReportIndex:
    """The index of ``report``, built once per report (under its lock) and kept with it."""
    return report.derived(build_index)
