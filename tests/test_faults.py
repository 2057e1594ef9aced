"""Faults, with real components: Redis stopped and restarted under the Slack app, a Gemini
storm against the real adapter, Slack's Web API rate limit, a burst of messages in one thread.

Whatever fails, the rep gets a clear reply, the app recovers on its own, and nothing
unverified is ever posted (the garbage the fake model sends is never seen in any reply).
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import redis
from pydantic import SecretStr
from slack_support import REPORTS_DIR, SlackHarness, all_text, fact, unique

from prism_slack.claims import Answer
from prism_slack.llm.fallback import FallbackModel
from prism_slack.llm.gemini import GeminiAnswerModel, GeminiClient, GeminiJudge
from prism_slack.llm.offline import OfflineAnswerer
from prism_slack.pipeline.result import Outcome, TurnResult
from prism_slack.pipeline.turn import TurnDeps, run_turn
from prism_slack.ports import AnswerRequest, Conversation
from prism_slack.render.blocks import render_blocks
from prism_slack.render.text import render_text
from prism_slack.settings import Settings
from prism_slack.slack import texts
from prism_slack.state.redis_store import memory_store, open_state_store
from prism_slack.testing.fake_gemini import (
    FakeGemini,
    FakeResponse,
    judge_claims,
    judge_responder,
)
from prism_slack.testing.redis_server import RedisServer
from prism_slack.testing.slack_delivery import app_mention, channel_message, dm, new_ts
from prism_slack.verdict import Label, Method, Rung, answer_label

QUESTION = "What is Northwind Outfitters' membership ARR?"
NW = "northwind-outfitters"
KP = "kestrelpoint-software"
OFFLINE_NOTICE = "offline facts-only answerer"


# -- Redis stopped mid-conversation, restarted -------------------------------------------


def test_redis_restart_mid_conversation_keeps_every_binding(
    make_redis_server: Callable[..., RedisServer],
) -> None:
    server = make_redis_server(appendonly=True)
    with SlackHarness(server.url) as harness:
        team, bot = harness.fake.team_id, harness.fake.bot_user_id
        user, deal, talk, direct = unique("U"), unique("C"), unique("C"), unique("D")
        # A channel bound with /prism bind, a thread bound by a mention naming the company.
        assert "Kestrelpoint Software" in harness.command(
            "bind Kestrelpoint Software", channel=deal, user=user
        )
        root = new_ts()
        harness.slack.event(app_mention(f"<@{bot}> {QUESTION}", user=user, channel=talk, ts=root))
        harness.wait_answers(talk, root, 1)
        channel_scope = Conversation(team=team, channel=deal)
        thread = Conversation(team=team, channel=talk, thread=root)
        assert harness.state.get_binding(channel_scope) == KP
        assert harness.state.get_binding(thread) == NW

        server.stop()
        # Down: every surface says so, in place, and nothing reaches the model.
        harness.slack.event(dm(QUESTION, user=user, channel=direct))
        assert all_text(harness.wait_for_answer(direct, None)).startswith(texts.STORE_DOWN)
        harness.slack.event(
            app_mention(
                f"<@{bot}> and their churn?", user=user, channel=talk, ts=new_ts(), thread_ts=root
            )
        )
        down_reply = harness.wait_answers(talk, root, 2)[1]
        assert all_text(down_reply).startswith(texts.STORE_DOWN)
        assert harness.command("status", channel=deal, user=user).startswith(texts.STORE_DOWN)
        assert len(harness.scripted.requests) == 1

        server.start()
        # Back, with no restart of the app: the thread still follows its report (and the
        # untagged follow-up is still for the bot), the channel still answers from its own.
        follow_up = "And which search vendor do they use?"
        harness.slack.event(channel_message(follow_up, user=user, channel=talk, thread_ts=root))
        assert "Algolia" in all_text(harness.wait_answers(talk, root, 3)[2])
        deal_root = new_ts()
        harness.slack.event(
            app_mention(f"<@{bot}> What is their churn?", user=user, channel=deal, ts=deal_root)
        )
        harness.wait_answers(deal, deal_root, 1)
        assert "Kestrelpoint Software" in harness.command("status", channel=deal, user=user)
        harness.drain()

    requests = harness.scripted.requests
    assert [r.question for r in requests] == [QUESTION, follow_up, "What is their churn?"]
    assert [r.report.slug for r in requests] == [NW, NW, KP]
    assert [h.question for h in requests[1].history] == [QUESTION]
    fresh = open_state_store(server.url)  # a new connection, straight to the restarted Redis
    assert fresh.get_binding(channel_scope) == KP
    assert fresh.get_binding(thread) == NW


# -- Gemini storms, through run_turn with the production wiring ---------------------------

KEY = "AIzaFAKE-faults-key-0123456789"
MODEL = "gemini-faults-test"
TIMEOUT_S = 0.3
BUDGET_S = 2.0
ATTEMPTS = 4
HEADROOM_S = 2.0
"""Headroom on wall-clock bounds for a loaded 2-core machine (the bounds are sanity limits)."""
FAST_RETRIES: dict[str, Any] = {
    "max_attempts": ATTEMPTS,
    "max_total_s": BUDGET_S,
    "initial_backoff_s": 0.02,
    "max_backoff_s": 0.1,
}

GARBAGE = ("8.76", "Quorble", "86,420", "86420")
"""Numbers and names that only the fake model's garbage holds (no report has them)."""
FABRICATED: dict[str, Any] = {
    "claims": [
        {"text": "Revenue was $8.76B.", "kind": "fact", "evidence": ["financials.revenue_usd"]},
        {"text": "Their CEO is Zed Quorble.", "kind": "fact", "evidence": ["stakeholders[0].name"]},
        {"text": "They run 86,420 stores.", "kind": "fact", "evidence": ["company.channels"]},
        {"text": "Ask Zed Quorble about the $8.76B plan.", "kind": "coaching", "evidence": []},
    ]
}
GARBAGE_TEXT = "Sure! Revenue was $8.76B; CEO Zed Quorble runs 86,420 stores."
BROKEN_CONTRACT = {"claims": [{"text": GARBAGE_TEXT, "kind": "rumour", "evidence": "all"}]}
ARR_ANSWER = {
    "claims": [
        {
            "text": "Membership ARR is $4.1M.",
            "kind": "fact",
            "evidence": ["financials.membership_arr_usd"],
        }
    ]
}


