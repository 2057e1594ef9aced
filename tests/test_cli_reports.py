"""`prism reports list|validate`: output and exit codes, through the real entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from prism_slack.cli import main

REPO_REPORTS = Path(__file__).resolve().parent.parent / "reports"


def write(root: Path, slug: str, text: str) -> Path:
    file = root / slug / "audit-data.json"
    file.parent.mkdir(parents=True)
    file.write_text(text)
    return file


def good(name: str, report_id: str, date: str = "2026-02-03") -> str:
    return json.dumps(
        {
            "company": {"name": name, "aliases": []},
            "report": {"id": report_id, "generated_at": date},
        }
    )


@pytest.fixture
def mixed(tmp_path: Path) -> tuple[Path, Path]:
    """Two good reports and one with a missing company name."""
    write(tmp_path, "acme", good("Acme Widgets", "AUD-7", "2026-02-03"))
    write(tmp_path, "globex", good("Globex", "AUD-9", "2025-12-30"))
    bad = write(
        tmp_path,
        "broken",
        '{"company": {"aliases": []}, "report": {"id": "X", "generated_at": "2026-01-01"}}',
    )
    return tmp_path, bad


def test_list_prints_one_row_per_valid_report(
    mixed: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    root, bad = mixed
    assert main(["reports", "list", "--reports-dir", str(root)]) == 0
    out, err = capsys.readouterr()
    rows = [line.split() for line in out.splitlines()]
    assert rows == [
        ["SLUG", "COMPANY", "REPORT", "DATE"],
        ["acme", "Acme", "Widgets", "AUD-7", "2026-02-03"],
        ["globex", "Globex", "AUD-9", "2025-12-30"],
    ]
    assert f"warning: skipped {bad}: company.name: Field required" in err


def test_validate_prints_each_ok_file_and_each_error_and_exits_1(
    mixed: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    root, bad = mixed
    assert main(["reports", "validate", "--reports-dir", str(root)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert f"{root / 'acme' / 'audit-data.json'}: OK (Acme Widgets, AUD-7; 3 leaves, 0.1 KB)" in out
    assert f"{root / 'globex' / 'audit-data.json'}: OK (Globex, AUD-9; 3 leaves, 0.1 KB)" in out
    assert f"{bad}: company.name: Field required" in out
    assert out[-1] == "2 valid, 1 invalid"


def test_validate_exits_0_when_every_file_is_valid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path, "acme", good("Acme Widgets", "AUD-7"))
    assert main(["reports", "validate", "--reports-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "1 valid, 0 invalid"


@pytest.mark.parametrize("action", ["list", "validate"])
@pytest.mark.parametrize("kind", ["missing", "a-file"])
def test_a_bad_directory_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], action: str, kind: str
) -> None:
    target = tmp_path / "nowhere"
    if kind == "a-file":
        target.write_text("")
    assert main(["reports", action, "--reports-dir", str(target)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert f"prism reports: reports directory {target}" in err


def test_the_directory_defaults_to_the_setting(
    mixed: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root, _ = mixed
    monkeypatch.setenv("PRISM_REPORTS_DIR", str(root))
    assert main(["reports", "validate"]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "2 valid, 1 invalid"


def test_the_shipped_reports_validate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reports", "validate", "--reports-dir", str(REPO_REPORTS)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert all(line.endswith(")") and ": OK (" in line for line in out[:-1])
    assert len(out) - 1 == len(list(REPO_REPORTS.glob("*/audit-data.json")))


def test_an_action_is_required(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["reports"])
    assert info.value.code == 2
    assert "list" in capsys.readouterr().err


def _styled(tmp_path: Path) -> Path:
    body = json.loads(good("Acme Widgets", "AUD-7"))
    body["financials"] = {"currency": "EUR", "annualRevenue": 318400000, "nrr": 1.04}
    body["KPIs"] = {"Direct Booking Share": "34%"}
    body["metrics"] = {"conversion_rate": 1.9, "churn_rate": 0.05, "cac_rate": 0.2}
    write(tmp_path, "acme", json.dumps(body))
    return tmp_path


def test_show_prints_each_leafs_typed_reading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _styled(tmp_path)
    assert main(["reports", "show", "acme", "--reports-dir", str(root)]) == 0
    out = capsys.readouterr().out
    assert "financials.annualRevenue = 318400000 → Annual revenue: €318.4M" in out
    assert "currency: sibling" in out
    assert 'KPIs["Direct Booking Share"] = 34% → Direct Booking Share: 34%' in out
    assert out.rstrip().endswith("untyped")


def test_show_names_the_known_reports_for_an_unknown_slug(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _styled(tmp_path)
    assert main(["reports", "show", "globex", "--reports-dir", str(root)]) == 1
    assert "report 'globex' is unknown (reports: acme)" in capsys.readouterr().err


def test_validate_warns_about_a_leaf_it_could_not_type(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _styled(tmp_path)
    assert main(["reports", "validate", "--reports-dir", str(root)]) == 0
    out = capsys.readouterr().out
    assert (
        "metrics.conversion_rate: could not be typed (a rate of 1.9: percent or multiple?)" in out
    )
