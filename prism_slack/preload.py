"""Before gunicorn forks its workers: load, once, what every worker reads and never writes.

A worker's memory is mostly read-only data: the libraries, the verifier's word tables
(lemminflect's lemma dictionary, wordfreq's frequencies), the reports and the indexes
built from each (offline answerer, verifier). Built in each worker, every worker holds its
own copy. Built here, in the master, the workers share the master's pages copy-on-write:
``warm`` answers one offline turn per report (no network: the offline answerer, an
in-memory store), then ``freeze`` moves every object to the garbage collector's permanent
generation, so that collections in the workers do not write to (and so copy) those pages.

gunicorn's own ``preload_app`` would build the whole app in the master, with its Redis
connections and answering threads, which must not cross a fork; only data is shared here.
"""

from __future__ import annotations

import gc
import logging
import time

from prism_slack.llm.offline import OfflineAnswerer
from prism_slack.pipeline.turn import TurnDeps, run_turn
from prism_slack.ports import Conversation, ReportStore
from prism_slack.state.redis_store import memory_store

logger = logging.getLogger(__name__)

WARM_QUESTION = "summarise the audit"
"""A question that reaches most of a report (findings, figures, people) and the playbook."""
WARM_BUDGET_S = 15.0
"""Start-up time spent warming at most: with hundreds of reports, the first ones (and the
shared word tables) are warmed here and the rest are indexed by each worker on first use."""


def warm(reports: ReportStore, *, playbook_text: str = "", budget_s: float = WARM_BUDGET_S) -> int:
    """Build the verifier's tables and each report's derived indexes in this process, for
    at most ``budget_s`` seconds (at least one report); how many reports were warmed."""
    started = time.perf_counter()
    deps = TurnDeps(
        reports=reports,
        state=memory_store(),
        model=OfflineAnswerer(),
        playbook_text=playbook_text,
        enforce_access=False,
    )
    where = Conversation(team="preload", channel="preload")
    warmed = 0
    for report in reports.all():
        if warmed and time.perf_counter() - started > budget_s:
            break
        run_turn(WARM_QUESTION, where, deps, report=report.slug)
        warmed += 1
    logger.info(
        "preloaded %d of %d reports for the workers in %.0f ms",
        warmed,
        len(reports.all()),
        (time.perf_counter() - started) * 1000,
    )
    return warmed


def freeze() -> None:
    """Collect once, then keep every object alive so far out of later collections."""
    gc.collect()
    gc.freeze()
