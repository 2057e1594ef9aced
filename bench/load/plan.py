"""The workload: which Slack events reach the app, and when. Pure and seeded.

``build_plan`` lays out ``round(rate × seconds)`` distinct rep messages, open-loop at
``rate`` per second (message ``i`` at ``i / rate`` s), over two kinds of conversation:

- DMs (``dm_share`` of the messages): top-level messages in ``dm_channels`` DM channels,
  one rep per DM — one ``message.im`` delivery each. A DM's messages are one conversation,
  so the app answers them one at a time;
- channel mentions (the rest): ``@PRISM …`` in ``channels`` public channels, each its own
  thread. Slack sends two events for a mention — ``app_mention`` and ``message`` — with the
  same ``ts``: both are delivered, at the same moment (the *duplicates*).

A ``retry_share`` of the messages also gets one Slack retry of one of its deliveries (same
``event_id``, ``X-Slack-Retry-Num: 1``) a little later (``retry_delay_s``). Channel-mention
reps come from a pool sized so that none of them sends more than ``max_per_user`` messages
(the app rate-limits a rep after about ten in a burst; the bench measures the app, not that
limit). Message ``ts`` values increase with ``i``, as Slack's do.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Literal

DeliveryKind = Literal["dm", "app_mention", "message"]

MAX_PER_USER = 8
"""Channel-mention messages per rep (the app's rate bucket holds about ten)."""

WARMUP_PREFIX = "CWARM"
"""Channels of the warm-up messages (kept out of every figure)."""


@dataclass(frozen=True)
class Message:
    """One distinct rep message (its identity is ``team:channel:ts``, the app's claim key)."""

    index: int
    channel: str
    user: str
    ts: str
    dm: bool
    slug: str
    """The report its channel is bound to."""
    question: str
    at_s: float

    def claim_key(self, team: str) -> str:
        return f"{team}:{self.channel}:{self.ts}"

    @property
    def tag(self) -> str:
        """The marker in the question that names this message (``q00042``)."""
        return f"q{self.index:05d}"

    @property
    def reply_thread(self) -> str | None:
        """Where the app replies: in place in a DM, in the mention's own thread in a channel."""
        return None if self.dm else self.ts


@dataclass(frozen=True)
class Delivery:
    """One HTTP POST of an Events API envelope to the app."""

    at_s: float
    message: int
    kind: DeliveryKind
    event_id: str
    event: dict[str, Any]
    retry_num: int | None = None

    @property
    def role(self) -> Literal["first", "duplicate", "retry"]:
        """``first``: the message's first event; ``duplicate``: the ``message`` event of a
        mention; ``retry``: a Slack redelivery."""
        if self.retry_num is not None:
            return "retry"
        return "duplicate" if self.kind == "message" else "first"


@dataclass(frozen=True)
class Binding:
    """A channel and the company it is bound to before the burst (``/prism bind``)."""

    channel: str
    user: str
    company: str
    slug: str


@dataclass(frozen=True)
class Plan:
    messages: list[Message]
    deliveries: list[Delivery]
    bindings: list[Binding]

    def count(self, role: str) -> int:
        return sum(d.role == role for d in self.deliveries)

    @property
    def duration_s(self) -> float:
        return max((d.at_s for d in self.deliveries), default=0.0)


def build_plan(
    *,
    rate: float,
    seconds: float,
    companies: dict[str, str],
    bot_user_id: str,
    dm_share: float = 0.5,
    dm_channels: int = 25,
    channels: int = 25,
    retry_share: float = 0.2,
    retry_delay_s: tuple[float, float] = (0.2, 1.5),
    max_per_user: int = MAX_PER_USER,
    base_time: int = 1_700_000_000,
    seed: int = 7,
) -> Plan:
    """The seeded workload; ``companies`` maps report slug → company name (for binding)."""
    if rate <= 0 or seconds <= 0:
        raise ValueError("rate and seconds must be positive")
    if not 0 <= dm_share <= 1 or not 0 <= retry_share <= 1:
        raise ValueError("dm_share and retry_share must be between 0 and 1")
    if not companies or dm_channels < 1 or channels < 1:
        raise ValueError("need at least one company, DM channel and channel")
    rng = random.Random(seed)
    total = round(rate * seconds)
    dm_indices = set(rng.sample(range(total), round(total * dm_share)))
    slugs = sorted(companies)
    dms = [_target("D", i, slugs) for i in range(dm_channels)]
    rooms = [_target("C", i, slugs) for i in range(channels)]
    mention_users = max(1, math.ceil((total - len(dm_indices)) / max_per_user))
    messages: list[Message] = []
    deliveries: list[Delivery] = []
    n_dm = n_mention = 0
    for i in range(total):
        at_s = i / rate
        ts = f"{base_time}.{i + 1:06d}"
        question = f"What was their revenue last year? (q{i:05d})"
        if i in dm_indices:
            channel, slug = dms[n_dm % dm_channels]
            user = f"U{channel}"
            n_dm += 1
            message = Message(i, channel, user, ts, True, slug, question, at_s)
            event = _message_event(question, user=user, channel=channel, ts=ts, channel_type="im")
            deliveries.append(Delivery(at_s, i, "dm", _event_id(rng), event))
        else:
            channel, slug = rooms[n_mention % channels]
            user = f"UREP{n_mention % mention_users:04d}"
            n_mention += 1
            text = f"<@{bot_user_id}> {question}"
            message = Message(i, channel, user, ts, False, slug, question, at_s)
            pair = [
                Delivery(
                    at_s, i, "app_mention", _event_id(rng), _mention_event(text, user, channel, ts)
                ),
                Delivery(
                    at_s,
                    i,
                    "message",
                    _event_id(rng),
                    _message_event(text, user=user, channel=channel, ts=ts, channel_type="channel"),
                ),
            ]
            rng.shuffle(pair)
            deliveries += pair
        messages.append(message)
    by_message: dict[int, list[Delivery]] = {}
    for delivery in deliveries:
        by_message.setdefault(delivery.message, []).append(delivery)
    for i in sorted(rng.sample(range(total), round(total * retry_share))):
        original = rng.choice(by_message[i])
        delay = rng.uniform(*retry_delay_s)
        deliveries.append(
            Delivery(
                original.at_s + delay,
                i,
                original.kind,
                original.event_id,
                original.event,
                retry_num=1,
            )
        )
    deliveries.sort(key=lambda d: d.at_s)
    bindings = [
        Binding(
            channel, f"U{channel}" if channel.startswith("D") else "UADMIN", companies[slug], slug
        )
        for channel, slug in dms + rooms
    ]
    return Plan(messages=messages, deliveries=deliveries, bindings=bindings)


def warmup_deliveries(
    companies: dict[str, str],
    *,
    bot_user_id: str,
    per_company: int = 4,
    rate: float = 20.0,
    base_time: int = 1_700_000_000,
    seed: int = 7,
) -> list[Delivery]:
    """Mentions naming each company (no binding needed), each in its own warm-up channel,
    so every worker has answered from every report before the burst."""
    rng = random.Random(seed)
    deliveries = []
    for i, name in enumerate(n for _ in range(per_company) for n in sorted(companies.values())):
        channel, user, ts = f"{WARMUP_PREFIX}{i:03d}", f"UWARM{i:03d}", f"{base_time}.{i + 1:06d}"
        text = f"<@{bot_user_id}> What was {name}'s revenue last year?"
        event = _mention_event(text, user, channel, ts)
        deliveries.append(Delivery(i / rate, -1 - i, "app_mention", _event_id(rng), event))
    return deliveries


def _target(prefix: str, i: int, slugs: list[str]) -> tuple[str, str]:
    return f"{prefix}LOAD{i:04d}", slugs[i % len(slugs)]


def _event_id(rng: random.Random) -> str:
    return "Ev" + "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789") for _ in range(12))


def _message_event(
    text: str, *, user: str, channel: str, ts: str, channel_type: str
) -> dict[str, Any]:
    return {
        "type": "message",
        "user": user,
        "text": text,
        "ts": ts,
        "channel": channel,
        "channel_type": channel_type,
        "event_ts": ts,
    }


def _mention_event(text: str, user: str, channel: str, ts: str) -> dict[str, Any]:
    return {
        "type": "app_mention",
        "user": user,
        "text": text,
        "ts": ts,
        "channel": channel,
        "event_ts": ts,
    }
