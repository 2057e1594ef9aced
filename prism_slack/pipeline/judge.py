"""Judge-rewrite (DESIGN §7), failing closed.

The judge sees one claim and only its cited values. It may confirm a claim the hard
checks passed (→ ENTAILMENT-VERIFIED), or offer a rewrite that cites the same fields —
which goes through the deterministic verifier again, so the judge can repair but never
rescue a claim the checks reject. A judge error or bad output withholds the claim.
Claims that fail the hard checks and are not repaired are withheld with their reasons.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field

from prism_slack.claims import Claim
from prism_slack.errors import ModelError
from prism_slack.evidence import Leaf
from prism_slack.pipeline.inject import judge_prompt
from prism_slack.ports import Judge, JudgeRequest, JudgeVerdict, ModelCall, WithheldClaim
from prism_slack.reports.model import Report
from prism_slack.settings import JudgeMode
from prism_slack.verdict import ClaimVerdict
from prism_slack.verify import promote, undecided, verify_claim

logger = logging.getLogger(__name__)


@dataclass
class Judged:
    """What survives judging: posted verdicts (in order), withheld claims, and the calls."""

    posted: list[ClaimVerdict] = field(default_factory=list)
    rewritten: set[int] = field(default_factory=set)
    """Indexes into ``posted`` of claims that are judge rewrites."""
    judged: set[int] = field(default_factory=set)
    """Indexes into ``posted`` of claims a judge confirmed or rewrote."""
    withheld: list[WithheldClaim] = field(default_factory=list)
    calls: list[ModelCall] = field(default_factory=list)


def should_judge(verdict: ClaimVerdict, report: Report, mode: JudgeMode) -> bool:
    """``always``: every fact; ``auto``: only where the hard checks cannot decide."""
    if mode == "never" or verdict.claim.kind == "absent":
        return False
    if mode == "always":
        return verdict.claim.kind == "fact" or undecided(verdict, report)
    return undecided(verdict, report)


def judge_rewrite(
    verdicts: list[ClaimVerdict],
    report: Report,
    judge: Judge | None,
    mode: JudgeMode,
    allowed: frozenset[str],
) -> Judged:
    out = Judged()
    for verdict in verdicts:
        if judge is None or not should_judge(verdict, report, mode):
            _settle(out, verdict)
            continue
        cited = _cited(verdict.claim, report)
        try:
            answer = _call(judge, verdict.claim, cited, out.calls)
        except ModelError as e:
            out.withheld.append(
                WithheldClaim(claim=verdict.claim, reasons=[f"judge: unavailable ({e})"])
            )
            continue
        _apply(out, verdict, answer, report, allowed)
    return out


def _settle(out: Judged, verdict: ClaimVerdict) -> None:
    if verdict.supported:
        out.posted.append(verdict)
    else:
        out.withheld.append(WithheldClaim(claim=verdict.claim, reasons=verdict.reasons))


def _apply(
    out: Judged,
    verdict: ClaimVerdict,
    answer: JudgeVerdict,
    report: Report,
    allowed: frozenset[str],
) -> None:
    if answer.verdict == "supported" and verdict.supported:
        out.judged.add(len(out.posted))
        out.posted.append(promote(verdict))
        return
    rewrite = (answer.rewrite or "").strip()
    if rewrite and rewrite != verdict.claim.text:
        claim = verdict.claim.model_copy(update={"text": rewrite})
        again = verify_claim(claim, report, allowed=allowed)
        if again.supported:
            out.judged.add(len(out.posted))
            out.rewritten.add(len(out.posted))
            out.posted.append(again)
            return
        reasons = [*verdict.reasons, *(f"rewrite rejected: {r}" for r in again.reasons)]
    else:
        reasons = [*verdict.reasons, f"judge: {answer.verdict}"]
    out.withheld.append(WithheldClaim(claim=verdict.claim, reasons=reasons))


def _cited(claim: Claim, report: Report) -> list[Leaf]:
    leaves: list[Leaf] = []
    for path in claim.evidence:
        leaves += report.evidence.resolve(path) or []
    return leaves


def _call(judge: Judge, claim: Claim, cited: list[Leaf], calls: list[ModelCall]) -> JudgeVerdict:
    started = time.perf_counter()
    try:
        answer = judge.judge(
            JudgeRequest(claim=claim, cited=cited, prompt=judge_prompt(claim, cited))
        )
    except ModelError as e:
        calls.append(_record(judge, started, ok=False, error=type(e).__name__))
        raise
    calls.append(_record(judge, started, ok=True))
    return answer


def _record(judge: Judge, started: float, *, ok: bool, error: str | None = None) -> ModelCall:
    latency = (time.perf_counter() - started) * 1000
    logger.info("judge call model=%s ok=%s latency_ms=%.1f", judge.name, ok, latency)
    return ModelCall(role="judge", model=judge.name, ok=ok, latency_ms=latency, error=error)
