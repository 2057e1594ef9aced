"""Cases for dates, years, fiscal years and date ranges.

A date is written at a granularity (day, month, quarter, half, year) and stands for that
span; a correct claim's span contains the stored date, a shifted one's does not.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from . import templates as T
from .cases import Case, Ctx
from .fields import Field, Kind

Grain = Literal["day", "month", "quarter", "half", "year"]
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
ORDINALS = ("first", "second", "third", "fourth")


@dataclass(frozen=True, slots=True)
class Span:
    """A calendar span as a claim states it."""

    grain: Grain
    year: int
    part: int = 1
    """Month, quarter or half (1-based); the day's month for ``day``."""
    day: int = 1

    def contains(self, d: dt.date) -> bool:
        if d.year != self.year:
            return False
        if self.grain == "year":
            return True
        if self.grain == "half":
            return (d.month - 1) // 6 + 1 == self.part
        if self.grain == "quarter":
            return (d.month - 1) // 3 + 1 == self.part
        if self.grain == "month":
            return d.month == self.part
        return (d.month, d.day) == (self.part, self.day)


def span_of(d: dt.date, grain: Grain) -> Span:
    part = {
        "day": d.month,
        "month": d.month,
        "quarter": (d.month - 1) // 3 + 1,
        "half": (d.month - 1) // 6 + 1,
        "year": 1,
    }[grain]
    return Span(grain, d.year, part, d.day)


def write_span(span: Span, style: int) -> str:
    """The span in one of several formats (``style`` picks one)."""
    formats: tuple[str, ...]
    if span.grain == "day":
        d = dt.date(span.year, span.part, span.day)
        formats = (
            d.isoformat(),
            f"{MONTHS[d.month - 1]} {d.day}, {d.year}",
            f"{d.day} {MONTHS[d.month - 1]} {d.year}",
            f"{_abbrev(d.month)} {d.day}, {d.year}",
        )
    elif span.grain == "month":
        formats = (f"{MONTHS[span.part - 1]} {span.year}",)
    elif span.grain == "quarter":
        formats = (
            f"Q{span.part} {span.year}",
            f"the {ORDINALS[span.part - 1]} quarter of {span.year}",
        )
    elif span.grain == "half":
        formats = (
            f"H{span.part} {span.year}",
            f"the {ORDINALS[span.part - 1]} half of {span.year}",
        )
    else:
        formats = (str(span.year),)
    return formats[style % len(formats)]


def shifted(span: Span, rng: random.Random) -> Span:
    """The span moved by one step (or a few years) of its own grain, either way."""
    step = rng.choice((-1, 1))
    if span.grain == "year":
        return Span("year", span.year + step * rng.randint(1, 3))
    if span.grain == "day":
        d = dt.date(span.year, span.part, span.day) + dt.timedelta(days=step * rng.randint(1, 20))
        return Span("day", d.year, d.month, d.day)
    size = {"month": 12, "quarter": 4, "half": 2}[span.grain]
    index = span.year * size + span.part - 1 + step
    return Span(span.grain, index // size, index % size + 1)


def _templates(f: Field, grain: Grain) -> tuple[str, ...]:
    special = T.DATE_SPECIAL.get(f.key)
    if special is not None:
        return special[0] if grain == "day" else special[1]
    return T.DATE_DAY if grain == "day" else T.DATE_COARSE


def date_cases(ctx: Ctx, f: Field) -> Iterator[Case]:
    assert f.date is not None
    rng = ctx.rng(f.path, "date")
    grains: list[Grain] = ["day", "month", "quarter", "year"]
    for grain in grains:
        span = span_of(f.date, grain)
        assert span.contains(f.date)
        text = rng.choice(_templates(f, grain)).format(
            m=f.measure, v=write_span(span, rng.randrange(4))
        )
        cls = "exact" if grain == "day" and rng.random() < 0.5 else "date_formats"
        yield ctx.case(cls, f, text, [f.path])
    for grain in rng.sample(grains, k=2):
        moved = shifted(span_of(f.date, grain), rng)
        if moved.contains(f.date):
            ctx.skip("period_shift", "would be true (shifted span holds the date)")
            continue
        value = write_span(moved, rng.randrange(4))
        text = rng.choice(_templates(f, grain)).format(m=f.measure, v=value)
        yield ctx.case("period_shift", f, text, [f.path], note=f"{f.text} → {value}")


def year_cases(ctx: Ctx, f: Field) -> Iterator[Case]:
    rng = ctx.rng(f.path, "year")
    pool = T.FOUNDED if f.key == "founded" else T.YEAR
    co = ctx.company(rng)
    year = int(f.value)
    yield ctx.case("exact", f, rng.choice(pool).format(m=f.measure, v=year, co=co), [f.path])
    wrong = year + rng.choice((-1, 1)) * rng.randint(1, 3)
    text = rng.choice(pool).format(m=f.measure, v=wrong, co=co)
    yield ctx.case("period_shift", f, text, [f.path], note=f"{year} → {wrong}")


def _fiscal_texts(year: int) -> tuple[str, ...]:
    return (f"FY{year}", f"FY{year % 100:02d}", f"fiscal {year}", f"fiscal year {year}")


def fiscal_cases(ctx: Ctx, f: Field) -> Iterator[Case]:
    rng = ctx.rng(f.path, "fiscal")
    year = int(f.value)
    for style in rng.sample(range(4), k=2):
        text = rng.choice(T.FISCAL).format(v=_fiscal_texts(year)[style])
        yield ctx.case("date_formats", f, text, [f.path])
    wrong = year + rng.choice((-1, 1))
    value = _fiscal_texts(wrong)[rng.randrange(4)]
    yield ctx.case(
        "period_shift",
        f,
        rng.choice(T.FISCAL).format(v=value),
        [f.path],
        note=f"{f.text} → {value}",
    )


def range_cases(ctx: Ctx, f: Field) -> Iterator[Case]:
    assert f.date is not None and f.end is not None
    rng = ctx.rng(f.path, "range")
    for d, pool in ((f.date, T.RANGE_START), (f.end, T.RANGE_END)):
        grain: Grain = rng.choice(("month", "quarter"))
        span = span_of(d, grain)
        yield ctx.case(
            "date_formats",
            f,
            rng.choice(pool).format(v=write_span(span, rng.randrange(2))),
            [f.path],
        )
        moved = shifted(span, rng)
        other = f.end if d == f.date else f.date
        if moved.contains(d) or moved.contains(other):
            ctx.skip("period_shift", "would be true (shifted span holds a range end)")
            continue
        value = write_span(moved, rng.randrange(2))
        yield ctx.case(
            "period_shift",
            f,
            rng.choice(pool).format(v=value),
            [f.path],
            note=f"{d.isoformat()} → {value}",
        )


KIND_CASES = {
    Kind.DATE: date_cases,
    Kind.YEAR: year_cases,
    Kind.FISCAL: fiscal_cases,
    Kind.RANGE: range_cases,
}


def _abbrev(month: int) -> str:
    name = MONTHS[month - 1]
    return f"{name[:3]}." if len(name) > 4 else name
