"""`prism reports add FILE`: an export from any tool becomes ``reports/<slug>/audit-data.json``.

The file is wrapped in the envelope (``reports/envelope.py``), each envelope field printed
with where it came from, the result validated like every report (envelope, size,
duplicates of the reports already there, text that addresses an assistant), each leaf's
typed reading printed (``facts.explain``: ``path = value → label: reading``, untyped
leaves marked), and written.
An existing report is never overwritten without ``--replace``; nothing is written when
anything is wrong.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from prism_slack.errors import ConfigError, DuplicateReportFile, ReportError
from prism_slack.facts import explain
from prism_slack.reports.envelope import Options, default_slug, wrap
from prism_slack.reports.hazards import find_hazards
from prism_slack.reports.model import Report
from prism_slack.reports.store import (
    REPORT_FILE,
    check_document,
    find_duplicates,
    read_document,
    validate_directory,
)

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_REFUSED = 2


def register_add(actions: Any) -> argparse.ArgumentParser:
    text = "wrap a JSON export in the report envelope, validate it and add it as a report"
    description = (
        "Add a JSON export from any audit tool as reports/<slug>/audit-data.json. The "
        "envelope (company name, aliases and domain, report id and date) is taken from the "
        "file where it can be (each field is printed with where it came from) or from the "
        "options; the result is validated like every report and each leaf's typed reading is "
        "printed. Nothing is written when anything is wrong, and an existing report is never "
        "overwritten without --replace."
    )
    parser: argparse.ArgumentParser = actions.add_parser("add", help=text, description=description)
    parser.add_argument("file", type=Path, metavar="FILE", help="the JSON export")
    parser.add_argument("--company", metavar="NAME", help="company.name (default: from FILE)")
    parser.add_argument(
        "--slug", metavar="S", help="directory name (default: from the company name)"
    )
    parser.add_argument("--id", dest="report_id", metavar="ID", help="report.id")
    parser.add_argument(
        "--date", metavar="D", help="report.generated_at: 2026-02-24 or 24 February 2026"
    )
    parser.add_argument(
        "--replace", action="store_true", help="overwrite a report already at that slug"
    )
    return parser


def add_report(args: argparse.Namespace, directory: Path, *, max_bytes: int) -> int:
    """Run ``prism reports add``; the exit status."""
    try:
        document = read_document(args.file, max_bytes=max_bytes)
    except ReportError as e:
        return _refuse(str(e))
    wrapped = wrap(document, Options(args.company, args.report_id, args.date))
    print(f"Read {args.file}; the envelope:")
    for taken in wrapped.taken:
        print(f"  {taken.line()}")
    for missing in wrapped.missing:
        print(f"  ✗ {missing}")
    if wrapped.missing:
        print("Nothing written.")
        return EXIT_INVALID
    slug = args.slug or default_slug(wrapped.data["company"]["name"])
    target = directory / slug / REPORT_FILE
    if target.exists() and not args.replace:
        return _refuse(f"{target} already exists (pass --replace to overwrite it, or --slug)")
    report, errors = check_document(str(target), slug, wrapped.data)
    clashes = [] if report is None else _clashes(report, directory, target, max_bytes)
    for error in errors:
        print(f"  ✗ {error}")
    for clash in clashes:
        print(
            f"  ✗ {' and '.join(clash.others)} already has the same {clash.same}: adding this "
            "would stop both being served (pass --company, --id or --slug, or --replace it)"
        )
    if report is None or errors or clashes:
        print("Nothing written.")
        return EXIT_INVALID
    text = json.dumps(wrapped.data, indent=2, ensure_ascii=False) + "\n"
    print("The typed reading of each leaf (what answers about it rest on):")
    for line in explain(report.facts, report.evidence):
        print(f"  {line}")
    for hazard in find_hazards(report):
        print(f"  warning: {hazard.path}: {hazard.problem()}")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    size = target.stat().st_size / 1000
    print(f"Wrote {target} ({len(report.evidence)} leaves, {size:.1f} KB).")
    print(f'Try it: prism ask --report {slug} "what should I lead with?"')
    return EXIT_OK


def _clashes(
    report: Report, directory: Path, target: Path, max_bytes: int
) -> list[DuplicateReportFile]:
    """The new report's duplicates among the reports already in ``directory``."""
    try:
        existing, _ = validate_directory(directory, max_bytes=max_bytes)
    except ConfigError:
        return []  # no directory yet: nothing to clash with
    others = [r for r in existing if r.slug != report.slug]
    files = {r.slug: str(directory / r.slug / REPORT_FILE) for r in others}
    files[report.slug] = str(target)
    return [e for e in find_duplicates([*others, report], files) if e.file == str(target)]


def _refuse(message: str) -> int:
    print(f"prism reports add: {message}", file=sys.stderr)
    return EXIT_REFUSED
