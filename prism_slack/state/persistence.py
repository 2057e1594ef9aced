"""Does this Redis keep its data across a restart? (DESIGN §9, operator checks)

:func:`check_persistence` reads ``CONFIG GET appendonly`` and ``CONFIG GET save`` and says,
in one line an operator reads, whether bindings, pending turns and their records survive a restart
of Redis. A managed Redis may refuse ``CONFIG`` (unknown command, or an ACL without
``+config``): then the answer is ``UNKNOWN``, never a guess. ``serve`` warns at start-up
and ``prism doctor`` reports it.
"""

from __future__ import annotations

import logging

import redis
from redis.exceptions import RedisError

from prism_slack.ports import Persistence, PersistenceReport

__all__ = ["Persistence", "PersistenceReport", "check_persistence"]

logger = logging.getLogger(__name__)


def _config_value(client: redis.Redis, name: str) -> str:
    reply = client.config_get(name)
    for key, value in reply.items():
        if (key.decode() if isinstance(key, bytes) else key) == name:
            return value.decode() if isinstance(value, bytes) else str(value or "")
    return ""


def check_persistence(client: redis.Redis) -> PersistenceReport:
    """Whether ``client``'s Redis writes its data to disk (AOF or RDB snapshots)."""
    try:
        appendonly = _config_value(client, "appendonly").strip().lower()
        save = _config_value(client, "save").strip()
        appendfsync = _config_value(client, "appendfsync").strip() if appendonly == "yes" else ""
    except RedisError as e:
        logger.debug("CONFIG GET refused: %s: %s", type(e).__name__, e)
        return PersistenceReport(
            Persistence.UNKNOWN,
            f"Redis persistence unknown: CONFIG GET was refused ({type(e).__name__}: {e}); "
            "make sure AOF (appendonly yes) or RDB snapshots are on, or bindings are lost "
            "when Redis restarts",
        )
    if appendonly == "yes":
        return PersistenceReport(
            Persistence.ON,
            f"Redis persistence on: AOF (appendonly yes, appendfsync {appendfsync or '?'})"
            + (f", RDB save {save!r}" if save else ""),
        )
    if save:
        return PersistenceReport(
            Persistence.ON,
            f"Redis persistence on: RDB snapshots only (save {save!r}); writes since the "
            "last snapshot are lost if Redis crashes (appendonly yes keeps them)",
        )
    return PersistenceReport(
        Persistence.OFF,
        "Redis persistence OFF (appendonly no, save ''): every binding, pending turn and "
        "turn record is lost when Redis restarts; set appendonly yes",
    )
