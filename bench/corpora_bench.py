"""Corpora bench: the verifier scored on claims its authors did not write.

The corpora of ``../shared/corpora`` (the path is an argument: natural-claims,
report-styles, infotabs-dev, tabfact-dev) and the blind sets kept in ``bench/corpora``
(house-styles, export-styles, object-styles, table-styles, locale-styles), verified
in-process — the verifier is called directly, one report index built once per report, no
process per report. Among them:

- ``natural-claims/claims.jsonl``: LLM-phrased claims over the four sample reports in
  ``reports/``; per class, the false flags (correct claims marked unsupported) and the
  catches (fabricated claims marked unsupported), and the undecided share;
- ``tabfact-dev/cases.jsonl`` with its ``reports/``: crowd-written one-row statements; per
  category, flagged / n, and the catch rate with and without ``refuted-relation`` and
  ``refuted-negation-only`` (which a token-warrant check cannot see).

Writes ``bench/results/corpora.md`` and ``bench/results/corpora.json`` (``--out``), and
prints the corpora scorers' last lines (``natural-claims: catch=X/Y false_flags=A/B``,
``tabfact-dev: …``), which match ``score.py`` of each corpus run on ``prism verify``.

This is kept apart from the template sweep (``bench/qa_sweep.py``), a regression test of
the number grammar.

Usage: python bench/corpora_bench.py [--corpora DIR] [--out DIR] [--show N]
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from prism_slack.claims import Claim
from prism_slack.llm.playbook import load_playbook
from prism_slack.reports.model import Report
from prism_slack.reports.store import validate_directory
from prism_slack.verdict import ClaimVerdict, Status
from prism_slack.verify import verify_claim

ROOT = Path(__file__).resolve().parent.parent
UNFAIR = frozenset({"refuted-relation", "refuted-negation-only"})


@dataclass
class Tally:
    """Counts for one class or category."""

    n: int = 0
    flagged: int = 0
    undecided: int = 0
    settled: int = 0
    checks: collections.Counter[str] = field(default_factory=collections.Counter)

    def add(self, verdict: ClaimVerdict) -> None:
        self.n += 1
        self.flagged += not verdict.supported
        self.undecided += verdict.undecided
        self.settled += verdict.status is Status.SETTLED
        self.checks.update({r.check.slug for r in verdict.reasons})

    def as_json(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "flagged": self.flagged,
            "undecided": self.undecided,
            "settled": self.settled,
            "checks": dict(self.checks.most_common()),
        }


@dataclass
class Corpus:
    name: str
    positive: dict[str, Tally] = field(default_factory=dict)
    """Correct claims by class: ``flagged`` is a false flag."""
    negative: dict[str, Tally] = field(default_factory=dict)
    """Fabricated claims by class: ``flagged`` is a catch."""
    misses: list[str] = field(default_factory=list)
    false_flags: list[str] = field(default_factory=list)
    seconds: float = 0.0
    cases: list[dict[str, Any]] = field(default_factory=list)

    def add(self, ok: bool, cls: str, verdict: ClaimVerdict, where: str, case: str = "") -> None:
        (self.positive if ok else self.negative).setdefault(cls, Tally()).add(verdict)
        self.cases.append(
            {"corpus": self.name, "case": case or f"{where}:{len(self.cases)}", "true": ok,
             "status": verdict.status.value, "rung": verdict.rung.value}
        )  # fmt: skip
        line = f"[{cls}] {verdict.claim.text!r} ({where}) {[str(r) for r in verdict.reasons]}"
        if ok and not verdict.supported:
            self.false_flags.append(line)
        elif not ok and verdict.supported:
            self.misses.append(line + (" undecided" if verdict.undecided else ""))

    def totals(self, skip: frozenset[str] = frozenset()) -> tuple[int, int, int, int]:
        neg = [t for c, t in self.negative.items() if c not in skip]
        pos = list(self.positive.values())
        return (
            sum(t.flagged for t in neg),
            sum(t.n for t in neg),
            sum(t.flagged for t in pos),
            sum(t.n for t in pos),
        )

    def line(self) -> str:
        caught, refuted, flagged, correct = self.totals()
        return f"{self.name}: catch={caught}/{refuted} false_flags={flagged}/{correct}"

    def states(self) -> str:
        """The three figures that matter (DESIGN §14): false statements settled (posted with
        no judge), true statements failed (withheld), and the share left to the judge."""
        neg, pos = list(self.negative.values()), list(self.positive.values())
        settled = sum(t.settled for t in neg)
        n_neg, n_pos = sum(t.n for t in neg), sum(t.n for t in pos)
        failed = sum(t.flagged for t in pos)
        judged = sum(t.undecided for t in neg + pos)
        return (
            f"{self.name}: false_settled={settled}/{n_neg} ({_pct(settled, n_neg)}) "
            f"true_failed={failed}/{n_pos} ({_pct(failed, n_pos)}) "
            f"judged={judged}/{n_neg + n_pos} ({_pct(judged, n_neg + n_pos)})"
        )


def _reports(directory: Path) -> dict[str, Report]:
    reports, errors = validate_directory(directory)
    if errors:
        sys.exit(f"{directory}: {len(errors)} report errors, first: {errors[0]}")
    return {r.slug: r for r in reports}


def _lines(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _claims(
    name: str, reports_dir: Path, cases: Path, truth: str, cls: str, *, ids: bool = False
) -> Corpus:
    """One claim corpus whose reports are all in one directory: each line a ``claim`` on a
    ``report``, true when its ``truth`` key is, classed by its ``cls`` key."""
    reports = _reports(reports_dir)
    allowed = load_playbook().vocabulary()
    out = Corpus(name)
    started = time.perf_counter()
    for i, row in enumerate(_lines(cases)):
        verdict = verify_claim(
            Claim.model_validate(row["claim"]), reports[row["report"]], allowed=allowed
        )
        case = f"{row['report']}:{i}" if ids else ""
        out.add(bool(row[truth]), row[cls], verdict, row["report"], case)
    out.seconds = time.perf_counter() - started
    return out


def natural_claims(corpora: Path) -> Corpus:
    base = corpora / "natural-claims"
    return _claims("natural-claims", ROOT / "reports", base / "claims.jsonl", "ok", "class")


def tabfact(corpora: Path) -> Corpus:
    base = corpora / "tabfact-dev"
    return _claims("tabfact-dev", base / "reports", base / "cases.jsonl", "entailed", "category")


def report_styles(corpora: Path) -> Corpus:
    base = corpora / "report-styles"
    reports, cases = base / "reports", base / "claims.jsonl"
    return _claims("report-styles", reports, cases, "ok", "class", ids=True)


def _blind(name: str) -> Callable[[Path], Corpus]:
    """A blind set kept in ``bench/corpora/<name>`` (written by a helper that had not read
    the product; its README says when, and its first-sight figures)."""

    def load(corpora: Path) -> Corpus:
        base = ROOT / "bench" / "corpora" / name
        return _claims(name, base / "reports", base / "claims.jsonl", "ok", "class", ids=True)

    return load


def infotabs(corpora: Path) -> Corpus:
    """INFOTABS dev: E statements are true; N (unsupported) and C (contradicted) are not."""
    base = corpora / "infotabs-dev"
    allowed = load_playbook().vocabulary()
    out = Corpus("infotabs-dev")
    started = time.perf_counter()
    answers: dict[str, list[Claim]] = {}
    reports: dict[str, Report] = {}
    for row in _lines(base / "cases.jsonl"):
        slug = row["slug"]
        if slug not in reports:
            reports[slug] = _reports(base / "reports" / slug)[slug]
            raw = json.loads((base / "answers" / f"{slug}.json").read_text(encoding="utf-8"))
            answers[slug] = [Claim.model_validate(c) for c in raw["claims"]]
        claim = answers[slug][row["claim_index"]]
        verdict = verify_claim(claim, reports[slug], allowed=allowed)
        out.add(row["label"] == "E", row["label"], verdict, slug, row["id"])
    out.seconds = time.perf_counter() - started
    return out


def _pct(a: int, b: int) -> str:
    return f"{a / b:.0%}" if b else "-"


def _row(cls: str, t: Tally) -> str:
    return f"| {cls} | {t.n} | {t.flagged} ({_pct(t.flagged, t.n)}) | {t.undecided} |"


def markdown(corpora: list[Corpus]) -> str:
    lines = [
        "# Corpora bench",
        "",
        "`python bench/corpora_bench.py`: the verifier called in-process on the shared",
        "corpora. *False flags*: correct claims marked unsupported; *caught*: fabricated",
        "claims marked unsupported; *undecided*: supported, but check 7 could not settle",
        "them (left to the judge, or posted at their honest rung).",
        "",
    ]
    for c in corpora:
        caught, refuted, flagged, correct = c.totals()
        lines += [f"## {c.name}", "", f"`{c.line()}` ({c.seconds:.1f} s in-process)", ""]
        if c.name == "tabfact-dev":
            fair_caught, fair_n, _, _ = c.totals(UNFAIR)
            lines += [
                f"Caught without relation/negation-only: {fair_caught}/{fair_n} "
                f"({_pct(fair_caught, fair_n)}).",
                "",
            ]
        lines += [
            f"False flags {flagged}/{correct} ({_pct(flagged, correct)}), "
            f"caught {caught}/{refuted} ({_pct(caught, refuted)}).",
            "",
            "| correct class | n | false flags | undecided |",
            "|---|---|---|---|",
        ]
        lines += [_row(cls, t) for cls, t in sorted(c.positive.items())]
        lines += ["", "| fabricated class | n | caught | undecided |", "|---|---|---|---|"]
        lines += [_row(cls, t) for cls, t in sorted(c.negative.items())]
        lines.append("")
    return "\n".join(lines)


CORPORA = {
    "natural-claims": natural_claims,
    "report-styles": report_styles,
    **{
        name: _blind(name)
        for name in (
            "house-styles",
            "export-styles",
            "object-styles",
            "table-styles",
            "locale-styles",
        )
    },
    "infotabs-dev": infotabs,
    "tabfact-dev": tabfact,
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results")
    ap.add_argument("--show", type=int, default=0, help="print N false flags and misses each")
    ap.add_argument("--only", choices=tuple(CORPORA), default=None)
    ap.add_argument("--cases", type=Path, help="write each case's state here (JSON lines)")
    args = ap.parse_args()
    if not args.corpora.is_dir():
        sys.exit(f"no corpora at {args.corpora} (pass --corpora DIR)")
    runs = [run(args.corpora) for name, run in CORPORA.items() if args.only in (None, name)]
    for c in runs:
        if args.show:
            print(f"-- {c.name} false flags ({len(c.false_flags)})")
            print(*c.false_flags[: args.show], sep="\n")
            print(f"-- {c.name} misses ({len(c.misses)})")
            print(*c.misses[: args.show], sep="\n")
        print(c.line())
        print(c.states())
    if args.cases:
        with args.cases.open("w", encoding="utf-8") as fh:
            fh.writelines(json.dumps(case) + "\n" for c in runs for case in c.cases)
    if args.only is None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "corpora.md").write_text(markdown(runs), encoding="utf-8")
        payload = {
            c.name: {
                "line": c.line(),
                "states": c.states(),
                "seconds": round(c.seconds, 2),
                "correct": {k: t.as_json() for k, t in sorted(c.positive.items())},
                "fabricated": {k: t.as_json() for k, t in sorted(c.negative.items())},
            }
            for c in runs
        }
        (args.out / "corpora.json").write_text(json.dumps(payload, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
