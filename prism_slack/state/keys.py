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
``prism:greeted:<scope>``                 string  ``1`` (the side panel greeted)   30 d
``prism:dm:<team>:<user>``                string  the user's DM channel with PRISM 30 d
``prism:turnlog``                         stream  one entry per turn to answer:    entry deleted
                                                  turn id, nonce, the message;     when its turn
                                                  consumer group ``prism``         is finished
``prism:turn:<turn_id>``                  hash    the nonce of its entry, then     24 h
                                                  its progress (placeholder,
                                                  reply, posted ts, status)
``prism:order:<scope>``                   zset    :func:`order_member` of every    24 h
                                                  unfinished turn (score 0: byte
                                                  order is ts order)
``prism:turnlog:handed-back``             set     consumers that stopped (SIGTERM) none (emptied
                                                  with entries left pending        on takeover)
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

A turn's id is its message identity ``<team>:<channel>:<ts>`` (``Incoming.claim_key``):
every delivery of one message — a retry, the ``app_mention``/``message`` pair — names the
same record, which is how a duplicate is told (see ``prism_slack.state.turns``).
``prism:order:<scope>`` holds a conversation's unfinished turns; its first member is the
turn that may be answered now. A member is the message's ts padded to a fixed width, then
the turn id (:func:`order_member`), so byte order is ts order at full microsecond precision.
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
"""Index of recent turns (``AuditLog.recent_audits``)."""


def history(where: Conversation) -> str:
    return f"{PREFIX}history:{scope(where)}"


def engaged(where: Conversation) -> str:
    return f"{PREFIX}engaged:{scope(where)}"


def greeted(where: Conversation) -> str:
    return f"{PREFIX}greeted:{scope(where)}"


def dm_channel(team: str, user: str) -> str:
    return f"{PREFIX}dm:{escape(team)}:{escape(user)}"


HEALTH = PREFIX + "health:"
"""Prefix of the short-lived key ``/healthz`` writes and reads back (10 s TTL)."""
TURN_STREAM = PREFIX + "turnlog"
"""The stream of turns to answer (consumer group ``prism``)."""
HANDED_BACK = PREFIX + "turnlog:handed-back"
"""Consumers that stopped with entries still pending (their entries are taken at once)."""


def turn(turn_id: str) -> str:
    return f"{PREFIX}turn:{escape(turn_id)}"


def order(where: Conversation) -> str:
    return f"{PREFIX}order:{scope(where)}"


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


def order_member(ts: str, turn_id: str) -> str:
    """A conversation-order member: :func:`turn_member` of ``ts``, then ``|`` and the turn id."""
    return f"{turn_member(ts)}|{turn_id}"


def turn_id_of(member: str) -> str:
    """The turn id of an :func:`order_member`."""
    return member.partition("|")[2]


def audit(turn_id: str) -> str:
    return f"{PREFIX}audit:{escape(turn_id)}"


def feedback(turn_id: str) -> str:
    return f"{PREFIX}feedback:{escape(turn_id)}"


def rate(user: str) -> str:
    return f"{PREFIX}rate:{escape(user)}"
