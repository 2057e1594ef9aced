"""Tables stored by column, period-keyed columns, records with quoted keys and rows of
figures, each read by the offline answerer through the whole turn (verifier included), on
small reports of their own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from offline_support import ask, cited, envelope, offline_deps, texts

from prism_slack.llm.offline_index import column_table, field_key
from prism_slack.pipeline.turn import TurnDeps

# columns beside a period column, people / findings / grades stored by column
LARCH: dict[str, Any] = envelope(
    "Larchfield Mills",
    money={
        "years": ["FY22", "FY23", "FY24"],
        "units": {"turnover": "GBP m"},
        "turnover": [41.2, 44.9, 47.3],
        "gross_margin": ["31.0 %", "29.5 %", "28.1 %"],
    },
    grades={
        "scale": "1–5",
        "areas": ["Dyeing line", "Order desk", "Loom upkeep"],
        "grade": [3, 1, 2],
    },
    contacts={
        "name": ["Petra Lind", "Otto Brandt"],
        "title": ["Managing Director", "Head of Finance"],
        "deal_role": ["economic buyer", "blocker"],
        "objections": [
            "Will not sign a contract longer than two years",
            "Refuses any tool that needs a new server room",
        ],
    },
    issues={
        "severity": ["critical", "low"],
        "title": ["Looms stand idle every Monday", "Invoices are typed twice"],
        "detail": [
            "Each Monday the looms stand idle for 3 hours while yarn is counted.",
            "Every invoice is typed into two ledgers.",
        ],
    },
)

# human-label keys, and a table of figures as {label, value, unit} rows
QUAY: dict[str, Any] = envelope(
    "Quayside Bakers",
    People=[
        {
            "Name": "Mina Sato",
            "Title": "Chief Executive",
            "Role in deal": "Economic buyer",
            "Objections / concerns": "Will not fund a second ordering app",
        }
    ],
    facts=[
        {"label": "Founded", "value": 1994},
        {"label": "Net debt / EBITDA", "value": 3.2, "unit": "x"},
    ],
    issues=[
        {
            "id": "Q-1",
            "severity": "critical",
            "label": "Ovens run half empty at night",
            "note": "Night batches fill 40% of oven space.",
        }
    ],
)


@pytest.fixture
def deps(tmp_path: Path) -> TurnDeps:
    return offline_deps(tmp_path, {"larch": LARCH, "quay": QUAY})


def test_a_table_stored_by_column_is_found_and_its_keys_are_read() -> None:
    assert column_table(LARCH["contacts"]) == ("name", "title", "deal_role", "objections")
    assert column_table({"channels": ["web", "shop"], "note": "x", "owner": "y"}) == ()
    assert field_key("contacts.title[1]") == "title"
    assert field_key('People[0]["Objections / concerns"]') == "Objections / concerns"


def test_people_stored_by_column_are_people_by_role(deps: TurnDeps) -> None:
    result = ask(deps, "larch", "who's the blocker")
    assert texts(result)[0].startswith("Otto Brandt: Head of Finance, blocker")
    assert "contacts.name[1]" in cited(result)


def test_a_follow_up_on_a_persons_issue_reads_their_objections(deps: TurnDeps) -> None:
    result = ask(deps, "larch", "who's the blocker", "whats his issue")
    assert cited(result) == ["contacts.objections[1]"]
    result = ask(deps, "quay", "who's the economic buyer", "what's she worried about")
    assert cited(result) == ['People[0]["Objections / concerns"]']


def test_findings_stored_by_column_lead_by_severity(deps: TurnDeps) -> None:
    result = ask(deps, "larch", "what should i lead with")
    assert "issues.title[0]" in cited(result)
    assert "Looms stand idle every Monday" in texts(result)[0]


def test_a_period_named_picks_that_cell_of_a_column(deps: TurnDeps) -> None:
    result = ask(deps, "larch", "turnover and gross margin for fy23")
    assert cited(result) == ["money.turnover[1]", "money.gross_margin[1]"]
    assert texts(result)[1] == "Gross margin in FY23: 29.5%."


def test_two_periods_of_a_column_side_by_side(deps: TurnDeps) -> None:
    result = ask(deps, "larch", "gross margin fy22 vs fy24")
    assert cited(result) == ["money.gross_margin[0]", "money.gross_margin[2]"]
    assert texts(result)[0] == "Gross margin in FY22: 31%; in FY24: 28.1%."


def test_columns_of_names_and_grades_keep_their_scale(deps: TurnDeps) -> None:
    result = ask(deps, "larch", "what's their weakest grade", "out of what?")
    assert "grades.scale" in cited(result)
    assert "Order desk; grade: 1/5." in texts(result)


def test_a_row_of_figures_answers_the_companys_age_and_leverage(deps: TurnDeps) -> None:
    assert "facts[0].value" in cited(ask(deps, "quay", "when were they founded"))
    result = ask(deps, "quay", "how leveraged are they")
    assert "facts[1].value" in cited(result)
    assert "3.2x" in texts(result)[0]


def test_a_finding_row_is_named_by_its_label(deps: TurnDeps) -> None:
    result = ask(deps, "quay", "what should i lead with")
    assert texts(result)[0] == "Finding: Ovens run half empty at night; critical severity."
