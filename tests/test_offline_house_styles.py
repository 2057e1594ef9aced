"""General reading of reports in further house styles (report-level amount scales,
SCREAMING_SNAKE and PascalCase keys, `{metric, value, unit, period}` rows) and of reps'
everyday phrasings. Each behaviour is tried on a small report of its own, with words the
sample reports and the dev corpora do not use; every answer goes through the whole turn,
verifier included."""

from __future__ import annotations

from typing import Any

import pytest
from offline_support import ask, cited, envelope, offline_deps, texts

from prism_slack.llm.offline import Composer
from prism_slack.llm.offline_index import index_for
from prism_slack.llm.playbook import load_playbook
from prism_slack.pipeline.turn import TurnDeps
from prism_slack.reports.model import build_report

# SCREAMING_SNAKE keys, amounts in a report-level scale
OTTER: dict[str, Any] = envelope(
    "Otter Mutual",
    AMOUNTS_IN="GBP thousands",
    BALANCE={"TOTAL_ASSETS": 2750400, "CUSTOMER_DEPOSITS": 2101300},
    RIVALS=[
        {"NAME": "Heronsgate Building Society", "TYPE": "mutual", "EDGE": "Faster remortgages"},
        {"NAME": "Pipit Money", "TYPE": "app bank", "EDGE": "No-fee current account"},
    ],
    SERVICE={"AVERAGE_HOLD_TIME": "6.5 minutes", "CALLS_PER_DAY": 3100},
    GRADES={"SCALE": "1-5", "BRANCH_NETWORK": 2, "MORTGAGE_DESK": 4},
    CONTACTS=[
        {
            "NAME": "Tomas Reyes",
            "TITLE": "Chief Risk Officer",
            "DEAL_ROLE": "blocker",
            "NOTES": "Runs the model risk committee and signs off every new data processor.",
        },
        {
            "NAME": "Ines Carvalho",
            "TITLE": "Head of Payments",
            "DEAL_ROLE": "champion",
            "WANTS": ["A pilot in two branches before the summer"],
            "WORRIES": ["The last vendor's migration ran four months late"],
        },
    ],
    PROFILE={"HEAD_OFFICE": "Truro, Cornwall", "FOUNDED": 1911, "TURNOVER": 84100},
    PAYMENTS={"CHEQUES_PROCESSED_PER_WEEK": 12800, "RETURNED_PAYMENT_RATE": 0.037},
    FINDINGS=[
        {
            "ID": "F1",
            "SEVERITY": "critical",
            "TITLE": "Remortgage offers take a month",
            "DETAIL": "A remortgage offer takes 31 days on average. Brokers route around them.",
        },
        {
            "ID": "F2",
            "SEVERITY": "high",
            "TITLE": "Returned payments are rising",
            "DETAIL": "3.7% of direct debits come back unpaid, which adds about GBP 410,000 a "
            "year in collection work.",
        },
    ],
)

# kebab-case keys, a units map, PascalCase nesting
QUILL: dict[str, Any] = envelope(
    "Quill Ferries",
    units={"currency": "NZD", "amounts-in": "millions"},
    money={"revenue": 61.2, "ticket-revenue": 40.5, "cash-on-hand": 9.8, "runway": "14 months"},
    Operations={
        "Fleet": {
            "PassengerFerries": 6,
            "CrewChangeVessels": {"Owned": 2, "Leased": 1},
        },
        "Reliability": {"SailingsCompletedShare": 0.93, "Uptime": 0.97},
    },
    clinic={"MissedAppointmentRate": 0.061, "TimeToFirstValue": "12 days"},
    halves={"bookings": {"1H FY24": "NZ$8.1m", "2H FY24": "NZ$9.4m", "1H FY25": "NZ$10.2m"}},
    quarterly={"queue-minutes": {"Q1'25": 4.5, "Q2'25": 6.0, "Q3'25": 8.5, "Q4'25": 7.0}},
)


@pytest.fixture(scope="module")
def deps(tmp_path_factory: pytest.TempPathFactory) -> TurnDeps:
    return offline_deps(tmp_path_factory.mktemp("reports"), {"otter": OTTER, "quill": QUILL})


