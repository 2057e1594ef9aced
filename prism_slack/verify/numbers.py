"""The verifier's number grammar: ``scan`` finds every quantity and identifier in a text.

The pieces: ``quantity`` (what a quantity is), ``calendar`` (dates and periods),
``spoken`` (records, shares and number words), ``context`` (bounds, hedges, directions),
``fields`` (report values read with their field path).

A text is scanned by the rules below, in this order; each match masks its span so a later
rule cannot read the same characters again (``FND-3`` is an identifier, so its ``3`` is
never a count; ``2026-03-09`` is a date, so ``03`` is never a number).

1. percentile   ``75th percentile`` → the measure word ``p75`` (not a quantity).
2. dates        ``2026-03-09`` (and with a time), ``2026-03``, ``2026/03/09``,
                ``03/09/2026`` (both month-first and day-first readings are kept),
                ``March 9, 2026``, ``Mar. 9th 2026``, ``9 March 2026``, ``9th of March``,
                ``March 2026``, ``March 9``, table forms (``1984 - 06 - 09``,
                ``3 / 30 / 07``, ``08 - 02 - 2008``, ``14.09.07``) and a bare month name
                (a bare ``May`` only after a temporal word such as ``in``). A bare
                month is capitalised; before a day or a year any case reads
                (``march 15``, as tables write it).
3. periods      ``Q1 2026``, ``Q1'26``, ``Q1-26``, ``Q1 FY26``, ``1Q26``, ``FY2025``,
                ``FY 25``, ``FY2026 Q1``, ``fiscal 2025``, ``fiscal year 2025``, ``H1 2026``,
                ``first quarter of 2026``, ``second half of 2025``, ``mid-2026`` (May to
                August); a bare ``Q3``/``H1``.
                Two-digit years need an apostrophe, a hyphen or ``FY``.
4. records      a score, record, range or clock string taken whole: ``7 - 8``,
                ``1:56.85``, ``1.56.85``, ``10-20``. It matches a cited value holding the
                same string (``.``/``:`` alike, spaces ignored), else each of its numbers
                on its own; a report's record string also holds its numbers.
5. shares       ``seven in ten``, ``one call in eight``, ``1 in 5``, ``a third``, ``two
                thirds``, ``three quarters``, ``half`` → a percent to half a unit of the
                denominator (``seven in ten`` is 70% ± 5), a level (never a change);
                ``a dozen`` is 12, ``nine and a half`` 9.5, ``half a million`` 500,000.
6. scores       ``7 out of 10``, ``7/10``, ``7.5 / 10``: a value no greater than its scale
                (so ``24/7`` is not a score).
7. identifiers  a token mixing letters and digits (``F2``, ``M10``, ``GA4``, ``FND-3``,
                ``S/4HANA``, ``Five9``) — unless it is a number with a unit suffix (``10M``,
                ``2.9s``, ``3x``, ``4th``) or a lower-case word hyphenated to a number
                (``batch-2026``, ``top-10``). Masked and reported; never a quantity.
                A few vocabulary tokens (``B2B``, ``2FA``, ``p95``) are neither.
8. numbers      [sign] [currency] digits [scale] [percent] [currency] [unit] [ordinal]
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
9. number words ``one`` … ``ninety``, ``twenty-five``, optionally followed by ``thousand``/
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
  five words before it in the same clause, or three after it. A number right after ``to``,
  ``from`` or ``at`` is a level, not a change (``fell from 12% to 10%``); ``down`` after a
  phrasal verb (``turn down``) is no direction.

Shown precision: a claim's tolerance is half a unit of its last shown digit, after scale —
``$4.1M`` is 4,100,000 ± 50,000, ``3.7%`` is 3.7 ± 0.05, ``1,200`` is 1,200 ± 0.5.
Report values are taken as exact.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from prism_slack import language
from prism_slack.verify import lexicon
from prism_slack.verify.calendar import date_ranges, dates, periods
from prism_slack.verify.context import with_context
from prism_slack.verify.quantity import (
    _CURRENCY_ONLY_SCALES,
    _PERCENT_FACTORS,
    _SCALES,
    CURRENCIES,
    CURRENCY_CODES,
    MASK,
    UNITS,
    DatePoint,
    Period,
    QKind,
    Quantity,
    Scan,
    ScanState,
    Span,
    _decimal,
    _half_unit,
    unit_key,
)
from prism_slack.verify.spoken import number_words, ratios, record_key, records
from prism_slack.verify.text import fold

__all__ = [
    "MASK",
    "UNITS",
    "DatePoint",
    "Period",
    "QKind",
    "Quantity",
    "Scan",
    "Span",
    "extract_quantities",
    "record_key",
    "scan",
]

_PERCENTILE = re.compile(r"(?<![\w.])(\d{1,2})(?:st|nd|rd|th)[\s-]+percentile\b", re.I)

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
    (?P<cur_pre>(?:US|AU|CA|NZ|HK|A|C|S|R)\$|\$|€|£|(?:CODES)\s?)?
    (?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?
        # thousands set apart by spaces, but not an identifier's digit groups (ABN 37 002)
        |(?<!\d[ \u00a0\u2009\u202f])(?<!\b(?!(?:CODES)\b)[A-Z]{3}\s)(?<!\b[A-Z]{2}\s)
        (?<!\b[A-Z]{4}\s)(?<![Nn]o\.\s)\d{1,3}(?:[ \u00a0\u2009\u202f]\d{3}){1,2}(?![\d.,]?\s?\d)
        |\d+(?:\.\d+)?|\.\d+)
    (?![\d])
    (?:\s?(?P<scale>thousand|million|billion|trillion|bn|mn|tn|mm|MM|[kKMBTmb])(?![A-Za-z0-9]))?
    (?:\s?(?P<pct>%|per\s?cent(?!ile)|percent(?:age\s+points?)?(?!ile)|pct|pp|
        percentage\s+points?|bps|basis\s+points?)(?![A-Za-z]))?
    (?:\s?(?P<cur_suf>CODES|dollars?|euros?)(?![A-Za-z]))?
    (?:[\s-]?(?:(?:working|business|calendar|school|trading)\s)?(?P<unit>ms|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|d|
        days?|weeks?|months?|years?|x|times|KB|MB|GB|TB|PB|[kMGT]Wh|[kMG]W)(?![A-Za-z0-9])
        (?![\s-]+(?:on|over)[\s-]+(?:year|quarter|month|week|day)\b))?  # "3.6% year on year"
    (?P<ord>st|nd|rd|th)?(?![A-Za-z])
    """.replace("CODES", "|".join(CURRENCY_CODES)),
    re.X,
)


