"""What a new rep meets on a call, each on a small report of its own: the company a message
names, questions in another language, follow-ups on a figure, coaching built on what a
person's record says, and the parts of a question the report lacks. Every answer goes
through the whole turn, verifier included."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from offline_support import ask, cited, envelope, offline_deps, texts

from prism_slack.llm import lexicon
from prism_slack.pipeline.question import ENGLISH_ONLY, english
from prism_slack.pipeline.result import Outcome
from prism_slack.pipeline.turn import TurnDeps, run_turn
from prism_slack.ports import Conversation
from prism_slack.render import render_text

HERON: dict[str, Any] = {
    **envelope(
        "Heronwick Analytics",
        financials={"revenue_usd": 21400000, "revenue_growth_pct": 12.0},
        metrics={
            "win_rate_pct": 18.5,
            "refund_rate": 0.021,
            "self_serve_share_pct": 41.0,
            "assisted_share_pct": 59.0,
            "newsletter_subscribers": 48200,
        },
        scores={"max": 10, "onboarding": 3, "self_serve": 6},
        people=[
            {
                "full-name": "Odile Marchetti",
                "position": "Chief Financial Officer",
                "buying-role": "blocker",
                "needs": ["Payback inside one budget year"],
                "objections": ["Another dashboard tool was dropped after six months"],
            },
        ],
        findings=[
            {
                "title": "Refunds follow a broken onboarding",
                "severity": "critical",
                "detail": "2.1% of orders are refunded, most within a week of a failed "
                "onboarding call. Nobody owns the onboarding script.",
            },
            {
                "title": "Dashboard payback goes unmeasured",
                "severity": "medium",
                "detail": "No dashboard has a payback target, so budget owners cannot "
                "compare tools.",
            },
        ],
    ),
    "company": {
        "name": "Heronwick Analytics",
        "aliases": ["Heronwickpoint"],
        "domain": "heronwickpoint.io",
    },
}


@pytest.fixture(scope="module")
def deps(tmp_path_factory: pytest.TempPathFactory) -> TurnDeps:
    return offline_deps(tmp_path_factory.mktemp("reports"), {"heron": HERON})


def turn(deps: TurnDeps, question: str, *, report: str | None = None) -> str:
    where = Conversation(team="T", channel="C", thread=question)
    return render_text(run_turn(question, where, deps, report=report))


def test_the_domain_ending_is_no_typo_that_swallows_the_next_word(deps: TurnDeps) -> None:
    """ "heronwickpoint win rate" is not "heronwickpoint.io": the word after the name is the ask."""
    close = ask(deps, "heron", "heronwickpoint win rate?")
    assert cited(close) == ["metrics.win_rate_pct"]
    assert "Win rate: 18.5%." in turn(deps, "heronwickpoint.io win rate?")


def test_a_question_in_another_script_around_a_latin_name_is_not_english(
    deps: TurnDeps,
) -> None:
    for question in ("Heronwick的收入是多少？", "Каков доход Heronwick?"):
        where = Conversation(team="T", channel="C", thread=question)
        result = run_turn(question, where, deps)
        assert result.outcome is Outcome.INVALID and result.message == ENGLISH_ONLY
    assert english("Heronwick revenue for Müller GmbH?")  # a name leans to no language


def test_an_unknown_company_is_named_without_its_possessive(deps: TurnDeps) -> None:
    assert turn(deps, "what's Acme's revenue?").startswith("I have no report for Acme; I have:")


def test_another_company_asked_of_a_pinned_report_is_named_back(deps: TurnDeps) -> None:
    reply = turn(deps, "Acme Corp revenue?", report="heron")
    assert reply.startswith("I have no report for Acme Corp; I have:")
    assert "$21.4M" not in reply


def test_coaching_for_a_person_states_their_needs_and_objections(deps: TurnDeps) -> None:
    handled = ask(deps, "heron", "how do I get the CFO comfortable")
    assert cited(handled)[:5] == [
        "people[0].full-name",
        "people[0].position",
        "people[0].buying-role",
        "people[0].needs[0]",
        "people[0].objections[0]",
    ]
    said = texts(handled)
    assert "Needs: Payback inside one budget year." in said
    # the finding their record speaks of (payback, dashboard), not only the most severe
    assert any(c.startswith("findings[1].") for c in cited(handled))
    coaching = [p for p in handled.posted if p.kind == "coaching"]
    assert coaching[0].text.startswith("Handle the objection")
    assert coaching[-1].text.startswith("Ask:")
    assert not any("M1" in p.text or "F5" in p.text for p in coaching)


def test_last_year_after_a_one_period_figure_says_the_period_is_missing(
    deps: TurnDeps,
) -> None:
    earlier = ask(deps, "heron", "what's their revenue", "and last year?")
    assert texts(earlier)[0] == "Not in the audit report: revenue for an earlier period."
    assert "financials.revenue_usd" in cited(earlier)  # the figure it has, as a near fact


def test_a_missing_part_offers_no_near_fact_that_reads_as_its_answer(deps: TurnDeps) -> None:
    parts = ask(deps, "heron", "refund rate, mobile share and page speed")
    assert cited(parts)[:1] == ["metrics.refund_rate"]
    assert texts(parts)[-2:] == [
        "Not in the audit report: mobile share.",
        "Not in the audit report: page speed.",
    ]
    assert len([p for p in parts.posted if p.kind == "fact"]) <= 2
    shown = render_text(parts)
    assert "Part of what was asked is not in the audit report" in shown


def test_a_comparison_reads_a_shared_word_on_both_sides(deps: TurnDeps) -> None:
    """ "self serve vs assisted share": two shares, not the self-serve score and then no
    assisted score."""
    both = ask(deps, "heron", "self serve vs assisted share")
    assert cited(both)[0] == "metrics.self_serve_share_pct"
    assert "Assisted share: 59%." in texts(both)
    assert all(p.kind == "fact" for p in both.posted)


def test_a_count_named_by_where_it_is_answers_it(deps: TurnDeps) -> None:
    """ "people on their newsletter": the subscribers count them, said as such."""
    subscribers = ask(deps, "heron", "how many ppl are on their newsletter")
    assert texts(subscribers) == ["Newsletter subscribers: 48,200."]


@pytest.mark.parametrize(
    "question",
    ["what's the story here", "where should i focus", "3 talking points", "3 bullets on heronwick"],
)
def test_a_vague_ask_for_the_story_is_a_summary(deps: TurnDeps, question: str) -> None:
    story = ask(deps, "heron", question)
    assert not any(p.kind == "absent" for p in story.posted)
    assert cited(story)[0] == "findings[0].title"  # the most severe finding first


def test_a_rate_the_report_does_not_hold_is_absent_with_what_it_has(
    tmp_path: Path,
) -> None:
    """ "website bounce rate": the website is there, no figure of it is."""
    site = envelope("Quarry Lane Dental", website={"cms": "Sitecore", "host": "WP Engine"})
    bounce = ask(
        offline_deps(tmp_path, {"quarry": site}), "quarry", "what's the website bounce rate"
    )
    assert bounce.posted[0].kind == "absent"
    assert "Sitecore" in " ".join(texts(bounce))  # what it has, offered as such


def test_a_tool_used_for_a_measure_s_subject_is_the_tool(tmp_path: Path) -> None:
    """ "what are they using for reviews": the reviews tool, not what customers think."""
    shop = envelope("Quarry Lane Outdoor", metrics={"nps": 41}, vendors={"reviews": "Bazaarvoice"})
    reviews = ask(
        offline_deps(tmp_path, {"quarry": shop}), "quarry", "what are they using for reviews"
    )
    assert cited(reviews) == ["vendors.reviews"]


def test_tldr_is_one_word_not_two_parts(deps: TurnDeps) -> None:
    brief = ask(deps, "heron", "tl;dr before my call?")
    assert not any(p.kind == "absent" for p in brief.posted)
    assert cited(brief)[0] == "findings[0].title"


LARKSPUR: dict[str, Any] = envelope(
    "Larkspur Tiles",
    metrics={"monthly_sessions": 412000, "quote_rejection_rate": 0.083, "return_rate": 0.04},
    findings=[
        {
            "title": "Quotes go out two days late",
            "severity": "high",
            "detail": "8.3% of quotes are rejected after the buyer has already ordered.",
        },
        {"title": "Returns are logged by hand", "severity": "low", "detail": "4% return."},
    ],
)


@pytest.fixture(scope="module")
def lark(tmp_path_factory: pytest.TempPathFactory) -> TurnDeps:
    return offline_deps(tmp_path_factory.mktemp("reports"), {"lark": LARKSPUR})


def test_traffic_is_asked_of_sessions(lark: TurnDeps) -> None:
    """ "how much traffic does the site get": a site's traffic is its sessions (visits)."""
    assert cited(ask(lark, "lark", "how much traffic does the site get"))[:1] == [
        "metrics.monthly_sessions"
    ]


