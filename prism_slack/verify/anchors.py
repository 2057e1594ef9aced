"""Whether a claim's quantity is warranted by the quantities of its cited fields (check 5).

Matching rules, claim quantity ``c`` against a cited quantity ``v``:

- numbers: ``|c - v| <= c.tolerance`` (half a unit of the claim's last shown digit);
  a claim number that drops the cited value's unit must state it exactly (``3 findings``
  is not ``2.9 s`` rounded).
  Percent ↔ fraction: a percent claim matches a field in percent units at face value
  and a stored fraction times 100 (``3.7%`` ⊨ ``churn_rate: 0.0366``; a plain value
  below 1 is only read as a fraction, ``0.742%`` ⊭ ``occupancy: 0.742``; a field whose
  key says ``pct`` is never read as a fraction); a plain claim number matches a percent
  field at face value or divided by 100 (``0.0211`` ⊨ ``2.11%``). Currencies must agree
  when both are known; a percent never matches money; units of one dimension convert
  (``2,900 ms`` ⊨ ``2.9 s``) and units of different dimensions never match.
- bounds: ``over 1,000`` ⊨ 1,187, within a factor of ten (``BOUND_REACH``); a cited
  bound warrants only a bound in the same direction that it implies
  (``under 12 months`` ⊨ ``under 12 months``); a bound a whole power of ten off is a
  slipped scale (``above $25,000`` for ``above $250,000``).
- signs: a claim with a direction word needs a cited value of that sign (``fell 5%`` ⊨
  -5.0, and ⊨ a positive value in a field whose path says loss/decline, or in report
  text that says it fell); ``rose 5%`` ⊭ -5.0; a claim with neither sign nor direction
  word is positive (``5% growth`` ⊭ -5.0).
- dates: the claim's span must contain the cited one (``March 2026`` ⊨ 2026-03-09;
  ``March 9, 2026`` ⊭ ``2026-03``; a year-like number ⊨ any date in that year, and a
  year inside a cited span of years, ``1982`` ⊨ ``1980 - 85``; a bounded year,
  ``before 1990``, ⊨ a date whose year is within the bound).
- periods: same quarter/half and year; a fiscal year needs a fiscal period; a calendar
  quarter or half also matches a cited date inside it.
- scores: the value matches (as a number) and the scale is cited — a score written with
  that scale, a scale field (``scores.max``), the same report sentence, or another cited
  number field of that value (``20 out of 22`` citing ``won: 20`` and ``played: 22``).
- counts: a whole number also matches the size of a cited list or object.
- path numbers: a number a field path names (``top_10_share_pct``) warrants only a plain
  number (``top 10``), never a percent, an amount or a measure (``10%``).
- stated scale: a count in millions (``6.66 million viewers``) matches a plain cited
  value with a fraction whose field states no scale (``viewers: 6.66``); never money, a
  unit, a percent, a billion or a whole cited number.
- key words: a number that is part of a cited field's key (``1st`` of ``1st_prize``,
  ``28 aug`` of ``fri_28_aug``, ``1990 - 2000`` of ``percent_change_1990_2000``) with
  another word of that key within ``KEY_REACH`` content words (``the prize money for
  1st place``) names the field, not a value: it needs no value of its own (``in_key``;
  plain numbers, dates and records only: a percent or an amount is a value).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from prism_slack.language import stem
from prism_slack.verdict import Derivation, Problem
from prism_slack.verify.index import Container, LeafFacts
from prism_slack.verify.numbers import UNITS, DatePoint, Period, QKind, Quantity
from prism_slack.verify.spoken import DASHED


@dataclass(frozen=True, slots=True)
class Anchoring:
    """How one claim quantity fared: the fields that warrant it, or why none does."""

    quantity: Quantity
    sources: tuple[LeafFacts | Container, ...]
    problem: Problem | None = None
    derivation: Derivation | None = None
    """Set when the figure is warranted by arithmetic over cited fields (``derived``)."""
    counts: bool = False
    """The figure counts a cited list's items (``verify.counts``): its noun binds it."""


