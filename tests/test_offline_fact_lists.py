"""Reports whose figures are lists of named facts rather than named keys: XBRL-like fact
lists (``{concept, value, unitRef, decimals, scale, period}``) and lists of ``"Label:
value"`` strings. Each is read into typed facts at load and answered through the whole
turn, verifier included, on a small report of its own (words the corpora do not use)."""

from __future__ import annotations

from typing import Any

import pytest
from offline_support import ask, cited, envelope, offline_deps, texts

from prism_slack.facts import Unit, compile_facts
from prism_slack.pipeline.turn import TurnDeps

YEAR = {"start": "2025-01-01", "end": "2025-12-31"}
QUILLON: dict[str, Any] = envelope(
    "Quillon Ferries",
    facts=[
        {"concept": "Turnover", "value": "73400000", "unitRef": "EUR", "decimals": -5,
         "period": YEAR},
        {"concept": "Turnover", "value": "69100000", "unitRef": "EUR", "decimals": -5,
         "period": {"start": "2024-01-01", "end": "2024-12-31"}},
        {"concept": "HarbourDues", "value": "812", "unitRef": "EUR", "decimals": 0, "scale": 3,
         "period": YEAR},
        {"concept": "PunctualCrossings", "value": "0.874", "unitRef": "pure", "decimals": 3,
         "period": YEAR},
        {"concept": "NetDebtToEquity", "value": "1.7", "unitRef": "pure", "decimals": 1,
         "period": {"instant": "2025-12-31"}},
        {"concept": "DeckCrew", "value": "344", "unitRef": "FTE", "decimals": 0,
         "period": {"instant": "2025-12-31"}},
    ],
    fleet=[
        "Vessels: 14 (six are over 30 years old)",
        "Crossings: about 160 a day in summer",
        "Booking engine: Carus Reserve, since 2017",
    ],
)  # fmt: skip


def test_a_fact_list_is_read_from_its_unit_scale_and_period_fields() -> None:
    facts = compile_facts(QUILLON)
    turnover = facts.by_path["facts[0].value"]
    assert (turnover.label, turnover.display, turnover.period_text) == (
        "Turnover", "€73.4M", "2025-01-01 to 2025-12-31",
    )  # fmt: skip
    dues = facts.by_path["facts[2].value"]  # XBRL's scale: a power of ten, not a score's top
    assert dues.quantity is not None and dues.quantity.unit is Unit.CURRENCY
    assert dues.display == "€812,000"
    punctual = facts.by_path["facts[3].value"]  # ``pure`` at most 1: a fraction
    assert (punctual.label, punctual.display) == ("Punctual crossings", "87.4%")
    leverage = facts.by_path["facts[4].value"]  # money to money: a multiple
    assert leverage.display == "1.7x"
    assert facts.by_path["facts[2].decimals"].quantity.scale == 1  # type: ignore[union-attr]


@pytest.fixture(scope="module")
def quillon(tmp_path_factory: pytest.TempPathFactory) -> TurnDeps:
    return offline_deps(tmp_path_factory.mktemp("quillon"), {"quillon": QUILLON})


def test_a_fact_is_answered_by_its_concept(quillon: TurnDeps) -> None:
    crew = ask(quillon, "quillon", "how much deck crew do they have")
    assert texts(crew)[0] == "Deck crew: 344 FTE as of 31 December 2025."
    assert cited(crew)[:2] == ["facts[5].value", "facts[5].concept"]


def test_parts_joined_by_a_plus_are_each_answered(quillon: TurnDeps) -> None:
    both = ask(quillon, "quillon", "turnover + harbour dues?")
    said = " ".join(texts(both))
    assert "€73.4M" in said and "€812,000" in said
    assert "Not in the audit report" not in said


def test_a_side_that_only_names_the_year_before_is_no_ask_of_its_own(quillon: TurnDeps) -> None:
    years = ask(quillon, "quillon", "turnover this yr vs last")
    said = " ".join(texts(years))
    assert "€73.4M" in said and "€69.1M" in said
    assert "Not in the audit report" not in said


