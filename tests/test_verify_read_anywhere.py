"""Reports in styles no sample uses, read by rule (session 13's held-out misses): numbers
written with a decimal comma, superlatives ranked among a collection's named members,
the name of the record a cited field belongs to, a loss said in words, a half written
``H2/2027``, and a passage's figure bound to the period written after it."""

from __future__ import annotations

from typing import Any

import pytest

from prism_slack.claims import Claim
from prism_slack.reports import numbers_style
from prism_slack.reports.model import Report, build_report
from prism_slack.testing.verify_cases import Expected, meets, outcome
from prism_slack.verify import verify_claim

ENVELOPE: dict[str, Any] = {
    "company": {"name": "Voss Kältetechnik", "aliases": ["Voss"]},
    "report": {"id": "R-31", "generated_at": "2026-02-01"},
}
COMMA: dict[str, Any] = {
    **ENVELOPE,
    "Kennzahlen": {
        "Revenue 2025": "84,6 Mio. EUR",
        "Revenue 2024": "79,2 Mio. EUR",
        "EBIT margin 2025": "6,4 %",
        "Net result cooling segment 2025": "(1,8) Mio. EUR",
        "Service contracts": "3.412",
        "Repeat visit rate": "0,118",
        "Mean time to site": "1 Std. 12 Min.",
        "Budget review": "1. Apr. 2026",
        "ERP go-live": "H2/2027",
    },
}
POINT: dict[str, Any] = {**ENVELOPE, "kpis": {"revenue": "$84.6M", "growth": "4.8%", "x": "1,250"}}


@pytest.mark.parametrize(
    ("data", "comma"),
    [
        (COMMA, True),
        (POINT, False),
        ({**POINT, "meta": {"Locale": "de-AT"}}, True),  # declared, whatever the values
        ({**COMMA, "meta": {"Number format": "en-GB"}}, False),
        ({**ENVELOPE, "x": {"a": "1,5", "b": "2,5"}}, False),  # too little to tell
    ],
)
def test_a_report_s_number_style_is_read_from_where_it_states_it(
    data: dict[str, Any], comma: bool
) -> None:
    assert numbers_style.decimal_comma(data) is comma


@pytest.mark.parametrize(
    ("written", "english"),
    [
        ("248,3 Mio. EUR", "248.3 million EUR"),
        ("14.820", "14,820"),
        ("1.234.567,89", "1,234,567.89"),
        ("0,052", "0.052"),
        ("(3,1) Mio. EUR", "-3.1 million EUR"),
        ("68 Tage", "68 days"),
        ("11. März 2026", "11 March 2026"),
        ("31.12.2025", "31.12.2025"),  # a date, not a number
        ("SAP ECC 6.0", "SAP ECC 6.0"),
        ("Linz (1962)", "Linz (1962)"),
    ],
)
def test_a_decimal_comma_value_is_read_the_english_way(written: str, english: str) -> None:
    assert numbers_style.english(written) == english


@pytest.fixture(scope="module")
def comma() -> Report:
    return build_report("voss", COMMA)


def test_a_decimal_comma_report_keeps_its_raw_digest_and_types_its_values(comma: Report) -> None:
    assert comma.decimal_comma
    assert comma.digest == build_report("voss", dict(COMMA)).digest
    shown = {p: f.display for p, f in comma.facts.by_path.items() if p.startswith("Kennzahlen")}
    assert shown['Kennzahlen["Revenue 2025"]'] == "€84.6M"
    assert shown['Kennzahlen["Service contracts"]'] == "3,412"


CASES: list[tuple[str, tuple[str, ...], Expected]] = [
    ("Revenue was €84.6m in 2025.", ('Kennzahlen["Revenue 2025"]',), "supported"),
    ("Revenue was €846m in 2025.", ('Kennzahlen["Revenue 2025"]',), "fails"),
    ("They hold 3,412 service contracts.", ('Kennzahlen["Service contracts"]',), "supported"),
    ("The EBIT margin was 6.4%.", ('Kennzahlen["EBIT margin 2025"]',), "supported"),
    ("The cooling segment lost €1.8m.", ('Kennzahlen["Net result cooling segment 2025"]',),
     "supported"),
    ("It takes 1 hour 12 minutes to reach a site.", ('Kennzahlen["Mean time to site"]',),
     "supported"),
    ("The budget review is on 1 April 2026.", ('Kennzahlen["Budget review"]',), "supported"),
    ("The ERP goes live in the second half of 2027.", ('Kennzahlen["ERP go-live"]',),
     "supported"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "paths", "expected"), CASES)
def test_a_decimal_comma_report_s_figures_are_checked_as_written(
    comma: Report, text: str, paths: tuple[str, ...], expected: Expected
) -> None:
    assert meets(outcome(comma, text, paths), expected)


