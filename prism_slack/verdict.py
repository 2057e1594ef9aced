"""Verdicts, rungs and labels (DESIGN §6 and §8): the verifier's output vocabulary."""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict

from prism_slack.claims import Claim

JudgeMode = Literal["auto", "always", "never"]
"""When the judge runs (``PRISM_JUDGE``): only where the hard checks cannot decide, on
every fact, or never. Here, not in ``settings``, so the pipeline never imports configuration."""


class Rung(StrEnum):
    """How far a claim is linked to its evidence; each rung implies the ones before it.

    A claim that cites nothing (coaching or ``absent``) stays UNLINKED even when it is
    supported: the rung never claims a link that was not made.
    """

    UNLINKED = "UNLINKED"
    POINTER_LINKED = "POINTER-LINKED"
    ANCHOR_WARRANTED = "ANCHOR-WARRANTED"
    EVIDENCE_WARRANTED = "EVIDENCE-WARRANTED"
    ENTAILMENT_VERIFIED = "ENTAILMENT-VERIFIED"

    @property
    def order(self) -> int:
        return _RUNG_ORDER[self]


_RUNG_ORDER = {rung: i for i, rung in enumerate(Rung)}


class Check(IntEnum):
    """The hard checks, numbered as in DESIGN §6. A reason names its check."""

    PARSES = 1
    TEXT_NONEMPTY = 2
    POINTERS_RESOLVE = 3
    FACT_CITES = 4
    ANCHOR_WARRANT = 5
    ENTITY_WARRANT = 6
    ATTRIBUTE_WARRANT = 7

    @property
    def slug(self) -> str:
        return self.name.lower()


class Status(StrEnum):
    """The three states a claim ends in (DESIGN §6): only proof moves it out of the middle."""

    SETTLED = "settled"
    UNDECIDED = "undecided"
    FAILED = "failed"


class Problem(NamedTuple):
    """What one rule of a check found: the rule's id (``verify.rules``) and a one-line
    message. The verifier makes it a ``Reason`` of the check that ran the rule."""

    rule: str
    message: str


class Reason(BaseModel):
    """One failed (or undecided) check and why: the check, the rule of it that decided
    (``rule``, a dotted id registered in ``verify.rules``: ``anchor.no_match``), and a
    one-line message. ``str(reason)`` is ``"<check slug>: <message>"``, e.g.
    ``anchor_warrant: '$4.2M' matches no cited value``."""

    model_config = ConfigDict(frozen=True)

    check: Check
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.check.slug}: {self.message}"


Relation = Literal["difference", "complement", "sum", "total", "share", "change", "ratio", "part"]


class Derivation(BaseModel):
    """A claim figure that no cited value states but that recomputes from cited ones:
    ``arithmetic`` shows it (``10 - 4 = 6``), ``operands`` are the fields it used."""

    model_config = ConfigDict(frozen=True)

    figure: str
    relation: Relation
    operands: list[str]
    arithmetic: str


class ClaimVerdict(BaseModel):
    """The verifier's verdict on one claim."""

    model_config = ConfigDict(frozen=True)

    claim: Claim
    rung: Rung
    supported: bool
    reasons: list[Reason]
    """One per failed check. Empty when supported."""
    undecided: bool = False
    """Supported, but check 7 could not settle it: a fact with nothing anchored (no number,
    date, name or identifier), or a claim whose wording is not all found in its cited
    values (lack of overlap only, no evidence against it). Such a claim stays at
    ANCHOR-WARRANTED; a judge may confirm it (DESIGN §7). Never true when unsupported."""
    restates: bool = False
    """Undecided, but the claim only restates cited values it names, each one value (a
    number, a date, a short name, or a passage a figure is read from), its figures and
    names anchored: its
    unfound words can only frame those values, so ``auto`` posts it without a judge, at
    ANCHOR-WARRANTED and marked as not entailment-checked. Only true when undecided."""
    undecided_reasons: list[Reason] = []
    """Why check 7 left the claim undecided (wording not found, a level said to change,
    nothing anchored …), each naming its rule. Empty unless ``undecided``."""
    derivations: list[Derivation] = []
    """Figures warranted by arithmetic over the cited fields, for a footnote to show."""

    @property
    def status(self) -> Status:
        """``failed`` (withheld; no judge rescues it), ``undecided`` (the judge decides)
        or ``settled`` (posted with no judge). DESIGN §6."""
        if not self.supported:
            return Status.FAILED
        if self.undecided:
            return Status.UNDECIDED
        return Status.SETTLED


class Label(StrEnum):
    """The answer label (DESIGN §8). Honest names: never more than was checked."""

    EVIDENCE_LINKED = "EVIDENCE-LINKED"
    EVIDENCE_LINKED_PARTIAL = "EVIDENCE-LINKED-PARTIAL"
    UNGROUNDED = "UNGROUNDED"
    COACHING_ONLY = "COACHING-ONLY"


class Method(StrEnum):
    """What decided the posted claims: deterministic checks alone, or those plus a judge."""

    DETERMINISTIC = "deterministic anchors"
    JUDGE = "deterministic anchors + judge"


def answer_label(verdicts: list[ClaimVerdict], *, altered: bool = False) -> Label:
    """Label for an answer whose claims got ``verdicts``.

    ``altered`` is true when the pipeline withheld or rewrote anything. An answer with
    zero claims is UNGROUNDED, never a vacuous pass.
    """
    if not verdicts:
        return Label.UNGROUNDED
    facts = [v for v in verdicts if v.claim.kind == "fact"]
    if not any(v.supported for v in facts):
        if not facts and any(v.supported and v.claim.kind == "coaching" for v in verdicts):
            return Label.COACHING_ONLY
        return Label.UNGROUNDED
    if altered or not all(v.supported for v in verdicts):
        return Label.EVIDENCE_LINKED_PARTIAL
    return Label.EVIDENCE_LINKED
