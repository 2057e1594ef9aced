"""`prism ask` and `prism chat`: the same pipeline from a terminal, on embedded defaults."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from prism_slack.cli import main
from prism_slack.cli.chat_cmd import chat
from prism_slack.llm.offline import OfflineAnswerer
from prism_slack.pipeline.turn import TurnDeps
from prism_slack.ports import Conversation
from prism_slack.reports.store import FileReportStore
from prism_slack.state.redis_store import memory_store

REPORTS_DIR = Path(__file__).resolve().parent.parent / "reports"


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """The embedded defaults: no model key, no Redis, the shipped reports."""
    for name in ("GEMINI_API_KEY", "REDIS_URL", "PRISM_JUDGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PRISM_REPORTS_DIR", str(REPORTS_DIR))


def test_ask_json_answers_from_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["ask", "--report", "northwind-outfitters", "--json", "what do they use for search?"]
    )
    out = json.loads(capsys.readouterr().out)

    assert code == 0
    assert set(out) >= {"report", "label", "reply_text", "claims", "withheld", "model_calls"}
    assert out["report"] == "northwind-outfitters"
    assert out["label"] == "EVIDENCE-LINKED"
    assert any(c["evidence"] == ["vendors.search"] and c["supported"] for c in out["claims"])
    assert "vendors.search = Algolia" in out["reply_text"]
    assert [c["model"] for c in out["model_calls"]] == ["offline"]
    assert {"answer", "verify"} <= set(out["timings_ms"])


def test_ask_text_shows_label_and_citations(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ask", "--report", "northwind-outfitters", "what", "is", "their", "churn?"]) == 0
    out = capsys.readouterr().out
    assert "[1] metrics.churn_rate = 2.11%" in out
    assert "EVIDENCE-LINKED · via deterministic anchors" in out


def test_ask_something_the_report_lacks_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ask", "--report", "northwind-outfitters", "what's their stock price?"]) == 0
    assert "That's not in the audit report." in capsys.readouterr().out


def test_ask_detects_the_company_without_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ask", "--json", "Who should I talk to at Kestrelpoint?"]) == 0
    assert json.loads(capsys.readouterr().out)["report"] == "kestrelpoint-software"


def test_ask_unknown_report_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ask", "--report", "acme", "hi"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("prism ask: unknown report 'acme' (known: cedar-valley-health")


def test_ask_bad_reports_dir_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ask", "--reports-dir", str(tmp_path / "missing"), "hi"]) == 2
    assert capsys.readouterr().err.strip().splitlines()[-1].startswith("prism ask: ")


def test_chat_keeps_binding_and_history_like_a_thread() -> None:
    deps = TurnDeps(
        reports=FileReportStore(REPORTS_DIR), state=memory_store(), model=OfflineAnswerer()
    )
    where = Conversation(team="cli", channel="chat", thread="t1")
    stdin = io.StringIO(
        "/bind northwind outfitters\nwhat do they use for email?\n\n/reports\n"
        "/bind northwind\n/nope\nand their CRM?\n/quit\nnever read\n"
    )
    stdout = io.StringIO()
    chat(deps, where, stdin, stdout)
    out = stdout.getvalue()

    assert "Bound to Northwind Outfitters' audit report (AUD-2026-0141)." in out
    assert "vendors.email = Klaviyo" in out
    assert "kestrelpoint-software" in out  # /reports
    assert "That name fits Northwind Logistics and Northwind Outfitters" in out
    assert "Unknown command /nope" in out
    assert "vendors.crm = HubSpot" in out  # still bound: the follow-up needs no name
    assert [t.question for t in deps.state.history(where)] == [
        "what do they use for email?",
        "and their CRM?",
    ]
