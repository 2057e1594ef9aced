"""Report values as quantities for the checks: a stored number read through its typed fact
(``prism_slack.facts``: unit, currency, scale and period from wherever the report states
them), a report sentence scanned, and the periods and numbers a path names. Without a typed
fact (a value checked on its own) the field path's words give the hints."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from prism_slack.evidence import Scalar
from prism_slack.facts.model import AGAINST, Granularity, Source, TypedFact, Unit
from prism_slack.verify import lexicon
from prism_slack.verify.calendar import _two_digit_year
from prism_slack.verify.numbers import Scan, scan
from prism_slack.verify.quantity import (
    _PATH_UNITS,
    CURRENCIES,
    MEASURED_UNITS,
    UNITS,
    DatePoint,
    Direction,
    Period,
    QKind,
    Quantity,
    unit_key,
)
from prism_slack.verify.text import path_words


@dataclass(frozen=True, slots=True)
class FieldHints:
    """What a report field's path says about its number."""

    percent: bool = False
    fraction: bool = False
    currency: str | None = None
    unit: str | None = None
    fiscal: bool = False
    scale: bool = False
    negative: bool = False
    magnitude: Decimal | None = None
    """A scale word in the key (``us_viewers_millions``, ``revenue_in_thousands``): the
    stored number is in that many units."""
    basis_points: bool = False
    """``…_bps``: the stored number is in hundredths of a percent."""
    ratio: bool = False
    """A multiple (``solvencyCoverageRatio = 1.68`` is 168%): a fraction of any size."""
    against: bool = False
    """A multiple of what the key sets it against (``submissionsVsPriorYear = 1.12``): it
    also says the change, up 12%."""


def field_hints(path: str, fact: TypedFact | None = None) -> FieldHints:
    """Hints for a stored number: from its typed fact when there is one, else from the
    path (``…_pct`` is in percent, ``…_usd`` is USD, ``…_days`` is days, ``…rate`` below 1
    is a fraction). ``scores.max`` (a scale), ``fy`` and loss words always come from the
    path."""
    hints = _path_hints(path)
    q = fact.quantity if fact is not None else None
    if fact is None:
        return hints
    if q is None:  # untyped: a plain number, no unit guessed
        return replace(hints, percent=False, fraction=False, currency=None, unit=None,
                       magnitude=None, basis_points=False)  # fmt: skip
    unit = q.measure if q.unit is Unit.DURATION and q.measure in _PATH_UNITS else None
    if unit is None and q.measure is not None and unit_key(q.measure) in MEASURED_UNITS:
        unit = unit_key(q.measure)  # ``{value: 612, unit: "MW"}``: power, energy
    return replace(
        hints,
        percent=q.unit in (Unit.PERCENT, Unit.BASIS_POINTS),
        basis_points=q.unit is Unit.BASIS_POINTS,
        fraction=q.unit in (Unit.FRACTION, Unit.RATIO),
        ratio=q.unit is Unit.RATIO,
        against=q.unit is Unit.RATIO and fact.note == AGAINST,
        currency=q.currency if q.unit is Unit.CURRENCY else None,
        unit=unit,
        magnitude=Decimal(repr(q.scale)).normalize() if q.scale != 1 else None,
    )


def _path_hints(path: str) -> FieldHints:
    all_words = path_words(path)
    key = path_words(path.rsplit(".", 1)[-1]) if all_words else []
    last = key[-1] if key else ""
    basis_points = bool(lexicon.BASIS_POINT_PATH_WORDS & set(key))
    percent = basis_points or bool(lexicon.PERCENT_PATH_WORDS & set(key))
    currency = next((c for w in key if len(w) == 3 and (c := CURRENCIES.get(w))), None)
    return FieldHints(
        percent=percent,
        fraction=not percent and bool(lexicon.FRACTION_PATH_WORDS & set(key)),
        currency=currency,
        unit=last if last in _PATH_UNITS else None,
        fiscal=bool(lexicon.FISCAL_PATH_WORDS & set(all_words)),
        scale=last in lexicon.SCALE_PATH_WORDS or "_".join(key) in lexicon.SCALE_PATH_WORDS,
        negative=bool(lexicon.NEGATIVE_SENSE & set(all_words)),
        magnitude=next((_PATH_SCALES[w] for w in key if w in _PATH_SCALES), None),
        basis_points=basis_points,
    )


