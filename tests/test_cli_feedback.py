"""`prism feedback`: recent turns with label, withheld count and votes, from the real store.

The turns are made the way production makes them: signed Slack events and feedback
clicks against the real Bolt app, with state in a real redis-server.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
from slack_support import SlackHarness, fact, feedback_values, unique

from prism_slack.claims import Answer
from prism_slack.cli import main
from prism_slack.ports import AuditRecord, Conversation
from prism_slack.render.blocks import FEEDBACK_ACTION
from prism_slack.state.redis_store import open_state_store
from prism_slack.testing.redis_server import RedisServer
from prism_slack.testing.slack_delivery import dm

QUESTION = "What is Northwind Outfitters' membership ARR?"
GOOD = fact("Membership ARR is $4.1M.", "financials.membership_arr_usd")
FABRICATED = fact("Membership ARR is $9.7M.", "financials.membership_arr_usd")


def vote(harness: SlackHarness, answer_blocks: list[dict[str, object]], **where: str) -> None:
    harness.slack.block_action(
        action_id=FEEDBACK_ACTION,
        action_type="feedback_buttons",
        value=feedback_values(answer_blocks)[where.pop("vote")],
        user=where["user"],
        channel=where["channel"],
        message_ts=where["ts"],
    )


def test_recent_turns_with_label_withheld_and_votes(
    redis_server: RedisServer,
    redis_client: object,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    steps = [Answer(claims=[GOOD]), Answer(claims=[GOOD, FABRICATED])]
    with SlackHarness(redis_server.url, steps=list(steps)) as harness:
        rep, other, direct = unique("U"), unique("U"), unique("D")
        answers = []
        for n in range(2):
            harness.slack.event(dm(QUESTION, user=rep, channel=direct))
            answers.append(harness.wait_answers(direct, None, n + 1)[-1])
        vote(harness, answers[0].blocks, vote="up", user=rep, channel=direct, ts=answers[0].ts)
        vote(harness, answers[1].blocks, vote="down", user=rep, channel=direct, ts=answers[1].ts)
        vote(harness, answers[1].blocks, vote="down", user=other, channel=direct, ts=answers[1].ts)
        harness.fake.wait_for(
            lambda: len(harness.fake.calls("chat.postEphemeral")) == 3, what="three thanks"
        )
        harness.drain()
    monkeypatch.setenv("REDIS_URL", redis_server.url)

    assert main(["feedback", "--json"]) == 0
    newest, oldest = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert (newest["label"], newest["withheld"], newest["up"], newest["down"]) == (
        "EVIDENCE-LINKED-PARTIAL",
        1,
        0,
        2,
    )
    assert (oldest["label"], oldest["withheld"], oldest["up"], oldest["down"]) == (
        "EVIDENCE-LINKED",
        0,
        1,
        0,
    )
    assert newest["channel"] == direct and newest["report"] == "northwind-outfitters"

    assert main(["feedback"]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split() == [
        "AT", "TURN", "CHANNEL", "REPORT", "LABEL", "CLAIMS", "WITHHELD", "UP", "DOWN"
    ]  # fmt: skip
    assert table[1].split()[-5:] == ["EVIDENCE-LINKED-PARTIAL", "2", "1", "0", "2"]

    assert main(["feedback", newest["turn_id"][:8]]) == 0
    details = capsys.readouterr().out
    assert "[withheld" in details and "$9.7M" in details and "[posted" in details
    assert QUESTION not in details  # the rep's words are not in the audit record

    assert main(["feedback", "nope"]) == 1
    monkeypatch.delenv("REDIS_URL")
    assert main(["feedback"]) == 2
    assert "REDIS_URL" in capsys.readouterr().err


def test_the_index_keeps_the_newest_turns_first(redis_server: RedisServer) -> None:
    store = open_state_store(redis_server.url)
    start = dt.datetime(2026, 12, 1, 8, tzinfo=dt.UTC)
    where = Conversation(team=unique("T"), channel=unique("C"))
    for minute in (2, 0, 1):  # saved out of order
        store.save_audit(
            AuditRecord(
                turn_id=f"turn-{minute}-{where.channel}",
                at=start + dt.timedelta(minutes=minute),
                conversation=where,
                report=None,
                report_id=None,
                report_digest=None,
                evidence_root=None,
                model=None,
                prompt_digest=None,
            )
        )
    mine = [r.turn_id for r in store.recent_audits(50) if r.conversation == where]
    assert mine == [f"turn-{m}-{where.channel}" for m in (2, 1, 0)]
    assert store.recent_audits(0) == []
