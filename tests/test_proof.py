"""Settle only on proof, fail only on proof: the cases issue 19 names, on reports in other
house styles (a currency field, ratios, a year-keyed series, display strings, an infobox)."""

from __future__ import annotations

from typing import Any

import pytest

from prism_slack.claims import Claim
from prism_slack.reports.model import Report, build_report
from prism_slack.verdict import Status
from prism_slack.verify import verify_claim

DATA: dict[str, Any] = {
    "company": {"name": "Johannes Gutenberg", "aliases": []},
    "report": {"id": "r", "generated_at": "2026-01-01"},
    "financials": {
        "currency": "EUR",
        "annualRevenue": 318_400_000,
        "solvencyCoverageRatio": 1.68,
        "logoChurn": {"FY23": 0.05, "FY24": 0.058, "FY25": 0.072},
    },
    "Financials": {"Revenue": "$3.47B", "Net Income": "$412m"},
    "infobox": {"born": "c. 1400", "died": "February 3, 1468", "country": "United States"},
}


@pytest.fixture(scope="module")
def report() -> Report:
    return build_report("styles", DATA)


SETTLED, UNDECIDED, FAILED = Status.SETTLED, Status.UNDECIDED, Status.FAILED


@pytest.mark.parametrize(
    ("text", "evidence", "expected"),
    [
        # money keeps the currency the report states beside it
        ("FY2025 sales came to $318.4 million.", ["financials.annualRevenue",
                                                  "financials.currency"], FAILED),
        ("Annual revenue is €318.4M.", ["financials.annualRevenue", "financials.currency"],
         SETTLED),
        # a ratio above 1 is a multiple
        ("Solvency coverage is only 1.68%.", ["financials.solvencyCoverageRatio"], FAILED),
        ("Solvency coverage stands at 168%.", ["financials.solvencyCoverageRatio"], SETTLED),
        # a series' direction is not settled by the level alone
        ("Logo churn dropped to 7.2% in FY25.", ["financials.logoChurn"], UNDECIDED),
        # two cited fields: the claim names the other one's key
        ("Gutenberg was born on February 3, 1468.", ["infobox.born", "infobox.died"],
         UNDECIDED),
        ("Gutenberg died on February 3, 1468.", ["infobox.born", "infobox.died"], SETTLED),
        # display strings read as a person reads them
        ("Revenue is roughly three and a half billion dollars.", ['Financials["Revenue"]'],
         SETTLED),
        ("Net income was $412m.", ['Financials["Net Income"]'], SETTLED),
        # world knowledge is the judge's: never a failure
        ("He lived in the USA.", ["infobox.country"], UNDECIDED),
        ("He died in the spring of 1468.", ["infobox.died"], UNDECIDED),
        ("He died aged 68.", ["infobox.born", "infobox.died"], UNDECIDED),
    ],
)  # fmt: skip
def test_a_claim_is_settled_or_failed_only_on_proof(
    report: Report, text: str, evidence: list[str], expected: Status
) -> None:
    verdict = verify_claim(Claim(text=text, kind="fact", evidence=evidence), report)
    assert verdict.status is expected, (verdict.reasons, verdict.undecided_reasons)
    if expected is UNDECIDED:
        assert verdict.undecided_reasons and all(r.rule for r in verdict.undecided_reasons)
