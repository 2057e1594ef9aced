"""Verifier rules that generalise past our own reports (issue 8, held-out failure kinds):
derived figures named anywhere in a one-figure claim, verbs that are not names, an
acronym's plural, abbreviated keys, rivals that could hold the figure, swaps by fit,
bounds, fractions. Each rule is pinned by a true and a false example."""

from __future__ import annotations

from typing import Any

import pytest

from prism_slack.claims import Claim
from prism_slack.reports.model import Report, build_report
from prism_slack.testing.verify_cases import Outcome, one_sided, outcome
from prism_slack.verify import verify_claim

DATA: dict[str, Any] = {
    "company": {"name": "Brightwater Mutual", "aliases": ["Brightwater"]},
    "report": {"id": "R-9", "generated_at": "2026-05-04"},
    "balance": {"loans_usd_millions": 420.0, "deposits_usd_millions": 500.0},
    "channels": {"sales_pct": {"store": 40.0, "web": 35.0, "phone": 25.0}},
    "scores": {"max": 5, "checkout": 4.5, "search": 2.0},
    "levers": [{"title": "Lift conversion", "value_estimate": "conversion 2.0% -> 2.5%"}],
    "stakeholders": [
        {
            "name": "Temi Oyelaran",
            "title": "Head of Digital",
            "needs": "Payback inside 18 months",
        }
    ],
    "it": {"spend_gbp_millions": 2.4},
    "costs": {"ota_commission_gbp_millions": 3.1},
    "performance": {
        "adr_gbp": 278.0,
        "average_spend_gbp": 41.0,
        "occupancy": 0.742,
        "direct_booking_share": 0.74,
        "energy_cost_per_occupied_room_gbp": 4.1,
    },
    "kpis": {
        "online_signup_completion": 0.312,
        "conversion_rate_pct": 2.1,
        "trial_conversion_pct": 3.7,
    },
    "ops": {"peak_check_in_wait_minutes": 14, "first_year_probe_failure_rate": 0.074},
    "money": {"return_on_assets": 0.0064, "delinquency_90_days_pct": 0.38},
    "members": {"age_note": "Members under 30 are a fifth of the base."},
    "findings": [
        {
            "title": "Pricing lives in workbooks",
            "detail": "Each depot prices from its own workbook, so quotes for one part differ "
            "by up to 18%.",
        },
        {
            "title": "Manual reporting",
            "detail": "Month-end reporting is rebuilt by hand in a spreadsheet by two analysts.",
        },
        {"title": "No EDI", "detail": "Orders arrive by email and are keyed in twice."},
        {"title": "Returns", "detail": "Most stores accept returns without a receipt."},
        {"title": "Stock", "detail": "All stores count stock by hand every night."},
        {
            "title": "Portal",
            "detail": "Dealers were never trained, so 63% of dealers never log in to the "
            "portal; the rest log in weekly.",
        },
    ],
}


