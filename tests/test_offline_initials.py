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


SCHOOL: dict[str, Any] = envelope(
    "Waimata Learning",
    maturity={
        "scale": {"min": 0, "max": 5},
        "columns": ["dimension", "score"],
        "rows": [["Parent communication", 2.5], ["Data integration", 1], ["Cyber security", 4]],
    },
    operations={"Time to arrive (rural)": "1 h 52 min", "Installed capacity (MW)": 612},
)


@pytest.fixture(scope="module")
def school(tmp_path_factory: pytest.TempPathFactory) -> TurnDeps:
    return offline_deps(tmp_path_factory.mktemp("school"), {"school": SCHOOL})


def test_the_strongest_of_a_scored_section_is_its_top_score(school: TurnDeps) -> None:
    both = ask(school, "school", "weakest vs strongest maturity score")
    assert [t.split(":")[0] for t in texts(both)[:1]] == ["Data integration"]
    assert any(t.startswith("Cyber security") for t in texts(both))


def test_a_metric_or_a_thing_the_report_never_names_is_said_absent(school: TurnDeps) -> None:
    nps = ask(school, "school", "parent nps score?")
    assert texts(nps)[0] == "Not in the audit report: NPS."
    pipeline = ask(school, "school", "how many MW in the development pipeline")
    assert texts(pipeline)[0] == "Not in the audit report: development pipeline."


def test_a_wait_of_over_an_hour_is_said_in_hours_and_minutes(school: TurnDeps) -> None:
    wait = ask(school, "school", "rural time to arrive?")
    assert texts(wait)[0] == "Time to arrive (rural): 1 h 52 min."
