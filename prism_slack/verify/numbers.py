"""Quantities in claim text and in report values: the verifier's number grammar.

A text is scanned by the rules below, in this order; each match masks its span so a later
rule cannot read the same characters again (``FND-3`` is an identifier, so its ``3`` is
never a count; ``2026-03-09`` is a date, so ``03`` is never a number).

1. percentile   ``75th percentile`` → the measure word ``p75`` (not a quantity).
2. dates        ``2026-03-09`` (and with a time), ``2026-03``, ``2026/03/09``,
                ``03/09/2026`` (both month-first and day-first readings are kept),
                ``March 9, 2026``, ``Mar. 9th 2026``, ``9 March 2026``, ``9th of March``,
                ``March 2026``, ``March 9`` and a bare month name (a bare ``May`` only
                after a temporal word such as ``in``). Months are capitalised words.
3. periods      ``Q1 2026``, ``Q1'26``, ``Q1-26``, ``Q1 FY26``, ``1Q26``, ``FY2025``,
                ``FY 25``, ``FY2026 Q1``, ``fiscal 2025``, ``fiscal year 2025``, ``H1 2026``,
                ``first quarter of 2026``, ``second half of 2025``; a bare ``Q3``/``H1``.
                Two-digit years need an apostrophe, a hyphen or ``FY``.
4. scores       ``7 out of 10``, ``7/10``, ``7.5 / 10``: a value no greater than its scale
                (so ``24/7`` is not a score).
5. identifiers  a token mixing letters and digits (``F2``, ``M10``, ``GA4``, ``FND-3``,
                ``S/4HANA``, ``Five9``) — unless it is a number with a unit suffix (``10M``,
                ``2.9s``, ``3x``, ``4th``) or a lower-case word hyphenated to a number
                (``mid-2026``, ``top-10``). Masked and reported; never a quantity.
                A few vocabulary tokens (``B2B``, ``2FA``, ``p95``) are neither.
6. numbers      [sign] [currency] digits [scale] [percent] [currency] [unit] [ordinal]
                sign      ``-`` (any dash or minus sign) or ``+``, not glued to a word
                currency  before: ``$ US$ € £ USD EUR GBP``; after: ``USD EUR GBP dollars
                          euros``
                digits    ``1,234,567.89`` | ``1234.5`` | ``.5``
                scale     ``k K thousand`` 1e3 · ``M million mn`` 1e6 · ``B billion bn`` 1e9
                          · ``T trillion tn`` 1e12; lower-case ``m``, ``b`` and ``mm`` count
                          as scales only next to a currency
                percent   ``% percent per cent pct pp percentage points`` (percent units);
                          ``bps`` and ``basis points`` are hundredths of a percent
                unit      ``ms s sec min h hr d day week month year x times KB MB GB TB PB``
                          (a hyphen may join it: ``60-day``)
                A plain four-digit integer from 1900 to 2100 is *year-like*: it matches a
                year as well as a number.
7. number words ``one`` … ``ninety``, ``twenty-five``, optionally followed by ``thousand``/
                ``million``/``billion``. In a claim, ``one`` need not be warranted (it is
                mostly a pronoun) but still splits the text like a number. A number word
                hyphen-glued to another word (``two-factor``) is not a number, unless that
                word is a time unit (``three-year``).

Context of each number (read from the words around it, never across another number):

- bound: ``over``/``more than``/``above``/``at least`` … and ``under``/``less than``/
  ``up to``/``at most`` … just before it;
- hedge: ``about``/``around``/``roughly``/``nearly``/``~`` … just before it: the trailing
  zeros of an integer are then not significant (``about 1,200`` is 1,200 ± 50);
- direction: an explicit sign wins; otherwise ``negative``/``minus`` nearby, or the nearest
  direction word (``fell``, ``declined``, ``down`` … / ``grew``, ``rose``, ``up`` …) up to
  five words before it in the same clause, or three after it. A number right after ``to``
  or ``from`` is a level, not a change (``fell from 12% to 10%``).

Shown precision: a claim's tolerance is half a unit of its last shown digit, after scale —
``$4.1M`` is 4,100,000 ± 50,000, ``3.7%`` is 3.7 ± 0.05, ``1,200`` is 1,200 ± 0.5.
Report values are taken as exact.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Literal

from prism_slack.evidence import Scalar
from prism_slack.language import words
from prism_slack.verify import lexicon
from prism_slack.verify.text import fold, path_words

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
    """A quarter, half or fiscal year. ``year`` is ``None`` for a bare ``Q3``."""

    year: int | None
    quarter: int | None = None
    half: int | None = None
    fiscal: bool = False


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


# --- units, scales, currencies ---------------------------------------------------------

_SCALES: dict[str, Decimal] = {
    "k": Decimal(10**3), "thousand": Decimal(10**3),
    "m": Decimal(10**6), "mm": Decimal(10**6), "mn": Decimal(10**6),
    "million": Decimal(10**6),
    "b": Decimal(10**9), "bn": Decimal(10**9), "billion": Decimal(10**9),
    "t": Decimal(10**12), "tn": Decimal(10**12), "trillion": Decimal(10**12),
}  # fmt: skip
_CURRENCY_ONLY_SCALES = frozenset({"m", "b", "mm"})
"""Lower-case ``m``/``b``/``mm`` are scales only next to a currency (else metres, bytes …)."""

_CURRENCIES: dict[str, str] = {
    "$": "USD", "us$": "USD", "usd": "USD", "dollar": "USD", "dollars": "USD",
    "€": "EUR", "eur": "EUR", "euro": "EUR", "euros": "EUR",
    "£": "GBP", "gbp": "GBP",
}  # fmt: skip

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
    "month": ("month", Decimal(1)), "months": ("month", Decimal(1)),
    "year": ("year", Decimal(1)), "years": ("year", Decimal(1)),
    "x": ("times", Decimal(1)), "times": ("times", Decimal(1)),
    "kb": ("bytes", Decimal(10**3)), "mb": ("bytes", Decimal(10**6)),
    "gb": ("bytes", Decimal(10**9)), "tb": ("bytes", Decimal(10**12)),
    "pb": ("bytes", Decimal(10**15)),
}  # fmt: skip
"""Unit → (dimension, factor to the dimension's base). Units of one dimension convert."""

_PATH_UNITS = frozenset(
    {"ms", "s", "sec", "secs", "seconds", "min", "mins", "minutes", "h", "hr", "hrs", "hours",
     "days", "weeks", "months", "years"}
)  # fmt: skip
"""A report field's last path word that states its unit (``sales_cycle_days``)."""

_PERCENT_FACTORS: dict[str, Decimal] = {"bps": Decimal("0.01"), "basis points": Decimal("0.01")}


def unit_key(unit: str) -> str:
    return unit.lower()


# --- regular expressions ---------------------------------------------------------------

_MONTH = (
    r"(?:Jan(?:uary|\.)?|Feb(?:ruary|\.)?|Mar(?:ch|\.)?|Apr(?:il|\.)?|May|June?|July?|"
    r"Aug(?:ust|\.)?|Sep(?:t(?:ember)?)?\.?|Oct(?:ober|\.)?|Nov(?:ember|\.)?|Dec(?:ember|\.)?)"
)
_FULL_MONTH = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December)"
)
_ORD = r"(?:st|nd|rd|th)?"
_END = r"(?![\w])(?!\.\d)"

