"""Derived figures: a claim number that no cited value states, but that recomputes exactly
(to the precision the claim shows) from two cited numbers by a relation the claim names.

Relations, each with the words that name it (``lexicon.RELATION_WORDS``):

- ``difference`` — ``a - b`` (``59 points below the max``, ``misses the target by 0.4 s``);
- ``complement`` — ``100 - p`` of a cited percentage (``35% comes from outside
  e-commerce``);
- ``sum`` — ``a + b`` of two cited figures of one kind (``together make up 80.7%``,
  ``together bring in €267m``);
- ``total`` — ``a + b + …`` of one column over every cited item of a list, for counts
  and amounts (``across the three plants they run 265 CNC machines``);
- ``share`` — ``a / b`` as a percentage, for two cited counts or two amounts in one
  currency or unit (``half of the six clinics``, ``about 60% of total revenue``);
- ``change`` — ``(a - b) / b`` as a percentage;
- ``ratio`` — ``a / b`` as a plain number (``44 MW per wind farm``, ``four times the
  mobile rate``).
- ``part`` — ``b × p / 100``, a cited share of a cited count or amount (``roughly 70,000
  active members`` of 318,000 at 22% active), tried whatever the claim's words: the figure
  is no cited value, so without it a true claim would fail on arithmetic the checks lack.

Operands are read in the claim number's terms (``anchors.candidates``: percent or
fraction, currency, unit), so ``2.9 s`` and ``2,500 ms`` subtract; a difference or sum
needs two operands of one kind and currency, and a bound (``above $25,000``) is never
derived. Only the cited fields are used, never the rest of the report; a relation the
claim does not name is never tried.
A relation named next to the figure may use two numbers of one cited value (``miss the
2.5 s target by 0.4 s``); one named elsewhere in the claim needs two cited fields.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from decimal import Decimal
from itertools import permutations

from prism_slack.verdict import Derivation, Relation
from prism_slack.verify import lexicon
from prism_slack.verify.anchors import candidates, within
from prism_slack.verify.index import LeafFacts
from prism_slack.verify.numbers import QKind, Quantity
from prism_slack.verify.text import list_item, years_of

HUNDRED = Decimal(100)


POINT_WORDS = frozenset({"point", "points", "pts", "pp"})
"""Words that say a figure is a difference of percentages (``rose 7.2 points``)."""


def relations_named(tokens: Sequence[str]) -> frozenset[Relation]:
    """The relations whose words the claim uses."""
    said = set(tokens)
    return frozenset(r for r, names in lexicon.RELATION_WORDS.items() if said & names)


def in_points(tokens: Sequence[str]) -> bool:
    """The claim says its figure in percentage points (``rose 7.2 points``)."""
    return bool(set(tokens) & POINT_WORDS)


def derive(
    q: Quantity,
    cited: Sequence[LeafFacts],
    relations: frozenset[Relation],
    *,
    apart: bool = False,
    points: bool = False,
    years: frozenset[str] = frozenset(),
) -> Derivation | None:
    """The first derivation of ``q`` from two cited numbers by a named relation; with
    ``apart``, only from numbers of two different cited fields (no complement); with
    ``points``, a bare figure is a difference of percentages (``in_points``). A share or a
    ratio is of one period's numbers, of the ``years`` the claim names if it names any."""
    if not q.numeric or q.kind is QKind.SCORE or q.bound != "eq":
        return None  # a bound ("above $25,000") is no figure to recompute
    relations |= {"part"}
    if points and q.kind is QKind.NUMBER and q.unit is None:
        q = replace(q, kind=QKind.PERCENT)  # "7.2 points" of 0.482 and 0.554: percents
    if "change" in relations and q.kind is not QKind.PERCENT:
        relations |= {"difference"}  # "up 7.5 hours": a change in the figure's own unit
    operands = [
        (leaf.path, v) for leaf in cited for v in leaf.quantities if v.numeric and not v.from_path
    ]
    periods = {leaf.path: _periods(leaf) for leaf in cited}
    for relation, value, used, shown in _results(q, operands, relations):
        if apart and len(set(used)) < 2:
            continue
        if relation in ("share", "ratio") and not _one_period([periods[p] for p in used], years):
            continue  # FY2023's profit over FY2024's revenue is no margin, nor FY2025's
        if within(q, abs(q.value), value):
            return Derivation(
                figure=q.text,
                relation=relation,
                operands=used,
                arithmetic=f"{shown} = {_num(round(value, 4))}",
            )
    return None


