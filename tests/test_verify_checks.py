"""Each hard check on its own, on a small inline report; then rungs, ``undecided`` and
``promote``."""

from __future__ import annotations

from typing import Any

import pytest

from prism_slack.claims import Answer, Claim
from prism_slack.reports.model import Report, build_report
from prism_slack.verdict import Check, ClaimVerdict, Rung
from prism_slack.verify import promote, verify_answer, verify_claim
from prism_slack.verify.checks import (
    MAX_POINTERS,
    ClaimContext,
    check_anchor_warrant,
    check_attribute_warrant,
    check_entity_warrant,
    check_fact_cites,
    check_pointers_resolve,
    check_text_nonempty,
    evaluate,
    failed_checks,
)
from prism_slack.verify.entities import find_names
from prism_slack.verify.index import index_for

DATA: dict[str, Any] = {
    "company": {"name": "Acme Widgets, Inc.", "aliases": ["Acme"], "domain": "acmewidgets.com"},
    "report": {
        "id": "R-1",
        "generated_at": "2026-03-09",
        "fiscal_year": "FY2025",
        "period": "2025-02-01 to 2026-01-31",
    },
    "financials": {
        "revenue_usd": 4137220,
        "revenue_growth_pct": -5.0,
        "gross_margin": 0.412,
        "net_revenue_usd": 3000000,
    },
    "metrics": {
        "churn_rate": 0.0366,
        "trial_conversion_pct": 3.66,
        "monthly_sessions": 120000,
        "nps": 41,
    },
    "scores": {"max": 10, "security": 7, "hiring": 2, "pricing": 5},
    "vendors": {"crm": "HubSpot", "erp": "SAP S/4HANA"},
    "policy": {"approval": "Any deal above $250,000 needs three references."},
    "findings": [
        {
            "id": "FND-1",
            "title": "Slow mobile checkout",
            "severity": "high",
            "detail": "Checkout takes 2.9 s on mobile, up from 1.8 s in Q4 2025.",
        },
        {
            "id": "FND-2",
            "title": "Invoices are keyed by hand",
            "severity": "medium",
            "detail": "The finance team re-keys every supplier invoice into the ERP by hand; "
            "the supplier portal is offline.",
        },
    ],
    "stakeholders": [
        {"name": "Maria Chen", "title": "VP Sales", "role": "champion"},
        {"name": "Daniel Lopez", "title": "Chief Financial Officer", "role": "economic buyer"},
    ],
}


@pytest.fixture(scope="module")
def acme() -> Report:
    return build_report("acme", DATA)


def fact(text: str, *evidence: str) -> Claim:
    return Claim(text=text, kind="fact", evidence=list(evidence))


def coaching(text: str, *evidence: str) -> Claim:
    return Claim(text=text, kind="coaching", evidence=list(evidence))


def ctx(claim: Claim, report: Report, allowed: frozenset[str] = frozenset()) -> ClaimContext:
    return ClaimContext(claim, report, allowed)


# --- 1–4 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "fails"), [("", True), ("   \n", True), ("Their CRM.", False)])
def test_check_text_nonempty(text: str, fails: bool) -> None:
    assert bool(check_text_nonempty(fact(text, "vendors.crm"))) is fails


@pytest.mark.parametrize(
    ("path", "fails"),
    [
        ("vendors.crm", False),
        ("$.vendors.crm", False),
        ("findings[1].detail", False),
        ("findings", False),
        ("vendors.CRM", True),
        ("findings[2].detail", True),
        ("financials..revenue_usd", True),
        ("", True),
    ],
)
def test_check_pointers_resolve(acme: Report, path: str, fails: bool) -> None:
    reasons = check_pointers_resolve(fact("x", path), acme)
    assert bool(reasons) is fails
    if fails:
        assert reasons[0].rule == "pointers.unresolved" and repr(path) in reasons[0].message


def test_check_fact_cites() -> None:
    assert check_fact_cites(fact("Their CRM is HubSpot.")) != []
    assert check_fact_cites(coaching("Ask who owns it.")) == []
    assert check_fact_cites(fact("x", *["vendors.crm"] * MAX_POINTERS)) == []
    too_many = check_fact_cites(coaching("x", *["vendors.crm"] * (MAX_POINTERS + 1)))
    assert too_many and too_many[0].rule == "cites.too_many"
    assert str(MAX_POINTERS) in too_many[0].message


