"""Compile a report into typed facts, once, when it loads (DESIGN §3).

Meaning is taken from wherever the report states it, nearest first:

1. the value itself (``"£12.4m"``, ``"8.7%"``, ``"3 weeks"``, ``"c. 1400"``,
   ``"1998 – present"``), read by the number grammar (``verify.numbers.scan``);
2. a ``{value, unit, period}`` (or ``{value, out_of}``) object around it;
3. a sibling field: ``currency``, ``unit``, a scale (``scaleMax``, ``Scale: "0–10"``);
4. the key, in any case style (``revenue_usd``, ``grossWrittenPremium``,
   ``"Tech Budget (FY26)"``): units, scales, currency, rate words, a period;
5. the parent's key (``conversion.mobile = 0.013`` is a conversion rate), and a currency
   the report states once for a subtree above it;
6. the report's declared money unit (``AMOUNTS_IN: "CAD thousands"``, ``units:
   {amounts-in: millions}``), or the one currency it uses throughout.

A rate stored as a number is a fraction when it is at most 1; above 1 it is a multiple
(``solvencyCoverageRatio = 1.68`` is 168%) where the key says so, or where the report
stores its rates as fractions; otherwise it is left untyped, never guessed.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from functools import lru_cache
from typing import Any

from prism_slack.evidence import join_key
from prism_slack.facts import display
from prism_slack.facts.dates import one_date
from prism_slack.facts.model import (
    AGAINST,
    FactKind,
    Granularity,
    Quantity,
    Series,
    SeriesPoint,
    Source,
    TypedFact,
    Unit,
    When,
)
from prism_slack.facts.tables import Table, table_of
from prism_slack.facts.words import (
    ROW_LABEL_KEYS,
    UNIT_KEYS,
    currency_code,
    duration_unit,
    key_words,
    scale_factor,
    word_set,
)
from prism_slack.verify.numbers import QKind, scan
from prism_slack.verify.quantity import Quantity as Scanned

TWO_WAYS = "a date that reads two ways (day or month first)"
"""The note of an all-numeric date whose day and month may be either way round."""

PASSAGE_WORDS = 9
"""A text of this many words or more (or of more than one sentence) is a passage."""

_PERIOD_KEY = re.compile(
    r"^(?:(?:fy|cy)\s?'?(\d{2}|\d{4})|(\d{4})|q([1-4])\s?(?:fy)?\s?'?(\d{2}|\d{4})?|"
    r"(?:h([12])|([12])h)\s?(?:fy)?\s?'?(\d{2}|\d{4})?|(\d{4})\s?-?\s?(?:q([1-4])|h([12])))$",
    re.IGNORECASE,
)
_KEY_PERIOD = re.compile(
    r"\((?:fy\s?)?'?(\d{4}|\d{2})(?=[,)])|\b(fy\s?'?\d{2,4})\b"
    # a period closing the key: "Revenue GJ 2025", "EBIT 2024", "Bookings Q3 2025"
    r"|(?<=\s)(?:(?:[a-z]{2}|[qh][1-4])\s?)?'?(?:19|20)\d{2}\s*$"
    r"|(?<=\s)(?:\d{2}\.\d{2}\.|(?:19|20)\d{2}-\d{2}-)\d{2,4}\s*$",  # "Net debt 31.12.2025"
    re.IGNORECASE,
)
_OPEN_RANGE = re.compile(r"(\d{4})\s*[-–—]\s*([A-Za-z]+)\s*$")
_APPROX = re.compile(r"^\s*(?:approx\.?|approximately|c\.|ca\.|circa|about|around|~|est\.)\s*")


@dataclass(frozen=True, slots=True)
class _Scope:
    """What the objects above a leaf say about it."""

    currency: str | None = None
    currency_source: Source = Source.SIBLING
    unit: str | None = None
    out_of: float | None = None
    out_of_source: Source = Source.SIBLING
    period: str | None = None
    period_keyed: bool = False
    """The period is a key above (``periods: {FY2025: {capex: …}}``): it holds all the way
    down, where a value object's period holds only for its value."""
    name: str | None = None
    """The label a row gives its value (``{label: "Revenue, group (FY2025)", value: …}``):
    the value's key words, label and period."""
    fractions: bool | None = None
    """The report stores its rates as fractions (True), as percents (False), or unknown."""
    scale: float | None = None
    """A scale a sibling field states in words (``{Amount: 386.2, Magnitude: million}``)."""


class ReportFacts:
    """Every leaf's typed fact, by path, the series the report holds, and its tables
    stored as a header and rows (by the path of the object holding each)."""

    __slots__ = ("across", "by_path", "gathered", "series", "tables")

    def __init__(
        self,
        by_path: dict[str, TypedFact],
        series: dict[str, TypedFact],
        tables: dict[str, Table] | None = None,
        across: dict[str, dict[str, str]] | None = None,
        gathered: dict[str, str] | None = None,
    ) -> None:
        self.by_path = by_path
        self.series = series
        self.tables = tables or {}
        self.across = across or {}
        """An object keyed by period whose periods are objects (``periods: {FY2024: {…},
        FY2025: {…}}``): its path → each key its periods share → that key's series
        (``periods.*.capex``)."""
        self.gathered = gathered or {}
        """A series gathered from fields that are not one object: each member's path (a
        key beside its period siblings, ``Revenue GJ 2024``; a row of a long table) → the
        series' path (the key without its period; the latest row)."""

    def get(self, path: str) -> TypedFact | None:
        return self.by_path.get(path) or self.series.get(path)

    def untyped(self) -> list[TypedFact]:
        return [f for f in self.by_path.values() if f.kind is FactKind.UNTYPED]

    def __len__(self) -> int:
        return len(self.by_path)


def compile_facts(data: Mapping[str, Any]) -> ReportFacts:
    """The typed facts of a report's JSON (the whole document, envelope included)."""
    declared_currency, declared_scale = _declared_money_unit(data)
    leaves = _leaves(data)
    declared_rates = _declared_rates(data)
    compiler = _Compiler(
        _rate_convention(leaves) if declared_rates is None else declared_rates,
        declared_currency or _report_currency(leaves),
        declared_scale,
        percent_fractions=_percent_fractions(leaves),
        fractions_written=_fractions_written(leaves),
    )
    compiler.unit_legend = _unit_legend(data, leaves)
    compiler.walk_object("", data, _Scope(fractions=compiler.fractions), [])
    return ReportFacts(
        compiler.facts, compiler.series, compiler.tables, compiler.across, compiler.gathered
    )