CASES: list[tuple[str, str, tuple[str, ...], Outcome]] = [
    # a share of two cited amounts in one currency
    ("share of amounts", "Loans come to about 84% of deposits.",
     ("balance.loans_usd_millions", "balance.deposits_usd_millions"), "ok"),
    ("share of amounts", "Loans come to about 88% of deposits.",
     ("balance.loans_usd_millions", "balance.deposits_usd_millions"), "fails"),
    # the relation named away from the only figure, over two cited fields
    ("far relation", "Web, plus the phone line, brings in 60% of sales.",
     ("channels.sales_pct.web", "channels.sales_pct.phone"), "undecided"),
    ("far relation", "Web, plus the phone line, brings in 62% of sales.",
     ("channels.sales_pct.web", "channels.sales_pct.phone"), "fails"),
    # a percent change between two figures of one cited passage
    ("relative change", "Hitting the goal would be a 25% relative improvement in conversion.",
     ("levers[0].value_estimate",), "undecided"),
    ("relative change", "Hitting the goal would be a 30% relative improvement in conversion.",
     ("levers[0].value_estimate",), "fails"),
    # a particle run into a verb is not a lower-case name; a rare word still is
    ("particle verb", "Checkout outscores search by 2.5 points.",
     ("scores.checkout", "scores.search"), "undecided"),
    ("particle verb", "Checkout runs on zorbify and beats search by 2.5 points.",
     ("scores.checkout", "scores.search"), "fails"),
    # a sentence-opening verb before a name is an imperative, not part of the name
    ("imperative", "Pitch Oyelaran on the checkout score of 4.5.",
     ("stakeholders[0].name", "scores.checkout"), "undecided"),
    ("imperative", "Pitch Okonkwo on the checkout score of 4.5.",
     ("stakeholders[0].name", "scores.checkout"), "fails"),
    # an acronym's plural is warranted by the acronym
    ("acronym plural", "OTAs cost them £3.1 million in commission.",
     ("costs.ota_commission_gbp_millions",), "ok"),
    ("acronym plural", "GDSs cost them £3.1 million in commission.",
     ("costs.ota_commission_gbp_millions",), "fails"),
    # initials of the claim's words spell an abbreviated key (adr = average daily rate)
    ("initials", "The average daily rate comes to about £280.", ("performance.adr_gbp",),
     "ok"),
    ("initials", "The average spend comes to about £278.", ("performance.adr_gbp",), "fails"),
    # a fraction stated as a share; a weak qualifier the field lacks is only a doubt
    ("share of a fraction", "Under a third of members who begin the online signup finish it.",
     ("kpis.online_signup_completion",), "undecided"),
    ("share of a fraction", "Under a quarter of members who begin the online signup finish it.",
     ("kpis.online_signup_completion",), "fails"),
    # a field of another kind (a cost per room, for a share) is no rival
    ("rival of another kind", "Close to three-quarters of rooms are occupied on a typical night.",
     ("performance.occupancy",), "undecided"),
    ("rival of another kind", "Occupancy runs close to three-quarters.",
     ("performance.direct_booking_share",), "fails"),
    # a more specific sibling the claim names (trial conversion, citing conversion)
    ("specific sibling", "Visitors convert at 2.1%.", ("kpis.conversion_rate_pct",),
     "undecided"),
    ("specific sibling", "Trials convert at 2.1%.", ("kpis.conversion_rate_pct",), "fails"),
    # one stray word of another finding is no swap when the claim fits the cited one
    ("swap by fit", "Since each depot prices from its own spreadsheet, quotes for one part "
     "differ by as much as 18%.", ("findings[0].detail",), "undecided"),
    ("swap by fit", "Two analysts rebuild the month-end spreadsheet by hand.",
     ("findings[0].detail",), "fails"),
    # "as much as" is an upper bound, "as little as" a lower one
    ("as much as", "Quotes for one part differ by as much as 18%.", ("findings[0].detail",),
     "ok"),
    ("as much as", "Quotes for one part differ by as little as 18%.", ("findings[0].detail",),
     "fails"),
    # an English word joined to a number is an age group, not an identifier
    ("word and number", "Under-30s make up a fifth of members.", ("members.age_note",),
     "ok"),
    ("word and number", "Under-20s make up a fifth of members.", ("members.age_note",),
     "fails"),
    # a bound more than ten times off the cited value is a slip (here of the unit)
    ("bound reach", "Guests wait up to 14 minutes at peak check-in.",
     ("ops.peak_check_in_wait_minutes",), "undecided"),
    ("bound reach", "Guests wait up to 14 hours at peak check-in.",
     ("ops.peak_check_in_wait_minutes",), "fails"),
    # a plain value below 0.1 is a fraction: 0.0064 is 0.64%, never 0.0064%
    ("fraction only", "Return on assets is 0.64%.", ("money.return_on_assets",), "ok"),
    ("fraction only", "Return on assets is 0.0064%.", ("money.return_on_assets",), "fails"),
    # a claim about a whole group citing a passage about part of it exaggerates
    ("quantifier", "All stores count stock by hand.", ("findings[4].detail",), "ok"),
    ("quantifier", "All stores accept returns without a receipt.", ("findings[3].detail",),
     "fails"),
    ("quantifier", "Every depot prices from its own workbook.", ("findings[0].detail",),
     "undecided"),
    # a claim's optional "one" is context: never bound to the field that happens to hold one
    ("optional one", "The audit lists 6 findings, and one is about workbooks.", ("findings",),
     "ok"),
    ("optional one", "The audit lists 6 findings, and one is about invoices.", ("findings",),
     "undecided"),
    ("optional one", "The audit lists 7 findings, and one is about workbooks.", ("findings",),
     "fails"),
    # the clause a claim restates decides, not a "never" elsewhere in the passage
    ("quantifier", "No dealer logs in to the portal.", ("findings[5].detail",), "fails"),
    ("quantifier", "About 63% of dealers never log in to the portal.", ("findings[5].detail",),
     "ok"),
    ("quantifier", "Dealers were never trained.", ("findings[5].detail",), "ok"),
]  # fmt: skip


