"""The verifier's quantities: what a number, percent, amount, date, period, score or
record string found in a claim or a report value means (``Quantity``), the units and
scales it may carry, and the working state of a scan (``ScanState``)."""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from importlib import resources
from typing import Literal

import yaml

Bound = Literal["eq", "gt", "ge", "lt", "le"]
Direction = Literal["up", "down"]
MASK = "\x00"


class QKind(StrEnum):
    NUMBER = "number"
    """A plain number, count, multiplier or measured amount (with an optional unit)."""
    PERCENT = "percent"
    """A percentage, in percent units (``3.7%`` → 3.7)."""
    CURRENCY = "currency"
    """Money, in currency units after scale (``$4.1M`` → 4100000)."""
    DATE = "date"
    """A calendar date at day, month or year granularity (the year may be unstated)."""
    PERIOD = "period"
    """A quarter, a half or a fiscal year."""
    SCORE = "score"
    """A value with its scale (``7 out of 10``)."""
    RECORD = "record"
    """A score, record, range or clock time written as one string (``7 - 8``, ``1:56.85``,
    ``won 1 - 0``): matched as a whole against the cited text (``key``), or part by part."""


@dataclass(frozen=True, slots=True)
class DatePoint:
    """A calendar span: a year, a month of a year, or a day. ``year`` may be unknown."""

    year: int | None
    month: int | None = None
    day: int | None = None

    def within(self, outer: DatePoint) -> bool:
        """True when this span lies inside ``outer`` (which states no more than it does)."""
        for mine, theirs in ((self.year, outer.year), (self.month, outer.month)):
            if theirs is not None and mine != theirs:
                return False
        return outer.day is None or self.day == outer.day


@dataclass(frozen=True, slots=True)
class Period:
    """A quarter, half, calendar or fiscal year. ``year`` is ``None`` for a bare ``Q3``; a
    report's date range (``2025-02-01 to 2026-01-31``) is a ``span`` with no year."""

    year: int | None
    quarter: int | None = None
    half: int | None = None
    fiscal: bool = False
    span: tuple[DatePoint, DatePoint] | None = None

    def calendar_span(self) -> tuple[DatePoint, DatePoint] | None:
        """First and last day of a calendar quarter, half or year (``None`` if fiscal)."""
        if self.span is not None:
            return self.span
        if self.fiscal or self.year is None:
            return None
        first, last = 1, 12
        if self.quarter is not None:
            first, last = 3 * self.quarter - 2, 3 * self.quarter
        elif self.half is not None:
            first, last = 6 * self.half - 5, 6 * self.half
        end_day = calendar.monthrange(self.year, last)[1]
        return DatePoint(self.year, first, 1), DatePoint(self.year, last, end_day)


@dataclass(frozen=True, slots=True)
class Quantity:
    """One quantity found in a text (or a report value), with what it means."""

    kind: QKind
    text: str
    start: int = 0
    end: int = 0
    value: Decimal = Decimal(0)
    """Signed value in base units (percent units for PERCENT; the value for SCORE)."""
    tolerance: Decimal = Decimal(0)
    """Half a unit of the last digit shown, after scale."""
    currency: str | None = None
    unit: str | None = None
    scale: Decimal | None = None
    """SCORE only: what the value is out of."""
    bound: Bound = "eq"
    near: bool = False
    """A bound said to be close (``just over``, ``slightly under``): the value is near it."""
    threshold: bool = False
    """A figure of advice (``keep it under $50,000``): the threshold it names, matched by a
    cited bound on either side (``signs off spend above $50,000``)."""
    direction: Direction | None = None
    explicit_sign: bool = False
    year_like: bool = False
    fraction: bool = False
    """A report number stored as a fraction (its field is a rate, share, margin …)."""
    is_scale: bool = False
    """A report number that states a scale (``scores.max``)."""
    dates: tuple[DatePoint, ...] = ()
    period: Period | None = None
    optional: bool = False
    """A claim's ``one``: read for context, but it need not be warranted."""
    share: bool = False
    """A share written in words (``seven in ten``): a level, never a change."""
    from_path: bool = False
    """A report quantity named by the field's path (``rule_of_40``, ``fy2025``)."""
    key: str = ""
    """RECORD only: the string with spaces dropped and ``.``/``:`` made one separator."""
    parts: tuple[Quantity, ...] = ()
    """RECORD only: its numbers, each read on its own."""

    @property
    def numeric(self) -> bool:
        return self.kind in (QKind.NUMBER, QKind.PERCENT, QKind.CURRENCY, QKind.SCORE)


@dataclass(frozen=True, slots=True)
class Span:
    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class Scan:
    """What the grammar found in one text."""

    text: str
    """The folded text (same length as the input)."""
    masked: str
    """The text with every quantity and identifier replaced by ``MASK`` characters, and
    each percentile phrase by its measure word (``p75``)."""
    quantities: tuple[Quantity, ...]
    identifiers: tuple[Span, ...]


_SCALES: dict[str, Decimal] = {
    "k": Decimal(10**3), "thousand": Decimal(10**3),
    "m": Decimal(10**6), "mm": Decimal(10**6), "mn": Decimal(10**6),
    "million": Decimal(10**6),
    "b": Decimal(10**9), "bn": Decimal(10**9), "billion": Decimal(10**9),
    "t": Decimal(10**12), "tn": Decimal(10**12), "trillion": Decimal(10**12),
}  # fmt: skip
_CURRENCY_ONLY_SCALES = frozenset({"m", "b", "mm"})
"""Lower-case ``m``/``b``/``mm`` are scales only next to a currency (else metres, bytes …)."""