_PERCENTILE = re.compile(r"(?<![\w.])(\d{1,2})(?:st|nd|rd|th)[\s-]+percentile\b", re.I)

_ISO_DAY = re.compile(
    r"(?<![\w.])(\d{4})-(\d{2})-(\d{2})"
    r"(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?" + _END
)
_ISO_MONTH = re.compile(r"(?<![\w.])(\d{4})-(\d{2})" + _END + r"(?!-\d)")
_YMD_SLASH = re.compile(r"(?<![\w./])(\d{4})/(\d{1,2})/(\d{1,2})(?![\w/])")
_AMBIGUOUS_SLASH = re.compile(r"(?<![\w./])(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})(?![\w/])")
_MONTH_DAY = re.compile(
    r"\b(" + _MONTH + r")\s+(\d{1,2})" + _ORD + r"(?:,?\s+(\d{4}))?" + _END, re.I
)
_DAY_MONTH = re.compile(
    r"(?<![\w.])(\d{1,2})"
    + _ORD
    + r"\s+(?:of\s+)?("
    + _MONTH
    + r")(?![a-z])(?:,?\s+(\d{4}))?"
    + _END,
    re.I,
)
_MONTH_YEAR = re.compile(r"\b(" + _MONTH + r")(?:\s+of)?,?\s+(\d{4})" + _END, re.I)
_BARE_MONTH = re.compile(r"\b(" + _FULL_MONTH + r")\b")

