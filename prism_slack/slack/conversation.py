"""Slack events → what PRISM answers: which messages count, where they live, what they say.

Pure functions of the event payload (no client, no store). A message becomes an
``Incoming`` — or a ``Skip`` naming why it is ignored: the bot's own messages, other bots
and apps, edits (``message_changed``, or any event carrying ``edited``: an edited message
is never a new question, however old — except an edit that adds the bot's @mention, which
is the mention the rep meant to send; its identity is the original message's, so it is
answered once, and not at all if the original was), deletions and every non-content
subtype, hidden events, and an untagged thread reply that is not for PRISM
(``addressing.for_prism``: a remark to a colleague, thanks, logistics, a mention of
someone else; that ``Skip`` names its thread so a skip in an engaged thread is logged).

Never silent where the rep spoke to PRISM: a DM with no words (whitespace, or only a file
or screenshot) and a bare @mention with only a file are an ``Incoming`` with a ``notice``
(a one-line note instead of an answer); a bare @mention with nothing is answered.

An ``Incoming`` carries what the payload says about who asks and where (``teams``: every
workspace or org id the payload gives for the asker; ``shared``: the envelope's
``is_ext_shared_channel``), for ``prism_slack.slack.access`` to decide on.

Where a message lives (``Incoming.conversation``), which decides its binding and history:

- a DM: the DM as a whole at the top level (``thread=None``), the thread when the rep
  threads. A top-level DM is answered in its own thread when Slack shows the status there,
  as Slack's agents do (an agent app); else in place, after a placeholder;
- a channel: always a thread — the mention's own ts starts one, a reply names its root.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from prism_slack.ports import Conversation
from prism_slack.slack.addressing import for_prism

IncomingKind = Literal["dm", "mention", "thread"]
"""``dm``: anything in the bot's DM. ``mention``: the bot was @mentioned in a channel.
``thread``: an untagged reply in a channel thread — answered only where the bot is engaged."""

CONTENT_SUBTYPES = frozenset({"file_share", "thread_broadcast"})
"""Message subtypes that carry a rep's words; every other subtype is ignored."""

DM_CHANNEL_TYPES = frozenset({"im"})


class Notice(StrEnum):
    """A message PRISM answers with a fixed note instead of an answer (never silent)."""

    FILES_ONLY = "files_only"
    """Only a file or screenshot: PRISM reads text questions."""
    EMPTY = "empty"
    """A DM of whitespace."""


class Incoming(BaseModel):
    """One rep message PRISM may answer."""

    model_config = ConfigDict(frozen=True)

    kind: IncomingKind
    team: str
    channel: str
    user: str
    ts: str
    thread_ts: str | None = None
    text: str
    """The question, with the bot's mention removed and Slack markup made plain."""
    teams: tuple[str, ...] = ()
    """The asker's workspace/org ids as the payload states them (``user_team``,
    ``source_team``, ``team``); every one must be allowed (``access``)."""
    shared: bool | None = None
    """The envelope's ``is_ext_shared_channel``; ``None`` when the payload does not say."""
    home: tuple[str, ...] = ()
    """The installing workspace and org of the request (its authorization): whose members
    are answered unless ``PRISM_ALLOWED_TEAMS`` says otherwise (``access``)."""
    private: bool = False
    """Answer only the asker (ephemeral): set by ``access`` when the turn is prepared, in
    a channel shared with another organisation where the operator chose ephemeral answers."""
    notice: Notice | None = None
    """Reply with this note, not an answer (the message holds no question)."""
    edited: bool = False
    """The message was edited to add the bot's mention (answered as that mention)."""

    @property
    def is_dm(self) -> bool:
        return self.kind == "dm"

    @property
    def reply_thread(self) -> str | None:
        """The ``thread_ts`` of notes and of an answer shown without a status: a DM replies
        in place, a channel always in a thread."""
        if self.is_dm:
            return self.thread_ts
        return self.thread_ts or self.ts

    @property
    def status_thread(self) -> str:
        """Where PRISM shows its working status — and, once Slack showed it, posts the
        answer: the thread the message is in, or the one it starts (in a DM too, as
        Slack's agents reply)."""
        return self.thread_ts or self.ts

    @property
    def conversation(self) -> Conversation:
        """Whose binding and history the turn uses, and whose order it keeps: the DM as a
        whole for a top-level DM, else the thread."""
        return Conversation(team=self.team, channel=self.channel, thread=self.reply_thread)

    @property
    def claim_key(self) -> str:
        """The message's identity. Slack's ``app_mention`` and ``message`` events for one
        mention, and every retry of either, share it — so exactly one of them is answered."""
        return f"{self.team}:{self.channel}:{self.ts}"


