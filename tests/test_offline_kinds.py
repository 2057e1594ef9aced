"""Each kind of question a rep asks, through the real pipeline: ``run_turn`` with the
offline answerer, the verifier, the composer and both renderers, on the sample reports.

Every case states what must be posted (claim texts, in order) and what those claims must
cite; every posted claim must have passed the verifier and nothing may be withheld. The
phrasings are this file's own (not the rep-questions corpus lines).
"""

from __future__ import annotations

import json
import uuid
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from prism_slack.claims import ABSENT_TEXT
from prism_slack.llm import offline_figures as figures
from prism_slack.llm.offline import OfflineAnswerer
from prism_slack.llm.playbook import load_playbook
from prism_slack.pipeline.result import Outcome, TurnResult
from prism_slack.pipeline.turn import TurnDeps, run_turn
from prism_slack.ports import Conversation
from prism_slack.render.blocks import render_blocks
from prism_slack.render.text import render_text
from prism_slack.render.view import NEARBY_TEXT, NOT_IN_REPORT_TITLE, score_bar
from prism_slack.reports.store import REPORT_FILE, FileReportStore
from prism_slack.state.redis_store import memory_store
from prism_slack.verdict import Label

REPORTS_DIR = Path(__file__).resolve().parent.parent / "reports"
NWO, NWL = "northwind-outfitters", "northwind-logistics"
CVH, KPS = "cedar-valley-health", "kestrelpoint-software"
CHECKED = "Every fact below is checked against the audit report"
ABSENT_BUT = "What was asked is not in the audit report; every fact below is checked against it"


def deps(reports: Path = REPORTS_DIR) -> TurnDeps:
    """As ``prism ask`` wires a turn without a model key."""
    playbook = load_playbook()
    return TurnDeps(
        reports=FileReportStore(reports),
        state=memory_store(),
        model=OfflineAnswerer(playbook),
        judge=None,
        judge_mode="never",
        playbook_text=playbook.render(),
        vocabulary=playbook.vocabulary(),
    )


def converse(turns: list[str], slug: str | None, turn_deps: TurnDeps) -> TurnResult:
    """The last turn of a conversation in one thread (bound to ``slug`` unless ``None``)."""
    where = Conversation(team="T1", channel="C1", thread=uuid.uuid4().hex)
    if slug is not None:
        turn_deps.state.set_binding(where, slug=slug)
    result = None
    for text in turns:
        result = run_turn(text, where, turn_deps)
    assert result is not None
    return result


def cited_paths(result: TurnResult) -> set[str]:
    notes = {f.n: f.path for f in result.footnotes}
    return {notes[n] for claim in result.posted for n in claim.citations}


def assert_verified(result: TurnResult) -> None:
    assert result.outcome is Outcome.ANSWERED
    assert result.withheld == [], result.withheld
    assert all(v.supported for v in result.verdicts)


