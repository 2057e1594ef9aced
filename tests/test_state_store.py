"""The StateStore contract, run on a real redis-server and on fakeredis (the embedded default)."""

from __future__ import annotations

import datetime as dt
import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from decimal import Decimal

import fakeredis
import pytest
import redis
from hypothesis import given
from hypothesis import strategies as st
from redis import exceptions as rx

from prism_slack.claims import Claim
from prism_slack.errors import ConfigError, LockTimeout, StoreUnavailable
from prism_slack.ports import AuditRecord, Conversation, HistoryTurn, ModelCall, StateStore
from prism_slack.state import keys
from prism_slack.state.redis_store import (
    MEMORY_DESCRIPTION,
    RedisStateStore,
    memory_store,
    open_state_store,
    redis_call,
)
from prism_slack.testing.redis_server import RedisServer
from prism_slack.verdict import ClaimVerdict, Label, Method, Rung

THREAD = Conversation(team="T1", channel="C1", thread="1700000000.000100")
OTHER_THREAD = Conversation(team="T1", channel="C1", thread="1700000000.000200")
CHANNEL = Conversation(team="T1", channel="C1")
DM = Conversation(team="T1", channel="D1")
OTHER_TEAM = Conversation(team="T2", channel="C1")


@dataclass
class Backend:
    """A Redis to test on; ``connect()`` gives one more client on the same data (a 'worker')."""

    name: str
    connect: Callable[[], redis.Redis]
    clients: list[redis.Redis] = field(default_factory=list)

    def store(self, **options: object) -> RedisStateStore:
        client = self.connect()
        self.clients.append(client)
        return RedisStateStore(client, **options)  # type: ignore[arg-type]


@pytest.fixture(params=["redis", "fakeredis"])
def backend(request: pytest.FixtureRequest) -> Iterator[Backend]:
    if request.param == "redis":
        server: RedisServer = request.getfixturevalue("redis_server")
        request.getfixturevalue("redis_client")  # flushes the database
        chosen = Backend("redis", server.client)
    else:
        fake_server = fakeredis.FakeServer()
        chosen = Backend("fakeredis", lambda: fakeredis.FakeRedis(server=fake_server))
    yield chosen
    for client in chosen.clients:
        client.close()


