"""What every Redis adapter module shares: time units and ``redis_call`` (private).

``redis_store`` and ``turns`` both use it, so neither imports the other for it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from redis.exceptions import RedisError

from prism_slack.errors import StoreUnavailable

logger = logging.getLogger(__name__)

MINUTE: Final = 60.0
HOUR: Final = 60 * MINUTE
DAY: Final = 24 * HOUR


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
        if logger.isEnabledFor(logging.DEBUG):
            elapsed_ms = (time.perf_counter() - started) * 1e3
            shown = " ".join(map(str, ids))
            logger.debug("redis %s %s %s %.1f ms", op, shown, outcome, elapsed_ms)