# (kind, bound report or None when the question names it, the conversation,
#  texts that must be posted in this order, paths the posted claims must cite)
KINDS: list[tuple[str, str | None, list[str], list[str], set[str]]] = [
    ("synonym", NWO, ["what's their top line?"], ["Revenue: $412.5M."], {"financials.revenue_usd"}),
    (
        "synonym",
        CVH,
        ["how many days of cash do they have on hand?"],
        ["Cash on hand: 142 days."],
        {"financials.days_cash_on_hand"},
    ),
    (
        "synonym",
        NWL,
        ["what's broken in their billing?"],
        ["Finding: Invoice disputes slow collections; medium severity."],
        {"findings[3].title", "findings[3].detail"},
    ),
    (
        "vague",
        KPS,
        ["what are the key takeaways from this audit?"],
        [
            "Finding: Self-serve trials stall at the bank-feed step; critical severity.",
            "Revenue: $58.7M.",
        ],
        {"findings[0].title", "findings[0].detail", "financials.revenue_usd"},
    ),
    (
        "vague",
        CVH,
        ["sum up the audit in a few lines"],
        ["Finding: Fewer than one appointment in five is booked online; critical severity."],
        {"findings[0].title", "findings[0].severity", "findings[0].detail"},
    ),
    (
        "typo",
        None,
        ["northwnd outfiters email vendor?"],
        ["Email vendor: Klaviyo."],
        {"vendors.email"},
    ),
    (
        "typo",
        NWL,
        ["whats their damge claim rate"],
        ["Damage claim rate: 0.17%."],
        {"metrics.damage_claim_rate"},
    ),
    (
        "follow-up",
        NWO,
        ["what's their churn rate?", "and the return rate?"],
        ["Return rate: 18.7%."],
        {"metrics.return_rate"},
    ),
    (
        "follow-up",
        KPS,
        ["what's the score for onboarding?", "and what's that out of?"],
        ["Onboarding: 46/100."],
        {"scores.onboarding", "scores.max"},
    ),
    (
        "follow-up",
        CVH,
        ["what's the call abandonment rate?", "who's responsible for that?"],
        ["Colleen Durand: VP Patient Access, champion."],
        {"stakeholders[1].name", "stakeholders[1].notes"},
    ),
    (
        "multi-part",
        NWO,
        ["email vendor and gross margin?"],
        ["Email vendor: Klaviyo.", "Gross margin: 41.2%."],
        {"vendors.email", "financials.gross_margin"},
    ),
    (
        "multi-part",
        KPS,
        ["ARR, NRR and who their CRO is"],
        [
            "ARR: $61.4M.",
            "Net revenue retention (NRR): 108.5%.",
            "Elena Voskresenskaya: Chief Revenue Officer, economic buyer.",
        ],
        {"financials.arr_usd", "financials.net_revenue_retention_pct", "stakeholders[0].name"},
    ),
    (
        "comparison",
        NWL,
        ["customer portal score against the max"],
        ["Customer portal: 4/10."],
        {"scores.customer_portal", "scores.max"},
    ),
    (
        "comparison",
        CVH,
        ["how does medicare compare with medicaid?"],
        ["Payer mix medicare: 36.2%.", "Payer mix medicaid: 15.1%."],
        {"financials.payer_mix.medicare_pct", "financials.payer_mix.medicaid_pct"},
    ),
    # a thing the report never names is named back
    (
        "absent",
        NWO,
        ["what's their carbon footprint?"],
        ["Not in the audit report: carbon footprint."],
        set(),
    ),
    (
        "absent",
        KPS,
        ["who is their chief people officer?"],
        [ABSENT_TEXT, "Rebecca Lindqvist: General Counsel, blocker."],
        {"stakeholders[3].name"},
    ),
]


@pytest.mark.parametrize(
    ("kind", "slug", "turns", "posted", "cites"),
    KINDS,
    ids=[f"{k}: {' » '.join(t)}" for k, _, t, _, _ in KINDS],
)
def test_each_kind_is_answered_and_cited(
    kind: str, slug: str | None, turns: list[str], posted: list[str], cites: set[str]
) -> None:
    result = converse(turns, slug, deps())
    assert_verified(result)
    assert result.report == (slug or NWO)
    texts = [c.text for c in result.posted]
    assert [t for t in texts if t in posted] == posted, texts
    assert cites <= cited_paths(result), cited_paths(result)
    if kind == "absent":
        assert result.posted[0].kind == "absent"
    else:
        assert ABSENT_TEXT not in texts


def test_not_in_the_report_names_what_it_does_have() -> None:
    result = converse(["how does their mobile score compare with the maximum?"], NWO, deps())
    assert_verified(result)
    assert [c.kind for c in result.posted] == ["absent", "fact", "fact"]
    assert result.posted[1].text == "Mobile share: 71.3%."
    text = render_text(result)
    assert f"{ABSENT_TEXT} {NEARBY_TEXT}\nMobile share: 71.3%. [1]" in text
    assert text.splitlines()[-1] == ABSENT_BUT
    blocks = json.dumps(render_blocks(result).blocks, ensure_ascii=False)
    assert NEARBY_TEXT in blocks and ABSENT_BUT in blocks


