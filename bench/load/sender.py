"""The open-loop load generator: POST each delivery at its scheduled time, time its ack.

``send_all`` runs in a process of its own (``run_in_process``), so the fakes' threads in the
bench process never delay a send or inflate a measured latency. A scheduler thread submits
every delivery at ``start + at_s`` to a pool of ``concurrency`` sender threads, each with
its own keep-alive ``http.client.HTTPConnection``; the body is signed when it is sent (as
Slack signs each redelivery afresh). A delivery's latency runs from just before the
request is written to the end of the response body — the ack Slack waits for.

Open loop: the schedule never waits for an answer. If every sender thread were busy the
start would slip; each result records that slip (``lag_ms``) so the bench can show the
load was offered as planned. A connection the server closed while idle (keep-alive
timeout) is reopened and the request sent again once (``reconnected``).
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from multiprocessing.connection import Connection
from typing import Any
from urllib.parse import urlsplit

from slack_sdk.signature import SignatureVerifier

_STALE_CONNECTION = (
    http.client.RemoteDisconnected,
    http.client.CannotSendRequest,
    ConnectionResetError,
    BrokenPipeError,
)


@dataclass(frozen=True)
class Outgoing:
    """One POST to make: when (seconds after the start), the JSON body, the retry header."""

    index: int
    at_s: float
    body: str
    retry_num: int | None = None


@dataclass(frozen=True)
class Sent:
    """What happened to one ``Outgoing``. Times are ``time.monotonic()`` (system-wide)."""

    index: int
    started: float
    lag_ms: float
    latency_ms: float
    status: int
    error: str | None = None
    reconnected: bool = False


class _Connections(threading.local):
    conn: http.client.HTTPConnection | None = None


def send_all(
    url: str,
    signing_secret: str,
    outgoing: list[Outgoing],
    *,
    start_at: float,
    concurrency: int = 32,
    timeout_s: float = 10.0,
) -> list[Sent]:
    """POST every ``outgoing`` to ``url`` at ``start_at + at_s`` (``time.monotonic()``)."""
    parts = urlsplit(url)
    host, port, path = parts.hostname or "127.0.0.1", parts.port or 80, parts.path or "/"
    verifier = SignatureVerifier(signing_secret)
    local = _Connections()

    def post(item: Outgoing, due: float) -> Sent:
        stamp = str(int(time.time()))
        headers = {
            "Content-Type": "application/json",
            "X-Slack-Request-Timestamp": stamp,
            "X-Slack-Signature": verifier.generate_signature(timestamp=stamp, body=item.body) or "",
        }
        if item.retry_num is not None:
            headers["X-Slack-Retry-Num"] = str(item.retry_num)
            headers["X-Slack-Retry-Reason"] = "http_timeout"
        payload = item.body.encode()
        started = time.monotonic()
        lag_ms = (started - due) * 1000
        reconnected = False
        for attempt in (1, 2):
            conn = local.conn or http.client.HTTPConnection(host, port, timeout=timeout_s)
            local.conn = conn
            t0 = time.perf_counter()
            try:
                conn.request("POST", path, body=payload, headers=headers)
                response = conn.getresponse()
                response.read()
                latency_ms = (time.perf_counter() - t0) * 1000
                if response.getheader("Connection", "").lower() == "close":
                    conn.close()
                    local.conn = None
                return Sent(
                    item.index, started, lag_ms, latency_ms, response.status, None, reconnected
                )
            except _STALE_CONNECTION as e:
                conn.close()
                local.conn = None
                if attempt == 2:
                    return Sent(item.index, started, lag_ms, 0.0, 0, type(e).__name__, reconnected)
                reconnected = True
            except OSError as e:
                conn.close()
                local.conn = None
                return Sent(item.index, started, lag_ms, 0.0, 0, type(e).__name__, reconnected)
        raise AssertionError("unreachable")

    futures: list[Future[Sent]] = []
    with ThreadPoolExecutor(concurrency, thread_name_prefix="load-sender") as pool:
        for item in sorted(outgoing, key=lambda o: o.at_s):
            due = start_at + item.at_s
            wait = due - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            futures.append(pool.submit(post, item, due))
    return [f.result() for f in futures]


@dataclass(frozen=True)
class _Job:
    url: str
    signing_secret: str
    outgoing: list[Outgoing]
    lead_s: float
    concurrency: int


def _child(conn: Connection, job: _Job) -> None:
    """The sender process: start ``lead_s`` from now (imports are done), send, report."""
    start_at = time.monotonic() + job.lead_s
    sent = send_all(
        job.url, job.signing_secret, job.outgoing, start_at=start_at, concurrency=job.concurrency
    )
    conn.send((start_at, sent))
    conn.close()


def run_in_process(
    url: str,
    signing_secret: str,
    outgoing: list[Outgoing],
    *,
    lead_s: float = 1.0,
    concurrency: int = 32,
) -> tuple[float, list[Sent]]:
    """``send_all`` in a fresh process; the burst starts ``lead_s`` after that process is up.

    Returns the start time (``time.monotonic()``, the same clock in every process) and the
    results. Interrupted (Ctrl-C, SIGTERM), the sender process is terminated at once.
    """
    context = get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    job = _Job(url, signing_secret, outgoing, lead_s, concurrency)
    process = context.Process(target=_child, args=(send, job), name="load-sender")
    process.start()
    send.close()
    try:
        start_at, results = receive.recv()
    except EOFError as e:
        raise RuntimeError(f"the sender process died (exit code {process.exitcode})") from e
    finally:
        if process.is_alive():
            process.terminate()
        process.join()
        receive.close()
    return start_at, list(results)


def envelope_body(
    event: dict[str, Any], *, team_id: str, bot_user_id: str, event_id: str, event_time: int
) -> str:
    """The Events API ``event_callback`` JSON Slack POSTs for ``event``."""
    return json.dumps(
        {
            "token": "legacy-verification-token",
            "team_id": team_id,
            "api_app_id": "APRISM",
            "event": event,
            "type": "event_callback",
            "event_id": event_id,
            "event_time": event_time,
            "authorizations": [{"team_id": team_id, "user_id": bot_user_id, "is_bot": True}],
        }
    )
