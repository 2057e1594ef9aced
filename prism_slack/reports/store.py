"""Reports from a directory of ``<slug>/audit-data.json`` files (the ``ReportStore`` adapter).

Every file is validated when the store is built (and on ``reload()``). A bad file is
skipped with a ``ReportError`` naming the file, the JSON path and the problem; the rest are
served. Company detection is delegated to ``reports/detect.py``.
"""

from __future__ import annotations

import json
import logging
import math
import re
import time
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from prism_slack.errors import ConfigError, ReportError, UnknownReportError
from prism_slack.evidence import join_key
from prism_slack.ports import Detection
from prism_slack.reports.detect import CompanyIndex, normalise_name
from prism_slack.reports.model import Report, build_report

logger = logging.getLogger(__name__)

REPORT_FILE = "audit-data.json"
ROOT_PATH = "$"
"""The JSON path of a whole document, for problems that are not about one field."""

_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MAX_DEPTH = 64
"""Deepest nesting of objects and arrays a report may have (real reports use a handful)."""
_TOO_DEEP = f"invalid JSON: nested deeper than {MAX_DEPTH} levels"


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:40]} is out of range")
    return value


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:  # longer than Python reads (sys.get_int_max_str_digits)
        raise ValueError(f"an integer of {len(text)} digits is too long") from None


def _depth_exceeds(data: Any, limit: int) -> bool:
    """Whether objects and arrays nest deeper than ``limit`` (iterative: no recursion)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children = list(value.values())
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def _json_path(loc: tuple[int | str, ...]) -> str:
    path = ""
    for part in loc:
        path = f"{path}[{part}]" if isinstance(part, int) else join_key(path, str(part))
    return path or ROOT_PATH


def _type_name(value: object) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    return "null" if value is None else type(value).__name__


def _problem(kind: str, message: str) -> str:
    # pydantic names the Python class ("instance of Company"); authors write JSON.
    return "Input should be an object" if kind == "model_type" else message


def check_report_file(file: Path, slug: str) -> tuple[Report | None, list[ReportError]]:
    """Read and validate one report file: the report, or every problem found in it."""
    name = str(file)
    if not _SLUG.match(slug):
        problem = (
            f"directory name {slug!r} is not a valid slug "
            "(lower-case letters and digits, separated by single hyphens)"
        )
        return None, [ReportError(name, ROOT_PATH, problem)]
    try:
        text = file.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        return None, [ReportError(name, ROOT_PATH, f"missing: no {REPORT_FILE} in the directory")]
    except UnicodeDecodeError as e:
        return None, [ReportError(name, ROOT_PATH, f"not UTF-8 text (byte {e.start})")]
    except OSError as e:
        return None, [ReportError(name, ROOT_PATH, f"cannot read: {e.strerror or e}")]
    try:
        data: Any = json.loads(
            text, parse_constant=_reject_constant, parse_float=_finite_float, parse_int=_int
        )
    except json.JSONDecodeError as e:
        problem = f"invalid JSON: {e.msg} at line {e.lineno} column {e.colno}"
        return None, [ReportError(name, ROOT_PATH, problem)]
    except RecursionError:
        return None, [ReportError(name, ROOT_PATH, _TOO_DEEP)]
    except ValueError as e:  # NaN or Infinity, or a number Python cannot hold
        return None, [ReportError(name, ROOT_PATH, f"invalid JSON: {e}")]
    if _depth_exceeds(data, MAX_DEPTH):
        return None, [ReportError(name, ROOT_PATH, _TOO_DEEP)]
    if not isinstance(data, dict):
        problem = f"expected a JSON object at the top level, got {_type_name(data)}"
        return None, [ReportError(name, ROOT_PATH, problem)]
    try:
        return build_report(slug, data), []
    except ValidationError as e:
        errors = [
            ReportError(name, _json_path(err["loc"]), _problem(err["type"], err["msg"]))
            for err in e.errors(include_url=False)
        ]
        return None, errors


def _duplicates(reports: list[Report], files: dict[str, str]) -> list[ReportError]:
    """Problems that span files: the same company, domain or report id twice. The later
    slug (in sorted order) is the one reported."""
    errors: list[ReportError] = []
    seen: dict[tuple[str, str], str] = {}
    for report in reports:
        company = report.company
        fields = [
            ("company.name", normalise_name(company.name)),
            ("company.domain", (company.domain or "").strip().lower().removeprefix("www.")),
            ("report.id", report.id.strip()),
        ]
        for path, value in fields:
            if not value:
                continue
            first = seen.setdefault((path, value), report.slug)
            if first != report.slug:
                problem = f"duplicate: {files[first]} has the same {path.split('.')[-1]}"
                errors.append(ReportError(files[report.slug], path, problem))
    return errors


def _report_dirs(directory: Path) -> list[Path]:
    try:
        if not directory.exists():
            raise ConfigError(
                f"reports directory {directory} does not exist (set PRISM_REPORTS_DIR)"
            )
        if not directory.is_dir():
            raise ConfigError(f"reports directory {directory} is not a directory")
        entries = sorted(directory.iterdir())
    except OSError as e:
        raise ConfigError(f"cannot read reports directory {directory}: {e.strerror or e}") from e
    return [p for p in entries if p.is_dir() and not p.name.startswith((".", "_"))]


def validate_directory(directory: Path) -> tuple[list[Report], list[ReportError]]:
    """Every valid report in ``directory`` (sorted by slug) and every problem found.

    Raises ``ConfigError`` when the directory itself is missing or unreadable.
    """
    reports: list[Report] = []
    errors: list[ReportError] = []
    files: dict[str, str] = {}
    for path in _report_dirs(directory):
        file = path / REPORT_FILE
        report, problems = check_report_file(file, path.name)
        errors += problems
        if report is not None:
            reports.append(report)
            files[report.slug] = str(file)
    duplicates = _duplicates(reports, files)
    if duplicates:
        dropped = {e.file for e in duplicates}
        reports = [r for r in reports if files[r.slug] not in dropped]
        errors += duplicates
    return reports, errors


class FileReportStore:
    """``ReportStore`` over a directory; reports are loaded at construction and ``reload()``."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._loaded: tuple[dict[str, Report], CompanyIndex] = ({}, CompanyIndex([]))
        self.errors: list[ReportError] = []
        self.reload()

    def reload(self) -> None:
        """Re-read every file; raises ``ConfigError`` if the directory is unusable."""
        started = time.perf_counter()
        reports, errors = validate_directory(self.directory)
        for error in errors:
            logger.warning("skipped report file %s: %s: %s", error.file, error.path, error.problem)
        self._loaded = ({r.slug: r for r in reports}, CompanyIndex(reports))
        self.errors = errors
        elapsed_ms = (time.perf_counter() - started) * 1000
        logger.info(
            "loaded %d reports from %s (%d problems) in %.1f ms",
            len(reports),
            self.directory,
            len(errors),
            elapsed_ms,
        )
        if not reports:
            logger.warning("no valid reports in %s", self.directory)

    def get(self, slug: str) -> Report:
        try:
            return self._loaded[0][slug]
        except KeyError:
            raise UnknownReportError(slug, self.slugs()) from None

    def all(self) -> list[Report]:
        reports = self._loaded[0]
        return [reports[s] for s in sorted(reports)]

    def slugs(self) -> list[str]:
        return sorted(self._loaded[0])

    def detect(self, text: str) -> Detection:
        return self._loaded[1].detect(text)

    def suggest(self, text: str, limit: int = 3) -> list[str]:
        return self._loaded[1].suggest(text, limit)
