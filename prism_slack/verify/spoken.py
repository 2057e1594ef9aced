"""Numbers as people write them (rules 4b, 4c and 7 of the grammar in ``numbers``):
score, record, range and clock strings taken whole (``7 - 8``, ``1:56.85``, a season
``2004 - 05``); shares in
words (``seven in ten``, ``one call in eight``, ``a third``, ``three quarters``, ``half``),
``a dozen``, ``nine and a half``, ``half a million``, ``a quarter of a million``,
``an hour and thirty-four minutes``; and
number words (``twenty-five thousand``, ``two hundred and twelve``, ``twenty - three`` as
tables space it; ``eleven - nine`` is two numbers)."""

from __future__ import annotations

import re
from decimal import Decimal

from text_to_num import text2num

from prism_slack.verify import lexicon
from prism_slack.verify.quantity import _SCALES, UNITS, QKind, Quantity, ScanState

_NUMBER_WORD_ALT = "|".join(sorted(lexicon.NUMBER_WORDS, key=len, reverse=True))
_NUMBER_WORD = re.compile(
    r"(?<![\w-])("
    + _NUMBER_WORD_ALT
    + r")(?:(?:-|\s|(?<=ty) - )(one|two|three|four|five|six|seven|eight|"
    r"nine))?(?:\s+(thousand|million|billion))?(?![\w])",
    re.I,
)
_SPOKEN_TOKEN = rf"(?:{_NUMBER_WORD_ALT}|hundred|thousand|million|billion)"
_SPOKEN_RUN = re.compile(
    rf"(?<![\w-])(?:an?\s+)?{_SPOKEN_TOKEN}(?:(?:\s*,\s*|\s+and\s+|\s+|-){_SPOKEN_TOKEN})*"
    r"(?![\w-])",
    re.I,
)
"""A run of number words around ``hundred``, ``thousand``… that ``text2num`` reads as one
number: ``two hundred and twelve``, ``a hundred``, ``four hundred and eighty-six
thousand, two hundred``."""
_MULTIPLIER = re.compile(r"\b(?:hundred|thousand|million|billion)\b", re.I)
_TENS = frozenset(w for w, n in lexicon.NUMBER_WORDS.items() if n >= 20)
_TIME_UNIT_WORD = re.compile(r"(?:-|\s+)((?:second|minute|hour|day|week|month|year)s?)\b", re.I)
"""A time unit right after a number word: ``three minutes``, ``a three-year deal``."""


DASHED = re.compile(r"\d+(?:\s*-\s*\d+)+")
"""A record of numbers joined by dashes: ``7 - 8``, ``5 - 0 - 1``."""
_RECORD = re.compile(
    rf"(?<![\w.:/-])(?:\d+(?:[.:]\d+){{2,}}|\d+:\d+(?:\.\d+)?"
    rf"|{DASHED.pattern})(?![\w:/-]|\.\d)"
)


_SEASON = re.compile(r"((?:1[89]|20)\d\d)-((?:1[89]|20)?\d\d)")


def record_key(text: str) -> str:
    """``1:56.85`` and ``1.56.85`` → ``1:56:85``; ``7 - 8`` → ``7-8``; a season written
    in full or short (``2004 - 2005``, ``2004 - 05``) → ``2004-05``. Numbers a space
    apart stay apart (``07 0 - 6`` → ``07 0-6``)."""
    key = re.sub(r"[.:]", ":", re.sub(r"(?<!\d)\s+|\s+(?!\d)", "", text))
    key = re.sub(r"\s+", " ", key)
    season = _SEASON.fullmatch(key)
    if season is not None:
        start, end = season.groups()
        if int(end[-2:]) == (int(start) + 1) % 100 and (len(end) == 2 or int(end) > int(start)):
            return f"{start}-{end[-2:]}"
    return key


