"""Answer the messages of one conversation in the order the rep sent them.

The store's per-conversation lock makes turns exclusive across every worker, but a lock
taken by polling is not fair: of two messages waiting behind a slow answer, either may
get it next. ``Turnstile`` lines up the messages of one conversation in one process by
Slack's ``ts`` (which totally orders a conversation's messages, whatever order the events
arrive in) before they take that lock, so a follow-up is never answered before the
question it follows::

    with turnstile.place(conversation, ts) as place:   # join the line
        ...                                             # e.g. show a placeholder
        place.wait(timeout_s)                           # until every earlier ts is done
        ...                                             # answer
"""

from __future__ import annotations

import bisect
import itertools
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from prism_slack.errors import LockTimeout
from prism_slack.ports import Conversation

_Entry = tuple[tuple[int, int], int]


def ts_key(ts: str) -> tuple[int, int]:
    """A Slack ts (``"1700000000.000200"``) as a sortable pair."""
    seconds, _, micros = ts.partition(".")
    try:
        return int(seconds), int(micros.ljust(6, "0")[:6])
    except ValueError:
        return 0, 0


class Place:
    """One message's place in its conversation's line (see ``Turnstile.place``)."""

    def __init__(self, turnstile: Turnstile, queue: list[_Entry], entry: _Entry) -> None:
        self._turnstile = turnstile
        self._queue = queue
        self._entry = entry

    def wait(self, timeout_s: float) -> None:
        """Block until no earlier message of the conversation is waiting or being answered.

        Raises ``LockTimeout`` after ``timeout_s``.
        """
        deadline = time.monotonic() + timeout_s
        with self._turnstile.changed:
            while self._queue[0] != self._entry:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise LockTimeout(f"waited {timeout_s} s behind earlier messages")
                self._turnstile.changed.wait(remaining)


class Turnstile:
    """Per conversation, in one process: one message at a time, lowest ts first."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self._lines: dict[Conversation, list[_Entry]] = {}
        self._tickets = itertools.count()

    @contextmanager
    def place(self, conversation: Conversation, ts: str) -> Iterator[Place]:
        """Join ``conversation``'s line at ``ts``; leave it on exit, whatever happens."""
        with self.changed:
            entry = (ts_key(ts), next(self._tickets))
            queue = self._lines.setdefault(conversation, [])
            bisect.insort(queue, entry)
        try:
            yield Place(self, queue, entry)
        finally:
            with self.changed:
                queue.remove(entry)
                if not queue:
                    self._lines.pop(conversation, None)
                self.changed.notify_all()

    def waiting(self, conversation: Conversation) -> int:
        """How many messages of this conversation are in line (including the one answered)."""
        with self.changed:
            return len(self._lines.get(conversation, []))
