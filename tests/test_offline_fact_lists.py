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
    assert texts(crew)[0] == "Deck crew: 344 FTE as of 2025-12-31."
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
