"""``StateStore`` on Redis (DESIGN §9); the embedded default runs it on an in-memory Redis.

The same code runs on a real ``redis.Redis`` and on ``fakeredis.FakeRedis`` (no Lua is
used, so fakeredis needs no ``lupa``): transactions are MULTI/EXEC pipelines, the token
bucket and the lock release are WATCH/MULTI transactions, and the turn queue is plain
sorted-set commands in MULTI/EXEC.

- :func:`open_state_store` — ``REDIS_URL`` → store (or the in-memory default, with a
  start-up WARNING, when there is none).
- :func:`memory_store` — the in-memory default (state is lost on restart).

Every Redis error becomes ``StoreUnavailable`` in one place (:func:`redis_call`), which
also writes the one DEBUG line per call (operation, ids, latency; never message text).
Keys and their TTLs are documented in :mod:`prism_slack.state.keys`.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import math
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Final, TypedDict, Unpack
from urllib.parse import urlsplit

import fakeredis
import redis
from pydantic import ValidationError
from redis.backoff import ExponentialWithJitterBackoff
from redis.exceptions import LockError, LockNotOwnedError, RedisError, WatchError
from redis.lock import Lock
from redis.retry import Retry

from prism_slack.errors import ConfigError, LockTimeout, StoreUnavailable
from prism_slack.ports import AuditRecord, Conversation, HistoryTurn
from prism_slack.state import keys

if TYPE_CHECKING:
    from prism_slack.ports import StateStore, TurnLog

logger = logging.getLogger(__name__)

MINUTE: Final = 60.0
HOUR: Final = 60 * MINUTE
DAY: Final = 24 * HOUR

MEMORY_DESCRIPTION: Final = "in-memory (embedded default; state is lost on restart)"

_WATCH_ATTEMPTS = 32
AUDIT_INDEX_SIZE: Final = 10_000
"""How many recent turns ``prism:audits`` indexes."""
_LOCK_POLL_S = 0.02
_TURN_POLL_S = 0.02
"""How often the next message in line looks whether its turn has come (jittered ±50 %)."""
_TURN_POLL_BEHIND_S = 0.1
"""... and a message further back, whose turn is at least one whole turn away."""


class StoreOptions(TypedDict, total=False):
    """Tunables of :class:`RedisStateStore`, as the factories accept them."""

    history_limit: int
    history_ttl_s: float
    engaged_ttl_s: float
    event_ttl_s: float
    audit_ttl_s: float
    lock_ttl_s: float
    turn_lease_s: float
    rate_capacity: int
    rate_refill_per_s: float
    clock: Callable[[], float]


@contextmanager
def redis_call(op: str, *ids: object) -> Iterator[None]:
    """Run one Redis call: translate any Redis error to ``StoreUnavailable``, log it."""
    started = time.perf_counter()
    outcome = "ok"
    try:
        yield
    except RedisError as e:
        outcome = type(e).__name__
        raise StoreUnavailable(f"state store: {op} failed ({type(e).__name__}: {e})") from e
    finally:
        elapsed_ms = (time.perf_counter() - started) * 1e3
        logger.debug("redis %s %s %s %.1f ms", op, " ".join(map(str, ids)), outcome, elapsed_ms)


class _Lease(Lock):
    """redis-py's ``Lock`` whose release is a WATCH/MULTI transaction instead of Lua.

    Deletes the key only while it still holds this lease's token, so a holder whose
    lease expired never removes the lock another worker has taken since.
    """

    def do_release(self, expected_token: str) -> None:
        name = self.name
        with self.redis.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(name)
                if _bytes(pipe.get(name)) != _bytes(expected_token):
                    raise LockNotOwnedError("the lock expired", lock_name=name)
                pipe.multi()
                pipe.delete(name)
                pipe.execute()
            except WatchError as e:
                raise LockNotOwnedError("the lock changed hands", lock_name=name) from e


class RedisStateStore:
    """Conversation state on a redis-py client (real or ``fakeredis``).

    ``get_binding``/``set_binding``/``clear_binding`` act on exactly the scope given: a
    thread's binding and its channel's are independent (the caller falls back to
    ``where.channel_scope()``). Channel and DM bindings never expire; thread bindings
    expire with the thread's history. ``clock`` is wall-clock seconds (shared by every
    worker, unlike ``time.monotonic``); it drives the token bucket, feedback times and the
    deadlines of turn-queue entries. ``turn_lease_s``: how long a waiting message keeps its
    place in a turn queue without polling (a crashed worker's message is dropped after it).
    """

    def __init__(
        self,
        client: redis.Redis,
        *,
        description: str | None = None,
        history_limit: int = 20,
        history_ttl_s: float = 7 * DAY,
        engaged_ttl_s: float = DAY,
        event_ttl_s: float = HOUR,
        audit_ttl_s: float = 30 * DAY,
        lock_ttl_s: float = 2 * MINUTE,
        turn_lease_s: float = 10.0,
        rate_capacity: int = 10,
        rate_refill_per_s: float = 0.2,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if history_limit < 1 or rate_capacity < 1:
            raise ConfigError("history_limit and rate_capacity must be at least 1")
        ttls = (history_ttl_s, engaged_ttl_s, event_ttl_s, audit_ttl_s, lock_ttl_s, turn_lease_s)
        if min(ttls) <= 0 or rate_refill_per_s <= 0:
            raise ConfigError("state TTLs and rate_refill_per_s must be positive")
        self._client = client
        self.description = description or _describe_client(client)
        self.history_limit = history_limit
        self._history_ms = _ms(history_ttl_s)
        self._engaged_ms = _ms(engaged_ttl_s)
        self._event_ms = _ms(event_ttl_s)
        self._audit_ms = _ms(audit_ttl_s)
        self._lock_ttl_s = lock_ttl_s
        self._turn_lease_s = turn_lease_s
        # No entry's deadline is further than this from the last write of its queue.
        self._turns_ms = _ms(max(lock_ttl_s, turn_lease_s))
        self._rate_capacity = float(rate_capacity)
        self._rate_refill = rate_refill_per_s
        # Once a bucket has been idle long enough to be full again, dropping it is the same.
        self._rate_ms = _ms(rate_capacity / rate_refill_per_s + MINUTE)
        self._clock = clock

    # -- health -------------------------------------------------------------------------

    def ping(self) -> None:
        with redis_call("ping"):
            self._client.ping()

    # -- bindings -----------------------------------------------------------------------

    def get_binding(self, where: Conversation) -> str | None:
        key = keys.binding(where)
        with redis_call("get_binding", key):
            return _text(self._client.get(key))

    def set_binding(self, where: Conversation, slug: str) -> None:
        key = keys.binding(where)
        ttl = self._history_ms if where.thread is not None else None
        with redis_call("set_binding", key, slug):
            self._client.set(key, slug, px=ttl)

    def clear_binding(self, where: Conversation) -> bool:
        key = keys.binding(where)
        with redis_call("clear_binding", key):
            return bool(self._client.delete(key))

    # -- history ------------------------------------------------------------------------

    def history(self, conversation: Conversation) -> list[HistoryTurn]:
        """Earlier turns, oldest first (at most ``history_limit``)."""
        key = keys.history(conversation)
        with redis_call("history", key):
            raw = self._client.lrange(key, 0, -1)
        turns: list[HistoryTurn] = []
        for item in raw:
            try:
                turns.append(HistoryTurn.model_validate_json(item))
            except ValidationError:
                logger.warning("skipping an unreadable history entry in %s", key)
        return turns

    def append_history(self, conversation: Conversation, turn: HistoryTurn) -> None:
        key = keys.history(conversation)
        with redis_call("append_history", key), self._client.pipeline(transaction=True) as pipe:
            pipe.rpush(key, turn.model_dump_json())
            pipe.ltrim(key, -self.history_limit, -1)
            pipe.pexpire(key, self._history_ms)
            pipe.execute()

    # -- engagement and exactly-once ----------------------------------------------------

    def engage(self, conversation: Conversation) -> None:
        key = keys.engaged(conversation)
        with redis_call("engage", key):
            self._client.set(key, "1", px=self._engaged_ms)

    def is_engaged(self, conversation: Conversation) -> bool:
        key = keys.engaged(conversation)
        with redis_call("is_engaged", key):
            return bool(self._client.exists(key))

    def claim_event(self, event_id: str) -> bool:
        key = keys.event(event_id)
        with redis_call("claim_event", key):
            return bool(self._client.set(key, "1", nx=True, px=self._event_ms))

    # -- per-thread lock ----------------------------------------------------------------

    @contextmanager
    def lock(self, conversation: Conversation, timeout_s: float) -> Iterator[None]:
        """Hold the conversation's lock; ``LockTimeout`` when not taken within ``timeout_s``.

        The lock is a lease of ``lock_ttl_s``: a crashed holder's lock expires. Releasing
        never raises — not when the lease expired meanwhile, and not when Redis went away
        (the lease then expires on its own), so it cannot mask the body's own outcome.
        """
        lease = self._lease(conversation)
        with redis_call("lock", lease.name):
            acquired = lease.acquire(blocking_timeout=max(timeout_s, 0.0))
        if not acquired:
            raise LockTimeout(f"{keys.scope(conversation)} stayed locked for {timeout_s} s")
        try:
            yield
        finally:
            self._release(lease)

    def _lease(self, conversation: Conversation) -> _Lease:
        return _Lease(
            self._client,
            keys.lock(conversation),
            timeout=self._lock_ttl_s,
            sleep=_LOCK_POLL_S,
            thread_local=False,
        )

    def _release(self, lease: _Lease) -> None:
        key = lease.name
        try:
            with redis_call("unlock", key):
                try:
                    lease.release()
                except LockError:
                    logger.warning("lock %s had expired before its release", key)
        except StoreUnavailable as e:
            logger.warning("could not release lock %s; it expires on its own: %s", key, e)

    # -- turns: one message at a time, in Slack ts order, across workers ------------------

    @contextmanager
    def turn(self, conversation: Conversation, ts: str, timeout_s: float) -> Iterator[None]:
        """Message ``ts``'s turn in ``conversation``: first come, first served by Slack ts.

        Joins the conversation's queue (``keys.turns``) at once, waits until no message with
        an earlier ts is queued there, then takes the conversation's lock (``lock``) and
        holds both for the body. Every worker waits in the same queue, so the messages of a
        conversation are answered in the order the rep sent them, whichever worker got each
        and whatever order their events arrived in (a message not yet queued when a later
        one takes its turn cannot be waited for). ``LockTimeout`` when the turn has not come
        and the lock been taken within ``timeout_s``. On every exit — the body's error, a
        timeout, the store failing — the lock is released and the message leaves the queue;
        neither step raises (a leftover entry or lock expires, see ``keys``). One ts is one
        entry: two deliveries of a message (the event claim lets only one through) would
        share it, and the lock would still take them one at a time.
        """
        queue = keys.turns(conversation)
        member = keys.turn_member(ts)
        lease = self._lease(conversation)
        try:
            self._wait_for_turn(conversation, queue, member, lease, timeout_s)
            try:
                self._hold_turn(queue, member)
                yield
            finally:
                self._release(lease)
        finally:
            self._leave_turns(queue, member)

    def _wait_for_turn(
        self, conversation: Conversation, queue: str, member: str, lease: _Lease, timeout_s: float
    ) -> None:
        """Poll until ``member`` heads ``queue`` and ``lease`` is taken (or time is up)."""
        started = time.monotonic()
        deadline = started + max(timeout_s, 0.0)
        while True:
            ahead = self._poll_turns(queue, member)
            if ahead == 0:
                with redis_call("lock", lease.name):
                    if lease.acquire(blocking=False):
                        waited_ms = (time.monotonic() - started) * 1e3
                        logger.debug("turn %s taken after %.1f ms", queue, waited_ms)
                        return
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                where = keys.scope(conversation)
                if ahead:
                    raise LockTimeout(f"{where}: {ahead} earlier message(s) for {timeout_s} s")
                raise LockTimeout(f"{where} stayed locked for {timeout_s} s")
            poll_s = _TURN_POLL_S if ahead <= 1 else _TURN_POLL_BEHIND_S
            time.sleep(min(remaining, poll_s * random.uniform(0.5, 1.5)))

    def _poll_turns(self, queue: str, member: str) -> int:
        """Drop expired entries, join or renew ``member``; how many queued entries are ahead."""
        now = self._clock()
        with redis_call("turn_poll", queue), self._client.pipeline(transaction=True) as pipe:
            pipe.zremrangebyscore(queue, "-inf", _ms(now))
            pipe.zadd(queue, {member: _ms(now + self._turn_lease_s)})
            pipe.pexpire(queue, self._turns_ms)
            pipe.zrange(queue, 0, -1)
            *_, queued = pipe.execute()
        mine = member.encode()
        return sum(1 for other in queued if (_bytes(other) or b"") < mine)

    def _hold_turn(self, queue: str, member: str) -> None:
        """Keep ``member`` at the head for as long as the lock's lease (a crash frees both)."""
        now = self._clock()
        with redis_call("turn_hold", queue), self._client.pipeline(transaction=True) as pipe:
            pipe.zadd(queue, {member: _ms(now + self._lock_ttl_s)})
            pipe.pexpire(queue, self._turns_ms)
            pipe.execute()

    def _leave_turns(self, queue: str, member: str) -> None:
        try:
            with redis_call("turn_leave", queue):
                self._client.zrem(queue, member)
        except StoreUnavailable as e:
            logger.warning("could not leave turn queue %s; its entry expires: %s", queue, e)

    # -- audit and feedback -------------------------------------------------------------

    def save_audit(self, record: AuditRecord) -> None:
        key = keys.audit(record.turn_id)
        at_ms = int(record.at.timestamp() * 1000)
        with redis_call("save_audit", key), self._client.pipeline(transaction=True) as pipe:
            pipe.set(key, record.model_dump_json(), px=self._audit_ms)
            # issue 11: the index of recent turns behind ``recent_audits`` (prism feedback)
            pipe.zadd(keys.AUDITS, {record.turn_id: at_ms})
            pipe.zremrangebyrank(keys.AUDITS, 0, -AUDIT_INDEX_SIZE - 1)
            pipe.pexpire(keys.AUDITS, self._audit_ms)
            pipe.execute()

    def recent_audits(self, limit: int) -> list[AuditRecord]:
        """The newest ``limit`` audit records (expired ones are skipped), newest first."""
        if limit < 1:
            return []
        with redis_call("recent_audits", keys.AUDITS, limit):
            turn_ids = self._client.zrevrange(keys.AUDITS, 0, limit - 1)
            raw = (
                self._client.mget([keys.audit(_text(t) or "") for t in turn_ids])
                if turn_ids
                else []
            )
        records: list[AuditRecord] = []
        for item in raw:
            if item is None:
                continue
            try:
                records.append(AuditRecord.model_validate_json(item))
            except ValidationError:
                logger.warning("skipping an unreadable audit record in %s", keys.AUDITS)
        return records

    def get_audit(self, turn_id: str) -> AuditRecord | None:
        key = keys.audit(turn_id)
        with redis_call("get_audit", key):
            raw = self._client.get(key)
        if raw is None:
            return None
        try:
            return AuditRecord.model_validate_json(raw)
        except ValidationError:
            logger.warning("audit record %s is unreadable", key)
            return None

    def save_feedback(self, turn_id: str, user: str, value: str) -> None:
        """Record ``user``'s feedback on a turn (a later value replaces an earlier one)."""
        key = keys.feedback(turn_id)
        at = dt.datetime.fromtimestamp(self._clock(), dt.UTC).isoformat()
        entry = json.dumps({"user": user, "value": value, "at": at})
        with redis_call("save_feedback", key, user), self._client.pipeline() as pipe:
            pipe.hset(key, user, entry)
            pipe.pexpire(key, self._audit_ms)
            pipe.execute()

    def get_feedback(self, turn_id: str) -> dict[str, str]:
        """Feedback on a turn: user → value."""
        key = keys.feedback(turn_id)
        with redis_call("get_feedback", key):
            raw = self._client.hgetall(key)
        feedback: dict[str, str] = {}
        for field, entry in raw.items():
            try:
                feedback[_text(field) or ""] = str(json.loads(entry)["value"])
            except (ValueError, KeyError, TypeError):
                logger.warning("skipping unreadable feedback in %s", key)
        return feedback

    # -- rate limit ---------------------------------------------------------------------

    def take_token(self, user: str) -> bool:
        """Take one token from ``user``'s bucket (WATCH/MULTI, so atomic across workers)."""
        key = keys.rate(user)
        with redis_call("take_token", key), self._client.pipeline(transaction=True) as pipe:
            for _ in range(_WATCH_ATTEMPTS):
                try:
                    return self._take(pipe, key)
                except WatchError:
                    pipe.reset()
            logger.warning("rate bucket %s stayed contended; refusing this once", key)
            return False

    def _take(self, pipe: redis.client.Pipeline, key: str) -> bool:
        pipe.watch(key)  # type: ignore[no-untyped-call]  # untyped in redis-py
        stored_tokens, stored_at = pipe.hmget(key, ["tokens", "ts"])
        now = self._clock()
        tokens = _float(stored_tokens)
        at = _float(stored_at)
        if tokens is None or at is None:
            tokens, at = self._rate_capacity, now
        # max(): a worker whose clock lags must not take refill time away from the bucket.
        elapsed = max(0.0, now - at)
        tokens = min(self._rate_capacity, tokens + elapsed * self._rate_refill)
        allowed = tokens >= 1.0
        if allowed:
            tokens -= 1.0
        pipe.multi()
        pipe.hset(key, mapping={"tokens": repr(tokens), "ts": repr(max(now, at))})
        pipe.pexpire(key, self._rate_ms)
        pipe.execute()
        return allowed

    def __repr__(self) -> str:
        return f"RedisStateStore({self.description})"


def memory_store(**options: Unpack[StoreOptions]) -> RedisStateStore:
    """The embedded default: the store on a private in-memory Redis (``fakeredis``)."""
    client = fakeredis.FakeRedis(server=fakeredis.FakeServer())
    return RedisStateStore(client, description=MEMORY_DESCRIPTION, **options)


def open_state_store(
    redis_url: str | None,
    *,
    connect_timeout_s: float = 1.5,
    socket_timeout_s: float = 2.0,
    health_check_interval_s: int = 30,
    retries: int = 2,
    **options: Unpack[StoreOptions],
) -> RedisStateStore:
    """The store on ``redis_url`` (``redis://``, ``rediss://``, ``unix://``).

    With no URL, the in-memory default, announced with a WARNING. No connection is made
    here (call ``ping()`` to check one). Timeouts and connection errors are retried
    ``retries`` times with a short jittered backoff, then raise ``StoreUnavailable``.
    """
    if not redis_url:
        logger.warning(
            "REDIS_URL is not set: state (bindings, history, audit) is kept in memory "
            "and lost on restart"
        )
        return memory_store(**options)
    description = describe_url(redis_url)
    try:
        client = redis.Redis.from_url(
            redis_url,
            socket_connect_timeout=connect_timeout_s,
            socket_timeout=socket_timeout_s,
            health_check_interval=health_check_interval_s,
            retry=Retry(ExponentialWithJitterBackoff(cap=0.5, base=0.05), retries),
        )
    except ValueError as e:
        raise ConfigError(f"REDIS_URL is not a usable Redis URL ({description})") from e
    logger.info("state store: %s", description)
    return RedisStateStore(client, description=description, **options)


def describe_url(redis_url: str) -> str:
    """``redis_url`` without credentials, e.g. ``redis (rediss://cache.internal:6380/0)``."""
    parts = urlsplit(redis_url)
    if parts.scheme == "unix":
        return f"redis (unix://{parts.path})"
    try:
        port = parts.port or 6379
    except ValueError as e:
        raise ConfigError(f"REDIS_URL has an invalid port ({parts.scheme}://…)") from e
    host = parts.hostname or "localhost"
    if ":" in host:
        host = f"[{host}]"
    db = parts.path.lstrip("/") or "0"
    return f"redis ({parts.scheme}://{host}:{port}/{db})"


def _describe_client(client: redis.Redis) -> str:
    kwargs = client.connection_pool.connection_kwargs
    if "path" in kwargs:
        return f"redis (unix://{kwargs['path']})"
    return f"redis ({kwargs.get('host')}:{kwargs.get('port')}/{kwargs.get('db', 0)})"


def _ms(seconds: float) -> int:
    return max(1, math.ceil(seconds * 1000))


def _bytes(value: object) -> bytes | None:
    if value is None or isinstance(value, bytes):
        return value
    return str(value).encode()


def _text(value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, bytes):
        return value.decode()
    return str(value)


def _float(value: object) -> float | None:
    text = _text(value)
    if text is None:
        return None
    try:
        return float(text)
    except ValueError:
        return None


if TYPE_CHECKING:

    def _conforms(store: RedisStateStore) -> StateStore:
        return store

    def _logs_turns(store: RedisStateStore) -> TurnLog:
        return store