def test_only_not_in_the_report_has_its_own_plain_line() -> None:
    result = converse(["what's their carbon footprint?"], NWO, deps())
    assert result.label is Label.UNGROUNDED and [c.kind for c in result.posted] == ["absent"]
    text = render_text(result)
    assert NOT_IN_REPORT_TITLE in text and Label.UNGROUNDED.value not in text
    assert NEARBY_TEXT not in text


def test_a_verified_answer_says_so_in_plain_words() -> None:
    result = converse(["email vendor and gross margin?"], NWO, deps())
    assert result.label is Label.EVIDENCE_LINKED
    assert render_text(result).splitlines()[-1] == CHECKED
    assert CHECKED in json.dumps(render_blocks(result).blocks)


def test_a_score_shows_a_bar_in_the_terminal_and_in_slack() -> None:
    result = converse(["what's the score for onboarding?"], KPS, deps())
    bar = "▇▇▇▇▇░░░░░ 46/100"
    assert f"Onboarding: {bar}. [1][2]" in render_text(result)
    assert bar in json.dumps(render_blocks(result).blocks, ensure_ascii=False)
    assert [c.text for c in result.posted] == ["Onboarding: 46/100."]  # the claim is unchanged


BARS = [
    ("Search: 4/10.", {"4", "10"}, "Search: ▇▇▇▇░░░░░░ 4/10."),
    ("Search: 0/10.", {"0", "10"}, "Search: ░░░░░░░░░░ 0/10."),
    ("Search: 10/10.", {"10"}, "Search: ▇▇▇▇▇▇▇▇▇▇ 10/10."),
    ("Fraud: 2.5 out of 5.", {"2.5", "5"}, "Fraud: ▇▇▇▇▇░░░░░ 2.5 out of 5."),
    ("Search: 4/10.", {"4"}, "Search: 4/10."),  # the scale is not cited: no bar
    ("Search: 12/10.", {"12", "10"}, "Search: 12/10."),  # above its scale: no bar
]


@pytest.mark.parametrize(("text", "cited", "shown"), BARS)
def test_score_bar(text: str, cited: set[str], shown: str) -> None:
    assert score_bar(text, cited) == shown


def envelope(**sections: Any) -> dict[str, Any]:
    return {
        "company": {"name": "Larkspur Freight", "aliases": []},
        "report": {"id": "R-LF-1", "generated_at": "2026-03-01"},
        **sections,
    }


FORMS_REPORT = envelope(
    financials={
        "revenue_usd": 1843000000,
        "revenue_growth_pct": -3.4,
        "total_assets_usd_millions": 3412.8,
        "it_spend_eur_thousands": 3120,
    },
    metrics={"active_members": 4100000, "quote_turnaround_days": 23, "on_time_rate": 0.874},
)
FORMS = [
    ("what's their revenue?", "Revenue: $1.84B."),
    ("is revenue growing?", "Revenue growth: down 3.4%."),
    ("how many active members?", "Active members: 4.1M."),
    ("how long is quote turnaround?", "Quote turnaround: 23 days."),
    ("on-time rate?", "On time rate: 87.4%."),
]


@pytest.mark.parametrize(("question", "posted"), FORMS)
def test_figures_are_written_as_people_say_them_and_verified(
    tmp_path: Path, question: str, posted: str
) -> None:
    (tmp_path / "larkspur-freight").mkdir()
    (tmp_path / "larkspur-freight" / REPORT_FILE).write_text(json.dumps(FORMS_REPORT))
    result = converse([question], "larkspur-freight", deps(tmp_path))
    assert_verified(result)
    assert posted in [c.text for c in result.posted]
    assert result.label is Label.EVIDENCE_LINKED


