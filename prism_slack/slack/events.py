"""Events API listeners: DMs, @mentions, untagged follow-ups in engaged threads.

Over HTTP these run in the request thread, before Slack gets its 200 (``app.events_inline``):
they only read the event and record the turn durably; a ``TurnWorker`` answers it.

- ``message`` (``message.im``, ``message.channels``, ``message.groups``, ``message.mpim``):
  a DM is always answered (one without words gets a note); a channel or group-DM message
  when it mentions the bot (an edit that adds the mention counts, once), or when it is a
  reply in a thread where the bot is engaged and is for it (``addressing.for_prism``; a
  reply that is not is one INFO line with why).
- ``app_mention``: answered in the thread of the mention. Slack also sends the ``message``
  event of the same mention; both carry the same message identity, and only one is
  answered (see ``MessageAnswerer``).
- Who asks, and whether the channel is shared with another organisation (``Access``), is
  decided on the worker when the turn is prepared (``MessageAnswerer.prepare``): it may
  take a ``users.info`` call, which has no place before the ack. A message that is not
  answered is a turn like any other, so of the ``app_mention``/``message`` pair and of
  every retry one writes the single log line and, where the rep is told something, the
  single ephemeral note.
- ``channel_shared`` / ``channel_unshared``: ``Access`` learns at once that a channel is
  (no longer) shared with another organisation.
- ``app_rate_limited`` (Slack is dropping our events): logged as an ERROR and acked.
- The side panel's events (``app_home_opened``, ``app_context_changed``, and the legacy
  ``assistant_thread_*``): ``status``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from slack_bolt import App, BoltContext, BoltRequest, BoltResponse

from prism_slack.errors import StoreUnavailable
from prism_slack.ports import Conversation
from prism_slack.slack.access import Access, home_teams
from prism_slack.slack.answering import MessageAnswerer
from prism_slack.slack.conversation import (
    Incoming,
    Skip,
    from_mention_event,
    from_message_event,
)

logger = logging.getLogger(__name__)


def register_events(app: App, answerer: MessageAnswerer, access: Access) -> None:
    """Add the message listeners (and the ``app_rate_limited`` handler) to ``app``."""
    app.middleware(on_app_rate_limited)
    app.event("message")(_listener(answerer, from_message_event))
    app.event("app_mention")(_listener(answerer, from_mention_event))

    @app.event("channel_shared")
    def on_shared(event: dict[str, Any]) -> None:
        if event.get("channel"):
            access.channel_changed(str(event["channel"]), shared=True)

    @app.event("channel_unshared")
    def on_unshared(event: dict[str, Any]) -> None:
        # Still shared with another organisation, or not; when the event does not say, ask.
        still = event.get("is_ext_shared")
        if event.get("channel"):
            access.channel_changed(
                str(event["channel"]), shared=still if isinstance(still, bool) else None
            )


def on_app_rate_limited(body: dict[str, Any], next: Callable[[], None]) -> BoltResponse | None:
    """Bolt middleware: Slack's ``app_rate_limited`` notice, an ERROR and a 200.

    It is not an ``event_callback`` (no listener can match it), and it means Slack is
    dropping this app's events for the rest of the minute.
    """
    if body.get("type") != "app_rate_limited":
        next()
        return None
    logger.error(
        "slack app_rate_limited: Slack is dropping events for team=%s app=%s minute=%s",
        body.get("team_id"),
        body.get("api_app_id"),
        body.get("minute_rate_limited"),
    )
    return BoltResponse(status=200, body="")


def _listener(
    answerer: MessageAnswerer, parse: Callable[..., Incoming | Skip]
) -> Callable[[dict[str, Any], dict[str, Any], BoltContext, BoltRequest], None]:
    """A listener that reads the event with ``parse`` and answers what it finds."""

    def listen(
        event: dict[str, Any], body: dict[str, Any], context: BoltContext, request: BoltRequest
    ) -> None:
        shared = body.get("is_ext_shared_channel")
        found = parse(
            event,
            team=_team(context, event),
            bot_user_id=context.bot_user_id,
            bot_id=context.bot_id,
            shared=shared if isinstance(shared, bool) else None,
        )
        if isinstance(found, Incoming):
            found = found.model_copy(update={"home": tuple(sorted(home_teams(context)))})
        _handle(answerer, found, request)

    return listen


def _handle(answerer: MessageAnswerer, found: Incoming | Skip, request: BoltRequest) -> None:
    if isinstance(found, Skip):
        if found.thread is not None and _engaged(answerer, found.thread, "-"):
            where = found.thread
            logger.info(
                "slack reply in %s/%s not answered: %s", where.channel, where.thread, found.reason
            )
        else:
            logger.debug("ignoring message event: %s", found.reason)
        return
    if found.kind == "thread" and not _engaged(answerer, found.conversation, found.ts):
        return
    if found.edited:
        logger.info("slack message %s was edited to mention the bot", found.claim_key)
    answerer.answer(found, retry_num=_retry_num(request))


def _engaged(answerer: MessageAnswerer, thread: Conversation, ts: str) -> bool:
    """Whether the bot takes part in this thread (an untagged reply is for it)."""
    try:
        return answerer.store.is_engaged(thread)
    except StoreUnavailable as e:
        # Without the store we cannot tell whether the reply was meant for the bot, and
        # answering every thread in every channel with an error would be noise.
        logger.warning("store unavailable; untagged reply %s not answered: %s", ts, e)
        return False


def _team(context: BoltContext, event: dict[str, Any]) -> str:
    return str(context.team_id or event.get("team") or "")


def _retry_num(request: BoltRequest) -> int | None:
    values = request.headers.get("x-slack-retry-num") or []
    try:
        return int(values[0]) if values else None
    except ValueError:
        return None