def _currencies() -> dict[str, str]:
    """``data/facts/currencies.yaml`` (the typed facts read the same table): every code,
    symbol and word, lower case, to its ISO code."""
    text = resources.files("prism_slack.data").joinpath("facts").joinpath("currencies.yaml")
    table = yaml.safe_load(text.read_text("utf-8"))
    return {
        **{code.lower(): code for code in table["codes"]},
        **{k.lower(): v for k, v in table["symbols"].items()},
        **{k.lower(): v for k, v in table["words"].items()},
    }


CURRENCIES = _currencies()
CURRENCY_CODES = tuple(sorted({c.upper() for c in CURRENCIES.values()}))

UNITS: dict[str, tuple[str, Decimal]] = {
    "ms": ("time", Decimal("0.001")), "millisecond": ("time", Decimal("0.001")),
    "milliseconds": ("time", Decimal("0.001")),
    "s": ("time", Decimal(1)), "sec": ("time", Decimal(1)), "secs": ("time", Decimal(1)),
    "second": ("time", Decimal(1)), "seconds": ("time", Decimal(1)),
    "min": ("time", Decimal(60)), "mins": ("time", Decimal(60)),
    "minute": ("time", Decimal(60)), "minutes": ("time", Decimal(60)),
    "h": ("time", Decimal(3600)), "hr": ("time", Decimal(3600)), "hrs": ("time", Decimal(3600)),
    "hour": ("time", Decimal(3600)), "hours": ("time", Decimal(3600)),
    "d": ("time", Decimal(86400)), "day": ("time", Decimal(86400)),
    "days": ("time", Decimal(86400)),
    "week": ("time", Decimal(604800)), "weeks": ("time", Decimal(604800)),
    # a month and a year of the Gregorian average (30.436875 and 365.2425 days): "210 days,
    # roughly seven months", to the precision the month or year figure is shown to
    "month": ("time", Decimal(2629746)), "months": ("time", Decimal(2629746)),
    "year": ("time", Decimal(31556952)), "years": ("time", Decimal(31556952)),
    "x": ("times", Decimal(1)), "times": ("times", Decimal(1)),
    "kb": ("bytes", Decimal(10**3)), "mb": ("bytes", Decimal(10**6)),
    "gb": ("bytes", Decimal(10**9)), "tb": ("bytes", Decimal(10**12)),
    "pb": ("bytes", Decimal(10**15)),
    # power and energy with their SI prefix: "1,538 GWh" is "about 1.5 TWh"
    "kw": ("power", Decimal(10**3)), "mw": ("power", Decimal(10**6)),
    "gw": ("power", Decimal(10**9)),
    "kwh": ("energy", Decimal(10**3)), "mwh": ("energy", Decimal(10**6)),
    "gwh": ("energy", Decimal(10**9)), "twh": ("energy", Decimal(10**12)),
}  # fmt: skip
"""Unit → (dimension, factor to the dimension's base). Units of one dimension convert."""
MEASURED_UNITS = frozenset(u for u, (dim, _) in UNITS.items() if dim in ("power", "energy"))
"""Units of power and energy (``MW``, ``GWh``), which a typed fact's measure may give a bare
number (``unitRef: "GWh"``)."""

_PATH_UNITS = frozenset(
    {"ms", "s", "sec", "secs", "seconds", "min", "mins", "minutes", "h", "hr", "hrs", "hours",
     "days", "weeks", "months", "years"}
)  # fmt: skip
"""A report field's last path word that states its unit (``sales_cycle_days``)."""

_PERCENT_FACTORS: dict[str, Decimal] = {"bps": Decimal("0.01"), "basis points": Decimal("0.01")}


def unit_key(unit: str) -> str:
    return unit.lower()


@dataclass
class ScanState:
    """A text being scanned: its characters, masked as rules claim them."""

    text: str
    chars: list[str]
    report_text: bool
    found: list[Quantity] = field(default_factory=list)
    identifiers: list[Span] = field(default_factory=list)
    _masked: str | None = None

    @property
    def masked(self) -> str:
        if self._masked is None:
            self._masked = "".join(self.chars)
        return self._masked

    def free(self, start: int, end: int) -> bool:
        return MASK not in self.masked[start:end]

    def mask(self, start: int, end: int) -> None:
        self.write(start, MASK * (end - start))

    def write(self, start: int, text: str) -> None:
        """Put ``text`` over the characters from ``start`` (the length stays the same)."""
        self.chars[start : start + len(text)] = text
        self._masked = None

    def add(self, q: Quantity) -> None:
        self.found.append(q)
        self.mask(q.start, q.end)


def _decimal(raw: str) -> Decimal:
    """``1,240``, ``1 240`` (a thin, no-break or plain space between thousands) → 1240."""
    return Decimal(re.sub(r"[,\s]", "", raw))


def _half_unit(d: Decimal) -> Decimal:
    exponent = d.as_tuple().exponent
    assert isinstance(exponent, int)
    return Decimal(1).scaleb(exponent) / 2
