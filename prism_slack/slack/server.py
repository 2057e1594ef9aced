"""HTTP mode: the WSGI app (Bolt + ``/healthz``) and the gunicorn runner behind ``prism serve``.

``build_wsgi_app(bolt_app, state)`` routes:

- ``POST /slack/events`` — events, slash commands and interactivity, to Bolt's WSGI adapter
  (signature-verified by Bolt; a bad signature or a stale timestamp is a 401);
- ``GET /healthz`` — 200 JSON while the process can serve, with the state store's status
  (the app still answers — with a clear error — when Redis is down, so that is not a 503);
- anything else — 404.

``PrismGunicorn`` is a ``gunicorn.app.base.BaseApplication`` that serves that app with
gthread workers. Each worker builds its own app after the fork (``factory``), so no Redis
connection or thread pool is shared across processes.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterable
from typing import Any
from wsgiref.types import StartResponse, WSGIApplication, WSGIEnvironment

from gunicorn.app.base import BaseApplication
from slack_bolt import App
from slack_bolt.adapter.wsgi import SlackRequestHandler

from prism_slack.errors import StoreUnavailable
from prism_slack.ports import StateStore

logger = logging.getLogger(__name__)

EVENTS_PATH = "/slack/events"
HEALTH_PATH = "/healthz"


class PrismWSGI:
    """The tiny router in front of Bolt's WSGI adapter."""

    def __init__(self, bolt_app: App, state: StateStore) -> None:
        self.bolt_app = bolt_app
        self.state = state
        self._slack = SlackRequestHandler(bolt_app, path=EVENTS_PATH)

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        path = environ.get("PATH_INFO") or "/"
        method = environ.get("REQUEST_METHOD") or "GET"
        if path == HEALTH_PATH and method in ("GET", "HEAD"):
            return self._health(start_response)
        if path == EVENTS_PATH:
            started = time.perf_counter()
            body = self._slack(environ, start_response)
            logger.debug("slack request handled in %.1f ms", (time.perf_counter() - started) * 1e3)
            return body
        return _json(start_response, "404 Not Found", {"ok": False, "error": "not found"})

    def health(self) -> dict[str, Any]:
        """The ``/healthz`` document."""
        started = time.perf_counter()
        try:
            self.state.ping()
            store = "ok"
        except StoreUnavailable as e:
            logger.warning("healthz: %s", e)
            store = "unavailable"
        return {
            "ok": True,
            "store": store,
            "store_backend": self.state.description,
            "store_latency_ms": round((time.perf_counter() - started) * 1000, 1),
        }

    def _health(self, start_response: StartResponse) -> Iterable[bytes]:
        return _json(start_response, "200 OK", self.health())


def _json(start_response: StartResponse, status: str, doc: dict[str, Any]) -> list[bytes]:
    data = json.dumps(doc).encode()
    start_response(
        status,
        [("Content-Type", "application/json"), ("Content-Length", str(len(data)))],
    )
    return [data]


def build_wsgi_app(bolt_app: App, state: StateStore) -> PrismWSGI:
    """The WSGI app gunicorn (and the tests' loopback server) serves."""
    return PrismWSGI(bolt_app, state)


def gunicorn_options(
    *, host: str, port: int, workers: int, threads: int, timeout_s: int = 60
) -> dict[str, Any]:
    """gunicorn settings for ``prism serve``: gthread workers, logs to stderr."""
    return {
        "bind": f"{host}:{port}",
        "workers": workers,
        "worker_class": "gthread",
        "threads": threads,
        "timeout": timeout_s,
        "graceful_timeout": 30,
        "keepalive": 5,
        "preload_app": False,
        "accesslog": None,
        "errorlog": "-",
        "proc_name": "prism",
        "control_socket_disable": True,  # gunicorn ≥ 24; skipped where unknown
    }


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
