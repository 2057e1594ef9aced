"""Which Slack events PRISM answers, where the answer goes, and what the question says."""

from __future__ import annotations

from typing import Any

import pytest

from prism_slack.ports import Conversation
from prism_slack.slack.conversation import (
    Incoming,
    Notice,
    Skip,
    from_mention_event,
    from_message_event,
    mentions,
    plain_text,
    unescape,
)

BOT = "UPRISMBOT"
BOT_ID = "BPRISM"
TEAM = "T1"


def message(**fields: Any) -> dict[str, Any]:
    event: dict[str, Any] = {
        "type": "message",
        "user": "UREP",
        "text": "what is their ARR?",
        "ts": "1700000000.000200",
        "channel": "C1",
        "channel_type": "channel",
    }
    event.update(fields)
    return {k: v for k, v in event.items() if v is not None}


THREAD = {"ts": "2.6", "thread_ts": "2.1"}


def parse(event: dict[str, Any]) -> Incoming | Skip:
    return from_message_event(event, team=TEAM, bot_user_id=BOT, bot_id=BOT_ID)


SKIPPED = [
    ("edit", message(subtype="message_changed", message={"text": "x"})),
    ("deletion", message(subtype="message_deleted", deleted_ts="1.2")),
    ("join", message(subtype="channel_join", text="<@UREP> joined")),
    ("other bot", message(subtype="bot_message", bot_id="BOTHER", user=None)),
    ("other bot with user", message(bot_id="BOTHER", user="UOTHERBOT")),
    ("own message", message(user=BOT, text="hello", channel_type="im", channel="D1")),
    ("own bot id", message(bot_id=BOT_ID, channel_type="im", channel="D1")),
    ("hidden", message(hidden=True, channel_type="im", channel="D1")),
    ("untagged top-level channel message", message()),
    ("empty untagged reply", message(text=" ", **THREAD)),
    ("file-only untagged reply", message(text="", subtype="file_share", files=[{}], **THREAD)),
    ("no user", message(user=None, channel_type="im", channel="D1")),
    ("edited mention", message(text=f"<@{BOT}> ARR?", edited={"user": "UREP", "ts": "9.9"})),
    ("edited DM", message(channel_type="im", channel="D1", edited={"user": "UREP", "ts": "1"})),
    ("app message", message(app_id="A0OTHER", channel_type="im", channel="D1")),
    ("reply to a colleague", message(text="<@U2BOSS> can you join the call tomorrow?", **THREAD)),
    ("reply to a named colleague", message(text="thanks <@U2BOSS|boss>!", **THREAD)),
    ("reply to a user group", message(text="<!subteam^S123|@sales> see above", **THREAD)),
    ("reply to @here", message(text="<!here> call at 3", **THREAD)),
    ("reply to @channel", message(text="<!channel> moved the call", **THREAD)),
]


@pytest.mark.parametrize(("case", "event"), SKIPPED, ids=[c for c, _ in SKIPPED])
def test_ignored_events(case: str, event: dict[str, Any]) -> None:
    assert isinstance(parse(event), Skip), case


def test_a_bare_mention_is_answered_so_the_rep_is_never_ignored() -> None:
    found = parse(message(text=f"<@{BOT}>  "))
    assert isinstance(found, Incoming)
    assert (found.kind, found.text) == ("mention", "")


ANSWERED = [
    # (case, event, kind, conversation thread, reply thread)
    ("top-level DM", message(channel="D1", channel_type="im"), "dm", None, None),
    (
        "threaded DM",
        message(channel="D1", channel_type="im", ts="1.3", thread_ts="1.1"),
        "dm",
        "1.1",
        "1.1",
    ),
    (
        "DM file share",
        message(channel="D1", channel_type="im", subtype="file_share"),
        "dm",
        None,
        None,
    ),
    (
        "mention starts a thread",
        message(text=f"<@{BOT}> what is their ARR?", ts="2.1"),
        "mention",
        "2.1",
        "2.1",
    ),
    (
        "mention inside a thread",
        message(text=f"hey <@{BOT}|prism> ARR?", ts="2.5", thread_ts="2.1"),
        "mention",
        "2.1",
        "2.1",
    ),
    ("untagged reply", message(ts="2.6", thread_ts="2.1"), "thread", "2.1", "2.1"),
    (
        "private channel reply",
        message(ts="2.6", thread_ts="2.1", channel="G1", channel_type="group"),
        "thread",
        "2.1",
        "2.1",
    ),
    (
        "thread broadcast",
        message(subtype="thread_broadcast", ts="2.7", thread_ts="2.1"),
        "thread",
        "2.1",
        "2.1",
    ),
]