_YEAR_TAIL = (
    r"(?:\s*(?:of\s+)?(?:(?P<fy>FY|[Ff]iscal(?:\s+[Yy]ear)?)\s*'?\s*(?P<fyy>\d{4}|\d{2})"
    r"|\s*['\-]\s*(?P<yy>\d{2}|\d{4})|\s+(?:of\s+)?(?P<yyyy>\d{4})))?"
)
_QUARTER = re.compile(r"\b[Qq]([1-4])" + _YEAR_TAIL + _END)
_HALF = re.compile(r"\bH([12])" + _YEAR_TAIL + _END)
_QUARTER_FIRST = re.compile(r"\b([1-4])Q\s*'?(\d{2}|\d{4})?" + _END)
_FISCAL = re.compile(
    r"\b(?:FY|[Ff]iscal(?:\s+[Yy]ear)?)\s*['\-]?\s*(\d{4}|\d{2})"
    r"(?:\s*[-/ ]?\s*(?:Q([1-4])|H([12])))?" + _END
)
_QUARTER_WORDS = re.compile(
    r"\b(first|second|third|fourth|1st|2nd|3rd|4th)\s+(quarter|half)"
    r"(?:\s+of)?(?:\s+(?:(fiscal(?:\s+year)?|FY)\s*)?(\d{4}))?\b",
    re.I,
)

_SCORE = re.compile(
    r"(?<![\w.$€£/])(\d+(?:\.\d+)?)\s*(?:/|out\s+of)\s*(\d+(?:\.\d+)?)(?![\w/%])(?!\.\d)"
)
_IDIOMS = re.compile(r"(?<![\w/])24\s*/\s*7(?![\w/])")

_TOKEN = re.compile(r"(?<![\w$€£.])[A-Za-z0-9]+(?:[-/.&][A-Za-z0-9]+)*")
_NUMBER_WITH_SUFFIX = re.compile(
    r"^\d[\d,]*(?:\.\d+)?"
    r"(?:k|K|M|MM|mm|mn|B|bn|b|m|T|tn|ms|s|sec|secs|min|mins|h|hr|hrs|d|x|st|nd|rd|th|"
    r"KB|MB|GB|TB|PB|kb|mb|gb|tb|pp|pct|bps)$"
)
_WORD_THEN_NUMBER = re.compile(r"^[a-z]+(?:-[a-z]+)*-\d+(?:\.\d+)?$|^\d+(?:\.\d+)?(?:-[a-z]+)+$")

_NUMBER = re.compile(
    r"""
    (?<![\w.])
    (?P<cur_pre>US\$|\$|€|£|(?:USD|EUR|GBP)\s?)?
    (?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)
    (?![\d])
    (?:\s?(?P<scale>thousand|million|billion|trillion|bn|mn|tn|mm|MM|[kKMBTmb])(?![A-Za-z0-9]))?
    (?:\s?(?P<pct>%|per\s?cent(?!ile)|percent(?:age\s+points?)?(?!ile)|pct|pp|
        percentage\s+points?|bps|basis\s+points?)(?![A-Za-z]))?
    (?:\s?(?P<cur_suf>USD|EUR|GBP|dollars?|euros?)(?![A-Za-z]))?
    (?:[\s-]?(?P<unit>ms|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|d|
        days?|weeks?|months?|years?|x|times|KB|MB|GB|TB|PB)(?![A-Za-z0-9]))?
    (?P<ord>st|nd|rd|th)?(?![A-Za-z])
    """,
    re.X,
)

_NUMBER_WORD_ALT = "|".join(sorted(lexicon.NUMBER_WORDS, key=len, reverse=True))
_NUMBER_WORD = re.compile(
    r"(?<![\w-])(" + _NUMBER_WORD_ALT + r")(?:[-\s](one|two|three|four|five|six|seven|eight|"
    r"nine))?(?:\s+(thousand|million|billion))?(?![\w])",
    re.I,
)
_TENS = frozenset({"twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"})
_TIME_UNIT_WORD = re.compile(r"-(day|week|month|year|hour|minute)s?\b", re.I)

_BOUND_PHRASES = sorted([*lexicon.BOUNDS, *lexicon.HEDGES], key=len, reverse=True)
_BOUND_TAIL = re.compile(
    r"(?:^|[^\w~])(" + "|".join(re.escape(p) for p in _BOUND_PHRASES) + r")\s*$", re.I
)
_BOUND_NAMES: dict[str, Bound] = {"gt": "gt", "ge": "ge", "lt": "lt", "le": "le"}
_SENTENCE_CUT = re.compile(r"[.;!?](?:\s|$)")


