"""The file report store: loading, precise errors for bad files, and the shipped samples."""

from __future__ import annotations

import copy
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from prism_slack.errors import ConfigError, RefusedReportError, UnknownReportError
from prism_slack.reports.store import (
    REPORT_FILE,
    FileReportStore,
    check_report_file,
    validate_directory,
)

REPO_REPORTS = Path(__file__).resolve().parent.parent / "reports"

GOOD: dict[str, Any] = {
    "company": {"name": "Acme Widgets", "aliases": ["Acme"], "domain": "acmewidgets.com"},
    "report": {"id": "AUD-1", "generated_at": "2026-01-15"},
    "financials": {"revenue_usd": 1200000},
}


def doc(**changes: Any) -> dict[str, Any]:
    """A copy of GOOD with dotted-path changes; a value of ``...`` deletes the key."""
    data = copy.deepcopy(GOOD)
    for dotted, value in changes.items():
        *parents, last = dotted.split("__")
        node = data
        for part in parents:
            node = node[part]
        if value is ...:
            del node[last]
        else:
            node[last] = value
    return data


def write(root: Path, slug: str, content: dict[str, Any] | str | bytes) -> Path:
    file = root / slug / REPORT_FILE
    file.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        file.write_bytes(content)
    else:
        file.write_text(content if isinstance(content, str) else json.dumps(content))
    return file


def other_company(slug: str) -> dict[str, Any]:
    return doc(
        company__name=f"Company {slug}",
        company__aliases=[],
        company__domain=f"{slug}.example",
        report__id=f"AUD-{slug}",
    )


MALFORMED: list[tuple[str, str | bytes | dict[str, Any], str, str]] = [
    ("bad-json", '{"company": ', "$", "invalid JSON at line 1 column 13: expecting value"),
    (
        "unterminated",
        '{"company": "Acme',
        "$",
        "invalid JSON at line 1 column 13: unterminated string starting",
    ),
    (
        "trailing-comma",
        '{\n  "company": {"name": "A",}\n}',
        "$",
        "invalid JSON at line 2 column 27: expecting property name enclosed in double quotes",
    ),
    ("array-top", "[1, 2]", "$", "expected a JSON object at the top level, got an array"),
    ("string-top", '"hello"', "$", "expected a JSON object at the top level, got a string"),
    ("not-utf8", b'{"company": "\xff"}', "$", "not UTF-8 text (byte 13)"),
    ("no-name", doc(company__name=...), "company.name", "Field required"),
    (
        "empty-name",
        doc(company__name=""),
        "company.name",
        "String should have at least 1 character",
    ),
    ("blank-name", doc(company__name="   "), "company.name", "Value error, must not be blank"),
    (
        "aliases-str",
        doc(company__aliases="Acme"),
        "company.aliases",
        "Input should be a valid list",
    ),
    (
        "alias-number",
        doc(company__aliases=["Acme", 7]),
        "company.aliases[1]",
        "Input should be a valid string",
    ),
    ("company-list", doc(company=[]), "company", "Input should be an object"),
    ("no-report", doc(report=...), "report", "Field required"),
    (
        "bad-date",
        doc(report__generated_at="2026-13-01"),
        "report.generated_at",
        "Input should be a valid date or datetime, month value is outside expected range of 1-12",
    ),
    (
        "word-date",
        doc(report__generated_at="last week"),
        "report.generated_at",
        "Input should be a valid date or datetime, input is too short",
    ),
    ("empty-id", doc(report__id=""), "report.id", "String should have at least 1 character"),
]