def test_an_item_of_a_list_of_labelled_strings_is_one_field(quillon: TurnDeps) -> None:
    vessels = ask(quillon, "quillon", "how many vessels")
    assert texts(vessels)[0] == "Vessels: 14 (six are over 30 years old)."
    assert cited(vessels)[0] == "fleet[0]"
    engine = ask(quillon, "quillon", "what booking engine do they use")
    assert cited(engine)[0] == "fleet[2]"


# tables stored as a header and rows; an object keyed by period whose periods are objects
TARNSIDE: dict[str, Any] = envelope(
    "Tarnside Orchards",
    meta={"currency": "EUR", "scale": "thousands", "rates": "fractions"},
    results={
        "columns": ["metric", "FY2023", "FY2024", "FY2025"],
        "rows": [["Turnover", 88.1, 91.4, 97.0], ["Spoilage", 0.061, 0.058, 0.049]],
        "units": {"Turnover": "EUR millions", "Spoilage": "fraction of harvest"},
    },
    profile={"columns": ["field", "value"], "rows": [["Pickers", 412], ["Cold stores", 6]]},
    grades={"scale": {"min": 0, "max": 4}, "columns": ["area", "grade"],
            "rows": [["Yield forecasting", 1.5], ["Packing line", 3]]},
    contracts={"columns": ["item", "amount", "currency"],
               "rows": [["Sorting robots", 2.6, "DKK"]], "units": {"amount": "millions"}},
    tools={"columns": ["function", "vendor"], "rows": [["Harvest planning", "Furrowly"]]},
    periods={
        "FY2024": {"cold-chain-spend": 3100, "net-margin": 0.052},
        "FY2025": {"cold-chain-spend": 3650, "net-margin": 0.047},
    },
    frost={"History": {"2024": {"Pct": 0.31}, "2025": {"Pct": 0.44}},
           "Pickers": {"Pct": 0.12}, "Stores": {"Pct": 0.2}},
    rivals=[{"Name": "Pêcheur Frères", "Strength": "Same-day cold-chain pickups"}],
    team={"columns": ["name", "title", "deal_role", "wants", "objections"],
          "rows": [["Ines Marr", "Head of Packing", "TechnicalEvaluator",
                    "Fewer mis-graded crates before the export season.",
                    "Has had two line upgrades overrun."]]},
)  # fmt: skip


def test_a_table_of_rows_is_read_by_its_header_and_units() -> None:
    facts = compile_facts(TARNSIDE)
    turnover = facts.by_path["results.rows[0][3]"]
    assert (turnover.label, turnover.display, turnover.period_text) == (
        "Turnover", "€97M", "FY2025",
    )  # fmt: skip
    assert facts.series["results.rows[1]"].display == "4.9% in FY2025, down from 5.8% in FY2024"
    assert facts.by_path["profile.rows[0][1]"].label == "Pickers"
    assert facts.by_path["grades.rows[0][1]"].display == "1.5/4"
    assert facts.by_path["contracts.rows[0][1]"].display == "2.6M DKK"  # the row's currency
    assert facts.by_path["tools.rows[0][1]"].label == "Harvest planning"  # two columns
    assert facts.by_path["contracts.rows[0][0]"].label == "Item"  # a record's field: its header


def test_a_period_keyed_object_of_objects_holds_a_series_per_key() -> None:
    facts = compile_facts(TARNSIDE)
    spend = facts.series["periods.*.cold-chain-spend"]
    # the conventions object gives the amounts' currency and scale, and the rates' form
    assert spend.display == "€3.65M in FY2025, up from €3.1M in FY2024"
    assert facts.by_path["periods.FY2025.net-margin"].display == "4.7%"
    assert facts.by_path["periods.FY2025.net-margin"].period_text == "FY2025"


@pytest.fixture(scope="module")
def tarnside(tmp_path_factory: pytest.TempPathFactory) -> TurnDeps:
    return offline_deps(tmp_path_factory.mktemp("tarnside"), {"tarnside": TARNSIDE})