def scan(text: str, *, report_text: bool = False) -> Scan:
    """Find every quantity and identifier in ``text`` (see the module grammar).

    ``report_text`` reads a report value rather than a claim: ``one`` is a number to match.
    """
    folded = fold(text)
    state = ScanState(folded, list(folded), report_text)
    for rule in _RULES if any(map(str.isdigit, folded)) else _WORD_RULES:
        rule(state)
    quantities = sorted(state.found, key=lambda q: q.start)
    quantities = with_context(folded, quantities)
    return Scan(folded, state.masked, tuple(quantities), tuple(state.identifiers))


def extract_quantities(text: str) -> list[Quantity]:
    """The quantities a claim text states, in order."""
    return list(scan(text).quantities)


def _percentiles(state: ScanState) -> None:
    for m in _PERCENTILE.finditer(state.masked):
        word = f"p{int(m.group(1))}"
        start, end = m.span()
        state.write(start, word.ljust(end - start))


def _scores(state: ScanState) -> None:
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


@lru_cache(maxsize=65536)
def _is_identifier(token: str) -> bool:
    if token.isalpha() or token.isdigit():
        return False
    if not (any(c.isalpha() for c in token) and any(c.isdigit() for c in token)):
        return False
    if _NUMBER_WITH_SUFFIX.match(token) or _WORD_THEN_NUMBER.match(token):
        return False
    if _NUMBER_TO_NUMBER.fullmatch(token):  # a range said in words: "a 1-to-7 scale"
        return False
    group = _WORD_AND_GROUP.match(token)  # "Under-35s", "Top-10": an English word, a number
    return group is None or language.zipf(group.group(1)) < ENGLISH_WORD_ZIPF