@pytest.mark.parametrize("case", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_a_malformed_file_is_skipped_with_its_file_path_and_problem(
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    case: tuple[str, str | bytes | dict[str, Any], str, str],
) -> None:
    slug, content, path, problem = case
    good_file = write(tmp_path, "acme", GOOD)
    bad_file = write(tmp_path, slug, content)

    with caplog.at_level(logging.WARNING, logger="prism_slack.reports.store"):
        store = FileReportStore(tmp_path)

    assert [(e.file, e.path, e.problem) for e in store.errors] == [(str(bad_file), path, problem)]
    assert str(store.errors[0]) == f"{bad_file}: {path}: {problem}"
    assert store.slugs() == ["acme"]
    assert store.get("acme").company.name == "Acme Widgets"
    assert str(good_file) not in caplog.text
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert str(bad_file) in warnings[0].getMessage()
    assert problem in warnings[0].getMessage()


def test_a_byte_order_mark_is_tolerated(tmp_path: Path) -> None:
    file = write(tmp_path, "acme", b"\xef\xbb\xbf" + json.dumps(GOOD).encode())
    report, errors = check_report_file(file, "acme")
    assert errors == []
    assert report is not None
    assert report.id == "AUD-1"


def test_every_problem_in_one_file_is_reported(tmp_path: Path) -> None:
    file = write(tmp_path, "acme", doc(company__name=..., report__generated_at="soon"))
    _, errors = check_report_file(file, "acme")
    assert sorted(e.path for e in errors) == ["company.name", "report.generated_at"]
    assert {e.file for e in errors} == {str(file)}


def empty_directory(root: Path) -> Path:
    (root / "empty").mkdir()
    return root / "empty" / REPORT_FILE


def badly_named_directory(root: Path) -> Path:
    return write(root, "Acme Two", other_company("two"))


DIRECTORY_PROBLEMS: list[tuple[str, Callable[[Path], Path], str]] = [
    ("missing-file", empty_directory, "missing: no audit-data.json in the directory"),
    (
        "bad-slug",
        badly_named_directory,
        "directory name 'Acme Two' is not a valid slug "
        "(lower-case letters and digits, separated by single hyphens)",
    ),
]


@pytest.mark.parametrize(
    ("make", "problem"),
    [(m, p) for _, m, p in DIRECTORY_PROBLEMS],
    ids=[i for i, _, _ in DIRECTORY_PROBLEMS],
)
def test_directory_level_problems_name_the_file(
    tmp_path: Path, make: Callable[[Path], Path], problem: str
) -> None:
    write(tmp_path, "acme", GOOD)
    bad = make(tmp_path)
    reports, errors = validate_directory(tmp_path)
    assert [(e.file, e.path, e.problem) for e in errors] == [(str(bad), "$", problem)]
    assert [r.slug for r in reports] == ["acme"]


DUPLICATES: list[tuple[str, dict[str, Any], str, str]] = [
    (
        "same-name-with-suffix",
        doc(company__name="Acme Widgets, Inc.", company__domain="other.example", report__id="X"),
        "company.name",
        "company name",
    ),
    (
        "same-domain",
        doc(company__name="Other", company__domain="www.AcmeWidgets.com", report__id="X"),
        "company.domain",
        "domain",
    ),
    (
        "same-report-id",
        doc(company__name="Other", company__domain="other.example"),
        "report.id",
        "report id",
    ),
]


@pytest.mark.parametrize(
    ("content", "path", "what"), [d[1:] for d in DUPLICATES], ids=[d[0] for d in DUPLICATES]
)
def test_a_duplicate_company_or_report_refuses_both_files_naming_each_other(
    tmp_path: Path, content: dict[str, Any], path: str, what: str
) -> None:
    first = write(tmp_path, "acme", GOOD)
    second = write(tmp_path, "acme-copy", content)
    write(tmp_path, "zeta", other_company("zeta"))
    store = FileReportStore(tmp_path)
    rest = "so neither is served; remove the copy, or give each report its own company name"
    assert [(e.file, e.path, e.problem.split(", report id")[0]) for e in store.errors] == [
        (str(first), path, f"duplicate: {second} has the same {what}, {rest}"),
        (str(second), path, f"duplicate: {first} has the same {what}, {rest}"),
    ]
    assert store.slugs() == ["zeta"]
    for slug in ("acme", "acme-copy"):
        with pytest.raises(RefusedReportError, match=r"is not served: .*duplicate"):
            store.get(slug)


def test_a_copy_sorted_first_never_replaces_the_original(tmp_path: Path) -> None:
    """A renamed backup (``0-backup``) used to win over ``acme``, which became unknown."""
    original = write(tmp_path, "acme", GOOD)
    write(tmp_path, "0-backup", GOOD)
    store = FileReportStore(tmp_path)
    assert store.slugs() == []
    with pytest.raises(RefusedReportError) as info:
        store.get("acme")
    assert "duplicate" in str(info.value) and str(original) in str(info.value)
    assert store.errors[0].problem.startswith(
        f"duplicate: {original} has the same company name, report id and domain"
    )


def test_a_report_over_the_size_cap_is_refused_before_it_is_read(tmp_path: Path) -> None:
    write(tmp_path, "acme", doc(notes="x" * 2000))
    store = FileReportStore(tmp_path, max_bytes=1000)
    assert store.slugs() == []
    (error,) = store.errors
    assert error.path == "$"
    assert error.problem.startswith("0.0 MB, over the 0.001 MB report size cap")
    assert "raise PRISM_REPORT_MAX_MB" in error.problem


def test_get_all_slugs_and_unknown(tmp_path: Path) -> None:
    for slug in ("zeta", "alpha", "mid"):
        write(tmp_path, slug, other_company(slug))
    store = FileReportStore(tmp_path)
    assert store.slugs() == ["alpha", "mid", "zeta"]
    assert [r.slug for r in store.all()] == ["alpha", "mid", "zeta"]
    assert store.get("mid").id == "AUD-mid"
    with pytest.raises(UnknownReportError) as info:
        store.get("nope")
    assert info.value.slug == "nope"
    assert info.value.known == ["alpha", "mid", "zeta"]


def test_hidden_and_loose_entries_are_ignored(tmp_path: Path) -> None:
    write(tmp_path, "acme", GOOD)
    (tmp_path / "README.md").write_text("how to write a report")
    (tmp_path / ".cache").mkdir()
    store = FileReportStore(tmp_path)
    assert store.slugs() == ["acme"]
    assert store.errors == []


def test_reload_picks_up_new_fixed_and_removed_files(tmp_path: Path) -> None:
    write(tmp_path, "acme", GOOD)
    broken = write(tmp_path, "beta", "{")
    store = FileReportStore(tmp_path)
    assert store.slugs() == ["acme"]
    assert store.detect("how is Company beta doing").status == "none"

    write(tmp_path, "beta", other_company("beta"))
    store.reload()
    assert store.slugs() == ["acme", "beta"]
    assert store.errors == []
    assert store.detect("how is Company beta doing").slugs == ["beta"]

    broken.unlink()
    broken.parent.rmdir()
    store.reload()
    assert store.slugs() == ["acme"]


def test_detection_and_suggestions_are_delegated(tmp_path: Path) -> None:
    write(tmp_path, "acme", GOOD)
    write(tmp_path, "globex", other_company("globex"))
    store = FileReportStore(tmp_path)
    assert store.detect("what does Acme's CRM look like").slugs == ["acme"]
    assert store.suggest("acmee widget", limit=1) == ["acme"]


@pytest.mark.parametrize("kind", ["missing", "a-file"])
def test_an_unusable_directory_is_a_config_error(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "reports"
    if kind == "a-file":
        target.write_text("not a directory")
    with pytest.raises(ConfigError, match=str(target)):
        FileReportStore(target)


def test_an_empty_directory_serves_nothing_and_warns(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="prism_slack.reports.store"):
        store = FileReportStore(tmp_path)
    assert store.all() == []
    assert "no valid reports" in caplog.text


# The shipped samples are product content that other code keys off.

SAMPLES = sorted(p.parent.name for p in REPO_REPORTS.glob(f"*/{REPORT_FILE}"))
SECTIONS = ("company", "report", "financials", "metrics", "scores", "vendors", "findings")


def test_the_shipped_reports_all_load() -> None:
    reports, errors = validate_directory(REPO_REPORTS)
    assert errors == []
    assert len(reports) >= 4
    assert [r.slug for r in reports] == SAMPLES


@pytest.mark.parametrize("slug", SAMPLES)
def test_a_shipped_report_has_the_sections_and_shapes_other_code_keys_off(slug: str) -> None:
    report = FileReportStore(REPO_REPORTS).get(slug)
    data = report.data
    assert set(SECTIONS) <= data.keys()
    assert 80 <= len(report.evidence) <= 200
    assert isinstance(data["scores"]["max"], int)
    assert all(0 <= v <= data["scores"]["max"] for k, v in data["scores"].items() if k != "max")
    assert 6 <= len(data["vendors"]) <= 9
    findings = data["findings"]
    assert 4 <= len(findings) <= 6
    assert [f["id"] for f in findings] == [f"FND-{i}" for i in range(1, len(findings) + 1)]
    assert {f["severity"] for f in findings} <= {"critical", "high", "medium", "low"}
    assert 3 <= len(data["stakeholders"]) <= 5
    assert all({"name", "title", "role", "notes"} <= s.keys() for s in data["stakeholders"])
    margins = {k: v for k, v in data["financials"].items() if "margin" in k}
    assert any(k.endswith("_pct") and v > 1 for k, v in margins.items())
    assert any(not k.endswith("_pct") and 0 < v < 1 for k, v in margins.items())


def test_the_shipped_reports_differ_where_a_swap_would_show() -> None:
    reports = FileReportStore(REPO_REPORTS).all()
    for section in ("vendors", "metrics"):
        for key in {k for r in reports for k in r.data[section]}:
            values = [r.data[section][key] for r in reports if key in r.data[section]]
            assert len(values) == len(set(map(str, values))), (section, key, values)
    growth = [r.data["financials"]["revenue_growth_pct"] for r in reports]
    assert any(g < 0 for g in growth)
