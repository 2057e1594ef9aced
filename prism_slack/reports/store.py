"""Reports from a directory of ``<slug>/audit-data.json`` files (the ``ReportStore`` adapter).

Every file is validated when the store is built (and on ``reload()``). A bad file is
skipped with a ``ReportError`` naming the file, the JSON path and the problem; the rest are
served. Two files for one company name, report id or domain are both refused (a
``DuplicateReportFile`` naming both): no report ever silently replaces another, and
``get`` on a refused slug says so (``RefusedReportError``). A file over the size cap
(``max_bytes``, PRISM_REPORT_MAX_MB) is refused before it is read. Company detection is
delegated to ``reports/detect.py``.
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

from prism_slack.errors import (
    ConfigError,
    DuplicateReportFile,
    RefusedReportError,
    ReportError,
    UnknownReportError,
)
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
MB = 1_000_000
DEFAULT_MAX_BYTES = 5 * MB
"""The default report size cap (PRISM_REPORT_MAX_MB=5): the largest real report is ~20 KB,
and every turn reads the whole report, so a 20 MB file makes every answer slow."""


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


def read_document(file: Path, *, max_bytes: int = DEFAULT_MAX_BYTES) -> dict[str, Any]:
    """The JSON object in ``file``; raises ``ReportError`` naming what is wrong and the fix.

    A file over ``max_bytes`` is refused before it is read."""
    name = str(file)
    try:
        size = file.stat().st_size
        if size > max_bytes:
            problem = (
                f"{size / MB:.1f} MB, over the {max_bytes / MB:g} MB report size cap "
                "(split the report, or raise PRISM_REPORT_MAX_MB)"
            )
            raise ReportError(name, ROOT_PATH, problem)
        text = file.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ReportError(name, ROOT_PATH, "missing: there is no such file") from None
    except UnicodeDecodeError as e:
        raise ReportError(name, ROOT_PATH, f"not UTF-8 text (byte {e.start})") from None
    except OSError as e:
        raise ReportError(name, ROOT_PATH, f"cannot read: {e.strerror or e}") from None
    try:
        data: Any = json.loads(
            text, parse_constant=_reject_constant, parse_float=_finite_float, parse_int=_int
        )
    except json.JSONDecodeError as e:
        what = e.msg.removesuffix(" at")  # "Unterminated string starting at"
        problem = f"invalid JSON at line {e.lineno} column {e.colno}: {what[:1].lower()}{what[1:]}"
        raise ReportError(name, ROOT_PATH, problem) from None
    except RecursionError:
        raise ReportError(name, ROOT_PATH, _TOO_DEEP) from None
    except ValueError as e:  # NaN or Infinity, or a number Python cannot hold
        raise ReportError(name, ROOT_PATH, f"invalid JSON: {e}") from None
    if _depth_exceeds(data, MAX_DEPTH):
        raise ReportError(name, ROOT_PATH, _TOO_DEEP)
    if not isinstance(data, dict):
        problem = f"expected a JSON object at the top level, got {_type_name(data)}"
        raise ReportError(name, ROOT_PATH, problem)
    return data


def _slug_problem(name: str, slug: str) -> ReportError | None:
    if _SLUG.match(slug):
        return None
    problem = (
        f"directory name {slug!r} is not a valid slug "
        "(lower-case letters and digits, separated by single hyphens)"
    )
    return ReportError(name, ROOT_PATH, problem)


def check_document(
    name: str, slug: str, data: dict[str, Any]
) -> tuple[Report | None, list[ReportError]]:
    """Validate one parsed report (``name`` is its file): the report, or every problem."""
    bad_slug = _slug_problem(name, slug)
    if bad_slug is not None:
        return None, [bad_slug]
    try:
        return build_report(slug, data), []
    except ValidationError as e:
        errors = [
            ReportError(name, _json_path(err["loc"]), _problem(err["type"], err["msg"]))
            for err in e.errors(include_url=False)
        ]
        return None, errors


def check_report_file(
    file: Path, slug: str, *, max_bytes: int = DEFAULT_MAX_BYTES
) -> tuple[Report | None, list[ReportError]]:
    """Read and validate one report file: the report, or every problem found in it."""
    bad_slug = _slug_problem(str(file), slug)
    if bad_slug is not None:
        return None, [bad_slug]
    if not file.exists():
        problem = f"missing: no {REPORT_FILE} in the directory"
        return None, [ReportError(str(file), ROOT_PATH, problem)]
    try:
        data = read_document(file, max_bytes=max_bytes)
    except ReportError as e:
        return None, [e]
    return check_document(str(file), slug, data)


_UNIQUE = {"company.name": "company name", "report.id": "report id", "company.domain": "domain"}
"""What no two reports may share, by envelope path."""


def _unique_values(report: Report) -> dict[str, str]:
    company = report.company
    values = {
        "company.name": normalise_name(company.name),
        "report.id": report.id.strip(),
        "company.domain": (company.domain or "").strip().lower().removeprefix("www."),
    }
    return {path: value for path, value in values.items() if value}


def find_duplicates(reports: list[Report], files: dict[str, str]) -> list[DuplicateReportFile]:
    """One error per file that shares a company name, report id or domain with another,
    naming the others: every file of a collision is refused, none wins."""
    holders: dict[tuple[str, str], list[str]] = {}
    for report in reports:
        for key in _unique_values(report).items():
            holders.setdefault(key, []).append(report.slug)
    clashes: dict[str, dict[str, set[str]]] = {}  # slug -> path -> other slugs
    for (path, _), slugs in holders.items():
        for slug in slugs if len(slugs) > 1 else ():
            clashes.setdefault(slug, {}).setdefault(path, set()).update(set(slugs) - {slug})
    errors = []
    for slug in sorted(clashes):
        by_path = clashes[slug]
        paths = [p for p in _UNIQUE if p in by_path]
        others = sorted({files[o] for slugs in by_path.values() for o in slugs})
        words = [_UNIQUE[p] for p in paths]
        same = " and ".join([", ".join(words[:-1]), words[-1]] if len(words) > 1 else words)
        errors.append(DuplicateReportFile(files[slug], paths[0], same, others))
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


def validate_directory(
    directory: Path, *, max_bytes: int = DEFAULT_MAX_BYTES
) -> tuple[list[Report], list[ReportError]]:
    """Every valid report in ``directory`` (sorted by slug) and every problem found.

    Raises ``ConfigError`` when the directory itself is missing or unreadable.
    """
    reports: list[Report] = []
    errors: list[ReportError] = []
    files: dict[str, str] = {}
    for path in _report_dirs(directory):
        file = path / REPORT_FILE
        report, problems = check_report_file(file, path.name, max_bytes=max_bytes)
        errors += problems
        if report is not None:
            reports.append(report)
            files[report.slug] = str(file)
    duplicates = find_duplicates(reports, files)
    refused = {e.file for e in duplicates}
    return [r for r in reports if files[r.slug] not in refused], errors + duplicates


class FileReportStore:
    """``ReportStore`` over a directory; reports are loaded at construction and ``reload()``."""

    def __init__(self, directory: Path, *, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.directory = directory
        self.max_bytes = max_bytes
        self._loaded: tuple[dict[str, Report], CompanyIndex] = ({}, CompanyIndex([]))
        self.errors: list[ReportError] = []
        self.refused: dict[str, DuplicateReportFile] = {}
        """Slugs whose file duplicates another report's, with the error naming both."""
        self.reload()

    def reload(self) -> None:
        """Re-read every file; raises ``ConfigError`` if the directory is unusable."""
        started = time.perf_counter()
        reports, errors = validate_directory(self.directory, max_bytes=self.max_bytes)
        for error in errors:
            logger.warning("skipped report file %s: %s: %s", error.file, error.path, error.problem)
        self._loaded = ({r.slug: r for r in reports}, CompanyIndex(reports))
        self.errors = errors
        self.refused = {
            Path(e.file).parent.name: e for e in errors if isinstance(e, DuplicateReportFile)
        }
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
            if slug in self.refused:
                raise RefusedReportError(slug, self.slugs(), self.refused[slug]) from None
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
