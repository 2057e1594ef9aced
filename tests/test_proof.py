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
    _assert_status(report, text, evidence, expected)


def _assert_status(report: Report, text: str, evidence: list[str], expected: Status) -> None:
    verdict = verify_claim(Claim(text=text, kind="fact", evidence=evidence), report)
    assert verdict.status is expected, (verdict.reasons, verdict.undecided_reasons)
    if expected is UNDECIDED:
        assert verdict.undecided_reasons and all(r.rule for r in verdict.undecided_reasons)


OTHER: dict[str, Any] = {
    "company": {"name": "Roger Waters", "aliases": []},
    "report": {"id": "r2", "generated_at": "2026-01-01"},
    "AMOUNTS_IN": "CAD thousands",
    "BALANCE_SHEET": {"TOTAL_ASSETS": 4182600},
    "Commercial": {"DanishContracts": "DKK 845m", "Blades": "€157m", "Vessels": "€110m"},
    "operations": {"contractLength": "5 years", "repairTime": "46 hours", "ebitda": -4200},
    "rivals": [
        {
            "name": "Nordlys",
            "based": "fresno california",
            "strengths": ["Owns 5 service operation vessels"],
            "weaknesses": ["No in-ground probes"],
        }
    ],
    "infobox": {"spouse": ["Polly Samson ( m. 1994)"], "children": "3", "residence": "Sydney"},
    "customers": {"top_10_share_pct": 38},
    "QUARTERLY": {"CALL_WAIT_MINUTES": {"Q1'25": 7.5, "Q3'25": 12.5}},
    "Fleet": {"Owned": 2, "Chartered": 1},
    "kpis": [
        {"metric": "Net revenue retention", "value": 1.12, "unit": "ratio"},
        {"metric": "Logo churn", "value": 12.5, "unit": "pct"},
        {"metric": "Water saved", "value": 0.9, "unit": "megalitres per hectare"},
    ],
    "burn": {"netBurnPerMonth": 0.95},
    "digital": {"activeShare": {"Q1'25": 0.482, "Q4'25": 0.554}},
    "annual": {"memberGrowth": -0.4},
    "issues": [{"title": "Dashboard payback is never measured"}, {"title": "Slow checkout"}],
    "fin": {
        "years": ["FY23", "FY24", "FY25"],
        "units": {"revenue": "GBP m"},
        "revenue": [871.4, 904.2, 958.7],
        "interest_cover": ["2.6x", "2.3x", "1.9x"],
    },
    "bi": [{"label": "Revenue, group (FY2025)", "value": 612.4, "unit": "USD m"}],
    "ops": {"Vessel wait before berth, median (hrs, FY2025)": 19.5},
    "people": {
        "name": ["Fiona Maddox", "Ravi Chandran"],
        "title": ["Finance Director", "Head of Digital"],
        "role": ["economic buyer", "champion"],
    },
    "findings": [
        {
            "narrative": "Availability fell from 96.2% in 2022 to 94.8% in 2025. Contracts "
            "guarantee 95%, so 2025 triggered liquidated damages."
        },
        {"detail": "Of the 180 work orders reviewed, 112 had no root-cause note."},
    ],
    "Measured": {
        "Revenue": {"Amount": 386.2, "Currency": "EUR", "Magnitude": "million"},
        "Growth": {"Pct": 0.074},
        "LoadFactor": {"Pct": 0.81},
        "Hedged": {"Pct": 0.55},
    },
    "subsidiary": {"turnover": 412, "currency": "SEK"},
    "aircraft": {"type": "ATR 72-600", "count": 18},
    "rows": [
        {"col_2": "7", "title": "the episode of the stone", "villains": "septimus"},
        {"tournament": "grand slam", "1998": "0 - 1", "2012": "1 - 4"},
        {"venue": "punt road oval", "away_team_score": "10.11 (71)"},
    ],
    "Key figures": {
        "Net debt 31.12.2025": "€38.9M",
        "Callback rate (repeat callout within 30 days)": "11.8%",
    },
    "otp": {"metric": "on-time performance", "period": "TTM Q3 2025", "value": 78.4, "unit": "%"},
    "halves": [
        {"metric": "load factor", "period": "2025-H1", "value": 77.6, "unit": "%"},
        {"metric": "load factor", "period": "2025-H2", "value": 84.6, "unit": "%"},
    ],
    "costs": {"OperationsAndMaintenanceCostPerMW": "£61,500"},
    "pnl": ["Revenue: AUD 188.4 million (FY25)", "EBITDA margin: 9.8% (FY25)"],
    "monitoring": {
        "Coverage": "16.6%",
        "Platforms": "Kone 24/7 Connected Services (on 1,140 units) and Sensolift (on 1,320 units)",
    },
    "contracts": {"Units under contract": 14820, "Units under contract (prior year)": 14305},
    "pl": {
        "columns": ["metric", "FY2024", "FY2025"],
        "rows": [["Revenue", 538.9, 561.7], ["Operating profit", 129.6, 121.3]],
        "units": {"Revenue": "GBP millions", "Operating profit": "GBP millions"},
    },
    "reminders": [
        "Reminders sent by post: c. 33%",
        "Missed appointments, SMS-reminder practices: 4.1%",
        "Missed appointments, postal-reminder practices: 8.8%",
    ],
}


