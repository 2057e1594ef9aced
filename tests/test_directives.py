"""The directives (DESIGN §11), pinned: weakening one fails a test named for it.

D1 the verifier never calls a model · D2 the model emits pointer claims · D5 only
deterministic hard checks decide support · D7 labels are honest · D8 every invariant is
pinned here and the bench is the scoreboard.

D3 (the runtime composes the reply), D4 (every turn records what was retrieved and how)
and D6 (anchor and attribute warrant before any model-based check) are the pipeline's:
their pins go in the section marked for them at the end of this file.
"""

from __future__ import annotations

import ast
import inspect
import json
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pytest_socket import SocketBlockedError, disable_socket, enable_socket

import prism_slack.verify as verify_pkg
from prism_slack.claims import Answer, Claim, answer_json_schema, parse_answer
from prism_slack.errors import AnswerParseError
from prism_slack.reports.model import Report, build_report
from prism_slack.verdict import Label, Method, Rung, answer_label
from prism_slack.verify import checks, promote, verify_answer, verify_claim

ROOT = Path(__file__).resolve().parent.parent
VERIFY_DIR = ROOT / "prism_slack" / "verify"
REPORTS = ROOT / "reports"
SLUGS = sorted(p.name for p in REPORTS.iterdir() if (p / "audit-data.json").is_file())


def fresh_report(slug: str) -> Report:
    """A new Report object (so nothing cached from another test is reused)."""
    data = json.loads((REPORTS / slug / "audit-data.json").read_text(encoding="utf-8"))
    return build_report(slug, data)


MIXED = Answer(
    claims=[
        Claim(text="Revenue fell 5% to $412.5M.", kind="fact",
              evidence=["financials.revenue_growth_pct", "financials.revenue_usd"]),
        Claim(text="Revenue grew 5%.", kind="fact", evidence=["financials.revenue_growth_pct"]),
        Claim(text="Their CRM is Salesforce.", kind="fact", evidence=["vendors.crm"]),
        Claim(text="Churn is 3.66%.", kind="fact", evidence=["metrics.trial_conversion_pct"]),
        Claim(text="Their CRM is HubSpot.", kind="fact", evidence=["vendors.nope"]),
        Claim(text="Mobile product pages are slow and ugly.", kind="fact",
              evidence=["findings[1].title"]),
        Claim(text="Ask who owns merchandising.", kind="coaching", evidence=[]),
        Claim(text="Ask why churn is 2.5%.", kind="coaching", evidence=[]),
        Claim(text="That's not in the audit report.", kind="absent", evidence=[]),
    ]
)  # fmt: skip
"""Supported, flipped sign, invented vendor, swapped attribute, bad path, unanchored and undecided,
clean coaching, smuggled figure, absent — for Northwind Outfitters."""


def verifier_sources() -> Iterator[Path]:
    yield from sorted(VERIFY_DIR.glob("*.py"))


def verifier_functions() -> Iterator[tuple[str, Callable[..., Any]]]:
    """Every public function of the verifier package and of its modules."""
    modules = [verify_pkg, *(_module(p.stem) for p in verifier_sources() if p.stem != "__init__")]
    for module in modules:
        for name, value in vars(module).items():
            if inspect.isfunction(value) and value.__module__ == module.__name__:
                yield f"{module.__name__}.{name}", value


def _module(stem: str) -> Any:
    return __import__(f"prism_slack.verify.{stem}", fromlist=[stem])


# --- D1: the verifier never calls a model ------------------------------------------------

MODEL_WORDS = ("model", "client", "judge", "llm", "genai", "gemini", "session")


def test_d1_verifier_signatures_take_no_model_client() -> None:
    seen = 0
    for name, func in verifier_functions():
        for param in inspect.signature(func).parameters.values():
            text = f"{param.name} {param.annotation}".lower()
            assert not any(w in text for w in MODEL_WORDS), f"{name}({param.name})"
        seen += 1
    assert seen > 40


FORBIDDEN_IMPORTS = (
    "prism_slack.llm", "prism_slack.pipeline", "prism_slack.slack", "prism_slack.state",
    "prism_slack.wiring", "google", "slack_sdk", "slack_bolt", "redis", "fakeredis", "httpx",
    "requests", "urllib", "http", "socket", "random", "secrets", "uuid", "time", "asyncio",
)  # fmt: skip


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            found.add(f"prism_slack.verify.{base}" if node.level else base)
    return found


