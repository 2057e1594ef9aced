"""The shared lifecycle of the fakes: ``BackgroundHTTPServer``, ``HTTPService`` and the
``Closeable`` / ``Startable`` context-manager mixins."""

from __future__ import annotations

import contextlib
import socket
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler
from typing import Any, Self

import pytest

from prism_slack.lifecycle import Closeable, Startable
from prism_slack.testing.http import BackgroundHTTPServer, HTTPService


class _Hello(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = b"hello " + self.path.encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


class _HelloService(HTTPService):
    def __init__(self) -> None:
        self.built = 0

    def _build_server(self) -> BackgroundHTTPServer:
        self.built += 1
        return BackgroundHTTPServer(_Hello, name="hello")


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        return str(response.read().decode())


def refused(url: str) -> bool:
    try:
        fetch(url)
    except urllib.error.URLError as e:
        return isinstance(e.reason, ConnectionRefusedError)
    return False


# -- BackgroundHTTPServer ----------------------------------------------------------------


def test_server_serves_on_loopback_until_stopped() -> None:
    server = BackgroundHTTPServer(_Hello, name="hello").start()
    assert server.url.startswith("http://127.0.0.1:") and not server.url.endswith("/")
    assert fetch(server.url + "/ping") == "hello /ping"
    server.stop()
    assert refused(server.url + "/ping")


def test_stopping_a_server_that_never_started_returns_at_once() -> None:
    server = BackgroundHTTPServer(_Hello)
    stopper = threading.Thread(target=server.stop, daemon=True)
    stopper.start()
    stopper.join(timeout=2)
    assert not stopper.is_alive()
    assert refused(server.url)


def test_backlog_holds_a_burst_of_connections_before_any_is_accepted() -> None:
    # Not started: nothing accepts, so only the listen backlog holds these connections.
    # With the default backlog of 5 the sixth connect would wait for a SYN retransmit.
    server = BackgroundHTTPServer(_Hello)
    clients: list[socket.socket] = []
    try:
        for _ in range(100):
            client = socket.create_connection(("127.0.0.1", server.server_port), timeout=0.5)
            clients.append(client)
    finally:
        for client in clients:
            client.close()
        server.stop()
    assert len(clients) == 100


# -- HTTPService -------------------------------------------------------------------------


def test_service_serves_between_start_and_stop_and_restarts_on_a_new_server() -> None:
    service = _HelloService()
    with pytest.raises(RuntimeError, match="_HelloService is not started"):
        _ = service.url
    assert service.start() is service
    first = service.url
    assert service.start().url == first and service.built == 1  # start is idempotent
    assert fetch(first + "/a") == "hello /a"
    service.stop()
    service.stop()  # stopping twice is harmless
    with pytest.raises(RuntimeError):
        _ = service.url
    assert refused(first)
    with service as again:
        assert again is service and service.built == 2
        assert fetch(service.url + "/b") == "hello /b"
        second = service.url
    assert refused(second)


# -- Closeable / Startable ---------------------------------------------------------------


class _Resource(Closeable):
    def __init__(self) -> None:
        self.events: list[str] = []

    def close(self) -> None:
        self.events.append("close")


class _Service(Startable):
    def __init__(self) -> None:
        self.events: list[str] = []

    def start(self) -> Self:
        self.events.append("start")
        return self

    def stop(self) -> None:
        self.events.append("stop")


class _OwnsMore(_Service):
    def close(self) -> None:
        self.events.append("close")


@pytest.mark.parametrize(
    ("make", "events"),
    [
        pytest.param(_Resource, ["close"], id="closeable"),
        pytest.param(_Service, ["start", "stop"], id="startable"),
        pytest.param(_OwnsMore, ["start", "close"], id="startable-with-own-close"),
    ],
)
@pytest.mark.parametrize("fails", [False, True], ids=["clean", "raising"])
def test_with_block_enters_and_releases_once(
    make: type[_Resource] | type[_Service], events: list[str], fails: bool
) -> None:
    thing = make()
    with pytest.raises(ValueError) if fails else contextlib.nullcontext(), thing as entered:
        assert entered is thing
        assert thing.events == events[:-1]
        if fails:
            raise ValueError("inside the block")
    assert thing.events == events
