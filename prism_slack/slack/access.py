"""Who may ask, and where answers may appear (DESIGN §13).

``Access.decide(incoming, home=...)`` turns one message into a ``Ruling`` (a ``Decision``
and why):

- **Outside users get nothing.** Only members of the installing workspace (``home``: the
  team and org of the request's authorization) or of ``PRISM_ALLOWED_TEAMS`` are answered.
  Every team id the payload gives for the asker must be allowed (``Incoming.teams``:
  ``user_team``, ``source_team``, ``team``), and so must the ``team_id`` that
  ``users.info`` reports for them.
- **Guests get nothing** by default (``is_restricted`` / ``is_ultra_restricted`` in
  ``users.info``); ``PRISM_GUESTS=answer`` answers them like members. Apps and bot users
  get nothing.
- **A channel shared with another organisation** (the envelope's
  ``is_ext_shared_channel``, else ``conversations.info``'s ``is_ext_shared``) never gets
  report content in public: ``PRISM_SHARED_CHANNELS=dm`` (default) tells the rep,
  ephemerally, to ask in a DM; ``ephemeral`` answers only them.
- When Slack cannot tell us who is asking or whether a channel is shared, PRISM fails
  closed: the asker is told, ephemerally, to try again; a channel is treated as shared.

``users.info`` and ``conversations.info`` answers are cached per process for
``cache_ttl_s`` (a guest promoted to member is seen within that time). What an event's
envelope says of its channel goes into the same cache, and ``channel_shared`` /
``channel_unshared`` events update it, so a channel newly shared is known at once.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Generic, TypeVar

from slack_bolt import BoltContext
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError

from prism_slack.settings import GuestMode, Settings, SharedChannelMode
from prism_slack.slack.conversation import Incoming

logger = logging.getLogger(__name__)

K = TypeVar("K")
V = TypeVar("V")


class Who(StrEnum):
    """What PRISM knows of the person asking."""

    MEMBER = "member"
    OUTSIDER = "outsider"
    GUEST = "guest"
    APP = "app"
    UNKNOWN = "unknown"
    """Slack could not say (``users.info`` failed)."""


class Decision(StrEnum):
    ANSWER = "answer"
    ANSWER_PRIVATELY = "answer_privately"
    """A shared channel, ``PRISM_SHARED_CHANNELS=ephemeral``: only the asker sees it."""
    ASK_IN_DM = "ask_in_dm"
    """A shared channel, ``PRISM_SHARED_CHANNELS=dm``: tell the asker, ephemerally."""
    CANNOT_CHECK = "cannot_check"
    """Who asks could not be checked: tell the asker, ephemerally, to try again."""
    REFUSE = "refuse"
    """Nothing at all: an outsider, a guest, an app (one log line)."""


@dataclass(frozen=True)
class Ruling:
    decision: Decision
    reason: str
    """For the one log line of a message that is not answered (ids only)."""


@dataclass(frozen=True)
class AccessPolicy:
    """The operator's choices (``Settings``), read once at the entry point."""

    allowed_teams: frozenset[str] = frozenset()
    """``PRISM_ALLOWED_TEAMS``; empty: the installing workspace (and its org)."""
    shared_channels: SharedChannelMode = "dm"
    guests: GuestMode = "none"
    cache_ttl_s: float = 300.0

    @classmethod
    def from_settings(cls, settings: Settings) -> AccessPolicy:
        return cls(
            allowed_teams=frozenset(settings.prism_allowed_teams),
            shared_channels=settings.prism_shared_channels,
            guests=settings.prism_guests,
        )


def home_teams(context: BoltContext) -> frozenset[str]:
    """The installing workspace and org of this request (from its authorization)."""
    return frozenset(t for t in (context.team_id, context.enterprise_id) if t)