def anchor(
    q: Quantity,
    cited: Sequence[LeafFacts],
    containers: Sequence[Container],
    *,
    whole_periods: bool = False,
) -> Anchoring:
    """Match claim quantity ``q`` against the cited fields. ``whole_periods``: the claim
    states a figure, so a quarter or year it names is that figure's period and must be a
    cited date range as a whole (``8.91% in Q4 2025`` is no full year's rate); else one of
    the range's days in the period will do (``the audit period began in Q1 2025``)."""
    if q.kind is QKind.SCORE:
        return _score(q, cited)
    if q.kind is QKind.RECORD:
        return _record(q, cited, containers)
    sources: list[LeafFacts | Container] = [
        leaf
        for leaf in cited
        if any(matches(q, v, whole_periods=whole_periods) for v in leaf.quantities)
    ]
    if countable(q):  # how many a list or object holds; a list item's fields count nothing
        sources += [
            c
            for c in containers
            if not c.path.endswith("]") and _compare(q, q.value, Decimal(c.size), "eq")
        ]
    if sources or q.optional:
        return Anchoring(q, tuple(sources))
    return Anchoring(q, (), _diagnose(q, cited))


def anchor_count(q: Quantity, container: Container, count: int) -> Anchoring:
    """``q`` counts items of a cited list (``verify.counts``): ``count`` decides it."""
    if _compare(q, q.value, Decimal(count), "eq"):
        return Anchoring(q, (container,), counts=True)
    problem = Problem(
        "anchor.count_mismatch", f"'{q.text}' counts {container.path}: the report lists {count}"
    )
    return Anchoring(q, (), problem, counts=True)


def matches(c: Quantity, v: Quantity, *, whole_periods: bool = False) -> bool:
    """Does cited quantity ``v`` warrant claim quantity ``c``?"""
    if c.kind is QKind.DATE:
        return _date_match(c, v)
    if c.kind is QKind.PERIOD:
        assert c.period is not None
        return _period_match(c.period, v, whole=whole_periods)
    if c.year_like and (_date_match(c, v) or _in_year_span(c, v)):
        return True
    if c.unit is None and v.unit is not None and c.kind is QKind.NUMBER:
        c = replace(c, tolerance=Decimal(0))  # a number stated without its unit: exactly
    return any(_signed(c, x, v) for x in candidates(c, v))


def candidates(c: Quantity, v: Quantity) -> list[Decimal]:
    """``v``'s value in ``c``'s terms (percent, money, unit); empty when incompatible.
    A number a path names (``top_10_share_pct``) is a label: it warrants only a plain
    number (``top 10``), never a percent, an amount or a measure (``10%``)."""
    x = v.value
    if v.from_path and v.unit is None and (c.kind is not QKind.NUMBER or c.unit is not None):
        return []  # (a path's number with its unit, ``within_60s``, is that measure)
    if v.kind is QKind.SCORE:
        assert v.scale is not None
        if c.kind is QKind.SCORE:
            return [x] if c.scale == v.scale else []  # "7 / 7" is the cell's "7 / 7"
        if c.kind is QKind.PERCENT:
            return [x / v.scale * 100]
        return [x] if c.kind is QKind.NUMBER and c.unit is None else []
    if v.kind not in (QKind.NUMBER, QKind.PERCENT, QKind.CURRENCY):
        return []
    if c.kind is QKind.PERCENT:
        if v.kind is QKind.PERCENT:
            return [x]
        if v.kind is QKind.CURRENCY or v.unit is not None:
            return []
        # a plain value below 1 is a fraction: 0.742 is 74.2%, and "0.742%" is a slip
        return [x * 100] if v.fraction or abs(x) < 1 else [x]
    if c.kind is QKind.CURRENCY:
        if v.kind is QKind.PERCENT or v.unit is not None:
            return []
        if c.currency and v.currency and c.currency != v.currency:
            return []
        return [x]
    if c.unit is not None:
        if v.unit is None:
            return [x] if v.kind is QKind.NUMBER else []
        return _converted(x, v.unit, c.unit)
    if v.kind is QKind.PERCENT:
        return [x, x / 100]
    if _in_stated_scale(c, v):
        return [x, x * MILLION]
    return [x]


_IN_MILLIONS = re.compile(r"\d\s*(?:M|[Mm]n|[Mm]illions?)\b")
MILLION = Decimal(10**6)