def test_a_phrasal_verb_round_its_object_is_read_whole(lark: TurnDeps) -> None:
    """ "turn offers down" is to reject them, the particle after the object as reps say it."""
    for question in ("how often do they turn offers down", "how often do they turn down offers"):
        parts = ask(lark, "lark", question)
        assert parts.posted[0].kind == "fact", question
        assert cited(parts)[:1] == ["metrics.quote_rejection_rate"], question
        assert texts(parts)[1:] == ["The report doesn't mention offers."], question


def test_the_thing_to_hammer_on_is_a_talking_point(lark: TurnDeps) -> None:
    parts = ask(lark, "lark", "whats the one thing to hammer on")
    assert not any(p.kind == "absent" for p in parts.posted)
    assert cited(parts)[0] == "findings[0].title"


def test_a_figure_row_with_a_note_is_named_by_its_unit(tmp_path: Path) -> None:
    """ "how many locations": a row `{label: Sites, value: 40, unit: locations, note: …}` is
    a figure that counts locations; its note beside it makes it no other record."""
    report = envelope(
        "Wrenfield Optics",
        profile=[
            {"label": "Headquarters", "value": "Leeds, United Kingdom"},
            {"label": "Sites", "value": 40, "unit": "locations", "note": "31 UK, 9 Ireland"},
        ],
    )
    deps = offline_deps(tmp_path, {"wren": report})
    parts = ask(deps, "wren", "how many locations have they got")
    assert parts.posted[0].kind == "fact"
    assert cited(parts)[0] == "profile[1].value"