def gemini_settings(fake: FakeGemini) -> Settings:
    return Settings(
        gemini_api_key=SecretStr(KEY),
        gemini_model=MODEL,
        gemini_base_url=fake.base_url,
        gemini_timeout_s=TIMEOUT_S,
        prism_reports_dir=REPORTS_DIR,
        prism_judge="auto",
    )


@pytest.fixture
def gemini() -> Iterator[FakeGemini]:
    with FakeGemini() as fake:
        yield fake


@pytest.fixture
def gemini_deps(gemini: FakeGemini) -> Iterator[TurnDeps]:
    """``build_turn_deps`` (Gemini, GeminiJudge, offline fallback) with a fast retry budget."""
    from prism_slack.wiring import build_turn_deps

    settings = gemini_settings(gemini)
    deps = build_turn_deps(settings, state=memory_store())
    assert isinstance(deps.model, FallbackModel) and isinstance(deps.judge, GeminiJudge)
    assert isinstance(deps.model.primary, GeminiAnswerModel)
    assert isinstance(deps.model.fallback, OfflineAnswerer)
    deps.judge.client.close()
    client = GeminiClient.from_settings(settings, **FAST_RETRIES)
    deps.model = FallbackModel(GeminiAnswerModel(client), deps.model.fallback)
    deps.judge = GeminiJudge(client)
    yield deps
    client.close()


def posted_text(result: TurnResult) -> str:
    """Everything a rep could see of ``result``: terminal text and the Slack message."""
    message = render_blocks(result, feedback=True)
    return "\n".join([render_text(result), message.text, str(message.blocks)])


def assert_nothing_unverified(result: TurnResult) -> None:
    text = posted_text(result)
    for token in GARBAGE:
        assert token not in text
    assert all(v.supported for v in result.verdicts)
    if result.outcome is Outcome.ANSWERED:
        altered = bool(result.withheld) or any(p.rewritten for p in result.posted)
        assert result.label is answer_label(result.verdicts, altered=altered)


