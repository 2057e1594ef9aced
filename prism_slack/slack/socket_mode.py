"""Socket Mode: the same Bolt app over a WebSocket, for workspaces without a public URL.

Uses Bolt's built-in adapter (``slack_bolt.adapter.socket_mode.builtin``, on slack_sdk's
built-in WebSocket client), which needs no extra dependency. ``SLACK_APP_TOKEN`` (xapp-…)
opens the connection; the bot token posts. ``run_socket_mode`` blocks until SIGINT or
SIGTERM, then closes the connection.
"""

from __future__ import annotations

import logging
import signal
import threading
from types import FrameType

from slack_bolt import App
from slack_bolt.adapter.socket_mode.builtin import SocketModeHandler

logger = logging.getLogger(__name__)


def build_socket_handler(app: App, app_token: str, *, concurrency: int = 10) -> SocketModeHandler:
    """The Socket Mode handler for ``app`` (not connected yet: call ``connect()``)."""
    return SocketModeHandler(
        app,
        app_token=app_token,
        web_client=app.client,
        logger=logging.getLogger("prism_slack.slack.socket"),
        concurrency=concurrency,
    )


def run_socket_mode(handler: SocketModeHandler, stop: threading.Event | None = None) -> None:
    """Connect and serve until ``stop`` is set (by SIGINT/SIGTERM when run in the main thread)."""
    stop = stop or threading.Event()
    if threading.current_thread() is threading.main_thread():

        def on_signal(signum: int, frame: FrameType | None) -> None:
            logger.info("socket mode: signal %d, closing", signum)
            stop.set()

        signal.signal(signal.SIGTERM, on_signal)
        signal.signal(signal.SIGINT, on_signal)
    handler.connect()  # type: ignore[no-untyped-call]  # untyped in slack-bolt
    logger.info("socket mode: connected")
    try:
        stop.wait()
    finally:
        handler.close()  # type: ignore[no-untyped-call]
        logger.info("socket mode: closed")