# --- the scanner -------------------------------------------------------------------------


@dataclass
class _State:
    text: str
    chars: list[str]
    report_text: bool
    found: list[Quantity] = field(default_factory=list)
    identifiers: list[Span] = field(default_factory=list)

    @property
    def masked(self) -> str:
        return "".join(self.chars)

    def free(self, start: int, end: int) -> bool:
        return all(c != MASK for c in self.chars[start:end])

    def mask(self, start: int, end: int) -> None:
        for i in range(start, end):
            self.chars[i] = MASK

    def add(self, q: Quantity) -> None:
        self.found.append(q)
        self.mask(q.start, q.end)


def scan(text: str, *, report_text: bool = False) -> Scan:
    """Find every quantity and identifier in ``text`` (see the module grammar).

    ``report_text`` reads a report value rather than a claim: ``one`` is a number to match.
    """
    folded = fold(text)
    state = _State(folded, list(folded), report_text)
    for rule in _RULES:
        rule(state)
    quantities = sorted(state.found, key=lambda q: q.start)
    quantities = _with_context(folded, quantities)
    return Scan(folded, state.masked, tuple(quantities), tuple(state.identifiers))


def extract_quantities(text: str) -> list[Quantity]:
    """The quantities a claim text states, in order."""
    return list(scan(text).quantities)


def _percentiles(state: _State) -> None:
    for m in _PERCENTILE.finditer(state.masked):
        word = f"p{int(m.group(1))}"
        start, end = m.span()
        for i in range(start, end):
            state.chars[i] = word[i - start] if i - start < len(word) else " "


def _date_quantity(m: re.Match[str], points: tuple[DatePoint, ...]) -> Quantity:
    return Quantity(QKind.DATE, m.group(0), m.start(), m.end(), dates=points)


def _valid(year: int | None, month: int | None, day: int | None) -> bool:
    if month is not None and not 1 <= month <= 12:
        return False
    if day is None:
        return True
    if month is None:
        return False
    try:
        dt.date(year if year is not None else 2000, month, day)  # 2000: a leap year
    except ValueError:
        return False
    return True


def _month(name: str) -> int:
    return lexicon.MONTHS[name.rstrip(".").lower()]


def _add_date(state: _State, m: re.Match[str], *points: DatePoint) -> None:
    valid = tuple(p for p in points if _valid(p.year, p.month, p.day))
    if valid and state.free(*m.span()):
        state.add(_date_quantity(m, valid))


def _dates(state: _State) -> None:
    for m in _ISO_DAY.finditer(state.masked):
        y, mo, d = (int(g) for g in m.groups())
        _add_date(state, m, DatePoint(y, mo, d))
    for m in _ISO_MONTH.finditer(state.masked):
        _add_date(state, m, DatePoint(int(m.group(1)), int(m.group(2))))
    for m in _YMD_SLASH.finditer(state.masked):
        y, mo, d = (int(g) for g in m.groups())
        _add_date(state, m, DatePoint(y, mo, d))
    for m in _AMBIGUOUS_SLASH.finditer(state.masked):
        a, b, yy = int(m.group(1)), int(m.group(2)), int(m.group(3))
        y = yy + 2000 if yy < 100 else yy
        _add_date(state, m, DatePoint(y, a, b), DatePoint(y, b, a))
    for m in _MONTH_DAY.finditer(state.masked):
        year = int(m.group(3)) if m.group(3) else None
        _add_date(state, m, DatePoint(year, _month(m.group(1)), int(m.group(2))))
    for m in _DAY_MONTH.finditer(state.masked):
        year = int(m.group(3)) if m.group(3) else None
        _add_date(state, m, DatePoint(year, _month(m.group(2)), int(m.group(1))))
    for m in _MONTH_YEAR.finditer(state.masked):
        _add_date(state, m, DatePoint(int(m.group(2)), _month(m.group(1))))
    for m in _BARE_MONTH.finditer(state.masked):
        if m.group(1) == "May" and not _after_temporal_word(state.text, m.start()):
            continue
        _add_date(state, m, DatePoint(None, _month(m.group(1))))


