"""An HTTP server on ``127.0.0.1:<free port>`` served from a background thread.

``BackgroundHTTPServer`` is the one server lifecycle the fakes share: a
``ThreadingHTTPServer`` (a thread per connection) bound to a free port as soon as it is
built, ``start()`` serves it from a daemon thread, ``stop()`` ends the loop, closes the
socket and joins the thread; ``url`` is ``http://127.0.0.1:<port>`` (no trailing slash)::

    server = BackgroundHTTPServer(Handler, name="fake-thing").start()
    urlopen(server.url + "/ping")
    server.stop()

``HTTPService`` is the base of a fake that is served only while started: it builds its
server in ``start()`` (a fresh port each time), drops it in ``stop()``, and is a context
manager (``Startable``).

Subclasses change what they need: ``daemon_threads``/``block_on_close`` (handler threads
joined by ``server_close()``), ``server_close()`` (cut open connections first), or a
second base such as wsgiref's ``WSGIServer``.
"""

from __future__ import annotations

import logging
import socketserver
import threading
from abc import abstractmethod
from http.server import ThreadingHTTPServer
from typing import Self

from prism_slack.lifecycle import Startable

logger = logging.getLogger(__name__)

HOST = "127.0.0.1"
POLL_INTERVAL_S = 0.05
"""How often the serving loop looks for ``shutdown()``: the most ``stop()`` waits for it."""
JOIN_TIMEOUT_S = 5.0


class BackgroundHTTPServer(ThreadingHTTPServer):
    """A threaded HTTP server on a free loopback port, served from a background thread."""

    daemon_threads = True
    # Clients here open a connection per call, and a load bench makes many at once: the
    # default backlog of 5 would drop SYNs (a 1 s retransmit) or reset connections.
    request_queue_size = 128

    def __init__(
        self,
        handler_class: type[socketserver.BaseRequestHandler],
        *,
        name: str = "http-server",
        host: str = HOST,
    ) -> None:
        super().__init__((host, 0), handler_class)
        self.host = host
        self._thread = threading.Thread(
            target=self.serve_forever,
            name=name,
            kwargs={"poll_interval": POLL_INTERVAL_S},
            daemon=True,
        )

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.server_port}"

    def start(self) -> Self:
        """Serve from the background thread; return the server."""
        self._thread.start()
        logger.debug("%s listening on %s", self._thread.name, self.url)
        return self

    def stop(self) -> None:
        """End the serving loop, close the socket (``server_close()``), join the thread."""
        started = self._thread.ident is not None
        if started:
            self.shutdown()  # would wait forever on a loop that never ran
        self.server_close()
        if started:
            self._thread.join(timeout=JOIN_TIMEOUT_S)


class HTTPService(Startable):
    """Owns a ``BackgroundHTTPServer`` from ``start()`` to ``stop()``; see the module doc."""

    _server: BackgroundHTTPServer | None = None

    @abstractmethod
    def _build_server(self) -> BackgroundHTTPServer:
        """A new, not yet started server for this service."""

    def start(self) -> Self:
        """Serve (a no-op when already serving); return the service."""
        if self._server is None:
            self._server = self._build_server().start()
        return self

    def stop(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            server.stop()

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>``; ``RuntimeError`` when not started."""
        if self._server is None:
            raise RuntimeError(f"{type(self).__name__} is not started")
        return self._server.url
