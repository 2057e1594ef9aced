"""The rule registry (``verify.rules``): every rule's false example is decided by that
rule, its true example is not, every rule id the code emits is registered, and
``docs/verifier.md`` is the registry's text."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

from prism_slack.claims import Claim
from prism_slack.reports.model import Report, build_report
from prism_slack.reports.store import validate_directory
from prism_slack.verdict import ClaimVerdict
from prism_slack.verify import proof, verify_claim
from prism_slack.verify.rules import Example, Rule, inline_reports, markdown, registry

ROOT = Path(__file__).resolve().parent.parent
VERIFY = ROOT / "prism_slack" / "verify"
RULES = list(registry().values())


@cache
def _reports() -> dict[str, Report]:
    samples, errors = validate_directory(ROOT / "reports")
    assert not errors
    inline = {slug: build_report(slug, data) for slug, data in inline_reports().items()}
    return {r.slug: r for r in samples} | inline


def _verdict(example: Example) -> ClaimVerdict:
    claim = Claim(text=example.text, kind=example.kind, evidence=example.evidence)
    return verify_claim(claim, _reports()[example.report])


def _decided_by(verdict: ClaimVerdict, rule: Rule) -> bool:
    reasons = verdict.reasons if rule.decides == "fails" else verdict.undecided_reasons
    return any(r.rule == rule.id and r.check is rule.check for r in reasons)


@pytest.mark.parametrize("rule", RULES, ids=[r.id for r in RULES])
def test_the_rule_decides_its_false_example_and_not_its_true_one(rule: Rule) -> None:
    false, true = _verdict(rule.false), _verdict(rule.true)
    assert _decided_by(false, rule), [*false.reasons, *false.undecided_reasons]
    assert rule.id not in {r.rule for r in [*true.reasons, *true.undecided_reasons]}
    assert true.supported, true.reasons


def _emitted() -> dict[str, str]:
    """Each rule id a ``Problem(...)`` of ``prism_slack/verify`` names, with where, and
    each rule of the proof gate (``proof.RULES``)."""
    out: dict[str, str] = {}
    for path in sorted(VERIFY.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Problem":
                first = node.args[0] if node.args else None
                assert isinstance(first, ast.Constant), f"{path.name}:{node.lineno}: a literal id"
                out[str(first.value)] = f"{path.name}:{node.lineno}"
    return out | {rule.id: "proof.py" for rule in proof.RULES}


def test_every_rule_the_code_emits_is_registered_and_every_registered_rule_is_emitted() -> None:
    emitted = _emitted()
    assert set(emitted) - set(registry()) == set(), "unregistered rule ids"
    assert set(registry()) - set(emitted) == set(), "registered rules no code emits"


def test_rule_ids_name_their_check() -> None:
    warrants = {"anchor_warrant", "entity_warrant", "attribute_warrant"}
    prefixes = {
        "text": {"text_nonempty"},
        "pointers": {"pointers_resolve"},
        "cites": {"fact_cites"},
        "anchor": {"anchor_warrant"},
        "entity": {"entity_warrant"},
        "attribute": {"attribute_warrant"},
        "fail": warrants,  # the proof gate: a failure of checks 5-7 that is no proof
        "settle": {"attribute_warrant"},
    }
    assert all(r.check.slug in prefixes[r.id.split(".")[0]] for r in RULES)


def test_the_proof_gate_s_rules_are_written_as_the_registry_writes_them() -> None:
    for rule in proof.RULES:
        assert registry()[rule.id].doc.rstrip(".").lower() == rule.doc.lower(), rule.id
        assert registry()[rule.id].decides == "undecided"


def test_docs_verifier_md_is_generated_from_the_registry() -> None:
    committed = (ROOT / "docs" / "verifier.md").read_text(encoding="utf-8")
    assert committed == markdown(), "run: python -m prism_slack.verify.rules --markdown"
