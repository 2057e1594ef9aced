"""Issue 21, general reading: each behaviour is tried on a small report of its own, in a
house style and with words that neither the sample reports nor the dev corpora use, so a
rule that only fits one corpus line fails here. Every answer goes through the whole turn
(verifier included): what a test reads is what a rep would be posted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from prism_slack.llm import lexicon
from prism_slack.llm.offline import OfflineAnswerer
from prism_slack.llm.offline_index import head_of
from prism_slack.llm.playbook import load_playbook
from prism_slack.pipeline.result import TurnResult
from prism_slack.pipeline.turn import TurnDeps, run_turn
from prism_slack.ports import Conversation
from prism_slack.reports.model import build_report
from prism_slack.reports.store import FileReportStore
from prism_slack.state.redis_store import memory_store


def _envelope(name: str, **data: Any) -> dict[str, Any]:
    return {
        "company": {"name": name, "aliases": []},
        "report": {"id": f"R-{name[:3].upper()}", "generated_at": "2026-05-01"},
        **data,
    }


BIRCH: dict[str, Any] = _envelope(
    "Birch Clinics",
    overview={"clinics": 14, "staffTotal": 610, "legalName": "Birch Clinics Holdings LLP"},
    money={
        "currency": "EUR",
        "revenue": {
            "total": 91400000,
            "byRegion": {
                "north": {"revenue": 52100000, "sharePct": 57},
                "south": {"revenue": 39300000, "sharePct": 43},
            },
        },
        "revenueGrowth": 0.041,
        "cet1Ratio": 0.143,
        "marketingBudget": 2100000,
        "fieldSalesReps": 38,
    },
    experience={"patientSatisfaction": 4.4, "staffSatisfaction": 3.1, "scaleMax": 5},
    pipeline={"daysToClose": 64, "openDeals": 22},
    quality={"ncr": {"open": 9, "overdue": 2}},
    tooling=[
        {"category": "Billing", "vendor": "Zuora", "product": "Zuora Billing", "since": 2018},
        {"category": "CRM", "vendor": "Salesforce", "product": "Health Cloud", "since": 2020},
        {"category": "Email", "vendor": "Brevo", "product": "Brevo", "since": 2022},
    ],
    trend={"noShowRate": {"2022": 0.11, "2023": 0.09, "2024": 0.07}},
    findings=[
        {
            "headline": "NCR backlog is growing",
            "severity": "high",
            "detail": "Nine NCRs are open and two are overdue.",
        }
    ],
)

HEATH: dict[str, Any] = _envelope(
    "Heath Outdoor",
    Figures={
        "Total Sales": "£48.2m",
        "Online Sales": "£11.9m",
        "Sales Growth": "+4.1% YoY",
        "Estate": "40 stores (12 outlets, 28 high street)",
    },
    Notes={"Summary": "A mid-sized retailer whose portfolio leans on its high-street estate."},
)


@pytest.fixture(scope="module")
def deps(tmp_path_factory: pytest.TempPathFactory) -> TurnDeps:
    root = tmp_path_factory.mktemp("reports")
    for slug, data in (("birch", BIRCH), ("heath", HEATH)):
        (root / slug).mkdir()
        (root / slug / "audit-data.json").write_text(json.dumps(data))
    playbook = load_playbook()
    return TurnDeps(
        reports=FileReportStore(Path(root)),
        state=memory_store(),
        model=OfflineAnswerer(),
        playbook_text=playbook.render(),
        vocabulary=playbook.vocabulary(),
        enforce_access=False,
    )


def _ask(deps: TurnDeps, slug: str, *questions: str) -> TurnResult:
    where = Conversation(team="T", channel="C", thread="-".join(questions))
    result = None
    for q in questions:
        result = run_turn(q, where, deps, report=slug)
    assert result is not None
    assert not result.withheld, result.withheld  # the answerer's own claims are all posted
    return result


def _texts(result: TurnResult) -> list[str]:
    return [p.text for p in result.posted]


def _cited(result: TurnResult) -> list[str]:
    return [f.path for f in result.footnotes]


def test_a_name_has_a_head_read_in_any_case_style() -> None:
    assert head_of(("money", "grossWrittenPremium")) is not None
    assert head_of(("x", "field_sales_reps")).term == "rep"  # type: ignore[union-attr]
    total = head_of(("money", "revenue", "total_usd"))
    assert total is not None and total.term == "revenue" and total.pure
    share = head_of(("c", "share_of_revenue_pct"))
    assert share is not None and share.term == lexicon.stem("share")  # a share, of revenue
    rooms = head_of(("F", "Rooms Revenue"))
    assert rooms is not None and rooms.term == "revenue" and not rooms.pure


def test_the_measure_asked_comes_before_its_parts(deps: TurnDeps) -> None:
    whole = _ask(deps, "birch", "what's their revenue")
    assert _cited(whole)[0] == "money.revenue.total"
    assert not any("byRegion" in p for p in _cited(whole))
    north = _ask(deps, "birch", "north revenue")
    assert any(p.startswith("money.revenue.byRegion.north") for p in _cited(north))
    sales = _ask(deps, "heath", "what are their sales")
    assert _cited(sales)[0] == 'Figures["Total Sales"]'
    assert 'Figures["Online Sales"]' not in _cited(sales)
    online = _ask(deps, "heath", "online sales")
    assert _cited(online)[0] == 'Figures["Online Sales"]'


def test_a_size_asked_in_a_word_no_field_is_named_by(deps: TurnDeps) -> None:
    result = _ask(deps, "heath", "how big is their portfolio")
    assert 'Figures["Total Sales"]' in _cited(result)


def test_measures_in_a_reps_words(deps: TurnDeps) -> None:
    capital = _ask(deps, "birch", "how well capitalized are they")
    assert _cited(capital) == ["money.cet1Ratio"]
    patients = _ask(deps, "birch", "what do patients think of them")
    assert _cited(patients)[0].startswith("experience.patientSatisfaction")
    lacking = _ask(deps, "heath", "are they solvent")
    assert _texts(lacking)[0] == "The report doesn't give a capital or solvency measure."


def test_a_share_of_the_business_by_its_part(deps: TurnDeps) -> None:
    south = _ask(deps, "birch", "how much of their revenue is south")
    assert _cited(south) == ["money.revenue.byRegion.south.sharePct"]
    missing = _ask(deps, "birch", "how much of their business is exports")
    assert _texts(missing)[0] == "Not in the audit report: exports."
    parts = {"money.revenue.byRegion.north.sharePct", "money.revenue.byRegion.south.sharePct"}
    assert parts <= set(_cited(missing))


def test_a_kind_of_tool_is_what_it_is_for_not_its_name(deps: TurnDeps) -> None:
    cloud = _ask(deps, "birch", "what's their cloud provider")
    assert _texts(cloud)[0] == "Not in the audit report: cloud provider."
    assert "tooling[1].product" in _cited(cloud)  # the near miss, offered as such
    email = _ask(deps, "birch", "what email platform do they use")
    assert "tooling[2].vendor" in _cited(email)
    assert not any(p.kind == "absent" for p in email.posted)


def test_what_they_use_for_a_job_and_since_when(deps: TurnDeps) -> None:
    billing = _ask(deps, "birch", "what do they use for billing")
    assert _cited(billing)[0].startswith("tooling[0]")
    since = _ask(deps, "birch", "what do they use for billing", "since when?")
    assert "tooling[0].since" in _cited(since)


def test_an_acronym_typed_in_capitals_must_be_held(deps: TurnDeps) -> None:
    result = _ask(deps, "birch", "how much do they spend on R&D")
    assert _texts(result)[0] == "That's not in the audit report."  # the budget is no R&D spend


def test_a_coaching_word_that_names_a_field(deps: TurnDeps) -> None:
    days = _ask(deps, "birch", "days to close?")
    assert _cited(days) == ["pipeline.daysToClose"]
    coached = _ask(deps, "birch", "how do I close them")
    assert any(p.kind == "coaching" for p in coached.posted)


def test_a_company_name_word_the_report_counts(deps: TurnDeps) -> None:
    assert _cited(_ask(deps, "birch", "how many clinics do they have"))[0] == "overview.clinics"
    legal = _ask(deps, "birch", "what's their legal name")
    assert _cited(legal)[0] == "overview.legalName"


def test_a_count_asked_prefers_a_count_in_text(deps: TurnDeps) -> None:
    assert _cited(_ask(deps, "heath", "how many stores"))[0] == "Figures.Estate"


def test_labels_keep_acronyms(deps: TurnDeps) -> None:
    ncr = _ask(deps, "birch", "how many NCRs are open")
    assert _texts(ncr)[0].startswith("NCR open: 9")  # the report's text writes "NCR"
    report = build_report("birch", BIRCH)
    typed = report.facts.get("money.cet1Ratio")
    assert typed is not None and typed.label.startswith("CET1")


def test_a_signed_change_is_said_as_up_or_down(deps: TurnDeps) -> None:
    assert _texts(_ask(deps, "heath", "sales growth")) == ["Sales Growth: up 4.1%."]


def test_the_period_before_after_a_series(deps: TurnDeps) -> None:
    latest = _ask(deps, "birch", "no show rate")
    assert "7% in 2024" in _texts(latest)[0]
    before = _ask(deps, "birch", "no show rate", "and last year?")
    assert _texts(before)[0].endswith("9% in 2023.")
    named = _ask(deps, "birch", "no show rate", "and last year?", "what about 2022?")
    assert _texts(named)[0].endswith("11% in 2022.")


def test_a_money_word_qualifying_a_count_is_no_amount() -> None:
    report = build_report("birch", BIRCH)
    reps = report.facts.get("money.fieldSalesReps")
    assert reps is not None and reps.quantity is not None
    assert reps.quantity.unit.value == "count" and reps.display == "38"
    budget = report.facts.get("money.marketingBudget")
    assert budget is not None and budget.display == "€2.1M"
