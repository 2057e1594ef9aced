"""`prism ask`: one turn from the terminal, through the same pipeline as Slack."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from prism_slack.cli.wording import for_terminal
from prism_slack.errors import PrismError, StoreUnavailable
from prism_slack.pipeline.result import Outcome, TurnResult
from prism_slack.pipeline.turn import TurnDeps, run_turn
from prism_slack.ports import Conversation, StateStore
from prism_slack.render.text import render_text
from prism_slack.settings import Settings
from prism_slack.wiring import build_turn_deps, open_state

CLI_CONVERSATION = Conversation(team="cli", channel="ask")


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "ask", help="answer one question from a report", description=__doc__
    )
    parser.add_argument("question", nargs="+", help="the question (quote it or not)")
    parser.add_argument("--report", metavar="SLUG", help="answer from this report")
    add_reports_dir(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


def add_reports_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--reports-dir", type=Path, metavar="DIR", help="default: $PRISM_REPORTS_DIR or reports"
    )


def deps_for(args: argparse.Namespace, settings: Settings) -> TurnDeps:
    """The turn's ports, honouring ``--reports-dir``. Raises ``PrismError`` on bad config
    or a state store that does not work."""
    if args.reports_dir is not None:
        settings = settings.model_copy(update={"prism_reports_dir": args.reports_dir})
    state = open_state(settings)
    check_state(state)
    deps = build_turn_deps(settings, state=state)
    deps.enforce_access = False  # the operator's own terminal reads every report
    return deps


EXIT_OK = 0
EXIT_FAILED = 1
"""The turn ran but could not answer (the model or the store failed mid-turn)."""
EXIT_CONFIG = 2


def run(args: argparse.Namespace, settings: Settings) -> int:
    try:
        deps = deps_for(args, settings)
        if args.report is not None:
            deps.reports.get(args.report)
    except PrismError as e:
        print(f"prism ask: {e}", file=sys.stderr)
        return EXIT_CONFIG
    result = run_turn(" ".join(args.question), CLI_CONVERSATION, deps, report=args.report)
    result = for_terminal(result, "`--report SLUG` (`prism reports list` shows them)")
    if args.json:
        print(json.dumps(as_json(result), indent=2, ensure_ascii=False))
    else:
        print(render_text(result, color=sys.stdout.isatty()))
    return EXIT_FAILED if result.outcome is Outcome.FAILED else EXIT_OK


def check_state(state: StateStore) -> None:
    """``StoreUnavailable`` naming the store and the fix, unless the state store works."""
    try:
        state.round_trip()
    except StoreUnavailable as e:
        raise StoreUnavailable(store_problem(state.description, e)) from e


def store_problem(description: str, error: Exception) -> str:
    """What failed and the fix, for a state store that cannot be reached."""
    cause = error.__cause__ or error
    return (
        f"cannot reach the state store, {description} ({type(cause).__name__}: {cause}): "
        "check REDIS_URL and that Redis is up, or unset REDIS_URL to keep state in memory"
    )


def as_json(result: TurnResult) -> dict[str, Any]:
    """The stable ``--json`` shape of one turn."""
    return {
        "report": result.report,
        "outcome": result.outcome.value,
        "label": result.label.value if result.label else None,
        "method": result.method.value if result.method else None,
        "reply_text": render_text(result),
        "claims": [
            {
                "text": v.claim.text,
                "kind": v.claim.kind,
                "evidence": v.claim.evidence,
                "rung": v.rung.value,
                "supported": v.supported,
            }
            for v in result.verdicts
        ],
        "withheld": [
            {"text": w.claim.text, "kind": w.claim.kind, "reasons": w.reasons}
            for w in result.withheld
        ],
        "model_calls": [call.model_dump() for call in result.model_calls],
        "timings_ms": result.timings_ms,
        "turn_id": result.turn_id,
    }