class _Compiler:
    def __init__(
        self,
        fractions: bool | None,
        currency: str | None,
        scale: float | None,
        *,
        percent_fractions: bool = False,
        fractions_written: bool = False,
    ) -> None:
        self.fractions = fractions
        self.report_currency = currency
        self.report_scale = scale
        self.percent_fractions = percent_fractions
        """The report's percent keys mostly hold numbers below 1: fractions, perhaps."""
        self.fractions_written = fractions_written
        """… and its own text writes them as percents (``Pct: 0.47`` and "fell to 47%"):
        fractions, proven."""
        self.unit_legend: dict[str, str] = {}
        """Unit codes the report spells out (``uom_codes: {PCT: "percent", …}``)."""
        self.facts: dict[str, TypedFact] = {}
        self.series: dict[str, TypedFact] = {}
        self.tables: dict[str, Table] = {}
        self.across: dict[str, dict[str, str]] = {}
        self.gathered: dict[str, str] = {}

    # -- objects --------------------------------------------------------------------
    def walk(self, path: str, key: str, value: Any, scope: _Scope, parents: list[str]) -> None:
        if isinstance(value, Mapping):
            self.walk_object(path, value, scope, [*parents, key])
        elif isinstance(value, list):
            for i, item in enumerate(value):
                self.walk(f"{path}[{i}]", key, item, scope, parents)
            if len(value) > 1 and all(isinstance(item, Mapping) for item in value):
                self._row_series(path, value)
        else:
            self.facts[path] = self.leaf(path, key, value, scope, parents)

    def walk_object(  # noqa: PLR0917
        self,
        path: str,
        obj: Mapping[str, Any],
        scope: _Scope,
        parents: list[str],
        cells: Mapping[str, str] | None = None,
        header_units: Mapping[str, str] | None = None,
    ) -> None:
        """``cells``, ``header_units``: for a row of a record table (``facts.tables``), each
        field's own path and the unit the table's header gives it."""
        shape = _shape(tuple(obj))
        periodic = _series_keys(obj, shape)
        by_period = (
            shape.periods and not periodic and all(isinstance(v, Mapping) for v in obj.values())
        )
        scope = self._object_scope(obj, shape, scope, periodic=periodic)
        table = table_of(path, obj, _is_period_key) if cells is None else None
        if table is not None:
            self.tables[path] = table
            self._table(table, obj, scope, parents)
            return
        if parents and (out_of := _key_out_of(parents[-1])) is not None:
            # ``"Maturity Scores (out of 5)": {…}``
            scope = replace(scope, out_of=out_of, out_of_source=Source.PARENT)
        value_object = shape.value_object
        # a value object's other fields (``unit``, ``period``) take none of its meaning
        meta_scope = (
            replace(scope, unit=None, out_of=None, period=None, scale=None)
            if value_object
            else scope
        )
        if value_object:
            name = next((v for k in shape.name_keys if isinstance(v := obj[k], str)), None)
            scope = replace(scope, name=name) if name else scope
        index, units = _columns(obj, shape)
        for raw_key, child in obj.items():
            key = str(raw_key)
            child_path = cells[key] if cells is not None else join_key(path, key)
            child_scope = scope
            if header_units and key in header_units:
                child_scope = replace(scope, unit=header_units[key])
            if periodic or by_period:
                child_scope = replace(scope, period=key, period_keyed=True)
            elif value_object and key_words(key) != ["value"]:
                child_scope = meta_scope
            if (
                index
                and isinstance(child, list)
                and len(child) == len(index)
                and child is not index
            ):
                # a column of a table whose ``years`` column gives each item's period
                column = replace(child_scope, unit=units.get(key, child_scope.unit))
                for i, (period, item) in enumerate(zip(index, child, strict=True)):
                    item_scope = replace(column, period=str(period))
                    self.walk(f"{child_path}[{i}]", key, item, item_scope, parents)
                points = [(str(p), f"{child_path}[{i}]") for i, p in enumerate(index)]
                self._series(child_path, points, [*parents, key])
                continue
            self.walk(child_path, key, child, child_scope, parents)
            if cells is not None and (fact := self.facts.get(child_path)) is not None:
                self.facts[child_path] = _labelled_by(fact, Source.HEADER)  # the header names it
        if periodic and path:
            self._series(path, [(str(k), join_key(path, str(k))) for k in obj], parents)
        if by_period:
            self._across(path, obj, parents)
        for stem_key, members in _period_siblings(tuple(map(str, obj))).items():
            # ``Revenue (FY2024, NZD m)`` beside ``Revenue (FY2025, NZD m)``: one series
            points = [(period, join_key(path, key)) for period, key in members]
            at = join_key(path, stem_key)
            self._series(at, points, [*parents, stem_key])
            self.gathered |= {p: at for _, p in points if at in self.series}
        values = obj.get("values")
        if isinstance(values, Mapping) and _series_keys(values, _shape(tuple(values))):
            at = join_key(path, "values")
            points = [(str(k), join_key(at, str(k))) for k in values]
            self._series(at, points, [*parents, "values"])

    def _table(
        self, table: Table, obj: Mapping[str, Any], scope: _Scope, parents: list[str]
    ) -> None:
        """A header-and-rows table: a figure table's rows are figures named by their label,
        of the period their column names; a record table's rows are records."""
        for raw_key, child in obj.items():
            if raw_key != table.key:  # the header, the units, a scale: as any field
                self.walk(join_key(table.path, str(raw_key)), str(raw_key), child, scope, parents)
        for i, row in enumerate(table.rows):
            label = table.label(i)
            if label is None:
                record = dict(zip(table.columns, row, strict=True))
                cells = {c: table.cell(i, j) for j, c in enumerate(table.columns)}
                self.walk_object(table.row(i), record, scope, parents, cells, table.units)
                continue
            self.walk(table.cell(i, 0), table.columns[0], row[0], scope, parents)
            for j in range(1, len(row)):
                unit = table.unit(i, j)
                period = table.columns[j] if j in table.periods else None
                cell_scope = replace(scope, unit=unit or scope.unit, period=period)
                fact = self._reading(
                    table.cell(i, j), label, row[j], cell_scope, parents, _own_label(label)
                )
                self.facts[fact.path] = _labelled_by(fact, Source.SIBLING)
            if len(table.periods) >= 2:
                points = [(table.columns[j], table.cell(i, j)) for j in table.periods]
                self._series(table.row(i), points, [*parents, label])

    def _object_scope(
        self, obj: Mapping[str, Any], shape: _Shape, scope: _Scope, *, periodic: bool
    ) -> _Scope:
        changes: dict[str, Any] = {}
        currency = shape.get(obj, "currency") or shape.get(obj, "currency", "code")
        if isinstance(currency, str) and (code := currency_code(currency)):
            changes |= {"currency": code, "currency_source": Source.SIBLING}
        unit = obj[shape.unit_key] if shape.unit_key is not None else None
        is_value_object = shape.value_object
        if isinstance(unit, str):
            changes["unit"] = unit
        elif scope.unit is not None and not is_value_object and not periodic:
            changes["unit"] = None
        magnitude = shape.get(obj, "magnitude") or shape.get(obj, "scale")
        power = is_value_object and _power_of_ten(magnitude, shape, unit)
        if power:  # XBRL: ``{value: "412", scale: 6, unitRef: SEK}`` is SEK 412m
            changes |= {"scale": 10.0**magnitude, "out_of": None}
        elif isinstance(magnitude, str) and (factor := scale_factor(magnitude.strip())):
            changes["scale"] = factor
        elif scope.scale is not None:
            changes["scale"] = None  # a sibling's scale is not a nested object's
        scale_key = shape.fields.get(("scale",))
        out_of = _scale_of(obj[k] for k in shape.scale_keys if not (power and k == scale_key))
        if out_of is not None:
            changes |= {"out_of": out_of, "out_of_source": Source.SIBLING}
        period = obj[shape.period_key] if shape.period_key is not None else None
        if isinstance(period, int) and not isinstance(period, bool):
            period = str(period)  # ``{value: …, year: 2025}``
        if isinstance(period, Mapping):  # ``{start, end}`` or ``{instant}``
            period = _period_text(period)
        if isinstance(period, str) and is_value_object:
            changes["period"] = period
        elif scope.period is not None and not is_value_object and not scope.period_keyed:
            changes["period"] = None
        return replace(scope, **changes) if changes else scope

    def _across(self, path: str, obj: Mapping[str, Any], parents: list[str]) -> None:
        """The series of each key that two or more of ``obj``'s periods hold a figure
        under, at ``path.*.key``."""
        held: dict[str, list[tuple[str, str]]] = {}
        for period, child in obj.items():
            for key, value in child.items():
                if not isinstance(value, (Mapping, list)):
                    at = join_key(join_key(path, str(period)), str(key))
                    held.setdefault(str(key), []).append((str(period), at))
        for key, points in held.items():
            at = join_key(f"{path}.*" if path else "*", key)
            self._series(at, points, [*parents, key])
            if at in self.series:
                self.across.setdefault(path, {})[key] = at

    def _row_series(self, path: str, rows: list[Mapping[str, Any]]) -> None:
        """Rows of one figure over periods (``{entity, metric, period, value, uom}``, an
        XBRL fact list): the rows that differ only in their period (of one granularity)
        and value are one series, at the path of its latest row; two rows of one period
        make none."""
        groups: dict[tuple[tuple[str, str], ...], list[tuple[str, str, str]]] = {}
        for i, row in enumerate(rows):
            shape = _shape(tuple(row))
            value_key = shape.fields.get(("value",))
            if value_key is None or shape.period_key is None:
                continue
            at = join_key(f"{path}[{i}]", str(value_key))
            fact = self.facts.get(at)
            if fact is None or fact.quantity is None or not fact.period_text:
                continue
            grain = fact.period.granularity.value if fact.period is not None else ""
            rest = (
                ("", grain),  # halves are one series, years another
                *sorted(
                    (str(k), json.dumps(v, sort_keys=True, default=str))
                    for k, v in row.items()
                    if k not in (value_key, shape.period_key)
                ),
            )
            groups.setdefault(rest, []).append((fact.period_text, at, f"{path}[{i}]"))
        for members in groups.values():
            if len(members) < 2 or len({m[0] for m in members}) < len(members):
                continue
            _, latest, at_row = max(members, key=lambda m: _period_sort_key(m[0]))
            points = [(period, at) for period, at, _ in members]
            self._series(at_row, points, [self.facts[latest].label])
            if at_row in self.series:
                self.gathered |= {member: at_row for _, _, member in members}

    def _series(self, path: str, periods: list[tuple[str, str]], parents: list[str]) -> None:
        """The series of the facts at these (period, path) pairs, in period order."""
        points = []
        for key, at in sorted(periods, key=lambda pair: _period_sort_key(pair[0])):
            fact = self.facts.get(at)
            if fact is not None and fact.quantity is not None:
                points.append(SeriesPoint(period=key, path=fact.path, quantity=fact.quantity))
        if len(points) < 2:
            return
        series = Series(points=points)
        latest, previous = series.latest, series.points[-2]
        direction = series.direction
        trend = {"up": "up", "down": "down", "flat": "flat"}.get(direction, "mixed")
        shown = (
            f"{display.quantity(latest.quantity)} in {latest.period}, {trend} from "
            f"{display.quantity(previous.quantity)} in {previous.period}"
        )
        self.series[path] = TypedFact(
            path=path,
            kind=FactKind.SERIES,
            label=_series_label(
                parents[-1] if parents else None, parents[-2] if len(parents) > 1 else None
            ),
            display=shown,
            series=series,
            sources={"periods": Source.KEY},
        )

    # -- leaves ---------------------------------------------------------------------
    def leaf(self, path: str, key: str, value: Any, scope: _Scope, parents: list[str]) -> TypedFact:
        if scope.name and key_words(key) == ["value"]:  # a row's value, named by its label
            fact = self._reading(path, scope.name, value, scope, parents, _own_label(scope.name))
            return _labelled_by(fact, Source.SIBLING)
        return self._reading(path, key, value, scope, parents, _label(key, parents))

    def _reading(  # noqa: PLR0917
        self, path: str, key: str, value: Any, scope: _Scope, parents: list[str], label: str
    ) -> TypedFact:
        words = key_words(key)
        base: dict[str, Any] = {"path": path, "label": label}
        period, period_text = _period(key, scope)
        if period is not None:
            base |= {"period": period, "period_text": period_text}
        if parents and _is_period_key(key):
            words = key_words(parents[-1])  # CALL_WAIT_MINUTES["Q1'25"]: minutes, by its name
        if (out_of := _key_out_of(key)) is not None:
            # ``Customer satisfaction (2025, /10)``
            scope = replace(scope, out_of=out_of, out_of_source=Source.KEY)
        if value is None:
            return TypedFact(**base, kind=FactKind.NOT_GIVEN, display="null", note="no value")
        if isinstance(value, bool):
            return TypedFact(**base, kind=FactKind.FLAG, display="yes" if value else "no")
        if isinstance(value, (int, float)):
            return self._number(base, Decimal(repr(value)), words, parents, scope)
        text = str(value)
        return self._string(base, text, words, parents, scope)

    def _number(
        self,
        base: dict[str, Any],
        number: Decimal,
        words: Sequence[str],
        parents: Sequence[str],
        scope: _Scope,
        *,
        approx: bool = False,
        signed: bool = False,
        source: Source = Source.VALUE,
    ) -> TypedFact:
        written = {
            "decimals": max(0, -int(number.as_tuple().exponent)),
            "approx": approx,
            "signed": signed,
        }
        q, sources, note = self._read_number(number, words, parents, scope, written)
        if q is None:
            return TypedFact(
                **base, kind=FactKind.UNTYPED, display=display.plain(number), note=note,
                sources=sources,
            )  # fmt: skip
        sources.setdefault("value", source)
        kind = FactKind.DATE if q.unit is Unit.YEAR else FactKind.QUANTITY
        when = _year(int(q.value)) if q.unit is Unit.YEAR else None
        return TypedFact(
            **base, kind=kind, display=display.quantity(q), quantity=q, when=when,
            sources=sources, note=note,
        )  # fmt: skip

    def _read_number(
        self,
        number: Decimal,
        words: Sequence[str],
        parents: Sequence[str],
        scope: _Scope,
        written: Mapping[str, Any],
    ) -> tuple[Quantity | None, dict[str, Source], str | None]:
        """The quantity a number is, from its scope and its key; ``written`` is how the
        value was written (decimals, approximate, signed)."""
        value = float(number)

        def quantity(unit: Unit, **fields: Any) -> Quantity:
            return Quantity(value=value, unit=unit, **fields, **written)

        sources: dict[str, Source] = {}
        note: str | None
        key = _key_reading(tuple(words), parents[-1] if parents else None)
        scale = 1.0
        if key.scale is not None:
            scale, sources["scale"] = key.scale, Source.KEY
        elif scope.scale is not None:
            scale, sources["scale"] = scope.scale, Source.SIBLING
        # 1. a unit object or sibling unit field (a code the report's legend spells out)
        if scope.unit is not None and _unread_code(scope.unit) in self.unit_legend:
            scope = replace(scope, unit=self.unit_legend[scope.unit.strip()])
        pure = scope.unit is not None and scope.unit.strip().lower() in word_set("pure_units")
        if pure and abs(value) <= 1:
            sources["unit"] = Source.OBJECT  # XBRL's ``pure`` at most 1: a fraction
            return quantity(Unit.FRACTION), sources, None
        if scope.unit is not None and (m := _OUT_OF_UNIT.search(scope.unit)):
            sources["out_of"] = Source.OBJECT  # ``score out of 100``
            return quantity(Unit.SCORE, out_of=float(m[1] or m[2])), sources, None
        if scope.unit is not None and not pure:
            read = _unit_text(scope.unit)
            if read is not None:
                unit, currency, factor, measure = read
                sources["unit"] = Source.OBJECT
                if unit is Unit.NUMBER and measure is None and (scope.currency or key.money):
                    # ``units: {amount: millions}`` beside a row's ``currency``
                    unit, currency = Unit.CURRENCY, scope.currency or self.report_currency
                q = quantity(
                    unit, currency=currency, scale=factor or scale, measure=measure,
                    out_of=scope.out_of,
                )  # fmt: skip
                return q, sources, None
        # 2. a score's scale beside it
        if scope.out_of is not None and not key.scale_word:
            sources["out_of"] = scope.out_of_source
            return quantity(Unit.SCORE, out_of=scope.out_of), sources, None
        # 3. the key's own words
        if key.basis_points:
            sources["unit"] = Source.KEY
            return quantity(Unit.BASIS_POINTS), sources, None
        if key.percent:
            sources["unit"] = Source.KEY
            if self.percent_fractions and 0 < abs(value) < 1:
                if self.fractions_written:
                    return quantity(Unit.FRACTION), sources, "percents kept as fractions"
                return None, sources, f"a percent key holding {display.plain(value)}: fraction?"
            return quantity(Unit.PERCENT), sources, None
        if key.times:
            sources["unit"] = Source.KEY
            return quantity(Unit.RATIO, measure="x"), sources, None
        if key.subunit:
            sources["unit"] = Source.KEY
            return quantity(Unit.NUMBER, measure=key.subunit), sources, None
        if key.currency:
            sources["unit"] = sources["currency"] = Source.KEY
            return quantity(Unit.CURRENCY, currency=key.currency, scale=scale), sources, None
        is_int = number == number.to_integral_value()
        if is_int and 1800 <= value <= 2100 and key.year:
            sources["unit"] = Source.KEY
            return quantity(Unit.YEAR), sources, None
        if key.relation and 0 < value < 10:
            sources["unit"] = Source.KEY
            return quantity(Unit.RATIO), sources, AGAINST
        if key.duration:
            sources["unit"] = Source.KEY
            return quantity(Unit.DURATION, measure=key.duration), sources, None
        if key.scale_word:
            sources["unit"] = Source.KEY
            return quantity(Unit.NUMBER), sources, "a scale"
        if key.rate is not None:
            sources["unit"] = key.rate
            if abs(value) <= 1:
                return quantity(Unit.FRACTION), sources, None
            if key.multiple or scope.fractions:
                note = None if key.multiple else "a rate above 1: a multiple"
                return quantity(Unit.RATIO), sources, note
            if scope.fractions is False and abs(value) <= 100:
                return quantity(Unit.PERCENT), sources, "rates here are percents"
            return None, sources, f"a rate of {display.plain(value)}: percent or multiple?"
        if key.money:
            currency = scope.currency or self.report_currency
            if currency is not None:
                sources["currency"] = scope.currency_source if scope.currency else Source.REPORT
            if self.report_scale is not None and "scale" not in sources:
                scale, sources["scale"] = self.report_scale, Source.REPORT
            sources["unit"] = Source.KEY
            note = None if currency else "an amount with no currency stated"
            return quantity(Unit.CURRENCY, currency=currency, scale=scale), sources, note
        if is_int:
            return quantity(Unit.COUNT, scale=scale), sources, None
        return quantity(Unit.NUMBER, scale=scale), sources, None

    def _string(
        self,
        base: dict[str, Any],
        text: str,
        words: Sequence[str],
        parents: Sequence[str],
        scope: _Scope,
    ) -> TypedFact:
        stripped = text.strip()
        if not stripped:
            return TypedFact(**base, kind=FactKind.UNTYPED, display="", note="empty text")
        if _not_given(stripped):
            return TypedFact(
                **base, kind=FactKind.NOT_GIVEN, display=_sentence_cut(stripped), text=stripped,
                sources={"value": Source.VALUE},
            )  # fmt: skip
        approx_word = _APPROX.match(stripped)
        approx = approx_word is not None
        core = stripped[approx_word.end() :] if approx_word else stripped
        open_range = _OPEN_RANGE.search(core)
        if open_range and open_range.group(2).lower() in word_set("open_end_words"):
            start = int(open_range.group(1))
            when = When(
                start=dt.date(start, 1, 1), end=None, granularity=Granularity.RANGE,
                present=True, approx=approx,
            )  # fmt: skip
            if open_range.start() == 0:
                return TypedFact(
                    **base, kind=FactKind.DATE, display=stripped, when=when, text=stripped,
                    sources={"value": Source.VALUE},
                )  # fmt: skip
        n_words = len(stripped.split())
        if n_words >= PASSAGE_WORDS or not any(map(str.isdigit, core)):
            kind = FactKind.PASSAGE if n_words >= PASSAGE_WORDS else _name_or_passage(stripped)
            return TypedFact(
                **base, kind=kind, display=_sentence_cut(stripped), text=stripped,
                sources={"value": Source.VALUE},
            )  # fmt: skip
        fast = _plain_figure(core)
        if fast is not None:
            fact = self._plain(base, fast, core, words, parents, scope, approx=approx)
            if fact is not None:
                return fact
        whole = _one_quantity(core)
        if whole is not None:
            fact = self._scanned(base, whole, core, words, parents, scope, approx=approx)
            if fact is not None:
                return fact
        kind = FactKind.PASSAGE if n_words > 3 else _name_or_passage(stripped)
        return TypedFact(
            **base, kind=kind, display=_sentence_cut(stripped), text=stripped,
            sources={"value": Source.VALUE},
        )  # fmt: skip

    def _plain(  # noqa: PLR0917
        self,
        base: dict[str, Any],
        m: re.Match[str],
        core: str,
        words: Sequence[str],
        parents: Sequence[str],
        scope: _Scope,
        *,
        approx: bool,
    ) -> TypedFact | None:
        """A value that is one figure and nothing else (``34%``, ``£212.4m``, ``+31``),
        read without the full grammar; anything else (a unit word, a date) goes to it."""
        number = Decimal(m.group("num").replace(",", ""))
        sign = -1 if m.group("sign") in ("-", "−") else 1
        signed = m.group("sign") is not None
        symbol, suffix = m.group("cur"), (m.group("suffix") or "").lower()
        if not symbol and not suffix:
            return self._number(
                base, number * sign, words, parents, scope, approx=approx, signed=signed
            )
        decimals = len(m.group("num").partition(".")[2])
        if suffix == "%" and not symbol:
            q = Quantity(value=float(number) * sign, unit=Unit.PERCENT, decimals=decimals,
                         approx=approx, signed=signed)  # fmt: skip
        elif suffix == "x" and not symbol:
            q = Quantity(value=float(number) * sign, unit=Unit.RATIO, measure="x",
                         decimals=decimals, approx=approx, signed=signed)  # fmt: skip
        elif symbol and suffix != "%":
            factor = scale_factor(suffix) if suffix else 1.0
            if factor is None or currency_code(symbol) is None:
                return None
            q = Quantity(value=float(number) * sign * factor, unit=Unit.CURRENCY,
                         currency=currency_code(symbol), decimals=decimals, approx=approx,
                         signed=signed)  # fmt: skip
        else:
            return None
        return _from_value(base, q, core.strip(), approx=approx)

    def _scanned(  # noqa: PLR0917
        self,
        base: dict[str, Any],
        q: Scanned,
        core: str,
        words: Sequence[str],
        parents: Sequence[str],
        scope: _Scope,
        *,
        approx: bool,
    ) -> TypedFact | None:
        written = core.strip()
        signed = written[:1] in "+-−" and q.kind in (QKind.NUMBER, QKind.PERCENT)
        if q.kind is QKind.NUMBER and q.unit is None and _bare(q.text.strip()) == _bare(written):
            # a bare number stored as a string: read it as a number, with the key's hints
            fact = self._number(
                base, abs(q.value) * (-1 if written.startswith(("-", "−")) else 1),
                words, parents, scope, approx=approx, signed=signed,
            )  # fmt: skip
            rest = written[len(_bare(written)) :].strip()
            if rest and scale_factor(rest) is not None:
                return fact  # ``1.46 mn``: the grammar applied the scale
            unit = duration_unit(rest.split()[-1]) if 0 < len(rest.split()) <= 2 else None
            if unit and fact.quantity is not None:
                quantity = fact.quantity.model_copy(  # ``6 wks``, ``6 business days``
                    update={"unit": Unit.DURATION, "measure": unit}
                )
                fact = fact.model_copy(
                    update={"quantity": quantity, "display": display.quantity(quantity)}
                )
            elif rest and fact.quantity is not None and not fact.quantity.measure:
                quantity = fact.quantity.model_copy(update={"measure": rest})
                fact = fact.model_copy(
                    update={"quantity": quantity, "display": display.quantity(quantity)}
                )
            return fact
        digits = _DIGITS.search(q.text)
        decimals = len(digits.group(1) or "") if digits else 0
        if q.kind is QKind.CURRENCY:
            quantity = Quantity(
                value=float(q.value), unit=Unit.CURRENCY, currency=q.currency,
                decimals=decimals, approx=approx, signed=signed,
            )  # fmt: skip
        elif q.kind is QKind.PERCENT:
            quantity = Quantity(
                value=float(q.value), unit=Unit.PERCENT, decimals=decimals, approx=approx,
                signed=signed, measure=_rest(written, q.text) or None,
            )  # fmt: skip
        elif q.kind is QKind.SCORE and q.scale is not None:
            quantity = Quantity(value=float(q.value), unit=Unit.SCORE, out_of=float(q.scale))
        elif q.kind is QKind.NUMBER and q.unit is not None and duration_unit(q.unit):
            quantity = Quantity(
                value=float(q.value), unit=Unit.DURATION, measure=duration_unit(q.unit),
                decimals=decimals, approx=approx,
            )  # fmt: skip
        elif q.kind in (QKind.DATE, QKind.PERIOD):
            when = _when_of(core)  # ``_when(q)``: ``q`` is the one quantity of ``core``
            if when is None and q.kind is QKind.DATE and len(q.dates) > 1:
                return TypedFact(  # a date, but which one is open: no ``when``
                    **base, kind=FactKind.DATE, display=written, text=written,
                    sources={"value": Source.VALUE}, note=TWO_WAYS,
                )  # fmt: skip
            if when is None:
                return None
            if approx:
                when = when.model_copy(update={"approx": True})
            return TypedFact(
                **base, kind=FactKind.DATE, display=display.when(when, written), when=when,
                text=written, sources={"value": Source.VALUE},
            )  # fmt: skip
        else:
            return None
        return _from_value(base, quantity, written, approx=approx)


