"""Typed facts compiled at load: each report style's values read as a person reads them."""

from __future__ import annotations

from typing import Any

import pytest

from prism_slack.facts import FactKind, Source, Unit, compile_facts, display

ENVELOPE: dict[str, Any] = {
    "company": {"name": "Acme", "aliases": []},
    "report": {"id": "r1", "generated_at": "2026-01-01"},
}


def facts_of(body: dict[str, Any]) -> Any:
    return compile_facts({**ENVELOPE, **body})


@pytest.mark.parametrize(
    ("body", "path", "unit", "shown"),
    [
        # camelCase keys, money with a sibling currency field, rates as fractions
        ({"fin": {"currency": "EUR", "annualRevenue": 318400000}}, "fin.annualRevenue",
         Unit.CURRENCY, "€318.4M"),
        ({"fin": {"gwpGrowth": 0.087}}, "fin.gwpGrowth", Unit.FRACTION, "8.7%"),
        ({"fin": {"solvencyCoverageRatio": 1.68}}, "fin.solvencyCoverageRatio", Unit.RATIO,
         "168%"),
        ({"d": {"submissionsVsPriorYear": 1.12}}, "d.submissionsVsPriorYear", Unit.RATIO, "112%"),
        # snake_case with the unit in the key
        ({"m": {"sales_cycle_days": 38}}, "m.sales_cycle_days", Unit.DURATION, "38 days"),
        ({"m": {"churn_pct": 3.66}}, "m.churn_pct", Unit.PERCENT, "3.66%"),
        ({"m": {"revenue_usd": 412500000}}, "m.revenue_usd", Unit.CURRENCY, "$412.5M"),
        ({"m": {"spread_bps": 9.8}}, "m.spread_bps", Unit.BASIS_POINTS, "9.8 bps"),
        # display strings under Title Case keys with spaces
        ({"Financials": {"Annual Revenue": "£212.4m"}}, 'Financials["Annual Revenue"]',
         Unit.CURRENCY, "£212.4M"),
        ({"KPIs": {"Booking Lead Time": "3 weeks"}}, 'KPIs["Booking Lead Time"]',
         Unit.DURATION, "3 weeks"),
        ({"KPIs": {"Direct Share": "34%"}}, 'KPIs["Direct Share"]', Unit.PERCENT, "34%"),
        ({"Scores": {"Mobile": "5/10"}}, "Scores.Mobile", Unit.SCORE, "5/10"),
        # {value, unit, period} objects
        ({"fin": {"revenue": {"value": 812.6, "unit": "EUR million", "period": "FY25"}}},
         "fin.revenue.value", Unit.CURRENCY, "€812.6M"),
        ({"fin": {"margin": {"value": 0.238, "unit": "ratio"}}}, "fin.margin.value",
         Unit.RATIO, "23.8%"),
        ({"s": {"ordering": {"value": 3, "out_of": 5}}}, "s.ordering.value", Unit.SCORE, "3/5"),
        # a score scale beside the scores
        ({"scores": {"scaleMax": 5, "quality": 2.5}}, "scores.quality", Unit.SCORE, "2.5/5"),
        # keys that are labels with the unit, scale and period in brackets
        ({"F": {"Revenue (FY2025, NZD m)": 318.4}}, 'F["Revenue (FY2025, NZD m)"]',
         Unit.CURRENCY, "318.4M NZD"),
        ({"F": {"Revenue growth (FY2025 vs FY2024, %)": 5.6}},
         'F["Revenue growth (FY2025 vs FY2024, %)"]', Unit.PERCENT, "5.6%"),
        ({"F": {"Net debt / EBITDA (x)": 2.9}}, 'F["Net debt / EBITDA (x)"]', Unit.RATIO, "2.9x"),
        ({"F": {"Dividend (NZ cents per share)": 14.5}}, 'F["Dividend (NZ cents per share)"]',
         Unit.NUMBER, "14.5 cents per share"),
        ({"O": {"Crane rate (moves per hour)": 27.5}}, 'O["Crane rate (moves per hour)"]',
         Unit.NUMBER, "27.5"),
        ({"C": {"Satisfaction (2025, /10)": 6.1}}, 'C["Satisfaction (2025, /10)"]', Unit.SCORE,
         "6.1/10"),
        ({"Scores (out of 5)": {"Billing": 1.5}}, '["Scores (out of 5)"].Billing', Unit.SCORE,
         "1.5/5"),
        # a BI export's rows: the row's label names its value
        ({"fin": [{"label": "Revenue (FY2025)", "value": 612.4, "unit": "USD m"}]},
         "fin[0].value", Unit.CURRENCY, "$612.4M"),
        ({"profile": [{"label": "Founded", "value": 2009}]}, "profile[0].value", Unit.YEAR,
         "2009"),
        # display strings: a multiple, a scale word, an abbreviated unit
        ({"fin": {"interest_cover": "2.6x"}}, "fin.interest_cover", Unit.RATIO, "2.6x"),
        ({"p": {"household_customers": "1.46 mn"}}, "p.household_customers", Unit.COUNT,
         "1,460,000"),
        ({"cs": {"lead_time": "6 wks"}}, "cs.lead_time", Unit.DURATION, "6 weeks"),
    ],
)  # fmt: skip
def test_a_leaf_is_read_from_wherever_the_report_states_its_unit(
    body: dict[str, Any], path: str, unit: Unit, shown: str
) -> None:
    fact = facts_of(body).get(path)
    assert fact is not None and fact.quantity is not None, fact
    assert fact.quantity.unit is unit
    assert fact.display == shown


