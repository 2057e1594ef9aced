"""Both renderers over a table of hand-built turn results, pinned by syrupy snapshots.

Snapshots live in tests/__snapshots__/test_render.ambr; update with
``pytest tests/test_render.py --snapshot-update`` and read the diff before committing.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from syrupy.assertion import SnapshotAssertion

from prism_slack.claims import Claim
from prism_slack.pipeline.result import Footnote, Outcome, PostedClaim, TurnResult
from prism_slack.ports import AuditRecord, Conversation, WithheldClaim
from prism_slack.render import (
    FEEDBACK_ACTION,
    FEEDBACK_BLOCK_ID,
    feedback_value,
    message_problems,
    render_blocks,
    render_ephemeral,
    render_text,
)
from prism_slack.render.view import (
    CHECKED_PLAIN,
    UNCHECKED_MARK,
    UNCHECKED_PLAIN,
    footnote_text,
)
from prism_slack.verdict import Label, Method, Rung

WHERE = Conversation(team="T1", channel="C1", thread="1700000000.000100")
WITHHELD_TEXT = "Their churn doubled to 9% last quarter."
"""A withheld claim's text: it must never appear in any rendering."""


def audit(turn_id: str) -> AuditRecord:
    return AuditRecord(
        turn_id=turn_id,
        at=dt.datetime(2026, 3, 10, 9, 30, tzinfo=dt.UTC),
        conversation=WHERE,
        report="northwind",
        report_id="NW-2026-03",
        report_digest="d" * 64,
        evidence_root="e" * 64,
        model="scripted",
        prompt_digest="p" * 64,
    )


def fact(text: str, *cites: int, rewritten: bool = False) -> PostedClaim:
    rung = Rung.EVIDENCE_WARRANTED if not rewritten else Rung.ENTAILMENT_VERIFIED
    return PostedClaim(
        text=text, kind="fact", citations=list(cites), rung=rung, rewritten=rewritten
    )


def coaching(text: str, *cites: int) -> PostedClaim:
    rung = Rung.EVIDENCE_WARRANTED if cites else Rung.UNLINKED
    return PostedClaim(text=text, kind="coaching", citations=list(cites), rung=rung)


def absent() -> PostedClaim:
    return PostedClaim(
        text="That's not in the audit report.", kind="absent", citations=[], rung=Rung.UNLINKED
    )


def withheld(text: str = WITHHELD_TEXT) -> WithheldClaim:
    claim = Claim(text=text, kind="fact", evidence=["metrics.churn_pct"])
    return WithheldClaim(claim=claim, reasons=["anchor_warrant: '9%' matches no cited value"])


FOOTNOTES = [
    Footnote(n=1, path="financials.arr_usd", value="4137220"),
    Footnote(n=2, path="vendors.crm", value="HubSpot"),
    Footnote(n=3, path="findings[1].detail", value="Lead routing rules live in a spreadsheet."),
]


def answered(
    posted: list[PostedClaim],
    label: Label,
    *,
    method: Method = Method.DETERMINISTIC,
    footnotes: list[Footnote] | None = None,
    withheld_claims: list[WithheldClaim] | None = None,
    notice: str | None = None,
    turn_id: str | None = "turn-0001",
) -> TurnResult:
    return TurnResult(
        outcome=Outcome.ANSWERED,
        conversation=WHERE,
        question="What do we know about their stack?",
        report="northwind",
        company="Northwind Traders",
        report_id="NW-2026-03",
        report_date=dt.date(2026, 3, 9),
        notice=notice,
        posted=posted,
        footnotes=FOOTNOTES if footnotes is None else footnotes,
        withheld=withheld_claims or [],
        label=label,
        method=method,
        audit=audit(turn_id) if turn_id else None,
    )


