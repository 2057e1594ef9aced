"""A message Slack handed us is a promise: `prism serve` for real (two gunicorn workers, a
real redis-server, FakeSlack, FakeGemini answering slowly) loses nothing when a worker is
killed mid-turn, when a deploy sends SIGTERM mid-turn, or when Redis restarts mid-load.

Every acked message ends answered exactly once — one bot message in its DM, not a
placeholder, answered in the app's log exactly once — or with the rep told (the store was
down when it came). Reclaiming is made quick through the environment
(``PRISM_RECLAIM_AFTER_S``), as an operator would set it.
"""

from __future__ import annotations

import os
import re
import signal
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from slack_support import REPORTS_DIR, unique

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.load.responder import BenchResponder, company_answers  # noqa: E402
from bench.load.stack import SIGNING_SECRET, LoadStack  # noqa: E402
from prism_slack.reports.store import FileReportStore  # noqa: E402
from prism_slack.slack import texts  # noqa: E402
from prism_slack.state import keys  # noqa: E402
from prism_slack.testing.fake_slack import FakeMessage  # noqa: E402
from prism_slack.testing.slack_delivery import SlackDelivery, dm  # noqa: E402

QUESTION = "What is Northwind Outfitters' revenue?"
RECLAIM_S = 1.0
HANDLED = re.compile(r"slack message (\S+) kind=\w+ handled=(\w+)")


def stack(tmp_path: Path, *, delay_s: float, **options: object) -> LoadStack:
    env = {"PRISM_RECLAIM_AFTER_S": str(RECLAIM_S), **options.pop("env", {})}  # type: ignore[dict-item]
    responder = BenchResponder(company_answers(FileReportStore(REPORTS_DIR).all()), delay_s=delay_s)
    return LoadStack(
        responder=responder,
        reports_dir=REPORTS_DIR,
        work_dir=tmp_path,
        workers=2,
        env=env,
        **options,  # type: ignore[arg-type]
    )


@pytest.fixture
def make_stack(tmp_path: Path) -> Iterator[list[LoadStack]]:
    made: list[LoadStack] = []
    yield made
    for one in made:
        one.stop()


def send(one: LoadStack, n: int) -> list[str]:
    """``n`` DMs, each from a rep of their own; the DM channels."""
    slack = SlackDelivery(one.events_url, SIGNING_SECRET, team_id=one.slack.team_id)
    channels = [unique("D") for _ in range(n)]
    for channel in channels:
        delivered = slack.event(dm(QUESTION, user="U" + channel, channel=channel))
        assert delivered.status == 200
    return channels


def placeholders(one: LoadStack, channels: list[str]) -> int:
    return sum(
        1 for c in channels for m in one.slack.thread(c, None) if m.text == texts.PLACEHOLDER
    )


def final(one: LoadStack, channel: str) -> list[FakeMessage]:
    return [m for m in one.slack.thread(channel, None) if m.text != texts.PLACEHOLDER]


def wait_all_answered(one: LoadStack, channels: list[str], timeout_s: float = 30.0) -> None:
    """Until every DM shows its answer and the app logged it answered (just after)."""

    def settled() -> bool:
        counts = handled(one)
        return placeholders(one, channels) == 0 and all(
            final(one, c) and counts[(c, "answered")] for c in channels
        )

    one.slack.wait_for(settled, timeout=timeout_s, what=f"{len(channels)} DMs answered")


def handled(one: LoadStack) -> Counter[tuple[str, str]]:
    return Counter(
        (key.rsplit(":", 2)[1], outcome) for key, outcome in HANDLED.findall(one.server.log_text())
    )


def assert_answered_exactly_once(one: LoadStack, channels: list[str]) -> None:
    for channel in channels:
        [answer] = one.slack.thread(channel, None)  # the placeholder, replaced in place
        assert "Revenue was" in answer.text, answer.text
        posts = [c for c in one.slack.calls("chat.postMessage") if c.params["channel"] == channel]
        assert len(posts) == 1  # one placeholder, however often the turn was picked up
    counts = handled(one)
    assert {c: counts[(c, "answered")] for c in channels} == dict.fromkeys(channels, 1)
    client = one.redis.client()
    try:
        assert client.xlen(keys.TURN_STREAM) == 0  # every turn finished
    finally:
        client.close()


def pending_by_worker(one: LoadStack) -> dict[int, int]:
    """Turns each worker pid holds (its consumer's pending count)."""
    client = one.redis.client()
    try:
        held: dict[int, int] = {}
        for consumer in client.xinfo_consumers(keys.TURN_STREAM, "prism"):
            name = (
                consumer["name"].decode()
                if isinstance(consumer["name"], bytes)
                else consumer["name"]
            )
            pid = int(name.split("-")[-2])
            held[pid] = held.get(pid, 0) + int(consumer["pending"])
        return held
    finally:
        client.close()