@pytest.mark.parametrize("path", list(verifier_sources()), ids=lambda p: p.name)
def test_d1_verifier_modules_import_no_model_network_clock_or_state(path: Path) -> None:
    for name in _imports(path):
        assert not any(name == f or name.startswith(f"{f}.") for f in FORBIDDEN_IMPORTS), name


@pytest.mark.parametrize("path", list(verifier_sources()), ids=lambda p: p.name)
def test_d1_verifier_modules_read_no_clock_and_no_environment(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            assert node.attr not in {"now", "today", "utcnow", "environ", "getenv", "urandom"}
        if isinstance(node, ast.Name):
            assert node.id not in {"open", "input", "print"}


def test_d1_importing_the_verifier_loads_no_model_or_network_sdk() -> None:
    code = "import sys, prism_slack.verify; print('\\n'.join(sorted(sys.modules)))"
    loaded = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=ROOT
    ).stdout.split()
    bad = ("prism_slack.llm", "prism_slack.pipeline", "prism_slack.slack", "prism_slack.state",
           "google", "slack_sdk", "slack_bolt", "redis", "httpx", "requests")  # fmt: skip
    assert [m for m in loaded if m.split(".")[0] in bad or m.startswith(bad)] == []


def test_d1_verification_runs_with_sockets_disabled() -> None:
    disable_socket()
    try:
        # The block is real: opening a socket raises (and warns, which this suite makes an
        # error — so a verifier that tried would fail here either way).
        with pytest.warns(UserWarning, match="socket"), pytest.raises(SocketBlockedError):
            socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        for slug in SLUGS:
            report = fresh_report(slug)  # the index is built under the block, too
            verdicts = verify_answer(MIXED, report)
            assert len(verdicts) == len(MIXED.claims)
            assert not any(v.undecided and not v.supported for v in verdicts)
    finally:
        enable_socket()


# --- D2: the model emits pointer claims ---------------------------------------------------


def test_d2_claim_schema_is_text_kind_evidence_and_nothing_else() -> None:
    assert set(Claim.model_fields) == {"text", "kind", "evidence"}
    schema = answer_json_schema()
    claim_schema = schema["$defs"]["Claim"]
    assert set(claim_schema["properties"]) == {"text", "kind", "evidence"}
    assert claim_schema["properties"]["evidence"]["items"]["type"] == "string"
    assert claim_schema.get("additionalProperties") is False


def test_d2_a_claim_carrying_a_quote_is_rejected() -> None:
    raw = {"claims": [{"text": "x", "kind": "fact", "evidence": ["a"], "quote": "HubSpot"}]}
    with pytest.raises(AnswerParseError):
        parse_answer(raw)
    assert not any("quote" in key.lower() for key in Claim.model_fields)


# --- D5: only deterministic hard checks decide support ------------------------------------


@pytest.mark.parametrize("slug", SLUGS)
def test_d5_verifying_twice_gives_identical_verdicts(slug: str) -> None:
    first = [v.model_dump() for v in verify_answer(MIXED, fresh_report(slug))]
    again = [v.model_dump() for v in verify_answer(MIXED, fresh_report(slug))]
    report = fresh_report(slug)
    cached = [v.model_dump() for v in verify_answer(MIXED, report)]
    cached_again = [v.model_dump() for v in verify_answer(MIXED, report)]
    assert first == again == cached == cached_again


def test_d5_a_claims_verdict_does_not_depend_on_its_neighbours() -> None:
    report = fresh_report("northwind-outfitters")
    alone = [verify_claim(c, report).model_dump() for c in MIXED.claims]
    together = [v.model_dump() for v in verify_answer(MIXED, report)]
    backwards = verify_answer(Answer(claims=list(reversed(MIXED.claims))), report)
    assert alone == together == [v.model_dump() for v in reversed(backwards)]


