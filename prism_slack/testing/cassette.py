"""Record once, replay always: Gemini exchanges kept as JSON files under ``tests/cassettes/``.

A cassette is the list of HTTP exchanges one run had with the Gemini API, in the wire
format (request and response bodies as JSON, the path with its API version and model)
and never a key: headers are not kept, and the key's text is scrubbed from every string.

- **Recording** (live runs only): ``RecordingProxy`` is a loopback HTTP server that the
  real google-genai client talks to (``base_url=proxy.url``); it forwards each request to
  the real API with the caller's ``x-goog-api-key`` and keeps the exchange.
- **Replaying** (every ordinary test run): ``Replay(cassette)`` is a ``FakeGemini``
  responder that answers each ``generateContent`` request with the next recorded response,
  so the real client, the real adapter and the pipeline run on a real reply. ``drift``
  lists what the request sent now differs from the recorded one in (the generation config,
  the system instruction, the contents), so a test can say which of those must not move.

    cassette = Cassette.load(CASSETTES / "northwind-search.json")
    with FakeGemini(default=Replay(cassette)) as fake:
        ...
"""

from __future__ import annotations

import json
import logging
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

from prism_slack.testing.fake_gemini import API_KEY_HEADER, FakeResponse, RecordedRequest
from prism_slack.testing.http import BackgroundHTTPServer, HTTPService

logger = logging.getLogger(__name__)

GEMINI_API_URL = "https://generativelanguage.googleapis.com"
"""The Gemini Developer API (google-genai's default base URL for an API key)."""
SCRUBBED = "<scrubbed>"
_TIMEOUT_S = 120.0


class Exchange(BaseModel):
    """One request and the response the service gave it."""

    method: Literal["GET", "POST"]
    path: str
    request: Any = None
    status: int
    response: Any = None


class Cassette(BaseModel):
    """What a run exchanged with the service, and where it came from."""

    source: str
    """``recorded <when> from <model>``, or why a cassette was made by hand."""
    exchanges: list[Exchange] = []

    @classmethod
    def load(cls, path: Path) -> Cassette:
        return cls.model_validate_json(path.read_text(encoding="utf-8"))

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(self.model_dump(mode="json"), indent=2, ensure_ascii=False)
        path.write_text(text + "\n", encoding="utf-8")


def scrub(value: Any, secret: str) -> Any:
    """``value`` with every occurrence of ``secret`` in its strings replaced."""
    if not secret:
        return value
    if isinstance(value, str):
        return value.replace(secret, SCRUBBED)
    if isinstance(value, list):
        return [scrub(item, secret) for item in value]
    if isinstance(value, dict):
        return {scrub(k, secret): scrub(v, secret) for k, v in value.items()}
    return value


# -- replay --------------------------------------------------------------------------------
class Replay:
    """A ``FakeGemini`` responder answering ``generateContent`` from a cassette, in order."""

    def __init__(self, cassette: Cassette) -> None:
        self._pending = [e for e in cassette.exchanges if e.method == "POST"]
        self._lock = threading.Lock()
        self.drift: list[list[str]] = []
        """Per replayed request: the top-level request fields (and generation config keys)
        that differ from the recording; empty lists when nothing moved."""

    @property
    def remaining(self) -> int:
        with self._lock:
            return len(self._pending)

    def __call__(self, request: RecordedRequest) -> FakeResponse:
        with self._lock:
            if not self._pending:
                return FakeResponse.error(500, message="cassette: no recorded exchange left")
            exchange = self._pending.pop(0)
            if exchange.path != request.path:
                message = f"cassette: recorded {exchange.path}, asked {request.path}"
                return FakeResponse.error(500, message=message)
            self.drift.append(differences(exchange.request, request.body))
        return FakeResponse(status=exchange.status, body=exchange.response)


def differences(recorded: Any, sent: Any) -> list[str]:
    """The fields of a ``generateContent`` body that differ (``generationConfig.x`` for
    a generation-config key)."""
    recorded = recorded if isinstance(recorded, dict) else {}
    sent = sent if isinstance(sent, dict) else {}
    out = []
    for key in sorted(set(recorded) | set(sent)):
        if key == "generationConfig":
            rc, sc = recorded.get(key) or {}, sent.get(key) or {}
            out += [f"{key}.{k}" for k in sorted(set(rc) | set(sc)) if rc.get(k) != sc.get(k)]
        elif recorded.get(key) != sent.get(key):
            out.append(key)
    return out


# -- recording -----------------------------------------------------------------------------
class RecordingProxy(HTTPService):
    """Forwards every request to ``upstream`` and keeps the exchange in ``cassette``."""

    def __init__(self, cassette: Cassette, *, upstream: str = GEMINI_API_URL) -> None:
        self.cassette = cassette
        self.upstream = upstream.rstrip("/")
        self._lock = threading.Lock()

    def _build_server(self) -> BackgroundHTTPServer:
        return BackgroundHTTPServer(_proxy_handler(self), name="gemini-recorder")

    def forward(
        self, method: Literal["GET", "POST"], path: str, body: bytes, key: str
    ) -> tuple[int, bytes]:
        headers = {"Content-Type": "application/json", API_KEY_HEADER: key}
        request = urllib.request.Request(
            self.upstream + path, data=body or None, headers=headers, method=method
        )
        try:
            with urllib.request.urlopen(request, timeout=_TIMEOUT_S) as response:
                status, payload = response.status, response.read()
        except urllib.error.HTTPError as e:
            status, payload = e.code, e.read()
        exchange = Exchange(
            method=method,
            path=scrub(path.split("?", maxsplit=1)[0], key),
            request=scrub(_json(body), key) if body else None,
            status=status,
            response=scrub(_json(payload), key),
        )
        with self._lock:
            self.cassette.exchanges.append(exchange)
        logger.info("recorded %s %s status=%d", method, exchange.path, status)
        return status, payload


def _json(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return raw.decode("utf-8", "replace")


def _proxy_handler(proxy: RecordingProxy) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            self._relay("GET")

        def do_POST(self) -> None:
            self._relay("POST")

        def _relay(self, method: Literal["GET", "POST"]) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            key = self.headers.get(API_KEY_HEADER) or ""
            status, payload = proxy.forward(method, self.path, body, key)
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=UTF-8")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler
