"""Issue 21, general reading: each behaviour is tried on a small report of its own, in a
house style and with words that neither the sample reports nor the dev corpora use, so a
rule that only fits one corpus line fails here. Every answer goes through the whole turn
(verifier included): what a test reads is what a rep would be posted."""

from __future__ import annotations

from typing import Any

import pytest
from offline_support import ask, cited, envelope, offline_deps, texts

from prism_slack.llm import lexicon
from prism_slack.llm.offline_index import head_of
from prism_slack.pipeline.turn import TurnDeps
from prism_slack.reports.model import build_report

BIRCH: dict[str, Any] = envelope(
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

HEATH: dict[str, Any] = envelope(
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
    return offline_deps(tmp_path_factory.mktemp("reports"), {"birch": BIRCH, "heath": HEATH})


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
    whole = ask(deps, "birch", "what's their revenue")
    assert cited(whole)[0] == "money.revenue.total"
    assert not any("byRegion" in p for p in cited(whole))
    north = ask(deps, "birch", "north revenue")
    assert any(p.startswith("money.revenue.byRegion.north") for p in cited(north))
    sales = ask(deps, "heath", "what are their sales")
    assert cited(sales)[0] == 'Figures["Total Sales"]'
    assert 'Figures["Online Sales"]' not in cited(sales)
    online = ask(deps, "heath", "online sales")
    assert cited(online)[0] == 'Figures["Online Sales"]'


def test_a_size_asked_in_a_word_no_field_is_named_by(deps: TurnDeps) -> None:
    result = ask(deps, "heath", "how big is their portfolio")
    assert 'Figures["Total Sales"]' in cited(result)


def test_measures_in_a_reps_words(deps: TurnDeps) -> None:
    capital = ask(deps, "birch", "how well capitalized are they")
    assert cited(capital) == ["money.cet1Ratio"]
    patients = ask(deps, "birch", "what do patients think of them")
    assert cited(patients)[0].startswith("experience.patientSatisfaction")
    lacking = ask(deps, "heath", "are they solvent")
    assert texts(lacking)[0] == "The report doesn't give a capital or solvency measure."


def test_a_share_of_the_business_by_its_part(deps: TurnDeps) -> None:
    south = ask(deps, "birch", "how much of their revenue is south")
    assert cited(south) == ["money.revenue.byRegion.south.sharePct"]
    missing = ask(deps, "birch", "how much of their business is exports")
    assert texts(missing)[0] == "Not in the audit report: exports."
    parts = {"money.revenue.byRegion.north.sharePct", "money.revenue.byRegion.south.sharePct"}
    assert parts <= set(cited(missing))


def test_a_kind_of_tool_is_what_it_is_for_not_its_name(deps: TurnDeps) -> None:
    cloud = ask(deps, "birch", "what's their cloud provider")
    assert texts(cloud)[0] == "Not in the audit report: cloud provider."
    assert "tooling[1].product" in cited(cloud)  # the near miss, offered as such
    email = ask(deps, "birch", "what email platform do they use")
    assert "tooling[2].vendor" in cited(email)
    assert not any(p.kind == "absent" for p in email.posted)


def test_what_they_use_for_a_job_and_since_when(deps: TurnDeps) -> None:
    billing = ask(deps, "birch", "what do they use for billing")
    assert cited(billing)[0].startswith("tooling[0]")
    since = ask(deps, "birch", "what do they use for billing", "since when?")
    assert "tooling[0].since" in cited(since)


def test_an_acronym_typed_in_capitals_must_be_held(deps: TurnDeps) -> None:
    result = ask(deps, "birch", "how much do they spend on R&D")
    assert texts(result)[0] == "That's not in the audit report."  # the budget is no R&D spend


def test_a_coaching_word_that_names_a_field(deps: TurnDeps) -> None:
    days = ask(deps, "birch", "days to close?")
    assert cited(days) == ["pipeline.daysToClose"]
    coached = ask(deps, "birch", "how do I close them")
    assert any(p.kind == "coaching" for p in coached.posted)


def test_a_company_name_word_the_report_counts(deps: TurnDeps) -> None:
    assert cited(ask(deps, "birch", "how many clinics do they have"))[0] == "overview.clinics"
    legal = ask(deps, "birch", "what's their legal name")
    assert cited(legal)[0] == "overview.legalName"


def test_a_count_asked_prefers_a_count_in_text(deps: TurnDeps) -> None:
    assert cited(ask(deps, "heath", "how many stores"))[0] == "Figures.Estate"


def test_labels_keep_acronyms(deps: TurnDeps) -> None:
    ncr = ask(deps, "birch", "how many NCRs are open")
    assert texts(ncr)[0].startswith("NCR open: 9")  # the report's text writes "NCR"
    report = build_report("birch", BIRCH)
    typed = report.facts.get("money.cet1Ratio")
    assert typed is not None and typed.label.startswith("CET1")


def test_a_signed_change_is_said_as_up_or_down(deps: TurnDeps) -> None:
    assert texts(ask(deps, "heath", "sales growth")) == ["Sales Growth: up 4.1%."]


def test_the_period_before_after_a_series(deps: TurnDeps) -> None:
    latest = ask(deps, "birch", "no show rate")
    assert "7% in 2024" in texts(latest)[0]
    before = ask(deps, "birch", "no show rate", "and last year?")
    assert texts(before)[0].endswith("in 2023: 9%.")  # the period names the figure
    named = ask(deps, "birch", "no show rate", "and last year?", "what about 2022?")
    assert texts(named)[0].endswith("in 2022: 11%.")


def test_a_money_word_qualifying_a_count_is_no_amount() -> None:
    report = build_report("birch", BIRCH)
    reps = report.facts.get("money.fieldSalesReps")
    assert reps is not None and reps.quantity is not None
    assert reps.quantity.unit.value == "count" and reps.display == "38"
    budget = report.facts.get("money.marketingBudget")
    assert budget is not None and budget.display == "€2.1M"
