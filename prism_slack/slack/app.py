"""The Bolt app: one per process, shared by the HTTP server and Socket Mode.

``build_app(settings, deps)`` wires the surfaces (``events``, ``commands``, ``actions``)
to the pipeline's ports. Bolt's defaults that matter here are kept on purpose:

- requests are signature-verified (``request_verification_enabled``; never turned off);
- ``process_before_response`` stays False: Bolt acks first and runs the listener in its
  executor — sized for slow model calls (``SlackOptions.listener_threads``);
- the bot's own events are dropped (``ignoring_self_events_enabled``).

With ``PRISM_ALLOWED_TEAMS`` set, requests from any other workspace are acked and dropped
(a slash command says the app is not enabled there). Who may ask inside a workspace, and
where answers may appear, is ``access``'s (``PRISM_SHARED_CHANNELS``, ``PRISM_GUESTS``).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from slack_bolt import App, BoltContext, BoltResponse
from slack_sdk import WebClient

from prism_slack.errors import ConfigError
from prism_slack.pipeline.turn import TurnDeps
from prism_slack.settings import Settings
from prism_slack.slack import texts
from prism_slack.slack.access import Access, AccessPolicy
from prism_slack.slack.actions import register_actions
from prism_slack.slack.answering import MessageAnswerer
from prism_slack.slack.client import Mode, build_web_client, slack_credentials
from prism_slack.slack.commands import CommandHandler, register_commands
from prism_slack.slack.events import register_events
from prism_slack.slack.replies import Replier
from prism_slack.slack.status import Panel, register_panel

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class SlackOptions:
    """Tunables of the Slack app (defaults suit production)."""

    listener_threads: int = 32
    """Listener executor size: each thread holds one turn for the length of a model call."""
    lock_timeout_s: float = 90.0
    """How long a message waits for the one before it in the same conversation."""
    token_verification: bool = True
    """Call ``auth.test`` at start-up (fail fast on a bad token)."""


def build_app(
    settings: Settings,
    deps: TurnDeps,
    *,
    client: WebClient | None = None,
    options: SlackOptions | None = None,
    mode: Mode = "http",
    executor: Executor | None = None,
) -> App:
    """The Bolt app. Raises ``ConfigError`` when a token ``mode`` needs is missing.

    ``client`` replaces the ``WebClient`` built from ``settings``; ``executor`` the
    listener executor (a ``ThreadPoolExecutor`` of ``options.listener_threads``).
    """
    options = options or SlackOptions()
    credentials = slack_credentials(settings, mode=mode)
    client = client or build_web_client(settings, credentials.bot_token)
    app = App(
        name="prism",
        client=client,
        signing_secret=credentials.signing_secret,
        token_verification_enabled=options.token_verification,
        request_verification_enabled=True,
        ignoring_self_events_enabled=True,
        process_before_response=False,
        listener_executor=executor
        or ThreadPoolExecutor(
            max_workers=options.listener_threads, thread_name_prefix="prism-listener"
        ),
        logger=_bolt_logger(),
    )
    if app.oauth_flow is not None:
        # Bolt reads these two from the process environment by itself, and with both set it
        # switches to OAuth installs and silently drops the bot token: nothing is answered.
        raise ConfigError(
            "SLACK_CLIENT_ID and SLACK_CLIENT_SECRET are set, which turns Bolt's OAuth "
            "install flow on; PRISM runs in one workspace with SLACK_BOT_TOKEN — unset them"
        )
    if settings.prism_allowed_teams:
        app.middleware(team_gate(frozenset(settings.prism_allowed_teams)))
    replier = Replier(client)
    answerer = MessageAnswerer(deps, replier, lock_timeout_s=options.lock_timeout_s)
    # -- issue 11: who may ask and where (access), the side panel (status) -----------
    access = Access(client, AccessPolicy.from_settings(settings))
    register_events(app, answerer, access)
    register_panel(app, Panel(replier, deps.reports, deps.state))
    register_commands(app, CommandHandler(deps.reports, deps.state), access)
    register_actions(app, deps.state, access, replier)
    # -- end issue 11 ------------------------------------------------------------------
    logger.info(
        "slack app ready: mode=%s listener_threads=%d store=%s",
        mode,
        options.listener_threads,
        deps.state.description,
    )
    return app


class _NoTokenNotice(logging.Filter):
    """Drops Bolt's start-up notice that it ignores ``SLACK_BOT_TOKEN`` when given a client:
    it reads that variable itself, and we always give it our client (built from it)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "`token` will be unused" not in record.getMessage()


def _bolt_logger() -> logging.Logger:
    bolt = logging.getLogger("prism_slack.slack.bolt")
    if not any(isinstance(f, _NoTokenNotice) for f in bolt.filters):
        bolt.addFilter(_NoTokenNotice())
    return bolt


def team_gate(allowed: frozenset[str]) -> Callable[..., BoltResponse | None]:
    """Bolt middleware: only workspaces in ``allowed`` get past it."""

    def gate(
        context: BoltContext, body: dict[str, Any], next: Callable[[], None]
    ) -> BoltResponse | None:
        team = context.team_id
        if team in allowed:
            next()
            return None
        logger.warning("dropping a request from workspace %s (not in PRISM_ALLOWED_TEAMS)", team)
        if body.get("command"):
            reply = {"response_type": "ephemeral", "text": texts.NOT_ENABLED}
            return BoltResponse(
                status=200, body=json.dumps(reply), headers={"content-type": "application/json"}
            )
        return BoltResponse(status=200, body="")

    return gate