def test_an_amount_in_a_report_level_scale_is_said_in_it(deps: TurnDeps) -> None:
    assets = ask(deps, "otter", "total assets?")
    assert texts(assets)[0] == "Total assets: £2.75B."  # not "2.75M": thousands of pounds
    ticket = ask(deps, "quill", "ticket revenue?")
    assert texts(ticket)[0] == "Ticket revenue: 40.5M NZD."  # not a bare "40.5"


def test_a_screaming_record_is_named_by_its_name_field(deps: TurnDeps) -> None:
    rivals = ask(deps, "otter", "who are their rivals")
    assert texts(rivals)[0].startswith("Heronsgate Building Society (rival); type: mutual")
    assert all(p.kind == "fact" for p in rivals.posted)


def test_initials_of_an_object_key_name_its_fields(deps: TurnDeps) -> None:
    ccvs = ask(deps, "quill", "how many CCVs")
    assert any(p.startswith("Operations.Fleet.CrewChangeVessels") for p in cited(ccvs))
    assert not any(p.kind == "absent" for p in ccvs.posted)


def test_reps_everyday_phrasings_of_measures(deps: TurnDeps) -> None:
    against = ask(deps, "otter", "who are they up against")
    assert cited(against)[0].startswith("RIVALS[")
    losing = ask(deps, "otter", "who are they losing customers to")
    assert cited(losing)[0].startswith("RIVALS[")
    hold = ask(deps, "otter", "how long are people left on hold")
    assert cited(hold) == ["SERVICE.AVERAGE_HOLD_TIME"]
    runway = ask(deps, "quill", "how long until they run out of cash")
    assert cited(runway) == ["money.runway"]
    up = ask(deps, "quill", "are the boats staying up")
    assert "Operations.Reliability.Uptime" in cited(up)
    skip = ask(deps, "quill", "how often do people skip appointments")
    assert cited(skip)[0] == "clinic.MissedAppointmentRate"
    value = ask(deps, "quill", "how long before they see value")
    assert cited(value)[0] == "clinic.TimeToFirstValue"


def test_a_dropped_letter_is_the_typo_read_first(deps: TurnDeps) -> None:
    based = ask(deps, "otter", "whre are they basd")  # where/based, not were/bad
    assert cited(based) == ["PROFILE.HEAD_OFFICE"]
    assert not any(p.kind == "absent" for p in based.posted)


def test_reps_words_for_a_place_a_workforce_and_a_volume(deps: TurnDeps) -> None:
    assert cited(ask(deps, "otter", "where's HQ"))[0] == "PROFILE.HEAD_OFFICE"
    staff = ask(deps, "otter", "what's their staff turnover")  # not the sales turnover
    assert staff.posted[0].kind == "absent"
    assert "PROFILE.TURNOVER" not in cited(staff)[:1]
    cheques = ask(deps, "otter", "how many cheques go through each week")
    assert cited(cheques)[0] == "PAYMENTS.CHEQUES_PROCESSED_PER_WEEK"


def test_quarter_and_half_keys_are_a_series_read_by_the_period_asked(deps: TurnDeps) -> None:
    report = build_report("quill", QUILL)
    queue = report.facts.series.get("quarterly.queue-minutes")
    assert queue is not None and queue.display.startswith("7 minutes in Q4'25")  # its key's unit
    assert "halves.bookings" in report.facts.series  # "NZ$8.1m": a currency before its symbol
    composer = Composer(index_for(report), load_playbook(), 6)
    claims = composer.answer("queue minutes in Q1 vs Q4")
    assert [c.kind for c in claims] == ["fact"]  # a quarter alone is no subject of its own
    assert claims[0].text == "Queue in Q1'25: 4.5 minutes; in Q4'25: 7 minutes."  # period first
    half = ask(deps, "quill", "what were bookings in 1H FY25")
    assert texts(half) == ["Bookings (1H FY25): 10.2M NZD."]


def test_a_scale_written_as_a_range_is_the_scores_scale(deps: TurnDeps) -> None:
    grade = ask(deps, "otter", "how's the mortgage desk graded", "out of what?")
    assert texts(grade) == ["Mortgage desk: 4/5."]
    assert "GRADES.SCALE" in cited(grade)  # the scale is cited, so the claim is settled