@pytest.mark.parametrize(
    ("case", "event", "kind", "thread", "reply_thread"), ANSWERED, ids=[a[0] for a in ANSWERED]
)
def test_answered_events(
    case: str, event: dict[str, Any], kind: str, thread: str | None, reply_thread: str | None
) -> None:
    found = parse(event)
    assert isinstance(found, Incoming), case
    assert found.kind == kind
    assert found.conversation == Conversation(team=TEAM, channel=event["channel"], thread=thread)
    assert found.reply_thread == reply_thread
    assert found.status_thread == (event.get("thread_ts") or event["ts"])
    assert found.claim_key == f"{TEAM}:{event['channel']}:{event['ts']}"


NOTICES = [
    ("whitespace DM", message(text="  \n ", channel="D1", channel_type="im"), Notice.EMPTY),
    (
        "screenshot DM",
        message(
            text="", subtype="file_share", files=[{"id": "F1"}], channel="D1", channel_type="im"
        ),
        Notice.FILES_ONLY,
    ),
    (
        "screenshot with a bare mention",
        message(text=f"<@{BOT}>", subtype="file_share", files=[{"id": "F1"}]),
        Notice.FILES_ONLY,
    ),
]


@pytest.mark.parametrize(("case", "event", "notice"), NOTICES, ids=[n[0] for n in NOTICES])
def test_a_message_without_words_gets_a_notice(
    case: str, event: dict[str, Any], notice: Notice
) -> None:
    found = parse(event)
    assert isinstance(found, Incoming) and found.notice is notice, case


def test_a_question_with_a_file_is_answered_as_a_question() -> None:
    found = parse(
        message(text="ARR?", subtype="file_share", files=[{}], channel="D1", channel_type="im")
    )
    assert isinstance(found, Incoming) and (found.notice, found.text) == (None, "ARR?")


def edit(new_text: str, old_text: str, **fields: Any) -> dict[str, Any]:
    """A ``message_changed`` event, as Slack sends an edit."""
    original = {"type": "message", "user": "UREP", "ts": "5.1", "team": TEAM}
    return message(
        subtype="message_changed",
        ts="5.9",
        hidden=True,
        message={**original, "text": new_text, "edited": {"user": "UREP", "ts": "5.9"}, **fields},
        previous_message={**original, "text": old_text},
    )


def test_an_edit_that_adds_the_mention_is_that_mention() -> None:
    found = parse(edit(f"<@{BOT}> what is their ARR?", "what is their ARR?"))
    assert isinstance(found, Incoming)
    assert (found.kind, found.edited, found.text) == ("mention", True, "what is their ARR?")
    assert found.claim_key == f"{TEAM}:C1:5.1"  # the original message's identity
    assert found.conversation == Conversation(team=TEAM, channel="C1", thread="5.1")


EDITS_SKIPPED = [
    ("mention already there", edit(f"<@{BOT}> ARR now?", f"<@{BOT}> ARR?")),
    ("no mention", edit("what is their ARR now?", "what is their ARR?")),
    ("mention removed", edit("ARR?", f"<@{BOT}> ARR?")),
    ("a bot's edit", edit(f"<@{BOT}> hi", "hi", bot_id="BOTHER")),
]


@pytest.mark.parametrize(("case", "event"), EDITS_SKIPPED, ids=[e[0] for e in EDITS_SKIPPED])
def test_other_edits_are_ignored(case: str, event: dict[str, Any]) -> None:
    assert isinstance(parse(event), Skip), case


def test_an_untagged_reply_not_for_prism_names_its_thread() -> None:
    found = parse(message(text="thanks, that's great", **THREAD))
    assert isinstance(found, Skip) and "not for PRISM" in found.reason
    assert found.thread == Conversation(team=TEAM, channel="C1", thread="2.1")


