"""Judge-rewrite (DESIGN §7): one judge call per turn at most, failing closed.

Only claims the hard checks *support* are ever sent: a failed claim (an anchor failure,
checks 5 and 6, or a positive attribute swap, check 7) is withheld and never rescued.

- ``auto`` sends the *undecided* claims (``ClaimVerdict.undecided``: nothing anchored, or
  wording not all found in the cited values); a claim whose content words are all found
  needs no judge, nor one that only restates the single values it cites and names
  (``ClaimVerdict.restates``: a number, date or short name, or a passage a figure of the
  claim is read from), which is
  posted unjudged, marked, unless the turn calls the judge anyway. ``always`` sends
  every supported fact too. Either way every claim of the turn goes in ONE request,
  each fenced with only its own cited values.
- The judge answers one verdict per claim id. "supported" posts the claim at
  ENTAILMENT-VERIFIED (``verify.promote``). A rewrite keeps the claim's fields and goes
  through the deterministic verifier again; it is posted only when the checks settle it.
  Anything else withholds the claim.
- A judge error, timeout or invalid reply (including a missing, extra or repeated id)
  withholds every claim of the request.
- Without a judge (``never``, or no judge configured) every undecided claim is withheld:
  the product fails closed. The offline answerer's own claims restate typed facts and are
  settled.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field

from prism_slack.claims import Claim
from prism_slack.errors import ModelError, ModelOutputError
from prism_slack.evidence import Leaf
from prism_slack.pipeline.inject import judge_prompt
from prism_slack.ports import (
    Judge,
    JudgeItem,
    JudgeRequest,
    JudgeVerdict,
    ModelCall,
    WithheldClaim,
)
from prism_slack.reports.model import Report
from prism_slack.settings import JudgeMode
from prism_slack.verdict import ClaimVerdict
from prism_slack.verify import promote, verify_claim

logger = logging.getLogger(__name__)

UNJUDGED = "no judge: the checks cannot settle this claim, and no judge ran to decide it"


@dataclass
class Judged:
    """What survives judging: posted verdicts (in order), withheld claims, and the calls."""

    posted: list[ClaimVerdict] = field(default_factory=list)
    rewritten: set[int] = field(default_factory=set)
    """Indexes into ``posted`` of claims that are judge rewrites."""
    judged: set[int] = field(default_factory=set)
    """Indexes into ``posted`` of claims a judge confirmed or rewrote."""
    unchecked: set[int] = field(default_factory=set)
    """Indexes into ``posted`` of undecided claims posted without a judge (anchored only)."""
    withheld: list[WithheldClaim] = field(default_factory=list)
    calls: list[ModelCall] = field(default_factory=list)


def should_judge(verdict: ClaimVerdict, mode: JudgeMode) -> bool:
    """``auto``: the supported claims the checks leave undecided, but for those that only
    restate the values they cite; ``always``: every supported fact. Never a failed
    claim: the judge cannot rescue one."""
    if mode == "never" or not verdict.supported or verdict.claim.kind == "absent":
        return False
    if mode == "always":
        return verdict.undecided or verdict.claim.kind == "fact"
    return verdict.undecided and not verdict.restates


def judge_rewrite(
    verdicts: list[ClaimVerdict],
    report: Report,
    *,
    judge: Judge | None,
    mode: JudgeMode,
    allowed: frozenset[str],
) -> Judged:
    """Judge what ``mode`` sends (one call at most), then sort every verdict into posted
    and withheld, in order."""
    out = Judged()
    sent = [i for i, v in enumerate(verdicts) if should_judge(v, mode)] if judge else []
    if sent and mode == "auto":  # a call is made anyway: restated claims ride along free
        sent = [i for i, v in enumerate(verdicts) if v.undecided]
    answers: dict[int, JudgeVerdict] = {}
    failure = ""
    if judge is not None and sent:
        items = [
            JudgeItem(_id(i), verdicts[i].claim, _cited(verdicts[i].claim, report)) for i in sent
        ]
        try:
            by_id = _call(judge, items, out.calls)
            answers = {i: by_id[_id(i)] for i in sent}
        except ModelError as e:
            failure = f"judge: unavailable ({e})"
    for i, verdict in enumerate(verdicts):
        if not verdict.supported:
            out.withheld.append(WithheldClaim(claim=verdict.claim, reasons=verdict.reasons))
        elif i in answers:
            _apply(out, verdict, answers[i], report, allowed)
        elif i in sent:  # sent, but the judge gave no usable answer
            out.withheld.append(WithheldClaim(claim=verdict.claim, reasons=[failure]))
        elif verdict.undecided:
            _unjudged(out, verdict, judged_turn=judge is not None and mode == "auto")
        else:
            out.posted.append(verdict)
    return out


def _unjudged(out: Judged, verdict: ClaimVerdict, *, judged_turn: bool) -> None:
    """An undecided claim no judge saw. Under ``auto`` with a judge, one that only
    restates the single values it cites and names (``restates``: every figure bound, no
    settle rule in doubt, one framing word unfound) is posted at its rung, marked as not
    entailment-checked; any other, and every one without a judge (``never``, no key), is
    withheld: without a judge the product fails closed (DESIGN §7)."""
    if verdict.restates and judged_turn:
        out.unchecked.add(len(out.posted))
        out.posted.append(verdict)
    else:
        out.withheld.append(WithheldClaim(claim=verdict.claim, reasons=[UNJUDGED]))


def _apply(
    out: Judged,
    verdict: ClaimVerdict,
    answer: JudgeVerdict,
    report: Report,
    allowed: frozenset[str],
) -> None:
    if answer.verdict == "supported":
        out.judged.add(len(out.posted))
        out.posted.append(promote(verdict))
        return
    rewrite = (answer.rewrite or "").strip()
    if rewrite and rewrite != verdict.claim.text:
        claim = verdict.claim.model_copy(update={"text": rewrite})
        again = verify_claim(claim, report, allowed=allowed)
        if again.supported and not again.undecided:
            out.judged.add(len(out.posted))
            out.rewritten.add(len(out.posted))
            out.posted.append(again)
            return
        why = [str(r) for r in again.reasons] or ["the checks cannot settle it"]
        reasons = [f"judge: {answer.verdict}", *(f"rewrite rejected: {r}" for r in why)]
    else:
        reasons = [f"judge: {answer.verdict}"]
    out.withheld.append(WithheldClaim(claim=verdict.claim, reasons=reasons))


def _id(index: int) -> str:
    """A claim's id in the judge request: its position in the answer (``c1`` is the first)."""
    return f"c{index + 1}"