class Clock:
    """Injectable wall clock for the token bucket."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_store_conforms_to_the_port(backend: Backend) -> None:
    store: StateStore = backend.store()
    store.ping()
    assert store.description


# -- bindings ---------------------------------------------------------------------------


def test_bindings_are_per_scope(backend: Backend) -> None:
    store = backend.store()
    scopes = {THREAD: "a", OTHER_THREAD: "b", CHANNEL: "c", DM: "d", OTHER_TEAM: "e"}
    for where, slug in scopes.items():
        assert store.get_binding(where) is None
        store.set_binding(where, slug)
    assert {where: store.get_binding(where) for where in scopes} == scopes

    assert store.clear_binding(THREAD) is True
    assert store.clear_binding(THREAD) is False
    assert store.get_binding(THREAD) is None
    assert store.get_binding(CHANNEL) == "c"
    store.set_binding(CHANNEL, "c2")
    assert store.get_binding(CHANNEL) == "c2"
    assert store.get_binding(OTHER_THREAD) == "b"


def test_channel_bindings_persist_and_thread_bindings_expire(backend: Backend) -> None:
    store = backend.store(history_ttl_s=100.0)
    store.set_binding(CHANNEL, "acme")
    store.set_binding(DM, "acme")
    store.set_binding(THREAD, "acme")
    client = backend.clients[0]
    assert client.pttl(keys.binding(CHANNEL)) == -1
    assert client.pttl(keys.binding(DM)) == -1
    assert 0 < client.pttl(keys.binding(THREAD)) <= 100_000


# -- history ----------------------------------------------------------------------------


def test_history_is_bounded_ordered_and_expires(backend: Backend) -> None:
    store = backend.store(history_limit=3, history_ttl_s=60.0)
    for i in range(5):
        store.append_history(THREAD, HistoryTurn(question=f"q{i}", answer=f"a{i}", report="acme"))
    turns = store.history(THREAD)
    assert [(t.question, t.answer) for t in turns] == [("q2", "a2"), ("q3", "a3"), ("q4", "a4")]
    assert all(t.report == "acme" for t in turns)
    assert store.history(OTHER_THREAD) == []
    assert store.history(CHANNEL) == []
    assert 0 < backend.clients[0].pttl(keys.history(THREAD)) <= 60_000


def test_history_skips_an_unreadable_entry(backend: Backend) -> None:
    store = backend.store()
    store.append_history(THREAD, HistoryTurn(question="q", answer="a"))
    backend.clients[0].rpush(keys.history(THREAD), "{not json")
    assert [t.question for t in store.history(THREAD)] == ["q"]


# -- engagement, events -----------------------------------------------------------------


def test_engagement_expires(backend: Backend) -> None:
    store = backend.store(engaged_ttl_s=0.1)
    assert store.is_engaged(THREAD) is False
    store.engage(THREAD)
    assert store.is_engaged(THREAD) is True
    assert store.is_engaged(OTHER_THREAD) is False
    time.sleep(0.15)
    assert store.is_engaged(THREAD) is False


def test_claim_event_is_true_exactly_once_across_racing_workers(backend: Backend) -> None:
    workers = [backend.store(event_ttl_s=60.0) for _ in range(8)]
    events = [f"Ev{i:03d}" for i in range(25)]
    start = threading.Barrier(len(workers))

    def work(store: RedisStateStore) -> list[bool]:
        start.wait(timeout=5)
        return [store.claim_event(event) for event in events]

    with ThreadPoolExecutor(len(workers)) as pool:
        results = list(pool.map(work, workers))
    wins = [sum(column) for column in zip(*results, strict=True)]
    assert wins == [1] * len(events)
    assert workers[0].claim_event(events[0]) is False
    assert 0 < backend.clients[0].pttl(keys.event(events[0])) <= 60_000


def test_claimed_event_can_be_claimed_again_after_its_ttl(backend: Backend) -> None:
    store = backend.store(event_ttl_s=0.05)
    assert store.claim_event("Ev1") is True
    assert store.claim_event("Ev1") is False
    time.sleep(0.1)
    assert store.claim_event("Ev1") is True


# -- locks ------------------------------------------------------------------------------


def test_lock_serialises_a_thread_but_not_other_threads(backend: Backend) -> None:
    first, second = backend.store(), backend.store()
    order: list[str] = []
    held = threading.Event()

    def hold() -> None:
        with first.lock(THREAD, timeout_s=1.0):
            order.append("first in")
            held.set()
            time.sleep(0.2)
            order.append("first out")

    def wait_then_take() -> None:
        assert held.wait(2)
        with second.lock(THREAD, timeout_s=2.0):
            order.append("second in")

    with ThreadPoolExecutor(2) as pool:
        futures = [pool.submit(hold), pool.submit(wait_then_take)]
        assert held.wait(2)
        with second.lock(OTHER_THREAD, timeout_s=0.05):
            order.append("other thread")
        for future in futures:
            future.result()
    assert order == ["first in", "other thread", "first out", "second in"]


def test_lock_times_out_while_held(backend: Backend) -> None:
    holder, waiter = backend.store(), backend.store()
    with holder.lock(THREAD, timeout_s=1.0):
        started = time.monotonic()
        with pytest.raises(LockTimeout), waiter.lock(THREAD, timeout_s=0.1):
            pass
        waited = time.monotonic() - started
    assert 0.05 <= waited < 1.0
    with waiter.lock(THREAD, timeout_s=0.1):
        pass


def test_lock_is_released_when_the_body_raises(backend: Backend) -> None:
    store = backend.store()
    with pytest.raises(KeyError), store.lock(THREAD, timeout_s=1.0):
        raise KeyError("boom")
    with store.lock(THREAD, timeout_s=0.0):
        pass


def test_lock_of_a_crashed_holder_expires(backend: Backend) -> None:
    crashed = backend.store(lock_ttl_s=0.2)
    survivor = backend.store()
    held = crashed.lock(THREAD, timeout_s=1.0)
    held.__enter__()  # and never exits: the worker died holding it
    started = time.monotonic()
    with survivor.lock(THREAD, timeout_s=2.0):
        waited = time.monotonic() - started
    assert 0.1 <= waited < 1.5


def test_releasing_an_expired_lock_neither_raises_nor_frees_the_new_holder(
    backend: Backend,
) -> None:
    slow = backend.store(lock_ttl_s=0.1)
    other = backend.store()
    slow_lock = slow.lock(THREAD, timeout_s=1.0)
    slow_lock.__enter__()
    time.sleep(0.2)  # the lease runs out while the slow worker is still busy
    with other.lock(THREAD, timeout_s=0.5):
        slow_lock.__exit__(None, None, None)  # must not raise
        with pytest.raises(LockTimeout), slow.lock(THREAD, timeout_s=0.05):
            pass  # the other worker still holds it


# -- turns ------------------------------------------------------------------------------


def wait_until(condition: Callable[[], bool], what: str, timeout_s: float = 5.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.005)


def queued(backend: Backend, where: Conversation = THREAD) -> int:
    """How many messages are in ``where``'s turn queue (read straight from Redis)."""
    return int(backend.clients[0].zcard(keys.turns(where)))