def test_kill_9_of_a_worker_mid_turn_loses_nothing(
    tmp_path: Path, make_stack: list[LoadStack]
) -> None:
    one = stack(tmp_path, delay_s=2.0).start()
    make_stack.append(one)
    channels = send(one, 8)
    one.slack.wait_for(lambda: placeholders(one, channels) == 8, what="every turn under way")
    held = pending_by_worker(one)
    victim = max((pid for pid in one.server.worker_pids() if held.get(pid)), key=held.__getitem__)
    os.kill(victim, signal.SIGKILL)
    killed_at = time.monotonic()
    wait_all_answered(one, channels)
    recovered_s = time.monotonic() - killed_at
    assert_answered_exactly_once(one, channels)
    assert "reclaimed by" in one.server.log_text()
    assert recovered_s < 2.0 + RECLAIM_S + 10.0


def test_sigterm_answers_what_fits_in_the_grace_period(
    tmp_path: Path, make_stack: list[LoadStack]
) -> None:
    one = stack(tmp_path, delay_s=1.0, env={"PRISM_TURN_BUDGET_S": "10"}).start()
    make_stack.append(one)
    channels = send(one, 6)
    one.slack.wait_for(lambda: placeholders(one, channels) == 6, what="every turn under way")
    assert one.server.stop() == 0
    assert_answered_exactly_once(one, channels)


def test_sigterm_hands_back_what_does_not_fit_and_a_restart_answers_it(
    tmp_path: Path, make_stack: list[LoadStack]
) -> None:
    # Budget 0.5 s → graceful_timeout 4 s, of which 1 s is left for turns: a 2.5 s model
    # call does not fit, so the turn is handed back and answered by the next server.
    one = stack(tmp_path, delay_s=2.5, env={"PRISM_TURN_BUDGET_S": "0.5"}).start()
    make_stack.append(one)
    channels = send(one, 4)
    one.slack.wait_for(lambda: placeholders(one, channels) == 4, what="every turn under way")
    one.server.stop()
    log = one.server.log_text()
    assert "handed back" in log
    assert placeholders(one, channels) > 0  # not answered by the stopped server
    one.server.start().wait_healthy(one.url, workers=2)
    wait_all_answered(one, channels)
    assert_answered_exactly_once(one, channels)


def test_redis_restarted_mid_load_loses_nothing(
    tmp_path: Path, make_stack: list[LoadStack]
) -> None:
    one = stack(tmp_path, delay_s=1.0, appendonly=True).start()
    make_stack.append(one)
    before = send(one, 6)
    one.slack.wait_for(lambda: placeholders(one, before) == 6, what="every turn under way")
    one.redis.stop()
    during = send(one, 2)  # the store is down: the rep is told at once
    time.sleep(0.5)
    one.redis.start()
    after = send(one, 2)
    wait_all_answered(one, before + after)
    assert_answered_exactly_once(one, before + after)
    for channel in during:
        [told] = final(one, channel)
        assert told.text.startswith(texts.STORE_DOWN[:30])
    counts = handled(one)
    assert all(counts[(c, "store_down")] == 1 for c in during)
    assert not any(counts[(c, "answered")] for c in during)


SLACK_FAILURES = [
    # what FakeSlack does to the next call, what the rep ends up seeing
    ("chat.update", {"error": "internal_error", "status": 500}, "answered"),
    ("chat.postMessage", {"error": "internal_error", "status": 500, "lands": True}, "answered"),
    ("chat.update", {"error": "msg_too_long"}, "answered"),
    ("chat.update", {"error": "channel_not_found"}, "failed"),
]


def test_slack_failing_the_reply_is_retried_or_failed_never_logged_answered(
    tmp_path: Path, make_stack: list[LoadStack]
) -> None:
    one = stack(tmp_path, delay_s=0.2).start()
    make_stack.append(one)
    for method, failure, outcome in SLACK_FAILURES:
        one.slack.fail_next(method, **failure)  # type: ignore[arg-type]
        [channel] = send(one, 1)
        one.slack.wait_for(
            lambda c=channel: any(k == c for k, _ in handled(one)),  # type: ignore[misc]
            timeout=20,
            what=f"the outcome of {method} {failure}",
        )
        counts = handled(one)
        assert (
            counts[(channel, outcome)] == 1
            and sum(n for (c, _), n in counts.items() if c == channel) == 1
        ), counts
        [message] = one.slack.thread(channel, None)  # never a second post
        if outcome == "answered":
            assert "Revenue was" in message.text
        else:
            assert message.text == texts.PLACEHOLDER
            turn = f"{one.slack.team_id}:{channel}:"
            errors = [
                line
                for line in one.server.log_text().splitlines()
                if " ERROR " in line and turn in line
            ]
            assert len(errors) == 1 and "channel_not_found" in errors[0]
