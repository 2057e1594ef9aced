"""PRISM answers sales reps' questions about a prospect from that prospect's audit report,
and from nothing else: every figure and name it posts is checked against the report.

Start with `prism ask --report northwind-outfitters "what should I lead with?"`, or
`prism chat` for a conversation. `prism doctor` checks a deployment; `prism reports`
lists, validates and adds reports; `prism serve` and `prism socket` run the Slack app."""

# Each subcommand lives in its own module with ``register``.

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from prism_slack.settings import Settings


def build_parser() -> argparse.ArgumentParser:
    from prism_slack.cli import (
        ask_cmd,
        chat_cmd,
        doctor_cmd,
        feedback_cmd,
        reports_cmd,
        serve_cmd,
        verify_cmd,
    )

    parser = argparse.ArgumentParser(
        prog="prism",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Run `prism COMMAND --help` for a command's options. Configuration comes from "
        "environment variables (see README.md); nothing needs setting to try it.",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log at DEBUG to stderr")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in (ask_cmd, chat_cmd, doctor_cmd, feedback_cmd, reports_cmd, serve_cmd, verify_cmd):
        module.register(sub)
    return parser


QUIET_LOGGERS = ("httpx", "httpx2", "httpcore", "urllib3", "slack_sdk", "slack_bolt")
"""Libraries that log every request (URLs, payload sizes) at INFO: kept at WARNING."""


def configure_logging(level: int | str) -> None:
    """One stderr handler; our loggers at ``level``, chatty libraries at WARNING."""
    if isinstance(level, str):
        level = logging.getLevelName(level.upper())
        level = level if isinstance(level, int) else logging.INFO
    logging.basicConfig(
        level=level, stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s %(message)s"
    )
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(max(level, logging.WARNING))


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: read configuration once, then hand it to the subcommand."""
    parser = build_parser()
    args = parser.parse_args(argv)
    settings = Settings()
    default = getattr(args, "log_level", "WARNING")
    configure_logging(logging.DEBUG if args.verbose else settings.log_level or default)
    code: int = args.handler(args, settings)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