def test_d5_supported_means_no_hard_check_failed() -> None:
    verdicts = verify_answer(MIXED, fresh_report("northwind-outfitters"))
    assert [v.supported for v in verdicts] == [
        True, False, False, False, False, True, True, False, True
    ]  # fmt: skip
    for verdict in verdicts:
        assert verdict.supported is (verdict.reasons == [])
        assert all(str(r).startswith(f"{r.check.slug}: ") for r in verdict.reasons)


def test_d5_the_verifier_never_reaches_entailment_on_its_own() -> None:
    for slug in SLUGS:
        for verdict in verify_answer(MIXED, fresh_report(slug)):
            assert verdict.rung is not Rung.ENTAILMENT_VERIFIED


def test_d5_only_promote_names_entailment_verified() -> None:
    """ENTAILMENT-VERIFIED is reachable from the verifier only through ``promote``."""
    for path in verifier_sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "ENTAILMENT_VERIFIED":
                owner = [
                    f.name for f in functions if f.lineno <= node.lineno <= (f.end_lineno or 0)
                ]
                assert owner == ["promote"], f"{path.name}:{node.lineno}"


def test_d5_promote_refuses_what_the_checks_rejected() -> None:
    report = fresh_report("northwind-outfitters")
    for verdict in verify_answer(MIXED, report):
        if verdict.supported and (verdict.rung is Rung.EVIDENCE_WARRANTED or verdict.undecided):
            assert promote(verdict).rung is Rung.ENTAILMENT_VERIFIED
        else:
            with pytest.raises(ValueError):
                promote(verdict)


def test_d5_an_anchor_failure_is_never_left_to_a_judge() -> None:
    report = fresh_report("northwind-outfitters")
    for verdict in verify_answer(MIXED, report):
        failed = checks.failed_checks(verdict.reasons)
        if failed & {checks.Check.ANCHOR_WARRANT, checks.Check.ENTITY_WARRANT}:
            assert not verdict.undecided


def test_d5_zero_claims_is_ungrounded_never_a_vacuous_pass() -> None:
    verdicts = verify_answer(Answer(claims=[]), fresh_report("northwind-outfitters"))
    assert verdicts == []
    assert answer_label(verdicts) is Label.UNGROUNDED


# --- D7: labels are honest ----------------------------------------------------------------


def test_d7_label_names_are_exactly_the_honest_set() -> None:
    assert {label.value for label in Label} == {
        "EVIDENCE-LINKED",
        "EVIDENCE-LINKED-PARTIAL",
        "UNGROUNDED",
        "COACHING-ONLY",
    }


def test_d7_no_label_says_entailment_verified_without_a_judge() -> None:
    for label in Label:
        assert "ENTAIL" not in label.value and "VERIFIED" not in label.value
    assert "judge" not in Method.DETERMINISTIC.value
    report = fresh_report("northwind-outfitters")
    verdicts = verify_answer(MIXED, report)
    assert all(v.rung is not Rung.ENTAILMENT_VERIFIED for v in verdicts)


def test_d7_an_answer_with_a_rejected_claim_is_not_labelled_fully_linked() -> None:
    report = fresh_report("northwind-outfitters")
    verdicts = verify_answer(MIXED, report)
    assert answer_label(verdicts) is Label.EVIDENCE_LINKED_PARTIAL
    failed_only = [v for v in verdicts if v.claim.kind == "fact" and not v.supported]
    assert answer_label(failed_only) is Label.UNGROUNDED
    clean = [v for v in verdicts if v.supported]
    assert answer_label(clean) is Label.EVIDENCE_LINKED


# --- D8: every invariant is pinned; the bench is the scoreboard ---------------------------


def test_d8_directive_tests_and_the_verify_bench_exist() -> None:
    assert Path(__file__).name == "test_directives.py"
    assert (ROOT / "tests" / "test_directives.py").is_file()
    assert (ROOT / "bench").is_dir()
    assert (ROOT / "bench" / "verify_bench.py").is_file()
    for name in ("test_fabrications.py", "test_verify_passes.py", "test_numbers.py"):
        assert (ROOT / "tests" / name).is_file(), name


# --- D3, D4, D6: the pipeline's pins (added by the pipeline's owner) ----------------------