@pytest.mark.parametrize(
    ("earlier", "later"),
    [
        ("1700000000.000200", "1700000000.000300"),
        ("1700000000.999999", "1700000001.000000"),
        ("1700000000.1", "1700000000.2"),
        ("1700000000.0002", "1700000000.000201"),
        ("999999999.000001", "1700000000.000000"),
        ("1700000000", "1700000000.000001"),
        # 12-digit seconds: a float would round both to the same number
        ("999999999999.000001", "999999999999.000002"),
        # not a Slack ts: sorts first, so it is answered rather than stranded
        ("not-a-ts", "0.000001"),
        ("1.5e9", "0.000001"),
        ("", "0.000001"),
    ],
)
def test_turn_members_sort_in_ts_order_at_full_precision(earlier: str, later: str) -> None:
    assert keys.turn_member(earlier).encode() < keys.turn_member(later).encode()


def test_turns_are_taken_in_ts_order_across_workers_whatever_the_arrival(
    backend: Backend,
) -> None:
    """Two workers (stores, each with its own client), messages split between them."""
    workers = [backend.store(), backend.store()]
    first = "1700000000.000001"
    # arrival order; alternate messages go to alternate workers
    arrivals = [
        "1700000001.000000",
        "1700000000.000003",
        "1700000000.100000",
        "1700000000.000002",
        "1699999999.999999",  # sent before the message being answered: still next
        "1700000000.000010",
    ]
    entered: list[str] = []
    inside: list[int] = [0, 0]  # now, most at once
    guard = threading.Lock()

    def answer(store: RedisStateStore, ts: str) -> None:
        with store.turn(THREAD, ts, timeout_s=10.0):
            with guard:
                entered.append(ts)
                inside[0] += 1
                inside[1] = max(inside)
            time.sleep(0.01)
            with guard:
                inside[0] -= 1

    with ThreadPoolExecutor(len(arrivals)) as pool:
        with workers[0].turn(THREAD, first, timeout_s=1.0):
            futures = []
            for n, ts in enumerate(arrivals):
                futures.append(pool.submit(answer, workers[n % 2], ts))
                wait_until(lambda n=n: queued(backend) == n + 2, f"message {n} to queue")
        for future in futures:
            future.result(timeout=10)
    assert entered == sorted(arrivals, key=Decimal)
    assert inside[1] == 1
    assert queued(backend) == 0


