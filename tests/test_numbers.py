"""The number grammar (``verify.numbers``) and quantity matching (``verify.anchors``).

Unit tables for each rule of the grammar, then hypothesis properties:

- any number written in any supported format parses back to exactly its value;
- a claim that renders a report value exactly is warranted, and any perturbation of it —
  one digit changed, the scale word changed, the sign or direction flipped — is not.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from num2words import num2words

from prism_slack.claims import Claim
from prism_slack.reports.model import build_report
from prism_slack.verify import verify_claim
from prism_slack.verify.anchors import matches
from prism_slack.verify.fields import field_hints, leaf_quantities, path_periods
from prism_slack.verify.numbers import (
    DatePoint,
    Period,
    QKind,
    Quantity,
    extract_quantities,
    scan,
)
from prism_slack.verify.quantity import UNITS
from prism_slack.verify.spoken import record_key

D = Decimal


def only(text: str) -> Quantity:
    found = extract_quantities(text)
    assert len(found) == 1, [q.text for q in found]
    return found[0]


# --- numbers -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "value", "tolerance"),
    [
        ("1,234,567", QKind.NUMBER, D(1234567), D("0.5")),
        ("1234.5", QKind.NUMBER, D("1234.5"), D("0.05")),
        (".5", QKind.NUMBER, D("0.5"), D("0.05")),
        ("3.7%", QKind.PERCENT, D("3.7"), D("0.05")),
        ("3.7 percent", QKind.PERCENT, D("3.7"), D("0.05")),
        ("3.7 per cent", QKind.PERCENT, D("3.7"), D("0.05")),
        ("3.7 percentage points", QKind.PERCENT, D("3.7"), D("0.05")),
        ("25 bps", QKind.PERCENT, D("0.25"), D("0.005")),
        ("$4.1M", QKind.CURRENCY, D(4100000), D(50000)),
        ("$4.1 million", QKind.CURRENCY, D(4100000), D(50000)),
        ("US$4.1mn", QKind.CURRENCY, D(4100000), D(50000)),
        ("$4.1m", QKind.CURRENCY, D(4100000), D(50000)),
        ("USD 61.2 million", QKind.CURRENCY, D(61200000), D(50000)),
        ("2.4 million USD", QKind.CURRENCY, D(2400000), D(50000)),
        ("87.40 USD", QKind.CURRENCY, D("87.40"), D("0.005")),
        ("4 million dollars", QKind.CURRENCY, D(4000000), D(500000)),
        ("$1.8B", QKind.CURRENCY, D(1800000000), D(50000000)),
        ("$1.8bn", QKind.CURRENCY, D(1800000000), D(50000000)),
        ("1.8 billion", QKind.NUMBER, D(1800000000), D(50000000)),
        ("$50K", QKind.CURRENCY, D(50000), D(500)),
        ("12k", QKind.NUMBER, D(12000), D(500)),
        ("€3.2M", QKind.CURRENCY, D(3200000), D(50000)),
        ("£75", QKind.CURRENCY, D(75), D("0.5")),
        ("$2T", QKind.CURRENCY, D(2) * 10**12, D(5) * 10**11),
        # thousands set apart by a space (plain, thin or no-break)
        ("7 480", QKind.NUMBER, D(7480), D("0.5")),
        ("1\u202f318\u202f000", QKind.NUMBER, D(1318000), D("0.5")),
        ("NZD 24 950", QKind.CURRENCY, D(24950), D("0.5")),
    ],
)
def test_number_forms(text: str, kind: QKind, value: Decimal, tolerance: Decimal) -> None:
    q = only(f"It was {text} last year.")
    assert (q.kind, q.value, q.tolerance) == (kind, value, tolerance)


@pytest.mark.parametrize(
    ("text", "currency"),
    [("$5", "USD"), ("5 USD", "USD"), ("5 dollars", "USD"), ("€5", "EUR"), ("5 euros", "EUR"),
     ("£5", "GBP"), ("GBP 5", "GBP")],
)  # fmt: skip
def test_currency_codes(text: str, currency: str) -> None:
    assert only(text).currency == currency


@pytest.mark.parametrize(
    ("text", "unit", "value"),
    [("2.9 s", "s", D("2.9")), ("2.9s", "s", D("2.9")), ("640 ms", "ms", D(640)),
     ("4.2 min", "min", D("4.2")), ("3.4 h", "h", D("3.4")), ("41 days", "days", D(41)),
     ("a 60-day window", "day", D(60)), ("19.2 months", "months", D("19.2")),
     ("3x", "x", D(3)), ("12 GB", "gb", D(12)), ("a three-year deal", "year", D(3))],
)  # fmt: skip
def test_units(text: str, unit: str, value: Decimal) -> None:
    q = only(text)
    assert (q.kind, q.unit, q.value) == (QKind.NUMBER, unit, value)


@pytest.mark.parametrize("text", ["ABN 37 002 755 599", "ACN 002 755 599", "in 2025 140 stores"])
def test_digit_groups_of_an_identifier_or_a_list_are_no_spaced_thousands(text: str) -> None:
    assert all(" " not in q.text for q in scan(text, report_text=True).quantities)


def test_a_bare_amount_later_in_a_sentence_is_in_its_currency() -> None:
    found = scan("It fell to NZD 6.1m in FY2025, from 7.4m.").quantities
    assert [(q.kind, q.currency) for q in found if q.text == "7.4m"] == [(QKind.CURRENCY, "NZD")]
    users = scan("$5m and 3m users").quantities  # a noun says what it counts
    assert [q.kind for q in users] == [QKind.CURRENCY, QKind.NUMBER]


def test_a_range_said_in_words_is_two_numbers_not_an_identifier() -> None:
    found = scan("at 2 on a 1-to-7 scale")
    assert not found.identifiers and [q.text for q in found.quantities] == ["2", "1", "7"]


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [("a day and a half", D("1.5"), "day"), ("a year and a half", D("1.5"), "year"),
     ("three quarters of an hour", D("0.75"), "hour"), ("half a year", D("0.5"), "year"),
     ("a quarter of an hour", D("0.25"), "hour"), ("2h 10m", D(130), "minutes")],
)  # fmt: skip
def test_parts_of_a_unit_said_in_words(text: str, value: Decimal, unit: str) -> None:
    q = only(f"It takes {text} to arrive.")
    assert (q.value, q.unit) == (value, unit)


def test_months_and_years_convert_to_days_at_their_average_length() -> None:
    seven_months = only("roughly seven months")
    assert seven_months.unit == "months"
    assert UNITS["months"][0] == UNITS["days"][0] == "time"


@pytest.mark.parametrize(
    ("text", "year", "month"), [("as of 03/2026", 2026, 3), ("since Oct-21", 2021, 10)]
)
def test_a_month_and_its_year_as_tables_write_them(text: str, year: int, month: int) -> None:
    q = only(text)
    assert q.kind is QKind.DATE and q.dates == (DatePoint(year, month),)


def test_a_part_of_a_year_holds_the_quarter_inside_it() -> None:
    data = {
        "company": {"name": "A", "aliases": []},
        "report": {"id": "r", "generated_at": "2026-01-01"},
        "timeline": {"cutover": "Q4 2024"},
    }
    claim = Claim(text="Cutover was in late 2024.", kind="fact", evidence=["timeline.cutover"])
    late = verify_claim(claim, build_report("r", data))
    assert not any(r.rule == "fail.beyond_checks" for r in late.undecided_reasons)
    assert late.supported


def test_units_with_a_word_between_keep_their_unit() -> None:
    assert only("4.5 working days").unit == "days"


def test_lower_case_scale_letters_need_a_currency() -> None:
    assert only("5 m").value == 5
    assert only("$5 m").value == 5_000_000
    assert only("7 b").value == 7


@pytest.mark.parametrize(
    ("text", "value", "direction"),
    [
        ("Revenue fell 5%.", D(5), "down"),
        ("Revenue declined by 5%.", D(5), "down"),
        ("Revenue was down 5%.", D(5), "down"),
        ("a 5% decline", D(5), "down"),
        ("negative growth of 5%", D(5), "down"),
        ("Revenue grew 5%.", D(5), "up"),
        ("Revenue is up 5% on the year.", D(5), "up"),
        ("Growth was -5%.", D(-5), None),
        ("Growth was −5%.", D(-5), None),
        ("Growth was +5%.", D(5), None),
        ("Revenue fell to 5%.", D(5), None),
        ("It rose from 5% a year ago.", D(5), None),
        ("Churn is 5%.", D(5), None),
        ("63% of trial accounts drop off before the bank feed.", D(63), None),
    ],
)
def test_signs_and_directions(text: str, value: Decimal, direction: str | None) -> None:
    q = only(text)
    assert (q.value, q.direction) == (value, direction)


def test_direction_words_do_not_cross_into_another_clause() -> None:
    first, second = extract_quantities("Revenue fell 5% while churn is 2%.")
    assert (first.direction, second.direction) == ("down", None)
    a, b = extract_quantities("It fell from 12% to 10%.")
    assert (a.direction, b.direction) == (None, None)


def test_a_dash_glued_to_a_word_is_not_a_sign() -> None:
    assert only("batch-2026").value == 2026
    assert only("mid-2026").kind is QKind.PERIOD  # a third of the year, not minus 2026
    [span] = extract_quantities("10-20 users")  # a range: one record string of two parts
    assert span.kind is QKind.RECORD and [p.value for p in span.parts] == [10, 20]


@pytest.mark.parametrize(
    ("text", "bound", "tolerance"),
    [
        ("over 1,000", "gt", D("0.5")),
        ("more than 1,000", "gt", D("0.5")),
        ("at least 1,000", "ge", D("0.5")),
        ("under 12", "lt", D("0.5")),
        ("fewer than 12", "lt", D("0.5")),
        ("up to 12", "le", D("0.5")),
        ("about 1,200", "eq", D(50)),
        ("roughly 310,000", "eq", D(5000)),
        ("~40%", "eq", D(5)),
        ("about 4.1%", "eq", D("0.05")),
        ("1,200", "eq", D("0.5")),
    ],
)
def test_bounds_and_hedges(text: str, bound: str, tolerance: Decimal) -> None:
    q = only(text)
    assert (q.bound, q.tolerance) == (bound, tolerance)


def test_years_are_year_like_and_other_integers_are_not() -> None:
    assert only("in 2019").year_like
    assert not only("2,019 users").year_like
    assert not only("$2019").year_like
    assert not only("1850").year_like


@pytest.mark.parametrize(
    ("text", "value"),
    [("two", 2), ("Fourteen", 14), ("twenty-five", 25), ("twenty five", 25), ("ninety", 90),
     ("two million", 2_000_000), ("one", 1), ("a dozen", 12), ("two dozen", 24)],
)  # fmt: skip
def test_number_words(text: str, value: int) -> None:
    assert only(f"They have {text} sites.").value == value


def test_two_number_words_in_a_row_are_two_numbers() -> None:
    assert [q.value for q in extract_quantities("two three")] == [2, 3]


def test_one_is_optional_in_claims_and_required_in_report_text() -> None:
    assert only("one of their vendors").optional
    assert not scan("one of their vendors", report_text=True).quantities[0].optional


def test_number_words_hyphen_glued_to_a_word_are_not_numbers() -> None:
    assert extract_quantities("They require two-factor sign-in.") == []


# --- dates, periods, scores, identifiers ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "points"),
    [
        ("2026-03-09", (DatePoint(2026, 3, 9),)),
        ("2026-03-09T10:30:00Z", (DatePoint(2026, 3, 9),)),
        ("2026-03", (DatePoint(2026, 3),)),
        ("2026/03/09", (DatePoint(2026, 3, 9),)),
        ("March 9, 2026", (DatePoint(2026, 3, 9),)),
        ("Mar. 9th 2026", (DatePoint(2026, 3, 9),)),
        ("9 March 2026", (DatePoint(2026, 3, 9),)),
        ("the 9th of March", (DatePoint(None, 3, 9),)),
        ("March 2026", (DatePoint(2026, 3),)),
        ("Sept 2025", (DatePoint(2025, 9),)),
        ("in May", (DatePoint(None, 5),)),
        ("before August", (DatePoint(None, 8),)),
        ("03/09/2026", (DatePoint(2026, 3, 9), DatePoint(2026, 9, 3))),
        ("13/09/2026", (DatePoint(2026, 9, 13),)),
    ],
)
def test_dates(text: str, points: tuple[DatePoint, ...]) -> None:
    q = only(text)
    assert (q.kind, q.dates) == (QKind.DATE, points)


def test_may_the_verb_is_not_a_month() -> None:
    assert extract_quantities("May I suggest a call?") == []
    assert extract_quantities("February 30, 2026 is not a date") != [DatePoint(2026, 2, 30)]


@pytest.mark.parametrize(
    ("text", "period"),
    [
        ("Q1 2026", Period(2026, quarter=1)),
        ("Q1'26", Period(2026, quarter=1)),
        ("Q1-2026", Period(2026, quarter=1)),
        ("Q1 FY26", Period(2026, quarter=1, fiscal=True)),
        ("FY2026 Q1", Period(2026, quarter=1, fiscal=True)),
        ("1Q26", Period(2026, quarter=1)),
        ("FY2025", Period(2025, fiscal=True)),
        ("FY 25", Period(2025, fiscal=True)),
        ("fiscal 2025", Period(2025, fiscal=True)),
        ("fiscal year 2025", Period(2025, fiscal=True)),
        ("H2 2025", Period(2025, half=2)),
        ("the first quarter of 2026", Period(2026, quarter=1)),
        ("the second half of 2025", Period(2025, half=2)),
        ("in Q3", Period(None, quarter=3)),
        ("calendar 2025", Period(2025)),
        ("calendar year 2025", Period(2025)),
        (
            "2025-02-01 to 2026-01-31",
            Period(None, span=(DatePoint(2025, 2, 1), DatePoint(2026, 1, 31))),
        ),
        (
            "1 July 2024 - 30 June 2025",
            Period(None, span=(DatePoint(2024, 7, 1), DatePoint(2025, 6, 30))),
        ),
        (
            "Feb 2025 to Jan 2026",
            Period(None, span=(DatePoint(2025, 2, 1), DatePoint(2026, 1, 31))),
        ),
    ],
)
def test_periods(text: str, period: Period) -> None:
    q = only(text)
    assert (q.kind, q.period) == (QKind.PERIOD, period)


def test_a_two_digit_number_after_a_quarter_is_not_its_year() -> None:
    found = extract_quantities("In Q1 12 customers churned.")
    assert [(q.kind, q.value) for q in found if q.kind is QKind.NUMBER] == [(QKind.NUMBER, 12)]
    assert next(q.period for q in found if q.kind is QKind.PERIOD) == Period(None, quarter=1)


@pytest.mark.parametrize(
    ("text", "value", "scale"),
    [("7 out of 10", D(7), D(10)), ("7/10", D(7), D(10)), ("7.5 / 10", D("7.5"), D(10)),
     ("38 out of 100", D(38), D(100))],
)  # fmt: skip
def test_scores(text: str, value: Decimal, scale: Decimal) -> None:
    q = only(text)
    assert (q.kind, q.value, q.scale) == (QKind.SCORE, value, scale)


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [("2004 - 2005", "2004 - 05", True), ("1999 - 00", "1999 - 2000", True),
     ("2004 - 2006", "2004 - 05", False), ("7 - 8", "7 - 08", False),
     ("07 0 - 6", "070 - 6", False)],
)  # fmt: skip
def test_a_season_written_in_full_or_short_is_one_record(a: str, b: str, same: bool) -> None:
    assert (record_key(a) == record_key(b)) is same


def test_a_year_after_in_is_no_share() -> None:
    found = extract_quantities("an alfa romeo flat - 12 engine in 1976")
    assert [q.kind for q in found] == [QKind.NUMBER, QKind.NUMBER]
    assert only("one call in eight").kind is QKind.PERCENT


def test_24_7_is_not_a_score_or_a_number() -> None:
    assert extract_quantities("Support runs 24/7.") == []


@pytest.mark.parametrize(
    ("text", "identifiers"),
    [
        ("See FND-3 and M10.", ["FND-3", "M10"]),
        ("They use GA4 and SAP S/4HANA.", ["GA4", "S/4HANA"]),
        ("Five9 routes calls; AUD-2026-0162 is the report.", ["Five9", "AUD-2026-0162"]),
        ("ARR is $4.1M, 10x more; the 4th finding; 2.9s loads.", []),
        ("A B2B team with 2FA and p95 latency; mid-2026.", []),
    ],
)
def test_identifiers_are_not_quantities(text: str, identifiers: list[str]) -> None:
    found = scan(text)
    assert [s.text for s in found.identifiers] == identifiers
    for span in found.identifiers:
        assert not any(q.start < span.end and span.start < q.end for q in found.quantities)


def test_percentile_phrase_becomes_a_measure_word() -> None:
    found = scan("Pages load in 2.9 s at the 75th percentile.")
    assert "p75" in found.masked
    assert [q.value for q in found.quantities] == [D("2.9")]


# --- report values -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "path", "kind", "number", "extra"),
    [
        (3.66, "metrics.trial_conversion_pct", QKind.PERCENT, D("3.66"), {}),
        (0.0211, "metrics.churn_rate", QKind.NUMBER, D("0.0211"), {"fraction": True}),
        (0.412, "financials.gross_margin", QKind.NUMBER, D("0.412"), {"fraction": True}),
        (412500000, "financials.revenue_usd", QKind.CURRENCY, D(412500000), {"currency": "USD"}),
        (74, "metrics.sales_cycle_days", QKind.NUMBER, D(74), {"unit": "days"}),
        (10, "scores.max", QKind.NUMBER, D(10), {"is_scale": True}),
        (2019, "metrics.last_replatform_year", QKind.NUMBER, D(2019), {"year_like": True}),
        (2100000, "financials.net_loss_usd", QKind.CURRENCY, D(2100000), {"direction": "down"}),
        ("$1.8B", "financials.freight", QKind.CURRENCY, D(1800000000), {}),
        ("2.4 million USD", "financials.marketing_budget", QKind.CURRENCY, D(2400000), {}),
        ("2.9 s", "metrics.page_load_p75", QKind.NUMBER, D("2.9"), {"unit": "s"}),
        ("87.40 USD", "metrics.aov", QKind.CURRENCY, D("87.40"), {}),
        ("2.11", "metrics.churn_pct", QKind.PERCENT, D("2.11"), {}),
    ],
)
def test_leaf_values_are_read_with_their_field_hints(
    value: Any, path: str, kind: QKind, number: Decimal, extra: dict[str, Any]
) -> None:
    q = leaf_quantities(value, path)[0]
    assert (q.kind, q.value) == (kind, number)
    for attribute, expected in extra.items():
        assert getattr(q, attribute) == expected


def test_leaf_dates_and_fiscal_years() -> None:
    (q,) = leaf_quantities("2026-03-09", "metrics.last_pricing_change")
    assert q.dates == (DatePoint(2026, 3, 9),)
    _, period = leaf_quantities(2025, "report.fiscal_year")
    assert period.period == Period(2025, fiscal=True)
    assert leaf_quantities(True, "flags.x") == () and leaf_quantities(None, "x") == ()


def test_path_periods_and_numbers() -> None:
    found = path_periods("financials.fy2025.q1_revenue_2024[3].rule_of_40")
    assert [q.period for q in found if q.kind is QKind.PERIOD] == [
        Period(2025, fiscal=True),
        Period(None, quarter=1),
    ]
    assert [q.dates for q in found if q.kind is QKind.DATE] == [(DatePoint(2024),)]
    assert [q.value for q in found if q.kind is QKind.NUMBER] == [40]


def test_field_hints() -> None:
    assert field_hints("metrics.online_booking_share_pct").percent
    assert not field_hints("metrics.online_booking_share_pct").fraction
    assert field_hints("metrics.churn_rate").fraction
    assert field_hints("financials.revenue_usd").currency == "USD"


# --- matching ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("claim", "value", "path", "expected"),
    [
        ("$4.1M", 4137220, "x.arr_usd", True),
        ("$4.2M", 4137220, "x.arr_usd", False),
        ("3.7%", 3.66, "x.conv_pct", True),
        ("3.6%", 3.66, "x.conv_pct", False),
        ("3.7%", 0.0366, "x.churn_rate", True),
        ("36.6%", 0.366, "x.share", True),
        ("0.0211", "2.11%", "x.note", True),
        ("1.1%", 0.11, "x.rate", False),
        ("11%", 0.11, "x.rate", True),
        ("0.11%", 0.11, "x.share_pct", True),
        ("11%", 0.11, "x.share_pct", False),
        ("$18B", "$1.8B", "x.fum", False),
        ("fell 5%", -5.0, "x.growth_pct", True),
        ("rose 5%", -5.0, "x.growth_pct", False),
        ("5%", -5.0, "x.growth_pct", False),
        ("-5%", -5.0, "x.growth_pct", True),
        ("lost $2.1M", 2100000, "x.net_loss_usd", True),
        ("2,900 ms", "2.9 s", "x.load", True),
        ("2.9 minutes", "2.9 s", "x.load", False),
        ("$87.40", "87.40 USD", "x.aov", True),
        ("€87.40", "87.40 USD", "x.aov", False),
        ("3.66%", "$3.66", "x.price", False),
        ("over 1,000", 1187, "x.employees", True),
        ("over 1,200", 1187, "x.employees", False),
        ("under 12 months", "a payback period under 12 months", "x.notes", True),
        ("12 months", "a payback period under 12 months", "x.notes", False),
        ("March 2026", "2026-03-09", "x.date", True),
        ("February 2026", "2026-03-09", "x.date", False),
        ("March 9, 2026", "2026-03", "x.date", False),
        ("2026", "2026-03-09", "x.date", True),
        ("Q1 2026", "2026-03-09", "x.date", True),
        ("Q2 2026", "2026-03-09", "x.date", False),
        ("H1 2026", "Q2 2026", "x.period", True),
        ("FY2025", "FY2025", "x.fiscal_year", True),
        ("FY2024", "FY2025", "x.fiscal_year", False),
        ("FY2025", 2025, "x.fiscal_year", True),
        ("FY2025", "2025-06-30", "x.date", False),
        ("in 2025", "FY2025", "x.fiscal_year", True),
        ("7 / 7", "deacon 7 / 7", "x.goals", True),
        ("7 / 10", "deacon 7 / 7", "x.goals", False),
    ],
)
def test_matching(claim: str, value: Any, path: str, expected: bool) -> None:
    q = only(claim)
    assert any(matches(q, v) for v in leaf_quantities(value, path)) is expected


# --- properties -----------------------------------------------------------------------------

_SCALES = {"": 1, "k": 10**3, "K": 10**3, " thousand": 10**3, "M": 10**6, " million": 10**6,
           "mn": 10**6, "B": 10**9, " billion": 10**9, "bn": 10**9}  # fmt: skip


def _render(mantissa: Decimal, commas: bool) -> str:
    return format(mantissa, ",f" if commas else "f")


@st.composite
def written_numbers(draw: st.DrawFn) -> tuple[str, Decimal, QKind]:
    """(text, value, kind): a value and one way of writing it."""
    digits = draw(st.integers(min_value=0, max_value=10**9))
    places = draw(st.integers(min_value=0, max_value=4))
    mantissa = Decimal(digits).scaleb(-places)
    negative = draw(st.booleans())
    form = draw(st.sampled_from(["plain", "money", "percent", "suffix-currency"]))
    scale = draw(st.sampled_from(sorted(_SCALES))) if form in ("plain", "money") else ""
    body = _render(mantissa, draw(st.booleans())) + scale
    if form == "money":
        body = draw(st.sampled_from(["$", "US$", "USD ", "€", "£"])) + body
    elif form == "percent":
        body += draw(st.sampled_from(["%", " percent", " per cent", " pct"]))
    elif form == "suffix-currency":
        body += draw(st.sampled_from([" USD", " dollars", " EUR"]))
    value = mantissa * _SCALES[scale] * (-1 if negative else 1)
    kind = {"plain": QKind.NUMBER, "percent": QKind.PERCENT}.get(form, QKind.CURRENCY)
    return (f"-{body}" if negative else body), value, kind


@settings(max_examples=300, deadline=None)
@given(written_numbers())
def test_any_written_number_parses_back_to_its_value(case: tuple[str, Decimal, QKind]) -> None:
    text, value, kind = case
    q = only(f"The figure is {text} this year.")
    assert q.value == value
    assert q.kind is kind


_REPORT_CACHE: dict[str, Any] = {}


def _report_with(value: Any, key: str) -> Any:
    data = {
        "company": {"name": "Acme Widgets", "aliases": []},
        "report": {"id": "R-1", "generated_at": "2026-01-01"},
        "metrics": {key: value},
    }
    return build_report("acme", data)


def _verdict(text: str, value: Any, key: str) -> bool:
    claim = Claim(text=f"The {key.replace('_', ' ')} is {text}.", kind="fact",
                  evidence=[f"metrics.{key}"])  # fmt: skip
    return verify_claim(claim, _report_with(value, key)).supported


@st.composite
def stored_values(draw: st.DrawFn) -> tuple[Decimal, str, str]:
    """(value, field key, exact claim rendering) for a stored number and a faithful claim."""
    digits = draw(st.integers(min_value=1, max_value=10**8))
    places = draw(st.integers(min_value=0, max_value=3))
    value = Decimal(digits).scaleb(-places)
    form = draw(st.sampled_from(["count", "usd", "pct", "fraction"]))
    if form == "fraction":
        value = Decimal(draw(st.integers(min_value=1, max_value=9999))).scaleb(-4)
        return value, "churn_rate", format(value * 100, "f") + "%"
    if form == "pct":
        return value, "conversion_pct", format(value, "f") + "%"
    if form == "usd":
        scale = draw(st.sampled_from(["", "k", "M"]))
        shown = value / _SCALES[scale]
        return value, "revenue_usd", "$" + format(shown, "f") + scale
    return value, "order_count", format(value, ",f")


def _digit_changed(text: str, data: st.DataObject) -> str:
    positions = [i for i, c in enumerate(text) if c.isdigit()]
    i = data.draw(st.sampled_from(positions))
    new = data.draw(st.sampled_from([d for d in "0123456789" if d != text[i]]))
    return text[:i] + new + text[i + 1 :]


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=2, max_value=999_999))
def test_a_number_in_words_reads_as_its_value(n: int) -> None:
    """Written out by num2words (``four hundred and eighty-six thousand, two hundred and
    twelve``), not by our own grammar."""
    words = num2words(n)
    q = only(f"They have {words} customers.")
    assert (q.value, q.text) == (n, words)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(min_value=2, max_value=99_999),
    st.sampled_from(["seconds", "minutes", "hours", "days", "weeks", "months", "years"]),
)
def test_a_number_in_words_carries_the_time_unit_after_it(n: int, unit: str) -> None:
    words = num2words(n)
    q = only(f"They wait {words} {unit} on average.")
    assert (q.value, q.unit, q.text) == (n, unit, f"{words} {unit}")


@given(stored_values(), st.data())
def test_a_faithful_number_passes_and_any_perturbation_fails(
    case: tuple[Decimal, str, str], data: st.DataObject
) -> None:
    value, key, text = case
    stored = (
        float(value) if value != value.to_integral_value() or key == "churn_rate" else int(value)
    )
    assert _verdict(text, stored, key), text
    changed = _digit_changed(text, data)
    if Decimal(changed.strip("$%kM").replace(",", "")) != Decimal(
        text.strip("$%kM").replace(",", "")
    ):
        assert not _verdict(changed, stored, key), changed
    assert not _verdict(f"-{text}", stored, key)
    assert not _verdict(f"down {text}", stored, key)
    if text.startswith("$"):
        for scale in ("k", "M", "B"):
            if not text.endswith(scale):
                rescaled = text.rstrip("kM") + scale
                assert not _verdict(rescaled, stored, key), rescaled
    if key == "churn_rate":  # the stored fraction shown as if it were already a percent
        assert not _verdict(format(value, "f") + "%", stored, key)


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=1, max_value=10**6), st.data())
def test_a_flipped_sign_fails_for_negative_values(magnitude: int, data: st.DataObject) -> None:
    stored = -magnitude / 10
    shown = format(Decimal(magnitude).scaleb(-1), "f")
    assert _verdict(f"down {shown}%", stored, "growth_pct")
    assert _verdict(f"-{shown}%", stored, "growth_pct")
    flipped = data.draw(st.sampled_from([f"{shown}%", f"up {shown}%", f"+{shown}%"]))
    assert not _verdict(flipped, stored, "growth_pct")


@pytest.mark.parametrize(
    ("period", "first", "last"),
    [
        (Period(2025), DatePoint(2025, 1, 1), DatePoint(2025, 12, 31)),
        (Period(2024, quarter=1), DatePoint(2024, 1, 1), DatePoint(2024, 3, 31)),
        (Period(2025, half=2), DatePoint(2025, 7, 1), DatePoint(2025, 12, 31)),
    ],
)
def test_calendar_spans(period: Period, first: DatePoint, last: DatePoint) -> None:
    assert period.calendar_span() == (first, last)


def test_fiscal_periods_have_no_calendar_span() -> None:
    assert Period(2025, fiscal=True).calendar_span() is None
    assert Period(None, quarter=4).calendar_span() is None


def test_two_dates_that_are_not_a_range_stay_dates() -> None:
    found = extract_quantities("Founded 2001-03-04, relaunched 2020-05-06.")
    assert [q.kind for q in found] == [QKind.DATE, QKind.DATE]
