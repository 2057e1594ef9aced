"""Serve a WSGI app on 127.0.0.1 from a thread: the same app gunicorn serves, in-process.

``LoopbackServer(wsgi_app)`` is wsgiref's server on a ``BackgroundHTTPServer`` (one thread
per request, like gunicorn's gthread worker) on a free port. Use it as a context manager::

    with LoopbackServer(build_wsgi_app(bolt_app, state)) as server:
        urlopen(server.url + "/healthz")
"""

from __future__ import annotations

import logging
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer
from wsgiref.types import WSGIApplication

from prism_slack.testing.http import BackgroundHTTPServer, HTTPService

logger = logging.getLogger(__name__)


class _ThreadingWSGIServer(BackgroundHTTPServer, WSGIServer):
    pass


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        logger.debug("loopback: " + format, *args)


class LoopbackServer(HTTPService):
    """A threaded WSGI server on ``127.0.0.1:<free port>``; ``url`` has no trailing slash."""

    def __init__(self, app: WSGIApplication) -> None:
        self._app = app

    def _build_server(self) -> BackgroundHTTPServer:
        server = _ThreadingWSGIServer(_QuietHandler, name="loopback-wsgi")
        server.set_app(self._app)
        return server
