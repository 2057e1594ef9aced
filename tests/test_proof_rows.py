"""Settle only on proof over rows that name their own values (``{name, value, asOf}``,
``{concept, value, unitRef}``) and in coaching: a row's period and label bind its value,
and a promise or a report of what someone said is never a restatement."""

from __future__ import annotations

from typing import Any

import pytest

from prism_slack.claims import Claim
from prism_slack.reports.model import Report, build_report
from prism_slack.verdict import Status
from prism_slack.verify import verify_claim

DATA: dict[str, Any] = {
    "company": {"name": "Larchmere Academies", "aliases": []},
    "report": {"id": "r", "generated_at": "2026-04-02T14:05:00+02:00"},
    "Finance": [
        {"name": "Tuition income", "value": "NZD 41.2m", "asOf": "FY2025"},
        {"name": "Tuition income", "value": "NZD 38.7m", "asOf": "FY2024"},
    ],
    "Systems": [
        {"name": "Timetabling tool", "value": "Orrery", "since": "2014"},
        {"name": "Payroll service", "value": "Kestrel Pay", "since": "2021"},
    ],
    "facts": [
        {"concept": "ServiceDesk", "value": "52", "unitRef": "FTE", "decimals": 0,
         "period": {"instant": "2025-12-31"}},
    ],
    "people": [
        {"name": "Mara Olsen", "title": "Bursar",
         "objections": "Rejects any tool that stores pupil data outside New Zealand."},
    ],
    "service": {"detail": "A parent's first email waits 3.5 working days for a reply."},
    "Enrolment": [{"name": "Retention", "value": "93 %", "asOf": "2025"}],
    "Headline": {"Rev. growth (YoY)": "6.5 %"},
    "Retention": {"2024": 0.935, "2025": 0.9},
    "fin2": {"currency": "NZD", "revenue": 40_000_000, "ebitda": 6_000_000, "pupils": 1200,
             "campuses": 30},
    "notes2": {"spend": "Research and development spend was NZD 2.1m."},
    "costs2": ["Bus costs: NZD 1.8m (FY25, up 12% on FY24, from 1.6m)", "Campuses: 30"],
    "accounts": ["Boarding families: 1,240 accounts", "Family churn (boarders): 11% a year"],
    "rivals": [
        "Kowhai College: enrolment app with same-day fee plans",
        "Tui Learning: runs open days every month in all 9 regions",
    ],
    "audit": ["Prepared by: Ruth Ahern", "Issued: 3rd June 2026"],
    "costs": {"currency": "NZD", "r-and-d-spend": 2_100_000},
    "board": {
        "columns": ["name", "title", "deal_role"],
        "rows": [["Ana Ruiz", "Chief Financial Officer", "economic buyer"],
                 ["Tom Vale", "Head of IT", "champion"]],
    },
    "results": {
        "columns": ["metric", "FY2024", "FY2025"],
        "rows": [["Tuition income", 38.7, 41.2]],
        "units": {"Tuition income": "NZD millions"},
    },
}  # fmt: skip


@pytest.fixture(scope="module")
def report() -> Report:
    return build_report("rows", DATA)


SETTLED, UNDECIDED, FAILED = Status.SETTLED, Status.UNDECIDED, Status.FAILED


