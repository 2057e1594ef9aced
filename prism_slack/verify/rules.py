"""The verifier's rules as a registry: each rule an id, the check it belongs to, a one-line
doc, and a true and a false example (``prism_slack/data/rules.yaml``).

Every problem a check emits is a ``verdict.Problem`` naming its rule (``anchor.no_match``); the
verdict keeps it as a ``verdict.Reason``. ``tests/test_rules.py`` runs each rule's examples
through ``verify_claim`` (the false one must be decided by that rule, the true one must
not be) and fails on a rule id the code emits but the registry lacks. ``docs/verifier.md``
is generated from the registry: ``python -m prism_slack.verify.rules --markdown``.
"""

from __future__ import annotations

import argparse
import sys
from functools import cache
from importlib.resources import files
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict

from prism_slack.verdict import Check


class Example(BaseModel):
    """A claim and what it cites, over ``report``: a small report of the registry
    (``inline_reports``) or else a sample report (``reports/<report>``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    report: str
    text: str
    kind: Literal["fact", "coaching", "absent"] = "fact"
    evidence: list[str] = []


class Rule(BaseModel):
    """One named rule of a check."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    check: Check
    doc: str
    decides: Literal["fails", "undecided"] = "fails"
    """``fails`` (a reason: the claim is unsupported) or ``undecided`` (the judge decides)."""
    true: Example
    false: Example


GATE = ("fail.", "settle.")
"""Ids of the proof gate's rules: a failure that is no proof, a settlement that is none."""


@cache
def _data() -> dict[str, Any]:
    text = files("prism_slack").joinpath("data/rules.yaml").read_text("utf-8")
    data: dict[str, Any] = yaml.safe_load(text)
    return data


@cache
def registry() -> dict[str, Rule]:
    """Every rule, by id, in the order ``docs/verifier.md`` lists them."""
    raw = _data()["rules"]
    rules = [Rule.model_validate({**r, "check": Check[r["check"].upper()]}) for r in raw]
    return {r.id: r for r in rules}


def inline_reports() -> dict[str, dict[str, Any]]:
    """The registry's own small reports, by slug, as report data."""
    reports: dict[str, dict[str, Any]] = _data()["reports"]
    return reports


def _example(e: Example) -> str:
    cited = ", ".join(f"`{p}`" for p in e.evidence) or "nothing"
    return f"“{e.text}” ({e.kind} citing {cited} of `{e.report}`)"


def markdown() -> str:
    """``docs/verifier.md``: the rules by check, each with its doc and examples."""
    out = [
        "# The verifier's rules",
        "",
        "Generated from `prism_slack/data/rules.yaml` by "
        "`python -m prism_slack.verify.rules --markdown`; do not edit by hand.",
        "",
        "Each rule belongs to a hard check of DESIGN §6. A rule that *fails* a claim gives "
        "a reason (`ClaimVerdict.reasons`); one that leaves it *undecided* gives an "
        "undecided reason (`ClaimVerdict.undecided_reasons`) and the judge decides.",
        "",
        "Every claim ends in one of three states (`ClaimVerdict.status`, and `status` in "
        "`prism verify --json`):",
        "",
        "- **failed**: withheld, and no judge rescues it. Only on proof: every cited value "
        "the claim's figure, date or name could be about was understood and none fits.",
        "- **settled**: posted with no judge (`EVIDENCE-WARRANTED`). Only on proof: each "
        "figure is bound to one cited field of the kind, unit, currency and period the claim "
        "states, and nothing it asserts is left unread.",
        "- **undecided**: everything else. Under `PRISM_JUDGE=auto` the judge decides; "
        "with no judge the claim is withheld (a claim that only restates the single values "
        "it cites and names is posted, marked as not entailment-checked).",
        "",
        "Report values are read through their typed facts (`prism_slack.facts`, compiled "
        "once per report: `prism reports show SLUG` prints them), never re-read from key "
        "names inside the checks.",
    ]
    rules = [r for r in registry().values() if not r.id.startswith(GATE)]
    sections = [(f"{c.value}. {c.slug}", [r for r in rules if r.check is c]) for c in Check]
    gate = [r for r in registry().values() if r.id.startswith(GATE)]
    sections.append(("The proof gate (`verify.proof`): no proof, no verdict", gate))
    for title, mine in sections:
        if not mine:
            continue
        out += ["", f"## {title}", ""]
        for r in mine:
            out += [
                f"- **`{r.id}`** ({r.decides}, {r.check.slug}): {r.doc}",
                f"  - true: {_example(r.true)}",
                f"  - false: {_example(r.false)}",
            ]
    return "\n".join(out) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description="The verifier's rule registry.")
    ap.add_argument("--markdown", action="store_true", help="print docs/verifier.md")
    args = ap.parse_args()
    lines = [f"{r.id}\t{r.check.slug}\t{r.doc}\n" for r in registry().values()]
    sys.stdout.write(markdown() if args.markdown else "".join(lines))


if __name__ == "__main__":
    main()
