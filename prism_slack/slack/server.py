"""HTTP mode: the WSGI app (Bolt + ``/healthz``) and the gunicorn runner behind ``prism serve``.

``build_wsgi_app(bolt_app, state)`` routes:

- ``POST /slack/events`` — events, slash commands and interactivity, to Bolt's WSGI adapter,
  after three checks made here, before anything parses the body: at most ``MAX_BODY``
  bytes (413 otherwise, read no further), a valid Slack signature and a fresh timestamp
  (401), a body that parses as what its content type says (400, one WARNING line). An
  Events API delivery then runs its listener in the request thread (``events_inline``), so
  the turn is recorded before the 200 goes back;
- ``GET /healthz`` — 200 JSON when the state store takes a write and reads it back, 503
  when it does not (Redis down, a database it cannot select, read-only, out of memory):
  without the store no promise to Slack can be kept;
- anything else — 404.

``PrismGunicorn`` is a ``gunicorn.app.base.BaseApplication`` that serves that app with
gthread workers. Each worker builds its own app after the fork (``factory``), so no Redis
connection or thread pool is shared across processes. On SIGTERM a worker stops taking
new turns at once and answers the ones it holds for up to the grace period
(``graceful_timeout``, from the turn budget); whatever is left is handed back to the next
worker (``TurnWorker.stop``).
"""

from __future__ import annotations

import io
import json
import logging
import math
import os
import signal
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any, Final
from urllib.parse import parse_qs
from wsgiref.types import StartResponse, WSGIApplication, WSGIEnvironment

from gunicorn.app.base import BaseApplication
from slack_bolt import App
from slack_bolt.adapter.wsgi import SlackRequestHandler
from slack_sdk.signature import SignatureVerifier

from prism_slack.errors import StoreUnavailable
from prism_slack.ports import DeliveryStore
from prism_slack.slack.app import events_inline, running_workers

logger = logging.getLogger(__name__)

EVENTS_PATH = "/slack/events"
HEALTH_PATH = "/healthz"
MAX_BODY: Final = 1024 * 1024
"""The largest request body read (Slack's own payloads are far smaller)."""
ACK_SWITCH_INTERVAL_S: Final = 0.001
SHUTDOWN_MARGIN_S: Final = 3.0
"""Of the grace period, what is kept for handing back turns and exiting."""


