"""How a caller asks an ``AnswerModel``: one ``ModelCall`` per model asked, with its cost.

``call_answer_model`` is what the pipeline (and ``FallbackModel``, a model made of two)
uses to ask a model: it times the call, records it in ``request.trace`` with the token
usage the model reported there (Gemini does; a local model reports none) and logs one
line with ids, latency and tokens, never text.
"""

from __future__ import annotations

import logging
import time

from prism_slack.claims import Answer
from prism_slack.errors import ModelError
from prism_slack.ports import AnswerModel, AnswerRequest, AnswerTrace, ModelCall

logger = logging.getLogger(__name__)


def call_answer_model(model: AnswerModel, request: AnswerRequest) -> Answer:
    """``model``'s answer to ``request``; the call is recorded in ``request.trace``.

    A model that records calls of its own (one made of others) is not recorded again.
    """
    trace = request.trace
    before = len(trace.calls)
    trace.usage = None
    started = time.perf_counter()
    try:
        answer = model.answer(request)
    except ModelError as e:
        if len(trace.calls) == before:
            _record(trace, model.name, started, error=str(e))
        raise
    if len(trace.calls) == before:
        _record(trace, model.name, started, claims=len(answer.claims))
    trace.answered_by = trace.answered_by or model.name
    return answer


def _record(
    trace: AnswerTrace,
    name: str,
    started: float,
    *,
    error: str | None = None,
    claims: int | None = None,
) -> None:
    latency = (time.perf_counter() - started) * 1000
    usage, trace.usage = trace.usage, None
    trace.calls.append(
        ModelCall(
            role="answer",
            model=name,
            ok=error is None,
            latency_ms=latency,
            error=error,
            usage=usage,
        )
    )
    logger.info(
        "answer call model=%s ok=%s claims=%s latency_ms=%.1f%s",
        name,
        error is None,
        "-" if claims is None else claims,
        latency,
        f" {usage.log_fields()}" if usage is not None else "",
    )