def test_a_follow_up_on_a_person_answers_the_field_it_names(deps: TurnDeps) -> None:
    wants = ask(deps, "otter", "who's the champion?", "what does she want?")
    assert texts(wants) == ["Wants: A pilot in two branches before the summer."]
    worries = ask(deps, "otter", "who's the champion?", "what worries her?")
    assert cited(worries) == ["CONTACTS[1].WORRIES[0]"]


def test_the_single_worst_problem_is_the_most_severe(deps: TurnDeps) -> None:
    worst = ask(deps, "otter", "what's the single worst problem they have")
    assert cited(worst)[0] == "FINDINGS[0].TITLE"  # "single" ranks; it is no subject


def test_a_follow_up_on_a_figure_reads_the_finding_that_explains_it(deps: TurnDeps) -> None:
    cost = ask(deps, "otter", "returned payment rate?", "what does that cost them?")
    assert cited(cost) == ["FINDINGS[1].DETAIL"]
    assert "410,000" in texts(cost)[0]


def test_a_they_after_one_person_is_that_person_when_their_record_answers(
    deps: TurnDeps,
) -> None:
    runs = ask(deps, "otter", "who's the blocker?", "what committee do they run?")
    assert cited(runs)[0] == "CONTACTS[0].NOTES"
    company = ask(deps, "otter", "who's the blocker?", "what are their total assets?")
    assert cited(company) == ["BALANCE.TOTAL_ASSETS"]  # "their" is the company here


# a table of figures as rows named by their own field; things counted in prose only
WREN: dict[str, Any] = envelope(
    "Wren Apiary Systems",
    profile={
        "what-they-do": "Hive scales and a pollination-booking app for almond orchards",
        "staff": 61,
    },
    indicators=[
        {"indicator": "Paying beekeeper accounts", "value": 940, "unit": "accounts",
         "period": "FY2025"},
        {"indicator": "Hive scales installed", "value": 15200, "unit": "devices",
         "period": "at 31 March 2025"},
        {"indicator": "Monthly churn", "value": 1.9, "unit": "pct", "period": "FY2025"},
    ],
    problems=[
        {"severity": "high", "headline": "Scales fail after the first winter",
         "detail": "5.2% of hive scales fail in their first year, mostly from water in the "
         "load cell. Each one costs a site visit."},
    ],
    method="We joined 12 orchard visits in the Central Valley.",
)  # fmt: skip


@pytest.fixture(scope="module")
def wren(tmp_path_factory: pytest.TempPathFactory) -> TurnDeps:
    return offline_deps(tmp_path_factory.mktemp("wren"), {"wren": WREN})


def test_a_row_of_a_table_is_named_by_its_own_name_field(wren: TurnDeps) -> None:
    churn = ask(wren, "wren", "monthly churn?")
    assert texts(churn)[0] == "Monthly churn: 1.9% in FY2025."
    assert cited(churn)[:2] == ["indicators[2].value", "indicators[2].indicator"]
    devices = ask(wren, "wren", "how many devices are out there")  # the row's unit names it
    assert texts(devices)[0] == "Hive scales installed: 15,200 devices at 31 March 2025."


def test_a_count_is_asked_again_by_its_head_when_its_place_finds_nothing(wren: TurnDeps) -> None:
    keepers = ask(wren, "wren", "how many beekeepers are on the platform")
    assert keepers.posted[0].kind == "fact"
    assert cited(keepers)[0] == "indicators[0].value"


def test_a_thing_only_mentioned_in_prose_is_not_counted_by_it(wren: TurnDeps) -> None:
    orchards = ask(wren, "wren", "how many orchards do they serve")
    assert texts(orchards)[0] == "Not in the audit report: a count of orchards."
    assert "method" not in cited(orchards)  # "12 orchard visits" counts visits
    near = [p for p in orchards.posted if p.kind == "fact"]
    assert near and all(c.startswith("indicators[") for c in cited(orchards))


def test_a_frequency_asked_of_a_thing_the_report_never_names_says_so(wren: TurnDeps) -> None:
    gauges = ask(wren, "wren", "how often do the gauges break")
    assert cited(gauges)[:2] == ["problems[0].headline", "problems[0].severity"]
    assert texts(gauges)[-1] == "The report doesn't mention gauges."
