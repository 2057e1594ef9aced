"""The Bolt app: one per process, shared by the HTTP server and Socket Mode.

``build_app(settings, deps, store)`` wires the surfaces (``events``, ``commands``,
``actions``, the side panel) to the pipeline's ports (``deps``) and the Slack side's own
``DeliveryStore`` (durable turns, engaged threads, rate limits, feedback). Bolt's
defaults that matter here are kept on purpose:

- requests are signature-verified (``request_verification_enabled``; never turned off);
- ``process_before_response`` stays False: Bolt acks first and runs the listener in its
  executor. An Events API delivery (``events_inline()``, set by the HTTP router) runs its
  listener in the request thread instead: all it does is record the turn durably
  (``MessageAnswerer.answer``, ~1 ms), and it must do so BEFORE Slack gets its 200;
- the bot's own events are dropped (``ignoring_self_events_enabled``).

Turns are answered by this process's ``TurnWorker`` (``SlackOptions.listener_threads``
threads, sized for slow model calls), started here unless ``start_worker=False``;
``turn_worker(app)`` finds it, ``running_workers()`` lists every one (for shutdown).

A request for another install than the token's own (``auth.test``), or, with
``PRISM_ALLOWED_TEAMS`` set, from any other workspace, is acked and dropped (a slash
command says the app is not enabled there): ``team_gate``. Who may ask inside a workspace, and
where answers may appear, is ``access``'s (``PRISM_SHARED_CHANNELS``, ``PRISM_GUESTS``).
"""

from __future__ import annotations

import json
import logging
import os
import threading
import uuid
import weakref
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from slack_bolt import App, BoltContext, BoltResponse
from slack_sdk import WebClient

from prism_slack.errors import ConfigError
from prism_slack.pipeline.turn import TurnDeps
from prism_slack.ports import DeliveryStore
from prism_slack.settings import Settings
from prism_slack.slack import texts
from prism_slack.slack.access import Access, AccessPolicy, home_teams, orgs_of
from prism_slack.slack.actions import register_actions
from prism_slack.slack.answering import MessageAnswerer
from prism_slack.slack.client import Mode, build_web_client, slack_credentials
from prism_slack.slack.commands import CommandHandler, register_commands
from prism_slack.slack.delivery import Delivery
from prism_slack.slack.events import register_events
from prism_slack.slack.replies import Replier
from prism_slack.slack.status import Panel, register_panel
from prism_slack.slack.worker import TurnWorker

P = ParamSpec("P")
T = TypeVar("T")

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class SlackOptions:
    """Tunables of the Slack app (defaults suit production)."""

    listener_threads: int = 32
    """Answering threads: each holds one turn for the length of its model calls."""
    reclaim_after_s: float = 15.0
    """A turn idle this long belongs to a dead worker and is taken over (``XAUTOCLAIM``)."""
    delivery_budget_s: float = 30.0
    """How long one reply is retried while Slack fails it (5xx, 429, timeouts)."""
    token_verification: bool = True
    """Call ``auth.test`` at start-up (fail fast on a bad token)."""
    start_worker: bool = True
    """Start the ``TurnWorker`` (off where the app is only built to check the setup)."""


_inline = threading.local()
_workers: weakref.WeakKeyDictionary[App, TurnWorker] = weakref.WeakKeyDictionary()


@contextmanager
def events_inline() -> Iterator[None]:
    """Within this block, this thread runs Bolt listeners itself (see the module docstring)."""
    _inline.active = True
    try:
        yield
    finally:
        _inline.active = False


class EventsInlineExecutor(Executor):
    """Bolt's listener executor: inline under ``events_inline()``, else ``pool``."""

    def __init__(self, pool: Executor) -> None:
        self.pool = pool

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        if not getattr(_inline, "active", False):
            return self.pool.submit(fn, *args, **kwargs)
        future: Future[T] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as e:
            future.set_exception(e)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.pool.shutdown(wait=wait, cancel_futures=cancel_futures)


def turn_worker(app: App) -> TurnWorker | None:
    """The ``TurnWorker`` ``build_app`` started for ``app``."""
    return _workers.get(app)


def running_workers() -> list[TurnWorker]:
    return list(_workers.values())


def consumer_name() -> str:
    """This worker's name in the turn log's consumer group: host, pid, a random tail."""
    return f"{os.uname().nodename}-{os.getpid()}-{uuid.uuid4().hex[:6]}"


def build_app(
    settings: Settings,
    deps: TurnDeps,
    store: DeliveryStore,
    *,
    client: WebClient | None = None,
    options: SlackOptions | None = None,
    mode: Mode = "http",
    executor: Executor | None = None,
) -> App:
    """The Bolt app. Raises ``ConfigError`` when a token ``mode`` needs is missing.

    ``client`` replaces the ``WebClient`` built from ``settings``; ``executor`` the pool
    Bolt runs command and action listeners on.
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
        listener_executor=EventsInlineExecutor(
            executor or ThreadPoolExecutor(max_workers=8, thread_name_prefix="prism-listener")
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
    app.middleware(team_gate(frozenset(settings.prism_allowed_teams)))
    replier = Replier(client)
    access = Access(client, AccessPolicy.from_settings(settings))
    turns = store.turn_log(consumer=consumer_name(), reclaim_after_s=options.reclaim_after_s)
    answerer = MessageAnswerer(
        deps,
        replier,
        access=access,
        store=store,
        turns=turns,
        delivery=Delivery(client, budget_s=options.delivery_budget_s),
    )
    register_events(app, answerer, access)
    register_panel(app, Panel(replier, deps.reports, deps.state, store), access)
    register_commands(app, CommandHandler(deps.reports, deps.state), access)
    register_actions(app, store, access, replier)
    if options.start_worker:
        _workers[app] = TurnWorker(turns, answerer, threads=options.listener_threads).start()
    logger.info(
        "slack app ready: mode=%s listener_threads=%d store=%s",
        mode,
        options.listener_threads,
        store.description,
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
    """Bolt middleware: only requests for the app's own install get past it — the token's
    workspace, or any workspace of its Enterprise Grid org (``home_teams``: ``auth.test``,
    cached by Bolt), never the request's word for it — and, with ``PRISM_ALLOWED_TEAMS``
    (``allowed``), only requests from those workspaces."""

    def gate(
        context: BoltContext, body: dict[str, Any], next: Callable[[], None]
    ) -> BoltResponse | None:
        team, enterprise = context.team_id, context.enterprise_id
        home = home_teams(context)
        installed = team in home or (enterprise is not None and enterprise in orgs_of(home))
        if installed and (not allowed or team in allowed):
            next()
            return None
        logger.warning(
            "dropping a request from workspace %s (org %s): %s",
            team,
            enterprise,
            "not in PRISM_ALLOWED_TEAMS" if installed else "not this app's install",
        )
        if body.get("command"):
            reply = {"response_type": "ephemeral", "text": texts.NOT_ENABLED}
            return BoltResponse(
                status=200, body=json.dumps(reply), headers={"content-type": "application/json"}
            )
        return BoltResponse(status=200, body="")

    return gate