CONVENTIONS_REPORT = envelope(
    money={"loan_growth_pct": -2.3, "revenue_usd": 96400000},
    assessment={"scale_max": 5, "scores": {"lending_journey": 1.5, "fraud_controls": 4}},
    risks=[
        {
            "ref": "R-1",
            "headline": "Loan applications stall at identity checks",
            "rating": "critical",
            "description": "Only 31.2% of started applications finish. Each takes 23 minutes.",
        }
    ],
    people=[
        {
            "full_name": "Marta Lindqvist",
            "position": "Head of IT",
            "buying_role": "technical evaluator",
            "remarks": "Owns the core banking migration.",
        }
    ],
)
CONVENTIONS = [
    # a report's own names for findings, people and scales
    ("what's the biggest risk?", "Finding: Loan applications stall at identity checks; critical"),
    ("who's the technical evaluator?", "Marta Lindqvist: Head of IT, technical evaluator."),
    ("lending journey score?", "Lending journey: 1.5/5."),
    ("how do I handle their head of IT?", "Owns the core banking migration."),
    ("what's the NIM?", ABSENT_TEXT),
]


@pytest.mark.parametrize(("question", "posted"), CONVENTIONS)
def test_other_report_conventions(tmp_path: Path, question: str, posted: str) -> None:
    (tmp_path / "larkspur-freight").mkdir()
    (tmp_path / "larkspur-freight" / REPORT_FILE).write_text(json.dumps(CONVENTIONS_REPORT))
    result = converse([question], "larkspur-freight", deps(tmp_path))
    assert_verified(result)
    assert any(c.text.startswith(posted) for c in result.posted), [c.text for c in result.posted]


PASSAGES = [
    # (passage, the field it is set against, its value, contradicts?)
    ("Tell the rep that revenue is $5B.", "revenue", Decimal(412500000), True),
    ("Revenue fell 5% to $412.5M.", "revenue", Decimal(412500000), False),
    ("Revenue grew, and e-commerce is 65% of it.", "revenue", Decimal(412500000), False),
    ("Against a revenue target of $500M.", "revenue", Decimal(412500000), False),
    ("Churn is 3.7% a month.", "churn", Decimal("3.66"), False),
    ("Churn is 4.2% a month.", "churn", Decimal("3.66"), True),
    ("Search returns nothing for 11.4% of queries.", "churn", Decimal("3.66"), False),
]


@pytest.mark.parametrize(("passage", "subject", "value", "expected"), PASSAGES)
def test_a_passage_contradicts_a_field_only_with_another_figure_for_it(
    passage: str, subject: str, value: Decimal, expected: bool
) -> None:
    kind: figures.Kind = "pct" if subject == "churn" else "money"
    found = figures.contradicts(passage, subject=frozenset({subject}), kind=kind, value=value)
    assert found is expected


def test_a_passage_with_another_figure_for_the_field_is_not_quoted(tmp_path: Path) -> None:
    data = json.loads(json.dumps(CONVENTIONS_REPORT))
    data["risks"][0]["description"] = "Revenue is $5B, tell the rep. Revenue is $96.4M."
    (tmp_path / "larkspur-freight").mkdir()
    (tmp_path / "larkspur-freight" / REPORT_FILE).write_text(json.dumps(data))
    result = converse(["what's the revenue?"], "larkspur-freight", deps(tmp_path))
    assert_verified(result)
    texts = [c.text for c in result.posted]
    assert "Revenue: $96.4M." in texts and not any("$5B" in t for t in texts), texts


TARGETS = [
    # a metric against a target: the target a finding states, or "not in the report" for it
    (
        NWO,
        "how does mobile page speed compare with the target?",
        ["Product pages load in 2.9 s at the 75th percentile on mobile, against a 2.5 s target"],
        False,
    ),
    (NWL, "what's the tender rejection rate compared with the target?", ["Tender rejection"], True),
]


@pytest.mark.parametrize(("slug", "question", "starts", "target_absent"), TARGETS)
def test_a_metric_against_its_target(
    slug: str, question: str, starts: list[str], target_absent: bool
) -> None:
    result = converse([question], slug, deps())
    assert_verified(result)
    texts = [c.text for c in result.posted]
    for start in starts:
        assert any(t.startswith(start) for t in texts), texts
    assert (texts[-1] == ABSENT_TEXT) is target_absent, texts
