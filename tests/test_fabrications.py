"""Every fabrication class the verifier must catch, table-driven on the sample reports.

Each case names the hard check(s) that must catch it, and the test asserts two things:

1. the claim is not supported and the checks its reasons name are exactly the expected
   ones (every reason starts with its check's slug);
2. with exactly those checks left out (``checks.evaluate(..., skip=...)``) the very same
   claim comes back clean — so the case is caught *by that check*, and would pass
   without it. A case that some other check also rejected could not prove this.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prism_slack import language
from prism_slack.claims import Claim
from prism_slack.reports.model import Report, build_report
from prism_slack.verdict import Check, Rung, Status
from prism_slack.verify import concepts, lexicon, verify_claim
from prism_slack.verify.checks import evaluate, failed_checks

REPORTS = Path(__file__).resolve().parent.parent / "reports"
NWO, KPS, CVH, NWL = (
    "northwind-outfitters",
    "kestrelpoint-software",
    "cedar-valley-health",
    "northwind-logistics",
)
PLAYBOOK = frozenset({"M3", "Quantify the gap", "F2", "Cost of inaction"})

ANCHOR = frozenset({Check.ANCHOR_WARRANT})
ENTITY = frozenset({Check.ENTITY_WARRANT})
ATTRIBUTE = frozenset({Check.ATTRIBUTE_WARRANT})
RESOLVE = frozenset({Check.POINTERS_RESOLVE})
CITES = frozenset({Check.FACT_CITES})


@cache
def report(slug: str) -> Report:
    data = json.loads((REPORTS / slug / "audit-data.json").read_text(encoding="utf-8"))
    return build_report(slug, data)


Case = tuple[str, str, str, tuple[str, ...], frozenset[Check]]
"""(report slug, claim text, kind, cited paths, the checks that must catch it)"""

FABRICATIONS: dict[str, list[Case]] = {
    "wrong number": [
        (NWO, "Revenue was $415.5M.", "fact", ("financials.revenue_usd",), ANCHOR),
        (NWO, "Trial conversion is 4.66%.", "fact", ("metrics.trial_conversion_pct",), ANCHOR),
        (KPS, "Kestrelpoint has 1,784 customers.", "fact", ("metrics.customers",), ANCHOR),
        (CVH, "Cedar Valley Health employs 3,780 people.", "fact", ("company.employees",),
         ANCHOR),
        (NWO, "About 410,000 customers sit in both HubSpot and Klaviyo.", "fact",
         ("findings[3].detail",), ANCHOR),
        (NWL, "Spot quotes take 4.3 hours on average.", "fact", ("findings[1].detail",),
         ANCHOR),
    ],
    "wrong scale": [
        (NWL, "Freight under management is $18B.", "fact",
         ("financials.freight_under_management",), ANCHOR),
        (NWO, "Revenue was $412.5 billion.", "fact", ("financials.revenue_usd",), ANCHOR),
        (NWO, "The payment failure rate is 1.1%.", "fact", ("metrics.payment_failure_rate",),
         ANCHOR),
        (NWO, "The churn rate is 21.1%.", "fact", ("metrics.churn_rate",), ANCHOR),
        (NWO, "Gross margin is 0.412%.", "fact", ("financials.gross_margin",), ANCHOR),
        (NWO, "Membership ARR is $4.1B.", "fact", ("financials.membership_arr_usd",), ANCHOR),
        (KPS, "API p95 latency is 640 seconds.", "fact", ("metrics.api_p95_latency",), ANCHOR),
    ],
    "rounding that changes the value": [
        (NWO, "Trial conversion is 3.6%.", "fact", ("metrics.trial_conversion_pct",), ANCHOR),
        (NWO, "Membership ARR is $4.2M.", "fact", ("financials.membership_arr_usd",), ANCHOR),
        (NWO, "Membership ARR is $4.13M.", "fact", ("financials.membership_arr_usd",), ANCHOR),
        (CVH, "Revenue was $684.3 million.", "fact", ("financials.revenue_usd",), ANCHOR),
        (KPS, "Kestrelpoint employs 390 people.", "fact", ("company.employees",), ANCHOR),
        (NWO, "The churn rate is 2.2%.", "fact", ("metrics.churn_rate",), ANCHOR),
    ],
    "one right and one wrong number": [
        (NWO, "Revenue was $412.5M and fell 6%.", "fact",
         ("financials.revenue_usd", "financials.revenue_growth_pct"), ANCHOR),
        (NWO, "Trial conversion is 3.66% and churn is 2.5%.", "fact",
         ("metrics.trial_conversion_pct", "metrics.churn_rate"), ANCHOR),
        (KPS, "Only 8.91% of free trials convert, and 36% never connect a bank feed.",
         "fact", ("findings[0].detail",), ANCHOR),
        (NWL, "6.42% of tenders are rejected, at a premium of roughly 28%.", "fact",
         ("findings[2].detail",), ANCHOR),
    ],
    "invented or swapped vendor, product, person or place": [
        (NWO, "Their CRM is Salesforce.", "fact", ("vendors.crm",), ENTITY),
        (NWO, "Their site search runs on Coveo.", "fact", ("vendors.search",), ENTITY),
        (CVH, "Their patient portal is Epic Haiku.", "fact", ("vendors.patient_portal",), ENTITY),
        (NWO, "Marcus Ellery is the Chief Digital Officer.", "fact", ("stakeholders[0]",),
         ENTITY),
        (KPS, "The Chief Revenue Officer is Elena Tiberi.", "fact", ("stakeholders[0]",), ENTITY),
        (NWO, "Their HQ city is Tacoma.", "fact", ("company.hq",), ENTITY),
        (NWL, "HubSpot is their CRM.", "fact", ("vendors.crm",), ENTITY),
    ],
    "uncited fact": [
        (NWO, "Revenue was $412.5M.", "fact", (), CITES),
        (NWO, "Their CRM is HubSpot.", "fact", (), CITES),
        (NWO, "Trial conversion is 3.66%.", "fact", (), CITES),
        (KPS, "The pricing page no longer matches the contracts.", "fact", (), CITES),
    ],
    "path that does not exist": [
        (NWO, "Revenue was $412.5M.", "fact", ("financials.revenue",), RESOLVE),
        (NWO, "Their CRM is HubSpot.", "fact", ("vendors.CRM",), RESOLVE),
        (NWO, "Site search returns nothing for one query in ten.", "fact",
         ("findings[9].title",), RESOLVE),
        (NWO, "Revenue was $412.5M.", "fact", ("financials..revenue_usd",), RESOLVE),
    ],
    "another company's figure": [
        (NWO, "Revenue was $2.32 billion.", "fact", ("financials.revenue_usd",), ANCHOR),
        (NWO, "Gross margin is 15.2%.", "fact", ("financials.gross_margin",), ANCHOR),
        (NWO, "Trial conversion is 8.91%.", "fact", ("metrics.trial_conversion_pct",), ANCHOR),
        (NWO, "Northwind Outfitters employs 5,620 people.", "fact", ("company.employees",),
         ANCHOR),
        (KPS, "Revenue grew 9.7%.", "fact", ("financials.revenue_growth_pct",), ANCHOR),
    ],
    "wrong fiscal year or period": [
        (NWO, "FY2024 revenue was $412.5M.", "fact",
         ("financials.revenue_usd", "report.fiscal_year"), ANCHOR),
        (NWO, "In fiscal 2026, revenue fell 5%.", "fact",
         ("financials.revenue_growth_pct", "report.fiscal_year"), ANCHOR),
        (KPS, "The audit covers FY24.", "fact", ("report.fiscal_year",), ANCHOR),
        (CVH, "The audit period ends in Q3 2025.", "fact", ("report.period",), ANCHOR),
        (KPS, "Their Series C closed in 2022.", "fact", ("company.ownership",), ANCHOR),
        (NWL, "Routing guides were last rebuilt in the first half of 2024.", "fact",
         ("findings[2].detail",), ANCHOR),
    ],
    "wrong date": [
        (NWO, "The last pricing change was on March 10, 2026.", "fact",
         ("metrics.last_pricing_change",), ANCHOR),
        (NWO, "The last pricing change was in February 2026.", "fact",
         ("metrics.last_pricing_change",), ANCHOR),
        (NWO, "The report was generated on 2026-04-15.", "fact", ("report.generated_at",),
         ANCHOR),
        (NWO, "The report was generated in May 2026.", "fact", ("report.generated_at",),
         ANCHOR),
        (KPS, "The last pricing change was on 3 December 2025.", "fact",
         ("metrics.last_pricing_change",), ANCHOR),
    ],
    "sign flipped": [
        (NWO, "Revenue grew 5%.", "fact", ("financials.revenue_growth_pct",), ANCHOR),
        (NWO, "Revenue rose 5% in FY2025.", "fact",
         ("financials.revenue_growth_pct", "report.fiscal_year"), ANCHOR),
        (NWO, "Revenue growth was +5%.", "fact", ("financials.revenue_growth_pct",), ANCHOR),
        (NWO, "Revenue growth was 5%.", "fact", ("financials.revenue_growth_pct",), ANCHOR),
        (NWO, "They posted a 5% increase in revenue.", "fact",
         ("financials.revenue_growth_pct",), ANCHOR),
        (KPS, "Revenue fell 23.4%.", "fact", ("financials.revenue_growth_pct",), ANCHOR),
    ],
    "right number from the wrong field": [
        (NWO, "Churn is 3.66%.", "fact", ("metrics.trial_conversion_pct",), ATTRIBUTE),
        (NWO, "Gross margin is 11.8%.", "fact", ("financials.ebitda_margin_pct",), ATTRIBUTE),
        (NWL, "Revenue was $351.4M.", "fact", ("financials.net_revenue_usd",), ATTRIBUTE),
        (NWO, "Mobile share is 74.8%.", "fact", ("metrics.cart_abandonment_pct",), ATTRIBUTE),
        (KPS, "Jordan Tiberi is the Chief Revenue Officer.", "fact", ("stakeholders[1]",),
         ATTRIBUTE),
        (KPS, "Revenue is $61,382,915.", "fact", ("financials.arr_usd",), ATTRIBUTE),
        # the right number, but from another part of the cited sentence
        (NWO, "Product pages load in 2.5 s on mobile.", "fact", ("findings[1].detail",),
         ATTRIBUTE),
        (NWO, "The return rate is 15%.", "fact", ("findings[5].detail",), ATTRIBUTE),
        # the right number, but the claim names another field of the report
        (NWO, "Personalization scores 4 out of 10.", "fact",
         ("scores.search_relevance", "scores.max"), ATTRIBUTE),
        (CVH, "Medicare is 15.1% of the payer mix.", "fact",
         ("financials.payer_mix.medicaid_pct",), ATTRIBUTE),
        (CVH, "Their EHR vendor is Sitecore.", "fact", ("tech_stack.website_cms",), ATTRIBUTE),
        # the right number, but the claim drops what the field measures it in
        (NWL, "Northwind has 7,450,000 warehouses.", "fact", ("metrics.warehouse_sq_ft",),
         ATTRIBUTE),
    ],
    "invented finding citing an unrelated finding": [
        (NWO, "Their checkout flow has no guest option and forces account creation.", "fact",
         ("findings[0].detail",), ATTRIBUTE),
        (NWO, "Their loyalty cards cannot be redeemed at the register.", "fact",
         ("findings[1].detail",), ATTRIBUTE),
        (KPS, "Invoices are routinely paid late because approvals stall.", "fact",
         ("findings[1].detail",), ATTRIBUTE),
        (CVH, "Clinicians spend too long documenting visits in the portal.", "fact",
         ("findings[3].detail",), ATTRIBUTE),
        (NWL, "Drivers lack an app for capturing proof of delivery.", "fact",
         ("findings[2].detail",), ATTRIBUTE),
    ],
    "fact smuggled into coaching": [
        (NWO, "Ask why churn is stuck at 2.5%.", "coaching", (), ANCHOR),
        (NWO, "Open with their $415M revenue and ask what a fix is worth.", "coaching",
         ("financials.revenue_usd",), ANCHOR),
        (NWO, "Mention that their Salesforce CRM is holding them back.", "coaching", (),
         ENTITY),
        (NWO, "Lead with their 3.66% churn.", "coaching", ("metrics.trial_conversion_pct",),
         ATTRIBUTE),
        (NWO, "Ask Marcus Ellery what the search fix is worth.", "coaching",
         ("stakeholders[0].notes",), ENTITY),
        (NWO, "Use M3 (Quantify the gap) on the 12% of searches that find nothing.",
         "coaching", ("metrics.zero_result_search_pct",), ANCHOR),
        (KPS, "Ask about FND-7 before the demo.", "coaching", ("findings[0].id",), ENTITY),
        (NWO, "Lead with their personalization score of 4 out of 10.", "coaching",
         ("scores.search_relevance", "scores.max"), ATTRIBUTE),
    ],
}  # fmt: skip

CASES = [
    pytest.param(slug, text, kind, evidence, expected, id=f"{name}: {text}")
    for name, cases in FABRICATIONS.items()
    for slug, text, kind, evidence, expected in cases
]


@pytest.mark.parametrize(("slug", "text", "kind", "evidence", "expected"), CASES)
def test_fabrication_is_caught_by_its_check(
    slug: str, text: str, kind: str, evidence: tuple[str, ...], expected: frozenset[Check]
) -> None:
    claim = Claim(text=text, kind=kind, evidence=list(evidence))  # type: ignore[arg-type]
    verdict = verify_claim(claim, report(slug), allowed=PLAYBOOK)
    assert not verdict.supported
    assert failed_checks(verdict.reasons) == set(expected), verdict.reasons
    assert verdict.rung is not Rung.EVIDENCE_WARRANTED
    # Without the check that catches it, the very same claim would have passed.
    assert evaluate(claim, report(slug), allowed=PLAYBOOK, skip=expected) == []


@pytest.mark.parametrize("name", list(FABRICATIONS))
def test_each_class_has_several_phrasings(name: str) -> None:
    assert len(FABRICATIONS[name]) >= 4


def test_every_issue_class_is_covered() -> None:
    assert set(FABRICATIONS) == {
        "wrong number",
        "wrong scale",
        "rounding that changes the value",
        "one right and one wrong number",
        "invented or swapped vendor, product, person or place",
        "uncited fact",
        "path that does not exist",
        "another company's figure",
        "wrong fiscal year or period",
        "wrong date",
        "sign flipped",
        "right number from the wrong field",
        "invented finding citing an unrelated finding",
        "fact smuggled into coaching",
    }


@pytest.mark.parametrize(
    ("text", "expected_rung"),
    [
        ("Revenue was $415.5M.", Rung.POINTER_LINKED),  # anchor failure
        ("Churn is 412,500,000.", Rung.ANCHOR_WARRANTED),  # attribute failure
    ],
)
def test_failed_claims_sit_at_the_rung_below_the_failed_check(
    text: str, expected_rung: Rung
) -> None:
    claim = Claim(text=text, kind="fact", evidence=["financials.revenue_usd"])
    assert verify_claim(claim, report(NWO)).rung is expected_rung


_INVENTED = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=4, max_size=10).map(
    str.capitalize
)


def _unknown(name: str) -> bool:
    """Not a word of the report, nor an ordinary, number, month, role or measure word, nor
    an ordinary English form: a name no rule may excuse."""
    low = name.lower()
    text = json.dumps(report(NWO).data).lower()
    return (
        low not in text
        and low not in lexicon.COMMON_WORDS
        and low not in lexicon.NOT_NAMES
        and low not in lexicon.NUMBER_WORDS
        and low not in lexicon.MONTHS
        and low not in lexicon.ROLE_WORDS | lexicon.LEGAL_SUFFIXES | lexicon.CONNECTORS
        and not concepts.all_concepts([low])
        and not low.endswith(lexicon.ORDINARY_SUFFIXES)
        and not (language.noun(low) or language.verb(low))  # "Attempts" opening a sentence
    )


@settings(max_examples=150, deadline=None)
@given(
    _INVENTED.filter(_unknown),
    st.sampled_from(
        ["Their CRM is {}.", "{} is their CRM.", "Their CRM is {} Cloud.", "They moved to {}."]
    ),
)
def test_any_invented_name_is_rejected_by_the_entity_check(name: str, template: str) -> None:
    """Never settled: failed by the entity check, or — a common word that may name the
    value another way (DESIGN §6: fail only on proof) — left to the judge by it."""
    claim = Claim(text=template.format(name), kind="fact", evidence=["vendors.crm"])
    verdict = verify_claim(claim, report(NWO))
    decided_by = failed_checks(verdict.reasons) or {r.check for r in verdict.undecided_reasons}
    assert verdict.status is not Status.SETTLED
    assert Check.ENTITY_WARRANT in decided_by, (verdict.reasons, verdict.undecided_reasons)


def test_a_common_place_name_the_claim_does_not_bind_to_its_field_goes_to_the_judge() -> None:
    """Portland is a common English word: the checks cannot prove it is no other name of
    the cited place (as Corn is of Maize), so the claim is left to the judge, never settled;
    a rare name in the slot (``Their HQ city is Tacoma``) fails."""
    claim = Claim(
        text="Northwind Outfitters is headquartered in Portland, Oregon.",
        kind="fact",
        evidence=["company.hq"],
    )
    verdict = verify_claim(claim, report(NWO))
    assert verdict.status is Status.UNDECIDED
    assert [r.rule for r in verdict.undecided_reasons] == ["fail.name_unproven"]
