"""Composition root: build the pipeline's ports from ``Settings``, once, at the entry point.

- reports: ``FileReportStore(settings.prism_reports_dir)``
- state: Redis at ``REDIS_URL``, else the in-memory embedded default (with a warning)
- model: Gemini with the offline answerer behind it (a ``FallbackModel``) and the Gemini
  judge when ``GEMINI_API_KEY`` is set, else the offline facts-only answerer and no judge
"""

from __future__ import annotations

import logging

from prism_slack.llm.fallback import FallbackModel
from prism_slack.llm.offline import OfflineAnswerer
from prism_slack.llm.playbook import load_playbook
from prism_slack.pipeline.turn import TurnDeps
from prism_slack.ports import AnswerModel, Judge, ReportStore, StateStore
from prism_slack.reports.store import FileReportStore
from prism_slack.settings import Settings
from prism_slack.state.redis_store import open_state_store

logger = logging.getLogger(__name__)


def build_models(settings: Settings) -> tuple[AnswerModel, Judge | None]:
    """(answer model, judge) for these settings."""
    offline = OfflineAnswerer()
    if settings.gemini_api_key is None:
        logger.info("no GEMINI_API_KEY: answering with the offline facts-only answerer")
        return offline, None
    from prism_slack.llm.gemini import GeminiAnswerModel, GeminiClient, GeminiJudge

    client = GeminiClient.from_settings(settings)
    return FallbackModel(GeminiAnswerModel(client), offline), GeminiJudge(client)


def open_report_store(settings: Settings) -> FileReportStore:
    return FileReportStore(settings.prism_reports_dir, max_bytes=settings.report_max_bytes)


def open_state(settings: Settings) -> StateStore:
    """The state store: Redis at ``REDIS_URL``, else the in-memory embedded default."""
    url = settings.redis_url.get_secret_value() if settings.redis_url else None
    return open_state_store(url)


def build_turn_deps(
    settings: Settings,
    *,
    reports: ReportStore | None = None,
    state: StateStore | None = None,
) -> TurnDeps:
    """Every port from ``settings``; ``reports``/``state`` may be given to share them."""
    model, judge = build_models(settings)
    playbook = load_playbook()
    return TurnDeps(
        reports=reports or open_report_store(settings),
        state=state or open_state(settings),
        model=model,
        judge=judge,
        judge_mode=settings.prism_judge,
        playbook_text=playbook.render(),
        vocabulary=playbook.vocabulary(),
    )
