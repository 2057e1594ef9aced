"""A local fake of the Gemini ``generateContent`` endpoint, for tests and benches.

``FakeGemini`` serves a ``BackgroundHTTPServer`` on ``127.0.0.1`` (a free port) that the real
google-genai client talks to through ``HttpOptions(base_url=fake.base_url)``. It answers
``POST /{api_version}/models/{model}:generateContent`` from a scripted queue, falling back
to a default responder, and records every request (headers minus the API key).
``GET /{api_version}/models/{model}`` describes the model (``models.get``), or answers 404
for a model not in ``models``.

A 200 with candidates and no ``usageMetadata`` of its own gets one the way the service
computes it, from the request: prompt and output tokens estimated at four characters a
token, and ``cachedContentTokenCount`` for the longest prompt prefix an earlier request to
the same model shared (the service's implicit prefix cache), when that prefix reaches
``cache_min_tokens``.

    with FakeGemini() as fake:
        fake.answer({"claims": []})
        fake.error(429, retry_delay=0.2)
        ...

A bench can answer every request after one second:

    FakeGemini(default=lambda request: FakeResponse.answer(payload, delay_s=1.0))

Judge requests (the batched judge schema: one verdict per claim id) can be answered per
claim, here "supported" for every claim that mentions HubSpot:

    FakeGemini(default=judge_responder(lambda text: "supported" if "HubSpot" in text
                                       else "unsupported"))
"""

from __future__ import annotations

import bisect
import contextlib
import json
import re
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler
from typing import Any, Literal
from urllib.parse import urlsplit

from prism_slack.lifecycle import Closeable
from prism_slack.testing.http import BackgroundHTTPServer

