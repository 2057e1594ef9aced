"""Slack's other half for tests: signed deliveries of events, commands and clicks to an app.

``SlackDelivery(url, signing_secret)`` POSTs to an app's request URL exactly as Slack does:
JSON ``event_callback`` envelopes for the Events API, form bodies for slash commands,
``payload=<json>`` for interactivity, each with ``X-Slack-Request-Timestamp`` and an
``X-Slack-Signature`` made with ``slack_sdk.signature.SignatureVerifier`` — and, for
redeliveries, ``X-Slack-Retry-Num`` / ``X-Slack-Retry-Reason``. ``raw`` sends any body with
any headers (bad signatures, stale timestamps).

The builders (``dm``, ``channel_message``, ``app_mention``, ``edited``, ``home_opened``,
``context_changed``, ``assistant_thread_started``, ``new_ts``) make event payloads shaped
like Slack's. ``SlackDelivery(..., enterprise_id=...)`` delivers for an Enterprise Grid
install (the envelope's ``enterprise_id`` and ``authorizations``).
"""

from __future__ import annotations

import itertools
import json
import threading
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from slack_sdk.signature import SignatureVerifier

_ts_counter = itertools.count(1)
_ts_lock = threading.Lock()


@dataclass(frozen=True)
class Delivered:
    """The app's HTTP answer to one delivery."""

    status: int
    body: str
    latency_ms: float

    def json(self) -> Any:
        return json.loads(self.body)


def new_ts() -> str:
    """A fresh, increasing Slack message timestamp."""
    with _ts_lock:
        n = next(_ts_counter)
    return f"{int(time.time())}.{n:06d}"


def dm(
    text: str, *, user: str, channel: str, ts: str | None = None, thread_ts: str | None = None
) -> dict[str, Any]:
    """A ``message.im`` event: a rep writing to the bot in its DM."""
    return _message(text, user=user, channel=channel, channel_type="im", ts=ts, thread_ts=thread_ts)


def channel_message(
    text: str,
    *,
    user: str,
    channel: str,
    ts: str | None = None,
    thread_ts: str | None = None,
    channel_type: str = "channel",
) -> dict[str, Any]:
    """A ``message.channels`` (or ``message.groups``) event."""
    return _message(
        text, user=user, channel=channel, channel_type=channel_type, ts=ts, thread_ts=thread_ts
    )


def app_mention(
    text: str, *, user: str, channel: str, ts: str, thread_ts: str | None = None
) -> dict[str, Any]:
    """The ``app_mention`` event Slack sends alongside the ``message`` event of a mention."""
    return _event("app_mention", text, user=user, channel=channel, ts=ts, thread_ts=thread_ts)


def edited(event: dict[str, Any], new_text: str, *, edited_ts: str | None = None) -> dict[str, Any]:
    """The ``message_changed`` event of the rep editing ``event`` (a ``message`` event) to
    read ``new_text``: as Slack sends it, hidden, the new and the previous message inside."""
    before = {k: v for k, v in event.items() if k not in ("channel", "channel_type", "event_ts")}
    at = edited_ts or new_ts()
    after = {**before, "text": new_text, "edited": {"user": event["user"], "ts": at}}
    return {
        "type": "message",
        "subtype": "message_changed",
        "hidden": True,
        "channel": event["channel"],
        "channel_type": event.get("channel_type", "channel"),
        "ts": at,
        "event_ts": at,
        "message": after,
        "previous_message": before,
    }


def with_file(event: dict[str, Any]) -> dict[str, Any]:
    """``event`` as a ``file_share``: a screenshot attached to the message."""
    image = {"id": "F" + uuid.uuid4().hex[:8].upper(), "name": "screenshot.png"}
    return {**event, "subtype": "file_share", "files": [{**image, "mimetype": "image/png"}]}


def home_opened(*, user: str, channel: str, tab: str = "messages") -> dict[str, Any]:
    """``app_home_opened``: the rep opened the app's DM (``tab="messages"``; agent_view)."""
    return {"type": "app_home_opened", "user": user, "channel": channel, "tab": tab}


def context_changed(
    *, user: str, viewing: str | None, team: str, channel: str | None = None
) -> dict[str, Any]:
    """``app_context_changed`` (agent_view): the rep is looking at channel ``viewing``
    (``None``: at nothing Slack names — an empty context). Slack's sample names no DM
    channel; ``channel`` adds one."""
    context: dict[str, Any] = {}
    if viewing is not None:
        context["entities"] = [
            {"type": "slack#/types/channel_id", "value": viewing, "team_id": team}
        ]
    event: dict[str, Any] = {
        "type": "app_context_changed",
        "user": user,
        "context": context,
        "event_ts": new_ts(),
    }
    if channel is not None:
        event["channel"] = channel
    return event


def assistant_thread_started(
    *, user: str, channel: str, thread_ts: str, viewing: str | None, team: str
) -> dict[str, Any]:
    """``assistant_thread_started`` (the legacy assistant_view side panel)."""
    context = {"channel_id": viewing, "team_id": team} if viewing else {}
    return {
        "type": "assistant_thread_started",
        "assistant_thread": {
            "user_id": user,
            "context": context,
            "channel_id": channel,
            "thread_ts": thread_ts,
        },
        "event_ts": new_ts(),
    }


def _message(
    text: str,
    *,
    user: str,
    channel: str,
    channel_type: str,
    ts: str | None,
    thread_ts: str | None,
) -> dict[str, Any]:
    return _event(
        "message",
        text,
        user=user,
        channel=channel,
        ts=ts or new_ts(),
        thread_ts=thread_ts,
        channel_type=channel_type,
    )