# --- 5 anchor warrant ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "evidence", "ok"),
    [
        ("Revenue is $4.1M.", ("financials.revenue_usd",), True),
        ("Revenue is $4.2M.", ("financials.revenue_usd",), False),
        ("Revenue fell 5%.", ("financials.revenue_growth_pct",), True),
        ("Revenue rose 5%.", ("financials.revenue_growth_pct",), False),
        ("Churn is 3.7%.", ("metrics.churn_rate",), True),
        ("Churn is 0.37%.", ("metrics.churn_rate",), False),
        ("Security scores 7 out of 10.", ("scores.security", "scores.max"), True),
        ("Security scores 7 out of 10.", ("scores.security",), False),
        ("Security scores 7 out of 100.", ("scores.security", "scores.max"), False),
        ("The audit is dated March 2026.", ("report.generated_at",), True),
        ("The audit is dated April 2026.", ("report.generated_at",), False),
        ("The audit covers FY2025.", ("report.fiscal_year",), True),
        ("The audit covers FY2026.", ("report.fiscal_year",), False),
        ("Checkout took 1.8 s in Q4 2025.", ("findings[0].detail",), True),
        ("Checkout took 1.8 s in Q3 2025.", ("findings[0].detail",), False),
        ("The audit covers February 2025 to January 2026.", ("report.period",), True),
        ("The fiscal year ended on January 31, 2026.", ("report.period",), True),
        ("Revenue was $4.1M in 2025.", ("financials.revenue_usd", "report.period"), True),
        ("In calendar 2025 revenue was $4.1M.", ("financials.revenue_usd", "report.period"), False),
        ("Revenue was $4.1M in Q4 2025.", ("financials.revenue_usd", "report.period"), False),
        ("The audit was written in calendar 2026.", ("report.generated_at",), True),
        ("The audit was written in calendar 2025.", ("report.generated_at",), False),
        ("Deals above $250,000 need three references.", ("policy.approval",), True),
        ("Deals above $25,000 need three references.", ("policy.approval",), False),
        ("There are 2 findings.", ("findings",), True),
        ("The audit lists 1 high-severity finding.", ("findings",), True),
        ("The audit lists two high-severity findings.", ("findings",), False),
        ("The audit lists 2 medium findings.", ("findings",), False),
        ("The audit raises 1 medium-severity issue.", ("findings",), True),
        ("The audit raises 2 medium-severity issues.", ("findings",), False),
        ("1 of the findings is high severity.", ("findings",), True),
        ("1 finding is rated high.", ("findings",), True),
        ("2 findings are rated high.", ("findings",), False),
        ("The report rates 2 of its findings as high.", ("findings",), False),
        ("There are 3 findings.", ("findings",), False),
        ("Revenue is $4.1M.", ("metrics.churn_rate",), False),
    ],
)
def test_check_anchor_warrant(acme: Report, text: str, evidence: tuple[str, ...], ok: bool) -> None:
    reasons = check_anchor_warrant(ctx(fact(text, *evidence), acme))
    assert (reasons == []) is ok, reasons


def test_anchor_reasons_name_the_number_and_diagnose(acme: Report) -> None:
    (sign,) = check_anchor_warrant(
        ctx(fact("Revenue rose 5%.", "financials.revenue_growth_pct"), acme)
    )
    assert sign.rule == "anchor.wrong_sign" and "'5%'" in sign.message
    (scale,) = check_anchor_warrant(ctx(fact("Revenue is $4.1B.", "financials.revenue_usd"), acme))
    assert scale.rule == "anchor.wrong_scale" and "'$4.1B'" in scale.message
    (score,) = check_anchor_warrant(ctx(fact("Security is 7/10.", "scores.security"), acme))
    assert score.rule == "anchor.score_scale" and "scale 10" in score.message


def test_coaching_numbers_need_a_citation_too(acme: Report) -> None:
    assert check_anchor_warrant(ctx(coaching("Ask why churn is 3.7%."), acme)) != []
    assert (
        check_anchor_warrant(ctx(coaching("Ask why churn is 3.7%.", "metrics.churn_rate"), acme))
        == []
    )


