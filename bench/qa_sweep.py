"""Fabrication sweep: the product's scoreboard.

For every sample report and every eligible field (figures, figures stored as strings with
units, dates, years, fiscal years, vendors, competitors, people, findings, scores with their
scale) it generates correct claims and perturbed ones for every fabrication class (see
``bench/sweep/cases.py``), then runs each one

(a) through the verifier directly — twice, the first time with sockets blocked (D5), and
(b) through the whole pipeline with a scripted model (one correct companion claim plus the
    perturbed one) and a scripted judge that says "supported" to everything — the worst
    case for a judge — under PRISM_JUDGE=auto and =always.

It prints, per class, n and the catch rate (fabrications) or false-flag rate (correct
claims) of the verifier and of the pipeline, model calls per turn, the directive table
D1–D8 (each computed), and a MISSED list with examples. It writes the same to
bench/results/qa_sweep.md and bench/results/qa_sweep.json. The output is deterministic for
the same code and reports. The exit status is 0 however poorly something is caught.

Usage: python bench/qa_sweep.py [--reports DIR] [--out DIR] [--seed N] [--examples N]
                                [--no-directive-tests]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import socket
import sys
import time
from pathlib import Path

from pytest_socket import disable_socket, enable_socket
from sweep.directives import (
    NESTED_ENV,
    Directive,
    d1_no_model_in_verifier,
    d2_pointer_claims,
    d5_deterministic,
    d8_pinned,
    pipeline_directives,
)
from sweep.generate import DEFAULT_SEED, generate_all
from sweep.run import run_pipeline, verify_cases
from sweep.summary import figures, terminal

from prism_slack.llm.playbook import load_playbook
from prism_slack.reports.store import FileReportStore

ROOT = Path(__file__).resolve().parent.parent
VERIFY_DIR = ROOT / "prism_slack" / "verify"
HOLDOUT_SEEDS = (101, 202)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reports", type=Path, default=ROOT / "reports")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--examples", type=int, default=4, help="MISSED examples per class")
    parser.add_argument(
        "--holdout-seeds",
        type=int,
        nargs="*",
        default=list(HOLDOUT_SEEDS),
        help="seeds whose new claims are also verified (verifier only), to spot overfitting",
    )
    parser.add_argument(
        "--no-directive-tests",
        action="store_true",
        help="do not run tests/test_directives.py (D8 then fails)",
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    started = time.perf_counter()

    store = FileReportStore(args.reports)
    reports = store.all()
    by_slug = {r.slug: r for r in reports}
    playbook = load_playbook()
    vocabulary = playbook.vocabulary()

    generated = generate_all(reports, args.seed)
    cases = [case for g in generated for case in g.cases]

    disable_socket()
    try:
        blocked = _sockets_blocked()
        checked = verify_cases(cases, by_slug, vocabulary)
    finally:
        enable_socket()
    again = verify_cases(cases, by_slug, vocabulary)

    known = {case.ident for case in cases}
    fresh = {}
    for seed in args.holdout_seeds:
        for g in generate_all(reports, seed):
            fresh.update({c.ident: c for c in g.cases if c.ident not in known})
    holdout = verify_cases(fresh.values(), by_slug, vocabulary)

    turns = run_pipeline(
        checked, store, vocabulary=vocabulary, playbook_text=playbook.render(), seed=args.seed
    )

    run_tests = not args.no_directive_tests and not os.environ.get(NESTED_ENV)
    directives: list[Directive] = [
        d1_no_model_in_verifier(VERIFY_DIR),
        d2_pointer_claims(),
        *pipeline_directives(turns, store.get),
        d5_deterministic(checked, again, blocked, VERIFY_DIR),
        d8_pinned(ROOT, run_tests=run_tests),
    ]
    directives.sort(key=lambda d: d.id)

    data = figures(
        generated,
        checked,
        turns,
        directives,
        seed=args.seed,
        examples=args.examples,
        holdout=holdout,
        holdout_seeds=args.holdout_seeds,
    )
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "qa_sweep.json").write_text(
        json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    (args.out / "qa_sweep.md").write_text(terminal(data), encoding="utf-8")
    print(terminal(data))
    elapsed = time.perf_counter() - started
    print(
        f"{len(cases)} claims, {len(turns)} pipeline turns in {elapsed:.1f} s; "
        f"wrote {args.out / 'qa_sweep.md'} and {args.out / 'qa_sweep.json'}"
    )
    return 0


def _sockets_blocked() -> bool:
    """Is opening a socket refused right now? (So the verifier provably ran offline.)"""
    try:
        socket.socket(socket.AF_INET, socket.SOCK_STREAM).close()
    except Exception:  # pytest-socket raises its own error type
        return True
    return False


if __name__ == "__main__":
    sys.exit(main())
