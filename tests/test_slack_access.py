"""Safe in a real sales workspace (DESIGN §13), through signed requests and the fake Web API:

who may ask (Slack Connect outsiders, guests, apps), where answers may appear (channels
shared with another organisation), when a message is for PRISM at all (addressed to
someone else, edits, bots), and Slack's AI surface (status, suggested prompts, the side
panel's channel in view, feedback votes).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from typing import Any

import pytest
from slack_support import SlackHarness, all_text, feedback_values, turn_id_of, unique

from prism_slack.ports import Conversation
from prism_slack.render.blocks import FEEDBACK_ACTION
from prism_slack.slack import texts
from prism_slack.state import keys
from prism_slack.testing.redis_server import RedisServer
from prism_slack.testing.slack_delivery import app_mention, channel_message, dm, new_ts

QUESTION = "What is Northwind Outfitters' membership ARR?"
NW, KP = "northwind-outfitters", "kestrelpoint-software"
OUTSIDE = "TPROSPECT"


def mention(harness: SlackHarness, text: str, **fields: Any) -> list[dict[str, Any]]:
    """The ``app_mention`` and ``message`` events Slack sends for one @mention."""
    body = f"<@{harness.fake.bot_user_id}> {text}"
    channel, ts, user = fields.pop("channel"), fields.pop("ts"), fields.pop("user")
    events = [
        app_mention(
            body, user=user, channel=channel, ts=ts, thread_ts=fields.pop("thread_ts", None)
        ),
        channel_message(body, user=user, channel=channel, ts=ts),
    ]
    return [{**e, **fields} for e in events]


def from_prospect(user: str) -> dict[str, Any]:
    """The fields Slack Connect puts on an event from the prospect's own workspace."""
    return {
        "team": OUTSIDE,
        "user_team": OUTSIDE,
        "source_team": OUTSIDE,
        "user_profile": {"team": OUTSIDE, "name": user.lower()},
    }


def from_us(harness: SlackHarness) -> dict[str, Any]:
    team = harness.fake.team_id
    return {"team": team, "user_team": team, "source_team": team}


def bind(harness: SlackHarness, channel: str, company: str) -> None:
    harness.command(f"bind {company}", channel=channel, user=unique("U"))


def prism_logs(caplog: pytest.LogCaptureFixture, what: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if what in r.getMessage()]


# -- Slack Connect: who may ask ---------------------------------------------------------


def test_an_outside_user_in_a_shared_channel_gets_nothing(
    harness: SlackHarness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="prism_slack")
    channel, user, root = unique("C"), unique("U"), new_ts()
    bind(harness, channel, "Northwind Outfitters")
    for event in mention(harness, QUESTION, channel=channel, ts=root, user=user):
        delivered = harness.slack.event({**event, **from_prospect(user)}, shared=True)
        assert delivered.status == 200
    harness.drain()
    assert harness.scripted.requests == []
    for method in ("chat.postMessage", "chat.postEphemeral", "assistant.threads.setStatus"):
        assert harness.fake.calls(method) == [], method
    [line] = prism_logs(caplog, "not answered")
    assert "outsider" in line and user in line and OUTSIDE in line and QUESTION not in line
    assert not harness.state.is_engaged(Conversation(team=harness.fake.team_id, channel=channel))


def test_who_asks_is_looked_up_after_the_ack(harness: SlackHarness) -> None:
    # users.info may be slow (or rate-limited): the turn is recorded and acked first.
    user, direct = unique("U"), unique("D")
    harness.fake.stall_next("users.info", seconds=1.5)
    started = time.monotonic()
    delivered = harness.slack.event(dm(QUESTION, user=user, channel=direct))
    assert delivered.status == 200 and time.monotonic() - started < 1.0
    answer = harness.wait_for_answer(direct, None)
    assert "Membership ARR is $4.1M." in all_text(answer)
    [lookup] = harness.fake.calls("users.info")
    assert lookup.params["user"] == user


def test_with_the_store_down_only_those_who_would_be_answered_hear_of_it(
    make_redis_server: Callable[..., RedisServer],
) -> None:
    server = make_redis_server()
    with SlackHarness(server.url) as harness:
        outsider, rep, channel = unique("U"), unique("U"), unique("C")
        server.stop()
        [event, _] = mention(harness, QUESTION, channel=channel, ts=new_ts(), user=outsider)
        harness.slack.event({**event, **from_prospect(outsider)}, shared=True)
        root = new_ts()
        [event, _] = mention(harness, QUESTION, channel=channel, ts=root, user=rep)
        harness.slack.event({**event, **from_us(harness)}, shared=True)
        [note] = harness.fake.wait_for(
            lambda: harness.fake.calls("chat.postEphemeral"), what="the rep's note"
        )
        assert (note.params["user"], note.params["thread_ts"]) == (rep, root)
        assert note.params["text"] == texts.SHARED_CHANNEL
        assert harness.fake.calls("chat.postMessage") == []