def _in_stated_scale(c: Quantity, v: Quantity) -> bool:
    """A count in millions (``6.66 million viewers``) against a plain cited value with a
    fraction (``viewers: 6.66``) whose field states no scale: nobody counts 6.66 viewers,
    so the value is already in millions (the usual scale of such counts; a billion stays
    a slip). Money, units, percents and whole cited numbers never read so (``$98.5M`` ⊭
    ``9,850,000``)."""
    plain = c.kind is QKind.NUMBER and c.unit is None and v.kind is QKind.NUMBER
    return (
        plain
        and v.unit is None
        and not (v.fraction or v.from_path or v.is_scale)
        and v.value != v.value.to_integral_value()
        and _IN_MILLIONS.search(c.text) is not None
    )


BOUND_REACH = Decimal(10)
"""A bound off the cited value by more than this factor is a slip, not a bound
(``up to 14 hours`` for 14 minutes, ``over 1,000`` for 1.2 million)."""
NEAR_REACH = Decimal("1.25")
"""How far past a bound said to be close (``just over 3.5 minutes``) a value may be."""


KEY_REACH = 3
"""How many content words either side of a number may hold the other words of the key
it is part of."""

_KEY_TOKEN = re.compile(r"[a-z0-9]+")


def key_tokens(path: str) -> list[str]:
    """The last key of ``path`` as lower-case tokens, digits kept (``rows[3]["1st_leg"]``
    → 1st, leg; ``rows[6].fri_28_aug`` → fri, 28, aug)."""
    keys = [k for k in re.split(r"[.\[\]\"]+", path) if k and not k.isdigit()]
    return _KEY_TOKEN.findall(keys[-1].lower()) if keys else []


def in_key(q: Quantity, near: Sequence[str], cited: Sequence[LeafFacts]) -> LeafFacts | None:
    """The cited field whose key ``q`` is part of, when ``near`` (the claim's content words
    within ``KEY_REACH`` of ``q``) holds another word of that key."""
    own = _KEY_TOKEN.findall(q.text.lower())
    plain = q.kind is QKind.NUMBER and q.unit is None and q.currency is None
    measured = q.kind is QKind.NUMBER and q.unit is not None  # ``90-day`` of ``…_90_DAYS``
    if not own or not (plain or measured or q.kind in (QKind.DATE, QKind.RECORD)):
        return None  # a percent or an amount is a value (``top 10 … 10%``), never a key
    own = [stem(t) for t in own] if measured else own
    for leaf in cited:
        key = [stem(t) for t in key_tokens(leaf.path)] if measured else key_tokens(leaf.path)
        others = {t for t in key if t.isalpha() and t not in own}
        whole = all(t in key for t in own) or "".join(own) in key  # 2007 - 08: 200708_season
        if whole and others & set(near):
            return leaf
    return None


def _converted(x: Decimal, unit_from: str, unit_to: str) -> list[Decimal]:
    dim_from, factor_from = UNITS[unit_from]
    dim_to, factor_to = UNITS[unit_to]
    return [x * factor_from / factor_to] if dim_from == dim_to else []


def _signed(c: Quantity, x: Decimal, v: Quantity) -> bool:
    cited_down = x < 0 or (v.direction == "down" and x > 0)
    if c.direction is None:
        if _compare(c, c.value, x, v.bound):
            return True
        return v.direction == "down" and x > 0 and _compare(c, c.value, -x, v.bound)
    if (c.direction == "down") != cited_down:
        return False
    return _compare(c, abs(c.value), abs(x), v.bound)


def same_kind(c: Quantity, v: Quantity) -> bool:
    """Do ``c`` and ``v`` measure in the same terms: both percents (or a fraction, stored
    as one or a plain value below 1),
    both money, both in one unit dimension, both plain counts, or a score and a plain
    number?"""
    if c.kind is QKind.PERCENT:
        plain_fraction = v.kind is QKind.NUMBER and v.unit is None and 0 < abs(v.value) < 1
        return v.kind is QKind.PERCENT or v.fraction or plain_fraction
    if c.kind is QKind.RECORD:  # "11.11 (77)": another such string, or a count
        return v.kind in (QKind.RECORD, QKind.NUMBER)
    if c.kind is QKind.SCORE:  # "4 out of 10" of a plain score field
        return v.kind is QKind.SCORE or (v.kind is QKind.NUMBER and v.unit is None)
    if c.kind is QKind.CURRENCY or v.kind is QKind.CURRENCY:
        return c.kind is v.kind
    if c.unit is not None or v.unit is not None:
        return (
            c.unit is not None and v.unit is not None and bool(_converted(v.value, v.unit, c.unit))
        )
    return c.kind is v.kind and v.kind is QKind.NUMBER and not v.fraction


