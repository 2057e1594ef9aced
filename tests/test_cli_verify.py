"""`prism verify`: its JSON contract, its table, stdin, and one-line errors."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from prism_slack.cli import main
from prism_slack.cli.verify_cmd import EXIT_BAD_INPUT
from prism_slack.reports.model import build_report
from prism_slack.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
REPORTS = ROOT / "reports"
EXAMPLES = ROOT / "examples"
SLUG = "northwind-outfitters"

ANSWER = {
    "claims": [
        {"text": "Their CRM is HubSpot.", "kind": "fact", "evidence": ["vendors.crm"]},
        {"text": "Revenue grew 5%.", "kind": "fact", "evidence": ["financials.revenue_growth_pct"]},
        {"text": "Ask who owns merchandising.", "kind": "coaching", "evidence": []},
    ]
}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["verify", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def argv_for(report: str, answer: str, reports_dir: str) -> list[str]:
    return ["--report", report, "--answer", answer, "--reports-dir", reports_dir]


def write(tmp_path: Path, content: Any) -> Path:
    path = tmp_path / "answer.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content), "utf-8")
    return path


def test_json_output_is_the_contract(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    answer = write(tmp_path, ANSWER)
    code, out, _ = run(capsys, "--report", SLUG, "--answer", str(answer),
                       "--reports-dir", str(REPORTS), "--json")  # fmt: skip
    assert code == 0
    result = json.loads(out)
    assert list(result) == [
        "report", "report_id", "report_digest", "evidence_root", "label", "claims"
    ]  # fmt: skip
    data = json.loads((REPORTS / SLUG / "audit-data.json").read_text("utf-8"))
    report = build_report(SLUG, data)
    assert result["report"] == SLUG
    assert result["report_id"] == report.id
    assert result["report_digest"] == report.digest
    assert result["evidence_root"] == report.evidence.root
    assert result["label"] == "EVIDENCE-LINKED-PARTIAL"
    assert [c["text"] for c in result["claims"]] == [c["text"] for c in ANSWER["claims"]]
    for entry, given in zip(result["claims"], ANSWER["claims"], strict=True):
        assert list(entry) == [
            "text", "kind", "evidence", "rung", "supported", "reasons",
            "status", "undecided", "needs_judge", "rules", "undecided_reasons",
        ]  # fmt: skip
        assert (entry["kind"], entry["evidence"]) == (given["kind"], given["evidence"])
    good, flipped, advice = result["claims"]
    assert (good["supported"], good["rung"], good["reasons"]) == (True, "EVIDENCE-WARRANTED", [])
    assert (good["status"], good["needs_judge"], good["rules"]) == ("settled", False, [])
    assert flipped["supported"] is False and flipped["rung"] == "POINTER-LINKED"
    assert flipped["reasons"][0].startswith("anchor_warrant: ")
    assert (flipped["status"], flipped["needs_judge"]) == ("failed", False)
    assert flipped["rules"] and all("." in rule for rule in flipped["rules"])
    assert (advice["supported"], advice["rung"]) == (True, "UNLINKED")


def test_an_undecided_claim_says_why_and_that_auto_would_judge_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    answer = tmp_path / "a.json"
    claim = {"text": "Their CRM is HubSpot, chosen years ago.", "kind": "fact",
             "evidence": ["vendors.crm"]}  # fmt: skip
    answer.write_text(json.dumps({"claims": [claim]}), encoding="utf-8")
    code, out, _ = run(capsys, "--report", SLUG, "--answer", str(answer), "--reports-dir",
                       str(REPORTS), "--json")  # fmt: skip
    assert code == 0
    [entry] = json.loads(out)["claims"]
    assert (entry["status"], entry["undecided"], entry["needs_judge"]) == ("undecided", True, True)
    assert entry["undecided_reasons"][0]["rule"] in entry["rules"]


def test_reads_the_answer_from_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(ANSWER)))
    code, out, _ = run(capsys, "--report", SLUG, "--answer", "-", "--reports-dir", str(REPORTS),
                       "--json")  # fmt: skip
    assert code == 0
    assert len(json.loads(out)["claims"]) == 3


def test_table_output(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    answer = write(tmp_path, ANSWER)
    code, out, _ = run(capsys, "--report", SLUG, "--answer", str(answer),
                       "--reports-dir", str(REPORTS), "--question", "How is revenue?")  # fmt: skip
    assert code == 0
    assert "Label    EVIDENCE-LINKED-PARTIAL" in out
    assert "Question How is revenue?" in out
    assert "Revenue grew 5%." in out and "- anchor_warrant: '5%'" in out
    assert "cites: vendors.crm" in out


def test_zero_claims_is_ungrounded(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    answer = write(tmp_path, {"claims": []})
    code, out, _ = run(capsys, "--report", SLUG, "--answer", str(answer),
                       "--reports-dir", str(REPORTS), "--json")  # fmt: skip
    assert code == 0
    assert json.loads(out)["label"] == "UNGROUNDED"
    code, out, _ = run(capsys, "--report", SLUG, "--answer", str(answer),
                       "--reports-dir", str(REPORTS))  # fmt: skip
    assert "nothing is grounded" in out


@pytest.mark.parametrize(
    ("example", "label", "supported"),
    [
        ("answer-northwind-outfitters.json", "EVIDENCE-LINKED", True),
        ("answer-northwind-outfitters-fabricated.json", "UNGROUNDED", False),
    ],
)
def test_example_answer_files(
    capsys: pytest.CaptureFixture[str], example: str, label: str, supported: bool
) -> None:
    code, out, _ = run(capsys, "--report", SLUG, "--answer", str(EXAMPLES / example),
                       "--reports-dir", str(REPORTS), "--json")  # fmt: skip
    assert code == 0
    result = json.loads(out)
    assert result["label"] == label
    assert {c["supported"] for c in result["claims"]} == {supported}


def _bad_reports_dir(tmp_path: Path) -> Path:
    directory = tmp_path / "reports"
    shutil.copytree(REPORTS / SLUG, directory / SLUG)
    broken = directory / "broken-co"
    broken.mkdir()
    (broken / "audit-data.json").write_text("{not json", "utf-8")
    return directory


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("unknown report", "unknown report 'nope' (known: cedar-valley-health,"),
        ("malformed answer", "answer file"),
        ("answer breaks the contract", "claims[0].kind"),
        ("missing answer", "cannot read answer file"),
        ("missing reports dir", "does not exist"),
        ("invalid report file", "report 'broken-co' is invalid"),
    ],
)
def test_errors_exit_non_zero_with_one_line_on_stderr(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, case: str, expected: str
) -> None:
    good = write(tmp_path, ANSWER)
    args = {"report": SLUG, "answer": str(good), "reports_dir": str(REPORTS)}
    if case == "unknown report":
        args["report"] = "nope"
    elif case == "malformed answer":
        args["answer"] = str(write(tmp_path, "{not json"))
    elif case == "answer breaks the contract":
        bad = {"claims": [{"text": "x", "kind": "rumour", "evidence": []}]}
        args["answer"] = str(write(tmp_path, bad))
    elif case == "missing answer":
        args["answer"] = str(tmp_path / "nowhere.json")
    elif case == "missing reports dir":
        args["reports_dir"] = str(tmp_path / "nowhere")
    elif case == "invalid report file":
        args["reports_dir"] = str(_bad_reports_dir(tmp_path))
        args["report"] = "broken-co"
    code, out, err = run(capsys, *argv_for(**args))
    assert code == EXIT_BAD_INPUT
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("prism verify: ")
    assert expected in err


def test_reports_dir_defaults_to_settings(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PRISM_REPORTS_DIR", str(REPORTS))
    assert Settings().prism_reports_dir == REPORTS
    answer = write(tmp_path, ANSWER)
    code, out, _ = run(capsys, "--report", SLUG, "--answer", str(answer), "--json")
    assert code == 0 and json.loads(out)["report"] == SLUG
