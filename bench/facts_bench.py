"""Typed-facts bench: how long compiling a report's typed facts takes, once per report.

Builds a report of about ``--leaves`` leaves in the four house styles of
``shared/corpora/report-styles`` (snake_case keys with units, camelCase with a currency
field and fractions, display strings under Title Case keys, ``{value, unit, period}``
objects and year-keyed series, with prose passages), and times ``compile_facts`` on it.
Speed only: what the facts say is scored by the corpora, not here.

Prints the median of ``--runs`` compiles and writes ``bench/results/facts.json``
(``--out``). Target (issue 19): well under 50 ms for 1,000 leaves.

Usage: python bench/facts_bench.py [--leaves N] [--runs N] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from prism_slack.facts import FactKind, compile_facts

ROOT = Path(__file__).resolve().parent.parent


def report(leaves: int) -> dict[str, Any]:
    """A report of about ``leaves`` leaves, ten leaves a section, every style mixed."""
    sections: dict[str, Any] = {}
    for i in range(max(1, leaves // 10)):
        sections[f"unit{i}"] = {
            "currency": "EUR",
            "annualRevenue": 318_400_000 + i,
            "churnRate": 0.05 + i / 10_000,
            "sales_cycle_days": 30 + i % 60,
            "Direct Booking Share": f"{30 + i % 40}%",
            "Tech Budget (FY26)": f"£{3 + i % 9}.{i % 10}m",
            "revenue": {"value": 812.6 + i, "unit": "EUR million", "period": "FY25"},
            "otif": {"2023": 0.946, "2024": 0.941},
            "detail": f"Only {i % 90}% of orders arrive online; the rest come by email in 2025.",
        }
    return {
        "company": {"name": "Bench Co", "aliases": []},
        "report": {"id": "BENCH-1", "generated_at": "2026-01-01"},
        "sections": sections,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--leaves", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results")
    args = ap.parse_args()
    data = report(args.leaves)
    compile_facts(data)  # warm the word lists and the grammar
    times = []
    for _ in range(args.runs):
        started = time.perf_counter()
        facts = compile_facts(data)
        times.append((time.perf_counter() - started) * 1000)
    kinds = {k.value: sum(f.kind is k for f in facts.by_path.values()) for k in FactKind}
    result = {
        "leaves": len(facts),
        "series": len(facts.series),
        "median_ms": round(statistics.median(times), 1),
        "min_ms": round(min(times), 1),
        "kinds": kinds,
    }
    print(
        f"facts: {result['leaves']} leaves compiled in {result['median_ms']} ms median "
        f"(min {result['min_ms']} ms, {args.runs} runs); {kinds}"
    )
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "facts.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
