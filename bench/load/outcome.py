"""What the burst did: ack latency, replies per distinct message, losses, model calls, memory.

Replies are counted where the rep would see them — in ``FakeSlack``'s messages as they
stand at the end (a placeholder replaced by ``chat.update`` is one reply, the answer). A
channel mention is answered in its own thread, so its replies are exactly the bot's
non-placeholder messages in that thread. DM replies are posted in place, so nothing in
Slack ties one to the message it answers; for a DM message the bench therefore takes:

- the app's own account: each ``slack message <team:channel:ts> … handled=<outcome>`` log
  line that is not ``duplicate`` posts exactly one final message;
- cross-checked per DM against ``FakeSlack`` (the final messages in the DM must equal the
  sum of those accounts) and against the conversation history in Redis (each answered
  question appears there once, in the order answered).

A message is *lost* when no final reply exists for it; a placeholder never replaced counts
as lost too. (The history check needs a DM to hold no more messages than the app's history
keeps — 20 — which the default plan's 10 per DM respects.)
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter, defaultdict
from dataclasses import dataclass

from pydantic import BaseModel

from bench.load.plan import Message, Plan
from bench.load.responder import is_judge_request
from bench.load.sender import Sent
from bench.load.watch import HostStats, MasterStats, WorkerStats
from prism_slack.ports import HistoryTurn
from prism_slack.render.blocks import FEEDBACK_BLOCK_ID
from prism_slack.slack.texts import PLACEHOLDER
from prism_slack.testing.fake_gemini import RecordedRequest
from prism_slack.testing.fake_slack import FakeMessage, RecordedCall

HANDLED = re.compile(
    r"slack message (?P<key>\S+) kind=(?P<kind>\w+) handled=(?P<handled>\w+) retry=(?P<retry>\S+)"
    r"(?: latency_ms=(?P<ms>[\d.]+))?"
)
_STAMP = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) ")
_LEVEL = re.compile(r" (WARNING|ERROR|CRITICAL) (\S+) (.*)$")
_DIGITS = re.compile(r"\d+(?:\.\d+)?")


class Latency(BaseModel):
    count: int
    p50_ms: float | None
    p95_ms: float | None
    p99_ms: float | None
    max_ms: float | None
    mean_ms: float | None


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (``p`` in 0-100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))  # ceil(n·p/100), at least 1
    return ordered[int(rank) - 1]


def latency(values: list[float]) -> Latency:
    if not values:
        return Latency(count=0, p50_ms=None, p95_ms=None, p99_ms=None, max_ms=None, mean_ms=None)
    return Latency(
        count=len(values),
        p50_ms=round(percentile(values, 50), 1),
        p95_ms=round(percentile(values, 95), 1),
        p99_ms=round(percentile(values, 99), 1),
        max_ms=round(max(values), 1),
        mean_ms=round(sum(values) / len(values), 1),
    )


class Sends(BaseModel):
    distinct_messages: int
    dm_messages: int
    mention_messages: int
    deliveries: int
    first: int
    duplicates: int
    retries: int
    statuses: dict[str, int]
    errors: dict[str, int]
    reconnects: int
    max_lag_ms: float
    burst_s: float


class Replies(BaseModel):
    per_message_min: int
    per_message_max: int
    messages_not_exactly_one: int
    lost: int
    answers: int
    """Final replies that are answers (they carry the feedback buttons)."""
    notes: dict[str, int]
    """Final replies that are not answers, by text (busy, rate limited, failed…)."""
    placeholders_posted: int
    placeholders_left: int
    dm_attribution_mismatches: list[str]
    dm_out_of_order: int
    """DMs whose answers (history order) are not in the order the rep sent them."""
    dm_answered_early: int
    """DM messages answered before a message the rep sent earlier in the same DM."""
    dm_missing_from_history: int
    """DM messages the app answered that are not in their DM's history."""
    handled: dict[str, int]
    """Every delivery's outcome, from the app's log."""
    peak_listeners: int
    """Most deliveries in the listener pools at one moment, all workers together."""
    time_to_last_reply_s: float | None
    last_reply_after_last_send_s: float | None
    mention_time_to_progress: Latency
    """From a mention to the first sign of work in its thread: ``setStatus``, or the
    placeholder where Slack refused it."""
    mention_time_to_answer: Latency


class ModelCalls(BaseModel):
    answer: int
    judge: int
    answer_per_message: float
    judge_per_message: float
    total_per_message: float
    responder: dict[str, int]


class Workers(BaseModel):
    workers: list[WorkerStats]
    master: MasterStats | None = None
    pids_seen: list[int]
    replaced: bool
    """Whether a worker died and gunicorn started another during the run."""
    host: HostStats


