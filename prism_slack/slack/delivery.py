"""Delivered means confirmed: post a turn's reply until Slack says ok, exactly once.

``Delivery.post_once`` and ``Delivery.update`` are the two writes a turn makes (its
placeholder, its reply). Each call is retried on what is worth retrying — HTTP 5xx, 429
after the ``Retry-After`` Slack sent (the ``WebClient`` already waits out a few itself),
timeouts and dropped connections — with jittered exponential backoff, within
``budget_s``. ``msg_too_long`` gets a shorter reply (``shorten``). A permanent error
(``channel_not_found``, ``not_in_channel``, ``invalid_auth``, ``account_inactive``, …) raises
``PermanentSlackError`` at once; retries that run out raise ``SlackUnavailable``.

A retried ``chat.postMessage`` must not post twice when the first one did land (a 500 or a
timeout after Slack stored it): every post carries message ``metadata`` naming the turn and
the part, and before posting again ``find`` looks for that message in the conversation
(``conversations.replies`` / ``conversations.history``). ``chat.update`` is idempotent.

A private part (``Part.user``: a reply only the asker may see, in a channel shared with
another organisation) is posted with ``chat.postEphemeral``, retried alike. Slack keeps no
copy of an ephemeral message to look for, so one that landed before a 5xx or a timeout may
be shown twice to the rep — never lost, and never seen by anyone else.

Every call logs one line: method, channel, turn, ok, error, latency.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError
from slack_sdk.web import SlackResponse

from prism_slack.errors import PrismError
from prism_slack.slack.replies import Reply

logger = logging.getLogger(__name__)

METADATA_EVENT: Final = "prism_reply"
PERMANENT_ERRORS: Final = frozenset(
    {
        "channel_not_found",
        "not_in_channel",
        "invalid_auth",
        "account_inactive",
        "token_revoked",
        "token_expired",
        "not_authed",
        "is_archived",
        "missing_scope",
        "restricted_action",
        "team_access_not_granted",
        "ekm_access_denied",
    }
)
TRANSIENT_ERRORS: Final = frozenset(
    {"internal_error", "fatal_error", "service_unavailable", "request_timeout", "ratelimited"}
)
SHORT_TEXT: Final = 3000
"""A reply's fallback text after ``msg_too_long`` (its blocks are within limits already)."""


class PermanentSlackError(PrismError):
    """Slack refused the call for good (``error`` says why); retrying cannot help."""

    def __init__(self, method: str, error: str) -> None:
        self.method = method
        self.error = error
        super().__init__(f"slack {method}: {error}")


class SlackUnavailable(PrismError):
    """Slack kept failing the call (5xx, 429, timeouts) until the retries ran out."""


@dataclass(frozen=True)
class Part:
    """Where a message of a turn goes, and which of the turn's messages it is."""

    channel: str
    thread_ts: str | None
    turn_id: str
    name: str
    """``placeholder`` or ``reply``: at most one message of each per turn."""
    user: str | None = None
    """The one user who sees the message (``chat.postEphemeral``); ``None``: everyone."""


@dataclass(frozen=True)
class _Failure:
    error: str
    transient: bool
    retry_after_s: float | None = None
    may_have_landed: bool = False