_NUMBER_TO_NUMBER = re.compile(r"\d+(?:\.\d+)?-to-\d+(?:\.\d+)?")
_WORD_AND_GROUP = re.compile(r"^([A-Za-z]{3,})-\d+s?$")
ENGLISH_WORD_ZIPF = 4.0
"""A word this common joined to a number (``Under-35s``) makes no identifier."""


def _identifiers(state: ScanState) -> None:
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


def _numbers(state: ScanState) -> None:
    carried: Quantity | None = None
    for m in _NUMBER.finditer(state.masked):
        # "NZD 6.1m, from 7.4m": a currency carries to a bare amount later in its sentence
        if carried is not None and _SENTENCE_BREAK.search(state.text, carried.end, m.start()):
            carried = None
        q = _number(state.text, m, carried.currency if carried is not None else None)
        if q is None:
            continue
        if q.kind is QKind.CURRENCY:
            carried = q
        bare = q.kind is QKind.NUMBER and q.unit is None and not q.explicit_sign
        if not state.report_text and bare and q.text == "1" and _pronoun(state.text, q):
            q = replace(q, optional=True)  # "1 of the", "not 1": a pronoun, not a count
        state.add(q)


def _pronoun(text: str, q: Quantity) -> bool:
    """Is this ``1`` the pronoun ``one`` (``1 of the options``, ``not 1``, ``no 1``)?"""
    after = text[q.end : q.end + 4].lower()
    before = text[max(0, q.start - 5) : q.start].lower().split()
    return after.startswith(" of ") or (bool(before) and before[-1] in ("no", "not", "only"))


_SENTENCE_BREAK = re.compile(r"[.;!?](?:\s|$)")
_NEXT_WORD = re.compile(r"\s*([A-Za-z]+)")


def _number(text: str, m: re.Match[str], carried: str | None = None) -> Quantity | None:
    """The quantity ``m`` found; ``carried``: the currency of an amount earlier in the same
    sentence, which a bare ``7.4m`` is in."""
    raw = m.group("num")
    try:
        mantissa = _decimal(raw)
    except InvalidOperation:
        return None
    cur_raw = (m.group("cur_pre") or "").strip() or (m.group("cur_suf") or "")
    currency = CURRENCIES.get(cur_raw.lower()) if cur_raw else None
    end = m.end()
    scale_raw = m.group("scale")
    if scale_raw in _CURRENCY_ONLY_SCALES and not currency and carried:
        after = _NEXT_WORD.match(text, m.end())
        if after is None or after.group(1).lower() in lexicon.AMOUNT_LINKS:  # not "3m users"
            currency = carried
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


_RULES: tuple[Callable[[ScanState], None], ...] = (
    _percentiles,
    dates,
    date_ranges,
    periods,
    records,
    ratios,
    _scores,
    _identifiers,
    _numbers,
    number_words,
)
_DIGIT_RULES = frozenset({_percentiles, records, _scores, _identifiers, _numbers})
"""Rules every form of which has a digit: in a text with no ``str.isdigit`` character (so
no ``\\d`` either) they find nothing."""
_WORD_RULES = tuple(rule for rule in _RULES if rule not in _DIGIT_RULES)
"""The rules that can read a text with no digit: month names, periods, shares, number
words."""
