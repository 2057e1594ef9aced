"""Serve a WSGI app on 127.0.0.1 from a thread: the same app gunicorn serves, in-process.

``LoopbackServer(wsgi_app)`` is wsgiref's server with ``ThreadingMixIn`` (one thread per
request, like gunicorn's gthread worker) on a free port. Use it as a context manager::

    with LoopbackServer(build_wsgi_app(bolt_app, state)) as server:
        urlopen(server.url + "/healthz")
"""

from __future__ import annotations

import logging
import threading
from socketserver import ThreadingMixIn
from types import TracebackType
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server
from wsgiref.types import WSGIApplication

logger = logging.getLogger(__name__)

HOST = "127.0.0.1"


class _ThreadingWSGIServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        logger.debug("loopback: " + format, *args)


class LoopbackServer:
    """A threaded WSGI server on ``127.0.0.1:<free port>``; ``url`` has no trailing slash."""

    def __init__(self, app: WSGIApplication) -> None:
        self._app = app
        self._server: _ThreadingWSGIServer | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> LoopbackServer:
        server = make_server(
            HOST, 0, self._app, server_class=_ThreadingWSGIServer, handler_class=_QuietHandler
        )
        assert isinstance(server, _ThreadingWSGIServer)
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, name="loopback-wsgi", kwargs={"poll_interval": 0.05}
        )
        self._thread.daemon = True
        self._thread.start()
        return self

    def stop(self) -> None:
        server, thread = self._server, self._thread
        self._server = self._thread = None
        if server is not None:
            server.shutdown()
            server.server_close()
        if thread is not None:
            thread.join(timeout=5)

    @property
    def url(self) -> str:
        if self._server is None:
            raise RuntimeError("LoopbackServer is not started")
        return f"http://{HOST}:{self._server.server_address[1]}"

    def __enter__(self) -> LoopbackServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