def test_an_outside_user_known_only_to_users_info_gets_nothing(harness: SlackHarness) -> None:
    user, direct = unique("U"), unique("D")
    harness.fake.add_user(user, team_id=OUTSIDE)
    harness.slack.event(dm(QUESTION, user=user, channel=direct))
    harness.drain()
    assert harness.fake.calls("chat.postMessage") == [] and harness.scripted.requests == []
    [lookup] = harness.fake.calls("users.info")
    assert lookup.params["user"] == user


def test_a_member_mention_reads_users_info_once(harness: SlackHarness) -> None:
    user, channel = unique("U"), unique("C")
    lookups = []
    for _ in range(2):
        root = new_ts()
        for event in mention(harness, QUESTION, channel=channel, ts=root, user=user):
            harness.slack.event({**event, **from_us(harness)})
        harness.wait_answers(channel, root, 1)
        lookups.append(len(harness.fake.calls("users.info")))
    harness.drain()
    assert lookups[0] in (1, 2) and lookups[1] == lookups[0]  # the pair may race; then cached
    assert len(harness.scripted.requests) == 2


@pytest.mark.parametrize("kind", ["multi-channel guest", "single-channel guest", "app user"])
def test_guests_are_told_why_and_apps_get_nothing_by_default(
    harness: SlackHarness, kind: str
) -> None:
    user, direct = unique("U"), unique("D")
    flags = {
        "multi-channel guest": {"is_restricted": True},
        "single-channel guest": {"is_ultra_restricted": True},
        "app user": {"is_bot": True},
    }[kind]
    harness.fake.add_user(user, **flags)
    harness.slack.event(dm(QUESTION, user=user, channel=direct))
    url = harness.fake.response_url()
    harness.slack.command("status", channel=direct, user=user, response_url=url)
    harness.drain()
    assert harness.fake.calls("chat.postMessage") == [] and harness.scripted.requests == []
    if kind == "app user":
        assert harness.fake.calls("response_url") == []
        assert harness.fake.calls("chat.postEphemeral") == []
        return
    # A person of the org who is refused is told why, only them: the message and the command.
    [note] = harness.fake.calls("chat.postEphemeral")
    assert (note.params["user"], note.params["text"]) == (user, texts.GUEST)
    [response] = harness.fake.calls("response_url")
    assert texts.GUEST in all_text(response.params)
    assert response.params["response_type"] == "ephemeral"


def test_guests_are_answered_when_the_operator_says_so(
    make_harness: Callable[..., SlackHarness],
) -> None:
    harness = make_harness(guests="answer")
    user, direct = unique("U"), unique("D")
    harness.fake.add_user(user, is_restricted=True)
    harness.slack.event(dm(QUESTION, user=user, channel=direct, **{}) | from_us(harness))
    assert "Membership ARR is $4.1M." in all_text(harness.wait_for_answer(direct, None))


def test_when_slack_cannot_say_who_asks_the_rep_is_told_to_retry(harness: SlackHarness) -> None:
    user, channel, root = unique("U"), unique("C"), new_ts()
    harness.fake.fail_next("users.info", error="ratelimited", count=2)  # one per event
    for event in mention(harness, QUESTION, channel=channel, ts=root, user=user):
        harness.slack.event(event)
    harness.drain()
    [note] = harness.fake.calls("chat.postEphemeral")
    assert note.params["text"] == texts.CANNOT_CHECK and note.params["thread_ts"] == root
    assert harness.fake.calls("chat.postMessage") == [] and harness.scripted.requests == []


# -- shared channels: where answers may appear --------------------------------------------


