"""Best-effort writes to Slack: the working status, short notes, command replies. Logged.

``Replier`` writes what needs no confirmation. Every call logs one line (method, channel,
ts, ok, latency) and never raises: a Slack error is logged and the caller carries on — a
failed status never stops the answer. A turn's placeholder and answer go through
``slack/delivery.py`` instead (retried, confirmed, never posted twice); what the rep sees
while a turn runs (``setStatus`` with rotating loading messages in any thread, else a
placeholder; nothing at all for a private answer) is decided in ``MessageAnswerer._begin``.
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

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Reply:
    """A message to post: fallback/notification ``text`` and Block Kit ``blocks``."""

    text: str
    blocks: Sequence[dict[str, Any]] = field(default_factory=tuple)


class Replier:
    """Writes to Slack through one ``WebClient``."""

    def __init__(self, client: WebClient) -> None:
        self.client = client

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
        self,
        channel: str,
        thread_ts: str | None,
        prompts: Sequence[dict[str, str]],
        *,
        title: str,
    ) -> bool:
        """``assistant.threads.setSuggestedPrompts`` (``title``/``message`` pairs).
        ``thread_ts`` only for a legacy (``assistant_view``) panel thread: an agent app's
        call with it fails silently (the SDK leaves a ``None`` out of the call)."""
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