def test_other_conversations_take_their_turns_at_once(backend: Backend) -> None:
    first, second = backend.store(), backend.store()
    with first.turn(THREAD, "1700000000.000009", timeout_s=1.0):
        with second.turn(OTHER_THREAD, "1700000000.000001", timeout_s=0.0):
            pass
        with second.turn(CHANNEL, "1700000000.000001", timeout_s=0.0):
            pass


def test_turn_timeout_leaves_the_queue(backend: Backend) -> None:
    holder, waiter = backend.store(), backend.store()
    with holder.turn(THREAD, "1700000000.000001", timeout_s=1.0):
        started = time.monotonic()
        behind = waiter.turn(THREAD, "1700000000.000002", timeout_s=0.1)
        with pytest.raises(LockTimeout, match="1 earlier message"), behind:
            pytest.fail("entered a turn that was not its own")
        assert 0.05 <= time.monotonic() - started < 1.0
        assert queued(backend) == 1
    assert queued(backend) == 0
    with waiter.turn(THREAD, "1700000000.000002", timeout_s=0.0):
        assert queued(backend) == 1


def test_the_head_still_waits_for_a_lock_taken_outside_the_queue(backend: Backend) -> None:
    holder, waiter = backend.store(), backend.store()
    with holder.lock(THREAD, timeout_s=1.0):
        head = waiter.turn(THREAD, "1700000000.000001", timeout_s=0.1)
        with pytest.raises(LockTimeout, match="stayed locked"), head:
            pytest.fail("entered while the lock was held")
        assert queued(backend) == 0
    with (
        waiter.turn(THREAD, "1700000000.000001", timeout_s=0.0),
        pytest.raises(LockTimeout),
        holder.lock(THREAD, timeout_s=0.0),
    ):
        pytest.fail("the turn holds the conversation's lock")


def test_one_message_taking_its_turn_twice_is_still_one_at_a_time(backend: Backend) -> None:
    first, second = backend.store(), backend.store()
    entered: list[str] = []

    def twice(store: RedisStateStore, name: str) -> None:
        with store.turn(THREAD, "1700000000.000002", timeout_s=5.0):
            entered.append(f"{name} in")
            time.sleep(0.05)
            entered.append(f"{name} out")

    with ThreadPoolExecutor(2) as pool:
        with first.turn(THREAD, "1700000000.000001", timeout_s=1.0):
            futures = [pool.submit(twice, first, "a"), pool.submit(twice, second, "b")]
            wait_until(lambda: queued(backend) == 2, "the message to queue")
        for future in futures:
            future.result(timeout=5)
    assert [e.split()[1] for e in entered] == ["in", "out", "in", "out"]
    assert queued(backend) == 0


def test_turn_is_left_when_the_body_raises(backend: Backend) -> None:
    store = backend.store()
    with pytest.raises(KeyError), store.turn(THREAD, "1700000000.000001", timeout_s=1.0):
        raise KeyError("boom")
    assert queued(backend) == 0
    with store.turn(THREAD, "1700000000.000002", timeout_s=0.0):
        pass


def test_turn_of_a_crashed_holder_is_skipped_when_its_lock_expires(backend: Backend) -> None:
    crashed = backend.store(lock_ttl_s=0.3)
    survivor = backend.store()
    held = crashed.turn(THREAD, "1700000000.000001", timeout_s=1.0)
    held.__enter__()  # and never exits: the worker died while answering
    started = time.monotonic()
    with survivor.turn(THREAD, "1700000000.000002", timeout_s=3.0):
        waited = time.monotonic() - started
        assert queued(backend) == 1
    assert 0.2 <= waited < 2.0


