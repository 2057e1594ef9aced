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

import fakeredis
import pytest
import redis
from hypothesis import given
from hypothesis import strategies as st
from redis import exceptions as rx

from prism_slack.claims import Claim
from prism_slack.errors import ConfigError, StoreUnavailable
from prism_slack.ports import AuditRecord, Conversation, HistoryTurn, ModelCall, StateStore
from prism_slack.state import keys
from prism_slack.state.redis_store import (
    MEMORY_DESCRIPTION,
    RedisStateStore,
    memory_store,
    open_state_store,
    redis_call,
)
from prism_slack.state.turns import QueuedTurn
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


def queued_turn(turn_id: str, where: Conversation, ts: str) -> QueuedTurn:
    return QueuedTurn(turn_id=turn_id, conversation=where, ts=ts, message={"text": "q"})


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
        store.set_binding(where, slug=slug)
    assert {where: store.get_binding(where) for where in scopes} == scopes

    assert store.clear_binding(THREAD) is True
    assert store.clear_binding(THREAD) is False
    assert store.get_binding(THREAD) is None
    assert store.get_binding(CHANNEL) == "c"
    store.set_binding(CHANNEL, slug="c2")
    assert store.get_binding(CHANNEL) == "c2"
    assert store.get_binding(OTHER_THREAD) == "b"


def test_channel_bindings_persist_and_thread_bindings_expire(backend: Backend) -> None:
    store = backend.store(history_ttl_s=100.0)
    store.set_binding(CHANNEL, slug="acme")
    store.set_binding(DM, slug="acme")
    store.set_binding(THREAD, slug="acme")
    client = backend.clients[0]
    assert client.pttl(keys.binding(CHANNEL)) == -1
    assert client.pttl(keys.binding(DM)) == -1
    assert 0 < client.pttl(keys.binding(THREAD)) <= 100_000


# -- history ----------------------------------------------------------------------------


def test_history_is_bounded_ordered_and_expires(backend: Backend) -> None:
    store = backend.store(history_limit=3, history_ttl_s=60.0)
    for i in range(5):
        store.append_history(
            THREAD, turn=HistoryTurn(question=f"q{i}", answer=f"a{i}", report="acme")
        )
    turns = store.history(THREAD)
    assert [(t.question, t.answer) for t in turns] == [("q2", "a2"), ("q3", "a3"), ("q4", "a4")]
    assert all(t.report == "acme" for t in turns)
    assert store.history(OTHER_THREAD) == []
    assert store.history(CHANNEL) == []
    assert 0 < backend.clients[0].pttl(keys.history(THREAD)) <= 60_000


def test_history_skips_an_unreadable_entry(backend: Backend) -> None:
    store = backend.store()
    store.append_history(THREAD, turn=HistoryTurn(question="q", answer="a"))
    backend.clients[0].rpush(keys.history(THREAD), "{not json")
    assert [t.question for t in store.history(THREAD)] == ["q"]


# -- engagement, turn order ----------------------------------------------------------------


def test_engagement_expires(backend: Backend) -> None:
    store = backend.store(engaged_ttl_s=0.1)
    assert store.is_engaged(THREAD) is False
    store.engage(THREAD)
    assert store.is_engaged(THREAD) is True
    assert store.is_engaged(OTHER_THREAD) is False
    time.sleep(0.15)
    assert store.is_engaged(THREAD) is False


def test_the_side_panel_greets_once_per_dm_and_knows_each_reps_dm(backend: Backend) -> None:
    store, other_worker = backend.store(), backend.store()
    assert store.first_greeting(DM) is True
    assert other_worker.first_greeting(DM) is False  # shared by every worker
    assert store.first_greeting(Conversation(team="T1", channel="D2")) is True
    assert store.dm_of("T1", "U1") is None
    store.remember_dm("T1", "U1", "D1")
    assert other_worker.dm_of("T1", "U1") == "D1" and store.dm_of("T2", "U1") is None


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


def test_save_turn_writes_the_audit_and_the_history_in_one_go(backend: Backend) -> None:
    store = backend.store(audit_ttl_s=3600.0)
    record = audit_record()
    turn = HistoryTurn(question="q", answer="a", report="acme")
    store.save_turn(record, THREAD, turn)
    assert store.get_audit("turn-1") == record
    assert store.recent_audits(5) == [record]
    assert store.history(THREAD) == [turn]
    store.save_turn(record.model_copy(update={"turn_id": "turn-2"}), THREAD, None)
    assert store.get_audit("turn-2") is not None
    assert store.history(THREAD) == [turn]  # no turn given: the history is untouched


def test_unreadable_audit_record_reads_as_missing(backend: Backend) -> None:
    store = backend.store()
    backend.clients[0].set(keys.audit("turn-1"), '{"turn_id": "turn-1"}')
    assert store.get_audit("turn-1") is None


def test_feedback_per_user_latest_wins(backend: Backend) -> None:
    clock = Clock(1_800_000_000.0)
    store = backend.store(audit_ttl_s=3600.0, clock=clock)
    assert store.get_feedback("turn-1") == {}
    store.save_feedback("turn-1", user="U1", value="up")
    store.save_feedback("turn-1", user="U2", value="down")
    clock.now += 60
    store.save_feedback("turn-1", user="U1", value="down")
    store.save_feedback("turn-2", user="U1", value="up")
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
    store.set_binding(bound, slug="acme")
    store.append_history(bound, turn=HistoryTurn(question="q", answer="a"))
    store.engage(bound)
    assert store.get_binding(lookalike) is None
    assert store.history(lookalike) == []
    assert store.is_engaged(lookalike) is False
    assert keys.order(bound) != keys.order(lookalike)