# --- 6 entity warrant ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "evidence", "ok"),
    [
        ("Their CRM is HubSpot.", ("vendors.crm",), True),
        ("Their CRM is Salesforce.", ("vendors.crm",), False),
        ("HubSpot is their CRM.", ("vendors.crm",), True),
        ("Salesforce is their CRM.", ("vendors.crm",), False),
        ("Maria Chen leads sales.", ("stakeholders[0].name",), True),
        ("Maria leads sales.", ("stakeholders[0].name",), True),
        ("Maria Lopez leads sales.", ("stakeholders[0].name", "stakeholders[1].name"), False),
        ("VP Sales Maria Chen is the champion.", ("stakeholders[0]",), True),
        ("Acme Widgets uses HubSpot.", ("vendors.crm",), True),
        ("Acme Widgets Inc uses HubSpot.", ("vendors.crm",), True),
        ("acmewidgets runs HubSpot.", ("vendors.crm",), True),
        ("Their ERP is SAP S/4HANA.", ("vendors.erp",), True),
        ("Their ERP is SAP S4HANA.", ("vendors.erp",), True),
        ("Their ERP is Oracle NetSuite.", ("vendors.erp",), False),
        ("Their ERP is SAP S/3HANA.", ("vendors.erp",), False),
        ("FND-1 is about checkout.", ("findings[0]",), True),
        ("FND-3 is about checkout.", ("findings[0]",), False),
        ("HubSpots CRM is the system of record.", ("vendors.crm",), False),
        ("HubSpot's CRM is the system of record.", ("vendors.crm",), True),
        ("Their Q4 checkout was slow.", ("findings[0].detail",), True),
        ("Revenue is reported in March.", ("report.generated_at",), True),
    ],
)
def test_check_entity_warrant(acme: Report, text: str, evidence: tuple[str, ...], ok: bool) -> None:
    reasons = check_entity_warrant(ctx(fact(text, *evidence), acme))
    assert (reasons == []) is ok, reasons


def test_a_near_miss_is_suggested_but_never_warranted(acme: Report) -> None:
    (reason,) = check_entity_warrant(ctx(fact("Their CRM is Hubspott.", "vendors.crm"), acme))
    assert reason.rule == "entity.not_cited"
    assert "'Hubspott' appears in no cited value" in reason.message
    assert "closest cited name: 'hubspot'" in reason.message


def test_allowed_terms_warrant_names_and_identifiers(acme: Report) -> None:
    claim = coaching("Use M3 (Quantify the gap) before the demo.")
    assert check_entity_warrant(ctx(claim, acme)) != []
    allowed = frozenset({"M3", "Quantify the gap"})
    assert check_entity_warrant(ctx(claim, acme, allowed)) == []


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Their CRM is HubSpot.", ["HubSpot"]),
        ("Revenue grew at Acme.", ["Acme"]),
        ("Ask the Chief Financial Officer first.", []),
        ("Salesforce runs their CRM.", ["Salesforce"]),
        ("Clinicians dislike the portal.", []),
        ("Head of Growth Jordan Tiberi owns the funnel.", ["Head of Growth Jordan Tiberi"]),
        ("Maria and Daniel both joined.", ["Maria", "Daniel"]),
        ("They use Tamarack & Pine for fleece.", ["Tamarack & Pine"]),
        ('Ask: "Walk me through it."', []),
        ("The Site Search is weak.", []),
        ("They bought eBay ads.", ["eBay"]),
        ("In March, Acme moved to HubSpot.", ["Acme", "HubSpot"]),
    ],
)
def test_find_names(text: str, names: list[str]) -> None:
    assert [n.text for n in find_names(text)] == names


# --- 7 attribute warrant ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "evidence", "ok"),
    [
        ("Trial conversion is 3.66%.", ("metrics.trial_conversion_pct",), True),
        ("Churn is 3.66%.", ("metrics.trial_conversion_pct",), False),
        ("Churn is 3.66%.", ("metrics.churn_rate",), True),
        ("Gross margin is 41.2%.", ("financials.gross_margin",), True),
        # drops "gross", but no other field holds a margin: undecided, not failed
        ("Margin is 41.2%.", ("financials.gross_margin",), True),
        ("Net margin is 41.2%.", ("financials.gross_margin",), False),
        ("Net revenue is $3M.", ("financials.net_revenue_usd",), True),
        ("Revenue is $3M.", ("financials.net_revenue_usd",), False),
        ("Sessions are 120,000.", ("metrics.monthly_sessions",), False),
        ("Monthly sessions are 120,000.", ("metrics.monthly_sessions",), True),
        ("It is 120,000.", ("metrics.monthly_sessions",), True),
        ("Mobile checkout is slow.", ("findings[0].title",), True),
        ("Mobile checkout takes 2.9 s.", ("findings[0].detail",), True),
        ("The ERP needs supplier invoices keyed by hand.", ("findings[1].detail",), True),
        ("Their warehouse lacks access controls for admins.", ("findings[1].detail",), False),
        ("Daniel Lopez is the CFO.", ("stakeholders[1]",), True),
        ("Maria Chen is the CFO.", ("stakeholders[0]",), False),
        ("Hiring is their weakest area, at 2 out of 10.", ("scores",), True),
        ("Hiring is their second-weakest area, at 2 out of 10.", ("scores",), False),
        ("Security is their weakest area, at 7 out of 10.", ("scores",), False),
        ("The supplier portal is offline.", ("findings[1].detail",), True),
        ("The supplier portal is online.", ("findings[1].detail",), False),
    ],
)
def test_check_attribute_warrant(
    acme: Report, text: str, evidence: tuple[str, ...], ok: bool
) -> None:
    reasons = check_attribute_warrant(ctx(fact(text, *evidence), acme))
    assert (reasons == []) is ok, reasons