def _after_temporal_word(text: str, start: int) -> bool:
    before = words(text[max(0, start - 20) : start])
    return bool(before) and before[-1] in lexicon.TEMPORAL_PREPOSITIONS


def _two_digit_year(raw: str) -> int:
    value = int(raw.lstrip("'"))
    return value + 2000 if value < 100 else value


def _tail_year(m: re.Match[str]) -> tuple[int | None, bool]:
    """The year after a quarter or half, and whether it is a fiscal year."""
    if m.group("fyy"):
        return _two_digit_year(m.group("fyy")), True
    if m.group("yy"):
        return _two_digit_year(m.group("yy")), False
    if m.group("yyyy"):
        return int(m.group("yyyy")), False
    return None, False


def _add_period(state: _State, m: re.Match[str], period: Period) -> None:
    if state.free(*m.span()):
        state.add(Quantity(QKind.PERIOD, m.group(0), m.start(), m.end(), period=period))


def _fiscal(state: _State, *, with_part: bool) -> None:
    for m in _FISCAL.finditer(state.masked):
        quarter = int(m.group(2)) if m.group(2) else None
        half = int(m.group(3)) if m.group(3) else None
        if with_part and quarter is None and half is None:
            continue
        period = Period(_two_digit_year(m.group(1)), quarter, half, fiscal=True)
        _add_period(state, m, period)


def _periods(state: _State) -> None:
    _fiscal(state, with_part=True)  # "FY2026 Q1" before "Q1 FY2026" before "FY2026"
    for m in _QUARTER_WORDS.finditer(state.masked):
        n = lexicon.QUARTER_WORDS[m.group(1).lower()]
        year = int(m.group(4)) if m.group(4) else None
        fiscal = m.group(3) is not None
        if m.group(2).lower() == "quarter":
            _add_period(state, m, Period(year, quarter=n, fiscal=fiscal))
        elif n <= 2:
            _add_period(state, m, Period(year, half=n, fiscal=fiscal))
    for m in _QUARTER.finditer(state.masked):
        year, fiscal = _tail_year(m)
        _add_period(state, m, Period(year, quarter=int(m.group(1)), fiscal=fiscal))
    for m in _HALF.finditer(state.masked):
        year, fiscal = _tail_year(m)
        _add_period(state, m, Period(year, half=int(m.group(1)), fiscal=fiscal))
    for m in _QUARTER_FIRST.finditer(state.masked):
        year = _two_digit_year(m.group(2)) if m.group(2) else None
        _add_period(state, m, Period(year, quarter=int(m.group(1))))
    _fiscal(state, with_part=False)


def _decimal(raw: str) -> Decimal:
    return Decimal(raw.replace(",", ""))


def _half_unit(d: Decimal) -> Decimal:
    exponent = d.as_tuple().exponent
    assert isinstance(exponent, int)
    return Decimal(1).scaleb(exponent) / 2


def _scores(state: _State) -> None:
    for m in _IDIOMS.finditer(state.masked):
        state.mask(*m.span())
    for m in _SCORE.finditer(state.masked):
        value, scale = _decimal(m.group(1)), _decimal(m.group(2))
        if scale <= 0 or value > scale or not state.free(*m.span()):
            continue
        q = Quantity(
            QKind.SCORE, m.group(0), m.start(), m.end(), value=value,
            tolerance=_half_unit(value), scale=scale,
        )  # fmt: skip
        state.add(q)


_RECORD = re.compile(
    r"(?<![\w.:/-])(?:\d+(?:[.:]\d+){2,}|\d+:\d+(?:\.\d+)?|\d+(?:\s*-\s*\d+)+)(?![\w.:/-])"
)


def record_key(text: str) -> str:
    """``1:56.85`` and ``1.56.85`` → ``1:56:85``; ``7 - 8`` → ``7-8``."""
    return re.sub(r"[.:]", ":", re.sub(r"\s+", "", text))


def _records(state: _State) -> None:
    for m in _RECORD.finditer(state.masked):
        if not state.free(*m.span()):
            continue
        text = m.group(0)
        parts = tuple(
            Quantity(QKind.NUMBER, n.group(0), m.start() + n.start(), m.start() + n.end(),
                     value=Decimal(n.group(0)), tolerance=Decimal(0))
            for n in re.finditer(r"\d+", text)
        )  # fmt: skip
        q = Quantity(QKind.RECORD, text, m.start(), m.end(), key=record_key(text), parts=parts)
        state.add(q)
        if state.report_text:  # a report's "7 - 8" also holds 7 and 8 for a claim to cite
            state.found.extend(parts)


