"""Posting to Slack: the working status, the placeholder, the answer. Best-effort, logged.

``Replier`` is the one place PRISM writes messages with the Web API. Every call logs one
line (method, channel, ts, ok, latency) and never raises: a Slack error is logged and the
caller carries on — a failed status never stops the answer, and a failed placeholder
update falls back to posting the answer as a new message.

While a turn runs the rep sees that PRISM is working:

- in any thread — a channel mention's, an assistant thread in the side panel —
  ``assistant.threads.setStatus`` with rotating ``loading_messages`` (Slack allows it in
  channels with ``chat:write`` since 2026-03); the status clears itself when the answer is
  posted in the thread;
- elsewhere (a top-level DM has no thread to show a status in), or when Slack refuses
  ``setStatus``, a short placeholder message that the answer then replaces in place with
  ``chat.update``.

A private answer (``Incoming.private``: a channel shared with another organisation, with
ephemeral answers chosen) gets neither a status nor a placeholder — both are visible to
everyone in the channel — and goes to the asker alone with ``chat.postEphemeral``, in the
thread.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError
from slack_sdk.web import SlackResponse

from prism_slack.slack import texts
from prism_slack.slack.conversation import Incoming

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Reply:
    """A message to post: fallback/notification ``text`` and Block Kit ``blocks``."""

    text: str
    blocks: Sequence[dict[str, Any]] = field(default_factory=tuple)


@dataclass(frozen=True)
class Progress:
    """How the rep is being shown that work started (see ``Replier.begin``)."""

    channel: str
    thread_ts: str | None
    placeholder_ts: str | None = None
    status_set: bool = False
    private_to: str | None = None
    """The one user the reply is for (``chat.postEphemeral``), or ``None``: everyone."""


class Replier:
    """Writes to Slack through one ``WebClient``."""

    def __init__(self, client: WebClient) -> None:
        self.client = client

    def begin(self, incoming: Incoming) -> Progress:
        """Show the rep that an answer is coming; never fails."""
        thread = incoming.reply_thread
        if incoming.private:
            # Nothing the others in the channel could see: not even that a report is read.
            return Progress(incoming.channel, thread, private_to=incoming.user)
        if thread is not None and self.set_status(incoming.channel, thread):
            return Progress(incoming.channel, thread, status_set=True)
        placeholder = self.post(incoming.channel, thread, Reply(texts.PLACEHOLDER))
        return Progress(incoming.channel, thread, placeholder_ts=placeholder)

    def finish(self, progress: Progress, reply: Reply) -> str | None:
        """Post ``reply`` where ``progress`` began: replacing the placeholder if there is one.

        Returns the ts of the message that holds the reply, or ``None`` if Slack refused.
        """
        if progress.private_to is not None:
            return self.ephemeral(
                progress.channel,
                progress.private_to,
                progress.thread_ts,
                reply.text,
                blocks=reply.blocks,
            )
        if progress.placeholder_ts is not None:
            if self.update(progress.channel, progress.placeholder_ts, reply):
                return progress.placeholder_ts
            logger.warning("placeholder %s not updated; posting the reply", progress.placeholder_ts)
        return self.post(progress.channel, progress.thread_ts, reply)

    def set_status(self, channel: str, thread_ts: str) -> bool:
        """``assistant.threads.setStatus`` with rotating loading messages; False where Slack
        refuses it."""
        response = self._call(
            "assistant.threads.setStatus",
            channel,
            f"thread={thread_ts}",
            lambda: self.client.assistant_threads_setStatus(
                channel_id=channel,
                thread_ts=thread_ts,
                status=texts.STATUS,
                loading_messages=texts.LOADING_MESSAGES,
            ),
        )
        return response is not None

    def suggest_prompts(
        self, channel: str, thread_ts: str, prompts: Sequence[dict[str, str]], *, title: str
    ) -> bool:
        """``assistant.threads.setSuggestedPrompts`` (``title``/``message`` pairs)."""
        response = self._call(
            "assistant.threads.setSuggestedPrompts",
            channel,
            f"thread={thread_ts}",
            lambda: self.client.assistant_threads_setSuggestedPrompts(
                channel_id=channel, thread_ts=thread_ts, prompts=list(prompts), title=title
            ),
        )
        return response is not None

    def post(self, channel: str, thread_ts: str | None, reply: Reply) -> str | None:
        """``chat.postMessage``; the new message's ts, or ``None``."""
        response = self._call(
            "chat.postMessage",
            channel,
            f"thread={thread_ts}",
            lambda: self.client.chat_postMessage(
                channel=channel,
                thread_ts=thread_ts,
                text=reply.text,
                blocks=list(reply.blocks) or None,
                unfurl_links=False,
                unfurl_media=False,
            ),
        )
        ts = response.get("ts") if response is not None else None
        return str(ts) if ts else None

    def update(self, channel: str, ts: str, reply: Reply) -> bool:
        """``chat.update`` of one of the bot's messages."""
        response = self._call(
            "chat.update",
            channel,
            f"ts={ts}",
            lambda: self.client.chat_update(
                channel=channel, ts=ts, text=reply.text, blocks=list(reply.blocks)
            ),
        )
        return response is not None

    def ephemeral(
        self,
        channel: str,
        user: str,
        thread_ts: str | None,
        text: str,
        *,
        blocks: Sequence[dict[str, Any]] = (),
    ) -> str | None:
        """``chat.postEphemeral``: a message only ``user`` sees; its ``message_ts`` or None."""
        response = self._call(
            "chat.postEphemeral",
            channel,
            f"thread={thread_ts} user={user}",
            lambda: self.client.chat_postEphemeral(
                channel=channel,
                user=user,
                thread_ts=thread_ts,
                text=text,
                blocks=list(blocks) or None,
            ),
        )
        ts = response.get("message_ts") if response is not None else None
        return str(ts) if ts else None

    def _call(
        self,
        method: str,
        channel: str,
        where: str,
        call: Callable[[], SlackResponse],
    ) -> SlackResponse | None:
        started = time.perf_counter()
        error: str | None = None
        response: SlackResponse | None = None
        try:
            response = call()
        except SlackApiError as e:
            error = str(e.response.get("error") or e.response.status_code)
        except (SlackClientError, OSError) as e:
            error = type(e).__name__
        latency = (time.perf_counter() - started) * 1000
        level = logging.INFO if error is None else logging.WARNING
        posted = response.get("ts") or response.get("message_ts") if response is not None else None
        logger.log(
            level,
            "slack %s channel=%s %s ok=%s error=%s posted_ts=%s latency_ms=%.1f",
            method,
            channel,
            where,
            error is None,
            error,
            posted,
            latency,
        )
        return response
