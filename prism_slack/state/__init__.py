"""Conversation state (DESIGN §9): Redis, or the embedded in-memory default."""

from prism_slack.state.redis_store import RedisStateStore, memory_store, open_state_store

__all__ = ["RedisStateStore", "memory_store", "open_state_store"]