STORMS: dict[str, tuple[list[FakeResponse], FakeResponse, range]] = {
    # name: (scripted responses, then the default for every later request, requests expected)
    "429 storm": ([], FakeResponse.error(429, retry_delay=0.05), range(ATTEMPTS, ATTEMPTS + 1)),
    "5xx storm": (
        [FakeResponse.error(500), FakeResponse.error(502), FakeResponse.error(503)],
        FakeResponse.error(503),
        range(ATTEMPTS, ATTEMPTS + 1),
    ),
    "timeouts": ([], FakeResponse.answer(FABRICATED, delay_s=1.5), range(2, ATTEMPTS + 1)),
    "garbage text": ([], FakeResponse.answer(GARBAGE_TEXT), range(1, 2)),
    "broken contract": ([], FakeResponse.answer(BROKEN_CONTRACT), range(1, 2)),
    "non-JSON body": ([], FakeResponse(body=GARBAGE_TEXT, raw=True), range(1, 2)),
    "blocked": ([], FakeResponse.blocked("SAFETY", stage="candidate"), range(1, 2)),
    "deeply nested JSON": ([], FakeResponse.answer("[" * 100_000 + "]" * 100_000), range(1, 2)),
    "huge number": ([], FakeResponse.answer('{"claims": [' + "9" * 5000 + "]}"), range(1, 2)),
    "mixed storm": (
        [
            FakeResponse.error(429, retry_delay=0.05),
            FakeResponse.error(503),
            FakeResponse.answer(FABRICATED, delay_s=1.5),
        ],
        FakeResponse.answer(GARBAGE_TEXT),
        range(ATTEMPTS, ATTEMPTS + 1),
    ),
}


@pytest.mark.parametrize("storm", list(STORMS))
def test_gemini_storm_falls_back_to_the_offline_answerer(
    storm: str, gemini: FakeGemini, gemini_deps: TurnDeps
) -> None:
    scripted, default, expected_requests = STORMS[storm]
    for response in scripted:
        gemini.enqueue(response)
    gemini.default = lambda _request: default
    where = Conversation(team="T1", channel="C1", thread=new_ts())

    started = time.monotonic()
    result = run_turn(QUESTION, where, gemini_deps)
    elapsed = time.monotonic() - started

    # Bounded: the retries stop within the budget (plus the offline answer's own time).
    assert elapsed < BUDGET_S + HEADROOM_S
    assert len(gemini.requests) in expected_requests
    [failed, answered] = result.model_calls
    assert (failed.model, failed.ok, answered.model, answered.ok) == (MODEL, False, "offline", True)
    assert failed.latency_ms < (BUDGET_S + HEADROOM_S) * 1000
    # The offline answer, honestly labelled and said to be offline.
    assert result.outcome is Outcome.ANSWERED and result.audit is not None
    assert result.audit.model == "offline"
    assert OFFLINE_NOTICE in (result.notice or "") and OFFLINE_NOTICE in posted_text(result)
    assert result.label is Label.EVIDENCE_LINKED and result.method is Method.DETERMINISTIC
    assert "Membership ARR: $4.14M." in posted_text(result)
    assert_nothing_unverified(result)


def test_the_unmodified_wiring_waits_what_gemini_asks_then_falls_back(
    gemini: FakeGemini,
) -> None:
    from prism_slack.wiring import build_turn_deps

    gemini.default = lambda _request: FakeResponse.error(429, retry_delay=0.1)
    deps = build_turn_deps(gemini_settings(gemini), state=memory_store())
    assert isinstance(deps.judge, GeminiJudge)
    try:
        started = time.monotonic()
        result = run_turn(QUESTION, Conversation(team="T1", channel="D1"), deps)
        elapsed = time.monotonic() - started
    finally:
        deps.judge.client.close()
    arrivals = [r.received_at for r in gemini.requests]
    gaps = [b - a for a, b in itertools.pairwise(arrivals)]
    # The hinted 0.1 s, not the default backoff of 1 s and more.
    assert len(arrivals) == 4 and all(0.1 <= gap < 0.9 for gap in gaps)
    assert elapsed < 1.0 + HEADROOM_S
    assert result.audit is not None and result.audit.model == "offline"
    assert OFFLINE_NOTICE in (result.notice or "")
    assert_nothing_unverified(result)


def test_a_storm_then_a_fabricated_answer_posts_nothing_of_it(
    gemini: FakeGemini, gemini_deps: TurnDeps
) -> None:
    gemini.error(429, retry_delay=0.05).error(503).enqueue(FakeResponse.answer(FABRICATED))
    started = time.monotonic()
    result = run_turn(QUESTION, Conversation(team="T1", channel="D1"), gemini_deps)
    assert time.monotonic() - started < BUDGET_S + HEADROOM_S
    assert len(gemini.requests) == 3
    assert result.audit is not None and result.audit.model == MODEL
    assert result.posted == [] and result.label is Label.UNGROUNDED
    assert len(result.withheld) == len(FABRICATED["claims"])
    assert "couldn't verify" in posted_text(result)
    assert_nothing_unverified(result)


