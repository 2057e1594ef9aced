"""Kill one gunicorn worker in the middle of the burst and time the recovery.

``WorkerKiller`` waits ``at_s`` seconds after the first turn is recorded, then picks the
worker whose consumer holds the most turns in the turn log (``XINFO CONSUMERS``; a
consumer's name carries its pid), notes the turns it holds, sends it SIGKILL, and polls
their records until every one is finished by a live worker. Recovery time is from the kill
to the last of them finished (answered or failed): what a rep whose question the dead
worker held waited beyond a normal answer.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

from pydantic import BaseModel

from bench.load.stack import LoadStack
from prism_slack.state import keys
from prism_slack.state.turns import GROUP


class KillReport(BaseModel):
    at_s: float
    victim_pid: int | None
    turns_held: int
    finished: int
    recovered_s: float | None
    """From the kill until the last turn it held was finished by another worker."""


class WorkerKiller(threading.Thread):
    def __init__(self, stack: LoadStack, *, at_s: float, timeout_s: float = 90.0) -> None:
        super().__init__(name="worker-killer", daemon=True)
        self.stack = stack
        self.at_s = at_s
        self.timeout_s = timeout_s
        self.report = KillReport(
            at_s=at_s, victim_pid=None, turns_held=0, finished=0, recovered_s=None
        )

    def run(self) -> None:
        try:
            self._run()
        except Exception as e:  # a bench helper: say what went wrong, never hang the run
            print(f"worker killer: {type(e).__name__}: {e}", file=sys.stderr, flush=True)

    def _run(self) -> None:
        client = self.stack.redis.client()
        try:
            deadline = time.monotonic() + self.timeout_s
            while not client.xlen(keys.TURN_STREAM) and time.monotonic() < deadline:
                time.sleep(0.01)  # the burst has begun once the first turn is recorded
            time.sleep(self.at_s)
            workers = set(self.stack.server.worker_pids())
            held: dict[int, list[str]] = {}
            for consumer in client.xinfo_consumers(keys.TURN_STREAM, GROUP):
                name = _text(consumer["name"])
                pid = int(name.split("-")[-2]) if name.count("-") >= 2 else -1
                if pid not in workers:
                    continue
                pending = client.xpending_range(
                    keys.TURN_STREAM, GROUP, "-", "+", 10_000, consumername=name
                )
                for p in pending:
                    [(_, fields)] = client.xrange(
                        keys.TURN_STREAM, p["message_id"], p["message_id"]
                    )
                    held.setdefault(pid, []).append(_text(fields[b"turn"]))
            if not held:
                return
            victim = max(held, key=lambda pid: len(held[pid]))
            turns = held[victim]
            os.kill(victim, signal.SIGKILL)
            killed_at = time.monotonic()
            self.report = self.report.model_copy(
                update={"victim_pid": victim, "turns_held": len(turns)}
            )
            deadline = killed_at + self.timeout_s
            while time.monotonic() < deadline:
                statuses = [_text(client.hget(keys.turn(t), "status")) for t in turns]
                done = sum(s in ("answered", "failed", "skipped") for s in statuses)
                self.report = self.report.model_copy(update={"finished": done})
                if done == len(turns):
                    recovered = round(time.monotonic() - killed_at, 2)
                    self.report = self.report.model_copy(update={"recovered_s": recovered})
                    return
                time.sleep(0.1)
        finally:
            client.close()


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