def records(state: ScanState) -> None:
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
    + r"(?:\s+[a-z]+){0,3}?\s+(?:in|of\s+every|out\s+of\s+every)\s+"
    + _COUNT
    + r"(?![\w%]|\.\d)",
    re.I,
)
_YEAR = re.compile(r"1[89]\d\d|20\d\d")
_FRACTION = re.compile(
    r"(?<![\w-])(?:(a|one|two|three|four)(?:\s+|-))?(half|thirds?|quarters?|fifths?|tenths?)"
    r"(?![\w-])",
    re.I,
)
_DENOMINATORS = {"half": 2, "third": 3, "quarter": 4, "fifth": 5, "tenth": 10}
_TENS_AND = r"(?:(?:" + "|".join(sorted(_TENS)) + r")[-\s]+)?"
_AND_A_HALF = re.compile(
    r"(?<![\w.-])("
    + _TENS_AND
    + _COUNT
    + r")\s+and\s+a\s+half(?:\s+(?P<scale>thousand|million|billion|trillion))?"
    r"(?:\s+(?P<money>dollars|euros|pounds))?(?:\s+(?P<unit>"
    + "|".join(sorted(UNITS, key=len, reverse=True))
    + r"))?(?![\w-])",
    re.I,
)
"""``nine and a half hours``, ``three and a half billion dollars``: the whole and a half,
shown to the half, in its scale and currency."""
_SPOKEN_SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}
_SPOKEN_CURRENCIES = {"dollars": "USD", "euros": "EUR", "pounds": "GBP"}
_PART_OF_A = re.compile(
    r"(?<![\w-])(?:(a|one|two|three|four)(?:\s+|-))?(half|thirds?|quarters?|fifths?|tenths?)"
    r"\s+(?:of\s+)?a\s+(thousand|million|billion)(?![\w-])",
    re.I,
)
"""``half a million``, ``a quarter of a million``, ``three quarters of a billion``: that
part of the scale, to a tenth of itself."""
_ONE_UNIT = re.compile(
    r"\b(?:over|under|than|about|nearly|almost|within|by|least|most|roughly|around)\s+"
    r"((?:a\s+full|a|an)\s+(second|minute|hour|day|week|month|year))\b",
    re.I,
)
"""``over a second``, ``lag by a full day``: one of a unit (after a bound, hedge or ``by``,
so ``a second meeting`` and ``once a day`` are not read)."""
_NUMBER_PHRASE = (
    rf"(?:\d+|{_NUMBER_WORD_ALT})(?:-(?:one|two|three|four|five|six|seven|eight|nine))?"
)
_COMPOUND_DURATION = re.compile(
    rf"(?<![\w-])(an|a|{_NUMBER_PHRASE})\s+(hour|minute)s?\s+(?:and\s+)?({_NUMBER_PHRASE})\s+"
    r"(minute|second)s?(?![\w-])",
    re.I,
)
"""``an hour and thirty-four minutes``, ``3 minutes 32 seconds``: one duration, in the
smaller unit."""
_UNIT_WORD = r"(second|minute|hour|day|week|month|year)s?"
_UNIT_AND_A_HALF = re.compile(
    rf"(?<![\w-])(an|a|{_NUMBER_PHRASE})\s+{_UNIT_WORD}\s+and\s+a\s+half(?![\w-])", re.I
)
"""``a day and a half``, ``a year and a half``, ``two hours and a half``: the units and a half."""
_PART_OF_UNIT = re.compile(
    r"(?<![\w-])(half|a\s+quarter|three\s+quarters|a\s+third|two\s+thirds)\s+(?:of\s+)?"
    rf"(?:an?)\s+{_UNIT_WORD}(?![\w-])",
    re.I,
)
"""``half a year``, ``three quarters of an hour``, ``a quarter of an hour``: that part of one
unit, to a tenth of itself."""
_PARTS = {"half": Decimal("0.5"), "a quarter": Decimal("0.25"), "three quarters": Decimal("0.75"),
          "a third": Decimal(1) / 3, "two thirds": Decimal(2) / 3}  # fmt: skip
_CLOCK_DURATION = re.compile(
    r"(?<![\w.])(\d{1,3})\s?h(?:rs?)?\s?(\d{1,2})\s?m(?:ins?)?(?![\w-])", re.I
)
"""``2h 10m``, ``3 h 40 min``: hours and minutes, in minutes."""
_DOZEN = re.compile(r"(?<![\w-])(?:a|one|two|three)\s+dozen(?![\w-])", re.I)


