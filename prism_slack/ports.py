"""The small interfaces the pipeline depends on (ports). Adapters live at the edge.

- ``ReportStore``: reports by slug, company detection (``reports/store.py``).
- ``ConversationStore`` (what the pipeline uses: bindings, history, audit) and
  ``DeliveryStore`` (what the Slack side uses: durable turns, engaged threads, rate limits,
  feedback, health); ``StateStore`` is both, on one Redis (``state/redis_store.py``; the
  embedded default runs it on an in-memory Redis).
- ``TurnQueue``: one worker's view of the durable turns (``state/turns.py``, a Redis
  Stream), with ``QueuedTurn``, ``Entry`` and ``TurnProgress``.
- ``AuditLog``: the most recent turns' audit records and their votes, for the operator
  (``prism feedback``; the same Redis store).
- ``AnswerModel``: question + injected report → claim-contract ``Answer``
  (``llm/offline.py``, ``llm/scripted.py``, ``llm/gemini.py``).
- ``Judge``: every claim of a turn that needs one, each with only its cited values, in ONE
  request → one ``JudgeVerdict`` per claim (``llm/gemini.py``, ``llm/scripted.py``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final, Literal, Protocol

from pydantic import BaseModel, ConfigDict, field_validator

from prism_slack.claims import Answer, Claim
from prism_slack.evidence import Leaf
from prism_slack.reports.model import Report
from prism_slack.usage import TokenUsage
from prism_slack.verdict import ClaimVerdict, Label, Method, Reason


class Conversation(BaseModel):
    """Where a turn happens. ``thread`` is ``None`` for a channel or DM as a whole."""

    model_config = ConfigDict(frozen=True)

    team: str
    channel: str
    thread: str | None = None

    def channel_scope(self) -> Conversation:
        return Conversation(team=self.team, channel=self.channel)


class HistoryTurn(BaseModel):
    """One earlier exchange of a conversation, as the model may see it."""

    question: str
    answer: str
    report: str | None = None


class Detection(BaseModel):
    """Which company a message talks about. ``found`` has one slug; ``ambiguous`` several."""

    status: Literal["found", "ambiguous", "none"]
    slugs: list[str] = []
    named: list[str] = []
    """The slugs named by a name of their own (not only by a name they share)."""


class ReportStore(Protocol):
    def get(self, slug: str) -> Report:
        """The report with that slug; raises ``UnknownReportError``."""
        ...

    def all(self) -> list[Report]: ...

    def detect(self, text: str) -> Detection: ...

    def suggest(self, text: str, limit: int = 3) -> list[str]:
        """Slugs of the companies whose names come closest to ``text``, best first."""
        ...


class ModelCall(BaseModel):
    """One call to a model, as recorded in the audit record (never its text)."""

    role: Literal["answer", "judge"]
    model: str
    ok: bool
    latency_ms: float
    error: str | None = None
    usage: TokenUsage | None = None
    """What the call cost, when the model reports it (a local model does not)."""


class WithheldClaim(BaseModel):
    claim: Claim
    reasons: list[str]
    """Why it was withheld, one line each; a verifier ``Reason`` is kept as its text."""

    @field_validator("reasons", mode="before")
    @classmethod
    def _as_text(cls, value: object) -> object:
        if isinstance(value, list):
            return [str(r) if isinstance(r, Reason) else r for r in value]
        return value


class AuditRecord(BaseModel):
    """What a turn retrieved and how it was decided (D4). Stored with every turn."""

    turn_id: str
    at: dt.datetime
    conversation: Conversation
    report: str | None
    report_id: str | None
    report_digest: str | None
    evidence_root: str | None
    model: str | None
    prompt_digest: str | None
    verdicts: list[ClaimVerdict] = []
    withheld: list[WithheldClaim] = []
    rewritten: int = 0
    unchecked: int = 0
    """Posted undecided claims no judge saw (not entailment-checked)."""
    label: Label | None = None
    method: Method | None = None
    model_calls: list[ModelCall] = []
    timings_ms: dict[str, float] = {}
    outcome: str = "answered"


class ConversationStore(Protocol):
    """What the pipeline keeps per conversation: bindings, history, audit records.
    Every method may raise ``StoreUnavailable``."""

    description: str

    def get_binding(self, where: Conversation) -> str | None: ...

    def set_binding(self, where: Conversation, *, slug: str) -> None: ...

    def clear_binding(self, where: Conversation) -> bool: ...

    def history(self, conversation: Conversation) -> list[HistoryTurn]: ...

    def append_history(self, conversation: Conversation, *, turn: HistoryTurn) -> None: ...

    def save_audit(self, record: AuditRecord) -> None: ...

    def save_turn(
        self, record: AuditRecord, conversation: Conversation, turn: HistoryTurn | None
    ) -> None:
        """``save_audit`` and (with a ``turn``) ``append_history`` at once: one write."""
        ...

    def get_audit(self, turn_id: str) -> AuditRecord | None: ...


class Persistence(StrEnum):
    ON = "on"
    OFF = "off"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class PersistenceReport:
    """Whether the store keeps its data across a restart (``state/persistence.py``)."""

    status: Persistence
    detail: str
    """One line an operator reads: what was found and what it means."""


FINISHED: Final = ("answered", "failed", "skipped")
"""The statuses of a turn that is over."""


@dataclass(frozen=True)
class QueuedTurn:
    """One message to answer, as the durable turn queue holds it."""

    turn_id: str
    conversation: Conversation
    ts: str
    message: dict[str, Any]
    """The message as the Slack surface gave it (``Incoming`` JSON)."""
    received_at: float = 0.0
    """Wall-clock seconds when it was recorded (0 until it is)."""


@dataclass
class TurnProgress:
    """What a turn has done so far (its record), so a reclaimed turn never repeats a post."""

    status: str = "queued"
    attempts: int = 0
    admitted: bool = False
    placeholder_ts: str | None = None
    status_set: bool = False
    reply: dict[str, Any] | None = None
    posting: str | None = None
    """The part being posted right now: set before the call, cleared after (see delivery)."""


@dataclass(frozen=True)
class Entry:
    """A queued turn held by this worker: its queue id, the turn, its place in its
    conversation's order (what ``TurnQueue.heads`` reports for the turn at the head)."""

    entry_id: str
    turn: QueuedTurn
    place: str