_PATH_SCALES: dict[str, Decimal] = {
    "thousand": Decimal(10**3), "thousands": Decimal(10**3), "k": Decimal(10**3),
    "million": Decimal(10**6), "millions": Decimal(10**6), "mn": Decimal(10**6),
    "mm": Decimal(10**6), "billion": Decimal(10**9), "billions": Decimal(10**9),
    "bn": Decimal(10**9),
}  # fmt: skip
"""Scale words a field key may carry (``…_millions``, ``…_in_thousands``)."""


def _to_decimal(value: int | float) -> Decimal | None:
    try:
        return Decimal(value) if isinstance(value, int) else Decimal(repr(value))
    except InvalidOperation:
        return None


def number_quantities(value: Decimal, text: str, hints: FieldHints) -> Iterator[Quantity]:
    """The quantities one stored number stands for, read with its field's hints. A number
    of a field with a scale word is also that many units (``viewers_millions``); when the
    field is money, it is only that amount (``cost_gbp_thousands = 4380`` is £4.38M)."""
    direction: Direction | None = "down" if hints.negative and value > 0 else None
    if hints.basis_points:
        value = value / 100  # 9.8 bps is 0.098%
    if hints.percent:
        kind = QKind.PERCENT
    elif hints.currency:
        kind = QKind.CURRENCY
    else:
        kind = QKind.NUMBER
    year_like = value == value.to_integral_value() and 1900 <= value <= 2100
    if hints.magnitude is None or kind is not QKind.CURRENCY:  # £4,380 thousand is no £4,380
        yield Quantity(
            kind, text, value=value, currency=hints.currency, direction=direction,
            unit=unit_key(hints.unit) if hints.unit and kind is QKind.NUMBER else None,
            fraction=hints.fraction and (abs(value) <= 1 or hints.ratio), is_scale=hints.scale,
            year_like=year_like,
        )  # fmt: skip
    if hints.against:  # 1.12 of the prior year is up 12%
        change = (value - 1) * 100
        yield Quantity(
            QKind.PERCENT, text, value=change, direction="up" if change > 0 else "down",
        )  # fmt: skip
    if year_like and hints.fiscal:
        yield Quantity(QKind.PERIOD, text, period=Period(int(value), fiscal=True))
    if hints.magnitude is not None:  # 10.34 in ``viewers_millions`` is also 10,340,000
        yield Quantity(
            kind, text, value=value * hints.magnitude, currency=hints.currency,
            direction=direction,
        )  # fmt: skip


def leaf_quantities(
    value: Scalar, path: str, found_in: Scan | None = None, *, fact: TypedFact | None = None
) -> tuple[Quantity, ...]:
    """Every quantity a report value holds, read through its typed fact (or, without one,
    with the hints of its field path), and the period the fact is of.

    ``found_in``: the value's ``scan(value, report_text=True)`` when the caller has it.
    """
    if value is None or isinstance(value, bool):
        return ()
    return _value_quantities(value, path, found_in, fact) + _fact_period(fact)


def _fact_period(fact: TypedFact | None) -> tuple[Quantity, ...]:
    """The period a typed fact is of, when its path does not name it already (a sibling
    ``period: "FY25"``): read as a path's period is, a label, never a value."""
    if fact is None or fact.period_text is None or fact.period_text in fact.path:
        return ()
    found = scan(fact.period_text, report_text=True).quantities
    return tuple(replace(q, from_path=True) for q in found if q.kind in (QKind.DATE, QKind.PERIOD))


