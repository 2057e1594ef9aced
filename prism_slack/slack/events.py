"""Events API listeners: DMs, @mentions, untagged follow-ups in engaged threads.

Bolt acks every event before these run (its default, non-FaaS behaviour), so each one
runs in the listener executor and may take as long as the model does.

- ``message`` (``message.im``, ``message.channels``, ``message.groups``): a DM is always
  answered; a channel message when it mentions the bot, or when it is a reply in a thread
  where the bot is engaged.
- ``app_mention``: answered in the thread of the mention. Slack also sends the ``message``
  event of the same mention; both carry the same message identity, and only one is
  answered (see ``MessageAnswerer``).
- ``assistant_thread_started``: a short greeting in the new assistant thread;
  ``assistant_thread_context_changed``: acknowledged, nothing to do.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from slack_bolt import App, BoltContext, BoltRequest

from prism_slack.errors import StoreUnavailable
from prism_slack.render.blocks import render_ephemeral
from prism_slack.slack import texts
from prism_slack.slack.answering import MessageAnswerer
from prism_slack.slack.conversation import (
    Incoming,
    Skip,
    from_mention_event,
    from_message_event,
)
from prism_slack.slack.replies import Reply

logger = logging.getLogger(__name__)


def register_events(app: App, answerer: MessageAnswerer) -> None:
    """Add the event listeners to ``app``."""

    app.event("message")(_listener(answerer, from_message_event))
    app.event("app_mention")(_listener(answerer, from_mention_event))

    @app.event("assistant_thread_started")
    def on_thread_started(event: dict[str, Any]) -> None:
        thread = event.get("assistant_thread") or {}
        channel, thread_ts = thread.get("channel_id"), thread.get("thread_ts")
        if not channel or not thread_ts:
            logger.warning("assistant_thread_started without channel or thread_ts")
            return
        greeting = render_ephemeral(texts.GREETING)
        answerer.replier.post(str(channel), str(thread_ts), Reply(greeting.text, greeting.blocks))

    @app.event("assistant_thread_context_changed")
    def on_context_changed(event: dict[str, Any]) -> None:
        logger.debug("assistant thread context changed")


def _listener(
    answerer: MessageAnswerer, parse: Callable[..., Incoming | Skip]
) -> Callable[[dict[str, Any], BoltContext, BoltRequest], None]:
    """A listener that reads the event with ``parse`` and answers what it finds."""

    def listen(event: dict[str, Any], context: BoltContext, request: BoltRequest) -> None:
        found = parse(
            event,
            team=_team(context, event),
            bot_user_id=context.bot_user_id,
            bot_id=context.bot_id,
        )
        _handle(answerer, found, request)

    return listen


def _handle(answerer: MessageAnswerer, found: Incoming | Skip, request: BoltRequest) -> None:
    if isinstance(found, Skip):
        logger.debug("ignoring message event: %s", found.reason)
        return
    if found.kind == "thread" and not _engaged(answerer, found):
        return
    answerer.answer(found, retry_num=_retry_num(request))


def _engaged(answerer: MessageAnswerer, incoming: Incoming) -> bool:
    """Whether the bot takes part in this thread (an untagged reply is for it)."""
    try:
        return answerer.deps.state.is_engaged(incoming.conversation)
    except StoreUnavailable as e:
        # Without the store we cannot tell whether the reply was meant for the bot, and
        # answering every thread in every channel with an error would be noise.
        logger.warning("store unavailable; untagged reply %s not answered: %s", incoming.ts, e)
        return False


def _team(context: BoltContext, event: dict[str, Any]) -> str:
    return str(context.team_id or event.get("team") or "")


def _retry_num(request: BoltRequest) -> int | None:
    values = request.headers.get("x-slack-retry-num") or []
    try:
        return int(values[0]) if values else None
    except ValueError:
        return None
