"""`prism chat`: a conversation in the terminal that behaves like a Slack thread.

Type a question, or one of chat's commands: `/bind <company>` (answer from that company's
report), `/reports` (list them), `/help`, `/quit` (or Ctrl-D). Follow-up questions are read
with the ones before them.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import sys
import threading
import uuid
from typing import Any, TextIO

from prism_slack.cli.ask_cmd import add_reports_dir, deps_for
from prism_slack.cli.wording import for_terminal
from prism_slack.errors import PrismError, StoreUnavailable
from prism_slack.pipeline.binding import bind_company
from prism_slack.pipeline.result import TurnResult
from prism_slack.pipeline.turn import TurnDeps, run_turn
from prism_slack.ports import Conversation
from prism_slack.render.text import render_text
from prism_slack.settings import Settings

HELP = "Ask about the prospect, or: /bind <company> · /reports · /help · /quit"


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "chat",
        help="a conversation in the terminal (/bind <company>, /reports, /quit)",
        description=__doc__,
    )
    parser.add_argument("--report", metavar="SLUG", help="start bound to this report")
    add_reports_dir(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace, settings: Settings) -> int:
    try:
        deps = deps_for(args, settings)
        where = Conversation(team="cli", channel="chat", thread=uuid.uuid4().hex)
        if args.report is not None:
            report = deps.reports.get(args.report)
            deps.state.set_binding(where, slug=report.slug)
    except PrismError as e:
        print(f"prism chat: {e}", file=sys.stderr)
        return 2
    chat(deps, where, sys.stdin, sys.stdout)
    return 0


def chat(deps: TurnDeps, where: Conversation, stdin: TextIO, stdout: TextIO) -> None:
    """The read–answer loop; ``stdin``/``stdout`` are parameters so tests can drive it."""
    print(f"PRISM chat — {deps.model.name} model, {deps.state.description}. {HELP}", file=stdout)
    color = stdout.isatty()
    while True:
        if stdin.isatty():
            print("you> ", end="", file=stdout, flush=True)
        line = stdin.readline()
        if not line or line.strip() in {"/quit", "/exit"}:
            return
        text = line.strip()
        if not text:
            continue
        if text.startswith("/"):
            print(command(text, deps, where), file=stdout)
            continue
        result = with_status(functools.partial(run_turn, text, where, deps), stdout)
        result = for_terminal(result, "`/bind <company>`")
        print(render_text(result, color=color), file=stdout, flush=True)


def command(text: str, deps: TurnDeps, where: Conversation) -> str:
    name, _, rest = text.partition(" ")
    if name == "/reports":
        return "\n".join(
            f"{r.slug:<24} {r.company.name} ({r.id}, {r.generated_at})" for r in deps.reports.all()
        )
    if name == "/help":
        return HELP
    if name == "/bind":
        try:
            return bind_company(
                rest, where, deps.reports, deps.state, enforce_access=deps.enforce_access
            ).message()
        except StoreUnavailable:
            return "I can't reach my store right now; try again in a minute."
    return f"Unknown command {name}. {HELP}"


def with_status(work: Any, stdout: TextIO) -> TurnResult:
    """Run ``work`` in a thread, showing a spinner on a terminal while it runs."""
    box: list[TurnResult] = []
    thread = threading.Thread(target=lambda: box.append(work()), daemon=True)
    thread.start()
    if stdout.isatty():
        for frame in itertools.cycle("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"):
            thread.join(0.1)
            if not thread.is_alive():
                break
            print(f"\r{frame} checking the audit report…", end="", file=stdout, flush=True)
        print("\r\033[K", end="", file=stdout)
    thread.join()
    return box[0]
