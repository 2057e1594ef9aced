"""The durable turn log (a Redis Stream with a consumer group), on a real redis-server and
on fakeredis (the embedded default): once per message, ts order per conversation,
reclaimed from a dead consumer, kept by a live one, handed back at once on shutdown."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import replace

import fakeredis
import pytest
import redis

from prism_slack.ports import Conversation
from prism_slack.state import keys
from prism_slack.state.turns import GROUP, QueuedTurn, TurnLog
from prism_slack.testing.redis_server import RedisServer

THREAD = Conversation(team="T1", channel="C1", thread="1700000000.000100")
OTHER = Conversation(team="T1", channel="C2")


def turn(ts: str, where: Conversation = THREAD) -> QueuedTurn:
    return QueuedTurn(
        turn_id=f"{where.team}:{where.channel}:{ts}", conversation=where, ts=ts, message={"t": ts}
    )


@pytest.fixture(params=["redis", "fakeredis"])
def client(request: pytest.FixtureRequest) -> Iterator[redis.Redis]:
    if request.param == "redis":
        server: RedisServer = request.getfixturevalue("redis_server")
        made = server.client()
        made.flushdb()
    else:
        made = fakeredis.FakeRedis(server=fakeredis.FakeServer())
    yield made
    made.close()


def log(client: redis.Redis, name: str, reclaim_after_s: float = 0.2) -> TurnLog:
    return TurnLog(client, consumer=name, reclaim_after_s=reclaim_after_s)


def test_a_message_is_recorded_once_however_often_it_is_delivered(client: redis.Redis) -> None:
    one = log(client, "w1")
    results: list[bool] = []
    threads = [
        threading.Thread(target=lambda: results.append(one.enqueue(turn("1.000001"))))
        for _ in range(8)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [False] * 7 + [True]
    [entry] = one.read(10, block_ms=10)  # the duplicates' entries are dropped unanswered
    assert client.xlen(keys.TURN_STREAM) == 1 and one.pending_count() == 1
    assert entry.turn == replace(turn("1.000001"), received_at=entry.turn.received_at)
    assert entry.turn.received_at > 0


def test_the_head_of_a_conversation_is_its_earliest_message_whatever_the_arrival(
    client: redis.Redis,
) -> None:
    one = log(client, "w1")
    for ts in ("1700000000.000300", "1700000000.000100", "1700000000.000200"):
        assert one.enqueue(turn(ts))
    assert one.enqueue(turn("1.000001", OTHER))
    heads = one.heads([THREAD, OTHER])
    assert heads[THREAD] == keys.order_member("1700000000.000100", "T1:C1:1700000000.000100")
    assert heads[OTHER] == keys.order_member("1.000001", "T1:C2:1.000001")
    entries = {e.turn.ts: e for e in one.read(10, block_ms=10)}
    one.finish(entries["1700000000.000100"], "answered")
    assert one.heads([THREAD])[THREAD] == keys.order_member(
        "1700000000.000200", "T1:C1:1700000000.000200"
    )


def test_finish_acks_deletes_and_keeps_only_the_outcome(client: redis.Redis) -> None:
    one = log(client, "w1")
    one.enqueue(turn("1.000001"))
    [entry] = one.read(10, block_ms=10)
    one.note(entry.turn.turn_id, placeholder_ts="9.1", posting="reply")
    one.note(entry.turn.turn_id, posting=None)
    progress = one.progress(entry.turn.turn_id)
    assert progress.placeholder_ts == "9.1" and progress.posting is None
    one.finish(entry, "answered")
    assert client.xlen(keys.TURN_STREAM) == 0 and one.pending_count() == 0
    assert client.zcard(keys.order(THREAD)) == 0
    record = client.hgetall(keys.turn(entry.turn.turn_id))
    assert record[b"status"] == b"answered" and b"message" not in record
    assert one.enqueue(turn("1.000001")) is False  # a late Slack retry is still a duplicate


def test_a_dead_consumers_turn_is_reclaimed_and_a_live_ones_is_not(client: redis.Redis) -> None:
    dead, live, other = log(client, "dead"), log(client, "live"), log(client, "other")
    dead.enqueue(turn("1.000001"))
    live.enqueue(turn("1.000002", OTHER))
    [held_by_dead] = dead.read(1, block_ms=10)
    [held_by_live] = live.read(1, block_ms=10)
    assert other.reclaim(10) == []  # not idle long enough yet
    deadline = time.monotonic() + 3
    taken = []
    while not taken and time.monotonic() < deadline:
        assert live.heartbeat([held_by_live.entry_id]) == set()
        time.sleep(0.05)
        taken = other.reclaim(10)
    assert [e.turn.turn_id for e in taken] == [held_by_dead.turn.turn_id]
    # The dead consumer, were it to come back, no longer holds it.
    assert dead.heartbeat([held_by_dead.entry_id]) == {held_by_dead.entry_id}


def test_handed_back_turns_are_taken_at_once(client: redis.Redis) -> None:
    leaving, next_one = log(client, "leaving", 60.0), log(client, "next", 60.0)
    for ts in ("1.000001", "1.000002"):
        leaving.enqueue(turn(ts))
    entries = leaving.read(10, block_ms=10)
    leaving.hand_back([e.entry_id for e in entries])
    taken = next_one.reclaim(10)
    assert sorted(e.turn.ts for e in taken) == ["1.000001", "1.000002"]
    assert next_one.reclaim(10) == []
    pending = client.xpending_range(keys.TURN_STREAM, GROUP, "-", "+", 10)
    assert {p["consumer"] for p in pending} == {b"next"}


def test_a_lost_group_is_made_again(client: redis.Redis) -> None:
    one = log(client, "w1")
    one.enqueue(turn("1.000001"))
    assert len(one.read(10, block_ms=10)) == 1
    client.flushall()  # Redis restarted without persistence
    one.enqueue(turn("1.000002"))
    with pytest.raises(Exception, match="NOGROUP"):
        one.read(10, block_ms=10)
    [entry] = one.read(10, block_ms=10)
    assert entry.turn.ts == "1.000002"


def test_a_finished_turn_left_at_the_head_is_dropped(client: redis.Redis) -> None:
    one = log(client, "w1")
    one.enqueue(turn("1.000001"))
    one.enqueue(turn("1.000002"))
    head = keys.order_member("1.000001", "T1:C1:1.000001")
    assert one.drop_stale_head(THREAD, head) is False  # still queued: it is the head
    client.hset(keys.turn("T1:C1:1.000001"), "status", "answered")
    assert one.drop_stale_head(THREAD, head) is True
    assert one.heads([THREAD])[THREAD] == keys.order_member("1.000002", "T1:C1:1.000002")
