"""`prism reports list|validate`: what reports there are, and what is wrong with a file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from prism_slack.errors import ConfigError, ReportError
from prism_slack.reports.model import Report
from prism_slack.reports.store import REPORT_FILE, validate_directory
from prism_slack.settings import Settings

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_BAD_DIRECTORY = 2


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "reports", help="list or validate the audit reports", description=__doc__
    )
    actions = parser.add_subparsers(dest="reports_action", required=True)
    for name, text in (
        ("list", "list the valid reports (slug, company, report id, date)"),
        ("validate", "check every report file; exit 1 if any is invalid"),
    ):
        action = actions.add_parser(name, help=text, description=text)
        action.add_argument(
            "--reports-dir",
            type=Path,
            metavar="DIR",
            help="default: $PRISM_REPORTS_DIR or reports",
        )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace, settings: Settings) -> int:
    directory: Path = args.reports_dir or settings.prism_reports_dir
    try:
        reports, errors = validate_directory(directory)
    except ConfigError as e:
        print(f"prism reports: {e}", file=sys.stderr)
        return EXIT_BAD_DIRECTORY
    if args.reports_action == "list":
        return _list(reports, errors)
    return _validate(directory, reports, errors)


def _list(reports: list[Report], errors: list[ReportError]) -> int:
    rows = [("SLUG", "COMPANY", "REPORT", "DATE")]
    rows += [(r.slug, r.company.name, r.id, r.generated_at.isoformat()) for r in reports]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    for error in errors:
        print(f"warning: skipped {error}", file=sys.stderr)
    return EXIT_OK


def _validate(directory: Path, reports: list[Report], errors: list[ReportError]) -> int:
    bad_files = {e.file for e in errors}
    for report in reports:
        file = directory / report.slug / REPORT_FILE
        print(f"{file}: OK ({report.company.name}, {report.id})")
    for error in errors:
        print(str(error))
    print(f"{len(reports)} valid, {len(bad_files)} invalid")
    return EXIT_INVALID if errors else EXIT_OK
