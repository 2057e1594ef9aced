"""Every pass class the verifier must accept, table-driven on the sample reports.

A correct claim that the verifier rejects would be withheld from the rep, so these tables
are as important as the fabrication tables: several phrasings per class, each asserted
supported with no reasons and at the rung its citations earn.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from prism_slack.claims import ABSENT_TEXT, Answer, Claim
from prism_slack.reports.model import Report, build_report
from prism_slack.verdict import Label, Rung, answer_label
from prism_slack.verify import verify_answer, verify_claim

REPORTS = Path(__file__).resolve().parent.parent / "reports"
NWO, KPS, CVH, NWL = (
    "northwind-outfitters",
    "kestrelpoint-software",
    "cedar-valley-health",
    "northwind-logistics",
)
SLUGS = (NWO, KPS, CVH, NWL)
PLAYBOOK = frozenset({"M1", "Open with their numbers", "M3", "Quantify the gap", "F2",
                      "Cost of inaction"})  # fmt: skip


@cache
def report(slug: str) -> Report:
    data = json.loads((REPORTS / slug / "audit-data.json").read_text(encoding="utf-8"))
    return build_report(slug, data)


Case = tuple[str, str, str, tuple[str, ...]]
"""(report slug, claim text, kind, cited paths)"""

PASSES: dict[str, list[Case]] = {
    "exact values": [
        (NWO, "Revenue was $412,500,000.", "fact", ("financials.revenue_usd",)),
        (NWO, "Monthly sessions are 6,830,000.", "fact", ("metrics.monthly_sessions",)),
        (KPS, "Kestrelpoint has 1,874 customers.", "fact", ("metrics.customers",)),
        (CVH, "Cedar Valley Health Partners has 3,870 employees.", "fact",
         ("company.employees",)),
        (NWL, "On-time delivery is 93.8%.", "fact", ("metrics.on_time_delivery_pct",)),
        (NWO, "NPS is 41.", "fact", ("metrics.nps",)),
        (CVH, "Medicaid is 15.1% of the payer mix.", "fact",
         ("financials.payer_mix.medicaid_pct",)),
        (NWL, "Their warehouses cover 7,450,000 square feet.", "fact",
         ("metrics.warehouse_sq_ft",)),
        (KPS, "Kestrelpoint's 1,874 customers process 3,118,400 invoices a month.", "fact",
         ("metrics.customers", "metrics.invoices_processed_per_month")),
        (NWO, "The audit lists 6 findings.", "fact", ("findings",)),
    ],
    "rounding to the claim's shown precision": [
        (NWO, "Membership ARR is $4.1M.", "fact", ("financials.membership_arr_usd",)),
        (NWO, "Membership ARR is about $4 million.", "fact", ("financials.membership_arr_usd",)),
        (NWO, "Trial conversion is 3.7%.", "fact", ("metrics.trial_conversion_pct",)),
        (CVH, "Revenue was $684M.", "fact", ("financials.revenue_usd",)),
        (KPS, "ARR is $61.4M.", "fact", ("financials.arr_usd",)),
        (KPS, "Cash and equivalents are about $74 million.", "fact",
         ("financials.cash_and_equivalents_usd",)),
        (NWO, "Northwind Outfitters employs about 1,200 people.", "fact", ("company.employees",)),
        (NWO, "The churn rate is 2.1%.", "fact", ("metrics.churn_rate",)),
    ],
    "scale words and $": [
        (NWL, "Revenue was $2.32B.", "fact", ("financials.revenue_usd",)),
        (NWL, "Revenue was 2.3 billion dollars.", "fact", ("financials.revenue_usd",)),
        (NWL, "Revenue was $2,318.6M.", "fact", ("financials.revenue_usd",)),
        (NWL, "Revenue was USD 2.32 billion.", "fact", ("financials.revenue_usd",)),
        (NWL, "Technology capex is $27.4 million.", "fact", ("financials.technology_capex_usd",)),
        (CVH, "The digital budget is $4,870k.", "fact", ("financials.digital_budget_usd",)),
        (CVH, "The digital budget is 4.87 million USD.", "fact",
         ("financials.digital_budget_usd",)),
        (NWO, "They have 2.21M email subscribers.", "fact", ("metrics.email_subscribers",)),
        (NWO, "Loyalty members number 486 thousand.", "fact", ("metrics.loyalty_members",)),
    ],
    "fractions shown as percentages and the reverse": [
        (NWO, "Churn is 2.11%.", "fact", ("metrics.churn_rate",)),
        (KPS, "Gross margin is 76.8%.", "fact", ("financials.gross_margin",)),
        (CVH, "The no-show rate is 8.74%.", "fact", ("metrics.no_show_rate",)),
        (CVH, "Operating margin is 3.1%.", "fact", ("financials.operating_margin",)),
        (CVH, "The online booking share is 0.176.", "fact", ("metrics.online_booking_share_pct",)),
        (CVH, "The duplicate record rate is 0.0023.", "fact", ("findings[3].detail",)),
        (NWO, "The return rate is 0.187.", "fact", ("findings[5].detail",)),
    ],
    "values stored as strings with units": [
        (NWO, "Average order value is $87.40.", "fact", ("metrics.average_order_value",)),
        (CVH, "Average hold time is 4.2 minutes.", "fact", ("metrics.average_hold_time",)),
        (KPS, "API p95 latency is 640 milliseconds.", "fact", ("metrics.api_p95_latency",)),
        (KPS, "API p95 latency is 0.64 seconds.", "fact", ("metrics.api_p95_latency",)),
        (CVH, "The capital budget is $61.2 million.", "fact", ("financials.capital_budget",)),
        (NWL, "Freight under management is $1.8 billion.", "fact",
         ("financials.freight_under_management",)),
        (NWL, "Average quote turnaround is 3.4 hours.", "fact",
         ("metrics.average_quote_turnaround",)),
        (KPS, "The marketing budget is $2.4M.", "fact", ("financials.marketing_budget",)),
        (NWO, "Page load p75 is 2,900 ms.", "fact", ("metrics.page_load_p75",)),
    ],
    "negative values stated with a direction word": [
        (NWO, "Revenue fell 5%.", "fact", ("financials.revenue_growth_pct",)),
        (NWO, "Revenue declined 5.0% in FY2025.", "fact",
         ("financials.revenue_growth_pct", "report.fiscal_year")),
        (NWO, "Revenue was down 5 percent.", "fact", ("financials.revenue_growth_pct",)),
        (NWO, "Revenue shrank by 5%.", "fact", ("financials.revenue_growth_pct",)),
        (NWO, "Revenue growth was -5%.", "fact", ("financials.revenue_growth_pct",)),
        (NWO, "They saw a 5% decline in revenue.", "fact", ("financials.revenue_growth_pct",)),
        (NWO, "Revenue growth was negative at 5%.", "fact", ("financials.revenue_growth_pct",)),
    ],
    "dates in other formats and at coarser granularity": [
        (NWO, "The last pricing change was on March 9, 2026.", "fact",
         ("metrics.last_pricing_change",)),
        (NWO, "The last pricing change was on 9 March 2026.", "fact",
         ("metrics.last_pricing_change",)),
        (NWO, "The last pricing change was in March 2026.", "fact",
         ("metrics.last_pricing_change",)),
        (NWO, "The last pricing change was in 2026.", "fact", ("metrics.last_pricing_change",)),
        (NWO, "The last pricing change was in Q1 2026.", "fact",
         ("metrics.last_pricing_change",)),
        (NWO, "The last pricing change came in the first quarter of 2026.", "fact",
         ("metrics.last_pricing_change",)),
        (NWO, "The audit was generated on April 14, 2026.", "fact", ("report.generated_at",)),
        (CVH, "The audit period starts in Q3 2024.", "fact", ("report.period",)),
        (NWO, "Their last replatform was in 2019.", "fact", ("metrics.last_replatform_year",)),
    ],
    "scores stated with their scale": [
        (NWO, "Search relevance scores 4 out of 10.", "fact",
         ("scores.search_relevance", "scores.max")),
        (NWO, "Checkout experience is rated 7/10.", "fact",
         ("scores.checkout_experience", "scores.max")),
        (CVH, "Scheduling access scores 38 out of 100.", "fact",
         ("scores.scheduling_access", "scores.max")),
        (NWL, "The carrier network score is 8/10.", "fact",
         ("scores.carrier_network", "scores.max")),
        (NWO, "Search relevance scores 4.", "fact", ("scores.search_relevance",)),
    ],
    "names with different case or punctuation": [
        (NWO, "Their CRM is Hubspot.", "fact", ("vendors.crm",)),
        (NWO, "Their CRM is HUBSPOT.", "fact", ("vendors.crm",)),
        (NWL, "Their payments provider is Bill.com.", "fact", ("vendors.payments",)),
        (CVH, "The auditor was Nadia Ferreira Holt.", "fact", ("report.auditor",)),
        (NWL, "Their ERP is SAP S4HANA.", "fact", ("vendors.erp",)),
        (KPS, "Kestrelpoint Software, Inc. uses Stripe for payments.", "fact",
         ("vendors.payments",)),
        (NWO, "Hubspot's contacts are wholesale and store shoppers.", "fact",
         ("findings[3].detail",)),
        (NWO, "Ridgeline Supply Co relaunched its site search in 2025.", "fact",
         ("competitors[0]",)),
    ],
    "paraphrased findings": [
        (NWO, "Product pages take 2.9 s to load at the 75th percentile on mobile, above the "
              "2.5 s target.", "fact", ("findings[1].detail",)),
        (KPS, "Most trial accounts, 63%, never connect a bank feed.", "fact",
         ("findings[0].detail",)),
        (NWL, "Coveo does not index shipment documents, so bill of lading searches return "
              "nothing.", "fact", ("findings[4].detail",)),
        (NWO, "Trailhead Club trials have no onboarding sequence in Klaviyo.", "fact",
         ("findings[2].detail",)),
        (CVH, "Activation codes expire after 14 days and cannot be activated by text message.",
         "fact", ("findings[1].detail",)),
        (KPS, "The help centre articles cover only 34 of 102 ticket tags.", "fact",
         ("findings[3].detail",)),
        (NWL, "Invoices go out through Bill.com without proof of delivery.", "fact",
         ("findings[3].detail",)),
        (NWO, "The merchandising plan assumes a 15% return rate.", "fact",
         ("findings[5].detail",)),
        (CVH, "12.9% of calls are abandoned, and 31% on Monday mornings.", "fact",
         ("findings[2].detail",)),
    ],
    "coaching with no facts": [
        (NWO, "Open by asking who owns the lead-routing rules.", "coaching", ()),
        (NWO, "Ask what a slow quarter costs them.", "coaching", ()),
        (KPS, "Use M3 (Quantify the gap) to size what the stalled trials cost them.",
         "coaching", ()),
        (CVH, "Confirm who signs off before you propose anything.", "coaching", ()),
        (NWL, "Frame it with F2 (Cost of inaction): what does another quarter of phone calls "
              "cost?", "coaching", ()),
    ],
    "coaching that cites correct facts": [
        (NWO, "Open with their 3.66% trial conversion and ask what a one-point lift is worth.",
         "coaching", ("metrics.trial_conversion_pct",)),
        (CVH, "Use M3 (Quantify the gap) on the 17.6% online booking share.", "coaching",
         ("metrics.online_booking_share_pct",)),
        (NWO, "Ask Priya Raman what the search fix is worth before August.", "coaching",
         ("stakeholders[0]",)),
        (KPS, "Bring Rebecca Lindqvist a SOC 2 Type II report early.", "coaching",
         ("stakeholders[3]",)),
        (NWL, "Use M1 (Open with their numbers): spot quotes take 3.4 h on average.",
         "coaching", ("findings[1].detail",)),
        (NWL, "Open with their 47 days sales outstanding and ask what fixing it is worth.",
         "coaching", ("financials.days_sales_outstanding",)),
    ],
    "absent claims": [
        (NWO, ABSENT_TEXT, "absent", ()),
        (KPS, "The report doesn't cover their hiring plans.", "absent", ()),
        (CVH, "The audit report has no data on Salesforce usage.", "absent", ()),
    ],
    "bounds and hedges": [
        (NWO, "Northwind Outfitters has more than 1,000 employees.", "fact",
         ("company.employees",)),
        (KPS, "Elena Voskresenskaya signs off any spend above $50,000.", "fact",
         ("stakeholders[0]",)),
        (NWO, "Grant Siebold asks for a payback period under 12 months.", "fact",
         ("stakeholders[3]",)),
        (NWO, "Trial conversion is under 4%.", "fact", ("metrics.trial_conversion_pct",)),
    ],
}  # fmt: skip

CASES = [
    pytest.param(slug, text, kind, evidence, id=f"{name}: {text}")
    for name, cases in PASSES.items()
    for slug, text, kind, evidence in cases
]


@pytest.mark.parametrize(("slug", "text", "kind", "evidence"), CASES)
def test_correct_claim_is_supported(
    slug: str, text: str, kind: str, evidence: tuple[str, ...]
) -> None:
    claim = Claim(text=text, kind=kind, evidence=list(evidence))  # type: ignore[arg-type]
    verdict = verify_claim(claim, report(slug), allowed=PLAYBOOK)
    assert verdict.supported, verdict.reasons
    assert verdict.reasons == []
    linked = evidence and kind != "absent"
    if not linked:
        assert verdict.rung is Rung.UNLINKED
    else:  # wording not all found in the cited values leaves it undecided, a rung lower
        warranted = Rung.ANCHOR_WARRANTED if verdict.undecided else Rung.EVIDENCE_WARRANTED
        assert verdict.rung is warranted


@pytest.mark.parametrize("name", list(PASSES))
def test_each_pass_class_has_several_phrasings(name: str) -> None:
    assert len(PASSES[name]) >= 3


@pytest.mark.parametrize("slug", SLUGS)
def test_every_report_sentence_verbatim_is_supported(slug: str) -> None:
    """Each string value of each sample report, stated verbatim citing its own field."""
    r = report(slug)
    leaves = [leaf for leaf in r.evidence if isinstance(leaf.value, str) and leaf.value.strip()]
    assert len(leaves) > 40
    rejected = {
        leaf.path: verify_claim(Claim(text=leaf.value, kind="fact", evidence=[leaf.path]), r)
        for leaf in leaves
    }
    assert {p: v.reasons for p, v in rejected.items() if not v.supported} == {}


@pytest.mark.parametrize("slug", SLUGS)
def test_every_number_stated_exactly_is_supported(slug: str) -> None:
    """Each numeric value of each sample report, written as it is stored, citing its field."""
    r = report(slug)
    numbers = [
        leaf
        for leaf in r.evidence
        if isinstance(leaf.value, int | float) and not isinstance(leaf.value, bool)
    ]
    assert len(numbers) > 20
    failures = {}
    for leaf in numbers:
        words = leaf.path.rsplit(".", 1)[-1].replace("_", " ")
        claim = Claim(text=f"The {words} is {leaf.value!r}.", kind="fact", evidence=[leaf.path])
        verdict = verify_claim(claim, r)
        if not verdict.supported:
            failures[leaf.path] = verdict.reasons
    assert failures == {}


def test_playbook_coaching_passes_with_the_playbook_vocabulary() -> None:
    """Coaching worded from the playbook (ids, names, guidance, questions) is never a
    smuggled fact, and its names are allowed only through the vocabulary."""
    from prism_slack.llm.playbook import load_playbook

    playbook = load_playbook()
    vocabulary = playbook.vocabulary()
    r = report(NWO)
    rejected = {}
    for entry in playbook.entries():
        for text in (f"Use {entry.label}: {entry.guidance}", f"Ask: “{entry.question}”"):
            verdict = verify_claim(Claim(text=text, kind="coaching", evidence=[]), r,
                                   allowed=vocabulary)  # fmt: skip
            if not verdict.supported:
                rejected[text] = verdict.reasons
    assert rejected == {}
    label_only = Claim(text=f"Use {playbook.moves[0].label}.", kind="coaching", evidence=[])
    assert not verify_claim(label_only, r).supported  # not without the vocabulary


def test_an_answer_of_correct_claims_is_evidence_linked() -> None:
    answer = Answer(
        claims=[
            Claim(text="Their CRM is HubSpot.", kind="fact", evidence=["vendors.crm"]),
            Claim(text="Revenue fell 5%.", kind="fact", evidence=["financials.revenue_growth_pct"]),
            Claim(text="Ask who owns merchandising.", kind="coaching", evidence=[]),
        ]
    )
    verdicts = verify_answer(answer, report(NWO))
    assert [v.supported for v in verdicts] == [True, True, True]
    assert answer_label(verdicts) is Label.EVIDENCE_LINKED


def test_coaching_only_answer_says_so() -> None:
    answer = Answer(claims=[Claim(text="Ask who owns the roadmap.", kind="coaching", evidence=[])])
    assert answer_label(verify_answer(answer, report(NWO))) is Label.COACHING_ONLY