def test_a_key_with_a_number_before_its_unit_is_no_duration() -> None:
    fact = facts_of({"c": {"claimsSettledWithin30Days": 0.57}}).get("c.claimsSettledWithin30Days")
    assert fact is not None and fact.quantity is not None
    assert fact.quantity.unit is not Unit.DURATION


def test_a_rate_above_one_with_no_convention_is_untyped_not_guessed() -> None:
    fact = facts_of({"m": {"nrr": 1, "conversion_rate": 1.9}}).get("m.conversion_rate")
    assert fact is not None
    assert fact.kind is FactKind.UNTYPED
    assert fact.note and "percent or multiple" in fact.note


PCT_FRACTIONS = {
    "Share": {"Pct": 0.47},
    "Growth": {"Pct": 0.074},
    "Active": {"Pct": 0.22},
    "Retention": {"Pct": 0.81},
}


def test_percent_keys_holding_fractions_are_untyped_unless_the_text_says_so() -> None:
    fact = facts_of(PCT_FRACTIONS).get("Share.Pct")
    assert fact is not None and fact.kind is FactKind.UNTYPED  # 0.47%, or 47%?
    said = {
        **PCT_FRACTIONS,
        "Findings": [{"Detail": "Direct share fell to 47%; only 22% are active."}],
    }
    fact = facts_of(said).get("Share.Pct")
    assert fact is not None and fact.display == "47%"
    stored = {**PCT_FRACTIONS, "Note": "Share is 47%, active 22%, growth 0.074%."}
    fact = facts_of(stored).get("Share.Pct")  # the text writes one as stored: no proof
    assert fact is not None and fact.kind is FactKind.UNTYPED


def test_a_year_keyed_series_knows_its_latest_value_and_direction() -> None:
    facts = facts_of({"ops": {"churn": {"2023": 0.12, "2024": 0.09, "2025": 0.083}}})
    series = facts.get("ops.churn")
    assert series is not None and series.series is not None
    assert series.series.latest.period == "2025"
    assert series.series.direction == "down"
    assert series.display == "8.3% in 2025, down from 9% in 2024"
    point = facts.get('ops.churn["2024"]')
    assert point is not None and point.period_text == "2024"


def test_dates_keep_their_granularity_and_open_ranges() -> None:
    facts = facts_of(
        {
            "t": {
                "born": "c. 1400",
                "active": "1998 – present",
                "ends": "H2 2026",
                "on": "2025-03-09",
            }
        }
    )
    active = facts.get("t.active")
    assert active is not None and active.when is not None and active.when.present
    ends = facts.get("t.ends")
    assert ends is not None and ends.when is not None and ends.when.granularity.value == "half"
    on = facts.get("t.on")
    assert on is not None and on.display == "9 March 2025"