def within(c: Quantity, claimed: Decimal, cited: Decimal) -> bool:
    """Is ``cited`` within what ``c`` claims (its precision, its bound)?"""
    return _compare(c, claimed, cited, "eq")


def _compare(c: Quantity, claimed: Decimal, cited: Decimal, cited_bound: str) -> bool:
    """Is ``cited`` (stated with ``cited_bound``) within what ``c`` claims about it?"""
    bound = c.bound
    if bound != "eq" and _slipped(claimed, cited):
        return False
    if cited_bound != "eq":
        if c.threshold:  # advice names the cited threshold, on either side of it
            return abs(claimed - cited) <= c.tolerance
        if bound == "eq" or bound[0] != cited_bound[0]:
            return False
        if bound[0] == "g":
            strict = bound == "gt" and cited_bound == "ge"
            return cited > claimed or (cited == claimed and not strict)
        strict = bound == "lt" and cited_bound == "le"
        return cited < claimed or (cited == claimed and not strict)
    if bound == "eq":
        return abs(claimed - cited) <= c.tolerance
    reach = NEAR_REACH if c.near else BOUND_REACH
    if (
        claimed
        and cited
        and not (abs(claimed) <= abs(cited) * reach and abs(cited) <= abs(claimed) * reach)
    ):
        return False
    if bound == "gt":
        return cited > claimed
    if bound == "ge":
        return cited >= claimed
    if bound == "lt":
        return cited < claimed
    return cited <= claimed


def _slipped(claimed: Decimal, cited: Decimal) -> bool:
    """Are two values a whole power of ten apart (``above $25,000`` for a cited ``above
    $250,000``)? A bound that far off is a slipped scale, not a looser bound."""
    if not claimed or not cited or claimed == cited:
        return False
    ratio = abs(cited / claimed)
    return any(ratio == f or ratio * f == 1 for f in _SCALE_SLIPS if f > 1)


def _points(v: Quantity) -> tuple[DatePoint, ...]:
    if v.kind is QKind.DATE or (v.period is not None and v.period.span is not None):
        return v.dates  # a date range warrants its first and last days
    if v.kind is QKind.NUMBER and v.year_like:
        return (DatePoint(int(v.value)),)
    return ()


def _date_match(c: Quantity, v: Quantity) -> bool:
    claimed = c.dates if c.kind is QKind.DATE else (DatePoint(int(c.value)),)
    if c.kind is QKind.NUMBER and (c.direction or c.value < 0):
        return False
    if c.kind is QKind.NUMBER and c.bound != "eq":  # "prior to 1956" of a cited date
        years = [p.year for p in _points(v) if p.year is not None]
        return any(_compare(c, c.value, Decimal(y), "eq") for y in years)
    if v.kind is QKind.PERIOD and v.dates:  # a date range: its first and last days
        return any(point.within(outer) for outer in claimed for point in v.dates)
    if v.kind is QKind.PERIOD:  # a period warrants its year, and nothing finer
        year = v.period.year if v.period is not None else None
        return year is not None and any(p == DatePoint(year) for p in claimed)
    return any(point.within(outer) for outer in claimed for point in _points(v))


def _in_year_span(c: Quantity, v: Quantity) -> bool:
    """Is the year ``c`` inside the cited span of years ``v`` (``1980 - 85``,
    ``1966 - 2008``: a tenure or a run of seasons)? Only a plain year, stated exactly."""
    if v.kind is not QKind.RECORD or len(v.parts) != 2 or c.bound != "eq" or c.direction:
        return False
    first, last = (int(p.value) for p in v.parts)
    if last < 100:  # "1980 - 85": the last year's century is the first's
        last += first - first % 100 + (100 if last < first % 100 else 0)
    return 1800 <= first < last <= first + 100 and first <= int(c.value) <= last