class TurnQueue(Protocol):
    """One worker's view of the durable turns (DESIGN §12). Every method may raise
    ``StoreUnavailable``."""

    consumer: str
    reclaim_after_s: float

    def enqueue(self, turn: QueuedTurn) -> bool:
        """Record ``turn`` durably; False when it is a duplicate."""
        ...

    def read(self, count: int, *, block_ms: int) -> list[Entry]: ...

    def reclaim(self, count: int) -> list[Entry]:
        """Take over turns of dead or departed workers."""
        ...

    def heartbeat(self, entry_ids: Iterable[str]) -> set[str]:
        """Keep these entries ours; the ids another worker took over."""
        ...

    def owns(self, entry: Entry) -> bool: ...

    def hand_back(self, entry_ids: Iterable[str]) -> None: ...

    def heads(self, conversations: Iterable[Conversation]) -> dict[Conversation, str | None]:
        """The ``Entry.place`` heading each conversation's order (None when empty)."""
        ...

    def drop_stale_head(self, where: Conversation, place: str) -> bool: ...

    def progress(self, turn_id: str, *, attempt: bool = False) -> TurnProgress: ...

    def note(self, turn_id: str, **fields: str | None) -> None: ...

    def finish(self, entry: Entry, status: str, *, posted: str | None = None) -> None: ...


class DeliveryStore(Protocol):
    """What the Slack side keeps: durable turns, engaged threads, rate limits, feedback,
    and the store's health. Every method may raise ``StoreUnavailable``."""

    description: str

    def ping(self) -> None: ...

    def round_trip(self) -> None:
        """Write a key and read it back (``/healthz``)."""
        ...

    def persistence(self) -> PersistenceReport: ...

    def turn_log(self, *, consumer: str, reclaim_after_s: float = ...) -> TurnQueue:
        """The durable turns (a Redis Stream), as worker ``consumer`` reads them."""
        ...

    def engage(self, conversation: Conversation) -> None: ...

    def is_engaged(self, conversation: Conversation) -> bool: ...

    def first_greeting(self, conversation: Conversation) -> bool:
        """True the first time (in 30 days) the side panel greets in ``conversation``."""
        ...

    def remember_dm(self, team: str, user: str, channel: str) -> None:
        """``channel`` is ``user``'s DM with PRISM (the side panel of an agent app)."""
        ...

    def dm_of(self, team: str, user: str) -> str | None: ...

    def take_token(self, user: str) -> bool:
        """Per-user rate limit (token bucket); False when the user must wait."""
        ...

    def save_feedback(self, turn_id: str, *, user: str, value: str) -> None: ...

    def get_feedback(self, turn_id: str) -> dict[str, str]:
        """Feedback on a turn: user → value (empty when there is none)."""
        ...