def _turn(answer: Answer, *, judge: Any = None, mode: str = "never") -> tuple[Any, Any]:
    """One pipeline turn on Northwind Outfitters with a scripted model (and judge)."""
    from prism_slack.llm.scripted import ScriptedModel
    from prism_slack.pipeline.turn import TurnDeps, run_turn
    from prism_slack.ports import Conversation
    from prism_slack.reports.store import FileReportStore
    from prism_slack.state.redis_store import memory_store

    deps = TurnDeps(
        reports=FileReportStore(REPORTS),
        state=memory_store(),
        model=ScriptedModel([answer]),
        judge=judge,
        judge_mode=mode,  # type: ignore[arg-type]
    )
    where = Conversation(team="T", channel="C", thread="1")
    return run_turn("q", where, deps, report="northwind-outfitters"), deps


def test_d3_every_posted_sentence_is_a_verified_claim_or_the_absent_sentence() -> None:
    result, _ = _turn(MIXED)
    verified = {v.claim.text for v in result.verdicts if v.supported}
    for posted in result.posted:
        assert posted.text in verified or posted.text == "That's not in the audit report."
    verdicts = verify_answer(MIXED, fresh_report("northwind-outfitters"))
    withheld = {w.claim.text for w in result.withheld}
    assert {v.claim.text for v in verdicts if not v.supported} <= withheld
    # Without a judge, only an undecided claim (nothing anchored) joins them.
    assert all(v.undecided for v in verdicts if v.supported and v.claim.text in withheld)


def test_d3_the_model_text_is_never_rendered_raw() -> None:
    from prism_slack.render.text import render_text

    result, _ = _turn(MIXED)
    text = render_text(result)
    for withheld in result.withheld:
        assert withheld.claim.text not in text


def test_d4_every_turn_records_report_evidence_and_prompt_digests() -> None:
    result, deps = _turn(MIXED)
    report = fresh_report("northwind-outfitters")
    audit = deps.state.get_audit(result.turn_id)
    assert audit is not None
    assert audit.report_digest == report.digest
    assert audit.evidence_root == report.evidence.root
    assert audit.prompt_digest and len(audit.prompt_digest) == 64
    assert [v.claim for v in audit.verdicts] == MIXED.claims
    assert audit.model == "scripted" and audit.model_calls


def test_d6_a_judge_that_says_supported_cannot_post_an_anchor_failure() -> None:
    from prism_slack.llm.scripted import ScriptedJudge, each

    judge = ScriptedJudge([each("supported")], repeat=True)
    result, _ = _turn(MIXED, judge=judge, mode="always")
    posted = {p.text for p in result.posted}
    assert "Revenue grew 5%." not in posted
    assert "Their CRM is Salesforce." not in posted
    assert "Churn is 3.66%." not in posted
    assert len(judge.requests) == 1  # one judge call per turn at most
    sent = {item.claim.text for item in judge.requests[0].items}
    verdicts = verify_answer(MIXED, fresh_report("northwind-outfitters"))
    assert not sent & {v.claim.text for v in verdicts if not v.supported}


@pytest.mark.parametrize("mode", ["never", "auto", "always"])
def test_d7_entailment_verified_only_where_a_judge_ran_on_the_claim_and_said_yes(
    mode: str,
) -> None:
    from prism_slack.llm.scripted import ScriptedJudge, each

    judge = ScriptedJudge([each("unsupported")], repeat=True)
    result, _ = _turn(MIXED, judge=judge, mode=mode)
    assert all(p.rung is not Rung.ENTAILMENT_VERIFIED for p in result.posted)
    assert result.method is Method.DETERMINISTIC  # the judge decided no posted claim

    judge = ScriptedJudge([each("supported")], repeat=True)
    result, _ = _turn(MIXED, judge=judge, mode=mode)
    sent = {item.claim.text for request in judge.requests for item in request.items}
    for posted in result.posted:
        assert (posted.rung is Rung.ENTAILMENT_VERIFIED) is (posted.text in sent)
    assert (result.method is Method.JUDGE) is bool(sent)


def test_d6_the_pipeline_verifies_before_it_judges() -> None:
    from prism_slack.pipeline import turn

    source = inspect.getsource(turn._answer_turn)
    assert source.index("verify_answer(") < source.index("judge_rewrite(")
