"""The in-process turnstile: one message of a conversation at a time, lowest ts first."""

from __future__ import annotations

import threading

import pytest

from prism_slack.errors import LockTimeout
from prism_slack.ports import Conversation
from prism_slack.slack.ordering import Turnstile, ts_key

HERE = Conversation(team="T", channel="D1")
ELSEWHERE = Conversation(team="T", channel="D2")


@pytest.mark.parametrize(
    ("earlier", "later"),
    [
        ("1700000000.000200", "1700000000.000300"),
        ("1700000000.999999", "1700000001.000000"),
        ("1700000000.1", "1700000000.2"),
        ("999999999.000001", "1700000000.000000"),
    ],
)
def test_ts_key_orders_like_slack(earlier: str, later: str) -> None:
    assert ts_key(earlier) < ts_key(later)


def test_waiters_go_in_ts_order_not_arrival_order() -> None:
    turnstile = Turnstile()
    order: list[str] = []
    lined_up = threading.Barrier(3)

    def answer(ts: str) -> None:
        with turnstile.place(HERE, ts) as place:
            lined_up.wait(timeout=5)
            place.wait(5)
            order.append(ts)

    with turnstile.place(HERE, "1.000001") as first:
        first.wait(1)
        threads = [threading.Thread(target=answer, args=(ts,)) for ts in ("1.000009", "1.000005")]
        for thread in threads:
            thread.start()
        lined_up.wait(timeout=5)
        assert turnstile.waiting(HERE) == 3
        order.append("1.000001")
    for thread in threads:
        thread.join(timeout=5)
    assert order == ["1.000001", "1.000005", "1.000009"]
    assert turnstile.waiting(HERE) == 0


def test_other_conversations_do_not_wait() -> None:
    turnstile = Turnstile()
    with turnstile.place(HERE, "1.000001") as mine:
        mine.wait(1)
        with turnstile.place(ELSEWHERE, "2.000000") as theirs:
            theirs.wait(0)  # no earlier message there: no wait, no timeout


def test_timeout_leaves_the_line() -> None:
    turnstile = Turnstile()
    with turnstile.place(HERE, "1.000001") as first:
        first.wait(1)
        with turnstile.place(HERE, "1.000002") as second, pytest.raises(LockTimeout):
            second.wait(0.05)
        assert turnstile.waiting(HERE) == 1
    assert turnstile.waiting(HERE) == 0