def test_a_rep_in_a_shared_channel_is_told_ephemerally_to_ask_in_a_dm(
    harness: SlackHarness,
) -> None:
    channel, user, root = unique("C"), unique("U"), new_ts()
    for event in mention(harness, QUESTION, channel=channel, ts=root, user=user):
        harness.slack.event({**event, **from_us(harness)}, shared=True)
    harness.drain()
    [note] = harness.fake.calls("chat.postEphemeral")
    assert note.params["text"] == texts.SHARED_CHANNEL
    assert (note.params["user"], note.params["channel"], note.params["thread_ts"]) == (
        user,
        channel,
        root,
    )
    assert harness.fake.calls("chat.postMessage") == [] and harness.scripted.requests == []
    # The thread is not engaged: an untagged follow-up there gets nothing at all.
    harness.slack.event(
        channel_message("and their churn?", user=user, channel=channel, thread_ts=root),
        shared=True,
    )
    harness.drain()
    assert len(harness.fake.calls("chat.postEphemeral")) == 1


def test_a_channel_is_known_shared_from_conversations_info(harness: SlackHarness) -> None:
    channel, user = unique("C"), unique("U")
    harness.fake.share_channel(channel)
    for n in range(2):
        root = new_ts()
        [event, _] = mention(harness, QUESTION, channel=channel, ts=root, user=user)
        envelope = harness.slack.envelope(event)
        del envelope["is_ext_shared_channel"]  # a payload that does not say
        body = json.dumps(envelope)
        headers = {"Content-Type": "application/json", **harness.slack.signed_headers(body)}
        assert harness.slack.raw(body, headers).status == 200
        harness.fake.wait_for(
            lambda n=n: len(harness.fake.calls("chat.postEphemeral")) == n + 1, what="the note"
        )
    harness.drain()
    assert len(harness.fake.calls("conversations.info")) == 1  # cached
    assert harness.fake.calls("chat.postMessage") == []


def test_shared_channel_answers_go_only_to_the_rep_when_the_operator_chose_that(
    make_harness: Callable[..., SlackHarness],
) -> None:
    harness = make_harness(shared_channels="ephemeral")
    channel, user, root = unique("C"), unique("U"), new_ts()
    for event in mention(harness, QUESTION, channel=channel, ts=root, user=user):
        harness.slack.event({**event, **from_us(harness)}, shared=True)
    answer = harness.fake.wait_for(
        lambda: harness.fake.calls("chat.postEphemeral"), what="the private answer"
    )[0]
    harness.drain()
    assert (answer.params["user"], answer.params["thread_ts"]) == (user, root)
    assert "Membership ARR is $4.1M." in all_text(answer.params)
    assert feedback_values(answer.params["blocks"])
    assert harness.fake.calls("chat.postMessage") == [] and harness.fake.calls("chat.update") == []
    # Neither a status nor a placeholder: the prospect would see that a report is read.
    assert harness.fake.calls("assistant.threads.setStatus") == []
    # An outsider in the same thread still gets nothing.
    outsider = unique("U")
    harness.slack.event(
        {
            **channel_message("and churn?", user=outsider, channel=channel, thread_ts=root),
            **from_prospect(outsider),
        },
        shared=True,
    )
    harness.drain()
    assert len(harness.fake.calls("chat.postEphemeral")) == 1


@pytest.mark.parametrize(
    "failure",
    [
        {"error": "internal_error", "status": 500},
        {"error": "service_unavailable", "status": 503, "count": 2},
    ],
)
def test_a_private_answer_is_retried_until_slack_confirms_it(
    make_harness: Callable[..., SlackHarness],
    caplog: pytest.LogCaptureFixture,
    failure: dict[str, Any],
) -> None:
    harness = make_harness(shared_channels="ephemeral")
    caplog.set_level(logging.INFO, logger="prism_slack")
    channel, user, root = unique("C"), unique("U"), new_ts()
    harness.fake.fail_next("chat.postEphemeral", **failure)
    for event in mention(harness, QUESTION, channel=channel, ts=root, user=user):
        harness.slack.event({**event, **from_us(harness)}, shared=True)
    harness.fake.wait_for(
        lambda: prism_logs(caplog, "handled=answered"), timeout=20, what="the answer"
    )
    harness.drain()
    calls = harness.fake.calls("chat.postEphemeral")
    assert [c.ok for c in calls] == [False] * failure.get("count", 1) + [True]
    assert "Membership ARR is $4.1M." in all_text(calls[-1].params)
    assert harness.fake.calls("chat.postMessage") == []
    assert len(prism_logs(caplog, "handled=answered")) == 1