@pytest.mark.parametrize(
    ("text", "evidence", "kind", "expected"),
    [
        # a row's period (``asOf``) binds its value
        ("Tuition income was NZD 38.7m in FY2024.", ["Finance[0]", "Finance[1]"], "fact",
         SETTLED),
        ("Tuition income was NZD 38.7m in FY2025.", ["Finance[0]", "Finance[1]"], "fact",
         FAILED),  # FY2025's row holds 41.2: the year's own value, proved
        # a row's label names its value: the claim names another row's label
        ("They use Orrery for timetabling.", ["Systems[0]", "Systems[1]"], "fact", SETTLED),
        ("They run Orrery for payroll service.", ["Systems[0]", "Systems[1]"], "fact",
         UNDECIDED),
        # a fact's concept and unit name its value
        ("The service desk is 52 FTE.", ["facts[0]"], "fact", SETTLED),
        # a duration's unit, even with a word between: days are no weeks
        ("A parent waits 3.5 weeks for a first reply.", ["service.detail"], "fact", FAILED),
        # a table's row is one record; its cells are of their row's label and column
        ("Ana Ruiz, the CFO, is the economic buyer.", ["board.rows[0]", "board.columns"],
         "fact", SETTLED),
        ("Ana Ruiz, the CFO, is our champion.", ["board.rows[0]", "board.rows[1]"], "fact",
         FAILED),
        ("Tuition income was NZD 41.2m in FY2025.", ["results.rows[0]"], "fact", SETTLED),
        ("Tuition income was NZD 41.2m in FY2024.", ["results.rows[0]"], "fact", FAILED),
        # an abbreviated key and an ampersand's words
        ("Revenue grew 6.5% year on year.", ['Headline["Rev. growth (YoY)"]'], "fact",
         SETTLED),
        ("They spend NZD 2.1m on R&D.", ["costs.r-and-d-spend"], "fact", SETTLED),
        # one labelled item named, another's figure or words stated
        ("Kowhai College runs open days every month in all 9 regions.", ["rivals[0]",
                                                                          "rivals[1]"],
         "fact", UNDECIDED),
        ("Kowhai College has an enrolment app with same-day fee plans.", ["rivals[0]",
                                                                               "rivals[1]"],
         "fact", SETTLED),
        ("Ruth Ahern prepared the audit, which was issued on 3 June 2026.", ["audit[0]",
                                                                              "audit[1]"],
         "fact", SETTLED),
        # a change said in points or in the figure's own unit is a difference
        ("Retention fell 3.5 points from 2024 to 2025.", ["Retention"], "fact", SETTLED),
        ("Tuition income rose NZD 2.5m from FY2024 to FY2025.", ["results.rows[0]"], "fact",
         SETTLED),
        # a margin is a share, "per" and "times" a ratio, of two cited figures
        ("Their EBITDA margin is roughly 15%.", ["fin2.revenue", "fin2.ebitda"], "fact",
         SETTLED),
        ("Their EBITDA margin is roughly 25%.", ["fin2.revenue", "fin2.ebitda"], "fact",
         FAILED),
        ("That is about 40 pupils per campus.", ["fin2.pupils", "fin2.campuses"], "fact",
         SETTLED),
        # a measure's word opening a sentence is no name; initials joined by "&"
        ("Turnover reached NZD 41.2m in FY2025.", ["Finance[0]"], "fact", SETTLED),
        ("R&D spend was NZD 2.1m.", ["notes2.spend"], "fact", SETTLED),
        # a "Label: value" string's label names its first figure and the change beside it
        ("Bus costs jumped 12% to NZD 1.8m in FY25.", ["costs2[0]"], "fact", SETTLED),
        ("Bus costs were NZD 1.6m in FY25.", ["costs2[0]"], "fact", FAILED),
        # coaching that reports what someone asked for, or promises a figure to come
        ("Tell Mara Olsen the tool stores pupil data in New Zealand.", ["people[0]"],
         "coaching", SETTLED),
        ("Tell Mara Olsen we'll store pupil data offshore, just as she asked.", ["people[0]"],
         "coaching", UNDECIDED),
        ("Tell Mara Olsen we can lift retention to 93% next year.", ["people[0]",
                                                                     "Enrolment[0]"],
         "coaching", UNDECIDED),
    ],
)  # fmt: skip
def test_a_row_binds_its_value_by_its_own_label_and_period(
    report: Report, text: str, evidence: list[str], kind: str, expected: Status
) -> None:
    verdict = verify_claim(Claim(text=text, kind=kind, evidence=evidence), report)
    assert verdict.status is expected, (verdict.reasons, verdict.undecided_reasons)


def test_a_timestamp_generated_at_is_read_as_its_day(report: Report) -> None:
    assert report.generated_at.isoformat() == "2026-04-02"


def test_a_rate_said_for_another_period_is_no_restatement(report: Report) -> None:
    """``auto`` posts a restatement unjudged: "every month" of a rate a year is not one."""
    claim = Claim(text="They lose 11% of their boarder accounts every month.", kind="fact",
                  evidence=["accounts[1]"])  # fmt: skip
    verdict = verify_claim(claim, report)
    assert verdict.undecided and not verdict.restates