def _count(raw: str) -> int:
    return int(raw) if raw.isdigit() else lexicon.NUMBER_WORDS[raw.lower()]


def _share(state: ScanState, m: re.Match[str], numerator: int, denominator: int) -> None:
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


def ratios(state: ScanState) -> None:
    """``seven in ten``, ``one call in eight``, ``1 in 5``, ``a third``, ``three quarters``,
    ``half``; ``a dozen`` is 12."""
    lower = state.masked.lower()
    parts = any(w in lower for w in ("half", "third", "quarter", "fifth", "tenth"))
    for m in _UNIT_AND_A_HALF.finditer(state.masked) if "half" in lower else ():
        if state.free(*m.span()):
            value = _phrase_value(m.group(1)) + Decimal("0.5")
            state.add(Quantity(QKind.NUMBER, m.group(0), m.start(), m.end(), value=value,
                               unit=m.group(2).lower(), tolerance=Decimal("0.25")))  # fmt: skip
    for m in _PART_OF_UNIT.finditer(state.masked) if parts else ():
        if state.free(*m.span()):
            value = _PARTS[" ".join(m.group(1).lower().split())]
            state.add(Quantity(QKind.NUMBER, m.group(0), m.start(), m.end(), value=value,
                               unit=m.group(2).lower(), tolerance=value / 10))  # fmt: skip
    for m in _AND_A_HALF.finditer(state.masked) if parts else ():
        if state.free(*m.span()):
            whole = m.group(1)
            count = Decimal(whole) if whole.isdigit() else _spoken_value(whole)[0]
            scale = Decimal(_SPOKEN_SCALES[m["scale"].lower()]) if m["scale"] else Decimal(1)
            value = (count + Decimal("0.5")) * scale  # "26 and a half", "3 and a half billion"
            currency = _SPOKEN_CURRENCIES[m["money"].lower()] if m["money"] else None
            unit = m["unit"].lower() if m["unit"] and not currency else None
            half = Decimal("0.25") * scale  # shown to the half
            kind = QKind.CURRENCY if currency else QKind.NUMBER
            q = Quantity(kind, m.group(0), m.start(), m.end(), value=value, unit=unit,
                         currency=currency, tolerance=half)  # fmt: skip
            state.add(q)
    for m in _PART_OF_A.finditer(state.masked) if parts else ():
        head, part = (m.group(1) or "a").lower(), m.group(2).lower()
        numerator = 1 if head in ("a", "one") else lexicon.NUMBER_WORDS[head]
        if state.free(*m.span()) and (part.endswith("s") == (numerator > 1) or part == "half"):
            value = _SCALES[m.group(3).lower()] * numerator / _DENOMINATORS[part.rstrip("s")]
            state.add(
                Quantity(QKind.NUMBER, m.group(0), m.start(), m.end(), value=value,
                         tolerance=value / 10)
            )  # fmt: skip
    for m in _RATIO.finditer(state.masked) if " in " in lower or "every" in lower else ():
        if _YEAR.fullmatch(m.group(2)):
            continue  # "a flat - 12 engine in 1976": a year, not a share
        _share(state, m, _count(m.group(1)), _count(m.group(2)))
    for m in _FRACTION.finditer(state.masked) if parts else ():
        part = m.group(2).lower()
        if m.group(1) is None and part != "half":
            continue  # "the third round", "rank fifth": an ordinal, not a share
        head = (m.group(1) or "a").lower()
        base = _DENOMINATORS[part.rstrip("s")]
        numerator = 1 if head in ("a", "one") else lexicon.NUMBER_WORDS[head]
        if part.endswith("s") != (numerator > 1) and part != "half":
            continue
        _share(state, m, numerator, base)
    for m in _ONE_UNIT.finditer(state.masked):
        start, end = m.span(1)
        if state.free(start, end):
            unit = m.group(2).lower()
            state.add(Quantity(QKind.NUMBER, m.group(1), start, end, value=Decimal(1), unit=unit))
    for m in _COMPOUND_DURATION.finditer(state.masked) if "minute" in lower else ():
        big, large, small, unit = m.groups()
        if (large.lower(), unit.lower()) not in (("hour", "minute"), ("minute", "second")):
            continue
        if state.free(*m.span()):
            value = _phrase_value(big) * 60 + _phrase_value(small)
            state.add(Quantity(QKind.NUMBER, m.group(0), m.start(), m.end(), value=value,
                               unit=f"{unit.lower()}s", tolerance=Decimal("0.5")))  # fmt: skip
    for m in _CLOCK_DURATION.finditer(state.masked):
        if state.free(*m.span()) and int(m.group(2)) < 60:
            value = Decimal(int(m.group(1)) * 60 + int(m.group(2)))
            state.add(Quantity(QKind.NUMBER, m.group(0), m.start(), m.end(), value=value,
                               unit="minutes", tolerance=Decimal("0.5")))  # fmt: skip
    for m in _DOZEN.finditer(state.masked) if "dozen" in lower else ():
        head = m.group(0).lower().split()[0]
        n = {"a": 12, "one": 12, "two": 24, "three": 36}[head]
        if state.free(*m.span()):
            state.add(Quantity(QKind.NUMBER, m.group(0), m.start(), m.end(), value=Decimal(n)))


