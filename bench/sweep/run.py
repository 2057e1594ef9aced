"""Running the cases: (a) through the verifier directly, (b) through the whole pipeline.

(b) builds one scripted answer per case — the case's claim alone when it is correct, a
verified correct companion claim followed by the case's claim when it is fabricated — and
runs it through ``run_turn`` with a ``ScriptedJudge`` that says "supported" to everything
(the worst case for a judge), under each judge mode. A fabrication is caught in the
pipeline when its text is nowhere in the reply as rendered for the terminal.

A crash of the verifier or of a turn is recorded as an error of that case (and counts as
neither caught nor passed), so one bug cannot take the whole scoreboard down.
"""

from __future__ import annotations

import logging
import random
import traceback
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from prism_slack.claims import Answer, Claim
from prism_slack.llm.scripted import ScriptedJudge, ScriptedModel, each
from prism_slack.pipeline.result import TurnResult
from prism_slack.pipeline.turn import TurnDeps, run_turn
from prism_slack.ports import Conversation, ReportStore
from prism_slack.render.text import render_text
from prism_slack.reports.model import Report
from prism_slack.state.redis_store import memory_store
from prism_slack.verdict import Check, ClaimVerdict, JudgeMode
from prism_slack.verify import verify_claim
from prism_slack.verify.checks import failed_checks

from .cases import Case

logger = logging.getLogger(__name__)

MODES: tuple[JudgeMode, ...] = ("auto", "always")
ANCHOR_CHECKS = frozenset({Check.ANCHOR_WARRANT, Check.ENTITY_WARRANT})


@dataclass(frozen=True, slots=True)
class Checked:
    """A case and the verifier's verdict on it (``None`` when the verifier crashed)."""

    case: Case
    verdict: ClaimVerdict | None
    error: str | None = None

    @property
    def flagged(self) -> bool:
        """The verifier rejected the claim (a catch for a fabrication, a false flag else)."""
        return self.verdict is not None and not self.verdict.supported

    @property
    def anchor_failed(self) -> bool:
        return self.verdict is not None and bool(
            failed_checks(self.verdict.reasons) & ANCHOR_CHECKS
        )


def verify_cases(
    cases: Iterable[Case], reports: dict[str, Report], allowed: frozenset[str]
) -> list[Checked]:
    out = []
    for case in cases:
        try:
            verdict = verify_claim(case.claim, reports[case.slug], allowed=allowed)
        except Exception as e:  # a crash is a scoreboard entry, not an abort
            out.append(Checked(case, None, _error(e)))
            continue
        out.append(Checked(case, verdict))
    return out


def _error(e: BaseException) -> str:
    frame = traceback.extract_tb(e.__traceback__)[-1] if e.__traceback__ else None
    where = f" at {frame.filename.rsplit('/', 1)[-1]}:{frame.lineno}" if frame else ""
    return f"{type(e).__name__}: {e}{where}"


@dataclass
class Turn:
    """What one pipeline turn did with one case (the facts the figures and directives need)."""

    case: Case
    mode: JudgeMode
    answer: list[Claim]
    direct: list[Checked]
    """The verifier's direct verdicts on the answer's claims, in order."""
    result: TurnResult | None = None
    rendered: str = ""
    error: str | None = None

    @property
    def hidden(self) -> bool:
        """The case's claim text is nowhere in the rendered reply."""
        return self.result is not None and self.case.claim.text not in self.rendered

    @property
    def companion_lost(self) -> bool:
        return self.result is not None and any(
            c.text not in self.rendered for c in self.answer if c is not self.case.claim
        )

    @property
    def calls(self) -> int:
        return len(self.result.model_calls) if self.result else 0

    @property
    def judge_calls(self) -> int:
        calls = self.result.model_calls if self.result else []
        return sum(1 for c in calls if c.role == "judge")


@dataclass
class Companions:
    """Verified correct single-figure facts per report, to pair with a fabrication."""

    pool: dict[str, list[Checked]] = field(default_factory=dict)

    @classmethod
    def of(cls, checked: Sequence[Checked]) -> Companions:
        out = cls()
        for c in checked:
            claim = c.case.claim
            single = c.case.cls == "exact" and claim.kind == "fact" and len(claim.evidence) == 1
            if single and c.verdict is not None and c.verdict.supported:
                out.pool.setdefault(c.case.slug, []).append(c)
        return out

    def pick(self, case: Case, seed: int) -> Checked | None:
        rng = random.Random(f"{seed}:{case.ident}:companion")
        text = case.claim.text
        options = [
            c
            for c in self.pool.get(case.slug, [])
            if c.case.claim.text not in text
            and text not in c.case.claim.text
            and c.case.field != case.field
        ]
        return rng.choice(options) if options else None


def run_pipeline(
    checked: Sequence[Checked],
    store: ReportStore,
    *,
    vocabulary: frozenset[str],
    playbook_text: str,
    seed: int,
    modes: Sequence[JudgeMode] = MODES,
    companions: Companions | None = None,
) -> list[Turn]:
    """Every checked case through ``run_turn`` under each judge mode. Companions come from
    ``checked`` unless given."""
    companions = companions or Companions.of(checked)
    plans: list[tuple[Checked, list[Checked]]] = []
    for c in checked:
        direct = [c]
        if c.case.polarity == "fabricated":
            mate = companions.pick(c.case, seed)
            if mate is not None:
                direct = [mate, c]
        plans.append((c, direct))
    turns: list[Turn] = []
    for mode in modes:
        answers = [Answer(claims=[d.case.claim for d in direct]) for _, direct in plans]
        deps = TurnDeps(
            reports=store,
            state=memory_store(),
            model=ScriptedModel(answers, name="sweep-scripted"),
            judge=ScriptedJudge([each("supported")], repeat=True),
            judge_mode=mode,
            playbook_text=playbook_text,
            vocabulary=vocabulary,
        )
        for i, (c, direct) in enumerate(plans):
            turn = Turn(c.case, mode, [d.case.claim for d in direct], direct)
            where = Conversation(team="TSWEEP", channel=f"C{mode.upper()}", thread=str(i))
            question = f"What does the report say about {c.case.field}?"
            try:
                turn.result = run_turn(question, where, deps, report=c.case.slug)
                turn.rendered = render_text(turn.result)
            except Exception as e:  # recorded, see the module docstring
                turn.error = _error(e)
                deps.model = ScriptedModel(answers[i + 1 :], name="sweep-scripted")
            turns.append(turn)
    return turns