def _labelled_by(fact: TypedFact, source: Source) -> TypedFact:
    """``fact`` with its label read from ``source``: a row's label cell (``SIBLING``) or a
    table's column header (``HEADER``), which the verifier reads as the field's name."""
    return fact.model_copy(update={"sources": {**fact.sources, "label": source}})


def _from_value(base: dict[str, Any], q: Quantity, written: str, *, approx: bool) -> TypedFact:
    """A quantity read whole from its value string: shown as written when approximate."""
    shown = written if approx else display.quantity(q)
    sources = {"value": Source.VALUE, "unit": Source.VALUE}
    return TypedFact(**base, kind=FactKind.QUANTITY, display=shown, quantity=q, sources=sources)


# -- helpers ------------------------------------------------------------------------------


_FIGURE = re.compile(
    r"^(?P<sign>[+\-−])?(?P<cur>[$€£]|[A-Z]{3}\s?|[A-Z]{1,2}\$)?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"\s?(?P<suffix>%|bn|mn|[kmbx])?$",
    re.IGNORECASE,
)


def _plain_figure(text: str) -> re.Match[str] | None:
    """``34%``, ``£212.4m``, ``+31``, ``1,140``: a value that is one figure alone. A
    four-digit year-like number is left to the grammar (it may be a year)."""
    m = _FIGURE.match(text.strip())
    if m is None or (not m.group("cur") and not m.group("suffix") and len(m.group("num")) == 4):
        return None
    return m