class Skip(BaseModel):
    """Why an event is not answered (never replied to; logged at DEBUG, or at INFO for a
    reply in a thread the bot takes part in)."""

    model_config = ConfigDict(frozen=True)

    reason: str
    thread: Conversation | None = None
    """For an untagged thread reply judged not for PRISM: its thread."""


def from_message_event(
    event: dict[str, Any],
    *,
    team: str,
    bot_user_id: str | None,
    bot_id: str | None,
    shared: bool | None = None,
) -> Incoming | Skip:
    """A ``message`` event (DM, channel, private channel, group DM) as an ``Incoming``."""
    if event.get("subtype") == "message_changed":
        return _edit(event, team=team, bot_user_id=bot_user_id, bot_id=bot_id, shared=shared)
    skip = _skip_reason(event, bot_user_id=bot_user_id, bot_id=bot_id)
    if skip is not None:
        return Skip(reason=skip)
    channel_type = str(event.get("channel_type") or "")
    channel = str(event["channel"])
    thread_ts = _thread_of(event)
    text = str(event.get("text") or "")
    if channel_type in DM_CHANNEL_TYPES or (not channel_type and channel.startswith("D")):
        kind: IncomingKind = "dm"
    elif bot_user_id is not None and mentions(text, bot_user_id):
        kind = "mention"
    elif thread_ts is not None:
        addressed = for_prism(text, bot_user_id)
        if not addressed.for_prism:
            where = Conversation(team=team, channel=channel, thread=thread_ts)
            return Skip(reason=f"untagged reply not for PRISM: {addressed.reason}", thread=where)
        kind = "thread"
    else:
        return Skip(reason="channel message not addressed to the bot")
    return _incoming(
        kind, event, team=team, thread_ts=thread_ts, bot_user_id=bot_user_id, shared=shared
    )


def _edit(
    event: dict[str, Any],
    *,
    team: str,
    bot_user_id: str | None,
    bot_id: str | None,
    shared: bool | None,
) -> Incoming | Skip:
    """A ``message_changed`` event: answered only when the edit added the bot's mention in
    a channel (as that mention, under the original message's identity; every DM message
    was answered already)."""
    new, old = event.get("message"), event.get("previous_message")
    dm = str(event.get("channel_type") or "") in DM_CHANNEL_TYPES
    if not isinstance(new, dict) or bot_user_id is None or dm:
        return Skip(reason="edited message")
    before = str(old.get("text") or "") if isinstance(old, dict) else ""
    if not mentions(str(new.get("text") or ""), bot_user_id) or mentions(before, bot_user_id):
        return Skip(reason="edited message")
    message = {k: v for k, v in new.items() if k not in ("edited", "subtype")}
    message.setdefault("channel", event.get("channel"))
    skip = _skip_reason(message, bot_user_id=bot_user_id, bot_id=bot_id)
    if skip is not None:
        return Skip(reason=f"edited message: {skip}")
    found = _incoming(
        "mention",
        message,
        team=team,
        thread_ts=_thread_of(message),
        bot_user_id=bot_user_id,
        shared=shared,
    )
    return found.model_copy(update={"edited": True}) if isinstance(found, Incoming) else found


def from_mention_event(
    event: dict[str, Any],
    *,
    team: str,
    bot_user_id: str | None,
    bot_id: str | None,
    shared: bool | None = None,
) -> Incoming | Skip:
    """An ``app_mention`` event as an ``Incoming``, or why not."""
    skip = _skip_reason(event, bot_user_id=bot_user_id, bot_id=bot_id)
    if skip is not None:
        return Skip(reason=skip)
    return _incoming(
        "mention",
        event,
        team=team,
        thread_ts=_thread_of(event),
        bot_user_id=bot_user_id,
        shared=shared,
    )