def test_a_private_answer_slack_refuses_is_one_error_line_and_nothing_public(
    make_harness: Callable[..., SlackHarness], caplog: pytest.LogCaptureFixture
) -> None:
    harness = make_harness(shared_channels="ephemeral")
    caplog.set_level(logging.INFO, logger="prism_slack")
    channel, user, root = unique("C"), unique("U"), new_ts()
    harness.fake.fail_next("chat.postEphemeral", error="not_in_channel")
    for event in mention(harness, QUESTION, channel=channel, ts=root, user=user):
        harness.slack.event({**event, **from_us(harness)}, shared=True)
    harness.fake.wait_for(lambda: prism_logs(caplog, "handled=failed"), what="the turn failed")
    harness.drain()
    [call] = harness.fake.calls("chat.postEphemeral")  # a permanent error: not retried
    assert call.error == "not_in_channel"
    [line] = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert f"{harness.fake.team_id}:{channel}:{root}" in line and "not_in_channel" in line
    assert harness.fake.calls("chat.postMessage") == []
    assert harness.fake.calls("assistant.threads.setStatus") == []


def test_bind_in_a_shared_channel_says_to_ask_in_a_dm(harness: SlackHarness) -> None:
    channel, user = unique("C"), unique("U")
    harness.fake.share_channel(channel)
    url = harness.fake.response_url()
    harness.slack.command("bind Northwind Outfitters", channel=channel, user=user, response_url=url)
    reply = harness.wait_response(url)
    assert reply["response_type"] == "ephemeral"
    assert "shared with another organisation" in all_text(reply)
    where = Conversation(team=harness.fake.team_id, channel=channel)
    assert harness.state.get_binding(where) is None
    # status and help still answer the rep alone.
    assert "Nothing is bound" in harness.command("status", channel=channel, user=user)


def test_bind_in_a_shared_channel_is_private_with_ephemeral_answers(
    make_harness: Callable[..., SlackHarness],
) -> None:
    harness = make_harness(shared_channels="ephemeral")
    channel, user = unique("C"), unique("U")
    harness.fake.share_channel(channel)
    url = harness.fake.response_url()
    harness.slack.command("bind Northwind Outfitters", channel=channel, user=user, response_url=url)
    reply = harness.wait_response(url)
    assert reply["response_type"] == "ephemeral" and "Northwind Outfitters" in all_text(reply)
    where = Conversation(team=harness.fake.team_id, channel=channel)
    assert harness.state.get_binding(where) == NW


# -- reply only when spoken to -------------------------------------------------------------


def engaged_thread(harness: SlackHarness) -> tuple[str, str, str]:
    user, channel, root = unique("U"), unique("C"), new_ts()
    for event in mention(harness, QUESTION, channel=channel, ts=root, user=user):
        harness.slack.event(event)
    harness.wait_answers(channel, root, 1)
    return user, channel, root


def test_a_thread_reply_addressed_to_someone_else_gets_no_reply(harness: SlackHarness) -> None:
    user, channel, root = engaged_thread(harness)
    for text in ("<@U2BOSS> can you join the call tomorrow?", "<!here> moving the call to 3pm"):
        harness.slack.event(channel_message(text, user=user, channel=channel, thread_ts=root))
    harness.drain()
    assert len(harness.answers(channel, root)) == 1 and len(harness.scripted.requests) == 1


def test_an_edited_mention_is_never_answered_again(
    harness: SlackHarness, redis_client: Any
) -> None:
    user, channel, root = unique("U"), unique("C"), new_ts()
    [as_mention, as_message] = mention(harness, QUESTION, channel=channel, ts=root, user=user)
    harness.slack.event(as_mention)
    harness.wait_answers(channel, root, 1)
    # A day later the turn's record has expired; the rep fixes a typo in the mention.
    assert redis_client.delete(keys.turn(f"{harness.fake.team_id}:{channel}:{root}")) == 1
    edited = {"edited": {"user": user, "ts": new_ts()}, "text": as_mention["text"] + "!"}
    harness.slack.event({**as_mention, **edited})
    harness.slack.event(
        {
            "type": "message",
            "subtype": "message_changed",
            "channel": channel,
            "ts": new_ts(),
            "message": {**as_message, **edited},
            "previous_message": as_message,
        }
    )
    harness.drain()
    assert len(harness.answers(channel, root)) == 1 and len(harness.scripted.requests) == 1


def test_a_bot_or_app_in_an_engaged_thread_is_ignored(harness: SlackHarness) -> None:
    _, channel, root = engaged_thread(harness)
    base = channel_message("Deal stage changed to Negotiation", user="UCRMBOT", channel=channel)
    for extra in (
        {"bot_id": "BCRM", "bot_profile": {"name": "crm"}},
        {"subtype": "bot_message", "bot_id": "BCRM", "user": None},
        {"app_id": "ACRM"},
    ):
        event = {k: v for k, v in {**base, **extra, "thread_ts": root}.items() if v is not None}
        harness.slack.event({**event, "ts": new_ts()})
    harness.drain()
    assert len(harness.answers(channel, root)) == 1 and len(harness.scripted.requests) == 1


