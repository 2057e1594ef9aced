"""Report values as quantities: a stored number read with the hints of its field path
(``_pct``, ``_usd``, ``_days``, ``_millions``, ``rate``/``margin`` fractions, ``fy``,
``scores.max``), a report sentence scanned, and the periods and numbers a path names."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation

from prism_slack.evidence import Scalar
from prism_slack.verify import lexicon
from prism_slack.verify.calendar import _two_digit_year
from prism_slack.verify.numbers import Scan, scan
from prism_slack.verify.quantity import (
    _CURRENCIES,
    _PATH_UNITS,
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


def field_hints(path: str) -> FieldHints:
    """Hints from the path: ``…_pct`` is in percent, ``…_usd`` is USD, ``…_days`` is days,
    ``…rate``/``…margin`` below 1 is a fraction, ``scores.max`` is a scale."""
    all_words = path_words(path)
    key = path_words(path.rsplit(".", 1)[-1]) if all_words else []
    last = key[-1] if key else ""
    basis_points = bool(lexicon.BASIS_POINT_PATH_WORDS & set(key))
    percent = basis_points or bool(lexicon.PERCENT_PATH_WORDS & set(key))
    currency = next((_CURRENCIES[w] for w in key if w in ("usd", "eur", "gbp")), None)
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
            fraction=hints.fraction and abs(value) <= 1, is_scale=hints.scale,
            year_like=year_like,
        )  # fmt: skip
    if year_like and hints.fiscal:
        yield Quantity(QKind.PERIOD, text, period=Period(int(value), fiscal=True))
    if hints.magnitude is not None:  # 10.34 in ``viewers_millions`` is also 10,340,000
        yield Quantity(
            kind, text, value=value * hints.magnitude, currency=hints.currency,
            direction=direction,
        )  # fmt: skip


def leaf_quantities(value: Scalar, path: str, found_in: Scan | None = None) -> tuple[Quantity, ...]:
    """Every quantity a report value holds, read with the hints of its field path.

    ``found_in``: the value's ``scan(value, report_text=True)`` when the caller has it.
    """
    if value is None or isinstance(value, bool):
        return ()
    hints = field_hints(path)
    if isinstance(value, (int, float)):
        d = _to_decimal(value)
        return tuple(number_quantities(d, repr(value), hints)) if d is not None else ()
    found = (found_in or scan(value, report_text=True)).quantities
    if len(found) == 1 and found[0].kind is QKind.NUMBER and found[0].unit is None:
        only = found[0]
        if only.text == value.strip():  # a bare number stored as a string
            return tuple(number_quantities(only.value, value, hints))
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


_PATH_PERIOD = re.compile(r"^(?:fy(\d{4}|\d{2})|q([1-4])|h([12])|((?:19|20)\d{2}))$")


def path_periods(path: str) -> tuple[Quantity, ...]:
    """Periods and numbers a field path names (``financials.fy2025.revenue``,
    ``q1_growth_pct``, ``rule_of_40``); list indexes are not numbers."""
    out = []
    for word in re.split(r"[._\-\s\[\]\"]+", re.sub(r"\[\d+\]", "", path).lower()):
        if word.isdigit() and not _PATH_PERIOD.match(word):
            out.append(Quantity(QKind.NUMBER, word, value=Decimal(word), from_path=True))
            continue
        m = _PATH_PERIOD.match(word)
        if m is None:
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