class Delivery:
    """Confirmed writes to Slack through one ``WebClient``."""

    def __init__(
        self,
        client: WebClient,
        *,
        budget_s: float = 30.0,
        base_delay_s: float = 0.5,
        max_delay_s: float = 8.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.client = client
        self.budget_s = budget_s
        self.base_delay_s = base_delay_s
        self.max_delay_s = max_delay_s
        self._sleep = sleep

    # -- the two writes -------------------------------------------------------------------

    def post_once(self, part: Part, reply: Reply, *, maybe_posted: bool = False) -> str:
        """``chat.postMessage`` (``chat.postEphemeral`` for a private part) of ``part``,
        confirmed; the message's ts.

        ``maybe_posted``: an earlier attempt (another worker's, before it died) may have
        posted it already — look first.
        """
        if maybe_posted and (found := self.find(part)) is not None:
            logger.info("slack turn=%s %s already posted as %s", part.turn_id, part.name, found)
            return found
        metadata = {"event_type": METADATA_EVENT, "event_payload": _payload(part)}
        current = reply
        method = "chat.postMessage" if part.user is None else "chat.postEphemeral"

        def call() -> SlackResponse:
            if part.user is not None:
                return self.client.chat_postEphemeral(
                    channel=part.channel,
                    user=part.user,
                    thread_ts=part.thread_ts,
                    text=current.text,
                    blocks=list(current.blocks) or None,
                )
            return self.client.chat_postMessage(
                channel=part.channel,
                thread_ts=part.thread_ts,
                text=current.text,
                blocks=list(current.blocks) or None,
                metadata=metadata,
                unfurl_links=False,
                unfurl_media=False,
            )

        deadline = time.monotonic() + self.budget_s
        attempt = 0
        while True:
            attempt += 1
            response, failure = self._call(method, part, call)
            if failure is None and response is not None:
                return str(response.get("ts") or response.get("message_ts") or "")
            assert failure is not None
            if failure.error == "msg_too_long" and current is reply:
                current = shorten(reply)
                continue
            if _refused_blocks(failure) and current.blocks:
                current = Reply(shorten(reply).text)  # e.g. invalid_blocks: the words alone
                continue
            self._wait_or_raise(method, failure, attempt, deadline)
            if failure.may_have_landed and (found := self.find(part)) is not None:
                logger.info("slack turn=%s %s had landed as %s", part.turn_id, part.name, found)
                return found

    def update(self, part: Part, ts: str, reply: Reply) -> bool:
        """``chat.update`` of message ``ts`` to ``reply``, confirmed. False when the message
        cannot be updated (gone, too old, refused blocks): post the reply instead."""
        current = reply

        def call() -> SlackResponse:
            return self.client.chat_update(
                channel=part.channel, ts=ts, text=current.text, blocks=list(current.blocks)
            )

        deadline = time.monotonic() + self.budget_s
        attempt = 0
        while True:
            attempt += 1
            _, failure = self._call("chat.update", part, call)
            if failure is None:
                return True
            if failure.error == "msg_too_long" and current is reply:
                current = shorten(reply)
                continue
            if not failure.transient and failure.error not in PERMANENT_ERRORS:
                return False  # message_not_found, cant_update_message, invalid_blocks, …
            self._wait_or_raise("chat.update", failure, attempt, deadline)

    def find(self, part: Part) -> str | None:
        """The ts of ``part``'s message if Slack already holds it (by its metadata)."""
        if part.user is not None:
            return None  # an ephemeral message is not kept: there is nothing to look for
        try:
            if part.thread_ts is not None:
                response = self.client.conversations_replies(
                    channel=part.channel, ts=part.thread_ts, include_all_metadata=True, limit=1000
                )
            else:  # newest first: a turn's own messages are among the latest
                response = self.client.conversations_history(
                    channel=part.channel, include_all_metadata=True, limit=200
                )
        except (SlackClientError, OSError) as e:
            logger.warning("slack turn=%s cannot look for %s: %s", part.turn_id, part.name, e)
            return None
        wanted = _payload(part)
        for message in response.get("messages") or []:
            metadata = message.get("metadata") or {}
            if metadata.get("event_type") == METADATA_EVENT and _same(
                metadata.get("event_payload"), wanted
            ):
                return str(message.get("ts"))
        return None

    # -- retries --------------------------------------------------------------------------

    def _wait_or_raise(self, method: str, failure: _Failure, attempt: int, deadline: float) -> None:
        if not failure.transient:
            raise PermanentSlackError(method, failure.error)
        delay = min(self.max_delay_s, self.base_delay_s * 2 ** (attempt - 1))
        delay = delay * random.uniform(0.5, 1.0)
        if failure.retry_after_s is not None:
            delay = max(delay, failure.retry_after_s)
        if time.monotonic() + delay > deadline:
            raise SlackUnavailable(f"slack {method}: still {failure.error} after {attempt} tries")
        self._sleep(delay)

    def _call(
        self, method: str, part: Part, call: Callable[[], SlackResponse]
    ) -> tuple[SlackResponse | None, _Failure | None]:
        started = time.perf_counter()
        failure: _Failure | None = None
        response: SlackResponse | None = None
        try:
            response = call()
        except SlackApiError as e:
            failure = _classify(e.response)
        except (SlackClientError, OSError) as e:  # timeout, connection reset: may have landed
            failure = _Failure(type(e).__name__, transient=True, may_have_landed=True)
        latency = (time.perf_counter() - started) * 1000
        level = logging.INFO if failure is None else logging.WARNING  # the turn logs the ERROR
        posted = None if response is None else response.get("ts") or response.get("message_ts")
        logger.log(
            level,
            "slack %s channel=%s turn=%s part=%s ok=%s error=%s posted_ts=%s latency_ms=%.1f",
            method,
            part.channel,
            part.turn_id,
            part.name,
            failure is None,
            failure.error if failure else None,
            posted,
            latency,
        )
        return response, failure


def shorten(reply: Reply) -> Reply:
    """``reply`` small enough for ``msg_too_long``: short fallback text, at most 20 blocks."""
    text = reply.text if len(reply.text) <= SHORT_TEXT else reply.text[: SHORT_TEXT - 1] + "…"
    blocks: Sequence[dict[str, Any]] = reply.blocks
    if len(blocks) > 20:
        blocks = [*blocks[:19], blocks[-1]]  # keep the last block (the feedback buttons)
    return Reply(text, blocks)


def _classify(response: SlackResponse) -> _Failure:
    status = response.status_code
    error = str(response.get("error") or f"http_{status}")
    if status == 429 or error == "ratelimited":
        retry_after = response.headers.get("Retry-After") or response.headers.get("retry-after")
        seconds = _seconds(retry_after)
        return _Failure(error, transient=True, retry_after_s=seconds)
    if status >= 500 or error in TRANSIENT_ERRORS:
        return _Failure(error, transient=True, may_have_landed=True)
    return _Failure(error, transient=False)


def _refused_blocks(failure: _Failure) -> bool:
    return not failure.transient and failure.error not in PERMANENT_ERRORS


def _seconds(value: object) -> float | None:
    if isinstance(value, list):
        value = value[0] if value else None
    try:
        return float(str(value)) if value is not None else None
    except ValueError:
        return None


def _payload(part: Part) -> dict[str, str]:
    return {"turn_id": part.turn_id, "part": part.name}


def _same(payload: object, wanted: dict[str, str]) -> bool:
    return isinstance(payload, dict) and all(payload.get(k) == v for k, v in wanted.items())
