"""`prism reports list|validate|show|add`: what reports there are, what is wrong with a
file, how each leaf of a report was read (its typed fact), and adding an export from
another tool as a report."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from prism_slack.cli.ask_cmd import add_reports_dir
from prism_slack.cli.reports_add import add_report, register_add
from prism_slack.errors import ConfigError, ReportError
from prism_slack.facts import explain
from prism_slack.reports.hazards import find_hazards
from prism_slack.reports.model import Report
from prism_slack.reports.store import REPORT_FILE, validate_directory
from prism_slack.settings import Settings

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_BAD_DIRECTORY = 2


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "reports", help="list, validate or add audit reports", description=__doc__
    )
    actions = parser.add_subparsers(dest="reports_action", required=True)
    for name, text in (
        ("list", "list the valid reports (slug, company, report id, date)"),
        (
            "validate",
            "check every report file (and warn about text that addresses an assistant or "
            "pings Slack); exit 1 if any is invalid",
        ),
    ):
        add_reports_dir(actions.add_parser(name, help=text, description=text))
    text = "print how each leaf of a report was read: its unit, currency, period or kind"
    show = actions.add_parser("show", help=text, description=text)
    show.add_argument("slug", help="the report's slug (prism reports list)")
    show.add_argument("--passages", action="store_true", help="print passages whole")
    add_reports_dir(show)
    add_reports_dir(register_add(actions))
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace, settings: Settings) -> int:
    directory: Path = args.reports_dir or settings.prism_reports_dir
    if args.reports_action == "add":
        return add_report(args, directory, max_bytes=settings.report_max_bytes)
    try:
        reports, errors = validate_directory(directory, max_bytes=settings.report_max_bytes)
    except ConfigError as e:
        print(f"prism reports: {e}", file=sys.stderr)
        return EXIT_BAD_DIRECTORY
    if args.reports_action == "list":
        return _list(reports, errors)
    if args.reports_action == "show":
        return _show(args.slug, reports, errors, passages=args.passages)
    return _validate(directory, reports, errors)


def _show(slug: str, reports: list[Report], errors: list[ReportError], *, passages: bool) -> int:
    """Each leaf's typed reading, as the verifier and the answerer will read it."""
    report = next((r for r in reports if r.slug == slug), None)
    if report is None:
        refused = [e for e in errors if Path(e.file).parent.name == slug]
        known = ", ".join(r.slug for r in reports) or "none"
        why = f"is not valid: {refused[0]}" if refused else f"is unknown (reports: {known})"
        print(f"prism reports show: report {slug!r} {why}", file=sys.stderr)
        return EXIT_INVALID
    print(f"{report.slug}: {report.company.name}, {report.id}")
    for line in explain(report.facts, report.evidence, passages=passages):
        print(f"  {line}")
    untyped = report.facts.untyped()
    print(f"{len(report.facts)} leaves, {len(report.facts.series)} series, {len(untyped)} untyped")
    return EXIT_OK


def _list(reports: list[Report], errors: list[ReportError]) -> int:
    rows = [("SLUG", "COMPANY", "REPORT", "DATE")]
    rows += [(r.slug, r.company.name, r.id, r.generated_at.isoformat()) for r in reports]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    for error in errors:
        print(f"warning: skipped {error}", file=sys.stderr)
    return EXIT_OK


def describe(report: Report, size: int) -> str:
    """``Acme Widgets, AUD-7; 132 leaves, 14.2 KB``: what a valid report holds."""
    leaves = len(report.evidence)
    return f"{report.company.name}, {report.id}; {leaves} leaves, {size / 1000:.1f} KB"


def _validate(directory: Path, reports: list[Report], errors: list[ReportError]) -> int:
    bad_files = {e.file for e in errors}
    warnings = 0
    for report in reports:
        file = directory / report.slug / REPORT_FILE
        print(f"{file}: OK ({describe(report, file.stat().st_size)})")
        for hazard in find_hazards(report):
            print(f"{file}: warning: {hazard.path}: {hazard.problem()}")
            warnings += 1
        for fact in report.facts.untyped():
            if fact.note != "no value":
                print(f"{file}: warning: {fact.path}: could not be typed ({fact.note})")
                warnings += 1
    for error in errors:
        print(str(error))
    counts = f"{len(reports)} valid, {len(bad_files)} invalid"
    print(counts + (f", {warnings} warning{'s' * (warnings != 1)}" if warnings else ""))
    return EXIT_INVALID if errors else EXIT_OK