def test_picking_up_the_phone_is_answering_it() -> None:
    """ "how quickly do they pick up the phone" asks how soon calls are answered."""
    for question in ("how quickly do they pick up the phone", "how quick do they pick up calls"):
        terms = lexicon.terms(lexicon.words(question))
        assert terms[0] == "duration", question
        assert "answer" in terms and "pick" not in terms, question
    assert "answer" not in lexicon.terms(lexicon.words("did sales pick up last year"))


def test_a_system_acronym_names_the_tools_its_initials_label(tmp_path: Path) -> None:
    """ "what WMS do they use": the S is the system; "Warehouse management (UK)" and
    "(Ireland)" are spelled by the rest of its initials."""
    report = envelope(
        "Kilnford Freight",
        stack=[
            {"label": "Warehouse management (UK)", "value": "Manhattan SCALE"},
            {"label": "Warehouse management (Ireland)", "value": "Mantis"},
            {"label": "CRM", "value": "Pipedrive"},
        ],
    )
    deps = offline_deps(tmp_path, {"kiln": report})
    parts = ask(deps, "kiln", "what WMS do they use")
    assert parts.posted[0].kind == "fact"
    assert {"stack[0].value", "stack[1].value"} <= set(cited(parts))
    assert "stack[2].value" not in cited(parts)


def test_a_people_s_word_names_its_place_and_bring_in_is_revenue(tmp_path: Path) -> None:
    """ "how much does the canadian business bring in": "canadian" names the report's
    Canada, "bring in" asks revenue, and "bring in" spells no "BI" key."""
    report = envelope(
        "Wrenfield Optics",
        financials=[
            {"label": "Revenue, group (FY2025)", "value": 612.4, "unit": "USD m"},
            {"label": "Revenue, Wrenfield Canada (FY2025)", "value": 58.9, "unit": "CAD m"},
        ],
        stack=[{"label": "BI", "value": "Looker"}],
        notes={"currency": "Canadian figures are in CAD, not translated."},
    )
    deps = offline_deps(tmp_path, {"wren": report})
    parts = ask(deps, "wren", "how much does the canadian business bring in")
    assert cited(parts)[0].startswith("financials[1]")
    assert not any(path.startswith("stack") for path in cited(parts))


def test_so_much_per_unit_counts_nothing(tmp_path: Path) -> None:
    """ "how many cranes": a crane rate in moves per hour counts no cranes; asked per
    unit ("how many moves per hour"), it answers."""
    report = envelope(
        "Wrenfield Port",
        operations={"Crane rate (gross moves per hour)": 27.5, "Berths (count)": 11},
    )
    deps = offline_deps(tmp_path, {"wren": report})
    parts = ask(deps, "wren", "how many cranes do they run")
    assert parts.posted[0].kind == "absent"
    assert "cranes" in parts.posted[0].text
    per_hour = ask(deps, "wren", "how many crane moves per hour")
    assert cited(per_hour)[0] == 'operations["Crane rate (gross moves per hour)"]'