_COUNT = r"(\d+|" + "|".join(sorted(lexicon.NUMBER_WORDS, key=len, reverse=True)) + r")"
_RATIO = re.compile(
    r"(?<![\w.-])"
    + _COUNT
    + r"(?:\s+[a-z]+)?\s+(?:in|of\s+every|out\s+of\s+every)\s+"
    + _COUNT
    + r"(?![\w%]|\.\d)",
    re.I,
)
_FRACTION = re.compile(
    r"(?<![\w-])(?:(a|one|two|three|four)\s+)?(half|thirds?|quarters?|fifths?|tenths?)"
    r"(?![\w-])",
    re.I,
)
_DENOMINATORS = {"half": 2, "third": 3, "quarter": 4, "fifth": 5, "tenth": 10}
_AND_A_HALF = re.compile(r"(?<![\w.-])" + _COUNT + r"\s+and\s+a\s+half(?![\w-])", re.I)
_HALF_A = re.compile(r"(?<![\w-])half\s+a\s+(thousand|million|billion)(?![\w-])", re.I)
_DOZEN = re.compile(r"(?<![\w-])(?:a|one|two|three|half\s+a)\s+dozen(?![\w-])", re.I)


def _count(raw: str) -> int:
    return int(raw) if raw.isdigit() else lexicon.NUMBER_WORDS[raw.lower()]


def _share(state: _State, m: re.Match[str], numerator: int, denominator: int) -> None:
    """A share written as a ratio or fraction (``seven in ten``, ``a third``): a percent,
    to half a unit of its denominator (``seven in ten`` is 70% ± 5)."""
    if not 0 < numerator <= denominator or not state.free(*m.span()):
        return
    value = Decimal(100 * numerator) / denominator
    tolerance = Decimal(50) / denominator
    state.add(
        Quantity(QKind.PERCENT, m.group(0), m.start(), m.end(), value=value,
                 tolerance=min(tolerance, Decimal(5)), share=True)
    )  # fmt: skip


def _ratios(state: _State) -> None:
    """``seven in ten``, ``one call in eight``, ``1 in 5``, ``a third``, ``three quarters``,
    ``half``; ``a dozen`` is 12."""
    for m in _AND_A_HALF.finditer(state.masked):
        if state.free(*m.span()):
            value = Decimal(_count(m.group(1))) + Decimal("0.5")
            state.add(Quantity(QKind.NUMBER, m.group(0), m.start(), m.end(), value=value))
    for m in _HALF_A.finditer(state.masked):
        if state.free(*m.span()):
            scale = _SCALES[m.group(1).lower()]
            state.add(
                Quantity(QKind.NUMBER, m.group(0), m.start(), m.end(), value=scale / 2,
                         tolerance=scale / 20)
            )  # fmt: skip
    for m in _RATIO.finditer(state.masked):
        _share(state, m, _count(m.group(1)), _count(m.group(2)))
    for m in _FRACTION.finditer(state.masked):
        part = m.group(2).lower()
        if m.group(1) is None and part != "half":
            continue  # "the third round", "rank fifth": an ordinal, not a share
        head = (m.group(1) or "a").lower()
        base = _DENOMINATORS[part.rstrip("s")]
        numerator = 1 if head in ("a", "one") else lexicon.NUMBER_WORDS[head]
        if part.endswith("s") != (numerator > 1) and part != "half":
            continue
        _share(state, m, numerator, base)
    for m in _DOZEN.finditer(state.masked):
        head = m.group(0).lower().split()[0]
        n = {"a": 12, "one": 12, "two": 24, "three": 36, "half": 6}[head]
        if state.free(*m.span()):
            state.add(Quantity(QKind.NUMBER, m.group(0), m.start(), m.end(), value=Decimal(n)))


def _is_identifier(token: str) -> bool:
    has_letter = any(c.isalpha() for c in token)
    has_digit = any(c.isdigit() for c in token)
    if not (has_letter and has_digit):
        return False
    return not (_NUMBER_WITH_SUFFIX.match(token) or _WORD_THEN_NUMBER.match(token))


