"""One worker's consumer of the durable turn log: read, reclaim, order, answer, hand back.

``TurnWorker`` runs one dispatcher thread and a pool of ``threads`` answering threads:

- it reads new turns (``XREADGROUP``) only while it has a free thread, and every
  ``reclaim_every_s`` takes over the turns of dead or departed workers (``XAUTOCLAIM``,
  idle for ``reclaim_after_s``; handed-back ones at once);
- each turn is prepared (admitted, progress shown) on a thread, then answered on a thread
  once it heads its conversation's order; until then it is *parked* — it holds no thread,
  and the dispatcher looks at the heads of parked conversations every ``poll_s``;
- every ``heartbeat_s`` it refreshes its entries (``XCLAIM JUSTID``) so that a live
  worker's turns are never reclaimed, and forgets any another worker took over;
- ``stop_reading()`` (on SIGTERM) stops taking new turns; ``stop(grace_s)`` waits for the
  turns being answered, for at most ``grace_s``, and hands every unfinished one back.

A store outage never kills the dispatcher: it logs, backs off and carries on; a turn whose
answering hit the outage is let go, so it is reclaimed once the store is back.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_futures
from typing import Any

from prism_slack.errors import StoreUnavailable
from prism_slack.ports import Conversation, Entry, TurnQueue
from prism_slack.slack.answering import Abandoned, MessageAnswerer, Prepared

logger = logging.getLogger(__name__)


class TurnWorker:
    """See the module docstring."""

    def __init__(
        self,
        turns: TurnQueue,
        answerer: MessageAnswerer,
        *,
        threads: int = 32,
        poll_s: float = 0.05,
        reclaim_every_s: float | None = None,
        heartbeat_s: float | None = None,
    ) -> None:
        self.turns = turns
        self.answerer = answerer
        self.threads = threads
        self.poll_s = poll_s
        self.reclaim_every_s = reclaim_every_s or max(turns.reclaim_after_s / 3, 0.1)
        self.heartbeat_s = heartbeat_s or max(turns.reclaim_after_s / 5, 0.05)
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="prism-turn")
        self._lock = threading.Lock()
        self._held: dict[str, Entry] = {}
        """Every entry this worker holds (being prepared, parked or answered)."""
        self._parked: dict[str, Prepared] = {}
        self._heads_seen: dict[tuple[Conversation, str], float] = {}
        self._busy = 0
        self._futures: set[Future[None]] = set()
        self._reading = threading.Event()
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None

    # -- lifecycle ------------------------------------------------------------------------

    def start(self) -> TurnWorker:
        self._reading.set()
        self._thread = threading.Thread(target=self._loop, name="prism-turns", daemon=True)
        self._thread.start()
        logger.info(
            "turn worker %s started: threads=%d reclaim_after_s=%g",
            self.turns.consumer,
            self.threads,
            self.turns.reclaim_after_s,
        )
        return self

    def stop_reading(self) -> None:
        """Take no new turn (SIGTERM); the ones held are still answered."""
        if self._reading.is_set():
            logger.info("turn worker %s: no new turns (shutting down)", self.turns.consumer)
        self._reading.clear()

    def stop(self, *, grace_s: float = 0.0) -> int:
        """Stop, answering what is under way for up to ``grace_s``; hand back the rest (and
        write nothing more to Slack for them). How many were handed back."""
        self.stop_reading()
        with self._lock:
            parked = [p.entry.entry_id for p in self._parked.values()]
            self._parked.clear()
        self._hand_back(parked)  # not started: the next worker answers them at once
        deadline = time.monotonic() + max(grace_s, 0.0)
        while time.monotonic() < deadline:
            with self._lock:
                running = [f for f in self._futures if not f.done()]
            if not running:
                break
            wait_futures(running, timeout=min(0.2, max(deadline - time.monotonic(), 0.0)))
        self._stopped.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        with self._lock:
            left = sorted(self._held)
        if left:
            self.answerer.abandon()
        self._hand_back(left)
        if left:
            logger.warning(
                "turn worker %s stopped with %d turns unfinished after %g s; handed back",
                self.turns.consumer,
                len(left),
                grace_s,
            )
        self._pool.shutdown(wait=False, cancel_futures=True)
        return len(left)

    def _hand_back(self, entry_ids: list[str]) -> None:
        if not entry_ids:
            return
        try:
            self.turns.hand_back(entry_ids)
        except StoreUnavailable as e:
            logger.warning(
                "could not hand back %d turns; they are reclaimed: %s", len(entry_ids), e
            )
        with self._lock:
            for entry_id in entry_ids:
                self._held.pop(entry_id, None)

    @property
    def held(self) -> int:
        with self._lock:
            return len(self._held)

    # -- the dispatcher -------------------------------------------------------------------

    def _loop(self) -> None:
        next_reclaim = next_beat = next_heads = 0.0
        backoff = 0.0
        while not self._stopped.is_set():
            try:
                now = time.monotonic()
                if now >= next_beat:
                    self._heartbeat()
                    next_beat = now + self.heartbeat_s
                if now >= next_heads:
                    self._release_heads()
                    next_heads = now + self.poll_s / 2
                if not self._reading.is_set():
                    time.sleep(self.poll_s)
                    continue
                if now >= next_reclaim:
                    self._take(self.turns.reclaim(self._free()))
                    next_reclaim = now + self.reclaim_every_s
                free = self._free()
                if free <= 0:
                    time.sleep(self.poll_s)
                    continue
                self._take(self.turns.read(free, block_ms=int(self.poll_s * 1000)))
                backoff = 0.0
            except StoreUnavailable as e:
                backoff = min(max(backoff * 2, 0.1), 2.0)
                logger.warning(
                    "turn worker: store unavailable (retrying in %.1f s): %s", backoff, e
                )
                self._stopped.wait(backoff)
            except Exception:
                logger.exception("turn worker: unexpected error; carrying on")
                self._stopped.wait(0.5)

    def _free(self) -> int:
        with self._lock:
            return self.threads - self._busy

    def _take(self, entries: list[Entry]) -> None:
        for entry in entries:
            with self._lock:
                if entry.entry_id in self._held:
                    continue
                self._held[entry.entry_id] = entry
            self._submit(self._prepare, entry)

    def _submit(self, work: Callable[[Any], None], argument: object) -> None:
        with self._lock:
            self._busy += 1
        future = self._pool.submit(self._run_counted, work, argument)
        with self._lock:
            self._futures.add(future)
        future.add_done_callback(self._done)

    def _done(self, future: Future[None]) -> None:
        with self._lock:
            self._futures.discard(future)

    def _run_counted(self, work: Callable[[Any], None], argument: object) -> None:
        try:
            work(argument)
        finally:
            with self._lock:
                self._busy -= 1

    # -- one turn -------------------------------------------------------------------------

    def _prepare(self, entry: Entry) -> None:
        try:
            prepared = self.answerer.prepare(entry)
            if prepared is None:
                self._forget(entry)
                return
            heads = self.turns.heads([entry.turn.conversation])
            if heads.get(entry.turn.conversation) == entry.place:
                self._answer(prepared)
                return
            with self._lock:
                self._parked[entry.entry_id] = prepared
        except (StoreUnavailable, Abandoned) as e:
            logger.warning("turn %s let go: %s", entry.turn.turn_id, e)
            self._forget(entry)
        except Exception:
            logger.exception("preparing turn %s failed; it will be reclaimed", entry.turn.turn_id)
            self._forget(entry)

    def _answer(self, prepared: Prepared) -> None:
        entry = prepared.entry
        try:
            self.answerer.run(prepared)
        except Abandoned as e:
            logger.info("turn %s left to another worker: %s", entry.turn.turn_id, e)
        except StoreUnavailable as e:
            logger.warning("turn %s let go (store unavailable): %s", entry.turn.turn_id, e)
        except Exception:
            logger.exception("answering turn %s failed; it will be reclaimed", entry.turn.turn_id)
        finally:
            self._forget(entry)

    def _release_heads(self) -> None:
        """Answer every parked turn that now heads its conversation."""
        with self._lock:
            parked = list(self._parked.values())
        if not parked:
            return
        heads = self.turns.heads(p.entry.turn.conversation for p in parked)
        for prepared in parked:
            turn = prepared.entry.turn
            head = heads.get(turn.conversation)
            if head == prepared.entry.place:
                with self._lock:
                    if self._parked.pop(prepared.entry.entry_id, None) is None:
                        continue
                self._submit(self._answer, prepared)
            elif head is not None:
                self._drop_if_stale(turn.conversation, head)

    def _drop_if_stale(self, where: Conversation, head: str) -> None:
        """A head that stays put while its turn is over (a lost finish) is removed."""
        now = time.monotonic()
        if len(self._heads_seen) > 1000:  # heads that moved on are forgotten
            cutoff = now - 2 * self.reclaim_every_s
            self._heads_seen = {k: t for k, t in self._heads_seen.items() if t > cutoff}
        seen = self._heads_seen.setdefault((where, head), now)
        if now - seen < self.reclaim_every_s:
            return
        del self._heads_seen[(where, head)]
        if self.turns.drop_stale_head(where, head):
            logger.warning(
                "dropped a finished turn left at the head of %s/%s", where.channel, where.thread
            )

    def _heartbeat(self) -> None:
        with self._lock:
            ids = list(self._held)
        lost = self.turns.heartbeat(ids)
        for entry_id in lost:
            with self._lock:
                entry = self._held.pop(entry_id, None)
                self._parked.pop(entry_id, None)
            if entry is not None:
                logger.warning("turn %s was taken over by another worker", entry.turn.turn_id)

    def _forget(self, entry: Entry) -> None:
        with self._lock:
            self._held.pop(entry.entry_id, None)
            self._parked.pop(entry.entry_id, None)