@pytest.fixture(scope="module")
def other() -> Report:
    return build_report("other", OTHER)


@pytest.mark.parametrize(
    ("text", "evidence", "expected"),
    [
        # a scale the report declares for all its amounts
        ("Total assets are about C$4.2 billion.", ["BALANCE_SHEET.TOTAL_ASSETS", "AMOUNTS_IN"],
         SETTLED),
        ("Total assets are C$4.2 million.", ["BALANCE_SHEET.TOTAL_ASSETS", "AMOUNTS_IN"], FAILED),
        # a currency code before a display figure
        ("Danish contracts are worth DKK 845 million.", ["Commercial.DanishContracts"], SETTLED),
        ("Danish contracts are worth DKK 845 thousand.", ["Commercial.DanishContracts"], FAILED),
        # a sum of two cited amounts the claim names
        ("Blades and vessels together bring in €267m.", ["Commercial.Blades",
                                                         "Commercial.Vessels"], SETTLED),
        # a duration in another unit: converted, or left to the judge
        ("Contracts run about 60 months.", ["operations.contractLength"], SETTLED),
        ("Repairs take 46 days.", ["operations.repairTime"], FAILED),
        ("Repairs take just under two days.", ["operations.repairTime"], SETTLED),
        ("Repairs take just over a day and a half.", ["operations.repairTime"], FAILED),  # 46 h
        ("Contracts run about five years and a half.", ["operations.contractLength"], FAILED),
        # a sign said in words
        ("EBITDA was a loss of roughly C$4.2 million.", ["operations.ebitda", "AMOUNTS_IN"],
         UNDECIDED),
        # a name of a word's typo, or of a phrase's initials, is no invented name
        ("Nordlys owns 5 SOVs.", ["rivals[0]"], UNDECIDED),
        # a cell's words read within one clause, never across a comma
        ("Nordlys, out of fresno, competes with 5 service operation vessels.", ["rivals[0]"],
         UNDECIDED),
        # ``fell below`` a figure says a level, not a change of it
        ("Availability fell below the 95% guarantee in 2025.", ["findings[0].narrative"],
         SETTLED),
        # a section's own word (``QUARTERLY``) names the section, not what the field holds,
        # and the key ``Q3'25`` is the period the claim says
        ("Call wait was 12.5 minutes in Q3'25.", ['QUARTERLY.CALL_WAIT_MINUTES["Q3\'25"]'],
         SETTLED),
        ("Call wait was 12.5 minutes in Q1'25.", ['QUARTERLY.CALL_WAIT_MINUTES["Q3\'25"]'],
         FAILED),
        # a value that is itself a denial, restated
        ("Nordlys has no in-ground probes.", ["rivals[0]"], SETTLED),
        ("He lives in Sydeny, Austrailia.", ["infobox.residence"], UNDECIDED),
        # a figure only in a key's name, with or without its word
        ("The top 10 customers have a 38% share.", ["customers.top_10_share_pct"], SETTLED),
        ("septimus be the villain in episode 2", ["rows[0]"], UNDECIDED),
        # a record of another year, or a rounded part of a score
        ("the grand slam record be 1 - 4 in 1998", ["rows[1]"], UNDECIDED),
        ("the grand slam record be 1 - 4 in 2012", ["rows[1]"], SETTLED),
        ("punt road oval have an away team score of 10.1 (71)", ["rows[2]"], UNDECIDED),
        # a name the report links to the subject, not to another field's value
        ("Polly Samson has 3 children.", ["infobox.spouse", "infobox.children"], UNDECIDED),
        ("Roger Waters has 3 children.", ["infobox.children"], SETTLED),
        # readings the checks do not make are the judge's: an ordinal, a multiple's excess,
        # a metric prefix, money against a bare number
        ("They own two vessels and charter a third.", ["Fleet.Owned", "Fleet.Chartered"],
         UNDECIDED),
        ("They charter a third of their vessels.", ["Fleet.Chartered"], FAILED),
        ("An NRR of 1.12 means customers grew their spend by 12% net of churn.", ["kpis[0]"],
         UNDECIDED),
        ("An NRR of 1.12 means customers grew their spend by 21% net of churn.", ["kpis[0]"],
         FAILED),
        ("They save 900,000 litres of water per hectare.", ["kpis[2]"], UNDECIDED),
        ("They save 900 litres of water per hectare.", ["kpis[2]"], FAILED),
        ("They burn about C$1 million a month.", ["burn.netBurnPerMonth", "AMOUNTS_IN"],
         UNDECIDED),
        # a word of another row's cell qualifies when the cited row's own cell is named too
        ("Logo churn is 12.5%.", ["kpis[0]"], FAILED),
        # a direction the cited series itself took is about that series
        ("The share of digitally active members climbed from 48.2% in Q1'25 to 55.4% in "
         "Q4'25.", ["digital.activeShare"], UNDECIDED),
        # a table stored by column: one index is one record
        ("Fiona Maddox, the Finance Director, is the economic buyer.",
         ["people.name[0]", "people.title[0]", "people.role[0]"], SETTLED),
        ("Fiona Maddox, the Finance Director, is the economic buyer.",
         ["people.name[0]", "people.title[1]", "people.role[0]"], FAILED),
        # a table stored by column: its period column and its units are the column's own
        ("Revenue was £958.7m in FY25.", ["fin.revenue[2]", "fin.years[2]",
                                          "fin.units.revenue"], SETTLED),
        ("Revenue was £958.7m in FY24.", ["fin.revenue[2]", "fin.years[1]",
                                          "fin.units.revenue"], FAILED),  # FY24 is 904.2
        ("Revenue has grown every year, from £871.4m in FY23 to £958.7m in FY25.",
         ["fin.revenue", "fin.years", "fin.units.revenue"], SETTLED),
        ("Revenue has fallen every year, from £871.4m in FY23 to £958.7m in FY25.",
         ["fin.revenue", "fin.years", "fin.units.revenue"], UNDECIDED),
        ("Interest cover has fallen to 1.9x.", ["fin.interest_cover", "fin.years"], SETTLED),
        # a key that is a label: its words past punctuation, a number with its unit
        ("Vessel wait before berth was 19.5 hours in FY2025.",
         ['ops["Vessel wait before berth, median (hrs, FY2025)"]'], SETTLED),
        ("Vessel wait before berth was 19.5 days in FY2025.",
         ['ops["Vessel wait before berth, median (hrs, FY2025)"]'], FAILED),
        # a BI row's label names its value
        ("Group revenue was $612.4m in FY2025.", ["bi[0]"], SETTLED),
        ("Group EBITDA was $612.4m in FY2025.", ["bi[0]"], UNDECIDED),
        # a negator inside the cited value is the value's own word, not a denial of it
        ("Dashboard payback is never measured.", ["issues[0].title"], SETTLED),
        ("They have no slow checkout.", ["issues[1].title"], FAILED),
        # a metric prefix on a unit is a word, not an invented name
        ("They save 0.9 megalitres of water per hectare.", ["kpis[2]"], SETTLED),
        # a scale a sibling field states in words; a percent key that may hold a fraction
        ("Revenue was about €386m.", ["Measured.Revenue"], SETTLED),
        ("Revenue was about €386 thousand.", ["Measured.Revenue"], FAILED),
        ("Revenue grew 0.074%.", ["Measured.Growth"], UNDECIDED),
        ("Revenue grew 7.4%.", ["Measured.Growth"], UNDECIDED),
        # the scale the report declares holds for a subsidiary's own currency too
        ("Subsidiary turnover is SEK 412 thousand.", ["subsidiary", "AMOUNTS_IN"], SETTLED),
        ("Subsidiary turnover is SEK 412 million.", ["subsidiary", "AMOUNTS_IN"], FAILED),
        # an identifier's plural is the identifier
        ("The aircraft count is 18, all ATR 72-600s.", ["aircraft"], UNDECIDED),
        ("The aircraft count is 18, all ATR 72-500s.", ["aircraft"], FAILED),
        # a cited text that denies what the claim's figure counts
        ("Of the 180 work orders reviewed, 112 had no root-cause note.",
         ["findings[1].detail"], SETTLED),
        ("Of the 180 work orders reviewed, 112 had a root-cause note.",
         ["findings[1].detail"], UNDECIDED),
        ("Digitally active members climbed to 55.4% in Q4'25.",
         ["digital.activeShare[\"Q4'25\"]"], FAILED),
        # a day a key writes whole, in any date style
        ("Net debt at 31.12.2025 was €38.9M.", ['["Key figures"]["Net debt 31.12.2025"]'],
         SETTLED),
        ("Net debt at 31.12.2024 was €38.9M.", ['["Key figures"]["Net debt 31.12.2025"]'],
         FAILED),
        # a key's own figure is the key's ("within 30 days"), not another thing
        ("About 11.8% of callouts need a repeat visit within 30 days.",
         ['["Key figures"]["Callback rate (repeat callout within 30 days)"]'], UNDECIDED),
        ("About 11.8% of callouts need a repeat visit within 60 days.",
         ['["Key figures"]["Callback rate (repeat callout within 30 days)"]'], UNDECIDED),
        # a trailing twelve months is twelve months
        ("OTP was 78.4% over the twelve months to Q3 2025.",
         ["otp"], UNDECIDED),
        ("OTP was 78.4% over the six months to Q3 2025.",
         ["otp"], UNDECIDED),  # a key's span is a label, never proof against the claim
        # a long table's rows of one metric are a series: each figure bound to its period
        ("Load factor in 2025-H1: 77.6%; in 2025-H2: 84.6%.",
         ["halves[0]", "halves[1]"], SETTLED),
        ("Load factor in 2025-H1: 84.6%; in 2025-H2: 77.6%.",
         ["halves[0]", "halves[1]"], UNDECIDED),
        # an acronym of a key's words ("and" left out), "X" for "ex"
        ("O&M costs run at about £61,500.", ["costs"], UNDECIDED),
        ("R&D costs run at about £61,500.", ["costs"], FAILED),
        # an amount taken at a cited rate: arithmetic the checks leave to the judge
        ("EBITDA came to roughly A$18.5m in FY25.", ["pnl[0]", "pnl[1]"], UNDECIDED),
        ("EBITDA came to roughly A$21.5m in FY25.", ["pnl[0]", "pnl[1]"], FAILED),
        # "year on year" is no unit of a percent; "(prior year)" is no unit of a count
        ("Units under contract grew about 3.6% year on year.", ["contracts"], SETTLED),
        ("Units under contract grew about 4.6% year on year.", ["contracts"], FAILED),
        # a margin is one period's share: of the year the claim names
        ("Their operating margin was roughly 21.6% in FY2025.", ["pl.rows[0]", "pl.rows[1]",
                                                                 "pl.columns"], SETTLED),
        ("Their operating margin was roughly 24.0% in FY2025.", ["pl.rows[0]", "pl.rows[1]",
                                                                 "pl.columns"], FAILED),
        ("Their operating margin was roughly 23.0% in FY2025.", ["pl.rows[0]", "pl.rows[1]",
                                                                 "pl.columns"], FAILED),
        # things a text names, counted: not read
        ("Units are split across two platforms.", ["monitoring.Platforms"], UNDECIDED),
        # one word of another bullet is no swap when the cited bullets fit the claim better
        ("Practices sending SMS reminders have less than half the missed-appointment rate of "
         "those posting them (4.1% vs 8.8%).", ["reminders[1]", "reminders[2]"], UNDECIDED),
    ],
)  # fmt: skip
def test_reading_a_report_in_its_own_terms(
    other: Report, text: str, evidence: list[str], expected: Status
) -> None:
    _assert_status(other, text, evidence, expected)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Subsidiary turnover is SEK 412 million.", UNDECIDED),
        ("Subsidiary turnover is SEK 413 million.", FAILED),
    ],
)
def test_a_small_amount_with_no_scale_stated_is_unread_not_wrong(
    text: str, expected: Status
) -> None:
    report = build_report(
        "bare", {**{k: OTHER[k] for k in ("company", "report")}, "subsidiary": OTHER["subsidiary"]}
    )
    _assert_status(report, text, ["subsidiary"], expected)


