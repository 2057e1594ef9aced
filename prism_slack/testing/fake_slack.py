"""A fake Slack Web API on 127.0.0.1: records every call, answers like Slack, fails on cue.

``FakeSlack`` serves a ``BackgroundHTTPServer`` on a free port. Point a ``WebClient`` at
``fake.api_url`` (``WebClient(base_url=fake.api_url)``) and it serves ``POST /api/<method>``
with form or JSON bodies, the way Slack does:

- ``auth.test``, ``chat.postMessage`` (with ``metadata``), ``chat.update``,
  ``chat.postEphemeral``, ``chat.delete``, ``conversations.history`` and
  ``conversations.replies`` (the bot's own messages, ``metadata`` with
  ``include_all_metadata``), ``assistant.threads.setStatus``,
  ``assistant.threads.setSuggestedPrompts``, ``users.info``, ``conversations.info``,
  ``apps.connections.open``; any other method answers ``unknown_method``;
- the workspace's people and channels: every user is a full member of ``team_id`` unless
  ``add_user`` says otherwise (another organisation's, a guest, an app), every channel is
  internal unless ``share_channel`` shares it with another organisation (Slack Connect);
- the bot token is checked (``invalid_auth`` otherwise; ``apps.connections.open`` wants the
  app-level token);
- messages are kept, so ``chat.update`` of a ts that was never posted is
  ``message_not_found``, and ``messages()`` shows what a channel looks like now;
- Slack's message limits are enforced (≤ 50 blocks, section text ≤ 3,000 characters, …:
  ``invalid_blocks``; text over 40,000 characters: ``msg_too_long``);
- the app is an agent app (``agent_view``, as the manifest ships it) unless
  ``agent_view=False`` (the legacy ``assistant_view``):
  ``assistant.threads.setStatus`` works in channel threads (``C…``/``G…``; Slack allows it
  with ``chat:write`` since 2026-03), in any DM thread of an agent app, and in DM threads
  registered with ``add_assistant_thread`` (``invalid_thread_ts`` in other DM threads of a
  legacy app); an empty status clears it. ``setSuggestedPrompts`` of an agent app takes no
  ``thread_ts`` — with one, Slack's call "fails silently": ``ok`` but nothing shown, which
  ``prompts_shown()`` tells — and a legacy app's only works in assistant threads;
- Enterprise Grid: with ``enterprise_id`` the workspace belongs to that org (``auth.test``
  says so), and ``add_user(..., enterprise_id=...)`` makes a person of an org
  (``enterprise_user``).

``response_url(...)`` hands out URLs on the same server for slash-command and
interactivity ``respond()``; posts to them are recorded as method ``"response_url"``.

Failures are scripted per method: ``fail_next("chat.postMessage", error="channel_not_found")``,
``fail_next("chat.postMessage", status=500, lands=True)`` (the post is stored all the same)
or ``rate_limit_next("chat.postMessage", count=2, retry_after=0)`` (HTTP 429 with
``Retry-After``). Every call, failed or not, is recorded with its parameters and time;
``wait_for`` polls the record with a deadline, so tests never sleep for a fixed time.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any, TypeVar
from urllib.parse import parse_qs

from prism_slack.testing.http import BackgroundHTTPServer, HTTPService

logger = logging.getLogger(__name__)

RESPONSE_URL_METHOD = "response_url"

MAX_BLOCKS = 50
MAX_SECTION_TEXT = 3000
MAX_HEADER_TEXT = 150
MAX_MESSAGE_TEXT = 40_000
MAX_CONTEXT_ELEMENTS = 10
MAX_ACTIONS_ELEMENTS = 25
MAX_CONTEXT_ACTIONS = 5
MAX_BUTTON_TEXT = 75
MAX_BUTTON_VALUE = 2000
MAX_BLOCK_ID = 255

_JSON_FIELDS = frozenset({"blocks", "attachments", "metadata", "loading_messages", "prompts"})

T = TypeVar("T")


@dataclass(frozen=True)
class RecordedCall:
    """One request the fake received: the Web API method (or ``"response_url"``)."""

    method: str
    params: dict[str, Any]
    at: float
    """``time.monotonic()`` when it arrived."""
    ok: bool
    status: int
    error: str | None = None
    path: str = ""


@dataclass
class FakeMessage:
    """A message as it stands in the fake workspace (after any ``chat.update``)."""

    channel: str
    ts: str
    text: str
    blocks: list[dict[str, Any]]
    thread_ts: str | None
    user: str
    updates: int = 0
    metadata: dict[str, Any] | None = None


@dataclass
class _Failure:
    error: str
    status: int
    retry_after: int | None
    lands: bool = False
    """The call takes effect although the answer is an error (a 500 after the write)."""
    stall_s: float = 0.0
    """Answer only after this long (then as if nothing failed): the client times out."""


@dataclass
class _Script:
    failures: dict[str, list[_Failure]] = field(default_factory=dict)

    def take(self, method: str) -> _Failure | None:
        queue = self.failures.get(method)
        return queue.pop(0) if queue else None


class FakeSlack(HTTPService):
    """The fake Slack Web API server. Use as a context manager, or ``start()``/``stop()``."""

    def __init__(
        self,
        *,
        bot_token: str = "xoxb-fake-bot-token",
        app_token: str = "xapp-fake-app-token",
        team_id: str = "T0FAKE",
        bot_user_id: str = "UPRISMBOT",
        bot_id: str = "BPRISM",
        socket_url: str | None = None,
        scopes: list[str] | None = None,
        agent_view: bool = True,
        enterprise_id: str | None = None,
    ) -> None:
        self.agent_view = agent_view
        self.enterprise_id = enterprise_id
        self.scopes = scopes
        """What ``auth.test`` reports in its ``x-oauth-scopes`` header (``None``: no header),
        as Slack reports the scopes a token was granted."""
        self.bot_token = bot_token
        self.app_token = app_token
        self.team_id = team_id
        self.bot_user_id = bot_user_id
        self.bot_id = bot_id
        self.socket_url = socket_url
        """What ``apps.connections.open`` returns (a Socket Mode WebSocket URL)."""
        self._lock = threading.Lock()
        self._calls: list[RecordedCall] = []
        self._messages: dict[tuple[str, str], FakeMessage] = {}
        self._assistant_threads: set[tuple[str, str]] = set()
        self._prompts_shown: list[dict[str, Any]] = []
        self._users: dict[str, dict[str, Any]] = {}
        self._shared: set[str] = set()
        self._script = _Script()
        self._ts = itertools.count(1)
        self._urls = itertools.count(1)

    # -- lifecycle (start, stop, url: HTTPService) -----------------------------------------

    def _build_server(self) -> BackgroundHTTPServer:
        return BackgroundHTTPServer(_handler_for(self), name="fake-slack")

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>`` (the same as ``url``)."""
        return self.url

    @property
    def api_url(self) -> str:
        """The Web API base URL, as ``WebClient(base_url=...)`` / ``SLACK_API_URL`` want it."""
        return f"{self.base_url}/api/"

    def response_url(self) -> str:
        """A fresh ``response_url`` for one slash command or interaction."""
        return f"{self.base_url}/response/{next(self._urls)}"

    # -- scripting -------------------------------------------------------------------------

    def fail_next(
        self,
        method: str,
        *,
        error: str = "internal_error",
        count: int = 1,
        status: int = 200,
        lands: bool = False,
    ) -> None:
        """The next ``count`` calls of ``method`` answer ``ok: false`` with ``error`` (HTTP
        ``status``); with ``lands`` the call takes effect all the same (a post is stored)."""
        failure = _Failure(error=error, status=status, retry_after=None, lands=lands)
        self._queue(method, failure, count)

    def stall_next(self, method: str, *, seconds: float, count: int = 1) -> None:
        """The next ``count`` calls of ``method`` take effect at once but answer only after
        ``seconds`` — past a client's timeout, it cannot tell whether they landed."""
        self._queue(
            method, _Failure(error="", status=200, retry_after=None, stall_s=seconds), count
        )

    def rate_limit_next(self, method: str, *, count: int = 1, retry_after: int = 1) -> None:
        """The next ``count`` calls of ``method`` answer HTTP 429 with ``Retry-After``."""
        self._queue(
            method, _Failure(error="ratelimited", status=429, retry_after=retry_after), count
        )

    def _queue(self, method: str, failure: _Failure, count: int) -> None:
        with self._lock:
            self._script.failures.setdefault(method, []).extend([failure] * count)

    def add_assistant_thread(self, channel: str, thread_ts: str) -> None:
        """Make ``(channel, thread_ts)`` an assistant thread, where ``setStatus`` works."""
        with self._lock:
            self._assistant_threads.add((channel, thread_ts))

    def add_user(
        self,
        user: str,
        *,
        team_id: str | None = None,
        is_restricted: bool = False,
        is_ultra_restricted: bool = False,
        is_bot: bool = False,
        enterprise_id: str | None = None,
    ) -> None:
        """How ``users.info`` describes ``user`` (by default: a full member of ``team_id``);
        ``enterprise_id``: of that Enterprise Grid org (``enterprise_user``)."""
        with self._lock:
            self._users[user] = {
                "team_id": team_id or self.team_id,
                "is_restricted": is_restricted,
                "is_ultra_restricted": is_ultra_restricted,
                "is_bot": is_bot,
            }
            if enterprise_id is not None:
                self._users[user]["enterprise_user"] = {
                    "id": user,
                    "enterprise_id": enterprise_id,
                    "enterprise_name": "Fake Org",
                    "teams": [team_id or self.team_id],
                }

    def share_channel(self, channel: str) -> None:
        """Make ``channel`` a Slack Connect channel (``is_ext_shared`` in conversations.info)."""
        with self._lock:
            self._shared.add(channel)

    # -- inspection ------------------------------------------------------------------------

    def calls(self, method: str | None = None) -> list[RecordedCall]:
        """Every recorded call (of ``method``), in arrival order."""
        with self._lock:
            return [c for c in self._calls if method is None or c.method == method]

    def messages(self, channel: str | None = None) -> list[FakeMessage]:
        """Messages as they stand now (updates applied), in posting order."""
        with self._lock:
            found = [m for m in self._messages.values() if channel in (None, m.channel)]
        return sorted(found, key=lambda m: _ts_key(m.ts))

    def prompts_shown(self) -> list[dict[str, Any]]:
        """The ``setSuggestedPrompts`` calls Slack would show (not the silently failed)."""
        with self._lock:
            return list(self._prompts_shown)

    def thread(self, channel: str, thread_ts: str | None) -> list[FakeMessage]:
        """The bot's messages in one thread (``None``: top-level messages of the channel)."""
        return [m for m in self.messages(channel) if m.thread_ts == thread_ts]

    def wait_for(
        self,
        predicate: Callable[[], T | None],
        *,
        timeout: float = 10.0,
        what: str = "condition",
    ) -> T:
        """Poll ``predicate`` until it returns something truthy; return that value.

        Raises ``AssertionError`` naming ``what`` and listing the calls seen on timeout.
        """
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if time.monotonic() >= deadline:
                seen = ", ".join(f"{c.method}({c.error or 'ok'})" for c in self.calls())
                raise AssertionError(f"timed out after {timeout}s waiting for {what}; saw: {seen}")
            time.sleep(0.01)

    # -- the API ---------------------------------------------------------------------------

    def _handle(
        self, path: str, params: dict[str, Any], token: str | None
    ) -> tuple[int, dict[str, Any], dict[str, str]]:
        """Status, JSON body and extra headers for one request. Records the call."""
        if path.startswith("/response/"):
            self._record(RESPONSE_URL_METHOD, params, 200, None, path)
            return 200, {"ok": True}, {}
        if not path.startswith("/api/"):
            return 404, {"ok": False, "error": "not_found"}, {}
        method = path.removeprefix("/api/")
        with self._lock:
            failure = self._script.take(method)
        if failure is not None and failure.stall_s:
            answer = self._handle_now(method, params, token, path)
            time.sleep(failure.stall_s)  # it landed; the answer comes too late
            return answer
        if failure is not None:
            if failure.lands and (landing := _METHODS.get(method)) is not None:
                with contextlib.suppress(_ApiError):
                    landing(self, params)
            self._record(method, params, failure.status, failure.error, path)
            headers = {}
            if failure.retry_after is not None:
                headers["Retry-After"] = str(failure.retry_after)
            return failure.status, {"ok": False, "error": failure.error}, headers
        return self._handle_now(method, params, token, path)

    def _handle_now(
        self, method: str, params: dict[str, Any], token: str | None, path: str
    ) -> tuple[int, dict[str, Any], dict[str, str]]:
        expected = self.app_token if method == "apps.connections.open" else self.bot_token
        if (token or params.get("token")) != expected:
            return self._error(method, params, "invalid_auth", path)
        handler = _METHODS.get(method)
        if handler is None:
            return self._error(method, params, "unknown_method", path)
        try:
            body = handler(self, params)
        except _ApiError as e:
            return self._error(method, params, e.error, path)
        self._record(method, params, 200, None, path)
        headers = {}
        if method == "auth.test" and self.scopes is not None:
            headers["x-oauth-scopes"] = ",".join(self.scopes)
        return 200, {"ok": True, **body}, headers

    def _error(
        self, method: str, params: dict[str, Any], error: str, path: str
    ) -> tuple[int, dict[str, Any], dict[str, str]]:
        self._record(method, params, 200, error, path)
        return 200, {"ok": False, "error": error}, {}

    def _record(
        self, method: str, params: dict[str, Any], status: int, error: str | None, path: str
    ) -> None:
        call = RecordedCall(
            method=method,
            params=params,
            at=time.monotonic(),
            ok=error is None,
            status=status,
            error=error,
            path=path,
        )
        with self._lock:
            self._calls.append(call)

    def _next_ts(self) -> str:
        return f"{int(time.time())}.{next(self._ts):06d}"

    def _auth_test(self, params: dict[str, Any]) -> dict[str, Any]:
        return {
            "url": "https://fake.slack.invalid/",
            "team": "Fake Workspace",
            "user": "prism",
            "team_id": self.team_id,
            "user_id": self.bot_user_id,
            "bot_id": self.bot_id,
            "is_enterprise_install": False,
            **({"enterprise_id": self.enterprise_id} if self.enterprise_id else {}),
        }

    def _post_message(self, params: dict[str, Any]) -> dict[str, Any]:
        channel = _required(params, "channel", "channel_not_found")
        text, blocks = _content(params)
        ts = self._next_ts()
        thread_ts = params.get("thread_ts") or None
        metadata = params.get("metadata")
        message = FakeMessage(
            channel,
            ts,
            text,
            blocks,
            thread_ts,
            self.bot_user_id,
            metadata=metadata if isinstance(metadata, dict) else None,
        )
        with self._lock:
            self._messages[(channel, ts)] = message
        return {"channel": channel, "ts": ts, "message": _as_json(message, self.bot_id)}

    def _update(self, params: dict[str, Any]) -> dict[str, Any]:
        channel = _required(params, "channel", "channel_not_found")
        ts = _required(params, "ts", "message_not_found")
        text, blocks = _content(params)
        with self._lock:
            message = self._messages.get((channel, ts))
            if message is None:
                raise _ApiError("message_not_found")
            message.text, message.blocks = text, blocks
            message.updates += 1
        return {"channel": channel, "ts": ts, "text": text}

    def _post_ephemeral(self, params: dict[str, Any]) -> dict[str, Any]:
        _required(params, "channel", "channel_not_found")
        _required(params, "user", "user_not_in_channel")
        _content(params)
        return {"message_ts": self._next_ts()}

    def _delete(self, params: dict[str, Any]) -> dict[str, Any]:
        channel = _required(params, "channel", "channel_not_found")
        ts = _required(params, "ts", "message_not_found")
        with self._lock:
            if self._messages.pop((channel, ts), None) is None:
                raise _ApiError("message_not_found")
        return {"channel": channel, "ts": ts}

    def _set_status(self, params: dict[str, Any]) -> dict[str, Any]:
        channel = _required(params, "channel_id", "channel_not_found")
        thread_ts = _required(params, "thread_ts", "invalid_thread_ts")
        if not isinstance(params.get("status"), str):
            raise _ApiError("invalid_arguments")
        with self._lock:
            assistant = (channel, thread_ts) in self._assistant_threads
        if not (assistant or self.agent_view) and not channel.startswith(("C", "G")):
            raise _ApiError("invalid_thread_ts")
        return {}

    def _set_prompts(self, params: dict[str, Any]) -> dict[str, Any]:
        channel = _required(params, "channel_id", "channel_not_found")
        thread_ts = params.get("thread_ts")
        if self.agent_view and thread_ts:
            return {}  # Slack: "including it in a call for an agent app … silently fail[s]"
        if not self.agent_view:
            thread_ts = _required(params, "thread_ts", "invalid_thread_ts")
            with self._lock:
                if (channel, thread_ts) not in self._assistant_threads:
                    raise _ApiError("invalid_thread_ts")
        with self._lock:
            self._prompts_shown.append(params)
        return {}

    def _history(self, params: dict[str, Any]) -> dict[str, Any]:
        """``conversations.history``: the bot's top-level messages (newest first)."""
        channel = _required(params, "channel", "channel_not_found")
        return {"messages": self._listing(channel, None, params), "has_more": False}

    def _replies(self, params: dict[str, Any]) -> dict[str, Any]:
        """``conversations.replies``: the bot's messages in the thread (oldest first)."""
        channel = _required(params, "channel", "channel_not_found")
        thread_ts = _required(params, "ts", "thread_not_found")
        found = self._listing(channel, thread_ts, params)
        return {"messages": list(reversed(found)), "has_more": False}

    def _listing(
        self, channel: str, thread_ts: str | None, params: dict[str, Any]
    ) -> list[dict[str, Any]]:
        oldest = _ts_key(str(params.get("oldest") or "0"))
        with_metadata = str(params.get("include_all_metadata")).lower() in ("1", "true")
        listed = []
        for message in reversed(self.thread(channel, thread_ts)):
            if _ts_key(message.ts) < oldest:
                continue
            doc = _as_json(message, self.bot_id)
            if with_metadata and message.metadata is not None:
                doc["metadata"] = message.metadata
            listed.append(doc)
        return listed

    def _users_info(self, params: dict[str, Any]) -> dict[str, Any]:
        user = _required(params, "user", "user_not_found")
        with self._lock:
            known = self._users.get(user) or {"team_id": self.team_id}
        return {"user": {"id": user, "name": user.lower(), "deleted": False, **known}}

    def _conversations_info(self, params: dict[str, Any]) -> dict[str, Any]:
        channel = _required(params, "channel", "channel_not_found")
        with self._lock:
            shared = channel in self._shared
        return {
            "channel": {
                "id": channel,
                "is_channel": channel.startswith("C"),
                "is_im": channel.startswith("D"),
                "is_shared": shared,
                "is_ext_shared": shared,
                "is_org_shared": False,
            }
        }

    def _connections_open(self, params: dict[str, Any]) -> dict[str, Any]:
        if self.socket_url is None:
            raise _ApiError("socket_mode_not_enabled")
        return {"url": self.socket_url}