class StateStore(ConversationStore, DeliveryStore, Protocol):
    """Both halves on one Redis (``state/redis_store.py``)."""


class AuditLog(Protocol):
    """Recent turns and the votes on them (``prism feedback``). May raise
    ``StoreUnavailable``."""

    def recent_audits(self, limit: int) -> list[AuditRecord]:
        """The audit records of the ``limit`` most recent turns, newest first."""
        ...

    def get_feedback(self, turn_id: str) -> dict[str, str]: ...


@dataclass(frozen=True)
class Prompt:
    """What a model is sent: system instruction and user content, and their digest."""

    system: str
    user: str
    digest: str


@dataclass
class AnswerTrace:
    """What answering one request took, filled in as it happens (one per request).

    ``calls.call_answer_model`` appends a ``ModelCall`` for every model asked; a model that
    knows its cost sets ``usage`` before it returns or raises; a model made of others
    (``FallbackModel``) says which one answered and what the rep should be told.
    """

    calls: list[ModelCall] = field(default_factory=list)
    usage: TokenUsage | None = None
    answered_by: str | None = None
    notice: str | None = None


@dataclass(frozen=True)
class AnswerRequest:
    question: str
    report: Report
    prompt: Prompt
    history: list[HistoryTurn] = field(default_factory=list)
    trace: AnswerTrace = field(default_factory=AnswerTrace, compare=False)


class AnswerModel(Protocol):
    name: str

    def answer(self, request: AnswerRequest) -> Answer:
        """Raises ``ModelError`` (or a subclass) when no contract answer can be had."""
        ...


class JudgeVerdict(BaseModel):
    """The judge's answer on one claim of a request, by the claim's ``id``. A rewrite
    must cite the same fields (it keeps the claim's evidence and is verified again)."""

    model_config = ConfigDict(extra="forbid")

    id: str
    verdict: Literal["supported", "unsupported", "contradicted"]
    rewrite: str | None = None


class JudgeAnswer(BaseModel):
    """A whole judge reply: one verdict per claim of the request."""

    model_config = ConfigDict(extra="forbid")

    verdicts: list[JudgeVerdict]


def judge_json_schema(ids: list[str]) -> dict[str, object]:
    """The judge's structured-output schema for a request holding claims ``ids``.

    Written out by hand to stay inside the JSON Schema subset Gemini's
    ``responseJsonSchema`` documents (type, enum, properties, required, items,
    minItems, maxItems, additionalProperties, description): no ``anyOf`` with null, no
    ``default``. ``rewrite`` is optional by being left out of ``required``.
    """
    verdict = {
        "type": "object",
        "properties": {
            "id": {"type": "string", "enum": list(ids), "description": "The claim's id."},
            "verdict": {"type": "string", "enum": ["supported", "unsupported", "contradicted"]},
            "rewrite": {
                "type": "string",
                "description": "Only when not supported: one sentence stating only what "
                "the claim's evidence holds.",
            },
        },
        "required": ["id", "verdict"],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {
            "verdicts": {
                "type": "array",
                "items": verdict,
                "minItems": len(ids),
                "maxItems": len(ids),
            }
        },
        "required": ["verdicts"],
        "additionalProperties": False,
    }


@dataclass(frozen=True)
class JudgeItem:
    """One claim to judge, under its request-local ``id``, with only its cited values."""

    id: str
    claim: Claim
    cited: list[Leaf]


@dataclass(frozen=True)
class JudgeRequest:
    items: list[JudgeItem]
    prompt: Prompt

    @property
    def ids(self) -> list[str]:
        return [item.id for item in self.items]


class Judge(Protocol):
    name: str

    def judge(self, request: JudgeRequest) -> JudgeAnswer:
        """All of ``request``'s claims in one call. Raises ``ModelError`` on failure; the
        pipeline then withholds every claim of the request, as it does when the answer
        does not hold exactly one verdict per id."""
        ...