JUDGE_FAULTS: dict[str, list[FakeResponse]] = {
    "judge garbage": [FakeResponse.answer(GARBAGE_TEXT)],
    "judge storm": [FakeResponse.error(503)] * ATTEMPTS,
    "judge timeout": [FakeResponse.verdicts({"c1": "supported"}, delay_s=1.5)] * ATTEMPTS,
    "judge missing verdict": [FakeResponse.answer({"verdicts": []})],
    "judge verdict for another id": [FakeResponse.verdicts({"c7": "supported"})],
    "judge rewrite with a fabrication": [
        FakeResponse.answer(
            {
                "verdicts": [
                    {
                        "id": "c1",
                        "verdict": "unsupported",
                        "rewrite": "Membership ARR is $8.76B, per Zed Quorble.",
                    }
                ]
            }
        )
    ],
}


@pytest.mark.parametrize("fault", list(JUDGE_FAULTS))
def test_judge_faults_withhold_the_claim(
    fault: str, gemini: FakeGemini, gemini_deps: TurnDeps
) -> None:
    gemini_deps.judge_mode = "always"
    gemini.answer(ARR_ANSWER)
    for response in JUDGE_FAULTS[fault]:
        gemini.enqueue(response)
    started = time.monotonic()
    result = run_turn(QUESTION, Conversation(team="T1", channel="D1"), gemini_deps)
    assert time.monotonic() - started < BUDGET_S + HEADROOM_S
    assert result.posted == [] and result.label is Label.UNGROUNDED
    [withheld] = result.withheld
    assert withheld.claim.text == ARR_ANSWER["claims"][0]["text"]
    assert "withheld" in posted_text(result)
    assert [c.role for c in result.model_calls] == ["answer", "judge"]
    assert_nothing_unverified(result)


UNDECIDED_ANSWER = Answer(
    claims=[
        fact("The returns page is stale.", "findings[5].title"),
        fact("Membership ARR is $4.1M.", "financials.membership_arr_usd"),
        fact("Mobile product pages are slow and ugly.", "findings[1].title"),
    ]
).model_dump(mode="json")


def test_one_judge_request_per_turn_through_the_real_client(
    gemini: FakeGemini, gemini_deps: TurnDeps
) -> None:
    gemini.answer(UNDECIDED_ANSWER)
    gemini.default = judge_responder(lambda text: "supported" if "stale" in text else "unsupported")

    result = run_turn(QUESTION, Conversation(team="T1", channel="D1"), gemini_deps)

    answer_call, judge_call = gemini.requests
    assert judge_claims(answer_call) is None
    assert judge_claims(judge_call) == {
        "c1": "The returns page is stale.",
        "c3": "Mobile product pages are slow and ugly.",
    }
    assert [(p.text, p.rung) for p in result.posted] == [
        ("The returns page is stale.", Rung.ENTAILMENT_VERIFIED),
        ("Membership ARR is $4.1M.", Rung.EVIDENCE_WARRANTED),
    ]
    assert [w.claim.text for w in result.withheld] == ["Mobile product pages are slow and ugly."]
    assert result.method is Method.JUDGE
    assert [c.role for c in result.model_calls] == ["answer", "judge"]


def test_gemini_storm_through_the_slack_app(
    gemini: FakeGemini, redis_server: RedisServer, redis_client: redis.Redis
) -> None:
    settings = gemini_settings(gemini)
    for response in STORMS["mixed storm"][0]:
        gemini.enqueue(response)
    gemini.default = lambda _request: FakeResponse.answer(GARBAGE_TEXT)
    with (
        GeminiClient.from_settings(settings, **FAST_RETRIES) as client,
        SlackHarness(
            redis_server.url, model=FallbackModel(GeminiAnswerModel(client), OfflineAnswerer())
        ) as harness,
    ):
        harness.deps.judge, harness.deps.judge_mode = GeminiJudge(client), "auto"
        user, channel = unique("U"), unique("D")
        started = time.monotonic()
        harness.slack.event(dm(QUESTION, user=user, channel=channel))
        answer = harness.wait_for_answer(channel, None)
        elapsed = time.monotonic() - started
        harness.drain()
    text = all_text(answer)
    assert OFFLINE_NOTICE in text and "EVIDENCE-LINKED" in text
    assert "Membership ARR: $4.14M." in text
    assert elapsed < BUDGET_S + HEADROOM_S and len(gemini.requests) == ATTEMPTS
    everything = "\n".join(all_text(m) for m in harness.fake.messages())
    for token in GARBAGE:
        assert token not in everything


