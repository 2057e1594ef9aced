"""Dates and periods in text (rules 2 and 3 of the grammar in ``numbers``): ISO and
slashed dates, also spaced as table tokenizers write them (``1984 - 06 - 09``,
``3 / 30 / 07``, ``08 - 02 - 2008``; a report's two-digit year reads in either century);
dotted day-first dates (``14.09.07``); month names (any case before a day or year;
``14 november 12 december`` is two day-month dates); date ranges (``2025-02-01 to
2026-01-31``); quarters, halves, calendar and fiscal years."""

from __future__ import annotations

import calendar
import datetime as dt
import itertools
import re
from dataclasses import replace

from prism_slack.language import words
from prism_slack.verify import lexicon
from prism_slack.verify.quantity import DatePoint, Period, QKind, Quantity, ScanState

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


_ISO_DAY = re.compile(
    r"(?<![\w.])(\d{4})-(\d{2})-(\d{2})"
    r"(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?" + _END
)
_SPACED_ISO_DAY = re.compile(r"(?<![\w.])(1[89]\d\d|20\d\d) - (\d{1,2}) - (\d{1,2})" + _END)
"""``1984 - 06 - 09``, ``2014 - 02 - 1``: an ISO date as a table tokenizer spaces it."""
_SPACED_DMY = re.compile(r"(?<![\w.])(\d{1,2}) - (\d{1,2}) - (1[89]\d\d|20\d\d)" + _END)
"""``08 - 02 - 2008``: month-first or day-first, both readings kept."""
_DOTTED = re.compile(r"(?<![\w.:])(\d{2})\.(\d{2})\.(\d{4}|\d{2})(?![\w]|[.:]\d)")
"""``14.09.07``, ``19.10.1912``: a European day-first date (a sentence's ``.`` or ``:``
may follow it)."""
_ISO_MONTH = re.compile(r"(?<![\w.])(\d{4})-(\d{2})" + _END + r"(?!-\d)")
_YMD_SLASH = re.compile(r"(?<![\w./])(\d{4})/(\d{1,2})/(\d{1,2})(?![\w/])")
_AMBIGUOUS_SLASH = re.compile(
    r"(?<![\w./])(\d{1,2})( ?)/\2(\d{1,2})\2/\2(\d{4}|\d{2})(?![\w/])(?! ?/)"
)
"""``03/09/2026``, and ``3 / 30 / 07`` as a table tokenizer spaces it."""
_MONTH_DAY = re.compile(
    r"\b("
    + _MONTH
    + r")\s+(\d{1,2})"
    + _ORD
    + r"(?:\s*,?\s+(\d{4}))?"
    + _END
    + r"(?!\s+"
    + _MONTH
    + r"(?![a-z]))",
    re.I,
)
"""``March 9``, unless the day opens the next date (``14 november 12 december``)."""
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
_MONTH_SLASH_YEAR = re.compile(r"(?<![\w/.])(0?[1-9]|1[0-2])/((?:19|20)\d\d)(?![\w/])")
"""``03/2026``: a month and its year."""
_MONTH_DASH_YY = re.compile(r"\b(" + _MONTH + r")-(\d{2})(?![\w-])", re.I)
"""``Oct-21``: a month and a two-digit year of this century."""
_BARE_MONTH = re.compile(r"\b(" + _FULL_MONTH + r")\b")

_YEAR_TAIL = (
    r"(?:\s*(?:of\s+)?(?:(?P<fy>FY|[Ff]iscal(?:\s+[Yy]ear)?)\s*'?\s*(?P<fyy>\d{4}|\d{2})"
    r"|\s*['\-/]\s*(?P<yy>\d{2}|\d{4})|\s+(?:of\s+)?(?P<yyyy>\d{4})))?"
)
_QUARTER = re.compile(r"\b[Qq]([1-4])" + _YEAR_TAIL + _END)
_HALF = re.compile(r"\bH([12])" + _YEAR_TAIL + _END)
_YEAR_THEN_PART = re.compile(
    r"(?<![\w.-])((?:19|20)\d{2})\s?[-/ ]\s?(?:([Qq])([1-4])|([Hh])([12]))" + _END
)
"""A year written before its quarter or half (``2025-H1``, ``2025 Q3``)."""
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


