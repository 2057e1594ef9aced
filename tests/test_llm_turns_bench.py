"""The LLM-style turns bench on a tiny inline corpus: the real google-genai client against
the fake Gemini server, with the oracle judge answering from the corpus labels."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.llm_turns_bench import load, main, turns_of  # noqa: E402

NW = "northwind-outfitters"
ROWS = [
    # correct, settled by the checks
    ({"text": "Their search runs on Algolia.", "evidence": ["vendors.search"]}, True),
    # correct, undecided (nothing anchored): the oracle judge confirms it
    ({"text": "The returns page is stale.", "evidence": ["findings[5].title"]}, True),
    # fabricated, undecided: the oracle judge refuses it
    ({"text": "Returns policy page is not out of date.", "evidence": ["findings[5].title"]}, False),
    # fabricated, an anchor failure: never sent to the judge
    ({"text": "Revenue was $415.5M.", "evidence": ["financials.revenue_usd"]}, False),
]


def write_corpus(tmp_path: Path) -> Path:
    corpus = tmp_path / "natural-claims"
    corpus.mkdir()
    lines = [
        json.dumps({"report": NW, "claim": {**c, "kind": "fact"}, "ok": ok, "class": "x"})
        for c, ok in ROWS
    ]
    (corpus / "claims.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return corpus


def test_turns_are_deterministic_and_cover_every_claim(tmp_path: Path) -> None:
    rows = load(write_corpus(tmp_path))
    turns = turns_of(rows, 3)
    assert turns == turns_of(list(reversed(rows)), 3)
    assert sorted(r.claim.text for t in turns for r in t) == sorted(c["text"] for c, _ in ROWS)
    assert [len(t) for t in turns] == [3, 1]


def test_the_bench_posts_confirmed_claims_and_no_fabrication(tmp_path: Path) -> None:
    out = tmp_path / "results"
    assert (
        main(["--corpus", str(write_corpus(tmp_path)), "--turn-size", "4", "--out", str(out)]) == 0
    )

    data = json.loads((out / "llm_turns.json").read_text(encoding="utf-8"))
    auto, always, never = (data["modes"][m] for m in ("auto", "always", "never"))
    assert auto["correct_facts_posted"] == "2/2" and auto["fabrications_posted"] == 0
    assert auto["model_calls_per_turn"] == 2.0 and auto["claims_per_judge_call"] == 2
    assert auto["posted_rungs"] == {"ENTAILMENT-VERIFIED": 1, "EVIDENCE-WARRANTED": 1}
    assert always["claims_per_judge_call"] == 3  # every supported fact, still one call
    assert never["correct_facts_posted"] == "1/2" and never["model_calls_per_turn"] == 1.0
    assert "ORACLE" in (out / "llm_turns.md").read_text(encoding="utf-8")
