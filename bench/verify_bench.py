"""Verify bench: how fast the deterministic verifier checks a 10-claim answer, by report size.

For synthetic reports of about 100, 1,000 and 10,000 leaves (generated deterministically
from a fixed seed), it prints:

1. the time to build the report's verifier index once (untraced), and the peak memory of
   building it (tracemalloc, in a separate build; the evidence map is built beforehand);
2. median and p99 of the time to verify one 10-claim answer with the index built once and
   reused (the answer mixes correct facts, fabricated facts and coaching, like a real one);
3. the ratio of the 10k-leaf to the 1k-leaf median (time should grow no faster than
   linearly with report size; a verifier that only looks up what a claim cites stays flat).

Target: median < 5 ms for 10 claims on a 1,000-leaf report.

Usage: python bench/verify_bench.py [--runs N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import tracemalloc
from typing import Any

from prism_slack.claims import Answer, Claim
from prism_slack.reports.model import Report, build_report
from prism_slack.verify import verify_answer
from prism_slack.verify.index import VerifierIndex, index_for

SIZES = (100, 1_000, 10_000)
TARGET_MS = 5.0

VENDORS = ["HubSpot", "Salesforce Sales Cloud", "Klaviyo", "Algolia", "Zendesk", "Adyen",
           "Snowflake", "Amplitude", "Marketo Engage", "NetSuite", "Intercom", "Coveo"]  # fmt: skip
FIRST = ["Maria", "Daniel", "Priya", "Owen", "Hana", "Grant", "Elena", "Jordan", "Sam", "Teresa"]
LAST = ["Chen", "Lopez", "Raman", "Pritchard", "Okafor", "Siebold", "Tiberi", "Adeyemi"]
TITLES = ["VP Sales", "Chief Financial Officer", "Head of Growth", "Director of Data",
          "Chief Digital Officer", "VP Procurement"]  # fmt: skip
TOPICS = ["checkout", "site search", "trial funnel", "invoice matching", "patient portal",
          "shipment tracking", "pricing page", "lifecycle email", "support backlog"]  # fmt: skip
MEASURES = ["conversion_pct", "churn_rate", "revenue_usd", "sessions", "tickets_per_month",
            "latency_ms", "margin", "growth_pct", "customers", "orders"]  # fmt: skip


def synthetic_report(leaves: int, seed: int) -> Report:
    """A report of about ``leaves`` leaves: metrics, vendors, findings and stakeholders."""
    rng = random.Random(seed)
    data: dict[str, Any] = {
        "company": {"name": "Synthetic Widgets", "aliases": ["Synthetic"], "domain": "synth.io"},
        "report": {
            "id": f"AUD-{seed}-{leaves}",
            "generated_at": "2026-03-09",
            "fiscal_year": "FY2025",
        },
        "scores": {"max": 10},
        "metrics": {},
        "vendors": {},
        "findings": [],
        "stakeholders": [],
    }
    count = 8
    i = 0
    while count < leaves:
        kind = i % 4
        if kind == 0:
            key = f"{rng.choice(TOPICS).replace(' ', '_')}_{MEASURES[i % len(MEASURES)]}_{i}"
            value: float | int = (
                round(rng.uniform(0, 1), 4)
                if key.endswith(("rate", "margin"))
                else round(rng.uniform(-20, 90), 2)
                if key.endswith("pct")
                else rng.randrange(1_000, 900_000_000)
            )
            data["metrics"][key] = value
            count += 1
        elif kind == 1:
            data["vendors"][f"{rng.choice(TOPICS).replace(' ', '_')}_{i}"] = rng.choice(VENDORS)
            data["scores"][f"area_{i}"] = rng.randrange(1, 11)
            count += 2
        elif kind == 2:
            topic, vendor = rng.choice(TOPICS), rng.choice(VENDORS)
            pct = round(rng.uniform(1, 60), 1)
            data["findings"].append(
                {
                    "id": f"FND-{len(data['findings']) + 1}",
                    "title": f"The {topic} loses customers",
                    "severity": rng.choice(["critical", "high", "medium", "low"]),
                    "detail": f"{pct}% of visitors abandon the {topic}, and {vendor} data is "
                    f"not joined to it since {rng.choice(['March', 'June'])} 2025.",
                }
            )
            count += 4
        else:
            data["stakeholders"].append(
                {
                    "name": f"{rng.choice(FIRST)} {rng.choice(LAST)}",
                    "title": rng.choice(TITLES),
                    "role": rng.choice(["champion", "economic buyer", "blocker"]),
                }
            )
            count += 3
        i += 1
    return build_report(f"synthetic-{leaves}", data)


def ten_claims(report: Report, seed: int) -> Answer:
    """A realistic 10-claim answer: correct facts, fabrications and coaching."""
    rng = random.Random(seed)
    data = report.data
    metric = rng.choice(sorted(data["metrics"]))
    value = data["metrics"][metric]
    vendor_key = rng.choice(sorted(data["vendors"]))
    f = rng.randrange(len(data["findings"]))
    finding = data["findings"][f]
    s = rng.randrange(len(data["stakeholders"]))
    person = data["stakeholders"][s]
    area = rng.choice([k for k in data["scores"] if k != "max"])
    words = metric.replace("_", " ")
    claims = [
        Claim(text=f"The {words} is {value}.", kind="fact", evidence=[f"metrics.{metric}"]),
        Claim(text=f"The {words} is {value}1.", kind="fact", evidence=[f"metrics.{metric}"]),
        Claim(
            text=f"Their {vendor_key.split('_')[0]} vendor is {data['vendors'][vendor_key]}.",
            kind="fact",
            evidence=[f"vendors.{vendor_key}"],
        ),
        Claim(
            text=f"Their {vendor_key.split('_')[0]} vendor is Oracle.",
            kind="fact",
            evidence=[f"vendors.{vendor_key}"],
        ),
        Claim(text=finding["detail"], kind="fact", evidence=[f"findings[{f}].detail"]),
        Claim(
            text=f"{person['name']} is the {person['title']}.",
            kind="fact",
            evidence=[f"stakeholders[{s}]"],
        ),
        Claim(
            text=f"The {area.replace('_', ' ')} score is {data['scores'][area]} out of 10.",
            kind="fact",
            evidence=[f"scores.{area}", "scores.max"],
        ),
        Claim(
            text="Their data warehouse lacks access controls.",
            kind="fact",
            evidence=[f"findings[{f}].detail"],
        ),
        Claim(
            text=f"Open with the {finding['title'].lower()} finding.",
            kind="coaching",
            evidence=[f"findings[{f}].title"],
        ),
        Claim(
            text="Ask who owns the roadmap before you propose anything.",
            kind="coaching",
            evidence=[],
        ),
    ]
    return Answer(claims=claims)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def bench(size: int, runs: int, seed: int) -> tuple[float, float, float, float, int]:
    """(index build ms, index peak KiB, median ms, p99 ms, leaves) for one report size."""
    report = synthetic_report(size, seed)
    evidence = report.evidence  # built first: the index is what is measured
    VerifierIndex(report)  # warm the stem cache as a long-running process would
    started = time.perf_counter()
    VerifierIndex(report)
    build_ms = (time.perf_counter() - started) * 1000
    tracemalloc.start()  # a separate build: tracing slows it down several times
    VerifierIndex(report)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    index_for(report)  # the cached index every run below reuses
    answers = [ten_claims(report, seed + k) for k in range(20)]
    for answer in answers:  # warm-up
        verify_answer(answer, report)
    times = []
    for k in range(runs):
        answer = answers[k % len(answers)]
        started = time.perf_counter()
        verify_answer(answer, report)
        times.append((time.perf_counter() - started) * 1000)
    return build_ms, peak / 1024, statistics.median(times), percentile(times, 99), len(evidence)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    medians: dict[int, float] = {}
    print(f"verify bench: 10-claim answers, {args.runs} runs per size, seed {args.seed}")
    for size in SIZES:
        build_ms, peak_kib, median, p99, leaves = bench(size, args.runs, args.seed)
        medians[size] = median
        print(
            f"  {leaves:>6,} leaves: verify median {median:6.2f} ms  p99 {p99:6.2f} ms  | "
            f"index build {build_ms:8.1f} ms, peak {peak_kib:9,.0f} KiB"
        )
    ratio = medians[10_000] / medians[1_000]
    print(f"  ratio 10k/1k median: {ratio:.2f}x (report 10x larger; linear would be 10x)")
    verdict = "met" if medians[1_000] < TARGET_MS else "MISSED"
    print(f"  target: median < {TARGET_MS:.0f} ms on 1,000 leaves: {verdict}")


if __name__ == "__main__":
    main()