def _identifiers(state: _State) -> None:
    for m in _TOKEN.finditer(state.masked):
        token = m.group(0)
        if not _is_identifier(token):
            continue
        if token.lower() in lexicon.GENERIC_IDENTIFIERS:
            if not re.fullmatch(r"p\d+", token, re.I):
                state.mask(*m.span())  # vocabulary: neither a number nor a name
            continue
        state.identifiers.append(Span(m.start(), m.end(), token))
        state.mask(*m.span())


def _numbers(state: _State) -> None:
    for m in _NUMBER.finditer(state.masked):
        q = _number(state.text, m)
        if q is not None:
            state.add(q)


def _number(text: str, m: re.Match[str]) -> Quantity | None:
    raw = m.group("num")
    try:
        mantissa = _decimal(raw)
    except InvalidOperation:
        return None
    cur_raw = (m.group("cur_pre") or "").strip() or (m.group("cur_suf") or "")
    currency = _CURRENCIES.get(cur_raw.lower()) if cur_raw else None
    end = m.end()
    scale_raw = m.group("scale")
    if scale_raw in _CURRENCY_ONLY_SCALES and not currency:  # lower-case m, b, mm
        scale_raw = None
        end = m.end("num")
    scale = _SCALES[scale_raw.lower()] if scale_raw else Decimal(1)
    pct_raw = m.group("pct") if end > m.end("num") else None
    unit_raw = m.group("unit") if end > m.end("num") else None
    start = m.start()
    sign, start = _sign(text, start)
    unit_tol = _half_unit(mantissa)
    value = mantissa * scale
    tolerance = unit_tol * scale
    kind = QKind.CURRENCY if currency else QKind.NUMBER
    if pct_raw:
        factor = _PERCENT_FACTORS.get(re.sub(r"\s+", " ", pct_raw.lower()), Decimal(1))
        value, tolerance, kind = value * factor, tolerance * factor, QKind.PERCENT
    unit = unit_key(unit_raw) if unit_raw and not pct_raw and not currency else None
    if unit is not None and unit not in UNITS:
        unit = None
    year_like = (
        kind is QKind.NUMBER
        and unit is None
        and scale_raw is None
        and m.group("ord") is None
        and re.fullmatch(r"\d{4}", raw) is not None
        and 1900 <= int(raw) <= 2100
    )
    return Quantity(
        kind, text[start:end], start, end, value=-value if sign == "-" else value,
        tolerance=tolerance, currency=currency, unit=unit, explicit_sign=sign is not None,
        year_like=year_like,
    )  # fmt: skip


def _sign(text: str, start: int) -> tuple[str | None, int]:
    """An explicit ``-``/``+`` just before ``start`` that is not glued to a word."""
    i = start - 1
    if i >= 0 and text[i] in "-+":
        before = text[i - 1] if i > 0 else " "
        if not (before.isalnum() or before in "-+."):
            return text[i], i
    return None, start


def _number_words(state: _State) -> None:
    for m in _NUMBER_WORD.finditer(state.masked):
        first = m.group(1).lower()
        optional = first in lexicon.OPTIONAL_NUMBER_WORDS and not state.report_text
        end = m.end()
        after = state.masked[end : end + 12]
        unit_word = _TIME_UNIT_WORD.match(after)
        if after.startswith("-") and not unit_word:
            continue
        value = lexicon.NUMBER_WORDS[first]
        second = m.group(2)
        if second:
            if first not in _TENS:
                end = m.end(1)
            else:
                value += lexicon.NUMBER_WORDS[second.lower()]
        amount = Decimal(value)
        tolerance = Decimal("0.5")
        scale_word = m.group(3) if end == m.end() else None
        if scale_word:
            scale = _SCALES[scale_word.lower()]
            amount, tolerance = amount * scale, tolerance * scale
        start = m.start()
        unit = None
        if unit_word and end == m.end():
            unit, end = unit_word.group(1).lower(), end + unit_word.end()
        q = Quantity(
            QKind.NUMBER, state.text[start:end], start, end, value=amount, tolerance=tolerance,
            unit=unit, optional=optional,
        )  # fmt: skip
        if state.free(start, end):
            state.add(q)


_RULES: tuple[Callable[[_State], None], ...] = (
    _percentiles,
    _dates,
    _periods,
    _records,
    _ratios,
    _scores,
    _identifiers,
    _numbers,
    _number_words,
)


# --- context: bounds, hedges, directions -----------------------------------------------