def _event(
    kind: str,
    text: str,
    *,
    user: str,
    channel: str,
    ts: str,
    thread_ts: str | None,
    **extra: str,
) -> dict[str, Any]:
    event: dict[str, Any] = {
        "type": kind,
        "user": user,
        "text": text,
        "ts": ts,
        "channel": channel,
        **extra,
        "event_ts": ts,
    }
    if thread_ts is not None:
        event["thread_ts"] = thread_ts
    return event


class SlackDelivery:
    """Sends signed requests to one app URL, as Slack would."""

    def __init__(
        self,
        url: str,
        signing_secret: str,
        *,
        team_id: str,
        api_app_id: str = "APRISM",
        timeout: float = 10.0,
        enterprise_id: str | None = None,
    ) -> None:
        self.url = url
        self.team_id = team_id
        self.enterprise_id = enterprise_id
        self.api_app_id = api_app_id
        self.timeout = timeout
        self._verifier = SignatureVerifier(signing_secret)

    def signed_headers(self, body: str, *, timestamp: int | None = None) -> dict[str, str]:
        stamp = str(int(time.time()) if timestamp is None else timestamp)
        signature = self._verifier.generate_signature(timestamp=stamp, body=body)
        assert signature is not None  # None only without a signing secret
        return {"X-Slack-Request-Timestamp": stamp, "X-Slack-Signature": signature}

    def envelope(
        self, event: dict[str, Any], *, event_id: str | None = None, shared: bool = False
    ) -> dict[str, Any]:
        """An ``event_callback`` envelope; ``shared``: its ``is_ext_shared_channel``."""
        authorization = {
            "enterprise_id": self.enterprise_id,
            "team_id": self.team_id,
            "user_id": "UPRISMBOT",
            "is_bot": True,
            "is_enterprise_install": False,
        }
        envelope = {
            "token": "legacy-verification-token",
            "team_id": self.team_id,
            "api_app_id": self.api_app_id,
            "event": event,
            "type": "event_callback",
            "event_id": event_id or "Ev" + uuid.uuid4().hex[:12].upper(),
            "event_time": int(time.time()),
            "authorizations": [authorization],
            "is_ext_shared_channel": shared,
        }
        if self.enterprise_id is not None:
            envelope["enterprise_id"] = self.enterprise_id
        return envelope

    def event(
        self,
        event: dict[str, Any],
        *,
        event_id: str | None = None,
        retry_num: int | None = None,
        retry_reason: str = "http_timeout",
        shared: bool = False,
    ) -> Delivered:
        """Deliver one Events API event (a redelivery when ``retry_num`` is given)."""
        body = json.dumps(self.envelope(event, event_id=event_id, shared=shared))
        headers = {"Content-Type": "application/json"}
        if retry_num is not None:
            headers["X-Slack-Retry-Num"] = str(retry_num)
            headers["X-Slack-Retry-Reason"] = retry_reason
        return self.raw(body, {**headers, **self.signed_headers(body)})

    def command(
        self,
        text: str,
        *,
        channel: str,
        user: str,
        response_url: str,
        command: str = "/prism",
        channel_name: str = "deal-room",
    ) -> Delivered:
        """Deliver one slash command."""
        body = urlencode(
            {
                "token": "legacy-verification-token",
                "team_id": self.team_id,
                "team_domain": "fake",
                "channel_id": channel,
                "channel_name": channel_name,
                "user_id": user,
                "user_name": user.lower(),
                "command": command,
                "text": text,
                "api_app_id": self.api_app_id,
                "response_url": response_url,
                "trigger_id": "trigger." + uuid.uuid4().hex[:8],
            }
        )
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        return self.raw(body, {**headers, **self.signed_headers(body)})

    def block_action(
        self,
        *,
        action_id: str,
        value: str,
        user: str,
        channel: str,
        message_ts: str,
        response_url: str = "",
        block_id: str = "prism_feedback",
        action_type: str = "button",
        thread_ts: str | None = None,
        user_team: str | None = None,
    ) -> Delivered:
        """Deliver one click on a message the bot posted (``action_type="feedback_buttons"``
        for Slack's feedback buttons); ``user_team``: the clicker's own workspace."""
        container: dict[str, Any] = {
            "type": "message",
            "message_ts": message_ts,
            "channel_id": channel,
            "is_ephemeral": False,
        }
        message: dict[str, Any] = {"type": "message", "ts": message_ts, "text": ""}
        if thread_ts is not None:
            container["thread_ts"] = message["thread_ts"] = thread_ts
        payload = {
            "type": "block_actions",
            "team": {"id": self.team_id, "domain": "fake"},
            "user": {"id": user, "team_id": user_team or self.team_id},
            "api_app_id": self.api_app_id,
            "container": container,
            "channel": {"id": channel},
            "message": message,
            "response_url": response_url,
            "trigger_id": "trigger." + uuid.uuid4().hex[:8],
            "actions": [
                {
                    "type": action_type,
                    "action_id": action_id,
                    "block_id": block_id,
                    "value": value,
                    "action_ts": str(time.time()),
                }
            ],
        }
        body = urlencode({"payload": json.dumps(payload)})
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        return self.raw(body, {**headers, **self.signed_headers(body)})

    def raw(self, body: str, headers: dict[str, str]) -> Delivered:
        """POST ``body`` with exactly ``headers``; any HTTP status is returned, not raised."""
        request = urllib.request.Request(
            self.url, data=body.encode(), headers=headers, method="POST"
        )
        started = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                status, text = response.status, response.read().decode()
        except urllib.error.HTTPError as e:
            with e:
                status, text = e.code, e.read().decode()
        return Delivered(status, text, (time.perf_counter() - started) * 1000)