def not_answered(
    outcome: Outcome, message: str | None, candidates: list[str] | None = None
) -> TurnResult:
    return TurnResult(
        outcome=outcome,
        conversation=WHERE,
        question="how big are they?",
        message=message,
        candidates=candidates or [],
        audit=audit("turn-0002"),
    )


CASES: dict[str, TurnResult] = {
    "evidence_linked_facts": answered(
        [
            fact("Their ARR is $4.1M.", 1),
            fact("Their CRM is HubSpot, and lead routing lives in a spreadsheet.", 2, 3),
        ],
        Label.EVIDENCE_LINKED,
    ),
    "partial_withheld_and_rewritten": answered(
        [
            fact("Their ARR is $4.1M.", 1),
            fact("They run HubSpot as their CRM.", 2, rewritten=True),
        ],
        Label.EVIDENCE_LINKED_PARTIAL,
        method=Method.JUDGE,
        footnotes=FOOTNOTES[:2],
        withheld_claims=[withheld()],
    ),
    "two_withheld": answered(
        [fact("Their ARR is $4.1M.", 1)],
        Label.EVIDENCE_LINKED_PARTIAL,
        footnotes=FOOTNOTES[:1],
        withheld_claims=[withheld(), withheld("Their CFO is Dana Wu.")],
    ),
    "facts_coaching_absent_with_rebind": answered(
        [
            fact("Their CRM is HubSpot.", 2),
            absent(),
            coaching("Open by asking who owns the lead-routing rules.", 3),
            coaching("Keep the first call to discovery."),
        ],
        Label.EVIDENCE_LINKED,
        footnotes=FOOTNOTES[1:],
        notice="Now answering from the Northwind Traders report (was: Contoso Pharma).",
    ),
    "coaching_only": answered(
        [
            coaching("Lead with a question about their renewal timeline."),
            coaching("Bring a customer story from their industry."),
        ],
        Label.COACHING_ONLY,
        footnotes=[],
    ),
    "ungrounded_absent": answered([absent()], Label.UNGROUNDED, footnotes=[]),
    "ungrounded_zero_claims": answered([], Label.UNGROUNDED, footnotes=[]),
    "ungrounded_all_withheld": answered(
        [], Label.UNGROUNDED, footnotes=[], withheld_claims=[withheld()]
    ),
    "long_footnote_value_no_turn_id": answered(
        [fact("The audit lists their findings.", 1)],
        Label.EVIDENCE_LINKED,
        footnotes=[Footnote(n=1, path="findings", value="severity: high; detail: " + "x" * 300)],
        turn_id=None,
    ),
    "needs_binding": not_answered(
        Outcome.NEEDS_BINDING,
        "I don't know which company you mean. Bind one with `/prism bind <company>`.",
        ["Northwind Traders", "Contoso Pharma"],
    ),
    "ambiguous": not_answered(
        Outcome.AMBIGUOUS,
        "Two companies fit “acme”: which one?",
        ["Acme Robotics", "Acme Foods"],
    ),
    "failed": not_answered(Outcome.FAILED, "The model timed out; please ask again."),
    "refused": not_answered(Outcome.REFUSED, "You're asking too fast; wait a minute."),
    "failed_without_message": not_answered(Outcome.FAILED, None),
}


@pytest.mark.parametrize("name", list(CASES))
def test_text_snapshot(name: str, snapshot: SnapshotAssertion) -> None:
    assert render_text(CASES[name]) == snapshot


@pytest.mark.parametrize("name", list(CASES))
def test_blocks_snapshot(name: str, snapshot: SnapshotAssertion) -> None:
    message = render_blocks(CASES[name])
    assert message_problems(message.text, message.blocks) == []
    assert message.model_dump() == snapshot


def test_text_colour_snapshot(snapshot: SnapshotAssertion) -> None:
    out = render_text(CASES["partial_withheld_and_rewritten"], color=True)
    assert "\x1b[" in out
    assert out.replace("\x1b", "␛") == snapshot


