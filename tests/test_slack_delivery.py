"""Delivered means confirmed: Slack failing the reply (500, 429, timeouts, msg_too_long,
permanent errors) through the real app, FakeSlack and real Redis. A turn is logged
``handled=answered`` only once Slack said ok, and no retry ever posts twice."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator

import pytest
from slack_sdk import WebClient
from slack_support import SlackHarness, all_text, unique

from prism_slack.slack import texts
from prism_slack.slack.delivery import PERMANENT_ERRORS, Delivery, Part, shorten
from prism_slack.slack.replies import Reply
from prism_slack.testing.fake_slack import FakeSlack
from prism_slack.testing.slack_delivery import dm, new_ts

QUESTION = "What is Northwind Outfitters' membership ARR?"


@pytest.fixture
def harness(make_harness: Callable[..., SlackHarness]) -> SlackHarness:
    """A legacy (``assistant_view``) app: a DM is answered in place, after a placeholder —
    the path with the most Slack writes to fail."""
    return make_harness(agent_view=False)


def handled_lines(caplog: pytest.LogCaptureFixture, channel: str) -> list[str]:
    return [
        r.getMessage().split(" handled=")[1].split()[0]
        for r in caplog.records
        if r.getMessage().startswith("slack message ")
        and f":{channel}:" in r.getMessage()
        and " handled=" in r.getMessage()
    ]


def ask(harness: SlackHarness, channel: str, **event: str) -> None:
    delivered = harness.slack.event(dm(QUESTION, user=unique("U"), channel=channel, **event))
    assert delivered.status == 200


SCRIPTS = [
    # method failing, how → the calls Slack saw of that method
    ("chat.update", {"error": "internal_error", "status": 500}),
    ("chat.update", {"error": "service_unavailable", "status": 503, "count": 2}),
    ("chat.postMessage", {"error": "internal_error", "status": 500}),
    ("chat.postMessage", {"error": "fatal_error", "status": 500, "lands": True}),
]


@pytest.mark.parametrize(("method", "failure"), SCRIPTS)
def test_transient_failures_are_retried_and_answered_once(
    harness: SlackHarness, caplog: pytest.LogCaptureFixture, method: str, failure: dict[str, object]
) -> None:
    channel = unique("D")
    harness.fake.fail_next(method, **failure)  # type: ignore[arg-type]
    with caplog.at_level(logging.INFO):
        ask(harness, channel)
        answer = harness.wait_for_answer(channel, None)
        harness.drain()
    assert "Membership ARR is $4.1M." in all_text(answer)
    # One message in the DM: the placeholder, replaced by the answer — never a second post,
    # not even when the failed post had landed (it is found by its metadata).
    [message] = harness.fake.thread(channel, None)
    assert message.ts == answer.ts
    assert handled_lines(caplog, channel) == ["answered"]
    failed = [c for c in harness.fake.calls(method) if not c.ok]
    assert len(failed) == failure.get("count", 1)


def test_429_waits_out_retry_after_then_answers(harness: SlackHarness) -> None:
    channel = unique("D")
    # The WebClient retries 3 times by itself; the fourth 429 reaches the delivery loop.
    harness.fake.rate_limit_next("chat.update", count=5, retry_after=0)
    ask(harness, channel)
    answer = harness.wait_for_answer(channel, None)
    harness.drain()
    assert "Membership ARR" in all_text(answer)
    updates = harness.fake.calls("chat.update")
    assert [c.status for c in updates] == [429] * 5 + [200]


def test_msg_too_long_gets_a_shorter_reply(harness: SlackHarness) -> None:
    channel = unique("D")
    harness.fake.fail_next("chat.update", error="msg_too_long")
    ask(harness, channel)
    answer = harness.wait_for_answer(channel, None)
    harness.drain()
    assert "Membership ARR" in all_text(answer)
    assert [c.error for c in harness.fake.calls("chat.update")] == ["msg_too_long", None]


@pytest.mark.parametrize("error", ["channel_not_found", "not_in_channel", "account_inactive"])
def test_a_permanent_error_is_one_error_line_and_the_turn_failed(
    harness: SlackHarness, caplog: pytest.LogCaptureFixture, error: str
) -> None:
    channel = unique("D")
    harness.fake.fail_next("chat.update", error=error)
    with caplog.at_level(logging.INFO):
        ask(harness, channel)
        harness.drain()
    assert error in PERMANENT_ERRORS
    [update] = harness.fake.calls("chat.update")  # not retried
    assert update.error == error
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    [line] = errors  # one ERROR line, naming the turn and the error
    assert f"{harness.fake.team_id}:{channel}:" in line and error in line
    assert handled_lines(caplog, channel) == ["failed"]
    assert "answered" not in handled_lines(caplog, channel)
    [placeholder] = harness.fake.thread(channel, None)
    assert placeholder.text == texts.PLACEHOLDER  # Slack would not let us say more


def test_slack_down_for_the_whole_budget_fails_the_turn_not_answered(
    make_harness: Callable[..., SlackHarness], caplog: pytest.LogCaptureFixture
) -> None:
    harness = make_harness(agent_view=False)
    channel = unique("D")
    harness.fake.fail_next("chat.update", error="internal_error", status=500, count=100)
    with caplog.at_level(logging.INFO):
        ask(harness, channel)
        harness.fake.wait_for(
            lambda: "failed" in handled_lines(caplog, channel), timeout=20, what="the turn failed"
        )
    assert handled_lines(caplog, channel) == ["failed"]


# -- Delivery on its own ----------------------------------------------------------------


@pytest.fixture
def fake() -> Iterator[FakeSlack]:
    with FakeSlack() as server:
        yield server


def delivery(fake: FakeSlack) -> Delivery:
    return Delivery(WebClient(token=fake.bot_token, base_url=fake.api_url), sleep=lambda s: None)


def test_post_once_finds_a_post_that_landed_before_posting_again(fake: FakeSlack) -> None:
    channel, thread = unique("C"), new_ts()
    part = Part(channel=channel, thread_ts=thread, turn_id="T:C:1", name="reply")
    fake.fail_next("chat.postMessage", error="internal_error", status=500, lands=True)
    ts = delivery(fake).post_once(part, Reply("hello"))
    [message] = fake.thread(channel, thread)
    assert message.ts == ts and message.metadata is not None
    # A later worker that took the turn over finds it too, and does not post.
    assert delivery(fake).post_once(part, Reply("hello"), maybe_posted=True) == ts
    assert len(fake.calls("chat.postMessage")) == 1


def test_a_timed_out_post_that_landed_is_not_posted_again(fake: FakeSlack) -> None:
    channel = unique("D")
    part = Part(channel=channel, thread_ts=None, turn_id="T:D:1", name="reply")
    fake.stall_next("chat.postMessage", seconds=1.0)
    client = WebClient(token=fake.bot_token, base_url=fake.api_url, timeout=0.3)
    ts = Delivery(client, sleep=lambda s: None).post_once(part, Reply("hello"))
    # The client gave up waiting; before posting again the delivery looked, and found it.
    [message] = fake.thread(channel, None)
    assert ts == message.ts
    assert len(fake.calls("chat.postMessage")) == 1
    assert len(fake.calls("conversations.history")) == 1


def test_shorten_keeps_the_buttons_and_clips_the_text() -> None:
    blocks = [{"type": "section", "block_id": str(i)} for i in range(40)] + [
        {"type": "actions", "block_id": "prism_feedback"}
    ]
    short = shorten(Reply("x" * 50_000, blocks))
    assert len(short.text) <= 3000 and len(short.blocks) == 20
    assert short.blocks[-1]["block_id"] == "prism_feedback"
