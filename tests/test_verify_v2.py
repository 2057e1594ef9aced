"""Verifier v2 rules, each pinned by a true and a false example (issue 8).

Outcomes: ``ok`` (supported and decided: EVIDENCE-WARRANTED), ``undecided`` (supported,
check 7 could not settle it: ANCHOR-WARRANTED), ``fails`` (a hard check failed).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prism_slack.claims import Claim
from prism_slack.language import words
from prism_slack.reports.model import Report, build_report
from prism_slack.verdict import Check, Rung
from prism_slack.verify import verify_claim
from prism_slack.verify.checks import failed_checks
from prism_slack.verify.context import directions
from prism_slack.verify.lexicon import NUMBER_WORDS
from prism_slack.verify.numbers import QKind, scan

DATA: dict[str, Any] = {
    "company": {"name": "Acme Widgets, Inc.", "aliases": ["Acme"], "domain": "acmewidgets.com"},
    "report": {"id": "R-2", "generated_at": "2026-03-09"},
    "financials": {
        "revenue_usd": 4137220,
        "revenue_growth_pct": -5.0,
        "net_revenue_retention_pct": 108.5,
        "payer_mix": {"medicare_pct": 36.2, "medicaid_pct": 15.1, "commercial_pct": 44.5},
    },
    "metrics": {
        "mobile_share_pct": 71.3,
        "call_abandonment_pct": 12.9,
        "us_viewers_millions": 10.34,
        "loyalty_members": 486000,
        "first_response_time": "9.5 h",
        "average_contract_value": 32750,
    },
    "scores": {"max": 10, "search_relevance": 4, "checkout": 7},
    "vendors": {"ecommerce": "Shopify", "crm": "HubSpot", "contact_center": "Five9"},
    "rows": [
        {"date": "march 15", "opponent": "toronto", "score": "0 - 3", "time": "1:56.85"},
        {"date": "march 17", "opponent": "zelenograd", "score": "7 - 8", "time": "2:01.10"},
        {"date": "march 19", "opponent": "boston", "score": "2 - 1", "time": "1:59.40"},
        {"date": "march 21", "opponent": "chicago", "score": "4 - 4", "time": "2:03.00"},
    ],
    "stakeholders": [
        {"name": "Maria Chen", "title": "VP Sales"},
        {"name": "Priya Raman", "title": "Chief Digital Officer"},
    ],
    "findings": [
        {
            "title": "Slow mobile checkout",
            "detail": "Product pages load in 2.9 s on mobile, against a 2.5 s target.",
        },
        {"title": "Help centre gaps", "detail": "Articles cover 34 of 102 ticket tags."},
    ],
}

Outcome = Literal["ok", "undecided", "fails"]


@pytest.fixture(scope="module")
def acme() -> Report:
    return build_report("acme", DATA)


def agrees(got: Outcome, expected: str) -> bool:
    """``expected`` may also be ``supported``: ``ok`` or ``undecided``."""
    return got == expected or (expected == "supported" and got != "fails")


def outcome(report: Report, text: str, *evidence: str, kind: str = "fact") -> Outcome:
    verdict = verify_claim(Claim(text=text, kind=kind, evidence=list(evidence)), report)  # type: ignore[arg-type]
    if not verdict.supported:
        assert not verdict.undecided
        return "fails"
    if verdict.undecided:
        assert verdict.rung is Rung.ANCHOR_WARRANTED
        return "undecided"
    assert verdict.rung is Rung.EVIDENCE_WARRANTED
    return "ok"


CASES: list[tuple[str, str, tuple[str, ...], Outcome]] = [
    # check 7 fails only on positive evidence; unfound wording is undecided
    ("evidence", "Their CRM is HubSpot.", ("vendors.crm",), "ok"),
    ("evidence", "Their CRM is HubSpot, which reps like.", ("vendors.crm",), "undecided"),
    ("evidence", "Their ecommerce runs on HubSpot.", ("vendors.crm",), "fails"),
    # British and American spellings meet; "last" places a period; "only" before a figure
    # weighs it (elsewhere it says "and no other", which the evidence must say too)
    ("spelling", "The contact centre uses Five9.", ("vendors.contact_center",), "ok"),
    ("spelling", "The contact centre uses Shopify.", ("vendors.contact_center",), "fails"),
    ("period word", "Revenue fell last year, by 5%.", ("financials.revenue_growth_pct",), "ok"),
    ("period word", "Revenue rose last year, by 5%.", ("financials.revenue_growth_pct",),
     "fails"),
    ("focus", "Mobile share is only about 71%.", ("metrics.mobile_share_pct",), "ok"),
    ("focus", "Only Shopify runs their ecommerce.", ("vendors.ecommerce",), "undecided"),
    ("focus", "Mobile share is only about 81%.", ("metrics.mobile_share_pct",), "fails"),
    # a measure's words found in the field (``average contract`` in average_contract_value)
    # or a synonym of its measure (``top line`` for revenue) name it
    ("names the field", "An average contract is worth about $33K.",
     ("metrics.average_contract_value",), "ok"),
    ("names the field", "An average contract is worth about $43K.",
     ("metrics.average_contract_value",), "fails"),
    ("names the field", "The top line fell 5%.", ("financials.revenue_growth_pct",), "ok"),
    ("names the field", "The top line rose 5%.", ("financials.revenue_growth_pct",), "fails"),
    # a measure's name in title case is no name
    ("title-case measure", "The Top Line fell 5%.", ("financials.revenue_growth_pct",), "ok"),
    ("title-case measure", "The Top Line rose 5%.", ("financials.revenue_growth_pct",), "fails"),
    # a retention level says which way the base went: above 100% it grew
    ("retention", "With net revenue retention at 108.5%, their customer base is growing.",
     ("financials.net_revenue_retention_pct",), "undecided"),
    ("retention", "Net revenue retention rose to 108.5%.",
     ("financials.net_revenue_retention_pct",), "ok"),
    ("retention", "With net revenue retention at 108.5%, their customer base is shrinking.",
     ("financials.net_revenue_retention_pct",), "fails"),
    # a field next to the cited one, named instead of it
    ("sibling", "Medicaid is 15.1% of the payer mix.", ("financials.payer_mix.medicaid_pct",),
     "ok"),
    ("sibling", "Medicare is 15.1% of the payer mix.", ("financials.payer_mix.medicaid_pct",),
     "fails"),
    # the clause's words sit around another number of the cited sentence
    ("sentence", "Product pages load in 2.9 s on mobile.", ("findings[0].detail",), "ok"),
    ("sentence", "Product pages load in 2.5 s on mobile.", ("findings[0].detail",), "fails"),
    # record strings match whole; a number inside a date or score is part of it
    ("record", "Acme lost 0 - 3 to toronto on march 15.", ("rows[0]",), "undecided"),
    ("record", "Acme lost 0 - 4 to toronto on march 15.", ("rows[0]",), "fails"),
    ("record", "The time on march 15 was 1.56.85.", ("rows[0]",), "ok"),
    ("record", "The time on march 15 was 1.56.95.", ("rows[0]",), "fails"),
    # a two-number score either way round; a dashed record of as many numbers as a cited
    # one must be that one, not its numbers found one by one
    ("record order", "Toronto won 3 - 0 on march 15.", ("rows[0]",), "undecided"),
    ("record order", "Acme won 8 - 1 against zelenograd on march 17.", ("rows[1]",), "fails"),
    # a distinctive word of another row of the cited list
    ("row swap", "Acme lost 0 - 3 to toronto.", ("rows[0]",), "undecided"),
    ("row swap", "Acme lost 0 - 3 to zelenograd.", ("rows[0]",), "fails"),
    # another row's value in the same column, where the cited row holds something else
    ("column swap", "The opponent on march 15 was toronto.", ("rows[0]",), "ok"),
    ("column swap", "The opponent on march 15 was boston.", ("rows[0]",), "fails"),
    # units and scale carried by the field name
    ("field scale", "About 10.34 million people watched.", ("metrics.us_viewers_millions",),
     "undecided"),
    ("field scale", "About 10.34 billion people watched.", ("metrics.us_viewers_millions",),
     "fails"),
    ("field unit", "First responses take nine and a half hours.",
     ("metrics.first_response_time",), "ok"),
    ("field unit", "First responses take nine and a half days.",
     ("metrics.first_response_time",), "fails"),
    # shares and number words
    ("share", "About seven in ten sessions are mobile.", ("metrics.mobile_share_pct",),
     "undecided"),
    ("share", "About six in ten sessions are mobile.", ("metrics.mobile_share_pct",), "fails"),
    ("share", "The contact centre drops roughly one call in eight.",
     ("metrics.call_abandonment_pct",), "undecided"),
    ("share", "The contact centre drops roughly one call in four.",
     ("metrics.call_abandonment_pct",), "fails"),
    ("hedge", "Just under half a million loyalty members.", ("metrics.loyalty_members",), "ok"),
    ("hedge", "Just over half a million loyalty members.", ("metrics.loyalty_members",), "fails"),
    # one of a unit after a bound ("over a second", "by a full day")
    ("one unit", "First responses take under a day.", ("metrics.first_response_time",), "ok"),
    ("one unit", "First responses take over a day.", ("metrics.first_response_time",), "fails"),
    # direction words: a verb of a level is not a change; a change's sign must agree
    ("direction", "Revenue fell 5%.", ("financials.revenue_growth_pct",), "ok"),
    ("direction", "Revenue rose 5%.", ("financials.revenue_growth_pct",), "fails"),
    # a direction word anywhere in the claim, against the report's change field
    # a change said of a level that nothing cited measures: the judge's (the report's
    # own growth field agrees, but it is not cited)
    ("trend", "Revenue slid to $4.1M.", ("financials.revenue_usd",), "undecided"),
    ("trend", "Call abandonment has climbed to 12.9%.", ("metrics.call_abandonment_pct",),
     "undecided"),
    ("trend", "Revenue slid to $4.1M.", ("financials.revenue_usd", "financials.revenue_growth_pct"),
     "ok"),
    ("trend", "Revenue rose to $4.1M.", ("financials.revenue_usd", "financials.revenue_growth_pct"),
     "fails"),
    # early, mid or late in a year is a third of it: a date of that third warrants it
    ("part of a year", "The report was generated in early 2026.", ("report.generated_at",),
     "ok"),
    ("part of a year", "The report was generated in mid-2026.", ("report.generated_at",),
     "fails"),
    ("trend", "Revenue slid to $4.1M, down 5%.",
     ("financials.revenue_usd", "financials.revenue_growth_pct"), "ok"),
    ("trend", "Revenue grew to $4.1M, up from the prior year.", ("financials.revenue_usd",),
     "fails"),
    # lower-case names must be warranted; contractions and imperatives are not names
    ("lower-case name", "Their storefront runs on shopify.", ("vendors.ecommerce",), "ok"),
    ("lower-case name", "Their storefront runs on magento.", ("vendors.ecommerce",), "fails"),
    ("contraction", "They're on HubSpot for CRM.", ("vendors.crm",), "ok"),
    ("contraction", "They're on Salesforce for CRM.", ("vendors.crm",), "fails"),
    # a person given another cited record's role
    ("crossed", "Maria Chen is the VP Sales.", ("stakeholders[0].name", "stakeholders[0].title"),
     "ok"),
    ("crossed", "Maria Chen is the Chief Digital Officer.",
     ("stakeholders[0].name", "stakeholders[1].title"), "fails"),
    # derived figures, when the claim names the relation next to the figure
    ("derived", "Search relevance sits six points below the max.",
     ("scores.search_relevance", "scores.max"), "ok"),
    ("derived", "Search relevance sits five points below the max.",
     ("scores.search_relevance", "scores.max"), "fails"),
    ("derived", "Product pages miss the 2.5 s target by 0.4 s.", ("findings[0].detail",),
     "ok"),
    ("derived", "Product pages miss the 2.5 s target by 0.6 s.", ("findings[0].detail",),
     "fails"),
    ("derived", "Medicare and commercial together are 80.7% of the payer mix.",
     ("financials.payer_mix.medicare_pct", "financials.payer_mix.commercial_pct"), "ok"),
    ("derived", "Medicare and commercial together are 81.7% of the payer mix.",
     ("financials.payer_mix.medicare_pct", "financials.payer_mix.commercial_pct"), "fails"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rule", "text", "evidence", "expected"),
    CASES,
    ids=[f"{rule}: {text}" for rule, text, _, _ in CASES],
)
def test_rule(
    acme: Report, rule: str, text: str, evidence: tuple[str, ...], expected: Outcome
) -> None:
    assert outcome(acme, text, *evidence) == expected


def test_each_rule_has_a_true_and_a_false_example() -> None:
    by_rule: dict[str, set[bool]] = {}
    for rule, _, _, expected in CASES + RELATION_CASES:
        by_rule.setdefault(rule, set()).add(expected == "fails")
    assert all(kinds == {True, False} for kinds in by_rule.values()), by_rule


def test_a_derived_figure_shows_its_arithmetic(acme: Report) -> None:
    claim = Claim(
        text="Search relevance sits six points below the max.",
        kind="fact",
        evidence=["scores.search_relevance", "scores.max"],
    )
    verdict = verify_claim(claim, acme)
    [derivation] = verdict.derivations
    assert derivation.relation == "difference"
    assert derivation.arithmetic == "10 - 4 = 6"
    assert sorted(derivation.operands) == ["scores.max", "scores.search_relevance"]


def test_a_derived_figure_needs_its_relation_named(acme: Report) -> None:
    claim = Claim(
        text="Search relevance is six.",
        kind="fact",
        evidence=["scores.search_relevance", "scores.max"],
    )
    assert failed_checks(verify_claim(claim, acme).reasons) == {Check.ANCHOR_WARRANT}


def test_positive_evidence_is_never_undecided(acme: Report) -> None:
    claim = Claim(
        text="Medicare is 15.1% of the payer mix.",
        kind="fact",
        evidence=["financials.payer_mix.medicaid_pct"],
    )
    verdict = verify_claim(claim, acme)
    assert not verdict.supported and not verdict.undecided
    assert all(str(r).startswith("attribute_warrant: ") for r in verdict.reasons)


SMALL = sorted((w, n) for w, n in NUMBER_WORDS.items() if 1 <= n <= 10)


@given(
    st.sampled_from(SMALL), st.sampled_from(SMALL), st.booleans(), st.sampled_from(["", " call"])
)
def test_a_ratio_in_words_or_digits_is_a_share(
    top: tuple[str, int], bottom: tuple[str, int], digits: bool, noun: str
) -> None:
    (top_word, n), (bottom_word, d) = top, bottom
    a, b = (str(n), str(d)) if digits else (top_word, bottom_word)
    found = scan(f"Roughly {a}{noun} in {b} are dropped.").quantities
    if n > d:
        assert all(q.kind is not QKind.PERCENT for q in found)
        return
    [share] = found
    assert share.kind is QKind.PERCENT and share.share
    assert share.value == Decimal(100 * n) / d
    assert share.direction is None  # a share is a level, never a change


@given(st.integers(min_value=1, max_value=99), st.sampled_from(["thousand", "million", ""]))
def test_number_words_are_valued(n: int, scale: str) -> None:
    tens, ones = divmod(n, 10)
    words = {v: k for k, v in NUMBER_WORDS.items()}
    spoken = words[n] if n < 20 else words[tens * 10] + (f"-{words[ones]}" if ones else "")
    text = f"They hired {spoken} {scale} people.".replace("  ", " ")
    [q] = scan(text, report_text=True).quantities
    factor = {"thousand": 1000, "million": 10**6, "": 1}[scale]
    assert q.value == n * factor


# --- check 7: a value the claim names as another field of its record ---------------------

RELATION_DATA: dict[str, Any] = {
    "company": {"name": "1931 vfl season", "aliases": [], "domain": "vfl.example"},
    "report": {"id": "R-3", "generated_at": "2026-03-09"},
    "metrics": {"mobile_share_pct": 71.3, "conversion_rate_pct": 2.1, "aov_usd": 84},
    "financials": {"net_revenue_usd": 3000000, "gross_revenue_usd": 3400000,
                   "annual_gross_revenue_churn": 0.0824, "monthly_sessions": 120000},
    "rows": [
        {"home_team": "st kilda", "home_team_score": "7.10 (52)", "away_team": "footscray",
         "away_team_score": "11.11 (77)", "venue": "junction oval", "crowd": "17000"},
        {"home_team": "richmond", "home_team_score": "13.8 (86)", "away_team": "collingwood",
         "away_team_score": "16.9 (105)", "venue": "punt road oval", "crowd": "21000"},
    ],
    "teams": [
        {"skip": "michelle englot", "third": "deanna doig", "second": "roberta materi",
         "lead": "cindy simmons", "city": "regina"},
    ],
    "findings": [
        {"detail": "11.4% of on-site searches return zero results. Shoppers who land on a "
                   "zero-result page leave the site 38.2% of the time."},
        {"detail": "6.42% of tenders are rejected by contracted carriers, forcing spot "
                   "coverage at a premium of roughly 18%."},
    ],
    "profile": {"ownership": "not-for-profit"},
    "medals": [{"nation": "england", "gold": "1", "silver": "0", "bronze": "1"}],
    "technologies": [{"technology": "lead - acid", "moving_parts": "no", "flammable": "yes"}],
    "segments": [{"segment_b": "s escalator", "segment_c": "goat cheese",
                  "segment_d": "disc music boxes"}],
    "episodes": [
        {"title": "yielding", "directed_by": "jeff bleckner", "written_by": "sarah thorp"},
    ],
    "districts": [
        {"district": "california 21", "incumbent": "bill thomas"},
        {"district": "california 7", "incumbent": "ralph r eltse"},
    ],
    "serials": [{"title": "new girls", "director": "michael e briant",
                 "writer_s": "kathleen j smith"}],
    "podium": [{"athlete": "cristina iovu", "medal": "bronze", "day": "monday"}],
    "trains": [{"train_name": "garib nwaz exp", "origin": "ranchi", "destination": "ajmer"}],
    "picks": [{"player": "tyrell francisco", "position": "te", "college": "weber state"}],
    "players": [
        {"player": "robert allenby", "country": "australia"},
        {"player": "tiger woods", "country": "united states"},
        {"player": "ernie els", "country": "south africa"},
    ],
}  # fmt: skip

RELATION_CASES: list[tuple[str, str, tuple[str, ...], Outcome]] = [
    # a figure whose naming words name another field of its row
    ("amount", "footscray have an away team score of 11.11 (77)", ("rows[0]",), "ok"),
    ("amount", "footscray have a crowd of 11.11 (77)", ("rows[0]",), "fails"),
    ("amount", "crowd 21000 have an away team score of 16.9 (105)", ("rows[1]",), "undecided"),
    ("amount", "crowd 21000 have a home team score of 16.9 (105)", ("rows[1]",), "fails"),
    ("amount", "Their mobile share is 71.3%.", ("metrics.mobile_share_pct",), "ok"),
    ("amount", "Their mobile conversion rate is 71.3%.", ("metrics.mobile_share_pct",), "fails"),
    # a bare number may count a list's items, never a list item's fields
    ("list size", "The season had 2 games.", ("rows",), "undecided"),
    ("list size", "St kilda had 6 goal kickers.", ("rows[0]",), "fails"),
    # a text cell named as another column of its row; "at" says where, not what
    ("cell", "footscray be the away team at junction oval", ("rows[0]",), "ok"),
    ("cell", "the home team at junction oval be st kilda", ("rows[0]",), "ok"),
    ("cell", "footscray be the home team at junction oval", ("rows[0]",), "fails"),
    ("cell", "the skip with a lead of cindy simmons be michelle englot", ("teams[0]",), "ok"),
    ("cell", "the skip with a second of cindy simmons be michelle englot", ("teams[0]",),
     "fails"),
    # "a K of V" says V is a K; "the K of V" is V's K
    ("of", "the skip of regina be michelle englot", ("teams[0]",), "ok"),
    ("of", "michelle englot be the skip with a city of cindy simmons", ("teams[0]",), "fails"),
    # a phrase its cited values never say, when they say an alternative that excludes it
    ("alternatives", "cristina iovu win a bronze medal on monday", ("podium[0]",),
     "undecided"),
    ("alternatives", "cristina iovu win a gold medal", ("podium[0]",), "fails"),
    ("alternatives", "cristina iovu win a bronze medal on sunday", ("podium[0]",), "fails"),
    # words between two stated values may name either: only a field neither holds is
    # evidence
    ("neighbour", "ajmer be the destination of the garib nwaz exp train", ("trains[0]",),
     "ok"),
    ("neighbour", "ranchi be the destination of the garib nwaz exp train", ("trains[0]",),
     "fails"),
    # "X be the K of V" says X is V's K ("writer (s)": the plural mark names nothing)
    ("be the K of", "kathleen j smith be the writer of new girl", ("serials[0]",), "ok"),
    ("be the K of", "michael e briant be the writer of new girl", ("serials[0]",), "fails"),
    # a verb names its agent noun's key: "play" names player
    ("agent", "the position tyrell francisco play for weber state", ("picks[0]",),
     "undecided"),
    ("agent", "the position weber state play for tyrell francisco", ("picks[0]",), "fails"),
    # a negator that denies what the cited row states; an absent value may be denied
    ("denial", "england do not have a silver", ("medals[0]",), "undecided"),
    ("denial", "It's a not-for-profit group.", ("profile.ownership",), "undecided"),
    ("denial", "england do not have a bronze", ("medals[0]",), "fails"),
    ("denial", "robert allenby be not from australia", ("players[0]",), "fails"),
    # a one-letter key word names its field (``segment d``)
    ("key letter", "segment c be goat cheese", ("segments[0]",), "ok"),
    ("key letter", "segment d be goat cheese", ("segments[0]",), "fails"),
    # a field whose value says the thing is absent, named as there
    ("absent", "lead - acid have no moving part", ("technologies[0]",), "ok"),
    ("absent", "there be moving part in lead - acid", ("technologies[0]",), "fails"),
    # "K by V": the run names the value after "by", not the one before "be"
    ("by", "yielding be written by sarah thorp", ("episodes[0]",), "ok"),
    ("by", "yielding be written by jeff bleckner", ("episodes[0]",), "fails"),
    # a dropped qualifier fails when another field holds the measure with another one,
    # or when it changes the quantity itself (monthly, average)
    ("qualifier", "They lose about 8.2% of revenue to churn each year.",
     ("financials.annual_gross_revenue_churn",), "undecided"),
    ("qualifier", "Revenue is $3M.", ("financials.net_revenue_usd",), "fails"),
    ("qualifier", "Sessions are 120,000.", ("financials.monthly_sessions",), "fails"),
    # a one-figure claim whose words sit around another number of the cited sentence
    ("sentence", "When a search comes back empty, shoppers leave the site 38.2% of the time.",
     ("findings[0].detail",), "undecided"),
    ("sentence", "38.2% of their searches come back with zero results.",
     ("findings[0].detail",), "fails"),
    ("sentence", "6.42% of tenders are rejected by contracted carriers.", ("findings[1].detail",),
     "ok"),
    ("sentence", "Spot coverage costs roughly 6.42% more than contract rates.",
     ("findings[1].detail",), "fails"),
    # a cited multi-word cell with one word swapped for a name found nowhere in the report
    ("substitute", "bill thomas be from the california 21 district", ("districts[0]",), "ok"),
    ("substitute", "bill thomas be from the state 21 district", ("districts[0]",), "ok"),
    ("substitute", "bill thomas be from arizona 21 district", ("districts[0]",), "fails"),
    # another row's multi-word cell, written whole, however common its words
    ("phrase", "robert allenby represent australia", ("players[0]",), "undecided"),
    ("phrase", "robert allenby represent the united state", ("players[0]",), "fails"),
    ("phrase", "tiger woods represent the united states", ("players[1]",), "undecided"),
]  # fmt: skip


@pytest.fixture(scope="module")
def season() -> Report:
    return build_report("season", RELATION_DATA)


@pytest.mark.parametrize(
    ("rule", "text", "evidence", "expected"),
    RELATION_CASES,
    ids=[f"{rule}: {text}" for rule, text, _, _ in RELATION_CASES],
)
def test_relation_rule(
    season: Report, rule: str, text: str, evidence: tuple[str, ...], expected: Outcome
) -> None:
    assert outcome(season, text, *evidence) == expected


# An undecided fact that only restates the one-value fields it cites and names: ``auto``
# posts it without a judge (``ClaimVerdict.restates``). True, then false, per rule.
RESTATED_DATA: dict[str, Any] = {
    "company": {"name": "Acme Widgets, Inc.", "aliases": ["Acme"]},
    "report": {"id": "R-3", "generated_at": "2026-03-09"},
    "metrics": {"return_rate": 0.187, "mobile_share_pct": 71.3},
    "vendors": {"crm": "HubSpot"},
    "policies": {
        "returns": "Returns through Happy Returns are free for 60 days, and 18.7% of orders "
        "come back.",
        "shipping": "Return volumes fell after free return shipping ended in 2025.",
    },
}
RESTATED_CASES = [
    ("a figure, its field named", "About 18.7% of purchases are returned.",
     ("metrics.return_rate",), True),
    ("a figure, its field not named", "About 18.7% are fraudulent.",
     ("metrics.return_rate",), False),
    ("a name written in lower case is the value", "Their crm runs on hubspot cloud.",
     ("vendors.crm",), True),
    ("nothing anchored, no value written", "Their crm runs in the cloud.", ("vendors.crm",),
     False),
    ("a passage, for a figure read from it", "About 18.7% of orders are returned by mail.",
     ("policies.returns",), True),
    ("a passage, with no figure read from it", "Returns go through Happy Returns by mail.",
     ("policies.returns",), False),
    ("a level said to change", "Returns have climbed to 18.7% of purchases.",
     ("metrics.return_rate",), False),
    ("a quantifier is never framing", "About 18.7% of purchases are never returned.",
     ("metrics.return_rate",), False),
    ("more than one word not found", "About 18.7% of purchases by new shoppers are returned.",
     ("metrics.return_rate",), False),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rule", "text", "evidence", "restates"),
    RESTATED_CASES,
    ids=[f"{rule}: {text}" for rule, text, _, _ in RESTATED_CASES],
)
def test_restated_values(rule: str, text: str, evidence: tuple[str, ...], restates: bool) -> None:
    report = build_report("acme-restated", RESTATED_DATA)
    verdict = verify_claim(Claim(text=text, kind="fact", evidence=list(evidence)), report)
    assert verdict.supported and verdict.undecided, verdict.reasons
    assert verdict.restates is restates


# How people frame a figure or a year without adding to it: a hedge before a figure,
# "every" that says how often, "haven't … since" that says a last year, a calendar year, a
# record's title. (rule, text, evidence, outcome, restates). True, then false, per rule.
FRAMING_DATA: dict[str, Any] = {
    "company": {
        "name": "Harbourline Credit Union",
        "aliases": ["Harbourline"],
        "ownership": "Not-for-profit",
        "founded": 1954,
    },
    "report": {
        "id": "R-6",
        "generated_at": "2026-03-09",
        "covering": "FY2025 (calendar year)",
        "period": {"from": "2025-01-01", "to": "2025-12-31"},
    },
    "financials": {"fiscal_year_end": "2025-12-31", "prior_fiscal_year_end": "2024-01-31"},
    "kpis": {
        "last_core_conversion": 2014,
        "core_conversion_year": 2014,
        "loan_application_abandonment_pct": 41.7,
        "unplanned_downtime_hours_per_month": 410,
        "upsell_take_rate": 0.043,
    },
    "findings": [
        {
            "title": "Help centre covers a third of ticket topics",
            "detail": "The article library covers 34 of the 102 ticket tags.",
        }
    ],
    "people": [
        {"name": "Tobias Grell", "comment": "Requires a SOC 2 Type II report."},
        {"name": "Linh Castellano", "comment": "Measured on auto loan volume."},
    ],
}
FRAMING_CASES: list[tuple[str, str, tuple[str, ...], Outcome, bool]] = [
    ("a fiscal year said to be the calendar year", "The audit covers calendar 2025.",
     ("report.covering",), "ok", False),
    ("a fiscal year said to be the calendar year", "The audit covers calendar 2024.",
     ("report.covering",), "fails", False),
    ("a year ending on 31 December is the calendar year",
     "Their fiscal year is the calendar year.", ("financials.fiscal_year_end",), "ok", False),
    ("a year ending on 31 December is the calendar year",
     "Their fiscal year was the calendar year.", ("financials.prior_fiscal_year_end",),
     "undecided", False),
    ("haven't … since a last year", "They haven't done a core conversion since 2014.",
     ("kpis.last_core_conversion",), "ok", False),
    ("haven't … since a last year", "They haven't done a core conversion since 2014.",
     ("kpis.core_conversion_year",), "undecided", False),
    ("a hedge before a figure", "Close to 42% of loan applications are abandoned.",
     ("kpis.loan_application_abandonment_pct",), "ok", False),
    ("a hedge before a figure", "A close 41.7% of loan applications are abandoned.",
     ("kpis.loan_application_abandonment_pct",), "undecided", True),
    ("every month says how often", "Unplanned downtime comes to 410 hours every month.",
     ("kpis.unplanned_downtime_hours_per_month",), "ok", False),
    ("every month says how often", "Every plant loses 410 hours a month to unplanned downtime.",
     ("kpis.unplanned_downtime_hours_per_month",), "undecided", False),
    ("a passage's record title", "The help centre covers 34 of the 102 ticket tags.",
     ("findings[0].detail",), "undecided", True),
    ("a passage's record title", "The help desk covers 34 of the 102 ticket tags.",
     ("findings[0].detail",), "undecided", True),
    ("a value written whole names its field", "It's a not-for-profit group founded in 1954.",
     ("company.ownership", "company.founded"), "undecided", True),
    ("a value written whole names its field", "It's a group founded in 1954.",
     ("company.ownership", "company.founded"), "undecided", False),
    ("a phrasal verb says no change", "Only 4.3% of members take up the upsell.",
     ("kpis.upsell_take_rate",), "undecided", True),
    ("a phrasal verb says no change", "Upsell take-up has climbed to 4.3% of members.",
     ("kpis.upsell_take_rate",), "undecided", False),
    ("two records joined are more than a restatement",
     "Tobias Grell insists on a SOC 2 Type II report.", ("people[0].name", "people[0].comment"),
     "undecided", True),
    ("two records joined are more than a restatement",
     "Linh Castellano insists on a SOC 2 Type II report.",
     ("people[1].name", "people[0].comment"), "undecided", False),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rule", "text", "evidence", "expected", "restates"),
    FRAMING_CASES,
    ids=[f"{rule}: {text} {evidence}" for rule, text, evidence, _, _ in FRAMING_CASES],
)
def test_framing(
    rule: str, text: str, evidence: tuple[str, ...], expected: Outcome, restates: bool
) -> None:
    report = build_report("harbourline", FRAMING_DATA)
    assert outcome(report, text, *evidence) == expected
    verdict = verify_claim(Claim(text=text, kind="fact", evidence=list(evidence)), report)
    assert verdict.restates is restates


def test_the_record_title_finds_a_passage_s_wording() -> None:
    """Without its title the finding's detail says nothing of a help centre."""
    data = {**FRAMING_DATA, "findings": [{"detail": FRAMING_DATA["findings"][0]["detail"]}]}
    claim = Claim(text="The help centre covers 34 of the 102 ticket tags.", kind="fact",
                  evidence=["findings[0].detail"])  # fmt: skip
    titled = verify_claim(claim, build_report("harbourline", FRAMING_DATA))
    untitled = verify_claim(claim, build_report("harbourline", data))
    assert titled.restates and not untitled.restates  # "help centre": two words unfound


