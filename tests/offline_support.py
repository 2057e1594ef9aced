"""Small reports of their own for the offline answerer's reading tests
(``test_offline_reading.py``, ``test_offline_house_styles.py``): an envelope, the turn
dependencies over a directory of them, and a conversation asked through the whole turn."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from prism_slack.llm.offline import OfflineAnswerer
from prism_slack.llm.playbook import load_playbook
from prism_slack.pipeline.result import TurnResult
from prism_slack.pipeline.turn import TurnDeps, run_turn
from prism_slack.ports import Conversation
from prism_slack.reports.store import FileReportStore
from prism_slack.state.redis_store import memory_store


def envelope(name: str, **data: Any) -> dict[str, Any]:
    return {
        "company": {"name": name, "aliases": []},
        "report": {"id": f"R-{name[:3].upper()}", "generated_at": "2026-05-01"},
        **data,
    }


def offline_deps(root: Path, reports: dict[str, dict[str, Any]]) -> TurnDeps:
    """The offline answerer over ``reports`` (slug → data), written under ``root``."""
    for slug, data in reports.items():
        (root / slug).mkdir()
        (root / slug / "audit-data.json").write_text(json.dumps(data))
    playbook = load_playbook()
    return TurnDeps(
        reports=FileReportStore(root),
        state=memory_store(),
        model=OfflineAnswerer(),
        playbook_text=playbook.render(),
        vocabulary=playbook.vocabulary(),
        enforce_access=False,
    )


def ask(deps: TurnDeps, slug: str, *questions: str) -> TurnResult:
    """Ask ``questions`` in one thread; the last turn's result, every claim posted."""
    where = Conversation(team="T", channel="C", thread="-".join(questions))
    result = None
    for q in questions:
        result = run_turn(q, where, deps, report=slug)
    assert result is not None
    assert not result.withheld, result.withheld  # the answerer's own claims are all posted
    return result


def texts(result: TurnResult) -> list[str]:
    return [p.text for p in result.posted]


def cited(result: TurnResult) -> list[str]:
    return [f.path for f in result.footnotes]
