"""Typed values as a rep says them: ``€318.4M``, ``8.7%``, ``38 days``, ``3/5``."""

from __future__ import annotations

import datetime as dt
import math
import re
from decimal import Decimal

from prism_slack.facts.model import Quantity, Unit, When
from prism_slack.facts.words import CURRENCY_SYMBOL


def plain(number: float | Decimal, *, decimals: int | None = None) -> str:
    """``1140`` → ``1,140``; ``0.5`` → ``0.5``; no float noise (``0.1 * 3``)."""
    d = Decimal(repr(number)) if isinstance(number, float) else Decimal(number)
    if decimals is not None:
        d = round(d, decimals)
    text = f"{d:,f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".") if decimals is None else text
    return text


def _short(amount: float) -> str:
    for factor, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M")):
        if abs(amount) >= factor:
            return plain(round(Decimal(repr(amount / factor)), 2)) + suffix
    return plain(amount)


def quantity(q: Quantity) -> str:
    """One quantity, in the report's currency, fractions and ratios as percents."""
    approx = "approx. " if q.approx else ""
    sign = "+" if q.signed and q.value > 0 else ""
    if q.unit is Unit.RATIO and q.measure == "x":
        return f"{approx}{plain(q.value)}x"  # a multiple written as one (``2.6x``)
    pct = q.percent
    if pct is not None:
        text = f"{plain(round(Decimal(repr(pct)), 4))}%"
        if q.unit is Unit.BASIS_POINTS:
            text = f"{plain(q.value)} bps"
        return f"{approx}{sign}{text}"
    if q.unit is Unit.CURRENCY:
        amount = q.amount
        symbol = CURRENCY_SYMBOL.get(q.currency or "", "")
        code = "" if symbol or not q.currency else f" {q.currency}"
        # ``61.5`` thousand is ``61,500``: a scale moves the written decimals
        decimals = max(0, q.decimals - round(math.log10(q.scale))) if q.scale > 0 else q.decimals
        body = _short(amount) if abs(amount) >= 1e6 else plain(amount, decimals=decimals)
        return f"{approx}{sign}{symbol}{body}{code}"
    if q.unit is Unit.SCORE and q.out_of is not None:
        return f"{plain(q.value)}/{plain(q.out_of)}"
    if q.unit is Unit.YEAR:
        return str(int(q.value))
    if q.unit is Unit.DURATION and q.measure == "minutes" and q.value >= 60 and q.value % 1 == 0:
        hours, minutes = divmod(int(q.value), 60)  # "1 h 52 min", as a rep says a wait
        return f"{approx}{hours} h {minutes} min" if minutes else f"{approx}{hours} h"
    body = _short(q.amount) if q.scale != 1 else plain(q.value)
    measure = f" {q.measure}" if q.measure else ""
    return f"{approx}{sign}{body}{measure}"


_MONTHS = [
    *("January", "February", "March", "April", "May", "June"),
    *("July", "August", "September", "October", "November", "December"),
]


def when(w: When, written: str) -> str:
    """A date as written when the report wrote a display string, else ``9 March 2025``."""
    if written.strip() and not written.strip()[:4].isdigit():
        return written.strip()
    if w.start is None:
        return written.strip()
    if w.granularity.value == "day":
        return f"{w.start.day} {_MONTHS[w.start.month - 1]} {w.start.year}"
    if w.granularity.value == "month":
        return f"{_MONTHS[w.start.month - 1]} {w.start.year}"
    return written.strip()


_ISO_DAY = r"(\d{4})-(\d{2})-(\d{2})"
_ISO_RANGE = re.compile(rf"{_ISO_DAY}\s+to\s+{_ISO_DAY}")
_ISO_ONE = re.compile(_ISO_DAY)


def period(text: str) -> str:
    """A period as a rep says it: ``2025-04-01 to 2026-03-31`` → "the year to 31 March
    2026" (a year, calendar or fiscal), else "1 April 2025 to 31 March 2026"; ``2026-03-31``
    → "31 March 2026"; any other period as written."""
    found = _ISO_RANGE.fullmatch(text.strip())
    if found is not None:
        start, end = _day(*found.groups()[:3]), _day(*found.groups()[3:])
        if start is None or end is None:
            return text
        after = end + dt.timedelta(days=1)
        if (start.month, start.day) == (after.month, after.day) and after.year - start.year == 1:
            return f"the year to {_spoken(end)}"
        return f"{_spoken(start)} to {_spoken(end)}"
    one = _ISO_ONE.fullmatch(text.strip())
    day = _day(*one.groups()) if one is not None else None
    return _spoken(day) if day is not None else text


def _day(year: str, month: str, day: str) -> dt.date | None:
    try:
        return dt.date(int(year), int(month), int(day))
    except ValueError:
        return None


def _spoken(day: dt.date) -> str:
    return f"{day.day} {_MONTHS[day.month - 1]} {day.year}"
