"""The seven-point program's directives D1–D8, each pass/fail computed from the code and
from what the sweep observed — never written by hand.

- D1 the verifier never calls a model: its modules import no model, network or pipeline
  client (read with ``ast``) and its public functions take no client/model parameter;
- D2 the model emits pointer claims: the claim schema has a list-of-paths ``evidence``
  field, no quote field, and refuses extra fields;
- D3 the runtime composes the reply: every posted claim has a supported verdict with its
  text and came from the model's answer (the scripted judge never rewrites);
- D4 every turn records report digest, evidence root and prompt digest (and they match);
- D5 only deterministic checks decide: the same verdicts twice, the verifier's modules use
  no clock, randomness or network, and the whole sweep verifies with sockets blocked;
- D6 anchor warrant before any model: no claim failing check 5 or 6 was ever posted, even
  with a judge that says "supported" to everything;
- D7 labels are honest: no ENTAILMENT-VERIFIED claim without a judge call in its turn, the
  label is one of the honest set and is what ``answer_label`` gives for the posted verdicts,
  and a reply that withheld something is never plain EVIDENCE-LINKED;
- D8 every invariant is pinned: ``pytest tests/test_directives.py`` passes (run in a
  subprocess) and the bench scripts the Makefile names exist.
"""

from __future__ import annotations

import ast
import inspect
import os
import re
import subprocess
import sys
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from prism_slack import verify
from prism_slack.claims import answer_json_schema, parse_answer
from prism_slack.errors import AnswerParseError
from prism_slack.reports.model import Report
from prism_slack.verdict import Label, Rung, answer_label

from .run import Checked, Turn

FORBIDDEN_IMPORTS = (
    "prism_slack.llm",
    "prism_slack.pipeline",
    "prism_slack.slack",
    "prism_slack.state",
    "prism_slack.ports",
    "prism_slack.wiring",
    "google",
    "genai",
    "httpx",
    "requests",
    "urllib",
    "http",
    "socket",
    "aiohttp",
    "redis",
    "slack_sdk",
    "slack_bolt",
    "openai",
    "anthropic",
    "grpc",
)
NONDETERMINISTIC_IMPORTS = ("random", "secrets", "uuid", "time")
CLOCK_CALLS = frozenset({"now", "utcnow", "today", "time", "perf_counter", "monotonic"})
CLIENT_WORDS = re.compile(r"client|model|judge|llm|chat|session|http", re.I)
QUOTE_FIELDS = frozenset({"quote", "quotes", "excerpt", "span", "source_text", "snippet"})
DIRECTIVE_TESTS = "tests/test_directives.py"
EXAMPLES = 3


@dataclass(frozen=True, slots=True)
class Directive:
    id: str
    title: str
    passed: bool
    evidence: str
    """What was measured, and on failure what broke it."""


def _modules(package: Path) -> list[Path]:
    return sorted(package.glob("*.py"))