NAMED: Report = build_report(
    "named",
    {
        **ENVELOPE,
        "maturity": {
            "columns": ["area", "score"],
            "rows": [["Dispatch", 2], ["Spare parts", 1.5], ["Portal", 3], ["Safety", 4]],
            "scale": {"min": 0, "max": 5},
        },
        "segments": {
            "cooling": {"net-revenue": 41.2, "ebit-margin": 0.071},
            "heating": {"net-revenue": 29.8, "ebit-margin": 0.094},
            "service": {"net-revenue": 13.6, "ebit-margin": 0.032},
        },
        "meta": {"currency": "EUR", "scale": "millions", "rates": "fractions"},
        "grades": {
            "scaleMax": 5,
            "scaleNote": "school grades: 1 = very good (best) … 5 = poor (worst); lower is better",
            "Dispatch": 4,
            "Portal": 3,
            "Safety": 1,
            "Monitoring": 5,
        },
        "tie": {
            "columns": ["area", "score"],
            "rows": [["Alpha", 1], ["Beta", 1], ["Gamma", 3]],
            "scale": {"min": 0, "max": 5},
        },
        "people": [
            {"name": "Ilse Brandner", "notes": "Signs any spend above €150k."},
            {"name": "Georg Pichler", "notes": "Runs the depots."},
        ],
        "results": {"body": "Revenue was £38.6m in FY2025, up from £35.1m in FY2024."},
    },
)

RANKS: list[tuple[str, tuple[str, ...], Expected]] = [
    (
        "Spare parts is their weakest area, at 1.5 out of 5.",
        ("maturity.rows", "maturity.scale"),
        "supported",
    ),
    ("Portal is their weakest area.", ("maturity.rows",), "fails"),
    ("Cooling is the biggest segment.", ("segments",), "supported"),
    ("Heating is the biggest segment.", ("segments",), "fails"),
    ("Service earns the thinnest margin.", ("segments",), "supported"),
    ("Heating earns the thinnest margin.", ("segments",), "fails"),
    ("Safety is their best-graded area.", ("grades",), "supported"),  # 1 is best here
    ("Monitoring is their best-graded area.", ("grades",), "fails"),
    ("Alpha is their weakest area.", ("tie.rows",), "supported"),  # a tie decides nothing
]


@pytest.mark.parametrize(("text", "paths", "expected"), RANKS)
def test_a_superlative_is_ranked_among_the_members_the_claim_names(
    text: str, paths: tuple[str, ...], expected: Expected
) -> None:
    assert meets(outcome(NAMED, text, paths), expected)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Ilse Brandner signs any spend above €150k.", "supported"),
        ("Georg Pichler signs any spend above €150k.", "fails"),
    ],
)
def test_the_name_of_a_cited_field_s_record_is_cited(text: str, expected: Expected) -> None:
    assert meets(outcome(NAMED, text, ("people[0].notes",)), expected)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("Revenue was £38.6m in FY2025.", "ok"), ("Revenue was £38.6m in FY2024.", "undecided")],
)
def test_a_passage_s_figure_is_of_the_period_written_after_it(
    text: str, expected: Expected
) -> None:
    assert meets(outcome(NAMED, text, ("results.body",)), expected)


PROSE: Report = build_report(
    "prose",
    {
        **ENVELOPE,
        "summary": {
            "body": "EBITDA was £21.8m, a margin of 15.7%. Adjusted EBITDA, which adds back "
            "acquisition costs, was £24.1m."
        },
        "results": {
            "body": "Revenue was £138.6m in FY2025, up from £127.9m in FY2024. Like-for-like "
            "revenue grew 3.1%."
        },
        "rivals": [{"name": "Liftco", "notes": "Won 3 Voss contracts in Graz in 2025."}],
        "systems": {"CRM": "none — contracts tracked in SAP SD and Excel"},
        "kpis": [{"metric": "ebitda_margin_change", "value": -80, "uom": "BPS"}],
        "uom_codes": {"BPS": "basis points", "SCORE_0_5": "score from 0 (absent) to 5 (leading)"},
        "assessments": [
            {"area": "Disruption handling", "score": 1.5, "uom": "SCORE_0_5"},
            {"area": "Crew planning", "score": 3.0, "uom": "SCORE_0_5"},
        ],
    },
)


@pytest.mark.parametrize(
    ("text", "paths", "expected"),
    [
        # a relative clause between a passage's subject and its figure
        ("Adjusted EBITDA was £24.1m.", ("summary.body",), "supported"),
        # a qualifier the passage gives its figure, dropped or added
        ("EBITDA was £24.1m.", ("summary.body",), "undecided"),
        ("Adjusted EBITDA was £21.8m.", ("summary.body",), "undecided"),
        # a figure reckoned from the group's revenue, said of like-for-like revenue
        ("Like-for-like revenue grew 8.4%.", ("results.body",), "undecided"),
        # who won from whom: a verb that sets one party against another is judged
        ("Liftco lost three contracts to Voss in Graz.", ("rivals[0].notes",), "undecided"),
        # a value that opens by saying there is none
        ("They have no CRM.", ("systems.CRM",), "supported"),
        # a direction verb is no word substituted for the key's "change"
        ("EBITDA margin slipped 80 basis points.", ("kpis[0]",), "supported"),
        # a cited text that gives the scale
        ("Disruption handling scores 1.5 out of 5.", ("assessments[0]", "uom_codes.SCORE_0_5"),
         "supported"),
        ("Disruption handling scores 1.5 out of 5.", ("assessments[0]",), "fails"),
    ],
)  # fmt: skip
def test_a_value_is_read_as_a_person_reads_it(
    text: str, paths: tuple[str, ...], expected: Expected
) -> None:
    assert meets(outcome(PROSE, text, paths), expected)


def test_who_won_from_whom_is_never_posted_as_a_restatement() -> None:
    claim = Claim(
        text="Liftco lost three contracts to Voss in Graz.", kind="fact",
        evidence=["rivals[0].notes"],
    )  # fmt: skip
    verdict = verify_claim(claim, PROSE)
    assert verdict.undecided and not verdict.restates, verdict
