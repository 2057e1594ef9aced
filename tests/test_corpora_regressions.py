"""Per-case verdicts on the shared corpora, checked for regressions (issue 19).

``bench/results/corpora_cases.jsonl`` holds every case's state (``settled``, ``undecided``
or ``failed``) as last measured by ``bench/corpora_bench.py --cases``. This test verifies
every case again, in this one process, and fails when any case moved the wrong way:

- a false statement (a fabrication, a refuted or unsupported statement) that was not
  settled is now settled — posted with no judge;
- a true statement that was not failed is now failed — withheld.

Moves the other way are improvements; refresh the file with
``python bench/corpora_bench.py --cases bench/results/corpora_cases.jsonl``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT.parent / "shared" / "corpora"
CASES = ROOT / "bench" / "results" / "corpora_cases.jsonl"

pytestmark = pytest.mark.skipif(not CORPORA.is_dir(), reason="no ../shared/corpora here")


def test_no_case_of_any_corpus_moved_the_wrong_way() -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    import corpora_bench

    before = {
        (c["corpus"], c["case"]): c for c in map(json.loads, CASES.read_text("utf-8").splitlines())
    }
    worse = []
    for run in corpora_bench.CORPORA.values():
        corpus = run(CORPORA)
        for case in corpus.cases:
            old = before.get((case["corpus"], case["case"]))
            assert old is not None, f"a case the file does not know: {case}"
            if not case["true"] and case["status"] == "settled" and old["status"] != "settled":
                worse.append(("false statement now settled", case))
            if case["true"] and case["status"] == "failed" and old["status"] != "failed":
                worse.append(("true statement now failed", case))
    assert worse == []
