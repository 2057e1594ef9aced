"""Durable turns on a Redis Stream with a consumer group (DESIGN §12).

A message Slack handed us is a promise. :meth:`TurnLog.enqueue` records it — in one
MULTI/EXEC (one round trip), before the HTTP ack — as

- an entry of the stream ``prism:turnlog`` (``XADD``: the message and a nonce), read by
  every worker through the consumer group ``prism`` (``XREADGROUP``);
- its record ``prism:turn:<id>`` (a hash: the nonce of the entry that holds the turn, then
  its progress: placeholder ts, the rendered reply, the ts posted, its outcome);
- a member of its conversation's order ``prism:order:<scope>`` (a zset of
  :func:`keys.order_member`, i.e. Slack ts order), so a worker answers a turn only once it
  heads its conversation: one at a time, in the order the rep sent them, on any worker.

A message whose record exists is a duplicate (an ``app_mention``/``message`` pair, a Slack
retry): the record was claimed first by its original, and the duplicate's entry is dropped
unanswered. There is nothing to claim before the work — the entry IS the work. A worker
acknowledges the entry (``XACK`` + ``XDEL`` + ``ZREM`` + the outcome, again in one
MULTI/EXEC: :meth:`finish`) only after Slack confirmed the reply, or the turn failed for
good; before each write to Slack it checks it still holds the entry (:meth:`owns`). A live
worker keeps its entries fresh (:meth:`heartbeat`, ``XCLAIM
JUSTID``); an entry idle for ``reclaim_after_s`` belongs to a dead worker and is taken over
(:meth:`reclaim`, ``XAUTOCLAIM``); a worker that stops on SIGTERM hands its unfinished
entries back (:meth:`hand_back`) so the next :meth:`reclaim` takes them at once.

No Lua: the same code runs on ``fakeredis`` (the embedded default).
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Final

import redis
from redis.exceptions import ResponseError

from prism_slack.errors import StoreUnavailable
from prism_slack.ports import FINISHED, Conversation, Entry, QueuedTurn, TurnProgress
from prism_slack.state import keys
from prism_slack.state._redis import HOUR, redis_call

logger = logging.getLogger(__name__)

GROUP: Final = "prism"


class TurnLog:
    """The stream, its records and its per-conversation order, for one worker (consumer):
    the Redis ``TurnQueue``."""

    def __init__(
        self,
        client: redis.Redis,
        *,
        consumer: str,
        record_ttl_s: float = 24 * HOUR,
        reclaim_after_s: float = 15.0,
    ) -> None:
        self._client = client
        self.consumer = consumer
        self._record_ms = int(record_ttl_s * 1000)
        self.reclaim_after_s = reclaim_after_s
        self._group_ready = False

    # -- the request thread ---------------------------------------------------------------

    def enqueue(self, turn: QueuedTurn) -> bool:
        """Record ``turn`` durably, in one round trip; False when it is a duplicate.

        One MULTI/EXEC: claim the record (``HSETNX nonce``), append the entry (carrying the
        message and that nonce) and join the conversation's order. A duplicate's entry is
        appended too — without WATCH there is no conditional XADD — but its nonce is not
        the record's, so a worker drops it unread (:meth:`_entries`).
        """
        record = keys.turn(turn.turn_id)
        order = keys.order(turn.conversation)
        member = keys.order_member(turn.ts, turn.turn_id)
        nonce = uuid.uuid4().hex
        entry = {
            "turn": turn.turn_id,
            "nonce": nonce,
            "message": json.dumps(turn.message),
            "conversation": turn.conversation.model_dump_json(),
            "ts": turn.ts,
            "received_at": repr(time.time()),
        }
        with redis_call("turn_enqueue", record), self._client.pipeline(transaction=True) as pipe:
            pipe.hsetnx(record, "nonce", nonce)
            pipe.hsetnx(record, "status", "queued")
            pipe.hget(record, "status")
            pipe.pexpire(record, self._record_ms)
            pipe.xadd(keys.TURN_STREAM, entry)  # type: ignore[arg-type]
            pipe.zadd(order, {member: 0})
            pipe.pexpire(order, self._record_ms)
            created, _, status, *_ = pipe.execute()
        if created:
            return True
        if _text(status) in FINISHED:  # a late retry put a finished turn back in line
            with redis_call("turn_enqueue_undo", record):
                self._client.zrem(order, member)
        return False

    # -- the worker -----------------------------------------------------------------------

    def ensure_group(self) -> None:
        """Create the stream and its consumer group if they are not there (idempotent)."""
        with redis_call("turn_group", keys.TURN_STREAM):
            try:
                self._client.xgroup_create(keys.TURN_STREAM, GROUP, id="0", mkstream=True)
            except ResponseError as e:
                if "BUSYGROUP" not in str(e):
                    raise
        self._group_ready = True

    def read(self, count: int, *, block_ms: int) -> list[Entry]:
        """Up to ``count`` new entries for this consumer (waits at most ``block_ms``)."""
        if count <= 0:
            return []
        if not self._group_ready:
            self.ensure_group()
        with self._stream_call("turn_read"):
            reply = self._client.xreadgroup(
                GROUP, self.consumer, {keys.TURN_STREAM: ">"}, count=count, block=block_ms
            )
        streams: list[Any] = list(reply or [])
        return self._entries(item for _, items in streams for item in items)

    def reclaim(self, count: int) -> list[Entry]:
        """Take over up to ``count`` entries of dead or departed workers."""
        if count <= 0:
            return []
        if not self._group_ready:
            self.ensure_group()
        taken = self._take_handed_back(count)
        if len(taken) < count:
            with self._stream_call("turn_reclaim"):
                reply = self._client.xautoclaim(
                    keys.TURN_STREAM,
                    GROUP,
                    self.consumer,
                    min_idle_time=int(self.reclaim_after_s * 1000),
                    start_id="0-0",
                    count=count - len(taken),
                )
            taken.extend(reply[1])
            gone = reply[2] if len(reply) > 2 else []
            if gone:  # pending entries whose data is gone: nothing to answer
                with redis_call("turn_ack_gone", keys.TURN_STREAM):
                    self._client.xack(keys.TURN_STREAM, GROUP, *gone)
        entries = self._entries(taken)
        for entry in entries:
            logger.info("turn %s reclaimed by %s", entry.turn.turn_id, self.consumer)
        return entries

    def _take_handed_back(self, count: int) -> list[Any]:
        """The entries of one departed worker (``SPOP``: no two workers take the same)."""
        with redis_call("turn_handed_back", keys.HANDED_BACK):
            holder = self._client.spop(keys.HANDED_BACK)
            if holder is None:
                return []
            pending = self._client.xpending_range(
                keys.TURN_STREAM, GROUP, "-", "+", count, consumername=_text(holder)
            )
            ids: list[Any] = [p["message_id"] for p in pending]
            taken: list[Any] = (
                self._client.xclaim(keys.TURN_STREAM, GROUP, self.consumer, 0, ids) if ids else []
            )
            if len(ids) == count:  # more left: let the next reclaim take them
                self._client.sadd(keys.HANDED_BACK, _text(holder))
            else:
                self._client.xgroup_delconsumer(keys.TURN_STREAM, GROUP, _text(holder))
        return taken

    def heartbeat(self, entry_ids: Iterable[str]) -> set[str]:
        """Keep this worker's entries from being reclaimed; the ids it no longer holds."""
        wanted = set(entry_ids)
        if not wanted:
            return set()
        with redis_call("turn_heartbeat", self.consumer):
            pending = self._client.xpending_range(
                keys.TURN_STREAM,
                GROUP,
                "-",
                "+",
                max(len(wanted), 1) * 2 + 100,
                consumername=self.consumer,
            )
            held = {_text(p["message_id"]) for p in pending} & wanted
            if held:
                ids: list[Any] = sorted(held)
                self._client.xclaim(keys.TURN_STREAM, GROUP, self.consumer, 0, ids, justid=True)
        return wanted - held

    def owns(self, entry: Entry) -> bool:
        """Whether this consumer still holds ``entry`` (another may have reclaimed it while
        this one could not reach Redis to keep it fresh)."""
        with redis_call("turn_owns", entry.entry_id):
            pending = self._client.xpending_range(
                keys.TURN_STREAM, GROUP, entry.entry_id, entry.entry_id, 1
            )
        return bool(pending) and _text(pending[0]["consumer"]) == self.consumer

    def hand_back(self, entry_ids: Iterable[str]) -> None:
        """On the way out: give these entries to the next worker to :meth:`reclaim`, at once
        (they move to a consumer of their own, listed in ``keys.HANDED_BACK``)."""
        ids: list[Any] = sorted(set(entry_ids))
        if not ids:
            return
        holder = f"{self.consumer}~handed-back"
        with redis_call("turn_hand_back", self.consumer, len(ids)):
            self._client.xclaim(keys.TURN_STREAM, GROUP, holder, 0, ids, justid=True)
            self._client.sadd(keys.HANDED_BACK, holder)

    def heads(self, conversations: Iterable[Conversation]) -> dict[Conversation, str | None]:
        """The member (ts) that heads each conversation's order, or None when it is empty."""
        wanted = list(dict.fromkeys(conversations))
        if not wanted:
            return {}
        with redis_call("turn_heads", len(wanted)), self._client.pipeline(False) as pipe:
            for where in wanted:
                pipe.zrange(keys.order(where), 0, 0)
            replies = pipe.execute()
        return {
            where: (_text(reply[0]) if reply else None)
            for where, reply in zip(wanted, replies, strict=True)
        }

    def drop_stale_head(self, where: Conversation, member: str) -> bool:
        """Remove ``member`` from ``where``'s order when its turn is over or unknown."""
        turn_id = keys.turn_id_of(member)
        with redis_call("turn_stale_head", turn_id):
            status = _text(self._client.hget(keys.turn(turn_id), "status"))
            if status in ("", *FINISHED):
                self._client.zrem(keys.order(where), member)
                return True
        return False

    # -- a turn's record ------------------------------------------------------------------

    def progress(self, turn_id: str, *, attempt: bool = False) -> TurnProgress:
        """The turn's record; with ``attempt``, counting one more attempt at it first."""
        record = keys.turn(turn_id)
        with redis_call("turn_progress", turn_id), self._client.pipeline(True) as pipe:
            if attempt:
                pipe.hincrby(record, "attempts", 1)
            pipe.hgetall(record)
            raw = pipe.execute()[-1]
        fields = {_text(k): _text(v) for k, v in raw.items()}
        reply = fields.get("reply")
        return TurnProgress(
            status=fields.get("status") or "queued",
            attempts=int(fields.get("attempts") or 0),
            admitted=fields.get("admitted") == "1",
            placeholder_ts=fields.get("placeholder_ts"),
            status_set=fields.get("status_set") == "1",
            reply=json.loads(reply) if reply else None,
            posting=fields.get("posting"),
        )

    def note(self, turn_id: str, **fields: str | None) -> None:
        """Record progress (``None`` removes a field)."""
        record = keys.turn(turn_id)
        with redis_call("turn_note", turn_id, *fields), self._client.pipeline(True) as pipe:
            present: dict[Any, Any] = {k: v for k, v in fields.items() if v is not None}
            if present:
                pipe.hset(record, mapping=present)
            absent = [k for k, v in fields.items() if v is None]
            if absent:
                pipe.hdel(record, *absent)
            pipe.execute()

    def finish(self, entry: Entry, status: str, *, posted: str | None = None) -> None:
        """The turn is over (``answered``/``failed``/``skipped``; ``posted``: the ts of the
        message that holds the reply): ack, delete, leave its order — in one MULTI/EXEC."""
        turn = entry.turn
        record = keys.turn(turn.turn_id)
        outcome = {"status": status, "finished_at": repr(time.time())}
        if posted is not None:
            outcome["posted"] = json.dumps([posted])
        with redis_call("turn_finish", turn.turn_id, status), self._client.pipeline(True) as pipe:
            pipe.xack(keys.TURN_STREAM, GROUP, entry.entry_id)
            pipe.xdel(keys.TURN_STREAM, entry.entry_id)
            pipe.zrem(keys.order(turn.conversation), keys.order_member(turn.ts, turn.turn_id))
            pipe.hset(record, mapping=outcome)  # type: ignore[arg-type]
            pipe.hdel(record, "reply")  # the words are not kept past the turn
            pipe.pexpire(record, self._record_ms)
            pipe.execute()

    def pending_count(self) -> int:
        """Entries read by some worker and not yet finished (every consumer)."""
        with redis_call("turn_pending", keys.TURN_STREAM):
            try:
                summary = self._client.xpending(keys.TURN_STREAM, GROUP)
            except ResponseError:
                return 0
        return int(summary.get("pending") or 0)

    # -- internals ------------------------------------------------------------------------

    @contextmanager
    def _stream_call(self, op: str) -> Iterator[None]:
        """``redis_call``, noticing when Redis lost the group (restarted without data)."""
        try:
            with redis_call(op, keys.TURN_STREAM):
                yield
        except StoreUnavailable as e:
            if "NOGROUP" in str(e):
                self._group_ready = False
            raise

    def _entries(self, raw: Iterable[Any]) -> list[Entry]:
        """Turns of stream entries; a duplicate's entry (not the record's nonce) is dropped."""
        candidates: list[tuple[str, dict[str, str]]] = []
        for entry_id, fields in raw:
            if fields:
                candidates.append(
                    (_text(entry_id), {_text(k): _text(v) for k, v in fields.items()})
                )
        if not candidates:
            return []
        with redis_call("turn_nonces", len(candidates)), self._client.pipeline(False) as pipe:
            for _, fields in candidates:
                pipe.hget(keys.turn(fields.get("turn", "")), "nonce")
            nonces = pipe.execute()
        entries: list[Entry] = []
        dropped: list[str] = []
        for (entry_id, fields), nonce in zip(candidates, nonces, strict=True):
            turn = _turn(fields)
            if turn is None or (nonce is not None and _text(nonce) != fields.get("nonce")):
                dropped.append(entry_id)
                continue
            entries.append(Entry(entry_id, turn, keys.order_member(turn.ts, turn.turn_id)))
        if dropped:
            with redis_call("turn_drop_duplicates", len(dropped)), self._client.pipeline() as pipe:
                pipe.xack(keys.TURN_STREAM, GROUP, *dropped)
                pipe.xdel(keys.TURN_STREAM, *dropped)
                pipe.execute()
        return entries


def _turn(fields: dict[str, str]) -> QueuedTurn | None:
    try:
        return QueuedTurn(
            turn_id=fields["turn"],
            conversation=Conversation.model_validate_json(fields["conversation"]),
            ts=fields["ts"],
            message=json.loads(fields["message"]),
            received_at=float(fields.get("received_at") or 0.0),
        )
    except (KeyError, ValueError):
        logger.warning("turn entry of %s is unreadable; dropped", fields.get("turn"))
        return None


def _text(value: object) -> str:
    if isinstance(value, bytes):
        return value.decode()
    return "" if value is None else str(value)