def test_entry_of_a_worker_that_died_waiting_is_skipped_after_its_lease(
    backend: Backend,
) -> None:
    survivor = backend.store()
    # What a worker that died while waiting leaves behind: its entry, never renewed again.
    lease_ends = time.time() + 0.3
    client = backend.clients[0]
    client.zadd(
        keys.turns(THREAD),
        {keys.turn_member("1700000000.000001"): int(lease_ends * 1000)},
    )
    with pytest.raises(LockTimeout), survivor.turn(THREAD, "1700000000.000002", 0.05):
        pytest.fail("the dead worker's entry is still within its lease")
    started = time.monotonic()
    with survivor.turn(THREAD, "1700000000.000002", timeout_s=3.0):
        waited = time.monotonic() - started
        assert queued(backend) == 1
    assert time.time() >= lease_ends - 0.05 and waited < 2.0


def test_a_live_waiter_keeps_its_place_beyond_its_lease(backend: Backend) -> None:
    holder = backend.store()
    patient = backend.store(turn_lease_s=0.1)  # renews its entry every poll
    late = backend.store()
    entered: list[str] = []

    def wait(store: RedisStateStore, ts: str) -> None:
        with store.turn(THREAD, ts, timeout_s=5.0):
            entered.append(ts)

    with ThreadPoolExecutor(2) as pool:
        with holder.turn(THREAD, "1700000000.000001", timeout_s=1.0):
            waiting = pool.submit(wait, patient, "1700000000.000002")
            wait_until(lambda: queued(backend) == 2, "the patient waiter to queue")
            time.sleep(0.4)  # four of its leases
            coming = pool.submit(wait, late, "1700000000.000003")
            wait_until(lambda: queued(backend) == 3, "the late waiter to queue")
            # the late waiter's polls drop expired entries: never the patient one's
            seen = set()
            for _ in range(40):
                seen.add(queued(backend))
                time.sleep(0.01)
            assert seen == {3}
        waiting.result(timeout=5)
        coming.result(timeout=5)
    assert entered == ["1700000000.000002", "1700000000.000003"]


def test_turn_queue_expires_with_the_lock_lease(backend: Backend) -> None:
    store = backend.store(lock_ttl_s=30.0, turn_lease_s=5.0)
    with store.turn(THREAD, "1700000000.000001", timeout_s=1.0):
        client = backend.clients[0]
        assert 0 < client.pttl(keys.turns(THREAD)) <= 30_000
        ((_, deadline_ms),) = client.zrange(keys.turns(THREAD), 0, -1, withscores=True)
        assert 29_000 <= deadline_ms - time.time() * 1000 <= 30_001
    assert client.exists(keys.turns(THREAD)) == 0


# -- audit and feedback -----------------------------------------------------------------


def audit_record(turn_id: str = "turn-1") -> AuditRecord:
    claim = Claim(text="Their CRM is HubSpot.", kind="fact", evidence=["vendors.crm"])
    return AuditRecord(
        turn_id=turn_id,
        at=dt.datetime(2026, 3, 9, 12, 0, tzinfo=dt.UTC),
        conversation=THREAD,
        report="acme",
        report_id="R-1",
        report_digest="sha256:abc",
        evidence_root="sha256:def",
        model="scripted",
        prompt_digest="sha256:123",
        verdicts=[
            ClaimVerdict(claim=claim, rung=Rung.ANCHOR_WARRANTED, supported=True, reasons=[])
        ],
        label=Label.EVIDENCE_LINKED,
        method=Method.DETERMINISTIC,
        model_calls=[ModelCall(role="answer", model="scripted", ok=True, latency_ms=1.5)],
        timings_ms={"answer": 1.5},
    )


def test_audit_roundtrip_with_ttl(backend: Backend) -> None:
    store = backend.store(audit_ttl_s=3600.0)
    record = audit_record()
    store.save_audit(record)
    assert store.get_audit("turn-1") == record
    assert store.get_audit("turn-2") is None
    assert 0 < backend.clients[0].pttl(keys.audit("turn-1")) <= 3_600_000


def test_unreadable_audit_record_reads_as_missing(backend: Backend) -> None:
    store = backend.store()
    backend.clients[0].set(keys.audit("turn-1"), '{"turn_id": "turn-1"}')
    assert store.get_audit("turn-1") is None