def test_glob_characters_in_ids_are_inert(backend: Backend) -> None:
    store = backend.store()
    store.save_feedback("turn-1", user="U1", value="up")
    assert store.get_feedback("*") == {}
    assert store.get_audit("*") is None


ids = st.text(max_size=6)
conversations = st.builds(Conversation, team=ids, channel=ids, thread=st.none() | ids)


@given(conversations, conversations)
def test_conversation_keys_are_injective(a: Conversation, b: Conversation) -> None:
    assert (keys.binding(a) == keys.binding(b)) == (a == b)
    assert (keys.history(a) == keys.history(b)) == (a == b)
    assert (keys.order(a) == keys.order(b)) == (a == b)


@given(st.text(), st.text())
def test_id_keys_are_injective_and_namespaced(a: str, b: str) -> None:
    for key in (keys.turn, keys.audit, keys.feedback, keys.rate):
        assert key(a).startswith(keys.PREFIX)
        assert (key(a) == key(b)) == (a == b)
        assert ":" not in key(a).removeprefix(keys.PREFIX).split(":", 1)[1]


def test_every_key_is_namespaced_and_only_channel_bindings_live_forever(
    backend: Backend,
) -> None:
    store = backend.store()
    store.set_binding(CHANNEL, slug="acme")
    store.set_binding(THREAD, slug="acme")
    store.append_history(THREAD, turn=HistoryTurn(question="q", answer="a"))
    store.engage(THREAD)
    store.save_audit(audit_record())
    store.save_feedback("turn-1", user="U1", value="up")
    store.take_token("U1")
    turns = store.turn_log(consumer="w1")
    assert turns.enqueue(queued_turn("T1:C1:1.000001", OTHER_THREAD, "1.000001"))
    client = backend.clients[0]
    written = sorted(k.decode() for k in client.keys("*"))
    assert len(written) == 11  # with prism:audits, the index of recent turns
    assert sorted(k.decode() for k in client.keys(keys.PATTERN)) == written
    forever = [key for key in written if client.pttl(key) == -1]
    # The stream lives as long as there are turns; its entries are deleted when finished.
    assert forever == [keys.binding(CHANNEL), keys.TURN_STREAM]


# -- failures ---------------------------------------------------------------------------


CALLS: dict[str, Callable[[StateStore], object]] = {
    "ping": lambda s: s.ping(),
    "get_binding": lambda s: s.get_binding(THREAD),
    "set_binding": lambda s: s.set_binding(THREAD, slug="acme"),
    "clear_binding": lambda s: s.clear_binding(THREAD),
    "history": lambda s: s.history(THREAD),
    "append_history": lambda s: s.append_history(
        THREAD, turn=HistoryTurn(question="q", answer="a")
    ),
    "engage": lambda s: s.engage(THREAD),
    "is_engaged": lambda s: s.is_engaged(THREAD),
    "round_trip": lambda s: s.round_trip(),
    "enqueue": lambda s: s.turn_log(consumer="w").enqueue(queued_turn("T1:C1:1.1", THREAD, "1.1")),
    "save_audit": lambda s: s.save_audit(audit_record()),
    "save_turn": lambda s: s.save_turn(audit_record(), THREAD, None),
    "get_audit": lambda s: s.get_audit("turn-1"),
    "save_feedback": lambda s: s.save_feedback("turn-1", user="U1", value="up"),
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
    store.set_binding(THREAD, slug="acme")
    turns = store.turn_log(consumer="w1")
    assert turns.enqueue(queued_turn("T1:C1:1.000001", OTHER_THREAD, "1.000001"))

    server.stop()
    started = time.monotonic()
    assert_every_call_is_unavailable(store)
    per_call_s = (time.monotonic() - started) / len(CALLS)
    assert per_call_s < 1.0

    server.start()
    assert store.get_binding(THREAD) == "acme"  # same store, same port, data kept
    [entry] = turns.read(10, block_ms=10)  # and the turn recorded before is still there
    assert entry.turn.turn_id == "T1:C1:1.000001"
    store.ping()


def test_memory_store_disconnected_then_back() -> None:
    server = fakeredis.FakeServer()
    store = RedisStateStore(fakeredis.FakeRedis(server=server))
    store.set_binding(THREAD, slug="acme")
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
    """Said at INFO only: the servers warn at start-up, terminal commands stay quiet."""
    with caplog.at_level(logging.WARNING):
        open_state_store(None)
    assert caplog.text == ""
    with caplog.at_level(logging.INFO):
        store = open_state_store(None, history_limit=2)
    assert store.description == MEMORY_DESCRIPTION
    assert store.history_limit == 2
    assert "kept in memory" in caplog.text
    store.ping()


def test_memory_stores_are_independent() -> None:
    first, second = memory_store(), memory_store()
    first.set_binding(CHANNEL, slug="acme")
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
    "options", [{"history_limit": 0}, {"rate_capacity": 0}, {"audit_ttl_s": 0.0}]
)
def test_nonsense_options_are_refused(options: dict[str, float]) -> None:
    with pytest.raises(ConfigError):
        memory_store(**options)  # type: ignore[arg-type]
