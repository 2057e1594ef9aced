"""Who may ask, and where answers may appear (DESIGN §13).

``Access.decide(incoming, home=...)`` turns one message into a ``Ruling`` (a ``Decision``
and why):

- **Outside users get nothing.** Only members of the installing workspace (``home``: the
  team and Enterprise Grid org of the app's own token, from ``auth.test`` — never the
  request's say-so) or of ``PRISM_ALLOWED_TEAMS`` are answered. Every team id the payload
  gives for the asker must be allowed (``Incoming.teams``: ``user_team``, ``source_team``,
  ``team``), and so must the ``team_id`` that ``users.info`` reports for them — unless
  ``users.info`` says they belong to the installing org (``enterprise_user.enterprise_id``):
  on Enterprise Grid, people of every workspace of the org are members.
- **A person of the org who is refused is told why**, ephemerally: a guest
  (``is_restricted`` / ``is_ultra_restricted``; ``PRISM_GUESTS=answer`` answers them like
  members), or someone whose workspace of the org is not in ``PRISM_ALLOWED_TEAMS``.
  Apps and bot users get nothing; nor does anyone of another organisation.
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
from prism_slack.slack import texts
from prism_slack.slack.conversation import Incoming

logger = logging.getLogger(__name__)

K = TypeVar("K")
V = TypeVar("V")


class Who(StrEnum):
    """What PRISM knows of the person asking."""

    MEMBER = "member"
    OUTSIDER = "outsider"
    GUEST = "guest"
    NOT_ALLOWED = "not_allowed"
    """Of the installing org, but from a workspace ``PRISM_ALLOWED_TEAMS`` leaves out."""
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
    """Nothing at all: an outsider, an app (one log line)."""
    REFUSE_WITH_NOTE = "refuse_with_note"
    """Someone of the org who may not ask (a guest, a workspace not allowed): told why."""


@dataclass(frozen=True)
class Ruling:
    decision: Decision
    reason: str
    """For the one log line of a message that is not answered (ids only)."""
    note: str | None = None
    """What the asker is told, ephemerally, when they are not answered."""


REFUSAL_NOTES = {Who.GUEST: texts.GUEST, Who.NOT_ALLOWED: texts.WORKSPACE_NOT_ALLOWED}
"""What a person of the org is told when ``who`` refuses them."""


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
    """The workspace and Enterprise Grid org of the app's own token (``auth.test``, which
    Bolt calls once and caches: ``authorize_result``) — not the request's team. Empty,
    so that nobody is a member, when there is no authorization."""
    result = context.authorize_result
    if result is None:
        return frozenset()
    return frozenset(t for t in (result.team_id, result.enterprise_id) if t)


def orgs_of(home: frozenset[str]) -> frozenset[str]:
    """The Enterprise Grid org ids among ``home`` (Slack's enterprise ids start with E)."""
    return frozenset(t for t in home if t.startswith("E"))


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
            return Ruling(
                Decision.CANNOT_CHECK, f"users.info failed for {incoming.user}", texts.CANNOT_CHECK
            )
        if who in REFUSAL_NOTES:
            reason = f"{who.value} {incoming.user} (teams={teams})"
            return Ruling(Decision.REFUSE_WITH_NOTE, reason, REFUSAL_NOTES[who])
        if who is not Who.MEMBER:
            return Ruling(Decision.REFUSE, f"{who.value} {incoming.user} (teams={teams})")
        if incoming.is_dm or not self.is_shared(incoming.channel, incoming.shared):
            return Ruling(Decision.ANSWER, "member")
        if self.policy.shared_channels == "ephemeral":
            return Ruling(Decision.ANSWER_PRIVATELY, "shared channel, ephemeral answers")
        return Ruling(
            Decision.ASK_IN_DM, "shared channel, answers only in DMs", texts.SHARED_CHANNEL
        )

    def who(self, user: str, teams: tuple[str, ...], *, home: frozenset[str]) -> Who:
        """Member, outsider, guest, not allowed or app — from the payload's teams, then
        ``users.info``."""
        allowed = self.allowed(home)
        orgs = orgs_of(home)
        foreign = any(team not in allowed for team in teams)
        if foreign and not orgs:
            return Who.OUTSIDER  # no org to belong to: nothing more to learn
        if self.policy.guests == "answer" and teams and not foreign:
            return Who.MEMBER  # nothing more to learn from users.info
        info = self._user(user)
        if info is None:
            return Who.UNKNOWN
        grid = info.get("enterprise_user")
        grid = grid if isinstance(grid, dict) else {}
        in_org = str(grid.get("enterprise_id") or "") in orgs
        home_team = str(info.get("team_id") or "")
        if not in_org and (foreign or (home_team and home_team not in allowed)):
            return Who.OUTSIDER
        if info.get("is_bot") or info.get("is_app_user"):
            return Who.APP
        if self.policy.guests == "none" and (
            info.get("is_restricted") or info.get("is_ultra_restricted")
        ):
            return Who.GUEST
        if in_org and self.policy.allowed_teams:
            theirs = {home_team, *(str(t) for t in grid.get("teams") or ())}
            if not theirs & self.policy.allowed_teams:
                return Who.NOT_ALLOWED
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