class Second(BaseModel):
    """One second of the run (from the burst's start): what was sent, acked and posted."""

    second: int
    deliveries: int
    ack_p50_ms: float | None
    ack_max_ms: float | None
    final_replies: int


class LoadResult(BaseModel):
    config: dict[str, object]
    sends: Sends
    ack_all: Latency
    ack_by_role: dict[str, Latency]
    replies: Replies
    model_calls: ModelCalls
    workers: Workers
    log_problems: dict[str, int]
    timeline: list[Second]
    targets: dict[str, bool]
    kill: dict[str, object] | None = None
    """With ``--kill-worker-at``: the worker killed, the turns it held, the recovery time."""


@dataclass(frozen=True)
class Observed:
    """Everything the analysis reads, collected once the app has settled."""

    plan: Plan
    team: str
    start_at: float
    sent: list[Sent]
    calls: list[RecordedCall]
    messages: list[FakeMessage]
    model_requests: list[RecordedRequest]
    responder_counts: dict[str, int]
    log_text: str
    histories: dict[str, list[HistoryTurn]]
    workers: list[WorkerStats]
    worker_pids_seen: list[int]
    host: HostStats
    master: MasterStats | None = None


def handled_lines(log_text: str) -> list[tuple[str, str]]:
    """(claim key, outcome) of every ``slack message … handled=…`` log line."""
    return [(m["key"], m["handled"]) for m in HANDLED.finditer(log_text)]


def peak_listeners(log_text: str) -> int:
    """The most deliveries being handled at one moment, over every worker.

    Each handled line ends an interval of ``latency_ms`` (from the listener starting to its
    last post) at the line's timestamp; this is the deepest overlap of those intervals.
    """
    edges: list[tuple[float, int]] = []
    for line in log_text.splitlines():
        handled, stamp = HANDLED.search(line), _STAMP.match(line)
        if handled is None or stamp is None or handled["ms"] is None:
            continue
        end = dt.datetime.fromisoformat(stamp[1]).timestamp() + int(stamp[2]) / 1000
        edges += [(end - float(handled["ms"]) / 1000, 1), (end, -1)]
    running = peak = 0
    for _, step in sorted(edges):
        running += step
        peak = max(peak, running)
    return peak


def log_problems(log_text: str) -> dict[str, int]:
    """WARNING/ERROR lines by logger and message shape (digits blanked), most frequent first."""
    shapes: Counter[str] = Counter()
    for line in log_text.splitlines():
        match = _LEVEL.search(line)
        if match:
            shapes[f"{match[1]} {match[2]}: {_DIGITS.sub('#', match[3])[:120]}"] += 1
        elif line.startswith("Traceback"):
            shapes["Traceback"] += 1
    return dict(shapes.most_common(20))


def analyse(seen: Observed, config: dict[str, object]) -> LoadResult:
    plan = seen.plan
    sends = _sends(seen)
    acks = [s.latency_ms for s in seen.sent if s.status == 200]
    by_role: dict[str, list[float]] = defaultdict(list)
    for s in seen.sent:
        if s.status == 200:
            by_role[plan.deliveries[s.index].role].append(s.latency_ms)
    replies = _replies(seen)
    calls = _model_calls(seen, len(plan.messages))
    workers = Workers(
        workers=seen.workers,
        master=seen.master,
        pids_seen=seen.worker_pids_seen,
        replaced=len(seen.worker_pids_seen) > len(seen.workers),
        host=seen.host,
    )
    ack_all = latency(acks)
    targets = {
        "ack_p99_under_100ms": ack_all.p99_ms is not None and ack_all.p99_ms < 100.0,
        # A DM whose replies in Slack differ from the app's account is not exactly-once,
        # whichever of its messages got the extra (or missing) reply.
        "exactly_one_reply_per_message": replies.messages_not_exactly_one == 0
        and not replies.dm_attribution_mismatches,
        "zero_lost": replies.lost == 0,
        "every_delivery_acked_200": sends.statuses == {"200": sends.deliveries},
    }
    return LoadResult(
        config=config,
        sends=sends,
        ack_all=ack_all,
        ack_by_role={role: latency(v) for role, v in sorted(by_role.items())},
        replies=replies,
        model_calls=calls,
        workers=workers,
        log_problems=log_problems(seen.log_text),
        timeline=timeline(seen),
        targets=targets,
    )


def timeline(seen: Observed) -> list[Second]:
    """Per second since the burst began: deliveries, their acks, final replies posted."""
    acks: dict[int, list[float]] = defaultdict(list)
    for s in seen.sent:
        if s.status == 200:
            acks[int(s.started - seen.start_at)].append(s.latency_ms)
    finals: Counter[int] = Counter(
        int(f.at - seen.start_at) for f in _finals(seen.calls, seen.messages) if f.at is not None
    )
    last = max([*acks, *finals], default=-1)
    return [
        Second(
            second=t,
            deliveries=len(acks[t]),
            ack_p50_ms=round(percentile(acks[t], 50), 1) if acks[t] else None,
            ack_max_ms=round(max(acks[t]), 1) if acks[t] else None,
            final_replies=finals[t],
        )
        for t in range(max(0, last + 1))
    ]