def _incoming(
    kind: IncomingKind,
    event: dict[str, Any],
    *,
    team: str,
    thread_ts: str | None,
    bot_user_id: str | None,
    shared: bool | None,
) -> Incoming | Skip:
    text = plain_text(str(event.get("text") or ""), bot_user_id)
    notice: Notice | None = None
    if not text and event.get("files"):
        notice = Notice.FILES_ONLY  # a screenshot with no words: say what PRISM reads
    elif not text and kind == "dm":
        notice = Notice.EMPTY
    elif not text and kind != "mention":
        return Skip(reason="no text")  # a bare @mention is still answered: never silent
    return Incoming(
        kind=kind,
        team=team,
        channel=str(event["channel"]),
        user=str(event["user"]),
        ts=str(event["ts"]),
        thread_ts=thread_ts,
        text=text,
        teams=asker_teams(event),
        shared=shared,
        notice=notice,
    )


def asker_teams(event: dict[str, Any]) -> tuple[str, ...]:
    """Every workspace or org id an event gives for its author, in a stable order.

    In a Slack Connect channel ``user_team`` and ``source_team`` name the author's side
    (an outside user's are their own organisation's); ``team`` and
    ``user_profile.team`` are given in ordinary channels too.
    """
    profile = event.get("user_profile")
    found = [
        event.get("user_team"),
        event.get("source_team"),
        event.get("team"),
        profile.get("team") if isinstance(profile, dict) else None,
    ]
    return tuple(dict.fromkeys(str(t) for t in found if t))


def _skip_reason(
    event: dict[str, Any], *, bot_user_id: str | None, bot_id: str | None
) -> str | None:
    subtype = event.get("subtype")
    if subtype is not None and subtype not in CONTENT_SUBTYPES:
        return f"subtype {subtype}"
    if event.get("hidden"):
        return "hidden event"
    if event.get("edited") is not None:
        return "edited message"
    if any(event.get(k) is not None for k in ("bot_id", "bot_profile", "app_id")):
        return "own message" if event.get("bot_id") == bot_id else "bot or app message"
    user = event.get("user")
    if not user:
        return "no user"
    if user == bot_user_id:
        return "own message"
    if not event.get("channel") or not event.get("ts"):
        return "no channel or ts"
    return None


def _thread_of(event: dict[str, Any]) -> str | None:
    """The thread root, for a reply in a thread (a root message's own thread_ts is itself)."""
    thread_ts = event.get("thread_ts")
    return str(thread_ts) if thread_ts else None


def mentions(text: str, user_id: str) -> bool:
    """Whether ``text`` @mentions ``user_id`` (``<@U123>`` or ``<@U123|name>``)."""
    return re.search(rf"<@{re.escape(user_id)}(?:\|[^>]*)?>", text) is not None


_MENTION = re.compile(r"<@([A-Z0-9]+)(?:\|([^>]*))?>")
_CHANNEL = re.compile(r"<#([A-Z0-9]+)(?:\|([^>]*))?>")
_SPECIAL = re.compile(r"<!([a-z]+)(?:\^[^|>]*)?(?:\|([^>]*))?>")
_LINK = re.compile(r"<([a-z][a-z0-9+.-]*:[^|>]*)(?:\|([^>]*))?>", re.IGNORECASE)
_ENTITY = re.compile(r"&(amp|lt|gt);")
_ENTITIES = {"amp": "&", "lt": "<", "gt": ">"}
_SPACE = re.compile(r"\s+")


def plain_text(text: str, bot_user_id: str | None) -> str:
    """Slack message markup as the plain words the rep typed, minus the bot's mention.

    ``<@BOT>`` is removed; other mentions become ``@name`` (or ``@U123``), channels
    ``#name``, links their label (or URL), ``<!here>`` ``@here``; ``&amp;``, ``&lt;`` and
    ``&gt;`` are unescaped; whitespace collapses.
    """

    def user(m: re.Match[str]) -> str:
        if bot_user_id is not None and m.group(1) == bot_user_id:
            return " "
        return "@" + (m.group(2) or m.group(1))

    text = _MENTION.sub(user, text)
    text = _CHANNEL.sub(lambda m: "#" + (m.group(2) or m.group(1)), text)
    text = _SPECIAL.sub(lambda m: "@" + (m.group(2) or m.group(1)).removeprefix("@"), text)
    text = _LINK.sub(lambda m: m.group(2) or m.group(1), text)
    return _SPACE.sub(" ", unescape(text)).strip()


def unescape(text: str) -> str:
    """Slack's three escaped characters (``&amp;``, ``&lt;``, ``&gt;``) as themselves."""
    return _ENTITY.sub(lambda m: _ENTITIES[m.group(1)], text)