def test_feedback_per_user_latest_wins(backend: Backend) -> None:
    clock = Clock(1_800_000_000.0)
    store = backend.store(audit_ttl_s=3600.0, clock=clock)
    assert store.get_feedback("turn-1") == {}
    store.save_feedback("turn-1", "U1", "up")
    store.save_feedback("turn-1", "U2", "down")
    clock.now += 60
    store.save_feedback("turn-1", "U1", "down")
    store.save_feedback("turn-2", "U1", "up")
    assert store.get_feedback("turn-1") == {"U1": "down", "U2": "down"}
    assert store.get_feedback("turn-2") == {"U1": "up"}

    client = backend.clients[0]
    entry = json.loads(client.hget(keys.feedback("turn-1"), "U1"))
    assert entry == {"user": "U1", "value": "down", "at": "2027-01-15T08:01:00+00:00"}
    assert 0 < client.pttl(keys.feedback("turn-1")) <= 3_600_000


# -- rate limit -------------------------------------------------------------------------

# (seconds to advance the clock before taking, expected result) with capacity 3, 1 token/s
BUCKET_STEPS = [
    (0.0, True),
    (0.0, True),
    (0.0, True),
    (0.0, False),  # empty
    (0.5, False),  # half a token
    (0.5, True),  # a whole one
    (0.0, False),
    (100.0, True),  # refilled, but only up to capacity
    (0.0, True),
    (0.0, True),
    (0.0, False),
    (-50.0, False),  # a lagging clock refills nothing
]


def test_token_bucket_capacity_refusal_and_refill(backend: Backend) -> None:
    clock = Clock()
    store = backend.store(rate_capacity=3, rate_refill_per_s=1.0, clock=clock)
    got = []
    for advance, _ in BUCKET_STEPS:
        clock.now += advance
        got.append(store.take_token("U1"))
    assert got == [expected for _, expected in BUCKET_STEPS]
    assert store.take_token("U2") is True
    assert backend.clients[0].pttl(keys.rate("U1")) > 0


def test_token_bucket_is_atomic_under_racing_workers(backend: Backend) -> None:
    clock = Clock()  # frozen: no refill during the race
    workers = [
        backend.store(rate_capacity=10, rate_refill_per_s=0.001, clock=clock) for _ in range(8)
    ]
    start = threading.Barrier(len(workers))

    def work(store: RedisStateStore) -> int:
        start.wait(timeout=5)
        return sum(store.take_token("U1") for _ in range(5))

    with ThreadPoolExecutor(len(workers)) as pool:
        taken = sum(pool.map(work, workers))
    assert taken == 10


# -- keys -------------------------------------------------------------------------------

# Pairs that a naive "team:channel:thread" key would confuse.
LOOKALIKES = [
    (Conversation(team="T", channel="C", thread="1"), Conversation(team="T", channel="C:1")),
    (Conversation(team="T:C", channel="1"), Conversation(team="T", channel="C:1")),
    (Conversation(team="T", channel="C%3A1"), Conversation(team="T", channel="C:1")),
    (Conversation(team="T", channel="C", thread=""), Conversation(team="T", channel="C")),
    (Conversation(team="T", channel="*"), Conversation(team="T", channel="C")),
    (Conversation(team="T", channel="C:t:T:C"), Conversation(team="T", channel="C", thread="t")),
]


@pytest.mark.parametrize(("bound", "lookalike"), LOOKALIKES)
def test_hostile_ids_cannot_reach_another_conversation(
    backend: Backend, bound: Conversation, lookalike: Conversation
) -> None:
    store = backend.store()
    store.set_binding(bound, "acme")
    store.append_history(bound, HistoryTurn(question="q", answer="a"))
    store.engage(bound)
    assert store.get_binding(lookalike) is None
    assert store.history(lookalike) == []
    assert store.is_engaged(lookalike) is False
    with store.lock(bound, timeout_s=0.1), store.lock(lookalike, timeout_s=0.1):
        pass
    with store.turn(bound, "1.000002", timeout_s=0.1), store.turn(lookalike, "1.000001", 0.1):
        pass