def _value_quantities(
    value: str | int | float, path: str, found_in: Scan | None, fact: TypedFact | None
) -> tuple[Quantity, ...]:
    hints = field_hints(path, fact)
    typed = fact.quantity if fact is not None else None
    if isinstance(value, (int, float)):
        d = _to_decimal(value)
        if d is None:
            return ()
        found = tuple(number_quantities(d, repr(value), hints))
        if (
            typed is not None
            and typed.out_of
            and fact is not None
            and fact.sources.get("out_of") in (Source.KEY, Source.PARENT)
        ):  # a score whose scale its key or section states (``(out of 5)``, ``/10``)
            scale = Decimal(repr(typed.out_of)).normalize()
            found += (Quantity(QKind.SCORE, repr(value), value=d, scale=scale),)
        return found
    if hints.scale and (m := _RANGE.fullmatch(value)):  # ``scale: "0-10"`` is out of 10
        return (Quantity(QKind.NUMBER, value, value=Decimal(m.group(1)), is_scale=True),)
    found = (found_in or scan(value, report_text=True)).quantities
    if (
        typed is not None
        and typed.unit is Unit.CURRENCY
        and len(found) == 1
        and (found[0].kind is not QKind.CURRENCY or found[0].currency != typed.currency)
    ):  # ``DKK 845m``: the typed fact read the code and scale the grammar does not
        return tuple(number_quantities(Decimal(repr(typed.value)), value, hints))
    if typed is not None and typed.unit is Unit.RATIO and len(found) == 1 and found[0].numeric:
        # ``1.35x``: a multiple, so also 135%
        return tuple(number_quantities(Decimal(repr(typed.value)), value, hints))
    if (
        typed is not None
        and typed.measure is not None
        and unit_key(typed.measure) in UNITS
        and len(found) == 1
        and found[0].kind is QKind.NUMBER
        and found[0].unit is None
    ):  # ``6 business days``: the unit a word apart; ``{value: "1538", unitRef: "GWh"}``
        return (replace(found[0], unit=unit_key(typed.measure)),)
    if len(found) == 1 and found[0].kind is QKind.NUMBER and found[0].unit is None:
        only = found[0]
        if only.text == value.strip():  # a bare number stored as a string
            return tuple(number_quantities(only.value, value, hints))
    if (
        fact is not None
        and fact.quantity is not None
        and fact.sources.get("unit")
        not in (
            None,
            Source.VALUE,
        )
        and len(found) == 1
        and found[0].numeric
    ):  # a number whose unit is stated beside it
        return tuple(number_quantities(found[0].value, value, hints))  # fmt: skip
    if hints.negative:
        found = tuple(
            replace(q, direction="down") if q.numeric and q.value > 0 and not q.direction else q
            for q in found
        )
    if hints.fiscal:
        found = tuple(
            replace(q, kind=QKind.PERIOD, period=Period(int(q.value), fiscal=True))
            if q.kind is QKind.NUMBER and q.year_like
            else q
            for q in found
        )
    return tuple(found)


_RANGE = re.compile(r"\s*[01]\s*(?:[-–—]|to)\s*(\d+)\s*")
"""A scale written as its range (``0-10``, ``1 to 5``)."""

_QUOTED_KEY = re.compile(r'\["([^"\]]*\d[^"\]]*\s[^"\]]*)"\]')
"""A key written with spaces and a digit, whose figures are read as a claim's are."""
_PATH_DAY = re.compile(
    r"(?<![\w.-])(?:\d{1,2}\.\d{1,2}\.(?:19|20)\d{2}|(?:19|20)\d{2}-\d{2}-\d{2})(?![\w-])"
)
"""A day a key writes whole (``31.12.2025``, ``2025-12-31``)."""
_PATH_PERIOD = re.compile(r"^(?:fy(\d{4}|\d{2})|q([1-4])|h([12])|((?:19|20)\d{2}))$")