def _add_date(state: ScanState, m: re.Match[str], *points: DatePoint) -> None:
    valid = tuple(p for p in points if _valid(p.year, p.month, p.day))
    if valid and state.free(*m.span()):
        state.add(_date_quantity(m, valid))


_ANY_MONTH = re.compile(r"\b" + _MONTH, re.I)


def dates(state: ScanState) -> None:
    masked = state.masked
    if not any(map(str.isdigit, masked)):  # every form but a bare month has a digit
        _bare_months(state)
        return
    for m in _ISO_DAY.finditer(state.masked):
        y, mo, d = (int(g) for g in m.groups())
        _add_date(state, m, DatePoint(y, mo, d))
    for m in _ISO_MONTH.finditer(state.masked):
        _add_date(state, m, DatePoint(int(m.group(1)), int(m.group(2))))
    for m in _YMD_SLASH.finditer(state.masked):
        y, mo, d = (int(g) for g in m.groups())
        _add_date(state, m, DatePoint(y, mo, d))
    for m in _MONTH_SLASH_YEAR.finditer(state.masked):  # "03/2026"
        _add_date(state, m, DatePoint(int(m.group(2)), int(m.group(1))))
    if " - " in state.masked:  # the spaced forms of tables
        for m in _SPACED_ISO_DAY.finditer(state.masked):
            y, mo, d = (int(g) for g in m.groups())
            _add_date(state, m, DatePoint(y, mo, d))
        for m in _SPACED_DMY.finditer(state.masked):
            a, b, y = (int(g) for g in m.groups())
            _add_date(state, m, DatePoint(y, a, b), DatePoint(y, b, a))
    for m in _AMBIGUOUS_SLASH.finditer(state.masked):
        a, b = int(m.group(1)), int(m.group(3))
        years = _years(state, int(m.group(4)))
        _add_date(state, m, *(DatePoint(y, *md) for y in years for md in ((a, b), (b, a))))
    for m in _DOTTED.finditer(state.masked):
        d, mo = int(m.group(1)), int(m.group(2))
        _add_date(state, m, *(DatePoint(y, mo, d) for y in _years(state, int(m.group(3)))))
    if not _ANY_MONTH.search(masked):
        return
    for m in _MONTH_DAY.finditer(state.masked):
        year = int(m.group(3)) if m.group(3) else None
        _add_date(state, m, DatePoint(year, _month(m.group(1)), int(m.group(2))))
    for m in _DAY_MONTH.finditer(state.masked):
        year = int(m.group(3)) if m.group(3) else None
        _add_date(state, m, DatePoint(year, _month(m.group(2)), int(m.group(1))))
    for m in _MONTH_YEAR.finditer(state.masked):
        _add_date(state, m, DatePoint(int(m.group(2)), _month(m.group(1))))
    for m in _MONTH_DASH_YY.finditer(state.masked):  # "Oct-21", as spreadsheets write it
        _add_date(state, m, DatePoint(2000 + int(m.group(2)), _month(m.group(1))))
    _bare_months(state)


def _bare_months(state: ScanState) -> None:
    for m in _BARE_MONTH.finditer(state.masked):
        if m.group(1) == "May" and not _after_temporal_word(state.text, m.start()):
            continue
        _add_date(state, m, DatePoint(None, _month(m.group(1))))


_RANGE_JOIN = re.compile(r"\s*(?:to|through|until|-|–|—)\s*", re.I)


def date_ranges(state: ScanState) -> None:
    """Two dates or months joined by ``to``/``through``/a dash (``2025-02-01 to
    2026-01-31``, ``Feb 2025 – Jan 2026``) are one period, a ``span`` of whole days: a
    quarter or a calendar year is that period only when its first and last days are the
    span's (``Q4 2025`` is no name for a whole year's figure)."""
    days = sorted(
        (q for q in state.found if q.kind is QKind.DATE and len(q.dates) == 1),
        key=lambda q: q.start,
    )
    for a, b in itertools.pairwise(days):
        first, last = a.dates[0], b.dates[0]
        if first.year is None or first.month is None or last.year is None or last.month is None:
            continue
        if not _RANGE_JOIN.fullmatch(state.text[a.end : b.start]):
            continue
        state.found.remove(a)
        state.found.remove(b)
        text = state.text[a.start : b.end]
        end_day = last.day or calendar.monthrange(last.year, last.month)[1]
        span = (DatePoint(first.year, first.month, first.day or 1), replace(last, day=end_day))
        period = Period(None, span=span)
        state.add(Quantity(QKind.PERIOD, text, a.start, b.end, dates=(first, last), period=period))