def _results(
    q: Quantity,
    operands: list[tuple[str, Quantity]],
    relations: frozenset[Relation],
) -> Iterator[tuple[Relation, Decimal, list[str], str]]:
    if "total" in relations and q.kind in (QKind.NUMBER, QKind.CURRENCY):
        yield from _totals(q, operands)
    if "complement" in relations and q.kind is QKind.PERCENT:
        for path, v in operands:
            for x in candidates(q, v):
                if 0 < x < HUNDRED:
                    yield "complement", HUNDRED - x, [path], f"100 - {_num(x)}"
    for (path_a, a), (path_b, b) in permutations(operands, 2):
        share = a.value if a.kind is QKind.PERCENT else a.value * HUNDRED if a.fraction else None
        if "part" in relations and q.kind is b.kind and share is not None and 0 < share < HUNDRED:
            for y in candidates(q, b) if q.kind in (QKind.NUMBER, QKind.CURRENCY) else ():
                yield "part", y * share / HUNDRED, [path_a, path_b], f"{_num(y)} × {_num(share)}%"
        alike = a.kind is b.kind and a.currency == b.currency  # not dollars less bids
        for x in candidates(q, a) if alike else ():
            for y in candidates(q, b):
                pair = [path_a, path_b]
                if "difference" in relations and x > y:
                    yield "difference", x - y, pair, f"{_num(x)} - {_num(y)}"
                if "sum" in relations and path_a < path_b:
                    yield "sum", x + y, pair, f"{_num(x)} + {_num(y)}"
        plain = q.kind is QKind.NUMBER and (q.unit is None or (a.unit == q.unit and not b.unit))
        if "ratio" in relations and plain and 0 < b.value < a.value:
            # "44 MW per wind farm" (612 / 14), "four times the mobile rate"
            shown = f"{_num(a.value)} / {_num(b.value)}"
            yield "ratio", a.value / b.value, [path_a, path_b], shown
        if q.kind is QKind.PERCENT and a.value and b.value:
            if "share" in relations and _comparable(a, b) and 0 < a.value < b.value:
                share = a.value / b.value * HUNDRED
                yield "share", share, [path_a, path_b], f"{_num(a.value)} / {_num(b.value)}"
            if "change" in relations and a.kind is b.kind and a.unit == b.unit:
                change = abs(a.value - b.value) / b.value * HUNDRED
                shown = f"({_num(a.value)} - {_num(b.value)}) / {_num(b.value)}"
                yield "change", change, [path_a, path_b], shown


def _totals(
    q: Quantity, operands: list[tuple[str, Quantity]]
) -> Iterator[tuple[Relation, Decimal, list[str], str]]:
    """The total of each column (``plants[*].cnc_machines``) over two or more cited items."""
    columns: dict[tuple[str, str], list[tuple[str, Decimal]]] = {}
    for path, v in operands:
        at = list_item(path)
        values = candidates(q, v)
        if at is not None and at.field and values:
            columns.setdefault((at.list_path, at.field), []).append((path, values[0]))
    for items in columns.values():
        if len(items) >= 2:
            shown = " + ".join(_num(x) for _, x in items)
            total = sum((x for _, x in items), Decimal(0))
            yield "total", total, [p for p, _ in items], shown


def _periods(leaf: LeafFacts) -> frozenset[str]:
    """The years a cited field is of, as its path or typed fact names them."""
    return years_of(
        " ".join(v.text for v in leaf.quantities if v.from_path and v.kind in _PERIOD_KINDS)
    )


def _one_period(periods: Sequence[frozenset[str]], years: frozenset[str]) -> bool:
    """The operands are of one year (the claim's, if it names one), or some say none."""
    named = [p for p in periods if p]
    if not named:
        return True
    common = frozenset.intersection(*named)
    return bool(common) and (not years or bool(common & years))


_PERIOD_KINDS = frozenset({QKind.PERIOD, QKind.DATE})


def _comparable(a: Quantity, b: Quantity) -> bool:
    """Two counts, or two amounts of one currency or unit: one may be a share of the other."""
    if a.kind is not b.kind or a.unit != b.unit or a.currency != b.currency:
        return False
    if a.kind is QKind.CURRENCY or a.unit is not None:
        return True
    return a.kind is QKind.NUMBER and all(v.value == v.value.to_integral_value() for v in (a, b))


def _num(x: Decimal) -> str:
    return format(x.normalize(), "f")