def _cited(claim: Claim, report: Report) -> list[Leaf]:
    leaves: list[Leaf] = []
    for path in claim.evidence:
        leaves += report.evidence.resolve(path) or []
    return leaves


def _call(judge: Judge, items: list[JudgeItem], calls: list[ModelCall]) -> dict[str, JudgeVerdict]:
    """The judge's verdicts by id; ``ModelError`` unless there is exactly one per item."""
    started = time.perf_counter()
    try:
        answer = judge.judge(JudgeRequest(items=items, prompt=judge_prompt(items)))
        by_id = _by_id(answer.verdicts, [item.id for item in items])
    except ModelError as e:
        calls.append(_record(judge, started, len(items), ok=False, error=type(e).__name__))
        raise
    calls.append(_record(judge, started, len(items), ok=True))
    return by_id


def _by_id(verdicts: list[JudgeVerdict], ids: list[str]) -> dict[str, JudgeVerdict]:
    by_id = {v.id: v for v in verdicts}
    if len(by_id) != len(verdicts) or set(by_id) != set(ids):
        raise ModelOutputError(
            f"judge verdicts do not match the claims: sent {sorted(ids)}, "
            f"got {[v.id for v in verdicts]}"
        )
    return by_id


def _record(
    judge: Judge, started: float, claims: int, *, ok: bool, error: str | None = None
) -> ModelCall:
    latency = (time.perf_counter() - started) * 1000
    logger.info(
        "judge call model=%s claims=%d ok=%s latency_ms=%.1f", judge.name, claims, ok, latency
    )
    return ModelCall(role="judge", model=judge.name, ok=ok, latency_ms=latency, error=error)
