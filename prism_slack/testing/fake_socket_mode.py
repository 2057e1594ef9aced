"""A fake Slack Socket Mode endpoint: a minimal WebSocket server on 127.0.0.1.

Point ``FakeSlack(socket_url=fake_socket.url)`` at it: ``apps.connections.open`` hands that
URL to the app, the app connects, and the server greets it with ``hello`` as Slack does.
``send_event(envelope)`` / ``send_command(payload)`` push Events API and slash-command
envelopes; the app's acknowledgements (``{"envelope_id": ...}``) are recorded and
``wait_for_ack`` polls for them. Pings are answered with pongs. Only what Socket Mode
uses of RFC 6455 is implemented: text, close, ping and pong frames, no extensions.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import socket
import struct
import threading
import time
import uuid
from typing import Any, Self

from prism_slack.lifecycle import Startable

logger = logging.getLogger(__name__)

HOST = "127.0.0.1"
_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
_TEXT, _CLOSE, _PING, _PONG = 0x1, 0x8, 0x9, 0xA


class FakeSocketMode(Startable):
    """One Socket Mode endpoint; one app connection at a time (the latest one)."""

    def __init__(self) -> None:
        self._listener: socket.socket | None = None
        self._client: socket.socket | None = None
        self._send_lock = threading.Lock()
        self._lock = threading.Lock()
        self._received: list[dict[str, Any]] = []
        self._connections = 0
        self._threads: list[threading.Thread] = []
        self._stopping = threading.Event()

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> Self:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((HOST, 0))
        listener.listen()
        listener.settimeout(0.1)
        self._listener = listener
        self._spawn(self._accept_loop, "fake-socket-accept")
        return self

    def stop(self) -> None:
        self._stopping.set()
        for thread in self._threads:
            thread.join(timeout=5)
        for sock in (self._client, self._listener):
            if sock is not None:
                sock.close()
        self._client = self._listener = None

    @property
    def url(self) -> str:
        if self._listener is None:
            raise RuntimeError("FakeSocketMode is not started")
        return f"ws://{HOST}:{self._listener.getsockname()[1]}/link/?ticket=fake"

    @property
    def connections(self) -> int:
        """How many WebSocket connections the app has opened so far."""
        with self._lock:
            return self._connections

    # -- talking to the app ----------------------------------------------------------------

    def send_event(self, body: dict[str, Any]) -> str:
        """Push an Events API envelope around ``body`` (an ``event_callback``)."""
        return self._send_envelope("events_api", body, accepts_response_payload=False)

    def send_command(self, payload: dict[str, Any]) -> str:
        """Push a slash command (``payload`` as Slack's form fields)."""
        return self._send_envelope("slash_commands", payload, accepts_response_payload=True)

    def received(self) -> list[dict[str, Any]]:
        """Every JSON message the app sent (acknowledgements), in order."""
        with self._lock:
            return list(self._received)

    def wait_for_ack(self, envelope_id: str, timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for message in self.received():
                if message.get("envelope_id") == envelope_id:
                    return message
            time.sleep(0.01)
        raise AssertionError(f"no acknowledgement of {envelope_id} within {timeout}s")

    def wait_connected(self, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while self.connections == 0:
            if time.monotonic() >= deadline:
                raise AssertionError(f"the app did not connect within {timeout}s")
            time.sleep(0.01)

    def _send_envelope(self, kind: str, payload: dict[str, Any], **extra: Any) -> str:
        envelope_id = str(uuid.uuid4())
        message = {
            "envelope_id": envelope_id,
            "type": kind,
            "payload": payload,
            "retry_attempt": 0,
            "retry_reason": "",
            **extra,
        }
        self._send(_TEXT, json.dumps(message).encode())
        return envelope_id

    # -- the server ------------------------------------------------------------------------

    def _spawn(self, target: Any, name: str, *args: Any) -> None:
        thread = threading.Thread(target=target, name=name, args=args, daemon=True)
        self._threads.append(thread)
        thread.start()

    def _accept_loop(self) -> None:
        assert self._listener is not None
        while not self._stopping.is_set():
            try:
                conn, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            conn.settimeout(0.1)
            self._spawn(self._serve, "fake-socket-conn", conn)

    def _serve(self, conn: socket.socket) -> None:
        try:
            if not self._handshake(conn):
                conn.close()
                return
            with self._lock:
                previous, self._client = self._client, conn
                self._connections += 1
            if previous is not None:
                previous.close()
            hello = {"type": "hello", "num_connections": 1, "connection_info": {"app_id": "A1"}}
            self._send(_TEXT, json.dumps(hello).encode())
            self._read_frames(conn)
        except OSError as e:
            logger.debug("fake socket mode connection ended: %s", e)

    def _handshake(self, conn: socket.socket) -> bool:
        request = b""
        while b"\r\n\r\n" not in request:
            if self._stopping.is_set():
                return False
            chunk = self._recv(conn, 4096)
            if chunk is None:
                continue
            if not chunk:
                return False
            request += chunk
        headers = {}
        for line in request.decode("latin-1").split("\r\n")[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        key = headers.get("sec-websocket-key", "")
        accept = base64.b64encode(hashlib.sha1((key + _GUID).encode()).digest()).decode()
        conn.sendall(
            (
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Accept: {accept}\r\n\r\n"
            ).encode()
        )
        return True

    def _read_frames(self, conn: socket.socket) -> None:
        while not self._stopping.is_set():
            frame = self._read_frame(conn)
            if frame is None:
                return
            opcode, payload = frame
            if opcode == _PING:
                self._send(_PONG, payload, conn)
            elif opcode == _CLOSE:
                self._send(_CLOSE, payload[:2], conn)
                return
            elif opcode == _TEXT:
                with self._lock:
                    self._received.append(json.loads(payload))

    def _read_frame(self, conn: socket.socket) -> tuple[int, bytes] | None:
        head = self._read_exactly(conn, 2)
        if head is None:
            return None
        opcode, length = head[0] & 0x0F, head[1] & 0x7F
        masked = bool(head[1] & 0x80)
        if length in (126, 127):
            size = 2 if length == 126 else 8
            raw = self._read_exactly(conn, size)
            if raw is None:
                return None
            length = int.from_bytes(raw, "big")
        mask = self._read_exactly(conn, 4) if masked else b"\0\0\0\0"
        payload = self._read_exactly(conn, length)
        if mask is None or payload is None:
            return None
        return opcode, bytes(b ^ mask[i % 4] for i, b in enumerate(payload))

    def _read_exactly(self, conn: socket.socket, n: int) -> bytes | None:
        data = b""
        while len(data) < n:
            if self._stopping.is_set():
                return None
            chunk = self._recv(conn, n - len(data))
            if chunk is None:
                continue
            if not chunk:
                return None
            data += chunk
        return data

    @staticmethod
    def _recv(conn: socket.socket, n: int) -> bytes | None:
        """``n`` bytes at most; ``None`` on a poll timeout, ``b""`` when closed."""
        try:
            return conn.recv(n)
        except TimeoutError:
            return None

    def _send(self, opcode: int, payload: bytes, conn: socket.socket | None = None) -> None:
        target = conn or self._client
        if target is None:
            raise RuntimeError("no app is connected")
        length = len(payload)
        if length < 126:
            header = struct.pack("!BB", 0x80 | opcode, length)
        elif length < 1 << 16:
            header = struct.pack("!BBH", 0x80 | opcode, 126, length)
        else:
            header = struct.pack("!BBQ", 0x80 | opcode, 127, length)
        with self._send_lock:
            target.sendall(header + payload)