def path_periods(path: str, fact: TypedFact | None = None) -> tuple[Quantity, ...]:
    """Periods and numbers a field path names (``financials.fy2025.revenue``,
    ``q1_growth_pct``, ``rule_of_40``); list indexes are not numbers. ``fact``: its
    period, read from a key, a sibling or a table's period column (``H2 2025``,
    ``2025-Q3``), is one too."""
    out = list(_fact_periods(fact)) if fact is not None and fact.period_text else []
    text = re.sub(r"\[\d+\]", "", path)
    for day in _PATH_DAY.findall(text):  # "Net debt 31.12.2025": one day, not 31, 12, 2025
        out += [replace(q, from_path=True) for q in scan(day).quantities]
    for key in _QUOTED_KEY.findall(text):  # "Callback rate (repeat callout within 30 days)"
        out += _written_figures(key)
    for word in re.split(r"[._\-\s\[\]\"(),]+", _PATH_DAY.sub(" ", text).lower()):
        if word.isdigit() and not _PATH_PERIOD.match(word):
            out.append(Quantity(QKind.NUMBER, word, value=Decimal(word), from_path=True))
            continue
        m = None if re.fullmatch(r"[12]h", word) else _NUMBER_UNIT.fullmatch(word)  # not 2H
        if m:  # ``answered_within_60s``: 60 seconds
            out += _written_figures(f"{m.group(1)} {m.group(2)}")
            continue
        m = _PATH_PERIOD.match(word)
        if m is None:
            out += _written_periods(word)
            continue
        fy, quarter, half, year = m.groups()
        if fy:
            period = Period(_two_digit_year(fy), fiscal=True)
        elif quarter:
            period = Period(None, quarter=int(quarter))
        elif half:
            period = Period(None, half=int(half))
        else:
            point = (DatePoint(int(year)),)
            out.append(Quantity(QKind.DATE, word, dates=point, from_path=True))
            continue
        out.append(Quantity(QKind.PERIOD, word, period=period, from_path=True))
    return tuple(out)


@lru_cache(maxsize=4096)
def _written_periods(word: str) -> tuple[Quantity, ...]:
    """A key or period label written as the claim grammar reads it (``Q3'25``)."""
    if not any(c.isdigit() for c in word):
        return ()
    return tuple(
        replace(q, from_path=True)
        for q in scan(word).quantities
        if q.kind is QKind.PERIOD and q.period is not None and q.period.year is not None
    )


def _fact_periods(fact: TypedFact) -> tuple[Quantity, ...]:
    """The typed fact's period as the claim grammar reads it, or as its calendar quarter
    or half (``2025-Q3``, which the grammar reads as a year and a bare quarter)."""
    text = fact.period_text or ""
    written = _written_periods(text)
    if lexicon.TRAILING_YEAR_WORDS & set(text.lower().split()):  # TTM Q3 2025: 12 months
        written += _written_figures("12 months")
    when = fact.period
    if written or when is None or when.start is None or when.fiscal:
        return written
    year, month = when.start.year, when.start.month
    if when.granularity is Granularity.QUARTER:
        period = Period(year, quarter=(month - 1) // 3 + 1)
    elif when.granularity is Granularity.HALF:
        period = Period(year, half=1 if month <= 6 else 2)
    else:
        return ()
    return (Quantity(QKind.PERIOD, text, period=period, from_path=True),)


_NUMBER_UNIT = re.compile(r"(\d+)([a-z]+)")


@lru_cache(maxsize=4096)
def _written_figures(text: str) -> tuple[Quantity, ...]:
    """A number with its unit as a key writes it (``60s``, ``30days``), read as a claim is."""
    return tuple(replace(q, from_path=True) for q in scan(text).quantities if q.numeric and q.unit)
