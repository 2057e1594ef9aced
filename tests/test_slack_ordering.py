"""One conversation's messages are answered in the order the rep sent them, across workers.

Two app instances (two "workers") share one Redis and one Slack workspace. The messages of
one DM thread reach them out of order and split between them while the first is still
being answered; the conversation's order in the turn log (``prism:order:<scope>``, see
``state/turns.py``) makes every worker answer them by Slack ts. The order itself is tested
in ``test_state_turns.py``.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
import redis
from slack_support import ARR_FACT, SEARCH_FACT, GatedModel, SlackHarness, SlowModel, fact, unique

from prism_slack.claims import Answer, Claim
from prism_slack.ports import AnswerRequest, Conversation
from prism_slack.state import keys
from prism_slack.testing.fake_slack import FakeMessage, FakeSlack
from prism_slack.testing.redis_server import RedisServer
from prism_slack.testing.slack_delivery import dm, new_ts

# Each question has an answer of its own, so a posted answer names the question it answers.
FACTS: dict[str, Claim] = {
    "What is Northwind Outfitters' membership ARR?": ARR_FACT,
    "And which search vendor do they use?": SEARCH_FACT,
    "Which CRM do they use?": fact("Their CRM is HubSpot.", "vendors.crm"),
    "Who sends their email?": fact("Their email runs on Klaviyo.", "vendors.email"),
}
QUESTIONS = list(FACTS)


class PerQuestionModel:
    """An ``AnswerModel`` answering each question of ``FACTS`` with its fact; keeps requests."""

    name = "per-question"

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.requests: list[AnswerRequest] = []

    def answer(self, request: AnswerRequest) -> Answer:
        with self._lock:
            self.requests.append(request)
        return Answer(claims=[FACTS[request.question]])


@pytest.fixture
def workers(
    redis_server: RedisServer, redis_client: redis.Redis
) -> Iterator[tuple[SlackHarness, SlackHarness]]:
    with (
        FakeSlack(team_id=unique("T")) as fake,
        SlackHarness(redis_server.url, fake=fake) as one,
        SlackHarness(redis_server.url, fake=fake) as two,
    ):
        yield one, two


def test_a_dm_thread_split_across_workers_is_answered_in_ts_order(
    workers: tuple[SlackHarness, SlackHarness], redis_client: redis.Redis
) -> None:
    one, two = workers
    fake = one.fake
    answers_by_question = PerQuestionModel()
    # The first answer is held until every other message waits; then each takes a while.
    gated = GatedModel(SlowModel(answers_by_question, delay_s=0.2))
    one.deps.model = two.deps.model = gated
    user, channel, root = unique("U"), unique("D"), new_ts()
    fake.add_assistant_thread(channel, root)
    stamps = [new_ts() for _ in QUESTIONS]  # the order the rep sent them

    def send(worker: SlackHarness, n: int) -> None:
        event = dm(QUESTIONS[n], user=user, channel=channel, ts=stamps[n], thread_ts=root)
        assert worker.slack.event(event).status == 200

    send(one, 0)
    fake.wait_for(lambda: gated.started == 1, what="the first turn to start")
    # The rest arrive out of order, and the next one in ts order at the other worker: with
    # a turn order kept per process, worker one would take message 2 straight after 0.
    for worker, n in ((two, 3), (one, 2), (two, 1)):
        send(worker, n)
    queue = keys.order(Conversation(team=fake.team_id, channel=channel, thread=root))
    fake.wait_for(lambda: redis_client.zcard(queue) == 4, what="every message to queue")
    gated.release()

    def answered() -> list[FakeMessage] | None:
        posted = fake.thread(channel, root)
        return posted if len(posted) >= len(QUESTIONS) else None

    fake.wait_for(answered, what="four answers")
    one.drain()
    two.drain()
    posted = fake.thread(channel, root)
    assert len(posted) == len(QUESTIONS)
    for message, question in zip(posted, QUESTIONS, strict=True):
        assert FACTS[question].text in message.text
    requests = answers_by_question.requests
    assert [r.question for r in requests] == QUESTIONS
    assert [[h.question for h in r.history] for r in requests] == [
        QUESTIONS[:n] for n in range(len(QUESTIONS))
    ]
    assert redis_client.exists(queue) == 0
