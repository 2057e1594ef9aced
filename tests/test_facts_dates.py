"""An all-numeric date the number grammar reads several ways: the one day a person reads
(python-dateutil, month-first and day-first agreeing), or a date left open — never the
grammar's candidate readings taken for a range (bench/library_trial.py, issue 19)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from prism_slack.facts import FactKind, Granularity, compile_facts
from prism_slack.facts.compile import TWO_WAYS
from prism_slack.facts.dates import one_date

ENVELOPE: dict[str, Any] = {
    "company": {"name": "Acme", "aliases": []},
    "report": {"id": "r1", "generated_at": "2026-01-01"},
}


def date_fact(value: str) -> Any:
    fact = compile_facts({**ENVELOPE, "rows": [{"date": value}]}).get("rows[0].date")
    assert fact is not None
    return fact


@pytest.mark.parametrize(
    ("value", "day"),
    [
        ("15 / 3 / 03", dt.date(2003, 3, 15)),  # the day is above 12; '03 is 2003
        ("3 / 30 / 07", dt.date(2007, 3, 30)),
        ("10 / 10 / 1987", dt.date(1987, 10, 10)),  # both orders are one day
        ("14.09.07", dt.date(2007, 9, 14)),
        ("31/12/2026", dt.date(2026, 12, 31)),
    ],
)
def test_a_numeric_date_that_reads_one_way_is_that_day(value: str, day: dt.date) -> None:
    fact = date_fact(value)
    assert fact.kind is FactKind.DATE
    assert fact.when is not None
    assert (fact.when.start, fact.when.end, fact.when.granularity) == (day, day, Granularity.DAY)
    assert fact.display == value


@pytest.mark.parametrize("value", ["01 / 02 / 1992", "03/09/2026", "08 - 02 - 2008"])
def test_a_numeric_date_that_reads_two_ways_is_a_date_left_open(value: str) -> None:
    fact = date_fact(value)
    assert fact.kind is FactKind.DATE  # still a date: the verifier may prove against it
    assert fact.when is None
    assert fact.note == TWO_WAYS
    assert fact.display == value


@pytest.mark.parametrize(
    ("value", "day"),
    [
        ("2024-10-01", dt.date(2024, 10, 1)),  # ISO: the grammar reads it one way already
        ("09.11.1946 at 15:00", dt.date(1946, 11, 9)),  # dotted with a full year: day first
        ("April 14, 1874", dt.date(1874, 4, 14)),
    ],
)
def test_a_date_the_grammar_reads_one_way_keeps_its_reading(value: str, day: dt.date) -> None:
    fact = date_fact(value)
    assert fact.when is not None and fact.when.start == day


def test_one_date_reads_only_a_whole_unambiguous_day() -> None:
    assert one_date("15/3/03") == dt.date(2003, 3, 15)
    assert one_date("03/09/2026") is None  # 3 September or 9 March
    assert one_date("March 2019") is None  # no day written
    assert one_date("3 / 2026") is None
    assert one_date("not a date") is None