def test_app_mention_and_message_of_one_mention_share_the_claim_key() -> None:
    text = f"<@{BOT}> what is their ARR?"
    as_message = parse(message(text=text, ts="3.1"))
    as_mention = from_mention_event(
        {"type": "app_mention", "user": "UREP", "text": text, "ts": "3.1", "channel": "C1"},
        team=TEAM,
        bot_user_id=BOT,
        bot_id=BOT_ID,
    )
    assert isinstance(as_message, Incoming) and isinstance(as_mention, Incoming)
    assert as_message.claim_key == as_mention.claim_key
    assert as_message.conversation == as_mention.conversation
    assert as_message.text == as_mention.text == "what is their ARR?"


def test_a_follow_up_naming_a_date_or_the_bot_is_still_for_the_bot() -> None:
    for text in (f"and <@{BOT}|prism> their churn?", "by <!date^1392734382^{date}|Feb 18>?"):
        found = parse(message(text=text, **THREAD))
        assert isinstance(found, Incoming), text


def test_a_mention_that_also_names_a_colleague_is_answered() -> None:
    found = parse(message(text=f"<@{BOT}> what should <@U2BOSS> ask them?", **THREAD))
    assert isinstance(found, Incoming) and found.kind == "mention"


def test_a_dm_naming_a_colleague_is_still_for_the_bot() -> None:
    found = parse(message(text="what should <@U2BOSS> ask?", channel="D1", channel_type="im"))
    assert isinstance(found, Incoming) and found.kind == "dm"


def test_who_asks_and_where_come_from_the_payload() -> None:
    connect = message(
        text=f"<@{BOT}> ARR?",
        team="TOUTSIDE",
        user_team="TOUTSIDE",
        source_team="TOUTSIDE",
        user_profile={"team": "TOUTSIDE", "name": "elena"},
    )
    found = from_message_event(connect, team=TEAM, bot_user_id=BOT, bot_id=BOT_ID, shared=True)
    assert isinstance(found, Incoming)
    assert (found.teams, found.shared, found.private) == (("TOUTSIDE",), True, False)
    plain = parse(message(text=f"<@{BOT}> ARR?", team=TEAM))
    assert isinstance(plain, Incoming) and (plain.teams, plain.shared) == ((TEAM,), None)


def test_mention_from_another_bot_is_ignored() -> None:
    event = {"type": "app_mention", "user": "U2", "bot_id": "B2", "text": f"<@{BOT}> hi"}
    assert isinstance(
        from_mention_event(
            {**event, "ts": "1.1", "channel": "C1"}, team=TEAM, bot_user_id=BOT, bot_id=BOT_ID
        ),
        Skip,
    )


PLAIN = [
    (f"<@{BOT}> what's their ARR?", "what's their ARR?"),
    ("ask <@U123|dana> and <@U999>", "ask @dana and @U999"),
    ("see <#C42|deal-northwind>", "see #deal-northwind"),
    (
        "site <https://northwind.example|Northwind> and <mailto:a@b.c>",
        "site Northwind and mailto:a@b.c",
    ),
    ("<!here> R&amp;D &lt;3 &gt;", "@here R&D <3 >"),
    ("&amp;lt; stays escaped once", "&lt; stays escaped once"),
    ("  lots \n of   space ", "lots of space"),
    ("<!subteam^S123|@sales> heads up", "@sales heads up"),
]


@pytest.mark.parametrize(("raw", "plain"), PLAIN)
def test_plain_text(raw: str, plain: str) -> None:
    assert plain_text(raw, BOT) == plain


def test_unescape_only_undoes_slacks_three_entities() -> None:
    assert unescape("bind Procter &amp; Gamble") == "bind Procter & Gamble"
    assert unescape("&lt;b&gt; &amp;amp; &quot;") == "<b> &amp; &quot;"


def test_mentions_only_matches_the_whole_user_id() -> None:
    assert mentions(f"hi <@{BOT}>", BOT)
    assert mentions(f"hi <@{BOT}|prism>", BOT)
    assert not mentions(f"hi <@{BOT}X>", BOT)
    assert not mentions("hi @prism", BOT)
