"""`prism verify`: run the deterministic verifier on a claim-contract answer file.

    prism verify --report SLUG --answer FILE [--reports-dir DIR] [--question TEXT] [--json]

FILE is claim-contract JSON (``{"claims": [...]}``), or ``-`` for standard input. With
``--json`` one JSON object is printed: ``report``, ``report_id``, ``report_digest``,
``evidence_root``, ``label`` and ``claims`` — one entry per input claim, in input order,
with ``text``, ``kind``, ``evidence``, ``rung``, ``supported``, ``reasons`` (strings,
``"<check>: <message>"``), and the three-state contract of DESIGN §6: ``status``
(``settled``, ``undecided`` or ``failed``), ``undecided`` (a bool), ``needs_judge`` (would
``PRISM_JUDGE=auto`` send it to the judge), ``rules`` (the rule id of every reason) and
``undecided_reasons`` (``{check, rule, message}`` objects). Without it, a verdict table.
This output is a stable contract: other tools read it.

Exit status: 0 whatever the verdicts; ``EXIT_BAD_INPUT`` with a one-line error on stderr
for an unknown report (the message lists the known ones), an invalid report file, an
unreadable or malformed answer file, or a bad reports directory.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any

from prism_slack.claims import Answer, parse_answer
from prism_slack.errors import AnswerParseError, PrismError, UnknownReportError
from prism_slack.llm.playbook import load_playbook
from prism_slack.pipeline.judge import should_judge
from prism_slack.reports.model import Report
from prism_slack.reports.store import validate_directory
from prism_slack.settings import Settings
from prism_slack.verdict import ClaimVerdict, Label, answer_label
from prism_slack.verify import verify_answer

logger = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_BAD_INPUT = 2
STDIN = "-"


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "verify",
        help="verify a claim-contract answer against a report",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--report", required=True, metavar="SLUG", help="the report's slug")
    parser.add_argument(
        "--answer", required=True, metavar="FILE", help="claim-contract JSON file, or - for stdin"
    )
    parser.add_argument(
        "--reports-dir", type=Path, metavar="DIR", help="default: $PRISM_REPORTS_DIR or reports"
    )
    parser.add_argument("--question", metavar="TEXT", help="the question, shown with the table")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace, settings: Settings) -> int:
    directory: Path = args.reports_dir or settings.prism_reports_dir
    try:
        report = load_report(directory, args.report)
        answer = read_answer(args.answer)
        allowed = load_playbook().vocabulary()
    except PrismError as e:
        print(f"prism verify: {_one_line(str(e))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    verdicts = verify_answer(answer, report, allowed=allowed)
    label = answer_label(verdicts)
    logger.debug(
        "verified report=%s claims=%d supported=%d label=%s",
        report.slug,
        len(verdicts),
        sum(v.supported for v in verdicts),
        label.value,
    )
    if args.json:
        print(json.dumps(as_json(report, verdicts, label), indent=2, ensure_ascii=False))
    else:
        print(render_table(report, verdicts, label, question=args.question))
    return EXIT_OK


def load_report(directory: Path, slug: str) -> Report:
    """The report ``slug`` from ``directory``; raises ``ConfigError`` for a bad directory,
    ``UnknownReportError`` (listing the known slugs) or ``PrismError`` for a bad file."""
    reports, errors = validate_directory(directory)
    for report in reports:
        if report.slug == slug:
            return report
    broken = [e for e in errors if Path(e.file).parent.name == slug]
    if broken:
        raise PrismError(f"report {slug!r} is invalid: {broken[0]}")
    raise UnknownReportError(slug, sorted(r.slug for r in reports))


def read_answer(source: str) -> Answer:
    """Parse the answer at ``source`` (a path, or ``-`` for stdin)."""
    try:
        raw = sys.stdin.read() if source == STDIN else Path(source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        problem = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise AnswerParseError(f"cannot read answer file {source}: {problem}") from e
    try:
        return parse_answer(raw)
    except AnswerParseError as e:
        raise AnswerParseError(f"answer file {source}: {e}") from e


def as_json(report: Report, verdicts: list[ClaimVerdict], label: Label) -> dict[str, Any]:
    """The ``--json`` object (a stable contract)."""
    return {
        "report": report.slug,
        "report_id": report.id,
        "report_digest": report.digest,
        "evidence_root": report.evidence.root,
        "label": label.value,
        "claims": [
            {
                "text": v.claim.text,
                "kind": v.claim.kind,
                "evidence": list(v.claim.evidence),
                "rung": v.rung.value,
                "supported": v.supported,
                "reasons": [str(r) for r in v.reasons],
                "status": v.status.value,
                "undecided": v.undecided,
                "needs_judge": should_judge(v, "auto"),
                "rules": [r.rule for r in (*v.reasons, *v.undecided_reasons)],
                "undecided_reasons": [
                    {"check": r.check.slug, "rule": r.rule, "message": r.message}
                    for r in v.undecided_reasons
                ],
            }
            for v in verdicts
        ],
    }


def render_table(
    report: Report, verdicts: list[ClaimVerdict], label: Label, *, question: str | None = None
) -> str:
    """A readable verdict table: one block per claim, reasons indented beneath."""
    lines = [f"Report   {report.slug} ({report.company.name}, {report.id})"]
    if question:
        lines.append(f"Question {question}")
    lines.append(f"Label    {label.value}")
    lines.append("")
    if not verdicts:
        lines.append("(no claims: nothing is grounded)")
    rows = [("#", "STATE", "KIND", "RUNG", "CLAIM")]
    rows += [
        (str(i), v.status.value, v.claim.kind, v.rung.value, v.claim.text)
        for i, v in enumerate(verdicts, start=1)
    ]
    widths = [max(len(row[c]) for row in rows) for c in range(4)]
    for i, row in enumerate(rows):
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(row[:4], widths, strict=True)))
        lines[-1] += f"  {row[4]}"
        if i == 0:
            continue
        verdict = verdicts[i - 1]
        indent = " " * (sum(widths) + 8)
        if verdict.claim.evidence:
            lines.append(f"{indent}cites: {', '.join(verdict.claim.evidence)}")
        lines += [f"{indent}- {reason} [{reason.rule}]" for reason in verdict.reasons]
        lines += [f"{indent}? {r} [{r.rule}]" for r in verdict.undecided_reasons]
    return "\n".join(lines)


def _one_line(text: str) -> str:
    return " ".join(text.split())