def _phrase_value(phrase: str) -> Decimal:
    """``an``/``a`` is one; digits or number words as written."""
    if phrase.lower() in ("a", "an"):
        return Decimal(1)
    return Decimal(phrase) if phrase.isdigit() else _spoken_value(phrase)[0]


def _spoken_value(phrase: str) -> tuple[Decimal, str | None]:
    """The value of a number-word phrase (``twenty-five thousand`` → 25000, by
    ``text2num``), and the scale word that ends it, if any."""
    words = phrase.lower().replace("-", " ").split()
    scale = words[-1] if words[-1] in _SCALES else None
    return Decimal(text2num(" ".join(words), "en")), scale


def number_words(state: ScanState) -> None:
    for h in _SPOKEN_RUN.finditer(state.masked) if _MULTIPLIER.search(state.masked) else ():
        phrase = re.sub(r"^an?\b", "one", h.group(0).replace(",", " "), flags=re.I)
        one_word = phrase == h.group(0) and len(phrase.split()) == 1  # "hundred", "two"
        if one_word or not _MULTIPLIER.search(phrase) or not state.free(*h.span()):
            continue
        try:
            amount, scale_word = _spoken_value(phrase)
        except ValueError:
            continue  # "eleven , twelve": more than one number; read word by word below
        tolerance = Decimal("0.5") * (_SCALES[scale_word] if scale_word else 1)
        end, unit = h.end(), None
        if (unit_word := _TIME_UNIT_WORD.match(state.masked, end)) and state.free(end, end + 1):
            end, unit = unit_word.end(), unit_word.group(1).lower()
        q = Quantity(QKind.NUMBER, state.text[h.start() : end], h.start(), end, value=amount,
                     tolerance=tolerance, unit=unit)  # fmt: skip
        state.add(q)
    pos = 0
    while (m := _NUMBER_WORD.search(state.masked, pos)) is not None:
        pos = m.end()
        first = m.group(1).lower()
        optional = first in lexicon.OPTIONAL_NUMBER_WORDS and not state.report_text
        end = m.end()
        after = state.masked[end : end + 16]
        unit_word = _TIME_UNIT_WORD.match(after)
        if after.startswith("-") and not unit_word:
            continue
        if m.group(2) and first not in _TENS:
            end = pos = m.end(1)  # "two three", "six-four": two numbers, not one
        amount, scale_word = _spoken_value(state.text[m.start() : end])
        tolerance = Decimal("0.5") * (_SCALES[scale_word] if scale_word else 1)
        start = m.start()
        unit = None
        if unit_word and end == m.end():
            unit, end = unit_word.group(1).lower(), end + unit_word.end()
        q = Quantity(
            QKind.NUMBER, state.text[start:end], start, end, value=amount, tolerance=tolerance,
            unit=unit, optional=optional and unit is None,  # ``one month`` is a span
        )  # fmt: skip
        if state.free(start, end):
            state.add(q)