def test_currency_source_is_recorded_for_the_operator() -> None:
    fact = facts_of({"fin": {"currency": "GBP", "operatingProfit": 41900000}}).get(
        "fin.operatingProfit"
    )
    assert fact is not None
    assert fact.sources["currency"] is Source.SIBLING
    assert "GBP" in fact.reading()


def test_names_and_passages_are_told_apart() -> None:
    facts = facts_of(
        {
            "vendors": {"crm": "HubSpot"},
            "findings": [{"detail": "Only 38% of orders come online; the rest arrive by email."}],
        }
    )
    crm, detail = facts.get("vendors.crm"), facts.get("findings[0].detail")
    assert crm is not None and crm.kind is FactKind.NAME
    assert detail is not None and detail.kind is FactKind.PASSAGE


def test_a_table_stored_by_column_takes_its_periods_and_units() -> None:
    """``years: [FY23, FY24, FY25]`` beside ``revenue: [...]``: each item is of its year,
    in the unit ``units`` gives the column, and the column is a series."""
    facts = facts_of({
        "fin": {"years": ["FY23", "FY24", "FY25"], "units": {"revenue": "GBP m"},
                "revenue": [871.4, 904.2, 958.7]},
        "cs": {"quarters": ["2025-Q2", "2025-Q3"], "answered": ["61 %", "55 %"]},
    })  # fmt: skip
    latest = facts.get("fin.revenue[2]")
    assert latest.display == "£958.7M" and latest.period_text == "FY25"
    assert facts.series["fin.revenue"].series.direction == "up"
    quarter = facts.get("cs.answered[1]").period
    assert quarter is not None and quarter.granularity.value == "quarter"
    assert quarter.start is not None and quarter.start.month == 7


def test_keys_that_differ_only_by_period_are_one_series() -> None:
    facts = facts_of({"C": {"Satisfaction (2023, /10)": 6.8, "Satisfaction (2025, /10)": 6.1}})
    [series] = facts.series.values()
    assert series.series is not None and series.series.direction == "down"
    assert [p.period for p in series.series.points] == ["2023", "2025"]


def test_a_unit_code_is_read_from_the_legend_the_report_gives() -> None:
    facts = facts_of(
        {
            "uom_codes": {"PCT": "percent", "SCORE_0_5": "score from 0 (none) to 5 (leading)",
                          "CAD_M": "Canadian dollars, millions"},
            "facts": [
                {"metric": "on_time_share", "value": 78.4, "uom": "PCT"},
                {"metric": "revenue", "value": 471.3, "uom": "CAD_M"},
            ],
            "assessments": [{"area": "Disruption handling", "score": 1.5, "uom": "SCORE_0_5"}],
        }
    )  # fmt: skip
    assert facts.get("facts[0].value").display == "78.4%"  # type: ignore[union-attr]
    assert facts.get("facts[1].value").display == "471.3M CAD"  # type: ignore[union-attr]
    assert facts.get("assessments[0].score").display == "1.5/5"  # type: ignore[union-attr]


def test_a_year_under_a_period_key_is_a_year_not_a_count() -> None:
    facts = facts_of({"rows": [{"name": "Re-enrolment rate", "value": "91 %", "asOf": "2026"}]})
    as_of = facts.get("rows[0].asOf")
    assert as_of is not None and as_of.display == "2026"
    assert as_of.quantity is not None and as_of.quantity.unit.value == "year"


@pytest.mark.parametrize(
    ("written", "said"),
    [
        ("2025-04-01 to 2026-03-31", "the year to 31 March 2026"),
        ("2024-01-01 to 2024-12-31", "the year to 31 December 2024"),
        ("2025-01-01 to 2025-06-30", "1 January 2025 to 30 June 2025"),
        ("2026-03-31", "31 March 2026"),
        ("FY2025", "FY2025"),
        ("2025-13-01 to 2026-03-31", "2025-13-01 to 2026-03-31"),  # no day: as written
    ],
)
def test_a_period_is_said_as_a_rep_says_it(written: str, said: str) -> None:
    assert display.period(written) == said