def _sends(seen: Observed) -> Sends:
    plan = seen.plan
    statuses = Counter(str(s.status) for s in seen.sent)
    errors = Counter(s.error for s in seen.sent if s.error)
    first_start = min((s.started for s in seen.sent), default=seen.start_at)
    last_start = max((s.started for s in seen.sent), default=seen.start_at)
    return Sends(
        distinct_messages=len(plan.messages),
        dm_messages=sum(m.dm for m in plan.messages),
        mention_messages=sum(not m.dm for m in plan.messages),
        deliveries=len(plan.deliveries),
        first=plan.count("first"),
        duplicates=plan.count("duplicate"),
        retries=plan.count("retry"),
        statuses=dict(statuses),
        errors=dict(errors),
        reconnects=sum(s.reconnected for s in seen.sent),
        max_lag_ms=round(max((s.lag_ms for s in seen.sent), default=0.0), 1),
        burst_s=round(last_start - first_start, 2),
    )


@dataclass(frozen=True)
class _Final:
    channel: str
    thread_ts: str | None
    text: str
    answer: bool
    at: float | None


def _finals(calls: list[RecordedCall], messages: list[FakeMessage]) -> list[_Final]:
    """The bot's messages that are not placeholders, with the time they got their text."""
    updated_at: dict[tuple[str, str], float] = {}
    posted: dict[tuple[str, str | None, str], list[float]] = defaultdict(list)
    for call in calls:
        if not call.ok:
            continue
        if call.method == "chat.update":
            updated_at[(call.params["channel"], call.params["ts"])] = call.at
        elif call.method == "chat.postMessage":
            key = (
                call.params["channel"],
                call.params.get("thread_ts") or None,
                call.params["text"],
            )
            posted[key].append(call.at)
    finals = []
    for m in messages:
        if m.text == PLACEHOLDER:
            continue
        at = updated_at.get((m.channel, m.ts)) if m.updates else None
        if at is None:
            times = posted.get((m.channel, m.thread_ts, m.text))
            at = times.pop(0) if times else None
        answer = any(b.get("block_id") == FEEDBACK_BLOCK_ID for b in m.blocks)
        finals.append(_Final(m.channel, m.thread_ts, m.text, answer, at))
    return finals


Target = tuple[str, str | None]
"""Where replies to a message go: (channel, thread ts), ``None`` for a DM's top level."""


@dataclass
class _Tally:
    """Per-message reply counts and the DM cross-checks, filled in by the helpers below."""

    counts: dict[int, int]
    mismatches: list[str]
    lost_unattributed: int = 0
    out_of_order: int = 0
    early: int = 0
    missing_from_history: int = 0


def _replies(seen: Observed) -> Replies:
    finals = _finals(seen.calls, seen.messages)
    by_target: dict[Target, list[_Final]] = defaultdict(list)
    for final in finals:
        by_target[(final.channel, final.thread_ts)].append(final)
    placeholders = _placeholders(seen.calls)
    progress = _progress(seen.calls, placeholders)
    handled = handled_lines(seen.log_text)
    sent_at = _first_sent(seen)
    tally = _Tally(counts={}, mismatches=[])
    to_progress, to_answer = _count_mentions(seen.plan, by_target, progress, sent_at, tally)
    _count_dms(seen, by_target, handled, tally)
    per_message = list(tally.counts.values()) or [0]
    reply_times = [f.at for f in finals if f.at is not None]
    last_reply = max(reply_times, default=None)
    last_send = max((s.started for s in seen.sent), default=seen.start_at)
    since_start = None if last_reply is None else round(last_reply - seen.start_at, 2)
    since_last_send = None if last_reply is None else round(last_reply - last_send, 2)
    return Replies(
        per_message_min=min(per_message),
        per_message_max=max(per_message),
        messages_not_exactly_one=sum(c != 1 for c in per_message),
        lost=sum(c == 0 for c in per_message) + tally.lost_unattributed,
        answers=sum(f.answer for f in finals),
        notes=dict(Counter(f.text[:80] for f in finals if not f.answer)),
        placeholders_posted=sum(len(v) for v in placeholders.values()),
        placeholders_left=sum(m.text == PLACEHOLDER for m in seen.messages),
        dm_attribution_mismatches=tally.mismatches,
        dm_out_of_order=tally.out_of_order,
        dm_answered_early=tally.early,
        dm_missing_from_history=tally.missing_from_history,
        handled=dict(Counter(outcome for _, outcome in handled)),
        peak_listeners=peak_listeners(seen.log_text),
        time_to_last_reply_s=since_start,
        last_reply_after_last_send_s=since_last_send,
        mention_time_to_progress=latency(to_progress),
        mention_time_to_answer=latency(to_answer),
    )


