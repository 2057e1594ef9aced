"""Every Redis key PRISM uses: the one module that names them (DESIGN §9).

All keys start with ``prism:``. Every id that comes from outside (team, channel, thread,
user, event, turn) goes through :func:`escape`, which percent-encodes everything but
``A-Z a-z 0-9 _ . - ~``. ``:`` and ``%`` are therefore never part of an escaped id, so
each key is an injective function of its ids: a hostile channel id such as ``C1:t:x``
cannot reach another conversation's key, and glob characters (``* ? [``) cannot widen a
``SCAN`` pattern.

A conversation is named by its scope (:func:`scope`):
``c:<team>:<channel>`` for a channel or a DM (DM channel ids start with ``D``) as a whole,
``t:<team>:<channel>:<thread>`` for one thread.

========================================  ======  ===============================  ============
key                                       type    value                            TTL
========================================  ======  ===============================  ============
``prism:binding:c:<team>:<channel>``      string  report slug                      none (until
                                                                                   unbind)
``prism:binding:t:<team>:<channel>:<ts>`` string  report slug                      history TTL
``prism:history:<scope>``                 list    HistoryTurn JSON, oldest first,  history TTL
                                                  at most ``history_limit``        (7 d)
``prism:engaged:<scope>``                 string  ``1``                            24 h
``prism:event:<event_id>``                string  ``1`` (SET NX PX: exactly once)  1 h
``prism:lock:<scope>``                    string  lock token (redis-py ``Lock``)   lock lease
                                                                                   (120 s)
``prism:turns:<scope>``                   zset    member: a queued message's ts    lock lease,
                                                  (:func:`turn_member`); score:    refreshed
                                                  its deadline (epoch ms)          by every
                                                                                   write
``prism:audit:<turn_id>``                 string  AuditRecord JSON                 30 d
``prism:feedback:<turn_id>``              hash    user → ``{"user", "value",       30 d
                                                  "at"}`` JSON
``prism:audits``                          zset    member: turn id; score: the      30 d
                                                  turn's time (epoch ms); the
                                                  newest 10,000 (``prism
                                                  feedback``)
``prism:rate:<user>``                     hash    ``tokens``, ``ts`` (token        until the
                                                  bucket)                          bucket is
                                                                                   full again
========================================  ======  ===============================  ============

TTLs are refreshed on every write of their key; the defaults live in
``prism_slack.state.redis_store`` and are configurable there.

``prism:turns:<scope>`` is a conversation's turn queue (``RedisStateStore.turn``): its
messages in Slack ts order, the head's being answered. A member is the message's ts padded
to a fixed width, so byte order is ts order at full microsecond precision (no float), and
one message is one member however often it is delivered (a conversation's messages never
share a ts). The score is the entry's deadline, not its order: a waiting entry's is renewed
by each poll (``turn_lease_s``), the head's is the lock lease once it holds the lock — so a
crashed worker's entry is dropped (``ZREMRANGEBYSCORE`` up to now, by whichever worker polls
next) no later than its lock expires.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from prism_slack.ports import Conversation

PREFIX = "prism:"
PATTERN = PREFIX + "*"
"""``SCAN``/``KEYS`` pattern matching every PRISM key (and nothing else)."""


def escape(part: str) -> str:
    """``part`` percent-encoded so it holds no ``:``, ``%``, glob character or space."""
    return quote(part, safe="")


def scope(where: Conversation) -> str:
    """``t:<team>:<channel>:<thread>`` for a thread, ``c:<team>:<channel>`` otherwise."""
    if where.thread is None:
        return f"c:{escape(where.team)}:{escape(where.channel)}"
    return f"t:{escape(where.team)}:{escape(where.channel)}:{escape(where.thread)}"


def binding(where: Conversation) -> str:
    """The report bound to exactly this scope (a thread does not see its channel's here)."""
    return f"{PREFIX}binding:{scope(where)}"


AUDITS = f"{PREFIX}audits"
"""Index of recent turns (``TurnLog.recent_audits``)."""


def history(where: Conversation) -> str:
    return f"{PREFIX}history:{scope(where)}"


def engaged(where: Conversation) -> str:
    return f"{PREFIX}engaged:{scope(where)}"


def event(event_id: str) -> str:
    return f"{PREFIX}event:{escape(event_id)}"


def lock(where: Conversation) -> str:
    return f"{PREFIX}lock:{scope(where)}"


def turns(where: Conversation) -> str:
    return f"{PREFIX}turns:{scope(where)}"


_SLACK_TS = re.compile(r"([0-9]{1,12})(?:\.([0-9]{1,6}))?")
UNREADABLE_TS = "000000000000.000000"
"""Where a ts that is not a Slack ts sorts: first (it is answered at once, not stranded)."""


def turn_member(ts: str) -> str:
    """A turn-queue member: Slack ``ts`` as ``SSSSSSSSSSSS.UUUUUU``.

    ``"1700000000.0002"`` → ``"001700000000.000200"``: members compare (as bytes) in ts
    order, to the microsecond.
    """
    match = _SLACK_TS.fullmatch(ts)
    if match is None:
        return UNREADABLE_TS
    seconds, micros = match.group(1), match.group(2) or ""
    return f"{seconds.zfill(12)}.{micros.ljust(6, '0')}"


def audit(turn_id: str) -> str:
    return f"{PREFIX}audit:{escape(turn_id)}"


def feedback(turn_id: str) -> str:
    return f"{PREFIX}feedback:{escape(turn_id)}"


def rate(user: str) -> str:
    return f"{PREFIX}rate:{escape(user)}"
