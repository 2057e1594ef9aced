"""`prism doctor`: check Slack, the store, the reports, Gemini and the judge, one line each.

Every line is ✓ or ✗. What is not configured is a valid deployment, and its ✓ line says
what PRISM runs on instead (the terminal only, the in-memory store in one process, the
offline answerer); a ✗ is something configured that does not work, and says what to fix.
The exit status is 1 when any line is ✗ (0 otherwise).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from prism_slack.doctor import MANIFEST, run_checks
from prism_slack.settings import Settings

EXIT_OK = 0
EXIT_BROKEN = 1


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "doctor",
        help="check the configuration; exit 1 if anything configured does not work",
        description=__doc__,
    )
    parser.add_argument(
        "--manifest",
        type=Path,
        default=MANIFEST,
        metavar="FILE",
        help="the Slack app manifest whose scopes the token must have (default: manifest.yml)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace, settings: Settings) -> int:
    findings = run_checks(settings, manifest=args.manifest)
    for finding in findings:
        print(finding.line(), flush=True)
    return EXIT_OK if all(f.ok for f in findings) else EXIT_BROKEN