API_KEY_HEADER = "x-goog-api-key"
_JUDGE_CLAIM = re.compile(r"^CLAIM (?P<id>\S+) \((?P<kind>\w+)\): (?P<text>.*)$", re.MULTILINE)
_PATH = re.compile(r"^/(?P<version>[^/]+)/models/(?P<model>[^/:]+):generateContent$")
_MODEL_PATH = re.compile(r"^/(?P<version>[^/]+)/models/(?P<model>[^/:]+)$")
CHARS_PER_TOKEN = 4
CACHE_MIN_TOKENS = 1024
"""The smallest prefix the fake counts as cached (Google documents a minimum size for
implicit caching; 1,024 tokens for Flash models)."""
_STATUS_NAMES = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
    504: "DEADLINE_EXCEEDED",
}
RETRY_INFO_TYPE = "type.googleapis.com/google.rpc.RetryInfo"
API_KEY_INVALID = {
    "error": {
        "code": 400,
        "message": "API key not valid. Please pass a valid API key.",
        "status": "INVALID_ARGUMENT",
        "details": [
            {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID"}
        ],
    }
}
"""What the service answers to a key it does not know (HTTP 400, not 401)."""


@dataclass(frozen=True)
class RecordedRequest:
    """One request the fake received. ``headers`` never hold the API key."""

    method: str
    path: str
    api_version: str | None
    model: str | None
    headers: dict[str, str]
    body: Any
    api_key_sent: bool
    received_at: float
    """``time.monotonic()`` when the request arrived (to measure retry gaps)."""


@dataclass(frozen=True)
class FakeResponse:
    """What the fake sends back: status, JSON (or raw text) body, headers, and a delay."""

    status: int = 200
    body: Any = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    raw: bool = False
    """Send ``body`` (a str) as is instead of JSON-encoding it."""

    def with_delay(self, seconds: float) -> FakeResponse:
        return replace(self, delay_s=seconds)

    @classmethod
    def answer(cls, payload: Any, *, delay_s: float = 0.0) -> FakeResponse:
        """A candidate whose text is ``payload`` (JSON-encoded unless already a str)."""
        text = payload if isinstance(payload, str) else json.dumps(payload)
        body = {
            "candidates": [
                {
                    "content": {"role": "model", "parts": [{"text": text}]},
                    "finishReason": "STOP",
                    "index": 0,
                }
            ],
            "modelVersion": "fake",
        }
        return cls(body=body, delay_s=delay_s)

    @classmethod
    def error(
        cls,
        status: int,
        *,
        message: str = "fake error",
        retry_delay: float | None = None,
        retry_after: str | None = None,
        body: Any = None,
        delay_s: float = 0.0,
    ) -> FakeResponse:
        """A Gemini-shaped error; ``retry_delay`` adds a ``google.rpc.RetryInfo`` detail."""
        headers = {"Retry-After": retry_after} if retry_after is not None else {}
        if body is not None:
            return cls(status=status, body=body, headers=headers, delay_s=delay_s)
        error: dict[str, Any] = {
            "code": status,
            "message": message,
            "status": _STATUS_NAMES.get(status, "UNKNOWN"),
        }
        if retry_delay is not None:
            error["details"] = [{"@type": RETRY_INFO_TYPE, "retryDelay": f"{retry_delay:g}s"}]
        return cls(status=status, body={"error": error}, headers=headers, delay_s=delay_s)

    @classmethod
    def verdicts(cls, verdicts: dict[str, str], *, delay_s: float = 0.0) -> FakeResponse:
        """A judge reply: claim id → "supported" / "unsupported" / "contradicted"."""
        payload = {"verdicts": [{"id": i, "verdict": v} for i, v in verdicts.items()]}
        return cls.answer(payload, delay_s=delay_s)

    @classmethod
    def blocked(
        cls, reason: str = "SAFETY", *, stage: Literal["prompt", "candidate"] = "prompt"
    ) -> FakeResponse:
        """A safety block: of the prompt (no candidates) or of the candidate (no text)."""
        if stage == "prompt":
            return cls(body={"promptFeedback": {"blockReason": reason}})
        candidate = {
            "finishReason": reason,
            "index": 0,
            "safetyRatings": [
                {"category": "HARM_CATEGORY_DANGEROUS_CONTENT", "probability": "HIGH"}
            ],
        }
        return cls(body={"candidates": [candidate]})

    @classmethod
    def empty(cls) -> FakeResponse:
        """A 200 with no candidates at all."""
        return cls(body={"candidates": [], "usageMetadata": {"promptTokenCount": 10}})


Responder = Callable[[RecordedRequest], FakeResponse]


@dataclass(frozen=True)
class _Pause:
    seconds: float


def judge_claims(request: RecordedRequest) -> dict[str, str] | None:
    """For a judge request (its schema asks for ``verdicts``): claim id → claim text, as
    the prompt fences them. ``None`` for any other request."""
    body = request.body if isinstance(request.body, dict) else {}
    schema = (body.get("generationConfig") or {}).get("responseJsonSchema") or {}
    if "verdicts" not in (schema.get("properties") or {}):
        return None
    texts = [
        part.get("text", "")
        for content in body.get("contents") or []
        for part in content.get("parts") or []
    ]
    return {m["id"]: m["text"] for m in _JUDGE_CLAIM.finditer("\n".join(texts))}


def judge_responder(
    decide: Callable[[str], str], *, otherwise: Responder | None = None
) -> Responder:
    """A responder that answers each judge request with ``decide(claim text)`` for every
    claim of it, and hands any other request to ``otherwise`` (by default a 500)."""

    def respond(request: RecordedRequest) -> FakeResponse:
        claims = judge_claims(request)
        if claims is None:
            return (otherwise or _default_responder)(request)
        return FakeResponse.verdicts({i: decide(text) for i, text in claims.items()})

    return respond


def _default_responder(request: RecordedRequest) -> FakeResponse:
    return FakeResponse.error(
        500, message=f"FakeGemini: nothing scripted for request to {request.path}"
    )


class FakeGemini(Closeable):
    """Fake Gemini API server, serving from the start. Scripted steps are consumed in order,
    then ``default``. ``close()`` (or the end of a ``with``) stops it."""

    def __init__(
        self,
        default: Responder | FakeResponse | None = None,
        *,
        api_key: str | None = None,
        models: Iterable[str] | None = None,
        cache_min_tokens: int = CACHE_MIN_TOKENS,
    ) -> None:
        self.api_key = api_key
        """The one key accepted (``None``: any); another gets 400 ``API_KEY_INVALID``."""
        self.models = set(models) if models is not None else None
        """Models ``GET models/{model}`` knows (``None``: every one)."""
        self.cache_min_tokens = cache_min_tokens
        self._prompts: dict[str, list[str]] = {}
        self._lock = threading.Lock()
        self._queue: deque[FakeResponse | _Pause] = deque()
        self._requests: list[RecordedRequest] = []
        self._closing = threading.Event()
        self.default: Responder = _as_responder(default) if default else _default_responder
        self._server = _Server(_Handler, name="fake-gemini")
        self._server.fake = self
        self._server.start()

    # -- lifecycle ---------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        return self._server.url

    def close(self) -> None:
        """Stop serving, wake delayed answers, cut open connections and join every thread."""
        if self._closing.is_set():
            return
        self._closing.set()
        self._server.stop()

    # -- scripting ---------------------------------------------------------------------
    def enqueue(self, response: FakeResponse) -> FakeGemini:
        with self._lock:
            self._queue.append(response)
        return self

    def answer(self, payload: Any, *, delay_s: float = 0.0) -> FakeGemini:
        """Queue a 200 whose candidate text is ``payload`` (a JSON object, or raw text)."""
        return self.enqueue(FakeResponse.answer(payload, delay_s=delay_s))

    def error(
        self,
        status: int,
        *,
        message: str = "fake error",
        retry_delay: float | None = None,
        retry_after: str | None = None,
        body: Any = None,
    ) -> FakeGemini:
        """Queue an error response (see ``FakeResponse.error``)."""
        return self.enqueue(
            FakeResponse.error(
                status, message=message, retry_delay=retry_delay, retry_after=retry_after, body=body
            )
        )

    def delay(self, seconds: float) -> FakeGemini:
        """Wait ``seconds`` before sending the next response (scripted or default)."""
        with self._lock:
            self._queue.append(_Pause(seconds))
        return self

    def blocked(
        self, reason: str = "SAFETY", *, stage: Literal["prompt", "candidate"] = "prompt"
    ) -> FakeGemini:
        return self.enqueue(FakeResponse.blocked(reason, stage=stage))

    def empty(self) -> FakeGemini:
        return self.enqueue(FakeResponse.empty())

    # -- inspection --------------------------------------------------------------------
    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    @property
    def pending(self) -> int:
        """Scripted responses not yet sent."""
        with self._lock:
            return sum(isinstance(step, FakeResponse) for step in self._queue)

    # -- serving (called from handler threads) -----------------------------------------
    def _record(self, request: RecordedRequest) -> FakeResponse:
        pause = 0.0
        with self._lock:
            self._requests.append(request)
            scripted: FakeResponse | None = None
            while self._queue:
                step = self._queue.popleft()
                if isinstance(step, _Pause):
                    pause += step.seconds
                    continue
                scripted = step
                break
        response = scripted if scripted is not None else self.default(request)
        response = self._with_usage(request, response)
        return response.with_delay(response.delay_s + pause)

    def _with_usage(self, request: RecordedRequest, response: FakeResponse) -> FakeResponse:
        body = response.body
        if response.status != 200 or not isinstance(body, dict) or "usageMetadata" in body:
            return response
        candidates = body.get("candidates")
        if not isinstance(candidates, list) or not candidates:
            return response
        prompt = prompt_text(request.body)
        with self._lock:
            # Kept sorted: the longest prefix shared with any earlier prompt is the one
            # shared with a neighbour (one bisect, not a scan of every prompt: under load).
            earlier = self._prompts.setdefault(request.model or "", [])
            at = bisect.bisect_left(earlier, prompt)
            shared = max(
                (shared_prefix_chars(prompt, p) for p in earlier[max(at - 1, 0) : at + 1]),
                default=0,
            )
            earlier.insert(at, prompt)
        whole = shared // CHARS_PER_TOKEN  # only whole tokens of the prefix are shared
        cached = whole if whole >= self.cache_min_tokens else 0
        prompt_tokens = _tokens_of(len(prompt))
        output = _tokens_of(len(_candidate_text(candidates[0])))
        usage: dict[str, int] = {
            "promptTokenCount": prompt_tokens,
            "candidatesTokenCount": output,
            "totalTokenCount": prompt_tokens + output,
        }
        if cached:
            usage["cachedContentTokenCount"] = cached
        return replace(response, body={**body, "usageMetadata": usage})

    def _keep(self, request: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(request)

    def _key_accepted(self, key: str) -> bool:
        return self.api_key is None or key == self.api_key

    def _describe(self, version: str, model: str) -> FakeResponse:
        if self.models is not None and model not in self.models:
            return FakeResponse.error(404, message=f"models/{model} is not found for {version}")
        return FakeResponse(
            body={
                "name": f"models/{model}",
                "displayName": model,
                "inputTokenLimit": 1_048_576,
                "outputTokenLimit": 65_536,
                "supportedGenerationMethods": ["generateContent", "countTokens"],
                "thinking": True,
            }
        )

    def _sleep(self, seconds: float) -> bool:
        """Sleep unless the fake is closing; True when it should still answer."""
        if seconds > 0:
            self._closing.wait(seconds)
        return not self._closing.is_set()


def prompt_text(body: Any) -> str:
    """The text a ``generateContent`` body sends: system instruction, then the contents."""
    if not isinstance(body, dict):
        return ""
    parts: list[Any] = []
    system = body.get("systemInstruction")
    if isinstance(system, dict):
        parts += system.get("parts") or []
    for content in body.get("contents") or []:
        if isinstance(content, dict):
            parts += content.get("parts") or []
    return "".join(str(p.get("text", "")) for p in parts if isinstance(p, dict))


def _candidate_text(candidate: Any) -> str:
    content = candidate.get("content") if isinstance(candidate, dict) else None
    parts = content.get("parts") if isinstance(content, dict) else None
    return "".join(str(p.get("text", "")) for p in parts or [] if isinstance(p, dict))


def shared_prefix_chars(a: str, b: str) -> int:
    """How many leading characters ``a`` and ``b`` have in common."""
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def _tokens_of(chars: int) -> int:
    return -(-chars // CHARS_PER_TOKEN)


def _as_responder(default: Responder | FakeResponse) -> Responder:
    if isinstance(default, FakeResponse):
        fixed = default
        return lambda _request: fixed
    return default


class _Server(BackgroundHTTPServer):
    # Non-daemon handler threads, joined by server_close(): nothing is left running.
    daemon_threads = False
    block_on_close = True
    fake: FakeGemini

    def __init__(self, handler_class: type[_Handler], *, name: str) -> None:
        super().__init__(handler_class, name=name)
        self._conns_lock = threading.Lock()
        self._conns: set[socket.socket] = set()

    def track(self, conn: socket.socket, *, add: bool) -> None:
        with self._conns_lock:
            if add:
                self._conns.add(conn)
            else:
                self._conns.discard(conn)

    def server_close(self) -> None:
        """Cut open connections first, so that joining their handler threads is quick."""
        with self._conns_lock:
            conns = list(self._conns)
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
        super().server_close()

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that hangs up mid-request (its timeout fired) is not an error here.
        pass


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def setup(self) -> None:
        super().setup()
        self.server.track(self.connection, add=True)

    def finish(self) -> None:
        try:
            super().finish()
        except OSError:
            pass
        finally:
            self.server.track(self.connection, add=False)

    def log_message(self, format: str, *args: Any) -> None:  # quiet: tests read logs
        pass

    def do_GET(self) -> None:
        fake = self.server.fake
        request, match, key = self._request("GET", _MODEL_PATH, None)
        fake._keep(request)
        if not fake._key_accepted(key):
            self._send(FakeResponse.error(400, body=API_KEY_INVALID))
        elif match is None:
            self._send(FakeResponse.error(404, message=f"no such endpoint: {request.path}"))
        else:
            self._send(fake._describe(match["version"], match["model"]))

    def do_POST(self) -> None:
        fake = self.server.fake
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body: Any = json.loads(raw) if raw else None
        except json.JSONDecodeError:
            body = raw.decode("utf-8", "replace")
        request, match, key = self._request("POST", _PATH, body)
        if match is None:
            fake._keep(request)
            self._send(FakeResponse.error(404, message=f"no such endpoint: {request.path}"))
            return
        if not fake._key_accepted(key):
            fake._keep(request)
            self._send(FakeResponse.error(400, body=API_KEY_INVALID))
            return
        response = fake._record(request)
        if fake._sleep(response.delay_s):
            self._send(response)
        else:
            self.close_connection = True

    def _request(
        self, method: str, pattern: re.Pattern[str], body: Any
    ) -> tuple[RecordedRequest, re.Match[str] | None, str]:
        """The request as recorded (headers without the key), its path match, and the key."""
        path = urlsplit(self.path).path
        match = pattern.match(path)
        headers = {k.lower(): v for k, v in self.headers.items()}
        key = headers.pop(API_KEY_HEADER, "")
        request = RecordedRequest(
            method=method,
            path=path,
            api_version=match["version"] if match else None,
            model=match["model"] if match else None,
            headers=headers,
            body=body,
            api_key_sent=bool(key),
            received_at=time.monotonic(),
        )
        return request, match, key

    def _send(self, response: FakeResponse) -> None:
        if response.raw:
            payload = str(response.body).encode()
            content_type = "text/plain; charset=utf-8"
        else:
            payload = json.dumps(response.body).encode()
            content_type = "application/json; charset=UTF-8"
        try:
            self.send_response(response.status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(payload)))
            for name, value in response.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(payload)
            self.wfile.flush()
        except OSError:  # the client gave up (e.g. its timeout fired) — nothing to do
            self.close_connection = True