def test_a_claim_over_a_series_is_no_restatement_to_post_unjudged(other: Report) -> None:
    """``picked up every year`` of a series is its shape, more than its values: ``auto``
    sends it to the judge rather than post it marked."""
    data = {
        **OTHER,
        "ANNUAL": {"GROWTH": {"FY2022": "+3.4%", "FY2023": "+2.1%", "FY2024": "-0.4%"}},
    }
    report = build_report("series", data)
    claim = Claim(text="Growth has picked up every year.", kind="fact", evidence=["ANNUAL.GROWTH"])
    verdict = verify_claim(claim, report)
    assert verdict.undecided and not verdict.restates


@pytest.mark.parametrize(
    ("text", "evidence"),
    [
        # a word set against one the evidence says (desktop where it says mobile)
        ("The booking engine loses 81% of guests who start a booking, most of them on desktop.",
         ["funnel.detail"]),
        # a superlative no rule reads ("by far" names no measure the segments hold)
        ("Pumps are the biggest segment by far.", ["revenue.by_segment"]),
    ],
)  # fmt: skip
def test_a_claim_that_asserts_more_than_its_values_is_no_restatement(
    text: str, evidence: list[str]
) -> None:
    """``auto`` posts a restatement unjudged, so an unfound word that may carry a claim of
    its own keeps it for the judge."""
    data = {
        **OTHER,
        "funnel": {
            "detail": "The booking engine loses 81% of guests who start a booking, most of "
            "them on mobile, where the payment step times out."
        },
        "revenue": {
            "by_segment": {
                "pumps": {"revenue_usd": 151000000, "share_pct": 31.1},
                "iv_sets": {"revenue_usd": 278000000, "share_pct": 57.2},
                "service": {"revenue_usd": 57000000, "share_pct": 11.7},
            }
        },
    }
    verdict = verify_claim(
        Claim(text=text, kind="fact", evidence=evidence), build_report("r", data)
    )
    assert verdict.undecided and not verdict.restates, verdict
    ranked = verify_claim(  # the segments ranked by the revenue the claim names
        Claim(text="Pumps are the biggest segment, at 57% of revenue.", kind="fact",
              evidence=["revenue.by_segment"]),
        build_report("r", data),
    )  # fmt: skip
    assert [r.rule for r in ranked.reasons] == ["attribute.rank"], ranked