@pytest.fixture(scope="module")
def report() -> Report:
    return build_report("brightwater", DATA)


@pytest.mark.parametrize(
    ("rule", "text", "evidence", "expected"),
    CASES,
    ids=[f"{rule}: {text}" for rule, text, _, _ in CASES],
)
def test_rule(
    report: Report, rule: str, text: str, evidence: tuple[str, ...], expected: Outcome
) -> None:
    assert outcome(report, text, evidence) == expected


def test_each_rule_has_a_true_and_a_false_example() -> None:
    assert one_sided(CASES) == {}


def test_a_far_relation_records_its_arithmetic(report: Report) -> None:
    claim = Claim(
        text="Web, plus the phone line, brings in 60% of sales.",
        kind="fact",
        evidence=["channels.sales_pct.web", "channels.sales_pct.phone"],
    )
    [derivation] = verify_claim(claim, report).derivations
    assert (derivation.relation, derivation.arithmetic) == ("sum", "25 + 35 = 60")


def test_a_far_relation_needs_two_cited_fields(report: Report) -> None:
    claim = Claim(
        text="Conversion, plus a little, comes to 4.5%.",
        kind="fact",
        evidence=["levers[0].value_estimate"],
    )
    assert not verify_claim(claim, report).supported


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("About 7.4% of probes fail in their first year.", "ok"),  # fail: failure
        ("About 7.4% of probes fail in their second year.", "undecided"),  # no unit word
        ("About 7.4% of probes break in their first year.", "undecided"),
    ],
)
def test_a_verb_is_found_in_its_noun_and_an_ordinal_is_content(
    report: Report, text: str, expected: Outcome
) -> None:
    assert outcome(report, text, ("ops.first_year_probe_failure_rate",)) == expected


def _small(name: str, data: dict[str, Any]) -> Report:
    """A report of ``data`` for the company ``name``."""
    envelope = {
        "company": {"name": name, "aliases": []},
        "report": {"id": "R-1", "generated_at": "2026-05-04"},
    }
    return build_report(name.split(maxsplit=1)[0].lower(), {**envelope, **data})


def test_a_quoted_sentence_is_not_failed_by_another_fields_trend() -> None:
    report = _small(
        "Quill Air",
        {
            "financials": {"revenue_growth_pct": 7.4},
            "findings": [
                {"title": "Direct share", "detail": "Direct bookings fell to 47% of sales."}
            ],
            "commercial": {"ChangeVsPriorYear": {"Bps": -180}},
        },
    )
    quote = ("Direct bookings fell to 47% of sales.", ("findings[0].detail",))
    assert outcome(report, *quote) != "fails"
    assert outcome(report, "Sales fell 7.4%.", ("findings[0].detail",)) == "fails"
    keyed = ("Change vs prior year: -180 bps.", ("commercial.ChangeVsPriorYear.Bps",))
    assert outcome(report, *keyed) == "ok"  # "prior" is the key's own word