def test_a_row_of_a_figure_table_is_answered_as_its_series(tarnside: TurnDeps) -> None:
    turnover = ask(tarnside, "tarnside", "turnover fy23 vs fy25")
    assert texts(turnover)[0] == "Turnover in FY2023: €88.1M; in FY2025: €97M."
    assert cited(turnover)[:2] == ["results.rows[0][1]", "results.rows[0][3]"]
    assert "results.units.Spoilage" in cited(ask(tarnside, "tarnside", "spoilage?"))  # its unit
    grade = ask(tarnside, "tarnside", "packing line grade?")
    assert texts(grade)[0] == "Packing line: 3/4."
    assert "grades.scale.max" in cited(grade)
    tool = ask(tarnside, "tarnside", "what do they use for harvest planning")
    assert cited(tool)[0].startswith("tools.rows[0]")


def test_each_key_of_the_periods_is_answered_as_one_series(tarnside: TurnDeps) -> None:
    spend = ask(tarnside, "tarnside", "cold chain spend fy24 vs fy25")
    assert texts(spend)[0] == "Cold chain spend in FY2024: €3.1M; in FY2025: €3.65M."
    assert cited(spend) == ["periods.FY2024.cold-chain-spend", "periods.FY2025.cold-chain-spend"]


def test_a_reps_word_a_report_key_uses_is_that_keys_word(tarnside: TurnDeps) -> None:
    spoilage = ask(tarnside, "tarnside", "spoilage?")  # not the question synonym of waste
    assert texts(spoilage)[0].startswith("Spoilage: ")


def test_a_number_read_with_no_unit_is_said_as_stored_with_its_period(
    tarnside: TurnDeps,
) -> None:
    # ``Pct`` keys holding fractions: 0.44 is untyped (fraction or percent?), never 0.44%
    frost = ask(tarnside, "tarnside", "frost in 2025?")
    assert "Frost in 2025: 0.44." in texts(frost)


def test_a_follow_up_on_a_person_reads_the_field_its_words_ask_for(tarnside: TurnDeps) -> None:
    after = ask(tarnside, "tarnside", "who is ines marr", "what's she after")
    assert texts(after) == ["Wants: Fewer mis-graded crates before the export season."]
    back = ask(tarnside, "tarnside", "who is ines marr", "whats holding her back")
    assert texts(back) == ["Objections: Has had two line upgrades overrun."]


def test_a_name_with_accents_is_found_as_a_rep_types_it(tarnside: TurnDeps) -> None:
    rival = ask(tarnside, "tarnside", "how do we position vs pecheur freres")
    assert any(path.startswith("rivals[0]") for path in cited(rival))


# a long-format table of facts: one row per figure, of a part of the business
KESTLE: dict[str, Any] = envelope(
    "Kestle Ferries",
    parts=[{"code": "KF", "label": "Kestle Ferries (group)"},
           {"code": "KF-FREIGHT", "label": "Kestle Freight"}],
    uom_codes={"PCT": "percent", "EUR_M": "euros, millions"},
    facts=[
        {"entity": "KF", "metric": "revenue", "period": "FY2025", "value": 212.4, "uom": "EUR_M"},
        {"entity": "KF-FREIGHT", "metric": "revenue", "period": "FY2025", "value": 38.1,
         "uom": "EUR_M"},
        {"entity": "KF", "metric": "on_time_departures", "period": "TTM Q3 2025", "value": 81.2,
         "uom": "PCT"},
    ],
    people=[{"Name": "Maren Holt", "Function": "Chair of the crew council",
             "Deal role": "Blocker", "Notes": "Any rostering tool needs a crew agreement."}],
)  # fmt: skip


@pytest.fixture(scope="module")
def kestle(tmp_path_factory: pytest.TempPathFactory) -> TurnDeps:
    return offline_deps(tmp_path_factory.mktemp("kestle"), {"kestle": KESTLE})


def test_a_row_of_a_fact_table_is_a_figure_named_by_its_metric(kestle: TurnDeps) -> None:
    punctual = ask(kestle, "kestle", "on time departures?")
    assert texts(punctual)[0] == "On time departures: 81.2% (TTM Q3 2025)."
    freight = " ".join(texts(ask(kestle, "kestle", "freight revenue?")))
    assert "Revenue (KF-FREIGHT): €38.1M" in freight


def test_a_person_is_found_by_two_words_of_their_title(kestle: TurnDeps) -> None:
    said = texts(ask(kestle, "kestle", "how do i handle the crew council"))
    assert any("Maren Holt" in t for t in said), said