def test_colour_only_when_asked() -> None:
    for result in CASES.values():
        plain = render_text(result)
        assert "\x1b" not in plain
        coloured = render_text(result, color=True)
        assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain


@pytest.mark.parametrize("name", list(CASES))
def test_withheld_text_never_shown(name: str) -> None:
    result = CASES[name]
    for text in (render_text(result), render_blocks(result).model_dump_json()):
        for w in result.withheld:
            assert w.claim.text not in text
        assert "9%" not in text and "Dana Wu" not in text


@pytest.mark.parametrize("name", list(CASES))
def test_withheld_count_and_label_shown(name: str) -> None:
    result = CASES[name]
    text = render_text(result)
    dumped = render_blocks(result).model_dump_json()
    n = len(result.withheld)
    if n:
        line = (
            "⚠ 1 statement withheld — I couldn't verify it against the audit report."
            if n == 1
            else f"⚠ {n} statements withheld — I couldn't verify them against the audit report."
        )
        assert line in text
        contexts = [b for b in render_blocks(result).blocks if b["type"] == "context"]
        assert any(b["elements"][0]["text"] == line for b in contexts)
    else:
        assert "withheld" not in text
    if result.outcome is Outcome.ANSWERED:
        assert result.label is not None
        title = "Coaching only" if result.label is Label.COACHING_ONLY else result.label.value
        if result.posted and all(c.kind == "absent" for c in result.posted):
            title = "NOT IN THE REPORT"  # its own plain line, not UNGROUNDED
        assert title in text and title in dumped
    else:
        assert not any(label.value in text for label in Label)
        assert not any(label.value in dumped for label in Label)


@pytest.mark.parametrize(
    ("label", "method", "expected"),
    [
        (
            Label.EVIDENCE_LINKED,
            Method.DETERMINISTIC,
            "EVIDENCE-LINKED · via deterministic anchors",
        ),
        (
            Label.EVIDENCE_LINKED_PARTIAL,
            Method.JUDGE,
            "EVIDENCE-LINKED-PARTIAL · via deterministic anchors + judge",
        ),
        (Label.COACHING_ONLY, Method.DETERMINISTIC, "Coaching only — no report facts stated"),
        (Label.UNGROUNDED, Method.DETERMINISTIC, "UNGROUNDED — nothing in this reply is backed"),
    ],
)
def test_label_line(label: Label, method: Method, expected: str) -> None:
    result = answered([fact("Their ARR is $4.1M.", 1)], label, method=method)
    assert any(line.startswith(expected) for line in render_text(result).splitlines()[-2:])
    label_block = render_blocks(result).blocks[-2]["elements"][0]["text"]
    plain = label_block.replace("*", "")
    assert expected in plain


def test_feedback_buttons_carry_the_vote_and_the_turn_id() -> None:
    message = render_blocks(CASES["evidence_linked_facts"])
    actions = message.blocks[-1]
    assert (actions["type"], actions["block_id"]) == ("context_actions", FEEDBACK_BLOCK_ID)
    [buttons] = actions["elements"]
    assert (buttons["type"], buttons["action_id"]) == ("feedback_buttons", FEEDBACK_ACTION)
    assert buttons["positive_button"]["value"] == feedback_value("up", "turn-0001")
    assert buttons["negative_button"]["value"] == feedback_value("down", "turn-0001")
    assert buttons["positive_button"]["text"] == {
        "type": "plain_text",
        "text": "Helpful",
        "emoji": True,
    }
    assert message_problems(message.text, message.blocks) == []


@pytest.mark.parametrize(
    ("name", "feedback"),
    [
        ("evidence_linked_facts", False),
        ("long_footnote_value_no_turn_id", True),
        ("needs_binding", True),
        ("failed", True),
    ],
)
def test_no_feedback_buttons(name: str, feedback: bool) -> None:
    blocks = render_blocks(CASES[name], feedback=feedback).blocks
    assert all(b["type"] != "actions" for b in blocks)