def test_a_cited_share_of_a_cited_count_is_arithmetic_not_a_failure() -> None:
    report = _small(
        "Pell Air",
        {
            "loyalty": {"members": 318000, "active_share_pct": 22.0},
        },
    )
    cited = ("loyalty.members", "loyalty.active_share_pct")
    assert outcome(report, "That's roughly 70,000 active loyalty members.", cited) == "undecided"
    assert outcome(report, "They have about 70,000 loyalty members.", cited) == "undecided"
    assert outcome(report, "That's roughly 90,000 active loyalty members.", cited) == "fails"


def test_a_measured_figure_a_key_writes_names_the_field(report: Report) -> None:
    cited = ("money.delinquency_90_days_pct",)
    assert outcome(report, "90-day delinquency sits at 0.38%.", cited) == "ok"
    assert outcome(report, "60-day delinquency sits at 0.38%.", cited) != "ok"


@pytest.mark.parametrize(
    ("text", "evidence", "expected"),
    [
        ("They spent £2.4m on IT.", ("it.spend_gbp_millions",), True),  # spent: spend
        ("They spent £2.4m on marketing.", ("it.spend_gbp_millions",), False),
        ("Temi Oyelaran wants payback inside 18 months.", ("stakeholders[0].needs",), True),
        ("Temi Oyelaran wants a discount inside 18 months.", ("stakeholders[0].needs",), False),
    ],
)  # fmt: skip
def test_a_word_is_found_by_its_lemma_and_its_looser_group(
    report: Report, text: str, evidence: tuple[str, ...], expected: bool
) -> None:
    assert (outcome(report, text, evidence) == "ok") is expected


def test_a_place_and_its_adjective_name_each_other() -> None:
    report = _small(
        "Storm Hold",
        {
            "segments": [{"entity": "Sweden", "revenue_sek_millions": 412}],
        },
    )
    cited = ("segments[0]",)
    assert outcome(report, "Swedish revenue is SEK 412 million.", cited) == "ok"
    assert outcome(report, "Swiss revenue is SEK 412 million.", cited) != "ok"


def test_a_figure_given_to_the_wrong_year_fails_only_on_proof() -> None:
    report = _small(
        "Yarrow Air",
        {
            "loadFactor": {"2023": "76.8%", "2024": "79.1%", "2025": "80.3%"},
        },
    )
    cited = ("loadFactor",)
    assert outcome(report, "Load factor was 79.1% in 2025.", cited) == "fails"
    assert outcome(report, "Load factor was 80.3% in 2025.", cited) == "ok"
    assert outcome(report, "Load factor improved to 80.3% in 2025, from 79.1%.", cited) != "fails"
    assert outcome(report, "Load factor has been above 79.1% since 2024.", cited) != "fails"


def test_power_and_energy_convert_by_their_si_prefix() -> None:
    report = _small(
        "Windle Power",
        {
            "facts": [
                {"concept": "NetGeneration", "value": "1538", "unitRef": "GWh"},
                {"concept": "InstalledCapacity", "value": "612", "unitRef": "MW"},
            ],
            "sites": {"windFarms": 14},
        },
    )
    generation, capacity = ("facts[0]",), ("facts[1]",)
    assert outcome(report, "Net generation was about 1.5 TWh.", generation) != "fails"
    assert outcome(report, "Net generation was about 1.9 TWh.", generation) == "fails"
    assert outcome(report, "They generated about 1.5 GWh last year.", generation) == "fails"
    assert outcome(report, "Installed capacity is 612 MW.", capacity) == "ok"
    per_farm = ("facts[1]", "sites.windFarms")
    assert outcome(report, "That is about 44 MW of capacity per wind farm.", per_farm) != "fails"