def test_a_group_dm_mention_is_answered_in_its_thread(harness: SlackHarness) -> None:
    user, group, root = unique("U"), unique("G"), new_ts()
    text = f"<@{harness.fake.bot_user_id}> {QUESTION}"
    harness.slack.event(
        channel_message(text, user=user, channel=group, ts=root, channel_type="mpim")
    )
    assert "Membership ARR is $4.1M." in all_text(harness.wait_for_answer(group, root))


# -- Slack's AI surface --------------------------------------------------------------------


def test_a_channel_mention_shows_a_status_with_rotating_loading_messages(
    harness: SlackHarness,
) -> None:
    _, channel, root = engaged_thread(harness)
    harness.drain()
    [status] = harness.fake.calls("assistant.threads.setStatus")
    assert (status.params["channel_id"], status.params["thread_ts"]) == (channel, root)
    assert status.params["status"] == texts.STATUS
    assert status.params["loading_messages"] == texts.LOADING_MESSAGES
    assert len(texts.LOADING_MESSAGES) > 1
    [post] = harness.posts(channel)
    assert status.at < post.at and post.params["thread_ts"] == root
    assert harness.fake.calls("chat.update") == []  # no placeholder


def test_the_placeholder_is_used_only_when_slack_refuses_the_status(
    harness: SlackHarness,
) -> None:
    harness.fake.fail_next("assistant.threads.setStatus", error="missing_scope")
    user, channel, root = unique("U"), unique("C"), new_ts()
    for event in mention(harness, QUESTION, channel=channel, ts=root, user=user):
        harness.slack.event(event)
    answer = harness.wait_for_answer(channel, root)
    assert answer.updates == 1 and "Membership ARR" in all_text(answer)


def thread_started(harness: SlackHarness, *, viewing: str | None) -> tuple[str, str, str]:
    user, direct, thread = unique("U"), unique("D"), new_ts()
    harness.fake.add_assistant_thread(direct, thread)
    context = {"team_id": harness.fake.team_id}
    if viewing is not None:
        context["channel_id"] = viewing
    event = {
        "type": "assistant_thread_started",
        "assistant_thread": {
            "user_id": user,
            "channel_id": direct,
            "thread_ts": thread,
            "context": context,
        },
        "event_ts": new_ts(),
    }
    assert harness.slack.event(event).status == 200
    return user, direct, thread


def test_suggested_prompts_name_the_company_bound_to_the_channel_in_view(
    harness: SlackHarness,
) -> None:
    deal = unique("C")
    bind(harness, deal, "Kestrelpoint Software")
    _, direct, thread = thread_started(harness, viewing=deal)
    [prompts] = harness.fake.wait_for(
        lambda: harness.fake.calls("assistant.threads.setSuggestedPrompts"), what="prompts"
    )
    assert prompts.ok and prompts.params["thread_ts"] == thread
    assert prompts.params["title"] == "Ask about Kestrelpoint Software"
    messages = [p["message"] for p in prompts.params["prompts"]]
    assert len(messages) == 3 and all("Kestrelpoint Software" in m for m in messages)
    [greeting] = harness.fake.thread(direct, thread)
    assert "Kestrelpoint Software" in all_text(greeting)


def test_without_a_binding_the_prompts_offer_companies_with_reports(
    harness: SlackHarness,
) -> None:
    _, direct, thread = thread_started(harness, viewing=None)
    [prompts] = harness.fake.wait_for(
        lambda: harness.fake.calls("assistant.threads.setSuggestedPrompts"), what="prompts"
    )
    names = {r.company.name for r in harness.deps.reports.all()}
    assert 1 <= len(prompts.params["prompts"]) <= 3
    assert all(any(n in p["message"] for n in names) for p in prompts.params["prompts"])
    [greeting] = harness.fake.thread(direct, thread)
    assert "/prism bind" in all_text(greeting)


