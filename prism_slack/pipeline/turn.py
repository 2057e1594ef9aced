"""One turn, for every surface: resolve binding → inject → answer → verify → judge → compose.

Surfaces (CLI, Slack) only translate in and out: they call ``run_turn`` and render the
``TurnResult`` it returns. Nothing a rep or a dependency can cause makes it raise; every
failure is a result whose ``message`` says what happened, and nothing unverified is posted.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from prism_slack.calls import call_answer_model
from prism_slack.claims import Answer
from prism_slack.errors import ModelError, StoreUnavailable, UnknownReportError
from prism_slack.pipeline.binding import possessive
from prism_slack.pipeline.compose import compose
from prism_slack.pipeline.inject import answer_prompt
from prism_slack.pipeline.judge import judge_rewrite
from prism_slack.pipeline.question import ENGLISH_ONLY, english, plain
from prism_slack.pipeline.result import Outcome, TurnResult
from prism_slack.ports import (
    AnswerModel,
    AnswerRequest,
    AuditRecord,
    Conversation,
    ConversationStore,
    HistoryTurn,
    Judge,
    ModelCall,
    ReportStore,
)
from prism_slack.reports.detect import unknown_company
from prism_slack.reports.model import Report
from prism_slack.verdict import JudgeMode, Method, answer_label
from prism_slack.verify import verify_answer

logger = logging.getLogger(__name__)

MAX_QUESTION_CHARS = 4000
STORE_DOWN = (
    "I can't reach my store right now, so I can't tell which report this conversation is "
    "bound to. Nothing was lost — try again in a minute."
)
HOW_TO_BIND = "Name the company in your question, or bind a report with `/prism bind <company>`."


def _utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass
class TurnDeps:
    """The ports a turn runs on. Surfaces build this once and reuse it."""

    reports: ReportStore
    state: ConversationStore
    """Bindings, history and audit records (the Slack side keeps its own ``DeliveryStore``)."""
    model: AnswerModel
    """The answer model; a ``FallbackModel`` when Gemini has the offline answerer behind it."""
    judge: Judge | None = None
    judge_mode: JudgeMode = "auto"
    playbook_text: str = ""
    """The coaching playbook as given to the model."""
    vocabulary: frozenset[str] = frozenset()
    """Names always allowed in claims (playbook frame and move ids and titles)."""
    clock: Callable[[], dt.datetime] = field(default=_utcnow)
    history_turns: int = 6
    enforce_access: bool = True
    """Honour reports' ``access.channels`` (off for the operator's own terminal)."""


class _Timer:
    def __init__(self) -> None:
        self.ms: dict[str, float] = {}

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self.ms[name] = round((time.perf_counter() - started) * 1000, 3)


def run_turn(
    question: str, where: Conversation, deps: TurnDeps, *, report: str | None = None
) -> TurnResult:
    """Answer ``question`` in conversation ``where``; ``report`` pins a slug explicitly."""
    timer = _Timer()
    base = TurnResult(outcome=Outcome.ANSWERED, conversation=where, question=question)
    text = plain(question)
    if not text:
        return _reply(base, Outcome.INVALID, "That message is empty — ask me about the prospect.")
    if not english(text):
        return _reply(base, Outcome.INVALID, ENGLISH_ONLY)
    notices: list[str] = []
    if len(text) > MAX_QUESTION_CHARS:
        notices.append(
            f"Your message was cut to its first {MAX_QUESTION_CHARS:,} characters "
            f"(it had {len(text):,})."
        )
        text = text[:MAX_QUESTION_CHARS]
    try:
        with timer.stage("resolve"):
            resolved = _resolve(text, where, deps, report, base)
            if isinstance(resolved, TurnResult):
                return resolved
            bound, rebound = resolved
            history = deps.state.history(where)[-deps.history_turns :] if deps.history_turns else []
    except StoreUnavailable:
        logger.warning("state store unavailable while resolving the binding")
        return _reply(base, Outcome.FAILED, STORE_DOWN)
    if not _usable(bound, where, deps):
        message = f"{possessive(bound.company.name)} audit report can't be used in this channel."
        return _reply(base, Outcome.REFUSED, message)
    if rebound:
        notices.append(f"Now answering from {possessive(bound.company.name)} audit report.")
    return _answer_turn(
        text, where, deps, bound, history=history, notices=notices, timer=timer, base=base
    )


def _answer_turn(
    text: str,
    where: Conversation,
    deps: TurnDeps,
    report: Report,
    *,
    history: list[HistoryTurn],
    notices: list[str],
    timer: _Timer,
    base: TurnResult,
) -> TurnResult:
    with timer.stage("inject"):
        prompt = answer_prompt(text, report, history, deps.playbook_text)
    with timer.stage("answer"):
        request = AnswerRequest(question=text, report=report, prompt=prompt, history=history)
        answer = _ask(deps.model, request)
    calls: list[ModelCall] = list(request.trace.calls)
    model_name = request.trace.answered_by or deps.model.name
    header = base.model_copy(
        update={
            "report": report.slug,
            "company": report.company.name,
            "report_id": report.id,
            "report_date": report.generated_at,
        }
    )
    audit = AuditRecord(
        turn_id=uuid.uuid4().hex,
        at=deps.clock(),
        conversation=where,
        report=report.slug,
        report_id=report.id,
        report_digest=report.digest,
        evidence_root=report.evidence.root,
        model=model_name,
        prompt_digest=prompt.digest,
    )
    if answer is None:
        message = (
            "The model couldn't answer just now, so I'm not posting anything I can't verify. "
            "Try again in a minute."
        )
        audit = audit.model_copy(
            update={"outcome": Outcome.FAILED.value, "model_calls": calls, "timings_ms": timer.ms}
        )
        _save(deps, where, audit, None)
        return _reply(header, Outcome.FAILED, message, audit=audit, calls=calls, timer=timer)
    if request.trace.notice:
        notices.append(request.trace.notice)
    with timer.stage("verify"):
        verdicts = verify_answer(answer, report, allowed=deps.vocabulary)
    with timer.stage("judge"):
        judged = judge_rewrite(
            verdicts, report, judge=deps.judge, mode=deps.judge_mode, allowed=deps.vocabulary
        )
    calls += judged.calls
    with timer.stage("compose"):
        posted, footnotes = compose(
            judged.posted, report, rewritten=judged.rewritten, unchecked=judged.unchecked
        )
        label = answer_label(judged.posted, altered=bool(judged.withheld or judged.rewritten))
        method = Method.JUDGE if judged.judged else Method.DETERMINISTIC
        if not posted:
            notices.append("I couldn't verify an answer to that against the audit report.")
    audit = audit.model_copy(
        update={
            "verdicts": verdicts,
            "withheld": judged.withheld,
            "rewritten": len(judged.rewritten),
            "unchecked": len(judged.unchecked),
            "label": label,
            "method": method,
            "model_calls": calls,
            "timings_ms": timer.ms,
        }
    )
    answer_text = " ".join(p.text for p in posted)
    _save(deps, where, audit, HistoryTurn(question=text, answer=answer_text, report=report.slug))
    return header.model_copy(
        update={
            "notice": "\n".join(notices) or None,
            "posted": posted,
            "footnotes": footnotes,
            "withheld": judged.withheld,
            "verdicts": judged.posted,
            "label": label,
            "method": method,
            "audit": audit,
            "model_calls": calls,
            "timings_ms": timer.ms,
        }
    )


def _resolve(
    text: str, where: Conversation, deps: TurnDeps, explicit: str | None, base: TurnResult
) -> tuple[Report, bool] | TurnResult:
    """The report this turn answers from, and whether the message switched to it."""
    reports, state = deps.reports, deps.state
    if explicit is not None:
        try:
            report = reports.get(explicit)
        except UnknownReportError as e:
            return _reply(base, Outcome.FAILED, str(e).capitalize() + ".")
        other = _other_company(text, report.slug, deps)
        if other is not None:  # "Acme Corp revenue?" asked of another prospect's report
            message = f"I have no report for {other}; I have:"
            return _reply(base, Outcome.NEEDS_BINDING, message, candidates=_known(where, deps))
        if state.get_binding(where) != report.slug:
            state.set_binding(where, slug=report.slug)
        return report, False
    bound = (state.get_binding(where) if where.thread else None) or state.get_binding(
        where.channel_scope()
    )
    detection = reports.detect(text)
    named = [reports.get(slug) for slug in detection.slugs]
    usable = [r for r in named if _usable(r, where, deps)]
    if len([r for r in usable if r.slug in detection.named]) > 1:
        names = [r.company.name for r in usable if r.slug in detection.named]
        message = (
            f"You named {' and '.join(names)}. I answer from one audit report at a time: "
            "which one first?"
        )
        return _reply(base, Outcome.AMBIGUOUS, message, candidates=names)
    if detection.status == "ambiguous" and bound not in detection.slugs:
        if len(usable) > 1:
            names = [r.company.name for r in usable]
            message = f"That name fits {' and '.join(names)}: which one do you mean?"
            return _reply(base, Outcome.AMBIGUOUS, message, candidates=names)
        named = usable or named[:1]  # the one this channel may use, or a refusal below
    if named and named[0].slug != bound and (detection.status == "found" or len(named) == 1):
        report = named[0]
        if _usable(report, where, deps):
            state.set_binding(where, slug=report.slug)
        return report, bound is not None
    other = None if named else _other_company(text, bound, deps)
    if other is not None:
        message = f"I have no report for {other}; I have:"
        return _reply(base, Outcome.NEEDS_BINDING, message, candidates=_known(where, deps))
    if bound is None:
        message = "I don't know which prospect this is about yet. " + HOW_TO_BIND
        return _reply(base, Outcome.NEEDS_BINDING, message, candidates=_known(where, deps))
    try:
        return reports.get(bound), False
    except UnknownReportError:
        state.clear_binding(where if where.thread else where.channel_scope())
        message = f"The report bound here ({bound}) is no longer available. " + HOW_TO_BIND
        return _reply(base, Outcome.NEEDS_BINDING, message, candidates=_known(where, deps))


def _other_company(text: str, bound: str | None, deps: TurnDeps) -> str | None:
    """A company the question names that has no report: any name when nothing is bound;
    in a bound conversation, only a name with a legal suffix ("Acme Corp") that the bound
    report never mentions (a competitor or vendor it lists is not another prospect)."""
    name = unknown_company(text, capitalised=bound is None)
    if name is None or bound is None:
        return name
    try:
        report = deps.reports.get(bound)
    except UnknownReportError:
        return name
    head = name.split()[0].casefold()
    said = (str(leaf.value).casefold() for leaf in report.evidence)
    return None if any(head in value for value in said) else name


def _usable(report: Report, where: Conversation, deps: TurnDeps) -> bool:
    return report.usable_in(where.channel) or not deps.enforce_access


def _known(where: Conversation, deps: TurnDeps, limit: int = 6) -> list[str]:
    """Companies to offer when nothing is bound: only those usable here."""
    return [r.company.name for r in deps.reports.all() if _usable(r, where, deps)][:limit]


def _ask(model: AnswerModel, request: AnswerRequest) -> Answer | None:
    """The model's answer, or ``None`` when it failed (the reply then says so)."""
    try:
        return call_answer_model(model, request)
    except ModelError as e:
        logger.warning("answer model %s failed: %s", model.name, type(e).__name__)
        return None


def _save(
    deps: TurnDeps, where: Conversation, audit: AuditRecord, turn: HistoryTurn | None
) -> None:
    """Best effort: the answer is already verified; a store outage must not lose it."""
    try:
        deps.state.save_turn(audit, where, turn)
    except StoreUnavailable:
        logger.warning("state store unavailable; audit %s not saved", audit.turn_id)


def _reply(
    base: TurnResult,
    outcome: Outcome,
    message: str,
    *,
    candidates: list[str] | None = None,
    audit: AuditRecord | None = None,
    calls: list[ModelCall] | None = None,
    timer: _Timer | None = None,
) -> TurnResult:
    return base.model_copy(
        update={
            "outcome": outcome,
            "message": message,
            "candidates": candidates or [],
            "audit": audit,
            "model_calls": calls or [],
            "timings_ms": timer.ms if timer else {},
        }
    )
