"""Series a report spreads over fields: keys that end in their period and long tables of
one row per metric and period. The answerer says each as one figure, latest first, and
cites only the points it says."""

from __future__ import annotations

from typing import Any

import pytest
from offline_support import ask, cited, envelope, offline_deps, texts

from prism_slack.facts import compile_facts
from prism_slack.pipeline.turn import TurnDeps

KRANICH: dict[str, Any] = envelope(
    "Kranich Aufzugservice",
    **{
        "Key figures": {
            "Revenue GJ 2023": "221.7 million EUR",
            "Revenue GJ 2024": "236.9 million EUR",
            "Revenue GJ 2025": "248.3 million EUR",
            "Customer since 2019": "Stadtwerke Linz",
            "Net debt 31.12.2025": "38.9 million EUR",
        }
    },
)

BOREALIS: dict[str, Any] = envelope(
    "Borealis Regional Airways",
    facts=[
        {"entity": "BRA", "metric": "revenue", "period": "FY2023", "value": 412.6, "uom": "CAD m"},
        {"entity": "BRA", "metric": "revenue", "period": "FY2024", "value": 448.9, "uom": "CAD m"},
        {"entity": "BRA", "metric": "revenue", "period": "FY2025", "value": 471.3, "uom": "CAD m"},
        {"entity": "CARGO", "metric": "revenue", "period": "FY2025", "value": 52.7, "uom": "CAD m"},
        {"entity": "BRA", "metric": "load factor", "period": "2025-H1", "value": 77.6, "uom": "%"},
        {"entity": "BRA", "metric": "load factor", "period": "2025-H2", "value": 84.6, "uom": "%"},
        {"entity": "BRA", "metric": "load factor", "period": "FY2025", "value": 81.2, "uom": "%"},
    ],
    people=[
        {"Name": "Rui Cardoso", "Title": "Chief Commercial Officer", "DealRole": "EconomicBuyer"},
        {"Name": "Tiago Brandão", "Title": "Director of IT", "DealRole": "TechnicalEvaluator",
         "Objections": ["No spare team capacity until Q3 2026"]},
    ],
)  # fmt: skip


@pytest.fixture(scope="module")
def deps(tmp_path_factory: pytest.TempPathFactory) -> TurnDeps:
    return offline_deps(
        tmp_path_factory.mktemp("series"), {"kranich": KRANICH, "borealis": BOREALIS}
    )


def test_keys_that_end_in_their_period_are_one_series() -> None:
    facts = compile_facts(KRANICH)
    series = facts.series['["Key figures"].Revenue']
    assert series.series is not None and [p.period for p in series.series.points] == [
        "GJ 2023",
        "GJ 2024",
        "GJ 2025",
    ]
    assert facts.get('["Key figures"]["Customer since 2019"]').period_text is None  # type: ignore[union-attr]
    day = facts.get('["Key figures"]["Net debt 31.12.2025"]').period  # type: ignore[union-attr]
    assert day is not None and (day.start, day.granularity.value) == (day.end, "day")


def test_long_rows_of_one_metric_are_a_series_of_one_granularity() -> None:
    facts = compile_facts(BOREALIS)
    assert facts.series["facts[2]"].display.startswith("471.3M CAD in FY2025, up from 448.9M")
    halves = facts.series["facts[5]"].series
    assert halves is not None and [p.period for p in halves.points] == ["2025-H1", "2025-H2"]
    assert "facts[6]" not in facts.series and "facts[3]" not in facts.series
    assert facts.gathered["facts[0]"] == facts.gathered["facts[1]"] == "facts[2]"


def test_a_series_of_keys_is_said_latest_first_and_by_the_period_asked(deps: TurnDeps) -> None:
    revenue = ask(deps, "kranich", "what's their revenue")
    assert texts(revenue)[0] == "Revenue: €248.3M in GJ 2025, from €236.9M in GJ 2024."
    before = ask(deps, "kranich", "what's their revenue", "and the year before?")
    assert texts(before)[0] == "Revenue (GJ 2024): €236.9M."


def test_a_long_tables_series_cites_only_the_rows_it_says(deps: TurnDeps) -> None:
    revenue = ask(deps, "borealis", "revenue?")
    assert texts(revenue)[0] == "Revenue (BRA): 471.3M CAD in FY2025, from 448.9M CAD in FY2024."
    assert not any(path.startswith("facts[0]") for path in cited(revenue))
    early = ask(deps, "borealis", "revenue in fy2023")
    assert texts(early)[0] == "Revenue (BRA) in FY2023: 412.6M CAD."
    assert "facts[0].value" in cited(early)
    halves = ask(deps, "borealis", "h1 vs h2 load factor")
    assert "77.6%" in texts(halves)[0] and "84.6%" in texts(halves)[0]


def test_a_buying_role_written_as_an_identifier_is_found_and_said_in_words(
    deps: TurnDeps,
) -> None:
    evaluator = ask(deps, "borealis", "who is the technical evaluator")
    assert texts(evaluator) == ["Tiago Brandão: Director of IT, technical evaluator."]
    held = ask(deps, "borealis", "who is the technical evaluator", "whats holding him back")
    assert cited(held) == ["people[1].Objections[0]"]


def test_a_noun_the_report_never_uses_before_a_figure_it_holds_is_a_missing_part(
    deps: TurnDeps,
) -> None:
    asked = ask(deps, "kranich", "whats their subscription revenue")
    assert texts(asked)[0] == "Not in the audit report: subscription revenue."
    assert texts(asked)[1].startswith("Revenue: €248.3M")  # the near fact, offered as such
    plain = ask(deps, "kranich", "how fast does revenue get back up")  # "back": no noun only
    assert not any(t.startswith("Not in the audit report") for t in texts(plain))
