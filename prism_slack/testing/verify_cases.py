"""Table-driven verifier tests: a claim's outcome in one word, and the check that every
rule of a table has an example that passes and one that fails."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from prism_slack.claims import Claim
from prism_slack.reports.model import Report
from prism_slack.verify import verify_claim

Outcome = Literal["ok", "undecided", "fails"]
Expected = Literal["ok", "undecided", "fails", "supported"]
"""``supported``: ``ok`` or ``undecided`` — for a rule of checks 5 and 6, whose true
example must not fail, whatever check 7 then settles."""
Case = tuple[str, str, tuple[str, ...], Expected]
"""(rule, claim text, cited paths, expected outcome)."""


def outcome(report: Report, text: str, evidence: tuple[str, ...]) -> Outcome:
    """How the verifier settles a fact: ``fails`` (unsupported), ``undecided`` or ``ok``."""
    verdict = verify_claim(Claim(text=text, kind="fact", evidence=list(evidence)), report)
    if not verdict.supported:
        return "fails"
    return "undecided" if verdict.undecided else "ok"


def meets(got: Outcome, expected: Expected) -> bool:
    return got != "fails" if expected == "supported" else got == expected


def one_sided(cases: Iterable[Case]) -> dict[str, set[bool]]:
    """Rules lacking a true or a false example (empty when every rule has both)."""
    by_rule: dict[str, set[bool]] = {}
    for rule, _, _, expected in cases:
        by_rule.setdefault(rule, set()).add(expected == "fails")
    return {rule: kinds for rule, kinds in by_rule.items() if kinds != {True, False}}