def _imports(tree: ast.AST, module: str) -> list[str]:
    found = []
    package = module.rsplit(".", 1)[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            found.append(base)
    return found


def _matches(name: str, prefixes: Sequence[str]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def d1_no_model_in_verifier(verify_dir: Path) -> Directive:
    bad: list[str] = []
    modules = _modules(verify_dir)
    for path in modules:
        module = f"prism_slack.verify.{path.stem}"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        bad += [
            f"{path.name} imports {n}"
            for n in _imports(tree, module)
            if _matches(n, FORBIDDEN_IMPORTS)
        ]
    public = [getattr(verify, name) for name in verify.__all__]
    for fn in public:
        if not callable(fn):
            continue
        hints = typing.get_type_hints(fn)
        for param in inspect.signature(fn).parameters.values():
            annotation = str(hints.get(param.name, ""))
            if CLIENT_WORDS.search(param.name) or re.search(r"Model|Judge|Client", annotation):
                bad.append(f"{fn.__name__}({param.name}: {annotation})")
    evidence = (
        f"{len(modules)} verifier modules import no model/network/pipeline client; "
        f"{len(public)} public functions ({', '.join(verify.__all__)}) take no "
        "client/model/judge parameter"
    )
    return Directive("D1", "the verifier never calls a model", not bad, "; ".join(bad) or evidence)


def d2_pointer_claims() -> Directive:
    schema = answer_json_schema()
    claim = schema.get("$defs", {}).get("Claim", {})
    props: dict[str, typing.Any] = claim.get("properties", {})
    evidence = props.get("evidence", {})
    problems = []
    if evidence.get("type") != "array" or evidence.get("items", {}).get("type") != "string":
        problems.append("evidence is not a list of path strings")
    quotes = sorted(QUOTE_FIELDS & set(props))
    if quotes:
        problems.append(f"quote fields in the schema: {quotes}")
    if claim.get("additionalProperties") is not False:
        problems.append("the claim schema accepts extra fields")
    try:
        parse_answer({"claims": [{"text": "t", "kind": "fact", "evidence": [], "quote": "q"}]})
        problems.append("a claim with a 'quote' field parses")
    except AnswerParseError:
        pass
    fields = ", ".join(sorted(props))
    ok = f"claim fields: {fields}; evidence is a list of paths; extra fields (a quote) refused"
    return Directive(
        "D2", "the model emits pointer claims", not problems, "; ".join(problems) or ok
    )


def _failures(turns: Sequence[Turn], test: Callable[[Turn], str | None]) -> list[str]:
    found = []
    for turn in turns:
        if turn.result is None:
            continue
        problem = test(turn)
        if problem:
            found.append(f"{turn.case.slug} [{turn.mode}] {problem}")
    return found


def _verdict(
    turns: Sequence[Turn], directive: str, title: str, what: str, test: Callable[[Turn], str | None]
) -> Directive:
    failures = _failures(turns, test)
    ran = sum(1 for t in turns if t.result is not None)
    if failures:
        detail = f"{len(failures)} of {ran} turns: " + " | ".join(failures[:EXAMPLES])
        return Directive(directive, title, False, detail)
    return Directive(directive, title, ran > 0, f"{ran} turns: {what}")


def _d3(turn: Turn) -> str | None:
    assert turn.result is not None
    supported = {v.claim.text for v in turn.result.verdicts if v.supported}
    sent = {c.text for c in turn.answer}
    for posted in turn.result.posted:
        if posted.text not in supported:
            return f"posted without a supported verdict: {posted.text!r}"
        if posted.text not in sent and not posted.rewritten:
            return f"posted text the model never sent: {posted.text!r}"
    return None


def _d4(report_of: Callable[[str], Report]) -> Callable[[Turn], str | None]:
    def test(turn: Turn) -> str | None:
        assert turn.result is not None
        audit = turn.result.audit
        if audit is None:
            return "no audit record"
        report = report_of(turn.case.slug)
        if not (audit.report_digest and audit.evidence_root and audit.prompt_digest):
            return "audit record lacks a digest"
        if (audit.report_digest, audit.evidence_root) != (report.digest, report.evidence.root):
            return "audit digests do not match the report"
        return None

    return test


def _d6(turn: Turn) -> str | None:
    assert turn.result is not None
    posted = {p.text for p in turn.result.posted}
    for checked in turn.direct:
        if checked.anchor_failed and checked.case.claim.text in posted:
            return f"anchor-failing claim posted: {checked.case.claim.text!r}"
    return None


def _d7(turn: Turn) -> str | None:
    result = turn.result
    assert result is not None
    entailed = sum(1 for p in result.posted if p.rung is Rung.ENTAILMENT_VERIFIED)
    if entailed > turn.judge_calls:
        return f"{entailed} ENTAILMENT-VERIFIED claims but {turn.judge_calls} judge calls"
    if result.label is None or result.label not in set(Label):
        return f"label {result.label!r} is not one of the honest set"
    altered = bool(result.withheld) or any(p.rewritten for p in result.posted)
    expected = answer_label(result.verdicts, altered=altered)
    if result.label is not expected:
        return f"label {result.label} but the posted verdicts give {expected}"
    if result.withheld and result.label is Label.EVIDENCE_LINKED:
        return "withheld a claim yet labelled EVIDENCE-LINKED"
    return None


def pipeline_directives(
    turns: Sequence[Turn], report_of: Callable[[str], Report]
) -> list[Directive]:
    return [
        _verdict(
            turns,
            "D3",
            "the runtime composes the reply from verified claims",
            "every posted claim has a supported verdict and came from the answer",
            _d3,
        ),
        _verdict(
            turns,
            "D4",
            "every turn records what was retrieved and how",
            "audit has report_digest, evidence_root, prompt_digest matching the report",
            _d4(report_of),
        ),
        _verdict(
            turns,
            "D6",
            "anchor warrant before any model-based check",
            "no claim failing check 5/6 posted, judge always saying 'supported'",
            _d6,
        ),
        _verdict(
            turns,
            "D7",
            "labels are honest",
            "no ENTAILMENT-VERIFIED without a judge call; label = answer_label of "
            "the posted verdicts; nothing withheld under EVIDENCE-LINKED",
            _d7,
        ),
    ]


def _nondeterministic(verify_dir: Path) -> list[str]:
    bad = []
    for path in _modules(verify_dir):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module = f"prism_slack.verify.{path.stem}"
        bad += [
            f"{path.name} imports {n}"
            for n in _imports(tree, module)
            if _matches(n, NONDETERMINISTIC_IMPORTS)
        ]
        for node in ast.walk(tree):
            func = node.func if isinstance(node, ast.Call) else None
            if isinstance(func, ast.Attribute) and func.attr in CLOCK_CALLS:
                bad.append(f"{path.name}:{func.lineno} calls .{func.attr}()")
    return bad


def d5_deterministic(
    first: Sequence[Checked], second: Sequence[Checked], blocked: bool, verify_dir: Path
) -> Directive:
    differ = [
        a.case.claim.text
        for a, b in zip(first, second, strict=True)
        if (a.verdict.model_dump() if a.verdict else a.error)
        != (b.verdict.model_dump() if b.verdict else b.error)
    ]
    problems = [f"verdict differs on a second run: {t!r}" for t in differ[:EXAMPLES]]
    if not blocked:
        problems.append("sockets were not blocked while verifying")
    problems += _nondeterministic(verify_dir)
    detail = (
        f"{len(first)} claims verified twice with identical verdicts, the first run "
        "with sockets blocked; no clock, randomness or network in prism_slack/verify"
    )
    return Directive(
        "D5",
        "only deterministic hard checks decide support",
        not problems,
        "; ".join(problems) or detail,
    )


def bench_scripts(root: Path) -> tuple[list[str], list[str]]:
    """(bench scripts the Makefile runs plus this sweep, those that are missing)."""
    makefile = root / "Makefile"
    text = makefile.read_text(encoding="utf-8") if makefile.exists() else ""
    named = sorted({*re.findall(r"bench/[\w/]+\.py", text), "bench/qa_sweep.py"})
    return named, [n for n in named if not (root / n).exists()]


_SUMMARY = re.compile(r"(\d+) (passed|failed|errors?|skipped|xfailed|xpassed|deselected)")
NESTED_ENV = "PRISM_SWEEP_NESTED"
"""Set for the directive-test subprocess: a sweep started inside it skips D8's subprocess
(no sweep → pytest → sweep → pytest recursion)."""


def pytest_summary(stdout: str) -> dict[str, int]:
    """pytest's closing summary (``12 passed, 1 failed in 0.52s``) as counts."""
    for line in reversed(stdout.splitlines()):
        found = _SUMMARY.findall(line)
        if found:
            return {kind: int(n) for n, kind in found}
    return {}


def d8_pinned(root: Path, *, run_tests: bool, timeout_s: float = 240) -> Directive:
    named, missing = bench_scripts(root)
    problems = [f"missing bench script {m}" for m in missing]
    tests = root / DIRECTIVE_TESTS
    if not run_tests:
        outcome = "directive tests not run (--no-directive-tests)"
        problems.append(outcome)
    elif not tests.exists():
        outcome = f"{DIRECTIVE_TESTS} does not exist"
        problems.append(outcome)
    else:
        command = [sys.executable, "-m", "pytest", DIRECTIVE_TESTS, "-q", "-p", "no:cacheprovider"]
        env = {**os.environ, NESTED_ENV: "1"}
        try:
            done = subprocess.run(
                command,
                cwd=root,
                capture_output=True,
                text=True,
                env=env,
                timeout=timeout_s,
                check=False,
            )
        except subprocess.TimeoutExpired:
            done = None
        if done is None:
            outcome = f"{DIRECTIVE_TESTS} timed out after {timeout_s:.0f} s"
            problems.append(outcome)
        else:
            counts = pytest_summary(done.stdout)
            outcome = f"{DIRECTIVE_TESTS}: " + (
                ", ".join(f"{n} {k}" for k, n in counts.items()) or "no summary line"
            )
            if done.returncode != 0 or not counts.get("passed"):
                problems.append(f"{outcome} (exit {done.returncode})")
    detail = f"{outcome}; bench scripts present: {', '.join(n for n in named if n not in missing)}"
    return Directive(
        "D8",
        "every invariant is pinned by a test; the bench is the scoreboard",
        not problems,
        "; ".join(problems) if problems else detail,
    )
