"""How a rep's words reach a field: a phrase read as one word inside a count ask, a
measure named by a run of a key's words, a follow-up that asks what a record keeps, and a
count whose key says "per year" shown as a count, not a year, and the age of a part (its
fleet) read from its own field, not from the founding year."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from offline_support import ask, cited, envelope, offline_deps, texts

from prism_slack.pipeline.turn import TurnDeps

LARKSPUR: dict[str, Any] = envelope(
    "Larkspur Garden Supply",
    metrics={
        "monthly_sessions": 412000,
        "store_visits_per_year": 1146000,
        "survey_top_box_pct": 63.5,
        "churn_rate_pct": 4.1,
        "founded_year": 1998,
    },
    balance_sheet={"total_assets_usd": 84000000},
    financials={"revenue_usd": 52000000},
    fleet={"Vans": 40, "AverageAge": {"Years": 6.2}},
    stakeholders=[
        {
            "name": "Ida Moss",
            "title": "CFO",
            "notes": "Requires payback inside 18 months and fuel costs to be hedged.",
        }
    ],
    scores={"checkout": 7, "search": 4, "max": 10},
    findings=[
        {"title": "Search misses plurals", "severity": "high", "detail": "31% of searches fail."},
        {"title": "Checkout asks for an account", "severity": "medium", "detail": "Guests leave."},
    ],
    opportunities=[
        {"area": "Loyalty relaunch", "estimated_impact": "Repeat rate from 31% to 38%"},
        {"area": "Renewal reminders", "estimated_impact": "$1.2M a year in avoided churn"},
    ],
)


@pytest.fixture
def deps(tmp_path: Path) -> TurnDeps:
    return offline_deps(tmp_path, {"larkspur": LARKSPUR})


def test_a_phrase_in_a_count_ask_is_one_word(deps: TurnDeps) -> None:
    result = ask(deps, "larkspur", "how many people hit their website each month")
    assert texts(result)[0] == "Monthly sessions: 412,000."
    assert not any("doesn't mention" in t for t in texts(result))


def test_a_measure_is_named_by_a_run_of_key_words(deps: TurnDeps) -> None:
    for question in ("do their customers like them?", "how happy are their customers"):
        assert cited(ask(deps, "larkspur", question)) == ["metrics.survey_top_box_pct"]
    assert texts(ask(deps, "larkspur", "how big is the balance sheet")) == ["Total assets: $84M."]


def test_top_few_with_nothing_named_are_the_findings(deps: TurnDeps) -> None:
    assert texts(ask(deps, "larkspur", "top 3 things from the audit"))[0].startswith(
        "Finding: Search misses plurals"
    )
    assert texts(ask(deps, "larkspur", "what are their top 3 scores")) == ["Checkout: 7/10."]


def test_a_follow_up_asks_what_a_record_keeps(deps: TurnDeps) -> None:
    result = ask(deps, "larkspur", "what is their churn rate", "how much could we save on that")
    assert texts(result)[0].startswith("Renewal reminders (opportunity)")


def test_a_count_per_year_is_no_year(deps: TurnDeps) -> None:
    assert texts(ask(deps, "larkspur", "how many store visits a year")) == [
        "Store visits a year: 1.15M."
    ]
    assert texts(ask(deps, "larkspur", "when were they founded")) == ["Founded year: 1998."]


def test_the_age_of_a_part_is_its_field_not_the_founding(deps: TurnDeps) -> None:
    assert texts(ask(deps, "larkspur", "how old is their fleet")) == ["Average age: 6.2 years."]
    assert "Average age: 6.2 years." in texts(ask(deps, "larkspur", "vans and avg age?"))
    assert texts(ask(deps, "larkspur", "how old is the company")) == ["Founded year: 1998."]


def test_an_unheld_rate_and_a_cash_position_are_said_to_be_absent(deps: TurnDeps) -> None:
    said = texts(ask(deps, "larkspur", "whats their cost per store visit"))
    assert said[0] == "Not in the audit report: cost per store visit."
    assert texts(ask(deps, "larkspur", "whats their cash position")) == [
        "That's not in the audit report."
    ]


def test_group_qualifies_nothing_and_a_summary_audience_is_no_subject(deps: TurnDeps) -> None:
    assert texts(ask(deps, "larkspur", "whats group revenue")) == ["Revenue: $52M."]
    said = texts(ask(deps, "larkspur", "3 bullets for my regional manager"))
    assert said[0].startswith("Finding: Search misses plurals")


def test_a_percent_asked_and_not_held_is_said_to_be_absent(deps: TurnDeps) -> None:
    said = texts(ask(deps, "larkspur", "what % of fuel do they hedge"))
    assert said[0] == "That's not in the audit report."
    assert any("hedged" in t for t in said[1:])  # the near fact, offered as such


def test_a_period_of_days_is_said_in_words_and_a_part_with_its_figure(tmp_path: Path) -> None:
    fact = {"concept": "Revenue", "unitRef": "GBP", "decimals": -5}
    data = envelope(
        "Windle Power",
        facts=[
            {**fact, "value": "148600000", "period": {"start": "2025-04-01", "end": "2026-03-31"}},
            {**fact, "value": "131900000", "period": {"start": "2024-04-01", "end": "2025-03-31"}},
            {"concept": "InstalledCapacity", "value": "612", "unitRef": "MW",
             "period": {"instant": "2026-03-31"}},
            {"concept": "Revenue", "value": "412", "scale": 6, "unitRef": "SEK",
             "dimensions": {"LegalEntity": "Windle Vind AB"},
             "period": {"start": "2025-04-01", "end": "2026-03-31"}},
        ],
    )  # fmt: skip
    deps = offline_deps(tmp_path, {"windle": data})
    assert texts(ask(deps, "windle", "whats their revenue")) == [
        "Revenue: £148.6M in the year to 31 March 2026, from £131.9M in the year to 31 March 2025.",
        "Revenue (Windle Vind AB): 412M SEK in the year to 31 March 2026.",  # its part, said
    ]
    assert texts(ask(deps, "windle", "installed capacity?")) == [
        "Installed capacity: 612 MW as of 31 March 2026."
    ]