class _ApiError(Exception):
    def __init__(self, error: str) -> None:
        self.error = error
        super().__init__(error)


_METHODS: dict[str, Callable[[FakeSlack, dict[str, Any]], dict[str, Any]]] = {
    "auth.test": FakeSlack._auth_test,
    "chat.postMessage": FakeSlack._post_message,
    "chat.update": FakeSlack._update,
    "chat.postEphemeral": FakeSlack._post_ephemeral,
    "chat.delete": FakeSlack._delete,
    "conversations.history": FakeSlack._history,
    "conversations.replies": FakeSlack._replies,
    "assistant.threads.setStatus": FakeSlack._set_status,
    "assistant.threads.setSuggestedPrompts": FakeSlack._set_prompts,
    "users.info": FakeSlack._users_info,
    "conversations.info": FakeSlack._conversations_info,
    "apps.connections.open": FakeSlack._connections_open,
}


def _required(params: dict[str, Any], name: str, error: str) -> str:
    value = params.get(name)
    if not isinstance(value, str) or not value:
        raise _ApiError(error)
    return value


def _content(params: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    """The message text and blocks, validated against Slack's limits."""
    text = params.get("text") or ""
    blocks = params.get("blocks") or []
    if not isinstance(text, str) or not isinstance(blocks, list):
        raise _ApiError("invalid_arguments")
    if not text and not blocks:
        raise _ApiError("no_text")
    if len(text) > MAX_MESSAGE_TEXT:
        raise _ApiError("msg_too_long")
    if block_problems(blocks):
        raise _ApiError("invalid_blocks")
    return text, blocks


def block_problems(blocks: list[Any]) -> list[str]:
    """Where ``blocks`` break Slack's Block Kit limits (empty when they do not)."""
    problems: list[str] = []
    if len(blocks) > MAX_BLOCKS:
        problems.append(f"{len(blocks)} blocks (max {MAX_BLOCKS})")
    for i, block in enumerate(blocks):
        if not isinstance(block, dict) or "type" not in block:
            problems.append(f"block {i}: not a block")
            continue
        if len(str(block.get("block_id", ""))) > MAX_BLOCK_ID:
            problems.append(f"block {i}: block_id too long")
        kind = block["type"]
        if kind == "section":
            problems += _section_problems(i, block)
        elif kind == "header" and len(_text_of(block.get("text"))) > MAX_HEADER_TEXT:
            problems.append(f"block {i}: header text over {MAX_HEADER_TEXT}")
        elif kind == "context" and len(block.get("elements", [])) > MAX_CONTEXT_ELEMENTS:
            problems.append(f"block {i}: over {MAX_CONTEXT_ELEMENTS} context elements")
        elif kind == "actions":
            problems += _actions_problems(i, block)
        elif kind == "context_actions":
            problems += _context_actions_problems(i, block)
    return problems


def _section_problems(i: int, block: dict[str, Any]) -> list[str]:
    problems = []
    if "text" not in block and "fields" not in block:
        problems.append(f"block {i}: section without text or fields")
    if len(_text_of(block.get("text"))) > MAX_SECTION_TEXT:
        problems.append(f"block {i}: section text over {MAX_SECTION_TEXT}")
    if "text" in block and not _text_of(block.get("text")):
        problems.append(f"block {i}: empty section text")
    for field_ in block.get("fields", []):
        if len(_text_of(field_)) > 2000:
            problems.append(f"block {i}: field over 2000")
    return problems


def _actions_problems(i: int, block: dict[str, Any]) -> list[str]:
    elements = block.get("elements", [])
    problems = []
    if len(elements) > MAX_ACTIONS_ELEMENTS:
        problems.append(f"block {i}: over {MAX_ACTIONS_ELEMENTS} actions")
    for element in elements:
        if element.get("type") == "button":
            if len(_text_of(element.get("text"))) > MAX_BUTTON_TEXT:
                problems.append(f"block {i}: button text over {MAX_BUTTON_TEXT}")
            if len(str(element.get("value", ""))) > MAX_BUTTON_VALUE:
                problems.append(f"block {i}: button value over {MAX_BUTTON_VALUE}")
    return problems


def _context_actions_problems(i: int, block: dict[str, Any]) -> list[str]:
    elements = block.get("elements") or []
    problems = [] if elements else [f"block {i}: context_actions without elements"]
    if len(elements) > MAX_CONTEXT_ACTIONS:
        problems.append(f"block {i}: over {MAX_CONTEXT_ACTIONS} context actions")
    for element in elements:
        kind = element.get("type")
        if kind == "feedback_buttons":
            for side in ("positive_button", "negative_button"):
                button = element.get(side) or {}
                if not _text_of(button.get("text")) or not button.get("value"):
                    problems.append(f"block {i}: {side} without text or value")
                if len(_text_of(button.get("text"))) > MAX_BUTTON_TEXT:
                    problems.append(f"block {i}: {side} text over {MAX_BUTTON_TEXT}")
                if len(str(button.get("value", ""))) > MAX_BUTTON_VALUE:
                    problems.append(f"block {i}: {side} value over {MAX_BUTTON_VALUE}")
        elif kind != "icon_button":
            problems.append(f"block {i}: {kind!r} is not a context action")
    return problems


def _text_of(obj: Any) -> str:
    if isinstance(obj, dict):
        return str(obj.get("text", ""))
    return ""


def _as_json(message: FakeMessage, bot_id: str) -> dict[str, Any]:
    return {
        "type": "message",
        "user": message.user,
        "bot_id": bot_id,
        "text": message.text,
        "ts": message.ts,
        "thread_ts": message.thread_ts,
    }


def _ts_key(ts: str) -> tuple[int, int]:
    seconds, _, micros = ts.partition(".")
    return int(seconds), int(micros or 0)


def _parse_body(raw: bytes, content_type: str) -> dict[str, Any]:
    if not raw:
        return {}
    if content_type.startswith("application/json"):
        loaded = json.loads(raw)
        return loaded if isinstance(loaded, dict) else {"_body": loaded}
    params: dict[str, Any] = {k: v[-1] for k, v in parse_qs(raw.decode()).items()}
    for name in _JSON_FIELDS & params.keys():
        with contextlib.suppress(json.JSONDecodeError):
            params[name] = json.loads(params[name])
    return params


def _handler_for(fake: FakeSlack) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            content_type = self.headers.get("Content-Type") or ""
            try:
                params = _parse_body(raw, content_type)
            except (json.JSONDecodeError, UnicodeDecodeError):
                self._send(400, {"ok": False, "error": "invalid_json"}, {})
                return
            auth = self.headers.get("Authorization") or ""
            token = auth.removeprefix("Bearer ").strip() or None
            status, body, headers = fake._handle(self.path.split("?")[0], params, token)
            self._send(status, body, headers)

        def do_GET(self) -> None:  # the Web API's read methods (conversations.*) use GET
            path, _, query = self.path.partition("?")
            params: dict[str, Any] = {k: v[-1] for k, v in parse_qs(query).items()}
            auth = self.headers.get("Authorization") or ""
            token = auth.removeprefix("Bearer ").strip() or None
            status, body, headers = fake._handle(path, params, token)
            self._send(status, body, headers)

        def _send(self, status: int, body: dict[str, Any], headers: dict[str, str]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers.items():
                self.send_header(name, value)
            try:
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):  # the client gave up waiting
                logger.debug("fake slack: the client closed before the answer")

        def log_message(self, format: str, *args: Any) -> None:
            logger.debug("fake slack: " + format, *args)

    return Handler