class TTLCache(Generic[K, V]):
    """A thread-safe map whose entries expire ``ttl_s`` after they were put."""

    def __init__(self, ttl_s: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl_s = ttl_s
        self._clock = clock
        self._lock = threading.Lock()
        self._items: dict[K, tuple[float, V]] = {}

    def get(self, key: K) -> V | None:
        with self._lock:
            found = self._items.get(key)
            if found is None:
                return None
            if found[0] <= self._clock():
                del self._items[key]
                return None
            return found[1]

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._items[key] = (self._clock() + self.ttl_s, value)

    def forget(self, key: K) -> None:
        with self._lock:
            self._items.pop(key, None)


class Access:
    """Decides who is answered and how, with ``client`` for what the payload leaves out."""

    def __init__(
        self,
        client: WebClient,
        policy: AccessPolicy,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.client = client
        self.policy = policy
        self._users: TTLCache[str, dict[str, Any]] = TTLCache(policy.cache_ttl_s, clock=clock)
        self._shared: TTLCache[str, bool] = TTLCache(policy.cache_ttl_s, clock=clock)

    def allowed(self, home: frozenset[str]) -> frozenset[str]:
        return self.policy.allowed_teams or home

    def decide(self, incoming: Incoming, *, home: frozenset[str]) -> Ruling:
        """How (and whether) to answer ``incoming``."""
        who = self.who(incoming.user, incoming.teams, home=home)
        teams = ",".join(incoming.teams) or "-"
        if who is Who.UNKNOWN:
            return Ruling(Decision.CANNOT_CHECK, f"users.info failed for {incoming.user}")
        if who is not Who.MEMBER:
            return Ruling(Decision.REFUSE, f"{who.value} {incoming.user} (teams={teams})")
        if incoming.is_dm or not self.is_shared(incoming.channel, incoming.shared):
            return Ruling(Decision.ANSWER, "member")
        if self.policy.shared_channels == "ephemeral":
            return Ruling(Decision.ANSWER_PRIVATELY, "shared channel, ephemeral answers")
        return Ruling(Decision.ASK_IN_DM, "shared channel, answers only in DMs")

    def who(self, user: str, teams: tuple[str, ...], *, home: frozenset[str]) -> Who:
        """Member, outsider, guest or app — from the payload's teams, then ``users.info``."""
        allowed = self.allowed(home)
        if any(team not in allowed for team in teams):
            return Who.OUTSIDER
        if self.policy.guests == "answer" and teams:
            return Who.MEMBER  # nothing more to learn from users.info
        info = self._user(user)
        if info is None:
            return Who.UNKNOWN
        if info.get("team_id") and str(info["team_id"]) not in allowed:
            return Who.OUTSIDER
        if info.get("is_bot") or info.get("is_app_user"):
            return Who.APP
        if self.policy.guests == "none" and (
            info.get("is_restricted") or info.get("is_ultra_restricted")
        ):
            return Who.GUEST
        return Who.MEMBER

    def is_shared(self, channel: str, shared: bool | None) -> bool:
        """Whether ``channel`` is shared with another organisation (unknown counts as yes);
        ``shared``: what the request itself says, if it does."""
        if shared is not None:
            self._shared.put(channel, shared)
            return shared
        if channel.startswith("D"):
            return False  # a DM with the bot; its other party is checked as the asker
        cached = self._shared.get(channel)
        if cached is not None:
            return cached
        info = _logged_call(
            "conversations.info",
            f"channel={channel}",
            lambda: self.client.conversations_info(channel=channel),
        )
        if info is None:
            logger.warning("channel %s: can't tell whether it is shared; treating it so", channel)
            return True
        details = info.get("channel") or {}
        found = bool(details.get("is_ext_shared") or details.get("is_pending_ext_shared"))
        self._shared.put(channel, found)
        return found

    def channel_changed(self, channel: str, *, shared: bool | None) -> None:
        """``channel_shared`` / ``channel_unshared``: what is now known (``None``: ask)."""
        if shared is None:
            self._shared.forget(channel)
        else:
            self._shared.put(channel, shared)
        logger.info("channel %s sharing changed: shared=%s", channel, shared)

    def _user(self, user: str) -> dict[str, Any] | None:
        cached = self._users.get(user)
        if cached is not None:
            return cached
        info = _logged_call("users.info", f"user={user}", lambda: self.client.users_info(user=user))
        details = info.get("user") if info is not None else None
        if not isinstance(details, dict):
            return None
        self._users.put(user, details)
        return details


def _logged_call(method: str, where: str, call: Callable[[], Any]) -> dict[str, Any] | None:
    """One Web API read, logged as one line; ``None`` when Slack refused or failed."""
    started = time.perf_counter()
    error: str | None = None
    response: dict[str, Any] | None = None
    try:
        response = dict(call().data)
    except SlackApiError as e:
        error = str(e.response.get("error") or e.response.status_code)
    except (SlackClientError, OSError) as e:
        error = type(e).__name__
    logger.log(
        logging.INFO if error is None else logging.WARNING,
        "slack %s %s ok=%s error=%s latency_ms=%.1f",
        method,
        where,
        error is None,
        error,
        (time.perf_counter() - started) * 1000,
    )
    return response