def _with_context(text: str, quantities: list[Quantity]) -> list[Quantity]:
    out = []
    for i, q in enumerate(quantities):
        if q.kind not in (QKind.NUMBER, QKind.PERCENT, QKind.CURRENCY):
            out.append(q)
            continue
        prev_end = quantities[i - 1].end if i else 0
        next_start = quantities[i + 1].start if i + 1 < len(quantities) else len(text)
        before = text[prev_end : q.start]
        bound, hedge_len = _bound(before)
        tolerance = _hedged(q) if bound == "hedge" else q.tolerance
        direction = (
            None
            if q.explicit_sign or q.share
            else _direction(before[: len(before) - hedge_len], text[q.end : next_start])
        )
        out.append(
            replace(
                q,
                bound="eq" if bound == "hedge" else bound,
                tolerance=tolerance,
                direction=direction,
            )
        )
    return out


def _bound(before: str) -> tuple[Bound | Literal["hedge"], int]:
    """The bound or hedge phrase right before a number, and its length in ``before``."""
    m = _BOUND_TAIL.search(before)
    if m is None:
        return "eq", 0
    phrase = re.sub(r"\s+", " ", m.group(1).lower())
    length = len(before) - m.start(1)
    bound = _BOUND_NAMES.get(lexicon.BOUNDS.get(phrase, ""))
    return (bound, length) if bound is not None else ("hedge", length)


def _hedged(q: Quantity) -> Decimal:
    """Tolerance of a hedged integer: its trailing zeros are not significant."""
    digits = re.sub(r"\D", "", q.text.split(".")[0])
    if "." in q.text or not digits or set(digits) == {"0"}:
        return q.tolerance
    zeros = len(digits) - len(digits.rstrip("0"))
    return q.tolerance * Decimal(10) ** zeros


def _clause_words(segment: str, *, backward: bool, limit: int) -> list[str]:
    """Words of ``segment`` nearest the number, up to a clause break or ``limit`` words."""
    parts = _SENTENCE_CUT.split(segment)
    segment = parts[-1] if backward else parts[0]
    if not backward:
        segment = segment.split(",", 1)[0]
    tokens = words(segment)
    ordered = list(reversed(tokens)) if backward else tokens
    out: list[str] = []
    for token in ordered:
        if token in lexicon.CLAUSE_BREAKS or len(out) == limit:
            break
        out.append(token)
    return out


def _direction(before: str, after: str) -> Direction | None:
    back = _clause_words(before, backward=True, limit=5)
    if any(w in lexicon.NEGATORS for w in back):
        return "down"
    if back and back[0] in lexicon.LEVEL_MARKERS:
        return None
    for i, word in enumerate(back):
        if i + 1 < len(back) and back[i + 1] in lexicon.PHRASAL_HEADS:
            continue  # "turn down", "shut down": a verb, not a direction
        found = _direction_of(word, None)
        if found:
            return found
    ahead = _clause_words(after, backward=False, limit=3)
    for i, word in enumerate(ahead):
        found = _direction_of(word, ahead[i + 1] if i + 1 < len(ahead) else None)
        if found:
            return found
    return None


def _direction_of(word: str, following: str | None) -> Direction | None:
    if word in lexicon.DIRECTION_DOWN and not (word.startswith("drop") and following == "off"):
        return "down"
    if word in lexicon.DIRECTION_UP:
        return "up"
    return None


# --- report values -----------------------------------------------------------------------


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


def field_hints(path: str) -> FieldHints:
    """Hints from the path: ``…_pct`` is in percent, ``…_usd`` is USD, ``…_days`` is days,
    ``…rate``/``…margin`` below 1 is a fraction, ``scores.max`` is a scale."""
    all_words = path_words(path)
    key = path_words(path.rsplit(".", 1)[-1]) if all_words else []
    last = key[-1] if key else ""
    percent = bool(lexicon.PERCENT_PATH_WORDS & set(key))
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
    """The quantities one stored number stands for, read with its field's hints."""
    direction: Direction | None = "down" if hints.negative and value > 0 else None
    if hints.percent:
        kind = QKind.PERCENT
    elif hints.currency:
        kind = QKind.CURRENCY
    else:
        kind = QKind.NUMBER
    year_like = value == value.to_integral_value() and 1900 <= value <= 2100
    yield Quantity(
        kind, text, value=value, currency=hints.currency, direction=direction,
        unit=unit_key(hints.unit) if hints.unit and kind is QKind.NUMBER else None,
        fraction=hints.fraction and abs(value) <= 1, is_scale=hints.scale, year_like=year_like,
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