def test_coaching_words_are_advice_but_its_numbers_are_bound(acme: Report) -> None:
    advice = coaching("Open with what slow checkout costs them each week.", "findings[0].title")
    assert check_attribute_warrant(ctx(advice, acme)) == []
    smuggled = coaching("Lead with their 3.66% churn.", "metrics.trial_conversion_pct")
    assert check_attribute_warrant(ctx(smuggled, acme)) != []


@pytest.mark.parametrize(
    ("text", "evidence", "unsettled"),
    [
        ("Mobile checkout is slow.", ("findings[0].title",), False),  # all found: settled
        ("Mobile checkout is slow and ugly.", ("findings[0].title",), True),  # a word not found
        ("Mobile checkout is never slow.", ("findings[0].title",), True),  # a negation
        ("Mobile checkout is always slow.", ("findings[0].title",), True),  # a generalisation
        ("Checkout takes 2.9 s on mobile.", ("findings[0].detail",), False),  # all found
        ("Checkout takes 2.9 s, a pain for shoppers.", ("findings[0].detail",), True),
        ("Their CRM is HubSpot.", ("vendors.crm",), False),
        ("Their CRM is HubSpot, loved by sellers.", ("vendors.crm",), True),
        # a light verb, in any form, and a hedge carry no fact of their own
        ("Revenue came to a little over $4.1M.", ("financials.revenue_usd",), False),
        ("Revenue arrived at a little over $4.1M.", ("financials.revenue_usd",), True),
        ("Invoices came keyed by hand.", ("findings[1].title",), False),
        ("The audit draws on revenue worth $4.1M.", ("financials.revenue_usd",), False),
        ("Invoices arrived keyed by hand.", ("findings[1].title",), True),
        ("The audit is dated March 9, 2026.", ("report.generated_at",), False),
        ("The audit is signed March 9, 2026.", ("report.generated_at",), True),
        # a rare key word may be written out as the words it abbreviates
        ("Their Net Promoter Score is 41.", ("metrics.nps",), False),
        ("Their net promoter figure is 41.", ("metrics.nps",), True),
        # a superlative is warranted when the figure's rank among its peers is the one said
        ("Security is their strongest area, at 7 out of 10.", ("scores",), False),
        ("Security is their strongest area, at 7 out of 10, loved by all.", ("scores",), True),
    ],
)
def test_unfound_wording_leaves_a_supported_claim_undecided(
    acme: Report, text: str, evidence: tuple[str, ...], unsettled: bool
) -> None:
    verdict = verify_claim(fact(text, *evidence), acme)
    assert verdict.supported, verdict.reasons
    assert verdict.undecided is unsettled


# --- evaluate, rungs, undecided, promote ---------------------------------------------------


def test_absent_claims_always_pass(acme: Report) -> None:
    for text in ("That's not in the audit report.", "Nothing on Salesforce or 2024 churn."):
        verdict = verify_claim(Claim(text=text, kind="absent", evidence=[]), acme)
        assert verdict.supported and verdict.rung is Rung.UNLINKED


def test_empty_text_fails_check_2_only(acme: Report) -> None:
    verdict = verify_claim(fact("  ", "vendors.crm"), acme)
    assert failed_checks(verdict.reasons) == {Check.TEXT_NONEMPTY}
    assert verdict.rung is Rung.UNLINKED


def test_an_uncited_fact_stops_at_check_4(acme: Report) -> None:
    verdict = verify_claim(fact("Revenue is $9M and their CRM is Salesforce."), acme)
    assert failed_checks(verdict.reasons) == {Check.FACT_CITES}


def test_skip_leaves_checks_out(acme: Report) -> None:
    claim = fact("Revenue is $9M.", "financials.revenue_usd")
    assert evaluate(claim, acme) != []
    assert evaluate(claim, acme, skip=frozenset({Check.ANCHOR_WARRANT})) == []


