"""``StateStore`` on Redis (DESIGN §9); the embedded default runs it on an in-memory Redis.

The same code runs on a real ``redis.Redis`` and on ``fakeredis.FakeRedis`` (no Lua is
used, so fakeredis needs no ``lupa``): transactions are MULTI/EXEC pipelines and the token
bucket is a WATCH/MULTI transaction. Turns (the durable work of answering) live in
:mod:`prism_slack.state.turns`.

- :func:`open_state_store` — ``REDIS_URL`` → store (or the in-memory default when there
  is none; the servers warn about it at start-up, terminal commands do not).
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
import time
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Final, TypedDict, Unpack
from urllib.parse import urlsplit

import fakeredis
import redis
from pydantic import ValidationError
from redis.backoff import ExponentialWithJitterBackoff
from redis.client import Pipeline
from redis.exceptions import WatchError
from redis.retry import Retry

from prism_slack.errors import ConfigError, StoreUnavailable
from prism_slack.ports import AuditRecord, Conversation, HistoryTurn
from prism_slack.state import keys
from prism_slack.state._redis import DAY, MINUTE, redis_call
from prism_slack.state.persistence import Persistence, PersistenceReport, check_persistence
from prism_slack.state.turns import TurnLog

if TYPE_CHECKING:
    from prism_slack.ports import AuditLog, StateStore

logger = logging.getLogger(__name__)


MEMORY_DESCRIPTION: Final = "in-memory (embedded default; state is lost on restart)"

PANEL_TTL_S: Final = 30 * DAY
"""How long the side panel remembers it greeted a rep (it greets again after that), and
which DM is theirs."""
_WATCH_ATTEMPTS = 32
AUDIT_INDEX_SIZE: Final = 10_000
"""How many recent turns ``prism:audits`` indexes."""


class StoreOptions(TypedDict, total=False):
    """Tunables of :class:`RedisStateStore`, as the factories accept them."""

    history_limit: int
    history_ttl_s: float
    engaged_ttl_s: float
    audit_ttl_s: float
    rate_capacity: int
    rate_refill_per_s: float
    clock: Callable[[], float]


class RedisStateStore:
    """Conversation state on a redis-py client (real or ``fakeredis``).

    ``get_binding``/``set_binding``/``clear_binding`` act on exactly the scope given: a
    thread's binding and its channel's are independent (the caller falls back to
    ``where.channel_scope()``). Channel and DM bindings never expire; thread bindings
    expire with the thread's history. ``clock`` is wall-clock seconds (shared by every
    worker, unlike ``time.monotonic``); it drives the token bucket and feedback times.
    ``turn_log(consumer=...)`` gives one worker's view of the durable turns on the same Redis.
    """

    def __init__(
        self,
        client: redis.Redis,
        *,
        description: str | None = None,
        history_limit: int = 20,
        history_ttl_s: float = 7 * DAY,
        engaged_ttl_s: float = DAY,
        audit_ttl_s: float = 30 * DAY,
        rate_capacity: int = 10,
        rate_refill_per_s: float = 0.2,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if history_limit < 1 or rate_capacity < 1:
            raise ConfigError("history_limit and rate_capacity must be at least 1")
        ttls = (history_ttl_s, engaged_ttl_s, audit_ttl_s)
        if min(ttls) <= 0 or rate_refill_per_s <= 0:
            raise ConfigError("state TTLs and rate_refill_per_s must be positive")
        self._client = client
        self.description = description or _describe_client(client)
        self.history_limit = history_limit
        self._history_ms = _ms(history_ttl_s)
        self._engaged_ms = _ms(engaged_ttl_s)
        self._audit_ms = _ms(audit_ttl_s)
        self._rate_capacity = float(rate_capacity)
        self._rate_refill = rate_refill_per_s
        # Once a bucket has been idle long enough to be full again, dropping it is the same.
        self._rate_ms = _ms(rate_capacity / rate_refill_per_s + MINUTE)
        self._clock = clock

    # -- health -------------------------------------------------------------------------

    @property
    def client(self) -> redis.Redis:
        """The redis-py client this store runs on."""
        return self._client

    def ping(self) -> None:
        with redis_call("ping"):
            self._client.ping()

    def round_trip(self) -> None:
        """Write a key and read it back: ``StoreUnavailable`` unless this Redis really works
        (reachable, the database selectable, writes accepted — not read-only, not OOM)."""
        key = keys.HEALTH + uuid.uuid4().hex
        with redis_call("round_trip", key), self._client.pipeline(transaction=True) as pipe:
            pipe.set(key, "1", px=10_000)
            pipe.get(key)
            pipe.delete(key)
            _, value, _ = pipe.execute()
        if _text(value) != "1":
            raise StoreUnavailable(f"state store: wrote {key} but read back {value!r}")

    def persistence(self) -> PersistenceReport:
        """Whether this Redis keeps its data across a restart (see ``state.persistence``)."""
        if self.description == MEMORY_DESCRIPTION:
            return PersistenceReport(Persistence.OFF, MEMORY_DESCRIPTION)
        return check_persistence(self._client)

    def turn_log(self, *, consumer: str, reclaim_after_s: float = 15.0) -> TurnLog:
        """The durable turns on this store's Redis, as worker ``consumer`` reads them."""
        return TurnLog(self._client, consumer=consumer, reclaim_after_s=reclaim_after_s)

    # -- bindings -----------------------------------------------------------------------

    def get_binding(self, where: Conversation) -> str | None:
        key = keys.binding(where)
        with redis_call("get_binding", key):
            return _text(self._client.get(key))

    def set_binding(self, where: Conversation, *, slug: str) -> None:
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

    def append_history(self, conversation: Conversation, *, turn: HistoryTurn) -> None:
        key = keys.history(conversation)
        with redis_call("append_history", key), self._client.pipeline(transaction=True) as pipe:
            self._queue_history(pipe, key, turn)
            pipe.execute()

    def _queue_history(self, pipe: Pipeline, key: str, turn: HistoryTurn) -> None:
        pipe.rpush(key, turn.model_dump_json())
        pipe.ltrim(key, -self.history_limit, -1)
        pipe.pexpire(key, self._history_ms)

    # -- engagement and exactly-once ----------------------------------------------------

    def engage(self, conversation: Conversation) -> None:
        key = keys.engaged(conversation)
        with redis_call("engage", key):
            self._client.set(key, "1", px=self._engaged_ms)

    def is_engaged(self, conversation: Conversation) -> bool:
        key = keys.engaged(conversation)
        with redis_call("is_engaged", key):
            return bool(self._client.exists(key))

    def first_greeting(self, conversation: Conversation) -> bool:
        key = keys.greeted(conversation)
        with redis_call("first_greeting", key):
            return bool(self._client.set(key, "1", nx=True, px=_ms(PANEL_TTL_S)))

    def remember_dm(self, team: str, user: str, channel: str) -> None:
        key = keys.dm_channel(team, user)
        with redis_call("remember_dm", key):
            self._client.set(key, channel, px=_ms(PANEL_TTL_S))

    def dm_of(self, team: str, user: str) -> str | None:
        key = keys.dm_channel(team, user)
        with redis_call("dm_of", key):
            return _text(self._client.get(key))

    # -- audit and feedback -------------------------------------------------------------

    def save_audit(self, record: AuditRecord) -> None:
        key = keys.audit(record.turn_id)
        with redis_call("save_audit", key), self._client.pipeline(transaction=True) as pipe:
            self._queue_audit(pipe, key, record)
            pipe.execute()

    def save_turn(
        self, record: AuditRecord, conversation: Conversation, turn: HistoryTurn | None
    ) -> None:
        """``save_audit`` and, when ``turn`` is given, ``append_history``, in one
        transaction: one round trip to Redis at the end of a turn instead of two."""
        key = keys.audit(record.turn_id)
        with redis_call("save_turn", key), self._client.pipeline(transaction=True) as pipe:
            self._queue_audit(pipe, key, record)
            if turn is not None:
                self._queue_history(pipe, keys.history(conversation), turn)
            pipe.execute()

    def _queue_audit(self, pipe: Pipeline, key: str, record: AuditRecord) -> None:
        at_ms = int(record.at.timestamp() * 1000)
        pipe.set(key, record.model_dump_json(), px=self._audit_ms)
        # the index of recent turns behind ``recent_audits`` (prism feedback)
        pipe.zadd(keys.AUDITS, {record.turn_id: at_ms})
        pipe.zremrangebyrank(keys.AUDITS, 0, -AUDIT_INDEX_SIZE - 1)
        pipe.pexpire(keys.AUDITS, self._audit_ms)

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

    def save_feedback(self, turn_id: str, *, user: str, value: str) -> None:
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

    With no URL, the in-memory default, logged at INFO (``prism serve`` warns). No
    connection is made here (call ``ping()`` to check one). Timeouts and connection errors
    are retried ``retries`` times with a short jittered backoff, then raise ``StoreUnavailable``.
    """
    if not redis_url:
        logger.info(  # a server says so at start-up; terminal commands stay quiet
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

    def _logs_audits(store: RedisStateStore) -> AuditLog:
        return store
