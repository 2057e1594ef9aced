"""Issue 21: concepts from a report's structure, honest absence part by part, follow-ups,
coaching in plain words, a question's text read plainly, unknown and double companies,
figures and footnotes as a rep says them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from prism_slack.llm import offline_concepts as concepts
from prism_slack.llm.offline import OfflineAnswerer
from prism_slack.llm.offline_index import index_for
from prism_slack.llm.playbook import load_playbook
from prism_slack.pipeline.compose import absent_text
from prism_slack.pipeline.question import english, plain
from prism_slack.pipeline.result import Footnote, Outcome, TurnResult
from prism_slack.pipeline.turn import TurnDeps, run_turn
from prism_slack.ports import Conversation
from prism_slack.render.blocks import render_blocks
from prism_slack.render.split import clip_sentence
from prism_slack.reports.detect import unknown_company
from prism_slack.reports.model import build_report
from prism_slack.reports.store import FileReportStore
from prism_slack.state.redis_store import memory_store

NWO = "northwind-outfitters"


def test_slack_markup_is_read_as_the_words_it_shows() -> None:
    text = "<!channel> <@U123> <@W9|ana> kestrelpoint win rate? see <https://x.io/d|the deck>"
    assert plain(text) == "kestrelpoint win rate? see the deck"
    assert plain("<#C1|deals> &amp; <mailto:a@b.co>") == "#deals & a@b.co"


@pytest.mark.parametrize(
    "text",
    [
        "¿Cuál es su tasa de éxito?",
        "Wie hoch ist der Umsatz?",
        "他们的收入是多少？",
        "Quel est leur chiffre d'affaires ?",
    ],
)
def test_another_language_is_recognised(text: str) -> None:
    assert not english(text)


@pytest.mark.parametrize(
    "text",
    [
        "hw mny custmers",
        "whats thier win rtae",
        "nortwind outfiters revenue?",
        "revpar",
        "tl;dr?",
        "opex fy23 vs fy25",  # a code glued to its number ("fy23") is no word of a language
    ],
)
def test_english_with_typos_and_shorthand_stays_english(text: str) -> None:
    assert english(text)


def test_an_unknown_company_name_is_found_as_written() -> None:
    assert unknown_company("what's Acme Corp revenue") == "Acme Corp"
    assert unknown_company("revenue of globex inc?") == "globex inc"
    assert unknown_company("tell me about Initech") == "Initech"
    assert unknown_company("What is their revenue") is None
    assert unknown_company("who is the CFO") is None
    assert unknown_company("Tell me about Initech", capitalised=False) is None


def test_named_absent_forms_carry_no_figure_or_clause() -> None:
    for ok in ("Not in the audit report: page speed.", "The report doesn't name a CFO."):
        assert absent_text(ok) == ok
    for bad in (
        "The report doesn't name a CFO, but revenue is $5M.",
        "Not in the audit report: Acme.",
    ):
        assert absent_text(bad) == "That's not in the audit report."


def test_clip_sentence_cuts_at_a_sentence_end() -> None:
    text = "First sentence is here. " * 10
    cut = clip_sentence(text, 60)
    assert cut.endswith("here. …") and len(cut) <= 60


ROLE_REPORT: dict[str, Any] = {
    "company": {"name": "Quill Labs", "aliases": []},
    "report": {"id": "R-1", "generated_at": "2026-01-01"},
    "team": [
        {"fullName": "Ada Park", "jobTitle": "VP Finance", "buyingRole": "blocker"},
        {"fullName": "Ben Roy", "jobTitle": "Head of Sales", "buyingRole": "champion"},
    ],
    "marketLandscape": {"mainRivals": [{"name": "Beacon Data", "note": "Cheaper."}]},
}


def test_roles_competitors_and_age_come_from_the_report_structure() -> None:
    index = index_for(build_report("quill", ROLE_REPORT))
    people = index.people()
    assert [p.get("name") for p in people] == ["Ada Park", "Ben Roy"]  # camelCase keys
    cfo = concepts.role_asked("what about their CFO")
    assert cfo is not None
    exact, near = concepts.holders(cfo, people)
    assert exact == [] and [p.get("name") for p in near] == ["Ada Park"]
    champion = concepts.role_asked("who's our champion")
    assert (
        champion is not None and concepts.holders(champion, people)[0][0].get("name") == "Ben Roy"
    )
    assert concepts.asks_competitors("who are they up against")
    assert concepts.asks_competitors("who do we lose to")
    assert [i.path for i in concepts.competitor_items(index)] == ["marketLandscape.mainRivals[0]"]
    named = concepts.competitor_named(index, "how do I position against beacon")
    assert named is not None and named.path == "marketLandscape.mainRivals[0]"
    assert concepts.asks_risks("anything I should worry about?")
    assert concepts.asks_age("how old is the company")
    assert concepts.age_items(index) == []


def _deps() -> TurnDeps:
    playbook = load_playbook()
    return TurnDeps(
        reports=FileReportStore(Path(__file__).resolve().parent.parent / "reports"),
        state=memory_store(),
        model=OfflineAnswerer(),
        playbook_text=playbook.render(),
        vocabulary=playbook.vocabulary(),
        enforce_access=False,
    )


def _ask(question: str, report: str | None = NWO, *context: str) -> TurnResult:
    turn_deps = _deps()
    where = Conversation(team="T", channel="C", thread="t1")
    result = None
    for q in [*context, question]:
        result = run_turn(q, where, turn_deps, report=report)
    assert result is not None
    return result


def _texts(result: TurnResult) -> list[str]:
    return [p.text for p in result.posted]


def test_competitors_are_listed_and_their_absence_said_plainly() -> None:
    texts = _texts(_ask("who are they up against"))
    assert any(t.startswith("Ridgeline Supply Co") for t in texts)
    assert any(t.startswith("Tamarack & Pine") for t in texts)
    assert _texts(_ask("who are their competitors", "cedar-valley-health")) == [
        "The report doesn't list any competitors."
    ]


def test_a_role_the_report_lacks_offers_the_nearest_person() -> None:
    texts = _texts(_ask("what about their CFO", NWO, "who is the champion"))
    assert texts[0] == "The report doesn't name a CFO."
    assert texts[1].startswith("Grant Siebold: VP Finance")


def test_each_part_is_answered_or_named_as_missing() -> None:
    texts = _texts(_ask("when is their fiscal year end and how old is the company"))
    assert any(t.startswith("Fiscal year end") for t in texts)
    assert "Founded: 2004." in texts
    assert not any("not in the" in t.lower() for t in texts)
    both = _texts(_ask("is checkout better than search?"))
    assert any(t.startswith("Checkout experience: 7/10") for t in both)
    assert any(t.startswith("Search relevance: 4/10") for t in both)


def test_a_near_fact_is_offered_as_such() -> None:
    texts = _texts(_ask("what's their EBITDA in dollars"))
    assert texts[0] == "Not in the audit report: EBITDA in dollars."
    assert texts[1] == "EBITDA margin: 11.8%."


def test_worries_are_the_most_severe_findings_each_with_a_figure() -> None:
    result = _ask("anything I should worry about?")
    figures = [t for t in _texts(result) if re.search(r"\d", t)]
    assert len(figures) >= 3


def test_coaching_has_no_internal_codes_and_leans_on_the_person() -> None:
    result = _ask("how do I handle her", NWO, "who is the economic buyer")
    texts = _texts(result)
    assert not any(re.search(r"\b[MF]\d+\b", t) for t in texts)
    assert any(t.startswith("Owns the digital P&L") for t in texts)  # her recorded remit
    assert any(p.kind == "coaching" for p in result.posted)
    assert any("search" in t.lower() for t in texts if not t.startswith("Owns"))  # her finding


def test_a_foreign_question_gets_a_plain_line_not_absent() -> None:
    result = _ask("¿Cuál es su tasa de éxito?")
    assert result.outcome is Outcome.INVALID
    assert "English" in (result.message or "")


def test_markup_is_stripped_before_reading() -> None:
    result = _ask("<!channel> <@U123> kestrelpoint win rate?", None)
    assert result.report == "kestrelpoint-software"
    assert any(t.startswith("Win rate: 21.6%") for t in _texts(result))


def test_unknown_and_double_companies() -> None:
    unknown = _ask("what's Acme Corp revenue", None)
    assert unknown.outcome is Outcome.NEEDS_BINDING
    assert unknown.message == "I have no report for Acme Corp; I have:"
    assert "Northwind Outfitters" in unknown.candidates
    double = _ask("compare northwind outfitters and kestrelpoint revenue", None)
    assert double.outcome is Outcome.AMBIGUOUS
    assert "Kestrelpoint Software and Northwind Outfitters" in (double.message or "")


def test_slack_footnotes_read_label_then_value_then_path() -> None:
    result = _ask("what's their churn")
    assert result.footnotes[0].label == "Churn rate"
    assert result.footnotes[0].value == "2.11%"
    blocks = str(render_blocks(result))
    assert "[1] Churn rate = 2.11% · `metrics.churn_rate`" in blocks
    bare = Footnote(n=1, path="a.b", value="x")
    assert bare.label == ""