@pytest.mark.parametrize(
    ("claim", "rung", "supported"),
    [
        (fact("Their CRM is HubSpot.", "vendors.nope"), Rung.UNLINKED, False),
        (fact("Their CRM is HubSpot."), Rung.UNLINKED, False),
        (fact("Their CRM is Salesforce.", "vendors.crm"), Rung.POINTER_LINKED, False),
        (fact("Revenue is $9M.", "financials.revenue_usd"), Rung.POINTER_LINKED, False),
        (fact("Churn is 3.66%.", "metrics.trial_conversion_pct"), Rung.ANCHOR_WARRANTED, False),
        (fact("Their CRM is HubSpot.", "vendors.crm"), Rung.EVIDENCE_WARRANTED, True),
        (coaching("Ask who owns the CRM."), Rung.UNLINKED, True),
        (coaching("Open with the checkout finding.", "findings[0]"), Rung.EVIDENCE_WARRANTED, True),
    ],
)
def test_rungs(acme: Report, claim: Claim, rung: Rung, supported: bool) -> None:
    verdict = verify_claim(claim, acme)
    assert (verdict.rung, verdict.supported) == (rung, supported)
    assert verdict.supported is (verdict.reasons == [])


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        (fact("Checkout is slow on mobile.", "findings[0].title"), False),  # every word found
        (fact("Checkout is slow and ugly on mobile.", "findings[0].title"), True),  # one not found
        (fact("Their CRM is HubSpot.", "vendors.crm"), False),  # a name anchors it
        (fact("Revenue is $4.1M.", "financials.revenue_usd"), False),  # a number anchors it
        (fact("Churn is 3.66%.", "metrics.trial_conversion_pct"), False),  # check 7 failed
        (fact("Revenue is $9M.", "financials.revenue_usd"), False),  # anchor failure
        (fact("Their CRM is Salesforce.", "vendors.crm"), False),  # entity failure
        (fact("Their CRM is HubSpot.", "vendors.nope"), False),  # linking failure
        (coaching("Ask who owns the CRM."), False),
        (Claim(text="Not in the report.", kind="absent", evidence=[]), False),
    ],
)
def test_undecided(acme: Report, claim: Claim, expected: bool) -> None:
    verdict = verify_claim(claim, acme)
    assert verdict.undecided is expected
    assert bool(verdict.undecided_reasons) is expected
    if verdict.undecided:
        assert verdict.supported and verdict.rung is Rung.ANCHOR_WARRANTED


def test_promote_only_a_supported_linked_verdict(acme: Report) -> None:
    good = verify_claim(fact("Their CRM is HubSpot.", "vendors.crm"), acme)
    assert promote(good).rung is Rung.ENTAILMENT_VERIFIED
    assert promote(good).reasons == [] and promote(good).supported
    for bad in (
        verify_claim(fact("Their CRM is Salesforce.", "vendors.crm"), acme),
        verify_claim(coaching("Ask who owns the CRM."), acme),
    ):
        with pytest.raises(ValueError):
            promote(bad)
    forged = ClaimVerdict(claim=good.claim, rung=Rung.POINTER_LINKED, supported=True, reasons=[])
    with pytest.raises(ValueError):
        promote(forged)


def test_verify_answer_keeps_order(acme: Report) -> None:
    claims = [
        fact("Their CRM is HubSpot.", "vendors.crm"),
        fact("Revenue is $9M.", "financials.revenue_usd"),
    ]
    verdicts = verify_answer(Answer(claims=claims), acme)
    assert [v.claim for v in verdicts] == claims
    assert [v.supported for v in verdicts] == [True, False]
    assert verify_answer(Answer(claims=[]), acme) == []


def test_index_is_built_once_per_report(acme: Report) -> None:
    assert index_for(acme) is index_for(acme)
    other = build_report("acme", DATA)
    assert index_for(other) is not index_for(acme)


@pytest.mark.parametrize(
    ("text", "fails"),
    [
        ("The hawks have the highest points, at 30.", False),
        ("The hawks have the lowest points, at 30.", True),
        ("The hawks have the second-highest points, at 30.", True),
        ("The hawks' best lap is 41.", False),  # "best" is the column's own word
    ],
)
def test_a_superlative_ranks_a_row_among_its_column(text: str, fails: bool) -> None:
    table = build_report(
        "league",
        {
            "company": {"name": "League", "aliases": []},
            "report": {"id": "R-9", "generated_at": "2026-01-01"},
            "rows": [
                {"team": "hawks", "points": "30", "best_lap": "41"},
                {"team": "owls", "points": "21", "best_lap": "45"},
                {"team": "crows", "points": "12", "best_lap": "43"},
            ],
        },
    )
    reasons = check_attribute_warrant(ctx(fact(text, "rows[0]"), table))
    assert bool(reasons) is fails, reasons