_CALENDAR_YEAR = re.compile(r"\bcalendar(?:\s+year)?\s+(\d{4})" + _END, re.I)
_PART_OF_YEAR = re.compile(r"\b(early|mid|late)[-\s]+((?:19|20)\d\d)" + _END, re.I)
_PART_MONTHS = {"early": (1, 4), "mid": (5, 8), "late": (9, 12)}
"""``early 2027``, ``mid-2027``, ``late 2027``: a third of the year, so a cited year alone
cannot say it (a date of that third can)."""


def _years(state: ScanState, yy: int) -> list[int]:
    """A two-digit year: a report's '07 may be 1907 or 2007; a claim's is 20yy."""
    if yy >= 100:
        return [yy]
    return [2000 + yy, 1900 + yy] if state.report_text else [2000 + yy]


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


def _add_period(state: ScanState, m: re.Match[str], period: Period) -> None:
    if state.free(*m.span()):
        state.add(Quantity(QKind.PERIOD, m.group(0), m.start(), m.end(), period=period))


_CALENDAR_NOTE = re.compile(r"\s*\(\s*(?:the\s+)?calendar\s+year\s*\)", re.I)
"""``FY2025 (calendar year)``: a fiscal year said to be the calendar year."""


def _fiscal(state: ScanState, *, with_part: bool) -> None:
    for m in _FISCAL.finditer(state.masked):
        quarter = int(m.group(2)) if m.group(2) else None
        half = int(m.group(3)) if m.group(3) else None
        if with_part and quarter is None and half is None:
            continue
        year = _two_digit_year(m.group(1))
        span = None
        if quarter is None and half is None and _CALENDAR_NOTE.match(state.masked, m.end()):
            span = (DatePoint(year, 1, 1), DatePoint(year, 12, 31))
        _add_period(state, m, Period(year, quarter, half, fiscal=True, span=span))


_ANY_PERIOD = re.compile(
    r"fy|fiscal|calendar|early|mid|late|quarter|half|\bq[1-4]|\bh[12]|[1-4]q", re.I
)
"""A word every period form has: where none is, no period rule can match."""


def periods(state: ScanState) -> None:
    if not _ANY_PERIOD.search(state.masked):
        return
    _fiscal(state, with_part=True)  # "FY2026 Q1" before "Q1 FY2026" before "FY2026"
    for m in _CALENDAR_YEAR.finditer(state.masked):
        _add_period(state, m, Period(int(m.group(1))))
    for m in _PART_OF_YEAR.finditer(state.masked):
        y = int(m.group(2))
        first, last = _PART_MONTHS[m.group(1).lower()]
        end = DatePoint(y, last, calendar.monthrange(y, last)[1])
        _add_period(state, m, Period(y, span=(DatePoint(y, first, 1), end)))
    for m in _QUARTER_WORDS.finditer(state.masked):
        n = lexicon.QUARTER_WORDS[m.group(1).lower()]
        year = int(m.group(4)) if m.group(4) else None
        fiscal = m.group(3) is not None
        if m.group(2).lower() == "quarter":
            _add_period(state, m, Period(year, quarter=n, fiscal=fiscal))
        elif n <= 2:
            _add_period(state, m, Period(year, half=n, fiscal=fiscal))
    for m in _YEAR_THEN_PART.finditer(state.masked):  # "2025-H1", "2025 Q3"
        year = int(m.group(1))
        if m.group(2):
            _add_period(state, m, Period(year, quarter=int(m.group(3))))
        else:
            _add_period(state, m, Period(year, half=int(m.group(5))))
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
