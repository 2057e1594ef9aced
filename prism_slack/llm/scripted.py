"""Scripted model and judge: replay given outputs in order. First-class fakes for tests."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Literal, TypeVar

from prism_slack.claims import Answer, parse_answer
from prism_slack.errors import AnswerParseError, ModelError, ModelOutputError
from prism_slack.ports import AnswerRequest, JudgeAnswer, JudgeRequest, JudgeVerdict

AnswerStep = Answer | str | dict[str, object] | Exception
JudgeStep = JudgeAnswer | JudgeVerdict | Exception
T = TypeVar("T")


class ScriptedModel:
    """An ``AnswerModel`` that replays ``steps`` in order.

    A step is an ``Answer``, raw model text or a dict (parsed like real model output, so
    garbage raises ``ModelOutputError``), or an exception to raise. With ``repeat`` the last
    step is replayed forever; otherwise running out raises ``ModelError``. Every request
    is kept in ``requests``.
    """

    def __init__(
        self, steps: Iterable[AnswerStep], *, name: str = "scripted", repeat: bool = False
    ) -> None:
        self.name = name
        self._steps = list(steps)
        self._repeat = repeat
        self._lock = threading.Lock()
        self.requests: list[AnswerRequest] = []

    def answer(self, request: AnswerRequest) -> Answer:
        with self._lock:
            self.requests.append(request)
            step = _next(self._steps, self._repeat, self.name)
        if isinstance(step, Exception):
            raise step
        if isinstance(step, Answer):
            return step
        try:
            return parse_answer(step)
        except AnswerParseError as e:
            raw = step if isinstance(step, str) else repr(step)
            raise ModelOutputError(f"model output broke the claim contract: {e}", raw) from e


class ScriptedJudge:
    """A ``Judge`` that replays steps in order, one per request; see ``ScriptedModel``.

    A ``JudgeAnswer`` step is returned as is (so a test can send a wrong or missing id);
    a ``JudgeVerdict`` step (see ``each``) is that verdict for every claim of the request,
    under each claim's id; an exception is raised.
    """

    def __init__(
        self, steps: Iterable[JudgeStep], *, name: str = "scripted-judge", repeat: bool = False
    ) -> None:
        self.name = name
        self._steps = list(steps)
        self._repeat = repeat
        self._lock = threading.Lock()
        self.requests: list[JudgeRequest] = []

    def judge(self, request: JudgeRequest) -> JudgeAnswer:
        with self._lock:
            self.requests.append(request)
            step = _next(self._steps, self._repeat, self.name)
        if isinstance(step, Exception):
            raise step
        if isinstance(step, JudgeAnswer):
            return step
        return JudgeAnswer(verdicts=[step.model_copy(update={"id": i}) for i in request.ids])


def each(
    verdict: Literal["supported", "unsupported", "contradicted"], rewrite: str | None = None
) -> JudgeVerdict:
    """A ``ScriptedJudge`` step: ``verdict`` (and ``rewrite``) for every claim it is sent."""
    return JudgeVerdict(id="*", verdict=verdict, rewrite=rewrite)


def _next(steps: list[T], repeat: bool, name: str) -> T:
    if not steps:
        raise ModelError(f"{name}: script exhausted")
    return steps[0] if repeat and len(steps) == 1 else steps.pop(0)
