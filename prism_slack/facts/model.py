"""Typed facts (DESIGN §3): what each leaf of a report means, compiled once at load.

A leaf becomes one ``TypedFact``: a quantity (value, unit, scale, currency, precision as
written), a date or period, a name, a passage, a flag, or *untyped* — never a guess. A
series (values keyed by year or period) is a fact of the object that holds it. Each fact
says where its meaning came from (``sources``), so an operator can check the reading.
"""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from itertools import pairwise

from pydantic import BaseModel, ConfigDict

AGAINST = "a multiple of what it is set against"
"""The note of a ratio whose key sets it against something (``submissionsVsPriorYear``)."""


class FactKind(StrEnum):
    QUANTITY = "quantity"
    DATE = "date"
    SERIES = "series"
    NAME = "name"
    PASSAGE = "passage"
    FLAG = "flag"
    NOT_GIVEN = "not given"
    """The report gives no value here and says so: ``null``, ``"n/a"``, ``"not disclosed"``."""
    UNTYPED = "untyped"


class Unit(StrEnum):
    """What a quantity's number counts."""

    CURRENCY = "currency"
    PERCENT = "percent"
    """Already in percent units (``8.7`` is 8.7%)."""
    FRACTION = "fraction"
    """A share of a whole stored as a fraction (``0.087`` is 8.7%)."""
    RATIO = "ratio"
    """A multiple, which may exceed 1 (``1.68`` is 168%, or 1.68x)."""
    BASIS_POINTS = "bps"
    DURATION = "duration"
    COUNT = "count"
    SCORE = "score"
    YEAR = "year"
    NUMBER = "number"
    """A number of something the report names (``measure``: nights, FTE, SKUs) or of
    nothing stated."""


class Source(StrEnum):
    """Where a part of a fact's meaning was read."""

    VALUE = "value"
    KEY = "key"
    SIBLING = "sibling"
    OBJECT = "object"
    PARENT = "parent"
    REPORT = "report"
    HEADER = "header"
    """A table's column header (``{"columns": [...], "rows": [...]}``)."""


class Granularity(StrEnum):
    DAY = "day"
    MONTH = "month"
    QUARTER = "quarter"
    HALF = "half"
    YEAR = "year"
    RANGE = "range"


class Quantity(BaseModel):
    """A number and what it counts. ``value`` is as written; ``amount`` applies ``scale``."""

    model_config = ConfigDict(frozen=True)

    value: float
    unit: Unit
    scale: float = 1.0
    currency: str | None = None
    measure: str | None = None
    """The unit word as the report states it (``days``, ``FTE``, ``% of revenue``)."""
    out_of: float | None = None
    decimals: int = 0
    """Digits after the point as written (after scale words: ``£212.4m`` has 1)."""
    approx: bool = False
    """Written as approximate (``approx. 410,000``, ``c. 1400``)."""
    signed: bool = False
    """Written with a sign (``+6.3% YoY``): a change, not a level."""

    @property
    def amount(self) -> float:
        return self.value * self.scale

    @property
    def percent(self) -> float | None:
        """The value in percent units, for the units that are shares or rates."""
        if self.unit is Unit.PERCENT:
            return self.value
        if self.unit in (Unit.FRACTION, Unit.RATIO):
            return self.value * 100
        if self.unit is Unit.BASIS_POINTS:
            return self.value / 100
        return None


class When(BaseModel):
    """A date or a period, at the granularity written."""

    model_config = ConfigDict(frozen=True)

    start: dt.date | None
    end: dt.date | None
    granularity: Granularity
    fiscal: bool = False
    present: bool = False
    """A range still open (``1998 – present``): ``end`` is unknown."""
    approx: bool = False


class SeriesPoint(BaseModel):
    model_config = ConfigDict(frozen=True)

    period: str
    path: str
    quantity: Quantity


class Series(BaseModel):
    """Values keyed by year or period, in period order."""

    model_config = ConfigDict(frozen=True)

    points: list[SeriesPoint]

    @property
    def latest(self) -> SeriesPoint:
        return self.points[-1]

    @property
    def direction(self) -> str:
        """``up``, ``down``, ``flat`` or ``mixed`` over the whole series."""
        values = [p.quantity.amount for p in self.points]
        steps = {(b > a) - (b < a) for a, b in pairwise(values)}
        if steps <= {0}:
            return "flat"
        if steps <= {1, 0}:
            return "up"
        if steps <= {-1, 0}:
            return "down"
        return "mixed"


class TypedFact(BaseModel):
    """One leaf's (or one series object's) reading."""

    model_config = ConfigDict(frozen=True)

    path: str
    kind: FactKind
    label: str
    """The key's words as a person says them (``Annual revenue``)."""
    display: str
    """The value as a rep says it, in the report's currency and in percents."""
    quantity: Quantity | None = None
    when: When | None = None
    period: When | None = None
    """The period the value is of: a series key, a sibling ``period``, a year in the key."""
    period_text: str | None = None
    series: Series | None = None
    text: str | None = None
    sources: dict[str, Source] = {}
    """Which part of the reading came from where (``unit: key``, ``currency: sibling``)."""
    note: str | None = None
    """Why a leaf is untyped, or what is uncertain about it."""

    def reading(self) -> str:
        """One line for an operator: ``annualRevenue = 318400000 → EUR 318.4M``."""
        parts = [f"{self.kind.value}"]
        q = self.quantity
        if q is not None:
            parts.append(q.unit.value)
            if q.currency:
                parts.append(q.currency)
            if q.scale != 1:
                parts.append(f"x{q.scale:g}")
            if q.measure:
                parts.append(q.measure)
        if self.period_text:
            parts.append(f"period {self.period_text}")
        if self.sources:
            parts.append("from " + ", ".join(f"{k}: {v.value}" for k, v in self.sources.items()))
        if self.note:
            parts.append(f"({self.note})")
        return f"{self.display}  [{'; '.join(parts)}]"