def test_glob_characters_in_ids_are_inert(backend: Backend) -> None:
    store = backend.store()
    store.save_feedback("turn-1", "U1", "up")
    assert store.get_feedback("*") == {}
    assert store.claim_event("*") is True
    assert store.claim_event("Ev1") is True


ids = st.text(max_size=6)
conversations = st.builds(Conversation, team=ids, channel=ids, thread=st.none() | ids)


@given(conversations, conversations)
def test_conversation_keys_are_injective(a: Conversation, b: Conversation) -> None:
    assert (keys.binding(a) == keys.binding(b)) == (a == b)
    assert (keys.history(a) == keys.history(b)) == (a == b)
    assert (keys.turns(a) == keys.turns(b)) == (a == b)


@given(st.text(), st.text())
def test_id_keys_are_injective_and_namespaced(a: str, b: str) -> None:
    for key in (keys.event, keys.audit, keys.feedback, keys.rate):
        assert key(a).startswith(keys.PREFIX)
        assert (key(a) == key(b)) == (a == b)
        assert ":" not in key(a).removeprefix(keys.PREFIX).split(":", 1)[1]


def test_every_key_is_namespaced_and_only_channel_bindings_live_forever(
    backend: Backend,
) -> None:
    store = backend.store()
    store.set_binding(CHANNEL, "acme")
    store.set_binding(THREAD, "acme")
    store.append_history(THREAD, HistoryTurn(question="q", answer="a"))
    store.engage(THREAD)
    store.claim_event("Ev1")
    store.save_audit(audit_record())
    store.save_feedback("turn-1", "U1", "up")
    store.take_token("U1")
    with store.lock(THREAD, timeout_s=1.0), store.turn(OTHER_THREAD, "1.000001", 1.0):
        client = backend.clients[0]
        written = sorted(k.decode() for k in client.keys("*"))
        assert len(written) == 12  # with prism:audits, the index of recent turns
        assert sorted(k.decode() for k in client.keys(keys.PATTERN)) == written
        forever = [key for key in written if client.pttl(key) == -1]
    assert forever == [keys.binding(CHANNEL)]


# -- failures ---------------------------------------------------------------------------


def hold_lock(store: StateStore) -> None:
    with store.lock(THREAD, timeout_s=0.1):
        pass


def take_turn(store: StateStore) -> None:
    with store.turn(THREAD, "1700000000.000001", timeout_s=0.1):
        pass


CALLS: dict[str, Callable[[StateStore], object]] = {
    "ping": lambda s: s.ping(),
    "get_binding": lambda s: s.get_binding(THREAD),
    "set_binding": lambda s: s.set_binding(THREAD, "acme"),
    "clear_binding": lambda s: s.clear_binding(THREAD),
    "history": lambda s: s.history(THREAD),
    "append_history": lambda s: s.append_history(THREAD, HistoryTurn(question="q", answer="a")),
    "engage": lambda s: s.engage(THREAD),
    "is_engaged": lambda s: s.is_engaged(THREAD),
    "claim_event": lambda s: s.claim_event("Ev1"),
    "lock": hold_lock,
    "turn": take_turn,
    "save_audit": lambda s: s.save_audit(audit_record()),
    "get_audit": lambda s: s.get_audit("turn-1"),
    "save_feedback": lambda s: s.save_feedback("turn-1", "U1", "up"),
    "get_feedback": lambda s: s.get_feedback("turn-1"),
    "take_token": lambda s: s.take_token("U1"),
}


def assert_every_call_is_unavailable(store: StateStore) -> None:
    for name, call in CALLS.items():
        with pytest.raises(StoreUnavailable) as caught:
            call(store)
        assert isinstance(caught.value.__cause__, rx.RedisError), name


