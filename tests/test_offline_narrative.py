"""A narrative report: people written as lines and findings as sections whose heading
states the severity. The answerer reads them as the records a structured report keeps."""

from __future__ import annotations

from typing import Any

import pytest
from offline_support import ask, cited, envelope, offline_deps, texts

from prism_slack.pipeline.turn import TurnDeps

VETS: dict[str, Any] = envelope(
    "Aldermoor Veterinary Group",
    people=[
        "**Priyesh Lad**, Chief Operating Officer — economic buyer. Signs off anything above "
        "£100,000.",
        "**Martina Kovács**, Operations Director (UK practices) — champion. Wants online "
        "booking in every UK practice by the end of FY2026.",
        "**Dr Ciarán Nolan**, Clinical Director, Ireland — sceptic. Opposes moving the Irish "
        "practices off Provet Cloud.",
    ],
    sections=[
        {"heading": "1. Financial position", "body": "Group revenue was £138.6m in FY2025."},
        {
            "heading": "4. Finding A — Two practice-management systems (severity: critical)",
            "body": "41 practices run RxWorks and 22 run Provet Cloud, with no shared record.",
        },
        {
            "heading": "5. Finding B — Reminders are sent by each practice (severity: high)",
            "body": "About a third of reminders go out on paper.",
        },
    ],
)


@pytest.fixture(scope="module")
def deps(tmp_path_factory: pytest.TempPathFactory) -> TurnDeps:
    return offline_deps(tmp_path_factory.mktemp("vets"), {"vets": VETS})


def test_a_person_written_as_a_line_is_a_person(deps: TurnDeps) -> None:
    champion = ask(deps, "vets", "who's the champion")
    assert texts(champion)[0] == "Martina Kovács: Operations Director (UK practices), champion."
    wants = ask(deps, "vets", "who's the champion", "what does she want")
    assert any("online booking" in t for t in texts(wants))
    assert set(cited(wants)) == {"people[1]"}
    blocker = ask(deps, "vets", "who is the blocker")
    assert texts(blocker)[0].startswith("Dr Ciarán Nolan: Clinical Director, Ireland")


def test_a_section_whose_heading_states_a_severity_is_a_finding(deps: TurnDeps) -> None:
    worries = ask(deps, "vets", "what should I worry about")
    assert texts(worries)[0] == "Finding: Two practice-management systems; critical severity."
    assert cited(worries)[0] == "sections[1].heading"
    assert not any("Financial position" in t for t in texts(worries))


def test_a_severity_given_in_two_languages_ranks_as_its_english_word(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    report = envelope(
        "Kranich",
        Findings=[
            {"Severity": "mittel / medium", "Title": "Quotes take a week"},
            {"Severity": "kritisch / critical", "Title": "Dispatch runs on fixed zones"},
        ],
    )
    deps = offline_deps(tmp_path_factory.mktemp("kranich"), {"kranich": report})
    worries = ask(deps, "kranich", "what should I worry about")
    assert texts(worries)[0] == (
        "Finding: Dispatch runs on fixed zones; kritisch / critical severity."
    )


def test_a_follow_up_for_the_target_reads_the_figure_just_given(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    report = envelope(
        "Tallowood",
        operations=[
            "Production waste: 6.8% of output (FY25), target 4%",
            "Production planning: 3",
            "Route planning: Routific",
        ],
    )
    deps = offline_deps(tmp_path_factory.mktemp("tallowood"), {"tallowood": report})
    target = ask(deps, "tallowood", "what's their waste rate", "and whats the target?")
    assert texts(target)[0] == "Production waste: 6.8% of output (FY25), target 4%."