# Who or where a figure is of, how close a bound is, and totals over a list. True, then
# false, per rule.
SCOPE_DATA: dict[str, Any] = {
    "company": {
        "name": "Kessling Precision",
        "aliases": ["Kessling"],
        "plants": [
            {"site": "Tuttlingen", "cnc_machines": 146},
            {"site": "Brno", "cnc_machines": 88},
            {"site": "Greenville", "cnc_machines": 31},
        ],
    },
    "report": {"id": "R-7", "generated_at": "2026-03-09"},
    "kpis": {
        "avg_speed_of_answer_seconds": 212,
        "active_shippers": 3140,
        "net_revenue_usd": 4100000,
        "gross_revenue_usd": 4500000,
        "loan_growth_pct": -2.3,
        "deposit_growth_pct": 4.1,
    },
    "findings": [
        {"detail": "Supplier on-time delivery is 88.9% across the group but 81% at Brno."},
        {"detail": "Members wait 212 seconds on average for an answer."},
        {"detail": "Account opening takes 23 minutes on average."},
    ],
}
SCOPE_CASES: list[tuple[str, str, tuple[str, ...], Outcome]] = [
    ("a passage's figure keeps the name next to it",
     "Supplier on-time delivery is 81% at Brno.", ("findings[0].detail",), "ok"),
    ("a passage's figure keeps the name next to it",
     "Supplier on-time delivery is 81% across the group.", ("findings[0].detail",),
     "undecided"),
    ("a close bound is close", "Just over 3,100 shippers are active.",
     ("kpis.active_shippers",), "ok"),
    ("a close bound is close", "Just over 2,500 shippers are active.",
     ("kpis.active_shippers",), "fails"),
    ("a plural noun is who is counted, not a qualifier", "Revenue from members was $4.1M.",
     ("kpis.net_revenue_usd",), "undecided"),
    ("a plural noun is who is counted, not a qualifier", "Membership revenue was $4.1M.",
     ("kpis.net_revenue_usd",), "fails"),
    ("went backwards", "Loans went backwards by a little over two percent.",
     ("kpis.loan_growth_pct", "kpis.deposit_growth_pct"), "ok"),
    ("went backwards", "Deposits went backwards by 4.1%.", ("kpis.deposit_growth_pct",),
     "fails"),
    ("a total over a list's items", "Across the three plants they run 265 CNC machines.",
     ("company.plants",), "ok"),
    ("a total over a list's items", "Tuttlingen runs 265 CNC machines.", ("company.plants",),
     "fails"),
    ("a number word with a time unit", "An answer takes just over three minutes.",
     ("kpis.avg_speed_of_answer_seconds",), "ok"),
    ("a number word with a time unit", "An answer takes just over four minutes.",
     ("kpis.avg_speed_of_answer_seconds",), "fails"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rule", "text", "evidence", "expected"),
    SCOPE_CASES,
    ids=[f"{rule}: {text}" for rule, text, _, _ in SCOPE_CASES],
)
def test_scope(rule: str, text: str, evidence: tuple[str, ...], expected: Outcome) -> None:
    assert outcome(build_report("kessling", SCOPE_DATA), text, *evidence) == expected


# Units and scales a key carries, lists cited item by item, and what a share is of.
# True, then false, per rule.
UNITS_DATA: dict[str, Any] = {
    "company": {
        "name": "Harbourline Group",
        "aliases": ["Harbourline"],
        "properties": 14,
        "plants": [{"site": "Tuttlingen"}, {"site": "Brno"}, {"site": "Greenville"}],
    },
    "report": {"id": "R-8", "generated_at": "2026-03-09"},
    "kpis": {
        "card_fraud_loss_bps": 9.8,
        "online_account_opening_completion": 0.312,
        "last_app_release": "2026-02-27",
        "auto_loan_decision_time_hours": 26.5,
        "member_attrition_rate": 0.071,
    },
    "money": {"agency_staff_cost_gbp_thousands": 4380},
    "channel_mix": {"groups": 9.1, "direct": 38.5},
    "risks": [
        {
            "rating": "high",
            "description": "Members under 35 are 21.8% of the base but 46% of closed accounts.",
        }
    ],
}
PLANTS = ("company.plants[0].site", "company.plants[1].site", "company.plants[2].site")
UNITS_CASES: list[tuple[str, str, tuple[str, ...], Outcome]] = [
    ("basis points", "Card fraud is costing them 9.8 bps.", ("kpis.card_fraud_loss_bps",),
     "undecided"),
    ("basis points", "Card fraud losses run at 9.8% of card volume.",
     ("kpis.card_fraud_loss_bps",), "fails"),
    ("money in thousands", "Agency staff cost them £4.38 million.",
     ("money.agency_staff_cost_gbp_thousands",), "ok"),
    ("money in thousands", "Agency staff cost them £4,380.",
     ("money.agency_staff_cost_gbp_thousands",), "fails"),
    ("a list cited item by item is counted",
     "They run three plants: Tuttlingen, Brno and Greenville.", PLANTS, "ok"),
    ("a list cited item by item is counted",
     "They run four plants: Tuttlingen, Brno and Greenville.", PLANTS, "fails"),
    ("tens and a half", "An auto loan decision takes twenty-six and a half hours.",
     ("kpis.auto_loan_decision_time_hours",), "ok"),
    ("tens and a half", "An auto loan decision takes twenty-seven and a half hours.",
     ("kpis.auto_loan_decision_time_hours",), "fails"),
    ("what is left is a complement",
     "That leaves close to 69% of online account applications unfinished.",
     ("kpis.online_account_opening_completion",), "undecided"),
    ("what is left is a complement",
     "That leaves close to 72% of online account applications unfinished.",
     ("kpis.online_account_opening_completion",), "fails"),
    ("the group is the prospect", "The group has fourteen properties.",
     ("company.properties",), "ok"),
    ("the group is the prospect", "The group has fifteen properties.",
     ("company.properties",), "fails"),
    ("a share's noun names its measure", "Roughly one member in fourteen leaves each year.",
     ("kpis.member_attrition_rate",), "undecided"),
    ("a share's noun names its measure", "Roughly one member in four leaves each year.",
     ("kpis.member_attrition_rate",), "fails"),
    ("a share of another base", "Members under 35 make up 46% of closed accounts.",
     ("risks[0].description",), "ok"),
    ("a share of another base", "Members under 35 make up 46% of the membership.",
     ("risks[0].description",), "undecided"),
    ("most recent is last", "The most recent app release shipped in late February 2026.",
     ("kpis.last_app_release",), "undecided"),
    ("most recent is last", "The most recent app release shipped in late March 2026.",
     ("kpis.last_app_release",), "fails"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rule", "text", "evidence", "expected"),
    UNITS_CASES,
    ids=[f"{rule}: {text}" for rule, text, _, _ in UNITS_CASES],
)
def test_units_lists_and_bases(
    rule: str, text: str, evidence: tuple[str, ...], expected: Outcome
) -> None:
    assert outcome(build_report("harbourline", UNITS_DATA), text, *evidence) == expected


@pytest.mark.parametrize(
    ("text", "evidence"),
    [("The most recent app release shipped in late February 2026.", "kpis.last_app_release"),
     ("Roughly one member in fourteen leaves each year.", "kpis.member_attrition_rate")],
)  # fmt: skip
def test_framed_figures_restate_their_field(text: str, evidence: str) -> None:
    """``most recent`` names ``last_…``; a share's noun names its measure: each leaves one
    framing word at most, so ``auto`` needs no judge."""
    claim = Claim(text=text, kind="fact", evidence=[evidence])
    verdict = verify_claim(claim, build_report("harbourline", UNITS_DATA))
    assert verdict.undecided and verdict.restates, verdict.reasons


# Found by a fourth outside probe. (rule, text, evidence, kind, outcome); true, then false.
PROBE_DATA: dict[str, Any] = {
    "company": {"name": "Kestrelpoint Software", "aliases": ["Kestrelpoint"]},
    "report": {"id": "R-9", "generated_at": "2026-03-09", "period": "2025-01-01 to 2025-12-31"},
    "metrics": {"portal_activation_pct": 52.3, "customers": 1874},
    "financials": {"net_revenue_retention_pct": 108.5},
    "vendors": {"crm": "Salesforce Sales Cloud", "email": "Marketo Engage"},
    "stakeholders": [
        {"name": "Elena Voskresenskaya", "notes": "Signs off any spend above $50,000."}
    ],
    "findings": [
        {
            "severity": "critical",
            "detail": "Only 8.91% of free trials convert, and 63% of trial accounts never "
            "connect a bank feed.",
        },
        {
            "severity": "high",
            "detail": "HubSpot holds wholesale contacts while Klaviyo holds web shoppers; about "
            "310,000 customers exist in both with no shared ID.",
        },
        {"severity": "low", "detail": "Marketo Engage tracks 11 lifecycle stages."},
    ],
}
FINDINGS = ("findings[0].severity", "findings[1].severity", "findings[2].severity")
ELENA = ("stakeholders[0].name", "stakeholders[0].notes")
PROBE_CASES: list[tuple[str, str, tuple[str, ...], str, Outcome]] = [
    ("shy of is below", "Portal activation is just shy of 53%.",
     ("metrics.portal_activation_pct",), "fact", "ok"),
    ("shy of is below", "Portal activation is just shy of 52%.",
     ("metrics.portal_activation_pct",), "fact", "fails"),
    ("one of the three counts the part", "Only one of the three findings is rated critical.",
     FINDINGS, "fact", "undecided"),
    ("one of the three counts the part", "Only two of the three findings are rated critical.",
     FINDINGS, "fact", "fails"),
    ("a hedged number in words", "They have nearly nineteen hundred customers.",
     ("metrics.customers",), "fact", "ok"),
    ("a hedged number in words", "They have nearly eighteen hundred customers.",
     ("metrics.customers",), "fact", "fails"),
    ("measures that exclude each other", "Net revenue retention is 108.5%.",
     ("financials.net_revenue_retention_pct",), "fact", "ok"),
    ("measures that exclude each other", "Gross revenue retention is 108.5%.",
     ("financials.net_revenue_retention_pct",), "fact", "fails"),
    ("a share's base keeps its words", "63% of trial accounts never connect a bank feed.",
     ("findings[0].detail",), "fact", "ok"),
    ("a share's base keeps its words", "63% of their customers never connect a bank feed.",
     ("findings[0].detail",), "fact", "undecided"),
    ("a period said whole is the range whole", "The audit period began in 2025.",
     ("report.period",), "fact", "ok"),
    ("a period said whole is the range whole", "The audit covers the first half of 2025.",
     ("report.period",), "fact", "fails"),
    ("a word of the report's prose is no name", "Lifecycle email goes through marketo.",
     ("vendors.email",), "fact", "undecided"),
    ("a word of the report's prose is no name", "Lifecycle email goes through mailchimp.",
     ("vendors.email",), "fact", "fails"),
    ("advice names a threshold",
     "Keep the first phase under $50,000, or plan for Elena Voskresenskaya's sign-off.",
     ELENA, "coaching", "undecided"),
    ("advice names a threshold",
     "Keep the first phase under $40,000, or plan for Elena Voskresenskaya's sign-off.",
     ELENA, "coaching", "fails"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rule", "text", "evidence", "kind", "expected"),
    PROBE_CASES,
    ids=[f"{rule}: {text}" for rule, text, _, _, _ in PROBE_CASES],
)
def test_probe_rules(
    rule: str, text: str, evidence: tuple[str, ...], kind: str, expected: Outcome
) -> None:
    assert outcome(build_report("kestrelpoint", PROBE_DATA), text, *evidence, kind=kind) == expected


def test_a_passage_figure_said_in_none_of_its_sentence_s_words_is_no_restatement() -> None:
    """``HubSpot holds about 310,000 contacts`` takes the overlap of two systems for one's
    total: its words are in another sentence of the finding, so ``auto`` asks the judge."""
    report = build_report("kestrelpoint", PROBE_DATA)
    said = "About 310,000 customers sit in both HubSpot and Klaviyo with no shared ID."
    assert outcome(report, said, "findings[1].detail") == "ok"
    claim = Claim(text="HubSpot holds about 310,000 contacts.", kind="fact",
                  evidence=["findings[1].detail"])  # fmt: skip
    verdict = verify_claim(claim, report)
    assert verdict.undecided and not verdict.restates


def test_a_passage_that_says_the_figure_in_the_claim_s_words_is_no_rival() -> None:
    """``Members`` also names the finding that says members wait 212 seconds. Said in the
    finding's words (``wait``), the claim restates it: a second source of the cited figure.
    Said otherwise (``queue``), the finding is another field the figure could be of (its
    23 minutes is far from ``just over`` three and a half, so it is neither)."""
    report = build_report("kessling", SCOPE_DATA)
    cited = "kpis.avg_speed_of_answer_seconds"
    text = "Members wait just over three and a half minutes."
    assert outcome(report, text, cited) == "undecided"
    assert outcome(report, text.replace("wait", "queue"), cited) == "fails"


@pytest.mark.parametrize(
    ("text", "signs"),
    [("loans dropped to", {"dropped": -1}), ("applicants drop out before", {}),
     ("guests take up", {}), ("revenue grew and costs fell", {"grew": 1, "fell": -1})],
)  # fmt: skip
def test_directions_are_read_by_position(text: str, signs: dict[str, int]) -> None:
    tokens = words(text)
    assert {tokens[i]: sign for i, sign in directions(tokens).items()} == signs


def test_a_direction_word_its_cited_passage_says_too_is_no_doubt() -> None:
    report = build_report("acme-restated", RESTATED_DATA)
    text = "Return volumes fell after free return shipping ended in 2025."
    said = Claim(text=text, kind="fact", evidence=["policies.shipping"])
    level = Claim(text="Returns fell to 18.7%.", kind="fact", evidence=["metrics.return_rate"])
    assert not verify_claim(said, report).undecided
    assert verify_claim(level, report).undecided


# Numbers as people say them, and what a passage or a key's own words say. True, then false.
SPOKEN_DATA: dict[str, Any] = {
    "company": {"name": "Kessling Precision", "aliases": ["Kessling"]},
    "report": {"id": "R-4", "generated_at": "2026-03-09"},
    "kpis": {
        "active_customers": 212,
        "monthly_sessions": 254000,
        "avg_speed_of_answer_seconds": 212,
        "repeat_purchase_rate": 0.312,
        "changeover_minutes_median": 94,
    },
    "financials": {"rule_of_40": 28.1},
    "performance": {"occupancy": 0.742},
    "scores": {"max": 100, "customer_experience": 41, "quality": 77},
    "findings": [
        {"detail": "Shoppers who hit a dead end leave 38.2% of the time; 11.4% of searches fail."}
    ],
}
SPOKEN_CASES = [
    ("a plain value below 1 is a fraction", "Occupancy is 74.2%.", ("performance.occupancy",),
     "ok"),
    ("a plain value below 1 is a fraction", "Occupancy is 0.742%.", ("performance.occupancy",),
     "fails"),
    ("number words with hundreds", "They have two hundred and twelve active customers.",
     ("kpis.active_customers",), "ok"),
    ("number words with hundreds", "They have two hundred and twenty active customers.",
     ("kpis.active_customers",), "fails"),
    ("part of a scale", "The site gets about a quarter of a million sessions a month.",
     ("kpis.monthly_sessions",), "supported"),
    ("part of a scale", "The site gets about a third of a million sessions a month.",
     ("kpis.monthly_sessions",), "fails"),
    ("and a half, to the half", "Calls are answered in about three and a half minutes.",
     ("kpis.avg_speed_of_answer_seconds",), "supported"),
    ("and a half, to the half", "Calls are answered in about four and a half minutes.",
     ("kpis.avg_speed_of_answer_seconds",), "fails"),
    ("hours and minutes", "Calls are answered in three minutes and 32 seconds.",
     ("kpis.avg_speed_of_answer_seconds",), "supported"),
    ("hours and minutes", "Calls are answered in three minutes and 52 seconds.",
     ("kpis.avg_speed_of_answer_seconds",), "fails"),
    ("hours and minutes", "The median changeover takes an hour and thirty-four minutes.",
     ("kpis.changeover_minutes_median",), "supported"),
    ("hours and minutes", "The median changeover takes an hour and forty-four minutes.",
     ("kpis.changeover_minutes_median",), "fails"),
    ("a cited key written whole", "Their Rule of 40 score is just over 28.",
     ("financials.rule_of_40",), "supported"),
    ("a cited key written whole", "Their quality score is just over 28.",
     ("financials.rule_of_40",), "fails"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rule", "text", "evidence", "expected"),
    SPOKEN_CASES,
    ids=[f"{rule}: {text}" for rule, text, _, _ in SPOKEN_CASES],
)
def test_spoken(rule: str, text: str, evidence: tuple[str, ...], expected: str) -> None:
    got = outcome(build_report("kessling", SPOKEN_DATA), text, *evidence)
    assert agrees(got, expected), got


@pytest.mark.parametrize(("passage", "expected"), [("11.4%", "supported"), ("31.2%", "fails")])
def test_a_passage_is_a_rival_field_only_for_a_figure_it_states(
    passage: str, expected: str
) -> None:
    """``customers`` names the finding (shoppers), not the cited rate; the finding can be
    the figure's real source only when it states the figure."""
    data = {
        "company": {"name": "Northwind Outfitters", "aliases": []},
        "report": {"id": "R-5", "generated_at": "2026-03-09"},
        "metrics": {"repeat_purchase_rate": 0.312, "cart_abandonment_pct": 74.8},
        "findings": [{"detail": f"Shoppers who hit a dead end leave {passage} of the time."}],
    }
    text = "Nearly a third of their customers come back to buy again."
    got = outcome(build_report("northwind", data), text, "metrics.repeat_purchase_rate")
    assert agrees(got, expected), got


def test_a_title_written_in_capitals_is_still_a_role() -> None:
    """``Managing Director`` reads as a name, but it is a role another record holds."""
    team = [
        {"name": "Friederike Kessling", "title": "Managing Director",
         "remarks": "Approves any investment above EUR 250,000."},
        {"name": "Jonas Albrecht", "title": "Head of Operational Excellence"},
    ]  # fmt: skip
    data = {**SPOKEN_DATA, "team": team}
    text = "Jonas Albrecht, the Managing Director, approves any investment above €250,000."
    evidence = ("team[0].title", "team[0].remarks", "team[1].name")
    assert outcome(build_report("kessling", data), text, *evidence) == "fails"