def test_real_redis_down_then_back_without_rebuilding_the_store(
    make_redis_server: Callable[..., RedisServer], caplog: pytest.LogCaptureFixture
) -> None:
    server = make_redis_server(appendonly=True)
    store = open_state_store(server.url)
    store.set_binding(THREAD, "acme")
    held = store.lock(OTHER_THREAD, timeout_s=1.0)
    held.__enter__()

    server.stop()
    started = time.monotonic()
    assert_every_call_is_unavailable(store)
    per_call_s = (time.monotonic() - started) / len(CALLS)
    assert per_call_s < 1.0
    with caplog.at_level(logging.WARNING):
        held.__exit__(None, None, None)  # the lease will expire; releasing must not raise
    assert "could not release lock" in caplog.text

    server.start()
    assert store.get_binding(THREAD) == "acme"  # same store, same port, data kept
    store.ping()


def test_memory_store_disconnected_then_back() -> None:
    server = fakeredis.FakeServer()
    store = RedisStateStore(fakeredis.FakeRedis(server=server))
    store.set_binding(THREAD, "acme")
    server.connected = False
    assert_every_call_is_unavailable(store)
    server.connected = True
    assert store.get_binding(THREAD) == "acme"


@pytest.mark.parametrize(
    "error",
    [
        rx.ConnectionError("refused"),
        rx.TimeoutError("timed out"),
        rx.BusyLoadingError("loading"),
        rx.ReadOnlyError("replica"),
        rx.AuthenticationError("bad auth"),
        rx.ResponseError("WRONGTYPE"),
    ],
    ids=lambda e: type(e).__name__,
)
def test_redis_errors_become_store_unavailable(error: rx.RedisError) -> None:
    with pytest.raises(StoreUnavailable, match=type(error).__name__) as caught, redis_call("op"):
        raise error
    assert caught.value.__cause__ is error


def test_other_errors_pass_through_redis_call() -> None:
    with pytest.raises(KeyError), redis_call("op"):
        raise KeyError("not redis")


# -- factories --------------------------------------------------------------------------


def test_open_without_url_is_the_in_memory_default(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        store = open_state_store(None, history_limit=2)
    assert store.description == MEMORY_DESCRIPTION
    assert store.history_limit == 2
    assert "kept in memory" in caplog.text
    store.ping()


def test_memory_stores_are_independent() -> None:
    first, second = memory_store(), memory_store()
    first.set_binding(CHANNEL, "acme")
    assert second.get_binding(CHANNEL) is None


@pytest.mark.parametrize(
    ("url", "description"),
    [
        ("redis://:s3cret@cache.internal:6380/2", "redis (redis://cache.internal:6380/2)"),
        ("rediss://user:s3cret@cache.internal", "redis (rediss://cache.internal:6379/0)"),
        ("redis://localhost", "redis (redis://localhost:6379/0)"),
        ("unix:///run/redis.sock", "redis (unix:///run/redis.sock)"),
    ],
)
def test_description_never_holds_the_password(url: str, description: str) -> None:
    store = open_state_store(url)
    assert store.description == description


@pytest.mark.parametrize(
    "url", ["http://:s3cret@cache.internal:6379", "redis://:s3cret@cache.internal:port"]
)
def test_unusable_url_is_a_config_error_without_the_password(url: str) -> None:
    with pytest.raises(ConfigError) as caught:
        open_state_store(url)
    assert "s3cret" not in str(caught.value)


def test_open_state_store_on_a_real_server(redis_server: RedisServer) -> None:
    store = open_state_store(redis_server.url)
    store.ping()
    assert store.description == f"redis (redis://127.0.0.1:{redis_server.port}/0)"


@pytest.mark.parametrize(
    "options", [{"history_limit": 0}, {"rate_capacity": 0}, {"event_ttl_s": 0.0}]
)
def test_nonsense_options_are_refused(options: dict[str, float]) -> None:
    with pytest.raises(ConfigError):
        memory_store(**options)  # type: ignore[arg-type]
