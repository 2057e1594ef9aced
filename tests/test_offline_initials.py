"""A rep types a system by its initials ("what pss are they on"): the report's key or
value whose words they spell answers, a whole key before a run inside a longer one."""

from __future__ import annotations

from typing import Any

import pytest
from offline_support import ask, cited, envelope, offline_deps, texts

from prism_slack.facts import compile_facts
from prism_slack.pipeline.turn import TurnDeps

AIRLINE: dict[str, Any] = envelope(
    "Solvare Regional",
    TechnologyStack={"PassengerService": {"Vendor": "Hitit", "Product": "Crane PAX"}},
    Network={"PublicServiceObligation": {"Routes": 7}},
    Meta={"Method": "Fourteen interviews and 12 months of PSS data"},
    Financials={"Net profit after tax (FY2025, EUR m)": 46.3},
    Passengers={"value": 2.14, "uom": "count, millions"},
)


@pytest.fixture(scope="module")
def deps(tmp_path_factory: pytest.TempPathFactory) -> TurnDeps:
    return offline_deps(tmp_path_factory.mktemp("initials"), {"airline": AIRLINE})


def test_initials_with_a_systems_s_name_the_whole_key_they_spell(deps: TurnDeps) -> None:
    pss = ask(deps, "airline", "what pss are they on")
    assert cited(pss)[0].startswith("TechnologyStack.PassengerService")
    assert "Hitit" in texts(pss)[0]


def test_a_measure_the_lexicon_knows_is_not_read_as_initials(deps: TurnDeps) -> None:
    nps = ask(deps, "airline", "what's their NPS")  # not "net profit" + s
    assert not any("Net profit" in t for t in texts(nps))


def test_a_unit_legend_of_a_count_in_millions_shows_the_count() -> None:
    fact = compile_facts(AIRLINE).get("Passengers.value")
    assert fact is not None and fact.display == "2.14M"
