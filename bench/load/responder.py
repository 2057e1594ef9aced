"""What the fake Gemini answers during the load bench.

An answer request (its ``responseJsonSchema`` is the claim contract) gets, after
``delay_s``, a claim-contract answer for the company the prompt's ``REPORT DATA for "…"``
line names: one fact citing ``financials.revenue_usd`` of that report, written the way the
verifier accepts it (``Revenue was $412.5M.``), and a coaching claim. With probability
``judge_share`` the answer also carries a finding title as a fact with nothing to anchor,
which the app (``PRISM_JUDGE=auto``) sends to the judge. A judge request (its schema asks
for ``verdicts``) gets "supported" for every claim it holds after ``delay_s``.

``company_answers`` builds those answers from the report store and checks them with the
app's own verifier first, so the bench never measures answers that the app would withhold.
"""

from __future__ import annotations

import json
import random
import re
import threading
from collections import Counter
from dataclasses import dataclass
from typing import Any

from prism_slack.claims import ABSENT_TEXT, Answer, Claim
from prism_slack.reports.model import Report
from prism_slack.testing.fake_gemini import FakeResponse, RecordedRequest, judge_claims
from prism_slack.verify import verify_answer

REVENUE_PATH = "financials.revenue_usd"
COACHING = "Ask who owns the budget for fixing this."
_COMPANY = re.compile(r'REPORT DATA for ("(?:[^"\\]|\\.)*")')


@dataclass(frozen=True)
class CompanyAnswer:
    """The claims the fake model gives for one company."""

    claims: list[Claim]
    judged: Claim
    """A supported fact with nothing to anchor (the judge is asked about it)."""

    def payload(self, *, with_judged: bool) -> dict[str, Any]:
        claims = [*self.claims, self.judged] if with_judged else self.claims
        return Answer(claims=claims).model_dump(mode="json")


def revenue_text(value: float) -> str:
    """``Revenue was $412.5M.`` — billions to two decimals, millions to one."""
    if value >= 1e9:
        return f"Revenue was ${value / 1e9:.2f}B."
    return f"Revenue was ${value / 1e6:.1f}M."


def company_answer(report: Report) -> CompanyAnswer:
    """The answer for ``report``; ``ValueError`` when the verifier would not post it."""
    leaf = report.evidence.leaf(REVENUE_PATH)
    if leaf is None or not isinstance(leaf.value, int | float):
        raise ValueError(f"{report.slug}: no numeric {REVENUE_PATH}")
    claims = [
        Claim(text=revenue_text(float(leaf.value)), kind="fact", evidence=[REVENUE_PATH]),
        Claim(text=COACHING, kind="coaching", evidence=[]),
    ]
    for verdict in verify_answer(Answer(claims=claims), report):
        if not verdict.supported:
            raise ValueError(f"{report.slug}: the verifier rejects {verdict.claim.text!r}")
    for i in range(20):
        title = report.evidence.leaf(f"findings[{i}].title")
        if title is None:
            break
        # Wording the title does not hold leaves the claim undecided, so ``auto`` judges it.
        text = str(title.value).rstrip(".") + ", a real worry."
        claim = Claim(text=text, kind="fact", evidence=[f"findings[{i}].title"])
        [verdict] = verify_answer(Answer(claims=[claim]), report)
        if verdict.supported and verdict.undecided:
            return CompanyAnswer(claims=claims, judged=claim)
    raise ValueError(f"{report.slug}: no finding title the judge would be asked about")


def company_answers(reports: list[Report]) -> dict[str, CompanyAnswer]:
    """Company name → its answer, for every report."""
    return {report.company.name: company_answer(report) for report in reports}


def is_judge_request(body: Any) -> bool:
    """A judge request asks for ``verdicts`` (one per claim) in its schema."""
    try:
        schema = body["generationConfig"]["responseJsonSchema"]
        return "verdicts" in schema.get("properties", {})
    except (KeyError, TypeError, AttributeError):
        return False


def prompt_company(body: Any) -> str | None:
    """The company of the ``REPORT DATA for "…"`` line of an answer request."""
    try:
        text = "".join(part.get("text", "") for part in body["contents"][0]["parts"])
    except (KeyError, IndexError, TypeError, AttributeError):
        return None
    match = _COMPANY.search(text)
    if match is None:
        return None
    name = json.loads(match.group(1))
    return name if isinstance(name, str) else None


class BenchResponder:
    """The FakeGemini default responder (thread-safe; counts what it answered)."""

    def __init__(
        self,
        answers: dict[str, CompanyAnswer],
        *,
        delay_s: float = 1.0,
        judge_share: float = 0.0,
        seed: int = 7,
    ) -> None:
        self.answers = answers
        self.delay_s = delay_s
        self.judge_share = judge_share
        self._rng = random.Random(seed)
        self._lock = threading.Lock()
        self.counts: Counter[str] = Counter()

    def __call__(self, request: RecordedRequest) -> FakeResponse:
        if is_judge_request(request.body):
            self._count("judge")
            ids = judge_claims(request) or {}
            return FakeResponse.verdicts(dict.fromkeys(ids, "supported"), delay_s=self.delay_s)
        company = prompt_company(request.body)
        answer = self.answers.get(company or "")
        if answer is None:
            self._count("unknown_company")
            absent = {"claims": [{"text": ABSENT_TEXT, "kind": "absent", "evidence": []}]}
            return FakeResponse.answer(absent, delay_s=self.delay_s)
        with self._lock:
            with_judged = self._rng.random() < self.judge_share
        self._count("answer_with_judged_claim" if with_judged else "answer")
        return FakeResponse.answer(answer.payload(with_judged=with_judged), delay_s=self.delay_s)

    def _count(self, what: str) -> None:
        with self._lock:
            self.counts[what] += 1
