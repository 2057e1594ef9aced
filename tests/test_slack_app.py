"""The Slack app end to end: real Bolt over HTTP on loopback, signed requests, FakeSlack,
real Redis. Async replies are awaited by polling FakeSlack's record (never fixed sleeps);
``drain()`` then proves nothing more happens."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import redis
from slack_support import (
    ARR_FACT,
    SEARCH_FACT,
    GatedModel,
    SlackHarness,
    SlowModel,
    all_text,
    fact,
    feedback_values,
    turn_id_of,
    unique,
)

from prism_slack.claims import Answer, Claim
from prism_slack.ports import Conversation
from prism_slack.render.blocks import FEEDBACK_ACTION
from prism_slack.render.limits import MAX_BLOCKS, SECTION_TEXT, message_problems
from prism_slack.slack import texts
from prism_slack.testing.fake_slack import FakeMessage, FakeSlack, block_problems
from prism_slack.testing.redis_server import RedisServer
from prism_slack.testing.slack_delivery import app_mention, channel_message, dm, new_ts

QUESTION = "What is Northwind Outfitters' membership ARR?"


def get(url: str) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as e:
        with e:
            return e.code, json.loads(e.read())


def assert_within_limits(message: FakeMessage) -> None:
    assert block_problems(message.blocks) == []
    assert message_problems(message.text, message.blocks) == []


# -- surfaces ---------------------------------------------------------------------------


def test_top_level_dm_is_answered_in_its_thread_with_a_status_and_citations(
    harness: SlackHarness,
) -> None:
    user, channel, ts = unique("U"), unique("D"), new_ts()
    delivered = harness.slack.event(dm(QUESTION, user=user, channel=channel, ts=ts))
    assert delivered.status == 200
    answer = harness.wait_for_answer(channel, ts)
    text = all_text(answer)
    assert "Membership ARR is $4.1M." in text and "Algolia" in text
    assert "= $4.14M · `financials.membership_arr_usd`" in text
    assert "EVIDENCE-LINKED" in text and "PARTIAL" not in text
    assert_within_limits(answer)
    harness.drain()
    # As Slack's agents do: the status in the thread of the rep's message, then the answer
    # posted there — one message, never a placeholder edited into the answer.
    [status] = harness.fake.calls("assistant.threads.setStatus")
    assert status.ok and (status.params["channel_id"], status.params["thread_ts"]) == (channel, ts)
    assert len(harness.posts(channel)) == 1 and answer.updates == 0
    assert harness.fake.calls("chat.update") == []
    [request] = harness.scripted.requests
    assert request.report.slug == "northwind-outfitters" and request.question == QUESTION


def test_dm_in_an_assistant_thread_shows_a_status_not_a_placeholder(harness: SlackHarness) -> None:
    user, channel, thread = unique("U"), unique("D"), new_ts()
    harness.fake.add_assistant_thread(channel, thread)
    harness.slack.event(dm(QUESTION, user=user, channel=channel, thread_ts=thread))
    answer = harness.wait_for_answer(channel, thread)
    assert "Membership ARR is $4.1M." in all_text(answer)
    harness.drain()
    [status] = harness.fake.calls("assistant.threads.setStatus")
    assert status.ok and status.params["channel_id"] == channel
    assert status.params["thread_ts"] == thread
    assert status.at < harness.posts(channel)[0].at
    assert len(harness.posts(channel)) == 1 and answer.updates == 0
    assert harness.fake.calls("chat.update") == []


def test_a_legacy_apps_dm_outside_assistant_threads_falls_back_to_a_placeholder(
    make_harness: Callable[..., SlackHarness],
) -> None:
    with FakeSlack(team_id=unique("T"), agent_view=False) as fake:
        harness = make_harness(fake=fake)
        user, channel, thread = unique("U"), unique("D"), new_ts()
        harness.slack.event(dm(QUESTION, user=user, channel=channel, thread_ts=thread))
        answer = harness.wait_for_answer(channel, thread)
        assert "Membership ARR is $4.1M." in all_text(answer) and answer.updates == 1
        [status] = harness.fake.calls("assistant.threads.setStatus")
        assert not status.ok


def test_mention_then_untagged_follow_up_in_its_thread(harness: SlackHarness) -> None:
    user, channel, root = unique("U"), unique("C"), new_ts()
    bot = harness.fake.bot_user_id
    harness.slack.event(app_mention(f"<@{bot}> {QUESTION}", user=user, channel=channel, ts=root))
    harness.wait_answers(channel, root, 1)
    follow_up = "And which search vendor do they use?"
    harness.slack.event(channel_message(follow_up, user=user, channel=channel, thread_ts=root))
    first, second = harness.wait_answers(channel, root, 2)
    assert "Membership ARR is $4.1M." in all_text(first) and "Algolia" in all_text(second)
    # Untagged messages elsewhere are not for the bot: a top-level one, another thread.
    harness.slack.event(channel_message("lunch?", user=user, channel=channel))
    other = new_ts()
    harness.slack.event(channel_message("ok", user=user, channel=channel, thread_ts=other))
    harness.drain()
    assert len(harness.posts(channel)) == 2
    assert [r.question for r in harness.scripted.requests] == [QUESTION, follow_up]
    # The follow-up was answered from the thread's report, with the thread's history.
    follow = harness.scripted.requests[1]
    assert follow.report.slug == "northwind-outfitters"
    assert [h.question for h in follow.history] == [QUESTION]


def test_a_bare_mention_gets_a_reply_not_silence(harness: SlackHarness) -> None:
    user, channel, root = unique("U"), unique("C"), new_ts()
    bot = harness.fake.bot_user_id
    harness.slack.event(app_mention(f"<@{bot}>", user=user, channel=channel, ts=root))
    (reply,) = harness.wait_answers(channel, root, 1)
    harness.drain()
    assert "ask me about the prospect" in all_text(reply)
    assert harness.scripted.requests == []


def test_bind_then_a_channel_question_uses_the_bound_report(harness: SlackHarness) -> None:
    user, channel = unique("U"), unique("C")
    url = harness.fake.response_url()
    delivered = harness.slack.command(
        "bind Kestrelpoint Software", channel=channel, user=user, response_url=url
    )
    assert delivered.status == 200 and delivered.latency_ms < 3000
    reply = harness.wait_response(url)
    assert reply["response_type"] == "in_channel"
    assert "Kestrelpoint Software" in all_text(reply)
    root = new_ts()
    bot = harness.fake.bot_user_id
    question = "What is their churn?"
    harness.slack.event(app_mention(f"<@{bot}> {question}", user=user, channel=channel, ts=root))
    harness.wait_answers(channel, root, 1)
    [request] = harness.scripted.requests
    assert request.report.slug == "kestrelpoint-software" and request.question == question
    status_url = harness.fake.response_url()
    harness.slack.command("status", channel=channel, user=user, response_url=status_url)
    status = harness.wait_response(status_url)
    assert status["response_type"] == "ephemeral"
    assert "Kestrelpoint Software" in all_text(status) and "AUD-2026-0156" in all_text(status)


BIND_REPLIES = [
    ("bind Northwind", ["Northwind Outfitters", "Northwind Logistics", "which one?"]),
    ("bind Cedar Vally", ["I don't have an audit report", "Cedar Valley Health Partners"]),
]


@pytest.mark.parametrize(("command", "expected"), BIND_REPLIES)
def test_ambiguous_and_unknown_bind_answer_only_the_rep(
    harness: SlackHarness, command: str, expected: list[str]
) -> None:
    user, channel = unique("U"), unique("C")
    url = harness.fake.response_url()
    harness.slack.command(command, channel=channel, user=user, response_url=url)
    reply = harness.wait_response(url)
    assert reply["response_type"] == "ephemeral"
    for words in expected:
        assert words in all_text(reply)
    assert (
        harness.state.get_binding(Conversation(team=harness.fake.team_id, channel=channel)) is None
    )


def test_command_replies_are_defanged(harness: SlackHarness) -> None:
    user, channel = unique("U"), unique("C")
    url = harness.fake.response_url()
    harness.slack.command("bind <!channel> @here", channel=channel, user=user, response_url=url)
    text = all_text(harness.wait_response(url))
    assert "<!channel>" not in text and "&lt;!channel&gt;" in text
    assert "@here" not in text


# -- exactly once ------------------------------------------------------------------------


def test_a_retried_delivery_is_answered_once(harness: SlackHarness) -> None:
    user, channel = unique("U"), unique("D")
    event = dm(QUESTION, user=user, channel=channel)
    first = harness.slack.event(event, event_id="EvRETRY1")
    retries = [harness.slack.event(event, event_id="EvRETRY1", retry_num=n) for n in (1, 2)]
    assert [d.status for d in (first, *retries)] == [200, 200, 200]
    harness.wait_for_answer(channel, None)
    harness.drain()
    assert len(harness.posts(channel)) == 1
    assert len(harness.scripted.requests) == 1


def test_app_mention_and_message_of_one_mention_are_answered_once(harness: SlackHarness) -> None:
    user, channel, ts = unique("U"), unique("C"), new_ts()
    text = f"<@{harness.fake.bot_user_id}> {QUESTION}"
    deliveries = [
        app_mention(text, user=user, channel=channel, ts=ts),
        channel_message(text, user=user, channel=channel, ts=ts),
    ]
    with ThreadPoolExecutor(2) as pool:
        statuses = list(pool.map(lambda e: harness.slack.event(e).status, deliveries))
    assert statuses == [200, 200]
    harness.wait_answers(channel, ts, 1)
    harness.drain()
    assert len(harness.posts(channel)) == 1 and len(harness.scripted.requests) == 1


def test_two_instances_sharing_redis_answer_once(
    redis_server: RedisServer, redis_client: redis.Redis
) -> None:
    with (
        FakeSlack(team_id=unique("T")) as fake,
        SlackHarness(redis_server.url, fake=fake) as one,
        SlackHarness(redis_server.url, fake=fake) as two,
    ):
        user, channel = unique("U"), unique("D")
        event = dm(QUESTION, user=user, channel=channel)
        targets = [one, two, one, two]
        with ThreadPoolExecutor(4) as pool:
            statuses = list(
                pool.map(
                    lambda n: (
                        targets[n]
                        .slack.event(event, event_id="EvSHARED", retry_num=n or None)
                        .status
                    ),
                    range(4),
                )
            )
        assert statuses == [200] * 4
        one.wait_for_answer(channel, None)
        one.drain()
        two.drain()
        assert len(one.posts(channel)) == 1
        assert len(one.scripted.requests) + len(two.scripted.requests) == 1


def test_messages_in_one_conversation_are_answered_in_order(
    make_harness: Callable[..., SlackHarness],
) -> None:
    harness = make_harness()
    gated = GatedModel(harness.scripted)
    harness.deps.model = gated
    user, channel = unique("U"), unique("D")
    questions = [QUESTION, "And which search vendor do they use?", "Who runs their email?"]
    stamps = [new_ts() for _ in questions]
    harness.slack.event(dm(questions[0], user=user, channel=channel, ts=stamps[0]))
    harness.fake.wait_for(lambda: gated.started == 1, what="the first turn to start")
    # The next two arrive while the first is being answered, and out of order.
    for n in (2, 1):
        harness.slack.event(dm(questions[n], user=user, channel=channel, ts=stamps[n]))
    harness.fake.wait_for(
        lambda: len(harness.fake.calls("assistant.threads.setStatus")) == 3,
        what="three statuses",
    )
    gated.release()
    found = harness.wait_answers(channel, None, 3)
    harness.drain()
    requests = harness.scripted.requests
    assert [r.question for r in requests] == questions
    assert [[h.question for h in r.history] for r in requests] == [[], questions[:1], questions[:2]]
    assert len(found) == 3 and all("Membership ARR" in all_text(m) for m in found)
    assert gated.started == 3


def test_ack_comes_before_the_model_finishes(make_harness: Callable[..., SlackHarness]) -> None:
    harness = make_harness()
    harness.deps.model = SlowModel(harness.scripted, delay_s=1.0)
    user, channel = unique("U"), unique("D")
    delivered = harness.slack.event(dm(QUESTION, user=user, channel=channel))
    assert delivered.status == 200 and delivered.latency_ms < 500
    assert harness.scripted.requests == []
    harness.wait_for_answer(channel, None)


# -- failures end in a reply ---------------------------------------------------------------


def test_redis_down_gets_a_clear_reply_and_recovers(
    make_redis_server: Callable[..., RedisServer],
) -> None:
    server = make_redis_server()
    with SlackHarness(server.url) as harness:
        user, channel = unique("U"), unique("D")
        server.stop()
        harness.slack.event(dm(QUESTION, user=user, channel=channel))
        reply = harness.wait_for_answer(channel, None)
        assert all_text(reply).startswith(texts.STORE_DOWN)
        status, health = get(harness.server.url + "/healthz")
        assert status == 503 and health["store"] == "unavailable" and health["ok"] is False
        # An untagged thread reply cannot be told apart from chatter: no error for it.
        harness.slack.event(
            channel_message("ok", user=user, channel=unique("C"), thread_ts=new_ts())
        )
        server.start()
        harness.slack.event(dm(QUESTION, user=user, channel=channel))
        harness.wait_answers(channel, None, 2)
        status, health = get(harness.server.url + "/healthz")
        assert status == 200 and health["store"] == "ok"
        harness.drain()
        first, second = harness.answers(channel, None)
        assert first.text == reply.text
        assert "Membership ARR is $4.1M." in all_text(second)
        # The error was posted; the answer was posted under a status (no placeholder).
        assert len(harness.fake.calls("chat.postMessage")) == 2
        assert harness.fake.calls("chat.update") == []


def test_an_unexpected_error_still_ends_in_a_reply(
    make_harness: Callable[..., SlackHarness],
) -> None:
    harness = make_harness(steps=[RuntimeError("bug")])
    user, channel = unique("U"), unique("D")
    harness.slack.event(dm(QUESTION, user=user, channel=channel))
    reply = harness.wait_for_answer(channel, None)
    assert all_text(reply).startswith(texts.FAILED)


def test_slack_refusing_the_update_posts_the_answer_anew(harness: SlackHarness) -> None:
    user, channel = unique("U"), unique("D")
    harness.fake.fail_next("assistant.threads.setStatus", error="invalid_thread_ts")
    harness.fake.fail_next("chat.update", error="cant_update_message")
    harness.fake.rate_limit_next("chat.postMessage", count=1, retry_after=0)
    harness.slack.event(dm(QUESTION, user=user, channel=channel))
    harness.fake.wait_for(
        lambda: any("Membership ARR" in m.text for m in harness.fake.messages(channel)),
        what="the answer posted anew",
    )
    harness.drain()
    statuses = [c.status for c in harness.posts(channel)]
    assert statuses == [429, 200, 200]  # placeholder rate-limited then posted; answer posted
    placeholder, answer = harness.fake.messages(channel)
    assert placeholder.text == texts.PLACEHOLDER and "Membership ARR" in all_text(answer)


def test_rate_limited_rep_is_told_only_in_private(
    make_harness: Callable[..., SlackHarness],
) -> None:
    harness = make_harness()
    user, channel = unique("U"), unique("C")
    bot = harness.fake.bot_user_id
    for _ in range(12):  # the bucket holds 10
        harness.slack.event(
            app_mention(f"<@{bot}> {QUESTION}", user=user, channel=channel, ts=new_ts())
        )
    harness.drain()
    notes = harness.fake.calls("chat.postEphemeral")
    assert len(notes) == 2 and all(n.params["user"] == user for n in notes)
    assert notes[0].params["text"] == texts.RATE_LIMITED
    assert len(harness.scripted.requests) == 10


def test_team_outside_the_allow_list_is_dropped(make_harness: Callable[..., SlackHarness]) -> None:
    harness = make_harness(allowed_teams=["TSOMEONEELSE"])
    user, channel = unique("U"), unique("D")
    assert harness.slack.event(dm(QUESTION, user=user, channel=channel)).status == 200
    url = harness.fake.response_url()
    delivered = harness.slack.command("status", channel=channel, user=user, response_url=url)
    assert delivered.status == 200 and delivered.json()["text"] == texts.NOT_ENABLED
    harness.drain()
    assert harness.fake.calls("chat.postMessage") == [] and harness.scripted.requests == []


# -- what is posted ------------------------------------------------------------------------


def test_feedback_click_is_stored_with_the_turn(harness: SlackHarness) -> None:
    user, channel = unique("U"), unique("D")
    harness.slack.event(dm(QUESTION, user=user, channel=channel))
    answer = harness.wait_for_answer(channel, None)
    values = feedback_values(answer.blocks)
    turn_id = turn_id_of(answer)
    assert values == {"up": f"up:{turn_id}", "down": f"down:{turn_id}"}
    assert harness.state.get_audit(turn_id) is not None
    for n, vote in enumerate(("up", "down"), start=1):
        delivered = harness.slack.block_action(
            action_id=FEEDBACK_ACTION,
            action_type="feedback_buttons",
            value=values[vote],
            user=user,
            channel=channel,
            message_ts=answer.ts,
        )
        assert delivered.status == 200
        thanks = harness.fake.wait_for(
            lambda n=n: (
                (found := harness.fake.calls("chat.postEphemeral"))[n - 1 :] and found[n - 1]
            ),
            what="the thank-you",
        )
        assert thanks.params["user"] == user and thanks.params["channel"] == channel
        assert thanks.params["text"] == texts.FEEDBACK_THANKS
        assert harness.state.get_feedback(turn_id) == {user: vote}
    assert harness.fake.calls("response_url") == []


def test_a_fabrication_is_withheld_and_labelled_partial(
    make_harness: Callable[..., SlackHarness],
) -> None:
    fabricated = fact("Membership ARR is $9.7M.", "financials.membership_arr_usd")
    harness = make_harness(steps=[Answer(claims=[SEARCH_FACT, fabricated])])
    user, channel = unique("U"), unique("D")
    harness.slack.event(dm(QUESTION, user=user, channel=channel))
    text = all_text(harness.wait_for_answer(channel, None))
    assert "Algolia" in text
    assert "9.7" not in text
    assert "PARTIAL" in text.upper() and "withheld" in text.lower()


def test_a_very_long_answer_stays_within_block_kit_limits(
    make_harness: Callable[..., SlackHarness],
) -> None:
    advice = (
        "Ask how the team decides which fixes ship first, who signs off on that work, and "
        "what a good quarter would look like for them; listen for whether the answer is a "
        "person or a process, and write down the exact words they use."
    )
    claims = [ARR_FACT, SEARCH_FACT] * 30 + [Claim(text=advice, kind="coaching", evidence=[])] * 40
    harness = make_harness(steps=[Answer(claims=claims)])
    user, channel = unique("U"), unique("D")
    harness.slack.event(dm(QUESTION, user=user, channel=channel))
    answer = harness.wait_for_answer(channel, None)
    assert_within_limits(answer)
    assert len(answer.blocks) <= MAX_BLOCKS
    sections = [b["text"]["text"] for b in answer.blocks if b["type"] == "section"]
    assert len(sections) > 1 and all(len(s) <= SECTION_TEXT for s in sections)
    assert len(all_text(answer)) > SECTION_TEXT  # really long, really posted


def test_model_text_never_pings(make_harness: Callable[..., SlackHarness]) -> None:
    sneaky = Claim(
        text="Tell <!channel> and <@U123> and @here about it.", kind="coaching", evidence=[]
    )
    harness = make_harness(steps=[Answer(claims=[SEARCH_FACT, sneaky])])
    user, channel = unique("U"), unique("D")
    harness.slack.event(dm(QUESTION, user=user, channel=channel))
    answer = harness.wait_for_answer(channel, None)
    text = all_text(answer)
    assert "<!channel>" not in text and "<@U123>" not in text and "@here" not in text


# -- what is ignored, what is rejected ------------------------------------------------------


def test_own_bot_edit_and_delete_events_are_ignored(harness: SlackHarness) -> None:
    user, channel = unique("U"), unique("D")
    base = dm(QUESTION, user=user, channel=channel)
    ignored = [
        {**base, "user": harness.fake.bot_user_id},
        {**base, "bot_id": harness.fake.bot_id},
        {**base, "bot_id": "BOTHER", "subtype": "bot_message"},
        {**base, "subtype": "message_changed", "message": {"text": QUESTION, "user": user}},
        {**base, "subtype": "message_deleted"},
        {**base, "subtype": "channel_join"},
    ]
    for event in ignored:
        assert harness.slack.event({**event, "ts": new_ts()}).status == 200
    harness.drain()
    assert harness.fake.calls("chat.postMessage") == [] and harness.scripted.requests == []


def test_bad_signature_and_stale_timestamp_are_rejected(harness: SlackHarness) -> None:
    user, channel = unique("U"), unique("D")
    body = json.dumps(harness.slack.envelope(dm(QUESTION, user=user, channel=channel)))
    content = {"Content-Type": "application/json"}
    good = harness.slack.signed_headers(body)
    forged = {**good, "X-Slack-Signature": "v0=" + "0" * 64}
    stale = harness.slack.signed_headers(body, timestamp=int(time.time()) - 600)
    unsigned: dict[str, str] = {}
    for headers in (forged, stale, unsigned):
        assert harness.slack.raw(body, {**content, **headers}).status == 401
    tampered = body.replace("membership", "revenue")
    assert harness.slack.raw(tampered, {**content, **good}).status == 401
    harness.drain()
    assert harness.fake.calls("chat.postMessage") == []


def test_url_verification_challenge_is_answered(harness: SlackHarness) -> None:
    body = json.dumps({"type": "url_verification", "challenge": "c-123", "token": "t"})
    headers = {"Content-Type": "application/json", **harness.slack.signed_headers(body)}
    delivered = harness.slack.raw(body, headers)
    assert delivered.status == 200 and delivered.json() == {"challenge": "c-123"}


def test_healthz_and_unknown_paths(harness: SlackHarness) -> None:
    status, health = get(harness.server.url + "/healthz")
    assert status == 200 and health["ok"] is True and health["store"] == "ok"
    assert "redis" in health["store_backend"]
    assert get(harness.server.url + "/nope")[0] == 404


def test_assistant_thread_start_is_greeted(harness: SlackHarness) -> None:
    channel, thread = unique("D"), new_ts()
    event = {
        "type": "assistant_thread_started",
        "assistant_thread": {"user_id": unique("U"), "channel_id": channel, "thread_ts": thread},
        "event_ts": new_ts(),
    }
    assert harness.slack.event(event).status == 200
    [greeting] = harness.fake.wait_for(lambda: harness.fake.thread(channel, thread), what="hello")
    assert "/prism bind" in all_text(greeting)
    harness.drain()
    assert harness.scripted.requests == []