def test_footnote_value_truncated_with_ellipsis() -> None:
    text = render_text(CASES["long_footnote_value_no_turn_id"])
    line = next(ln for ln in text.splitlines() if ln.startswith("[1] findings = "))
    value = line.removeprefix("[1] findings = ")
    assert value.endswith("…")
    assert len(value) <= 200


def test_same_content_in_both_renderers() -> None:
    for result in CASES.values():
        text = render_text(result)
        dumped = render_blocks(result).model_dump_json()
        for claim in result.posted:
            assert claim.text in text
            assert claim.text in dumped
        for footnote in result.footnotes:
            assert footnote.path in text and footnote.path in dumped


def test_terminal_strips_control_characters() -> None:
    result = answered([fact("Their ARR is \x1b[31m$4.1M\x1b[0m.\r", 1)], Label.EVIDENCE_LINKED)
    out = render_text(result)
    assert "\x1b" not in out and "\r" not in out
    assert "$4.1M" in out


def test_fallback_text_is_short_plain_and_has_no_withheld_text() -> None:
    for result in CASES.values():
        text = render_blocks(result).text
        assert 0 < len(text) <= 300
        assert "*" not in text
    long = answered([fact("word " * 200, 1)], Label.EVIDENCE_LINKED)
    assert len(render_blocks(long).text) <= 300
    assert render_blocks(long).text.endswith("…")


def test_ephemeral_reply_is_defanged() -> None:
    message = render_ephemeral("Usage: `/prism bind <company>` — tell @here")
    assert message_problems(message.text, message.blocks) == []
    assert message.blocks[0]["text"]["text"].startswith("Usage: `/prism bind &lt;company&gt;`")


def test_a_claim_posted_without_the_entailment_check_it_needed_says_so() -> None:
    unchecked = PostedClaim(
        text="Their CRM is HubSpot, chosen years ago.",
        kind="fact",
        citations=[2],
        rung=Rung.ANCHOR_WARRANTED,
        unchecked=True,
    )
    checked = fact("Their CRM is HubSpot.", 2)
    result = answered([checked, unchecked], Label.EVIDENCE_LINKED)
    for text in (render_text(result), str(render_blocks(result).blocks)):
        assert text.count(UNCHECKED_MARK) == 1
        assert text.index(UNCHECKED_MARK) > text.index("chosen years ago")
        assert UNCHECKED_PLAIN in text  # the label line does not claim the wording was checked
    assert CHECKED_PLAIN in render_text(answered([checked], Label.EVIDENCE_LINKED))


def test_the_footnote_form_is_one_function_for_every_surface() -> None:
    """``label = display value · path`` in Slack (the path alone only when the field has no
    label); the terminal writes the same function's path-first form, ``[n] path = value``."""
    labelled = [
        Footnote(n=1, path='Financials["Annual Revenue"]', value="£212.4m", label="Annual revenue"),
        Footnote(n=2, path="vendors.crm", value="HubSpot"),
    ]
    assert (
        footnote_text(labelled[0]) == '[1] Annual revenue = £212.4m · Financials["Annual Revenue"]'
    )
    assert footnote_text(labelled[1]) == "[2] vendors.crm = HubSpot"
    result = answered(
        [fact("Revenue is £212.4m; the CRM is HubSpot.", 1, 2)],
        Label.EVIDENCE_LINKED,
        footnotes=labelled,
    )
    context = [
        b["elements"][0]["text"] for b in render_blocks(result).blocks if b["type"] == "context"
    ]
    notes = next(t for t in context if t.startswith("[1]"))
    assert notes.splitlines() == [
        '[1] Annual revenue = £212.4m · `Financials["Annual Revenue"]`',
        "[2] `vendors.crm` = HubSpot",
    ]
    lines = render_text(result).splitlines()
    assert '[1] Financials["Annual Revenue"] = £212.4m' in lines