def _period_match(c: Period, v: Quantity, *, whole: bool) -> bool:
    if v.kind is QKind.PERIOD:
        assert v.period is not None
        if v.period.span is not None:
            if c.calendar_span() == v.period.span:
                return True
            if v.period.year is None:  # a range of dates
                return not whole and _dates_in_period(v.dates, c)
        if c.span is not None and (inner := _months_of(v.period)) is not None:
            first, last = c.span  # "late 2024" of a cited "Q4 2024": its months, inside
            return (first.year, first.month) <= inner[0] and inner[1] <= (last.year, last.month)
        if c.quarter is None and c.half is None and not c.fiscal:
            return False  # a calendar year: only a range says where a year starts
        return _period_in_period(v.period, c)
    return v.kind is QKind.DATE and _dates_in_period(v.dates, c)


def _months_of(p: Period) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The first and last (year, month) of a calendar quarter or half, or ``None``."""
    if p.fiscal or p.year is None or (p.quarter is None and p.half is None):
        return None
    span = p.calendar_span()
    if span is None:
        return None
    a, b = span
    if a.year is None or a.month is None or b.year is None or b.month is None:
        return None
    return (a.year, a.month), (b.year, b.month)


def _dates_in_period(points: Sequence[DatePoint], c: Period) -> bool:
    if c.fiscal:
        return False
    if c.span is not None:  # "mid-2027": a date of those months
        first, last = c.span
        return any(
            p.month is not None
            and (first.year, first.month) <= (p.year, p.month) <= (last.year, last.month)
            for p in points
            if p.year is not None
        )
    if c.quarter is None and c.half is None:  # a calendar year: a date of that year
        return c.year is not None and any(p.year == c.year for p in points)
    return any(_date_in_period(p, c) for p in points)


def _period_in_period(inner: Period, outer: Period) -> bool:
    if outer.year is not None and (inner.year != outer.year or inner.fiscal != outer.fiscal):
        return False
    if outer.year is None and outer.fiscal and not inner.fiscal:
        return False
    if outer.quarter is not None:
        return inner.quarter == outer.quarter
    if outer.half is not None:
        if inner.half is not None:
            return inner.half == outer.half
        return inner.quarter is not None and (inner.quarter + 1) // 2 == outer.half
    return outer.year is not None


def _date_in_period(point: DatePoint, period: Period) -> bool:
    if point.month is None or (period.year is not None and point.year != period.year):
        return False
    if period.quarter is not None:
        return (point.month - 1) // 3 + 1 == period.quarter
    return period.half is not None and (point.month - 1) // 6 + 1 == period.half


def countable(q: Quantity) -> bool:
    """A bare whole number: it may count the items of a list."""
    return (
        q.kind is QKind.NUMBER
        and q.unit is None
        and q.direction is None
        and q.value >= 0
        and q.value == q.value.to_integral_value()
    )


def _score(q: Quantity, cited: Sequence[LeafFacts]) -> Anchoring:
    assert q.scale is not None
    value_leaves: list[LeafFacts] = []
    for leaf in cited:
        for v in leaf.quantities:
            if v.kind is QKind.SCORE and v.scale == q.scale and _compare(q, q.value, v.value, "eq"):
                return Anchoring(q, (leaf,))
            plain = v.kind is QKind.NUMBER and v.unit is None and not v.is_scale
            if plain and _compare(q, q.value, v.value, "eq"):
                value_leaves.append(leaf)
    if not value_leaves:
        problem = Problem(
            "anchor.score_value", f"'{q.text}': the value {q.value} matches no cited value"
        )
        return Anchoring(q, (), problem)
    scale_cited = (
        any(
            v.kind is QKind.NUMBER and v.is_scale and v.value == q.scale
            for leaf in cited
            for v in leaf.quantities
        )
        or any(
            leaf.is_text
            and any(v.kind is QKind.NUMBER and v.value == q.scale for v in leaf.quantities)
            for leaf in value_leaves
        )
        or any(leaf not in value_leaves and _plain_whole(leaf, q.scale) for leaf in cited)
        or any(leaf not in value_leaves and _states_scale(leaf, q.scale) for leaf in cited)
    )
    if not scale_cited:
        problem = Problem(
            "anchor.score_scale", f"'{q.text}': its scale {q.scale} is not in the cited fields"
        )
        return Anchoring(q, (), problem)
    return Anchoring(q, tuple(value_leaves))


def _plain_whole(leaf: LeafFacts, value: Decimal) -> bool:
    """Is ``leaf`` a field holding just the number ``value`` (``played: 22``)?"""
    if len(leaf.quantities) != 1:
        return False
    [v] = leaf.quantities
    return v.kind is QKind.NUMBER and v.unit is None and v.value == value


def written_whole(
    q: Quantity, cited: Sequence[LeafFacts], *, either_way: bool = True
) -> list[LeafFacts]:
    """The cited values that write record ``q`` whole (``either_way``: a two-number score
    either way round)."""
    keys = [q.key]
    if either_way and DASHED.fullmatch(q.text) and len(q.parts) == 2:  # "won 14 - 0", "l 0 - 14"
        keys.append("-".join(p.text for p in reversed(q.parts)))
    whole = re.compile(r"(?<![\d:])(?:" + "|".join(map(re.escape, keys)) + r")(?![\d:])")
    return [leaf for leaf in cited if whole.search(leaf.record_text)]


def _record(q: Quantity, cited: Sequence[LeafFacts], containers: Sequence[Container]) -> Anchoring:
    """A score, record or time string: the same string in a cited value (``.`` and ``:``
    alike, spaces ignored; a two-number score either way round), else each of its
    numbers on its own, unless a cited value holds a dashed string of as many numbers
    (``5 - 1 - 0`` is not the cited ``5 - 0 - 1``)."""
    sources: list[LeafFacts | Container] = list(written_whole(q, cited))
    if sources:
        return Anchoring(q, tuple(sources))
    shaped = DASHED.fullmatch(q.text) is not None and any(
        DASHED.fullmatch(v.text) and len(v.parts) == len(q.parts)
        for leaf in cited
        for v in leaf.quantities
        if v.kind is QKind.RECORD
    )
    parts = [] if shaped else [anchor(p, cited, ()) for p in q.parts]  # a 4 is not a count
    if parts and all(a.sources for a in parts):
        return Anchoring(q, tuple(dict.fromkeys(s for a in parts for s in a.sources)))
    return Anchoring(q, (), Problem("anchor.record_no_match", f"'{q.text}' matches no cited value"))


_SCALE_STEMS = frozenset({stem("scale"), stem("score")})


def _states_scale(leaf: LeafFacts, top: Decimal) -> bool:
    """A cited text that gives a scale with this top ("score from 0 (absent) to 5")."""
    return (
        leaf.is_text
        and bool(_SCALE_STEMS & leaf.stems)
        and any(v.kind is QKind.NUMBER and v.value == top for v in leaf.quantities)
    )


_SCALE_SLIPS = tuple(Decimal(10) ** k for k in (-9, -6, -3, -2, -1, 1, 2, 3, 6, 9))


def _diagnose(q: Quantity, cited: Sequence[LeafFacts]) -> Problem:
    """Why nothing matched: a flipped sign, a slipped scale, or no such value."""
    head = f"'{q.text}' matches no cited value"
    if not cited:
        return Problem(
            "anchor.nothing_cited", f"'{q.text}' is stated but no field it could come from is cited"
        )
    if q.kind is QKind.PERIOD:
        for leaf in cited:
            for v in leaf.quantities:
                if v.period is not None and v.period.span is not None:
                    return Problem(
                        "anchor.other_period", f"{head}: the cited period is {v.text} ({leaf.path})"
                    )
    if not q.numeric or q.value == 0:
        return Problem("anchor.no_match", head)
    for leaf in cited:
        for v in leaf.quantities:
            for x in candidates(q, v):
                if q.bound == "eq" and x != 0 and abs(abs(x) - abs(q.value)) <= q.tolerance:
                    return Problem(
                        "anchor.wrong_sign",
                        f"{head}: the sign or direction is wrong (cited {leaf.path} = {v.text})",
                    )
                for slip in _SCALE_SLIPS:
                    if abs(abs(x) * slip - abs(q.value)) <= q.tolerance:
                        return Problem(
                            "anchor.wrong_scale",
                            f"{head}: wrong scale (cited {leaf.path} = {v.text})",
                        )
    return Problem("anchor.no_match", head)
