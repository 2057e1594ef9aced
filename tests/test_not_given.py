"""A value that says the report gives none (``null``, "n/a", "not disclosed", "—") is read
as such at load, answered as a missing figure, and proves a figure claimed for it wrong."""

from __future__ import annotations

from typing import Any

import pytest
from offline_support import ask, envelope, offline_deps, texts

from prism_slack.claims import Claim
from prism_slack.facts import FactKind, compile_facts
from prism_slack.pipeline.turn import TurnDeps
from prism_slack.reports.model import build_report
from prism_slack.verify import verify_claim

HALVERN: dict[str, Any] = envelope(
    "Halvern Glassworks",
    finance=[
        {"name": "Turnover", "value": "GBP 41.2m", "asOf": "FY2025"},
        {"name": "Pension deficit", "value": "not disclosed; under actuarial review"},
        {"name": "Energy hedging cost", "value": "n/a"},
    ],
    kiln={"uptime": 0.934, "rebuild_cost_gbp": None, "furnace_count": "—", "dividend": "k. A."},
)  # fmt: skip


@pytest.mark.parametrize(
    ("path", "given"),
    [
        ("finance[1].value", False),
        ("finance[2].value", False),
        ("kiln.rebuild_cost_gbp", False),
        ("kiln.furnace_count", False),
        ("kiln.dividend", False),  # keine Angabe
        ("finance[0].value", True),
        ("kiln.uptime", True),
    ],
)
def test_a_value_that_says_none_is_given_is_read_as_such(path: str, given: bool) -> None:
    fact = compile_facts(HALVERN).by_path[path]
    assert (fact.kind is not FactKind.NOT_GIVEN) is given, fact


@pytest.mark.parametrize("text", ["-12 bps", "Unknowns: 3 sites", "n/a at 4 sites", "NA region"])
def test_a_figure_or_a_word_after_the_phrase_is_a_value(text: str) -> None:
    fact = compile_facts(envelope("Acme", d={"x": text})).by_path["d.x"]
    assert fact.kind is not FactKind.NOT_GIVEN


@pytest.fixture(scope="module")
def halvern(tmp_path_factory: pytest.TempPathFactory) -> TurnDeps:
    return offline_deps(tmp_path_factory.mktemp("halvern"), {"halvern": HALVERN})


def test_an_ask_for_a_figure_the_report_does_not_give_says_so(halvern: TurnDeps) -> None:
    said = texts(ask(halvern, "halvern", "what's the pension deficit?"))
    assert said[0] == "The report doesn't give a figure for pension deficit."
    assert "not disclosed; under actuarial review" in said[1]


def test_a_nearby_missing_value_is_no_missing_answer(halvern: TurnDeps) -> None:
    said = texts(ask(halvern, "halvern", "turnover?"))
    assert "doesn't give" not in " ".join(said) and "£41.2M" in said[0]


def test_a_figure_claimed_for_a_value_not_given_fails() -> None:
    report = build_report("halvern", HALVERN)
    claim = Claim(text="The pension deficit is £12.4m.", kind="fact", evidence=["finance[1]"])
    verdict = verify_claim(claim, report)
    assert not verdict.supported, verdict
    honest = Claim(
        text="The pension deficit is not disclosed.", kind="fact", evidence=["finance[1]"]
    )
    assert verify_claim(honest, report).supported


def test_saying_a_value_is_not_given_in_a_contraction_is_not_failed() -> None:
    data = envelope(
        "Halvern Glassworks",
        results={
            "columns": ["metric", "FY2024", "FY2025"],
            "rows": [["Dividends paid", 4.2, None]],
            "units": {"Dividends paid": "GBP millions; FY2025 not disclosed"},
        },
    )
    claim = Claim(
        text="FY2025 dividends aren't disclosed.",
        kind="fact",
        evidence=["results.rows[0]", "results.columns", 'results.units["Dividends paid"]'],
    )
    assert verify_claim(claim, build_report("halvern", data)).supported