_SENTENCE_END = re.compile(r"[.!?](?:\s|$)")
_DIGITS = re.compile(r"\d[\d,]*(?:\.(\d+))?")


_NOT_GIVEN_END = re.compile(r"[\s;:,.(]|$")


def _not_given(text: str) -> bool:
    """``text`` opens by saying no value is given ("not disclosed; pending restatement",
    "n/a", "—"), a phrase of ``not_given_words``, and goes on with no figure of its own."""
    lowered = text.lower()
    for phrase in word_set("not_given_words"):
        if lowered.startswith(phrase) and _NOT_GIVEN_END.match(lowered, len(phrase)):
            return not any(map(str.isdigit, lowered[len(phrase) :]))
    return False


def _name_or_passage(text: str) -> FactKind:
    """A short text is a name unless it is written as sentences."""
    sentences = len(_SENTENCE_END.findall(text))
    return (
        FactKind.PASSAGE
        if sentences > 1 or (sentences and len(text.split()) >= 5)
        else (FactKind.NAME)
    )


def _leaves(data: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """Every leaf of the report with its key (a list item's key is its list's), in no
    particular order: what the report-wide readings below count."""
    leaves: list[tuple[str, Any]] = []
    stack: list[tuple[str, Any]] = list(data.items())
    while stack:
        key, value = stack.pop()
        if isinstance(value, Mapping):
            stack += [(str(k), v) for k, v in value.items()]
        elif isinstance(value, list):
            stack += [(key, v) for v in value]
        else:
            leaves.append((key, value))
    return leaves


def _rate_convention(leaves: Sequence[tuple[str, Any]]) -> bool | None:
    """Whether the report stores rates as fractions: most numbers under a rate word (and no
    percent word) are at most 1 (True), most are above 1 (False), or too few to tell."""
    small = large = 0
    for key, value in leaves:
        if isinstance(value, (int, float)) and not isinstance(value, bool) and _rate_key(key):
            small += abs(value) <= 1
            large += abs(value) > 1
    if small + large < 3:
        return None
    if small >= 0.75 * (small + large):
        return True
    if large >= 0.75 * (small + large):
        return False
    return None


def _percent_fractions(leaves: Sequence[tuple[str, Any]]) -> bool:
    """Whether most numbers under a percent word (at least three) are below 1: then a
    ``Pct: 0.074`` may be 7.4% written as a fraction, and is not read either way."""
    small = large = 0
    for key, value in leaves:
        number = isinstance(value, (int, float)) and not isinstance(value, bool) and value
        if number and set(key_words(key)) & word_set("percent_words"):
            small += abs(value) < 1
            large += abs(value) >= 1
    return small >= 3 and small >= 0.75 * (small + large)


FRACTIONS_WRITTEN = 2
"""How many of a report's percent-keyed fractions its text must write as percents."""


def _fractions_written(leaves: Sequence[tuple[str, Any]]) -> bool:
    """Does the report's own text write at least ``FRACTIONS_WRITTEN`` of the fractions its
    percent keys hold as percents (``Pct: 0.776`` and "fell to 77.6%"), and none of them as
    stored ("0.776%")? Then its percent keys hold fractions, as it says itself."""
    fractions = {
        Decimal(str(value))
        for key, value in leaves
        if isinstance(value, float)
        and 0 < abs(value) < 1
        and set(key_words(key)) & word_set("percent_words")
    }
    prose = " ".join(v for _, v in leaves if isinstance(v, str) and "%" in v)
    if not fractions or not prose:
        return False
    written = set(re.findall(r"(?<![\d.])(\d+(?:\.\d+)?)\s?%", prose))
    as_percent = {f for f in fractions if format((f * 100).normalize(), "f") in written}
    as_stored = {f for f in fractions if format(f.normalize(), "f") in written}
    return len(as_percent) >= FRACTIONS_WRITTEN and not as_stored


@lru_cache(maxsize=65536)
def _rate_key(key: str) -> bool:
    """A rate word in the key and no percent word, read once per key."""
    words = set(key_words(key))
    return bool(words & word_set("rate_words")) and not words & word_set("percent_words")


def _report_currency(leaves: Sequence[tuple[str, Any]]) -> str | None:
    """The one currency a report states, if it states one: in its ``currency`` fields,
    in its keys (``revenue_usd``) or in its money strings (``"£212.4m"``)."""
    found: set[str] = set()
    for key, value in leaves:
        if isinstance(value, str) and key_words(key) == ["currency"]:
            code = currency_code(value)
            if code:
                found.add(code)
        found |= _key_currencies(key)
        if isinstance(value, str) and len(value) < 40:
            found |= {c for s in _CURRENCY_SYMBOL.findall(value) if (c := currency_code(s))}
    return found.pop() if len(found) == 1 else None


_CURRENCY_SYMBOL = re.compile(r"[$€£]")


@lru_cache(maxsize=65536)
def _key_currencies(key: str) -> frozenset[str]:
    """The currencies a key's words name (``revenue_usd``), read once per key."""
    return frozenset(c for w in key_words(key) if (c := _key_currency(w)))


_DECLARES = frozenset({"amounts", "figures", "values", "numbers", "money", "monetary", "reported"})
"""Words of a key that declares how the report writes its amounts (``AMOUNTS_IN:
"CAD thousands"``, ``units: {amounts-in: millions}``, ``reported_in: "USD m"``)."""


def _declared_money_unit(data: Mapping[str, Any]) -> tuple[str | None, float | None]:
    """The currency and scale a report declares for all its amounts, at its top level or
    in a top-level object (``units``, ``meta``): a key of ``_DECLARES`` words with ``in``
    or ``unit``, its value a scale word with or without a currency (else the currency of a
    ``currency`` field beside it)."""
    sections = [data, *(v for v in data.values() if isinstance(v, Mapping))]
    for section in sections:
        fields = {tuple(key_words(str(k))): v for k, v in section.items() if isinstance(v, str)}
        for words, value in fields.items():
            if not (set(words) & _DECLARES and set(words) & {"in", "unit", "units"}):
                continue
            tokens = re.findall(r"[$€£]|'000|[A-Za-z]+", value)
            scale = next((f for t in tokens if (f := scale_factor(t)) is not None), None)
            if scale is not None:
                beside = fields.get(("currency",), "")
                currency = next((c for t in [*tokens, beside] if (c := currency_code(t))), None)
                return currency, scale
        magnitude = fields.get(("scale",)) or fields.get(("magnitude",))
        if section is not data and magnitude and (factor := scale_factor(magnitude.strip())):
            # ``meta: {currency: CHF, scale: thousands}``: an object of conventions
            return currency_code(fields.get(("currency",), "")), factor
    return None, None


def _declared_rates(data: Mapping[str, Any]) -> bool | None:
    """Whether a top-level object of conventions says rates are fractions (``rates:
    fractions``: True) or percents (False)."""
    for section in (v for v in data.values() if isinstance(v, Mapping)):
        for key, value in section.items():
            if key_words(str(key)) in (["rates"], ["rate", "format"]) and isinstance(value, str):
                said = set(key_words(value))
                if said & {"fraction", "fractions", "decimal", "decimals"}:
                    return True
                if said & {"percent", "percents", "percentage", "percentages"}:
                    return False
    return None


_SCALE_FIELD = frozenset({"scale", "max", "out", "of"})
_SCALE_RANGE = re.compile(r"\s*(?:0|1)\s*[-–—to]+\s*(\d+(?:\.\d+)?)\s*")


@dataclass(frozen=True, slots=True)
class _Shape:
    """What an object's keys say, read once per distinct tuple of keys (a report's rows
    and sections repeat theirs)."""

    fields: dict[tuple[str, ...], Any]
    """Each key's words, in any case style, and the (last) key with those words."""
    periods: bool
    """At least two keys, and every key names a period."""
    value_object: bool
    """A key is ``value``: a ``{value, unit, period}`` object."""
    name_keys: tuple[Any, ...]
    """The keys that may hold a row's label (``label``, ``metric``), in order."""
    index_key: Any
    """The key of a table's period column (``years``, ``quarters``), if any."""
    scale_keys: tuple[Any, ...]
    """The keys whose words name a score scale (``scaleMax``, ``out_of``), in order."""
    unit_key: Any
    """The key of a field that states the unit of the value beside it (``unitRef``)."""
    period_key: Any
    """The key of a field that states the period of the value beside it (``asOf``)."""

    def get(self, obj: Mapping[Any, Any], *words: str) -> Any:
        """The value of ``obj``'s field with these words, or ``None``."""
        return obj[self.fields[words]] if words in self.fields else None


_OUT_OF_UNIT = re.compile(
    r"\bout\s+of\s+(\d+(?:\.\d+)?)\b|\bscore\s+from\s+0\b[^0-9]*\bto\s+(\d+(?:\.\d+)?)\b",
    re.IGNORECASE,
)
"""A unit text that gives a score's top: "score out of 100", "score from 0 (absent) to 5"."""
_OUT_OF = re.compile(r"(?:\bout\s+of|/)\s*(\d+(?:\.\d+)?)\s*\)")


@lru_cache(maxsize=65536)
def _key_out_of(key: str) -> float | None:
    """A score scale a key states in brackets (``(out of 5)``, ``(2025, /10)``)."""
    m = _OUT_OF.search(key)
    return float(m.group(1)) if m else None


_ROW_LABELS = frozenset((w,) for w in ROW_LABEL_KEYS)
_PERIOD_COLUMNS = frozenset(
    (w,) for w in ("years", "quarters", "periods", "months", "halves", "year", "period")
)


def _columns(obj: Mapping[str, Any], shape: _Shape) -> tuple[list[Any], dict[str, str]]:
    """A table stored by column: its period column (``years: [FY23, FY24, FY25]``) and the
    units a ``units`` object gives its other columns (``units: {revenue: "GBP m"}``)."""
    index = obj[shape.index_key] if shape.index_key is not None else None
    if not (
        isinstance(index, list) and len(index) >= 2 and all(_is_period_key(str(p)) for p in index)
    ):
        return [], {}
    units = shape.get(obj, "units")
    by_key = {str(k): v for k, v in units.items() if isinstance(v, str)} if isinstance(
        units, Mapping
    ) else {}  # fmt: skip
    return index, by_key


@lru_cache(maxsize=4096)
def _shape(keys: tuple[Any, ...]) -> _Shape:
    fields = {tuple(key_words(str(k))): k for k in keys}
    scale_words = word_set("scale_words") | _SCALE_FIELD
    return _Shape(
        fields=fields,
        periods=len(keys) >= 2 and all(_is_period_key(str(k)) for k in keys),
        value_object=("value",) in fields,
        name_keys=tuple(k for words, k in fields.items() if words in _ROW_LABELS),
        index_key=next((k for words, k in fields.items() if words in _PERIOD_COLUMNS), None),
        scale_keys=tuple(k for words, k in fields.items() if words and set(words) <= scale_words),
        unit_key=next((k for words, k in fields.items() if "_".join(words) in UNIT_KEYS), None),
        period_key=next(
            (k for words, k in fields.items() if "_".join(words) in word_set("period_keys")), None
        ),
    )


def _unit_legend(data: Mapping[str, Any], leaves: Sequence[tuple[str, Any]]) -> dict[str, str]:
    """The object that spells out the unit codes the report's unit fields use (``uom_codes:
    {CAD_M: "Canadian dollars, millions", PCT: "percent"}``): one whose keys name at least
    two of those codes and whose values are all text."""
    unit_keys = word_set("unit_keys")
    codes = {
        value.strip()
        for key, value in leaves
        if isinstance(value, str) and "_".join(key_words(key)) in unit_keys
    }
    if len(codes) < LEGEND_CODES:
        return {}
    for obj in _objects(data):
        named = codes & set(obj)
        if len(named) >= LEGEND_CODES and all(isinstance(v, str) for v in obj.values()):
            return {str(k): str(v) for k, v in obj.items()}
    return {}


LEGEND_CODES = 2


def _unread_code(unit: str) -> str | None:
    """``unit`` when it is a code the unit grammar does not read (``PCT`` is read, and
    ``CAD_M`` too; ``SCORE_0_5`` is not), else ``None``."""
    read = _unit_text(unit)
    unread = read is None or (read[0] in (Unit.COUNT, Unit.NUMBER) and read[1] is None)
    return unit.strip() if unread else None


def _objects(data: Any) -> Iterator[Mapping[str, Any]]:
    if isinstance(data, Mapping):
        yield data
        for value in data.values():
            yield from _objects(value)
    elif isinstance(data, list):
        for value in data:
            yield from _objects(value)


def _power_of_ten(magnitude: Any, shape: _Shape, unit: Any) -> bool:
    """A value object's integer ``scale`` is a power of ten (XBRL's), not a score's top:
    beside a ``decimals`` field, or when the unit is a currency."""
    if not isinstance(magnitude, int) or isinstance(magnitude, bool) or abs(magnitude) > 12:
        return False
    if ("decimals",) in shape.fields:
        return True
    read = _unit_text(unit) if isinstance(unit, str) else None
    return read is not None and read[0] is Unit.CURRENCY


def _period_text(period: Mapping[str, Any]) -> str | None:
    """A period object as text: ``{start, end}`` → ``start to end``; ``{instant}``."""
    fields = {tuple(key_words(str(k))): v for k, v in period.items() if isinstance(v, str)}
    start, end = fields.get(("start",)), fields.get(("end",))
    if start and end:
        return f"{start} to {end}"
    return fields.get(("instant",)) or fields.get(("date",)) or start or end


def _scale_of(values: Iterable[Any]) -> float | None:
    """A score scale one of an object's scale fields (``_Shape.scale_keys``) states:
    ``scaleMax: 5``, ``out_of: 5``, ``Scale: "0–10"``."""
    for field in values:
        value = field
        if isinstance(field, Mapping):  # ``scale: {min: 0, max: 5}``
            value = next((v for k, v in field.items() if key_words(str(k)) == ["max"]), None)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
            return float(value)
        if isinstance(value, str):
            m = _SCALE_RANGE.fullmatch(value)
            if m:
                return float(m.group(1))
    return None


def _series_keys(obj: Mapping[str, Any], shape: _Shape) -> bool:
    """Every key names a period (``2023``, ``FY22``, ``Q3 2025``) and at least two values
    are numbers: the object is a series."""
    if not shape.periods:
        return False
    numeric = sum(
        (isinstance(v, (int, float)) and not isinstance(v, bool))
        or (isinstance(v, str) and bool(_NUMERIC_TEXT.match(v)))
        for v in obj.values()
    )
    return numeric >= 2


_NUMERIC_TEXT = re.compile(r"^\s*[+\-−]?(?:[A-Z]{0,3}[$€£])?\d")


@lru_cache(maxsize=4096)
def _period_sort_key(key: str) -> tuple[int, int]:
    digits = re.findall(r"\d+", key)
    year = 0
    sub = 0
    for d in digits:
        if len(d) == 4:
            year = int(d)
        elif len(d) == 2 and not year and re.search(r"(?:fy|cy|'|\s)\s?" + d + r"$", key.lower()):
            year = 2000 + int(d)  # FY24, Q1'25, 1H FY24
        elif len(d) == 1:
            sub = int(d)
    if len(digits) == 2 and not year and key.lower().startswith(("fy", "cy")):
        year = 2000 + int(digits[0])
    return year, sub


def _period(key: str, scope: _Scope) -> tuple[When | None, str | None]:
    text = scope.period if scope.period is not None else _key_period(key)
    if text is None:
        return None, None
    return _period_of(text), text


@lru_cache(maxsize=65536)
def _key_period(key: str) -> str | None:
    """The period a key names (``"Tech Budget (FY26)"``: ``FY26``), read once per key."""
    m = _key_period_match(key)
    return m.group(0).strip("() ") if m else None


def _key_period_match(key: str) -> re.Match[str] | None:
    """Where a key names its value's period; not a bound (``Customer since 2019``)."""
    m = _KEY_PERIOD.search(key)
    before = key[: m.start()].split() if m else []
    if m is None or (before and before[-1].lower() in word_set("key_bound_words")):
        return None
    return m


@lru_cache(maxsize=4096)
def _period_siblings(keys: tuple[str, ...]) -> dict[str, list[tuple[str, str]]]:
    """Keys that are one key but for the period they name: the key without its period →
    (period, key) of each, for two or more."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for key in keys:
        m = _key_period_match(key)
        if m is None:
            continue
        opened = "(" if m.group(0).startswith("(") else ""
        rest = re.sub(r"\(\s*,\s*", "(", key[: m.start()] + opened + key[m.end() :])
        rest = re.sub(r"\(\s*,?\s*\)", "", re.sub(r",\s*\)", ")", rest))
        groups.setdefault(" ".join(rest.split()), []).append((m.group(0).strip("() "), key))
    return {k: v for k, v in groups.items() if len(v) >= 2}


@lru_cache(maxsize=65536)
def _is_period_key(key: str) -> bool:
    """The key names a period (``2024``, ``FY22``, ``Q1'25``), read once per key."""
    return bool(_PERIOD_KEY.match(key.strip()))


_YEAR_FIRST = re.compile(r"^((?:19|20)\d{2})\s*[-/ ]\s*([QH][1-4])$", re.IGNORECASE)


@lru_cache(maxsize=4096)
def _period_of(text: str) -> When | None:
    """A period label (``FY25``, ``Q3 2025``, ``2024``) read once per distinct label;
    a year written first (``2025-Q3``, ``2025 H1``) is read as the grammar writes it."""
    text = _YEAR_FIRST.sub(r"\2 \1", text.strip())
    for q in scan(text, report_text=True).quantities:
        when = _when(q)
        if when is not None:
            return when
        if q.kind is QKind.NUMBER and q.year_like:
            return _year(int(q.value))
    return None


def _when(q: Scanned) -> When | None:
    start: dt.date | None
    end: dt.date | None
    if q.kind is QKind.DATE and len(q.dates) > 1:
        # the grammar's readings of one all-numeric date (day or month first, a two-digit
        # year in either century), not a range: the one date both orders agree on, or none
        day = one_date(q.text)
        return None if day is None else When(start=day, end=day, granularity=Granularity.DAY)
    if q.kind is QKind.DATE and q.dates:
        first = q.dates[0]
        if first.year is None:
            return None
        start = dt.date(first.year, first.month or 1, first.day or 1)
        gran = (
            Granularity.DAY if first.day else Granularity.MONTH if first.month else Granularity.YEAR
        )
        return When(start=start, end=start, granularity=gran)
    if q.kind is QKind.PERIOD and q.period is not None:
        p = q.period
        if p.span is not None:
            a, b = p.span
            if a.year is None or b.year is None:
                return None
            return When(
                start=dt.date(a.year, a.month or 1, a.day or 1),
                end=dt.date(b.year, b.month or 12, b.day or 28),
                granularity=Granularity.RANGE,
            )
        if p.year is None:
            return None
        if p.quarter is not None:
            gran = Granularity.QUARTER
        elif p.half is not None:
            gran = Granularity.HALF
        else:
            gran = Granularity.YEAR
        span = p.calendar_span()
        start = end = None
        if span is not None and span[0].year and span[1].year:
            start = dt.date(span[0].year, span[0].month or 1, span[0].day or 1)
            end = dt.date(span[1].year, span[1].month or 12, span[1].day or 28)
        return When(start=start, end=end, granularity=gran, fiscal=p.fiscal)
    return None


def _year(year: int) -> When:
    return When(start=dt.date(year, 1, 1), end=dt.date(year, 12, 31), granularity=Granularity.YEAR)


@lru_cache(maxsize=16384)
def _one_quantity(core: str) -> Scanned | None:
    """The one quantity a short value is, by the grammar, read once per distinct text
    (periods and dates repeat across a report: ``FY25``, ``2026-01-01``)."""
    found = scan(core, report_text=True)
    quantities = [q for q in found.quantities if q.kind is not QKind.RECORD or not q.parts]
    return _whole(core, found.masked, quantities)


@lru_cache(maxsize=16384)
def _when_of(core: str) -> When | None:
    """The date or period a short value names, read once per distinct text."""
    q = _one_quantity(core)
    return None if q is None else _when(q)


def _whole(core: str, masked: str, quantities: Sequence[Scanned]) -> Scanned | None:
    """The one quantity a short value is, when the rest is at most a few framing words
    (``+6.3% YoY``, ``1.8 nights``, ``3 working days``)."""
    if len(quantities) != 1:
        first = quantities[0] if quantities else None
        if first is not None and first.kind in (QKind.DATE, QKind.PERIOD) and first.start <= 2:
            return first  # ``FY2025 (January–December 2025)``
        return None
    rest = re.sub(r"\x00+", " ", masked).split()
    only = quantities[0]
    if only.kind in (QKind.DATE, QKind.PERIOD) and only.start <= 2 and len(rest) <= 3:
        return only  # ``1 October 2024 – 30 September 2025``
    return only if len(rest) <= 3 and len(core.split()) <= 5 else None


def _bare(text: str) -> str:
    m = re.match(r"^[+\-−]?\d[\d,]*(?:\.\d+)?", text)
    return m.group(0).lstrip("+-−") if m else text


def _rest(written: str, found: str) -> str:
    i = written.find(found)
    return (written[i + len(found) :] if i >= 0 else "").strip()


@lru_cache(maxsize=4096)
def _unit_text(unit: str) -> tuple[Unit, str | None, float | None, str | None] | None:
    """A unit field's text: ``EUR million``, ``ratio``, ``days``, ``% of revenue``, ``FTE``."""
    text = unit.strip()
    if not text:
        return None
    low = text.lower()
    tokens = re.findall(r"[%$€£]|[A-Za-z]+", text)
    currency = next((c for t in tokens if (c := currency_code(t))), None)
    factor = next((f for t in tokens if (f := scale_factor(t)) and t.lower() not in "mbk"), None)
    if currency:  # beside a currency, ``m`` is millions (``USD m``)
        factor = next((f for t in tokens if (f := scale_factor(t))), None)
        return Unit.CURRENCY, currency, factor, None
    if low.startswith("%") or [t.lower() for t in tokens[:1]] in (["percent"], ["pct"]):
        return Unit.PERCENT, None, None, text if len(text) > 1 else None
    if low in {"x", "times"}:  # a multiple as written: 4.6 with unit ``x`` is 4.6x
        return Unit.RATIO, None, None, "x"
    if low in word_set("multiple_words") or low == "multiple":
        return Unit.RATIO, None, None, None
    if tokens[:1] and tokens[0].lower() in {"fraction", "share", "proportion"}:  # "… of homes"
        return Unit.FRACTION, None, None, None
    if low in word_set("basis_point_words"):
        return Unit.BASIS_POINTS, None, None, None
    if duration_unit(low):
        return Unit.DURATION, None, None, duration_unit(low)
    if factor is not None:  # ``millions``, ``count, millions``, ``passengers, millions``
        rest = [t for t in tokens if not scale_factor(t) and t.lower() not in {"count", "number"}]
        counted = any(t.lower() == "count" for t in tokens)  # a count, never money
        return Unit.COUNT if counted else Unit.NUMBER, None, factor, " ".join(rest) or None
    return Unit.COUNT, None, None, text


@dataclass(frozen=True, slots=True)
class _KeyReading:
    """What a number's key (and its parent's key) say it counts, read once per pair."""

    scale: float | None
    """A scale word in the key (``revenue_millions``), not ``m``/``b``/``k`` or ``per X``."""
    scale_word: bool
    """The key names a score scale (``npsScale``)."""
    basis_points: bool
    percent: bool
    currency: str | None
    """A currency the key names (``revenue_usd``)."""
    year: bool
    relation: bool
    """The key sets the number against something (``submissionsVsPriorYear``)."""
    duration: str | None
    rate: Source | None
    """A rate word in the key (``KEY``) or, with no money word, in its parent's (``PARENT``)."""
    multiple: bool
    times: bool
    """The key says the number is a multiple as written (``(x)``)."""
    money: bool
    """A money word names what the key counts (not ``field_sales_reps``)."""
    subunit: str | None
    """Money in hundredths, as the key says it (``cents per share``)."""


@lru_cache(maxsize=65536)
def _key_reading(words: tuple[str, ...], parent: str | None) -> _KeyReading:
    own = set(words)
    parent_words = set(key_words(parent)) if parent is not None else set()
    scale = None
    for before, w in zip(["", *words], words, strict=False):
        if (f := scale_factor(w)) is None or before == "per":
            continue
        if w not in {"m", "b", "k"} or _key_currency(before):  # ``NZD m``, not ``m`` alone
            scale = f
    rate_words, money_words = word_set("rate_words"), word_set("money_words")
    rate = None
    if "per" in own:
        pass  # ``gross moves per hour``, ``cents per share``: so much a unit, not a rate
    elif own & rate_words:
        rate = Source.KEY
    elif parent_words & rate_words and not own & money_words:
        rate = Source.PARENT
    subunit = next((i for i, w in enumerate(words) if w in word_set("subunit_words")), None)
    return _KeyReading(
        scale=scale,
        scale_word=bool(own & word_set("scale_words")),
        basis_points=bool(own & word_set("basis_point_words")),
        percent=bool(own & word_set("percent_words")),
        currency=next((c for w in words if (c := _key_currency(w))), None),
        year=bool((own | parent_words) & word_set("year_words"))
        or "last" in own
        or "_".join(words) in word_set("period_keys"),  # ``asOf: "2026"``
        relation=bool(own & word_set("relation_words")),
        duration=_key_duration(words),
        rate=rate,
        multiple=bool(own & word_set("multiple_words")),
        times=bool(own & word_set("times_words")) or _money_ratio(words),
        money=bool(own & money_words) and not _counts_other(words),
        subunit=" ".join(words[subunit:]) if subunit is not None else None,
    )


def _money_ratio(words: Sequence[str]) -> bool:
    """Money set against money (``netDebtToEBITDA``, ``debt_to_equity``): a multiple."""
    money = word_set("money_words")
    if "to" not in words[1:-1]:
        return False
    i = words.index("to", 1)
    return bool(set(words[:i]) & money) and bool(set(words[i + 1 :]) & money)


def _key_currency(word: str) -> str | None:
    return currency_code(word) if len(word) == 3 or word in {"dollars", "euros"} else None


def _key_duration(words: Sequence[str]) -> str | None:
    """The key's last word names a duration unit, and no number qualifies it
    (``avg_sales_cycle_days``, not ``claimsSettledWithin30Days``)."""
    for i, word in enumerate(words):
        unit = duration_unit(word)
        if unit is None or word in {"s", "h", "d", "m"}:
            continue
        before = words[i - 1] if i else ""
        if before.isdigit() or before in word_set("duration_qualifiers"):
            continue  # claimsSettledWithin30Days, submissionsPerMonth, (prior year): qualifiers
        if i == len(words) - 1 or word.endswith("s"):
            return unit  # sales_cycle_days, days_cash_on_hand, downtime_hours_per_month
    return None


def _counts_other(words: Sequence[str]) -> bool:
    """A money word in the key qualifies what the key counts (``field_sales_reps``,
    ``budget_holders``): the key's last word before any ``per``, ``of`` or ``for`` and
    units is another noun, plural, and no money word."""
    head = list(words[: words.index("per")] if "per" in words else words)
    for link in ("of", "for"):  # ``provision_for_credit_losses``: X for Y is an X
        if link in head[1:]:
            head = head[: head.index(link, 1)]
    while head and (head[-1] in _LABEL_DROP or scale_factor(head[-1]) is not None):
        head.pop()
    if not head or head[-1] in word_set("money_words") or head[-1] in _GENERIC:
        return False
    return head[-1].endswith("s") and len(head) > 1


_CAPITALS = re.compile(r"[A-Z]{2,}(?![a-z])")


def _sentence(words: Sequence[str], key: str = "") -> str:
    """Words as a label: the first capitalised, acronyms in capitals (``data/facts/
    acronyms.txt``, or written so in ``key``: ``brokerNPS``)."""
    acronyms = word_set("acronyms")
    caps = {w.lower() for w in _CAPITALS.findall(key)}
    joined: list[str] = []
    for w in words:  # "cet1Ratio": the key writes "cet1" as one word
        if joined and w.isdigit() and joined[-1].isalpha() and joined[-1] + w in key.lower():
            joined[-1] += w
            caps.add(joined[-1])
        else:
            joined.append(w)
    text = " ".join(w.upper() if w in caps or w in acronyms else w for w in joined)
    return text[:1].upper() + text[1:]


_LABEL_DROP = frozenset(
    {"usd", "eur", "gbp", "pct", "percent", "bps", "millions", "thousands", "billions"}
)
_GENERIC = frozenset({"value", "amount", "total", "count", "number", "current", "latest", "val"})


def _label(key: str, parents: Sequence[str]) -> str:
    """A label from the key's words, in any case style: ``annualRevenue`` → ``Annual
    revenue``, ``"Annual Revenue"`` stays; a generic key (``value``, ``total``) or a period
    (``2024``) takes its parent's words first."""
    own = _own_label(key)
    words = key_words(key)
    generic = set(words) <= _GENERIC or _is_period_key(key)
    if generic and parents:
        parent_label = _parent_label(parents[-1], parents[-2] if len(parents) > 1 else None)
        if set(words) <= {"value", "val", "amount"}:
            return parent_label
        if _is_period_key(key):
            return f"{parent_label} {key.strip()}"
        return f"{parent_label} {own[:1].lower() + own[1:]}"
    return own


@lru_cache(maxsize=65536)
def _own_label(key: str) -> str:
    """The label of a key's own words, read once per key."""
    if " " in key.strip():
        return key.strip()
    words = key_words(key)
    kept = [w for w in words if w not in _LABEL_DROP] or list(words)
    if len(kept) > 1 and kept[-1].endswith("s") and _key_duration(kept):
        kept = kept[:-1]
    return _sentence(kept, key)


@lru_cache(maxsize=65536)
def _parent_label(parent: str, grandparent: str | None) -> str:
    """The label a generic key takes from its parent (a ``values`` parent: its own)."""
    label = parent.strip() if " " in parent else _sentence(key_words(parent), parent)
    if label.lower() == "values" and grandparent is not None:
        label = _sentence(key_words(grandparent), grandparent)
    return label


@lru_cache(maxsize=4096)
def _series_label(parent: str | None, grandparent: str | None) -> str:
    """A series' label: its key's words (a ``values`` key: the key above it)."""
    words = key_words(parent) if parent is not None else []
    if words == ["values"] and grandparent is not None:
        words = key_words(grandparent)
    return _sentence(words)


def _sentence_cut(text: str, limit: int = 300) -> str:
    """A passage cut at a sentence end within ``limit`` characters."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    end = max(cut.rfind(". "), cut.rfind("? "), cut.rfind("! "))
    return cut[: end + 1] if end > 0 else cut.rsplit(" ", 1)[0] + " …"
