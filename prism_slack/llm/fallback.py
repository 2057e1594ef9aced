"""``FallbackModel``: an ``AnswerModel`` made of two (after pydantic-ai's FallbackModel).

It asks ``primary`` (Gemini); when that fails outright it asks ``fallback`` (the offline
facts-only answerer) and tells the rep, through the request's trace, that the answer
comes from the fallback. The pipeline sees one model and holds no fallback policy.

A refused key (``ModelAuthError``: 401/403, an invalid key) will not fix itself: it is
logged once, as an ERROR naming ``GEMINI_API_KEY``, and quietly after that; any other
failure is a WARNING each time it happens.
"""

from __future__ import annotations

import logging
import threading

from prism_slack.calls import call_answer_model
from prism_slack.claims import Answer
from prism_slack.errors import ModelAuthError, ModelError
from prism_slack.ports import AnswerModel, AnswerRequest

logger = logging.getLogger(__name__)


class FallbackModel:
    """``primary``, and ``fallback`` when ``primary`` raises ``ModelError``."""

    def __init__(self, primary: AnswerModel, fallback: AnswerModel) -> None:
        self.primary = primary
        self.fallback = fallback
        self.name = primary.name
        self._lock = threading.Lock()
        self._auth_reported = False

    def answer(self, request: AnswerRequest) -> Answer:
        try:
            return call_answer_model(self.primary, request)
        except ModelError as e:
            self._report(e)
            failure = e
        answer = call_answer_model(self.fallback, request)
        request.trace.answered_by = self.fallback.name
        request.trace.notice = (
            f"The {self.primary.name} model was unavailable ({type(failure).__name__}); "
            f"this answer comes from the {self.fallback.name} facts-only answerer."
        )
        return answer

    def _report(self, error: ModelError) -> None:
        if not isinstance(error, ModelAuthError):
            logger.warning(
                "answer model %s failed (%s); answering with %s",
                self.primary.name,
                type(error).__name__,
                self.fallback.name,
            )
            return
        with self._lock:
            first, self._auth_reported = not self._auth_reported, True
        if first:
            logger.error(
                "answer model %s refused the API key — check GEMINI_API_KEY; every answer "
                "comes from %s until it is fixed (logged once): %s",
                self.primary.name,
                self.fallback.name,
                error,
            )
        else:
            logger.debug("answer model %s still refuses the API key", self.primary.name)