def test_the_side_panel_follows_the_binding_of_the_channel_in_view(
    harness: SlackHarness,
) -> None:
    kestrel, northwind = unique("C"), unique("C")
    bind(harness, kestrel, "Kestrelpoint Software")
    bind(harness, northwind, "Northwind Outfitters")
    user, direct, thread = thread_started(harness, viewing=kestrel)
    harness.fake.wait_for(lambda: harness.fake.thread(direct, thread), what="the greeting")
    harness.slack.event(dm("What is their churn?", user=user, channel=direct, thread_ts=thread))
    harness.wait_answers(direct, thread, 2)
    changed = {
        "type": "assistant_thread_context_changed",
        "assistant_thread": {
            "user_id": user,
            "channel_id": direct,
            "thread_ts": thread,
            "context": {"channel_id": northwind, "team_id": harness.fake.team_id},
        },
        "event_ts": new_ts(),
    }
    assert harness.slack.event(changed).status == 200
    harness.drain()
    where = Conversation(team=harness.fake.team_id, channel=direct, thread=thread)
    assert harness.state.get_binding(where) == NW
    [request] = harness.scripted.requests
    assert request.report.slug == KP


def test_a_feedback_vote_from_a_shared_channel_outsider_is_dropped(
    harness: SlackHarness,
) -> None:
    user, direct = unique("U"), unique("D")
    harness.slack.event(dm(QUESTION, user=user, channel=direct))
    answer = harness.wait_for_answer(direct, None)
    turn_id = turn_id_of(answer)
    harness.slack.block_action(
        action_id=FEEDBACK_ACTION,
        action_type="feedback_buttons",
        value=f"down:{turn_id}",
        user=unique("U"),
        user_team=OUTSIDE,
        channel=direct,
        message_ts=answer.ts,
    )
    harness.drain()
    assert harness.state.get_feedback(turn_id) == {}
    assert harness.fake.calls("chat.postEphemeral") == []


def test_feedback_thanks_land_in_the_answers_thread(harness: SlackHarness) -> None:
    user, channel, root = engaged_thread(harness)
    [answer] = harness.answers(channel, root)
    harness.slack.block_action(
        action_id=FEEDBACK_ACTION,
        action_type="feedback_buttons",
        value=feedback_values(answer.blocks)["up"],
        user=user,
        channel=channel,
        message_ts=answer.ts,
        thread_ts=root,
    )
    harness.drain()
    [thanks] = harness.fake.calls("chat.postEphemeral")
    assert (thanks.params["thread_ts"], thanks.params["user"]) == (root, user)
    assert harness.state.get_feedback(turn_id_of(answer)) == {user: "up"}


def test_app_rate_limited_is_an_error_and_a_200(
    harness: SlackHarness, caplog: pytest.LogCaptureFixture
) -> None:
    body = json.dumps(
        {
            "token": "legacy-verification-token",
            "type": "app_rate_limited",
            "team_id": harness.fake.team_id,
            "minute_rate_limited": 1518467820,
            "api_app_id": "APRISM",
        }
    )
    headers = {"Content-Type": "application/json", **harness.slack.signed_headers(body)}
    assert harness.slack.raw(body, headers).status == 200
    [record] = [r for r in caplog.records if "app_rate_limited" in r.getMessage()]
    assert record.levelno == logging.ERROR and "1518467820" in record.getMessage()


def test_a_channel_newly_shared_is_known_at_once(
    harness: SlackHarness, caplog: pytest.LogCaptureFixture
) -> None:
    """``channel_shared`` (and a shared channel's own events) are remembered: a command
    there right after is refused without asking Slack; ``channel_unshared`` forgets."""
    caplog.set_level(logging.INFO, logger="prism_slack")
    first, second = unique("C"), unique("C")
    shared = {"type": "channel_shared", "connected_team_id": OUTSIDE, "channel": first}
    assert harness.slack.event({**shared, "event_ts": new_ts()}).status == 200
    root, user = new_ts(), unique("U")
    harness.slack.event(app_mention("hi", user=user, channel=second, ts=root), shared=True)
    harness.fake.wait_for(lambda: harness.fake.calls("chat.postEphemeral"), what="the DM note")
    harness.fake.wait_for(lambda: prism_logs(caplog, "sharing changed"), what="channel_shared")
    for channel in (first, second):
        assert "shared with another organisation" in harness.command(
            "bind Northwind Outfitters", channel=channel, user=user
        )
    assert harness.fake.calls("conversations.info") == []
    unshared = {"type": "channel_unshared", "channel": first, "is_ext_shared": False}
    harness.slack.event({**unshared, "previously_connected_team_id": OUTSIDE})
    harness.fake.wait_for(
        lambda: len(prism_logs(caplog, "sharing changed")) == 2, what="channel_unshared"
    )
    assert "is now bound" in harness.command("bind Northwind Outfitters", channel=first, user=user)
