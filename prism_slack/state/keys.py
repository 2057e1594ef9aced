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
``prism:audit:<turn_id>``                 string  AuditRecord JSON                 30 d
``prism:feedback:<turn_id>``              hash    user → ``{"user", "value",       30 d
                                                  "at"}`` JSON
``prism:rate:<user>``                     hash    ``tokens``, ``ts`` (token        until the
                                                  bucket)                          bucket is
                                                                                   full again
========================================  ======  ===============================  ============

TTLs are refreshed on every write of their key; the defaults live in
``prism_slack.state.redis_store`` and are configurable there.
"""

from __future__ import annotations

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


def history(where: Conversation) -> str:
    return f"{PREFIX}history:{scope(where)}"


def engaged(where: Conversation) -> str:
    return f"{PREFIX}engaged:{scope(where)}"


def event(event_id: str) -> str:
    return f"{PREFIX}event:{escape(event_id)}"


def lock(where: Conversation) -> str:
    return f"{PREFIX}lock:{scope(where)}"


def audit(turn_id: str) -> str:
    return f"{PREFIX}audit:{escape(turn_id)}"


def feedback(turn_id: str) -> str:
    return f"{PREFIX}feedback:{escape(turn_id)}"


def rate(user: str) -> str:
    return f"{PREFIX}rate:{escape(user)}"
