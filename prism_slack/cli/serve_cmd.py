"""`prism serve` (HTTP mode, gunicorn) and `prism socket` (Socket Mode): run the Slack app.

Configuration comes from the environment (``Settings``): ``SLACK_BOT_TOKEN`` and
``SLACK_SIGNING_SECRET`` (HTTP), ``SLACK_APP_TOKEN`` (Socket Mode), ``SLACK_API_URL``,
``REDIS_URL``, ``PRISM_REPORTS_DIR``, ``GEMINI_API_KEY``, ``PRISM_TURN_BUDGET_S``,
``PRISM_RECLAIM_AFTER_S``, ``PORT``. A missing token, or a Redis that answers with an error,
is reported in one line and the command exits 2 before anything starts; Redis persistence
that is off or unknown is one warning line.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any
from wsgiref.types import WSGIApplication

import redis
from slack_bolt.error import BoltError
from slack_sdk.errors import SlackClientError

from prism_slack import preload
from prism_slack.errors import ConfigError, PrismError, StoreUnavailable
from prism_slack.pipeline.turn import TurnDeps
from prism_slack.ports import ReportStore, StateStore
from prism_slack.preflight import explain_slack_error, quiet, token_problems
from prism_slack.settings import Settings
from prism_slack.slack.app import SlackOptions, build_app
from prism_slack.slack.client import slack_credentials
from prism_slack.slack.server import PrismGunicorn, build_wsgi_app, gunicorn_options
from prism_slack.slack.socket_mode import build_socket_handler, run_socket_mode
from prism_slack.state.persistence import Persistence
from prism_slack.wiring import build_turn_deps, open_report_store, open_state

DEFAULT_WORKERS = 2
DEFAULT_THREADS = 8
DEFAULT_LISTENER_THREADS = SlackOptions().listener_threads


def register(sub: Any) -> None:
    serve: argparse.ArgumentParser = sub.add_parser(
        "serve",
        help="run the Slack app over HTTP (gunicorn, POST /slack/events, GET /healthz)",
        description="Run the Slack app in HTTP mode behind gunicorn (gthread workers).",
    )
    serve.add_argument("--host", default="0.0.0.0", help="interface to bind (default: all)")
    serve.add_argument("--port", type=int, help="port (default: $PORT, else 3000)")
    serve.add_argument(
        "--workers",
        type=int,
        default=DEFAULT_WORKERS,
        help=f"worker processes (default: {DEFAULT_WORKERS}; 1 without REDIS_URL)",
    )
    serve.add_argument(
        "--threads",
        type=int,
        default=DEFAULT_THREADS,
        help=f"HTTP threads per worker (default: {DEFAULT_THREADS})",
    )
    serve.add_argument(
        "--listener-threads",
        type=_positive,
        default=DEFAULT_LISTENER_THREADS,
        help="answering threads per worker; each holds one message for as long as its model "
        "calls take (a message waiting behind an earlier one of its conversation holds none) "
        f"(default: {DEFAULT_LISTENER_THREADS})",
    )
    serve.set_defaults(handler=run, log_level="INFO")
    socket: argparse.ArgumentParser = sub.add_parser(
        "socket",
        help="run the Slack app in Socket Mode (no public URL needed; SLACK_APP_TOKEN)",
        description="Run the Slack app over a Socket Mode WebSocket.",
    )
    socket.set_defaults(handler=run_socket, log_level="INFO")


def run(args: argparse.Namespace, settings: Settings) -> int:
    """`prism serve`: check the configuration here, then let gunicorn run the workers."""
    try:
        slack_credentials(settings, mode="http")
        deps, state = start_up_deps(settings)
        with quiet():  # auth.test
            build_app(settings, deps, state, options=SlackOptions(start_worker=False))
    except PrismError as e:
        return _fail("serve", e)
    except (BoltError, SlackClientError, OSError) as e:
        return _fail("serve", explain_slack_error(e, settings))
    problem = check_store(state, redis_url=settings.redis_url is not None)
    if problem is not None:
        return _fail("serve", problem)
    workers = args.workers
    if settings.redis_url is None and workers > 1:
        print(
            "prism serve: no REDIS_URL, so state is in memory and per process: "
            "running 1 worker (set REDIS_URL to run more)",
            file=sys.stderr,
        )
        workers = 1
    port = args.port if args.port is not None else settings.port
    options = gunicorn_options(
        host=args.host,
        port=port,
        workers=workers,
        threads=args.threads,
        turn_budget_s=settings.prism_turn_budget_s,
    )
    slack_options = slack_options_from(settings, listener_threads=args.listener_threads)
    preload.warm(deps.reports, playbook_text=deps.playbook_text)
    preload.freeze()  # the workers share what is loaded so far, copy-on-write
    reports = deps.reports
    PrismGunicorn(lambda: create_wsgi_app(settings, slack_options, reports), options).run()
    return 0


def slack_options_from(settings: Settings, *, listener_threads: int) -> SlackOptions:
    return SlackOptions(
        listener_threads=listener_threads, reclaim_after_s=settings.prism_reclaim_after_s
    )


def check_store(state: StateStore, *, redis_url: bool, command: str = "serve") -> Exception | None:
    """At start-up: a store that answers with an error (a database it cannot select, a
    wrong password) stops ``serve``; one that is only down is a warning (replies say so,
    ``/healthz`` shows it). Persistence that is off or unknown is one warning line."""
    try:
        state.round_trip()
    except StoreUnavailable as e:
        if not isinstance(e.__cause__, (redis.ConnectionError, redis.TimeoutError)):
            return e
        print(f"prism {command}: warning: {e}", file=sys.stderr)
        return None
    if not redis_url:
        print(
            f"prism {command}: warning: REDIS_URL is not set: bindings, history and audit "
            "records are kept in this process's memory and lost on restart",
            file=sys.stderr,
        )
    else:
        report = state.persistence()
        if report.status is not Persistence.ON:
            print(f"prism {command}: warning: {report.detail}", file=sys.stderr)
    return None


def create_wsgi_app(
    settings: Settings, options: SlackOptions | None = None, reports: ReportStore | None = None
) -> WSGIApplication:
    """Build one worker's app: ports, Bolt app (and its turn worker), WSGI router.
    ``reports`` is the store the master loaded (shared copy-on-write), else a new one."""
    state = open_state(settings)
    deps = build_turn_deps(settings, reports=reports, state=state)
    app = build_app(settings, deps, state, options=options)
    secret = slack_credentials(settings, mode="http").signing_secret
    return build_wsgi_app(app, state, signing_secret=secret)


def _positive(value: str) -> int:
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {number}")
    return number


def run_socket(args: argparse.Namespace, settings: Settings) -> int:
    """`prism socket`: connect over Socket Mode and serve until SIGINT/SIGTERM."""
    try:
        credentials = slack_credentials(settings, mode="socket")
        deps, state = start_up_deps(settings)
        problem = check_store(state, redis_url=settings.redis_url is not None, command="socket")
        if problem is not None:
            return _fail("socket", problem)
        options = slack_options_from(settings, listener_threads=DEFAULT_LISTENER_THREADS)
        with quiet():
            app = build_app(settings, deps, state, mode="socket", options=options)
    except PrismError as e:
        return _fail("socket", e)
    except (BoltError, SlackClientError, OSError) as e:
        return _fail("socket", explain_slack_error(e, settings))
    assert credentials.app_token is not None
    run_socket_mode(build_socket_handler(app, credentials.app_token))
    return 0


def start_up_deps(settings: Settings) -> tuple[TurnDeps, StateStore]:
    """The ports, checked before anything starts: Slack token formats (before any network
    call), the reports directory, REDIS_URL, and no report duplicating another (a server
    refuses to start rather than serve one company's report in place of another's)."""
    problems = token_problems(settings)
    if problems:
        raise ConfigError("; ".join(map(str, problems)))
    state = open_state(settings)  # fail fast on a bad REDIS_URL, then the reports
    reports = open_report_store(settings)
    if reports.refused:
        listing = "\n  ".join(str(e) for e in reports.refused.values())
        raise ConfigError(
            f"refusing to start: {len(reports.refused)} report files duplicate another "
            f"report, and no report may silently replace another:\n  {listing}"
        )
    return build_turn_deps(settings, reports=reports, state=state), state


def _fail(command: str, error: Exception | str) -> int:
    print(f"prism {command}: {error}", file=sys.stderr)
    return 2