def _placeholders(calls: list[RecordedCall]) -> dict[Target, list[float]]:
    """When each placeholder was posted, by where it was posted."""
    found: dict[Target, list[float]] = defaultdict(list)
    for call in calls:
        if call.method == "chat.postMessage" and call.params.get("text") == PLACEHOLDER:
            found[(call.params["channel"], call.params.get("thread_ts") or None)].append(call.at)
    return found


def _progress(
    calls: list[RecordedCall], placeholders: dict[Target, list[float]]
) -> dict[Target, list[float]]:
    """When each thread first showed work: its ``setStatus`` calls and its placeholders."""
    found: dict[Target, list[float]] = defaultdict(list, placeholders)
    for call in calls:
        if call.method == "assistant.threads.setStatus" and call.ok:
            found[(call.params["channel_id"], call.params.get("thread_ts") or None)].append(call.at)
    return {target: sorted(times) for target, times in found.items()}


def _first_sent(seen: Observed) -> dict[int, float]:
    """When each message's first delivery was sent."""
    sent_at: dict[int, float] = {}
    for s in seen.sent:
        i = seen.plan.deliveries[s.index].message
        sent_at[i] = min(sent_at.get(i, s.started), s.started)
    return sent_at


def _count_mentions(
    plan: Plan,
    by_target: dict[Target, list[_Final]],
    progress: dict[Target, list[float]],
    sent_at: dict[int, float],
    tally: _Tally,
) -> tuple[list[float], list[float]]:
    """Replies per mention (its thread's final messages); time to progress and answer."""
    to_progress: list[float] = []
    to_answer: list[float] = []
    for m in plan.messages:
        if m.dm:
            continue
        thread = by_target.get((m.channel, m.ts), [])
        tally.counts[m.index] = len(thread)
        sent = sent_at.get(m.index)
        if sent is None:
            continue
        shown = progress.get((m.channel, m.ts))
        if shown:
            to_progress.append((shown[0] - sent) * 1000)
        answered = [f.at for f in thread if f.answer and f.at is not None]
        if answered:
            to_answer.append((min(answered) - sent) * 1000)
    return to_progress, to_answer


def _count_dms(
    seen: Observed,
    by_target: dict[Target, list[_Final]],
    handled: list[tuple[str, str]],
    tally: _Tally,
) -> None:
    """Replies per DM message (the app's account), cross-checked with Slack and history."""
    accounted = Counter(key for key, outcome in handled if outcome != "duplicate")
    in_dm: dict[str, list[Message]] = defaultdict(list)
    for m in seen.plan.messages:
        if m.dm:
            in_dm[m.channel].append(m)
            tally.counts[m.index] = accounted[m.claim_key(seen.team)]
    for channel, sent in in_dm.items():
        in_slack = len(by_target.get((channel, None), []))
        account = sum(tally.counts[m.index] for m in sent)
        if in_slack != account:
            tally.mismatches.append(
                f"{channel}: {in_slack} replies in Slack, the app accounts for {account}"
            )
            unanswered = sum(tally.counts[m.index] == 0 for m in sent)
            tally.lost_unattributed += max(0, len(sent) - in_slack - unanswered)
        order = _history_order(seen.histories.get(channel, []), sent)
        tally.missing_from_history += max(0, len(sent) - len(set(order)))
        if order != sorted(order):
            tally.out_of_order += 1
            tally.early += answered_early(order)


def answered_early(order: list[int]) -> int:
    """How many of ``order`` come before some smaller (earlier-sent) index."""
    early, lowest_after = 0, None
    for index in reversed(order):
        if lowest_after is not None and lowest_after < index:
            early += 1
        lowest_after = index if lowest_after is None else min(lowest_after, index)
    return early


def _history_order(history: list[HistoryTurn], sent: list[Message]) -> list[int]:
    """The indices of ``sent`` in the order their answers entered the history."""
    by_tag = {m.tag: m.index for m in sent}
    order = []
    for turn in history:
        for tag, index in by_tag.items():
            if f"({tag})" in turn.question:
                order.append(index)
                break
    return order


def _model_calls(seen: Observed, distinct: int) -> ModelCalls:
    judge = sum(is_judge_request(r.body) for r in seen.model_requests)
    answer = len(seen.model_requests) - judge
    n = max(1, distinct)
    return ModelCalls(
        answer=answer,
        judge=judge,
        answer_per_message=round(answer / n, 3),
        judge_per_message=round(judge / n, 3),
        total_per_message=round((answer + judge) / n, 3),
        responder=dict(seen.responder_counts),
    )