class PrismWSGI:
    """The tiny router in front of Bolt's WSGI adapter."""

    def __init__(self, bolt_app: App, state: DeliveryStore, signing_secret: str) -> None:
        self.bolt_app = bolt_app
        self.state = state
        self._verifier = SignatureVerifier(signing_secret)
        self._slack = SlackRequestHandler(bolt_app, path=EVENTS_PATH)

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        path = environ.get("PATH_INFO") or "/"
        method = environ.get("REQUEST_METHOD") or "GET"
        if path == HEALTH_PATH and method in ("GET", "HEAD"):
            return self._health(start_response)
        if path == EVENTS_PATH:
            return self._events(environ, start_response)
        return _json(start_response, "404 Not Found", {"ok": False, "error": "not found"})

    def _events(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        started = time.perf_counter()
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = -1
        if length < 0 or length > MAX_BODY:
            logger.warning("slack request refused: body of %s bytes (limit %d)", length, MAX_BODY)
            return _json(
                start_response, "413 Content Too Large", {"ok": False, "error": "too large"}
            )
        raw = environ["wsgi.input"].read(length) if length else b""
        headers = {
            "x-slack-request-timestamp": str(environ.get("HTTP_X_SLACK_REQUEST_TIMESTAMP") or ""),
            "x-slack-signature": str(environ.get("HTTP_X_SLACK_SIGNATURE") or ""),
        }
        if not self._signed(raw, headers):
            logger.warning("slack request refused: invalid signature or stale timestamp")
            return _json(
                start_response, "401 Unauthorized", {"ok": False, "error": "invalid signature"}
            )
        kind = _parse(raw, str(environ.get("CONTENT_TYPE") or ""))
        if kind is None:
            logger.warning(
                "slack request refused: signed body of %d bytes does not parse (%s)",
                length,
                environ.get("CONTENT_TYPE"),
            )
            return _json(
                start_response, "400 Bad Request", {"ok": False, "error": "malformed body"}
            )
        environ["wsgi.input"] = io.BytesIO(raw)
        if kind == "event_callback":
            with events_inline():
                body = self._slack(environ, start_response)
        else:
            body = self._slack(environ, start_response)
        logger.debug("slack request handled in %.1f ms", (time.perf_counter() - started) * 1e3)
        return body

    def _signed(self, raw: bytes, headers: dict[str, str]) -> bool:
        if not all(headers.values()):
            return False
        try:
            return self._verifier.is_valid_request(raw, headers)
        except ValueError:  # a timestamp that is not a number
            return False

    def health(self) -> tuple[bool, dict[str, Any]]:
        """Whether the store works, and the ``/healthz`` document."""
        started = time.perf_counter()
        try:
            self.state.round_trip()
            store = "ok"
        except StoreUnavailable as e:
            logger.warning("healthz: %s", e)
            store = "unavailable"
        return store == "ok", {
            "ok": store == "ok",
            "store": store,
            "store_backend": self.state.description,
            "store_latency_ms": round((time.perf_counter() - started) * 1000, 1),
        }

    def _health(self, start_response: StartResponse) -> Iterable[bytes]:
        healthy, doc = self.health()
        return _json(start_response, "200 OK" if healthy else "503 Service Unavailable", doc)


def _parse(raw: bytes, content_type: str) -> str | None:
    """What a signed body is (``event_callback``, ``form``, …), or None when it does not parse."""
    try:
        text = raw.decode("utf-8")
        if content_type.startswith("application/json"):
            doc = json.loads(text)
            return str(doc.get("type") or "json") if isinstance(doc, dict) else None
        form = parse_qs(text, keep_blank_values=True, strict_parsing=bool(text))
        if "payload" in form:
            payload = json.loads(form["payload"][-1])
            return "interactive" if isinstance(payload, dict) else None
        return "form"
    except (UnicodeDecodeError, ValueError):
        return None


def _json(start_response: StartResponse, status: str, doc: dict[str, Any]) -> list[bytes]:
    data = json.dumps(doc).encode()
    start_response(
        status,
        [("Content-Type", "application/json"), ("Content-Length", str(len(data)))],
    )
    return [data]


def build_wsgi_app(bolt_app: App, state: DeliveryStore, *, signing_secret: str) -> PrismWSGI:
    """The WSGI app gunicorn (and the tests' loopback server) serves."""
    return PrismWSGI(bolt_app, state, signing_secret)


def gunicorn_options(
    *, host: str, port: int, workers: int, threads: int, turn_budget_s: float = 90.0
) -> dict[str, Any]:
    """gunicorn settings for ``prism serve``: gthread workers, logs to stderr.

    ``graceful_timeout`` covers one whole turn (``turn_budget_s``: model calls and Slack
    delivery) plus the margin to hand back what is left, so a deploy finishes the turns
    under way; ``timeout`` is never shorter.
    """
    graceful = math.ceil(turn_budget_s + SHUTDOWN_MARGIN_S)
    return {
        "bind": f"{host}:{port}",
        "workers": workers,
        "worker_class": "gthread",
        "threads": threads,
        "timeout": max(60, graceful),
        "graceful_timeout": graceful,
        "keepalive": 5,
        "preload_app": False,
        "accesslog": None,
        "errorlog": "-",
        "proc_name": "prism",
        "post_worker_init": _on_worker_ready,
        "worker_exit": _on_worker_exit,
        "control_socket_disable": True,  # gunicorn ≥ 24; skipped where unknown
    }


_term_at: list[float] = []


def _on_worker_ready(worker: Any) -> None:
    """In each worker: on SIGTERM, stop taking turns at once (then gunicorn's own handler).

    Also hands the GIL over more often than Python's 5 ms default: a request thread that
    records a turn waits on Redis once, and should not then wait behind answering threads
    (rendering, verifying) to be let back in before it acks.
    """
    sys.setswitchinterval(ACK_SWITCH_INTERVAL_S)
    previous = signal.getsignal(signal.SIGTERM)

    def on_term(signum: int, frame: Any) -> None:
        _term_at.append(time.monotonic())
        for turn_worker in running_workers():
            turn_worker.stop_reading()
        if callable(previous):
            previous(signum, frame)

    signal.signal(signal.SIGTERM, on_term)


def _on_worker_exit(server: Any, worker: Any) -> None:
    """In each worker, on the way out: answer what is under way within the grace period."""
    grace = float(worker.cfg.graceful_timeout) - SHUTDOWN_MARGIN_S
    if _term_at:
        grace -= time.monotonic() - _term_at[0]
    left = sum(turn_worker.stop(grace_s=max(grace, 0.0)) for turn_worker in running_workers())
    if left:
        # Their threads are still waiting on the model; they may write nothing more, and
        # the interpreter would wait for them: leave now, the next worker has their turns.
        logging.shutdown()
        os._exit(0)


class PrismGunicorn(BaseApplication):  # type: ignore[misc]  # gunicorn is untyped
    """gunicorn serving the WSGI app that ``factory`` builds (once per worker)."""

    def __init__(self, factory: Callable[[], WSGIApplication], options: dict[str, Any]) -> None:
        self._factory = factory
        self._options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self._options.items():
            if key in self.cfg.settings and value is not None:
                self.cfg.set(key.lower(), value)

    def load(self) -> WSGIApplication:
        return self._factory()