# -- Slack's Web API rate limit ------------------------------------------------------------


def test_slack_429_on_post_message_is_waited_out(harness: SlackHarness) -> None:
    user, channel, thread = unique("U"), unique("D"), new_ts()
    harness.fake.add_assistant_thread(channel, thread)  # status, then the answer is posted
    harness.fake.rate_limit_next("chat.postMessage", count=1, retry_after=1)
    harness.slack.event(dm(QUESTION, user=user, channel=channel, thread_ts=thread))
    answer = harness.wait_for_answer(channel, thread)
    harness.drain()
    limited, delivered = harness.posts(channel)
    assert (limited.status, limited.error) == (429, "ratelimited")
    assert delivered.status == 200 and delivered.ok
    # slack_sdk's RateLimitErrorRetryHandler waits Retry-After plus up to 1 s of jitter.
    assert 1.0 <= delivered.at - limited.at < 2.0 + HEADROOM_S
    assert "Membership ARR is $4.1M." in all_text(answer)
    assert len(harness.fake.messages(channel)) == 1


# -- a burst of messages in one thread ---------------------------------------------------

FOLLOW_UPS = {
    "Which search vendor do they use?": fact("Their search runs on Algolia.", "vendors.search"),
    "Which CRM do they use?": fact("Their CRM is HubSpot.", "vendors.crm"),
    "Who sends their email?": fact("Their email runs on Klaviyo.", "vendors.email"),
    "Who handles their support?": fact("Their support runs on Zendesk.", "vendors.support"),
    "Who takes their payments?": fact("Their payments run on Adyen.", "vendors.payments"),
}


class QuestionModel:
    """Answers each follow-up with its own fact (the root question with membership ARR),
    after holding every answer until ``release()`` so that the others pile up."""

    name = "by-question"

    def __init__(self) -> None:
        self.requests: list[AnswerRequest] = []
        self._gate = threading.Event()

    def answer(self, request: AnswerRequest) -> Answer:
        self.requests.append(request)
        self._gate.wait(timeout=15)
        claim = FOLLOW_UPS.get(request.question)
        return Answer(claims=[claim or fact("Membership ARR is $4.1M.", ARR_PATH)])

    def release(self) -> None:
        self._gate.set()


ARR_PATH = "financials.membership_arr_usd"


def test_concurrent_messages_in_one_thread_are_answered_in_order(harness: SlackHarness) -> None:
    model = QuestionModel()
    harness.deps.model = model
    user, channel, root = unique("U"), unique("C"), new_ts()
    bot = harness.fake.bot_user_id
    harness.slack.event(app_mention(f"<@{bot}> {QUESTION}", user=user, channel=channel, ts=root))
    harness.fake.wait_for(lambda: len(model.requests) == 1, what="the first turn to start")
    questions = list(FOLLOW_UPS)
    stamps = [new_ts() for _ in questions]  # the order the rep sent them in
    events = [
        channel_message(q, user=user, channel=channel, ts=ts, thread_ts=root)
        for q, ts in zip(questions, stamps, strict=True)
    ]
    with ThreadPoolExecutor(len(events)) as pool:  # delivered at once, in reverse
        statuses = list(pool.map(lambda e: harness.slack.event(e).status, reversed(events)))
    assert statuses == [200] * len(events)
    harness.fake.wait_for(
        lambda: len(harness.fake.calls("assistant.threads.setStatus")) == 1 + len(questions),
        what="a working status per message",
    )
    model.release()
    harness.wait_answers(channel, root, 1 + len(questions))
    harness.drain()

    asked = [QUESTION, *questions]
    assert [r.question for r in model.requests] == asked
    assert [[h.question for h in r.history] for r in model.requests] == [
        asked[:n] for n in range(len(asked))
    ]
    # The replies went out in the same order, each with its own question's fact.
    updates = harness.fake.calls("chat.postMessage")
    expected = [fact_for(q) for q in asked]
    assert [next(e for e in expected if e in c.params["text"]) for c in updates] == expected
    # The thread's history in Redis lists the questions in ts order, with their answers.
    where = Conversation(team=harness.fake.team_id, channel=channel, thread=root)
    history = harness.state.history(where)
    assert [h.question for h in history] == asked
    assert all(fact_for(h.question) in h.answer for h in history)
    assert all(h.report == NW for h in history)


def fact_for(question: str) -> str:
    claim = FOLLOW_UPS.get(question)
    return claim.text if claim else "Membership ARR is $4.1M."
