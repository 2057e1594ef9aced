"""What one turn returns: the structure every renderer (terminal, Block Kit) draws from."""

from __future__ import annotations

import datetime as dt
from enum import StrEnum

from pydantic import BaseModel

from prism_slack.claims import ClaimKind
from prism_slack.ports import AuditRecord, Conversation, ModelCall, WithheldClaim
from prism_slack.verdict import ClaimVerdict, Label, Method, Rung


class Outcome(StrEnum):
    ANSWERED = "answered"
    """Claims were verified and the survivors posted (possibly none, possibly 'absent')."""
    NEEDS_BINDING = "needs_binding"
    """Nothing bound and no company detected: the reply explains how to bind."""
    AMBIGUOUS = "ambiguous"
    """Two or more companies fit equally: the reply asks which one."""
    FAILED = "failed"
    """Something outside the rep's control failed (store down, model down, lock timeout)."""
    REFUSED = "refused"
    """The request is not allowed here (rate limit, access control)."""
    INVALID = "invalid"
    """The message cannot be answered as it is (empty)."""


class Footnote(BaseModel):
    """A numbered citation: ``[n] label = value`` with its field path (``value`` as a rep
    says it: the typed fact's display, a passage cut at a sentence end)."""

    n: int
    path: str
    value: str
    label: str = ""
    """The field's name from its key's words (``Annual revenue``); empty when unknown."""


class PostedClaim(BaseModel):
    """A verified claim as posted, with the footnote numbers it cites."""

    text: str
    kind: ClaimKind
    citations: list[int]
    rung: Rung
    rewritten: bool = False
    unchecked: bool = False
    """Posted without the entailment check its wording needed (no judge ran): only its
    numbers and names are warranted (ANCHOR-WARRANTED). The reply says so."""


class TurnResult(BaseModel):
    outcome: Outcome
    conversation: Conversation
    question: str
    report: str | None = None
    company: str | None = None
    report_id: str | None = None
    report_date: dt.date | None = None
    notice: str | None = None
    """A line shown above the answer, e.g. a rebind ('Now answering from …') or a cut message."""
    message: str | None = None
    """For every outcome but ANSWERED: the whole reply, in plain words."""
    candidates: list[str] = []
    """Company names offered when ambiguous or unbound."""
    posted: list[PostedClaim] = []
    footnotes: list[Footnote] = []
    withheld: list[WithheldClaim] = []
    verdicts: list[ClaimVerdict] = []
    """Every verdict that decided a posted claim (after any judge rewrite)."""
    label: Label | None = None
    method: Method | None = None
    audit: AuditRecord | None = None
    model_calls: list[ModelCall] = []
    timings_ms: dict[str, float] = {}

    @property
    def turn_id(self) -> str | None:
        return self.audit.turn_id if self.audit else None
