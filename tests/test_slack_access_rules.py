"""``Access``'s rules, table by table, on a real ``WebClient`` against FakeSlack."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from slack_sdk import WebClient

from prism_slack.slack.access import (
    Access,
    AccessPolicy,
    Decision,
    TTLCache,
    Who,
)
from prism_slack.slack.conversation import Incoming
from prism_slack.testing.fake_slack import FakeSlack

HOME = "THOME"
ORG = "EHOME"
OTHER = "TPROSPECT"


@pytest.fixture
def fake() -> Iterator[FakeSlack]:
    with FakeSlack(team_id=HOME) as server:
        yield server


def access(fake: FakeSlack, **policy: Any) -> Access:
    client = WebClient(token=fake.bot_token, base_url=fake.api_url)
    return Access(client, AccessPolicy(**policy))


WHO = [
    # (case, payload teams, users.info of the asker, policy, expected)
    ("member", (HOME,), {}, {}, Who.MEMBER),
    ("member of the org", (ORG, HOME), {}, {}, Who.MEMBER),
    ("no teams in the payload", (), {}, {}, Who.MEMBER),
    ("Slack Connect outsider", (OTHER,), {}, {}, Who.OUTSIDER),
    ("outsider in source_team only", (HOME, OTHER), {}, {}, Who.OUTSIDER),
    ("outsider only users.info knows", (), {"team_id": OTHER}, {}, Who.OUTSIDER),
    ("multi-channel guest", (HOME,), {"is_restricted": True}, {}, Who.GUEST),
    ("single-channel guest", (HOME,), {"is_ultra_restricted": True}, {}, Who.GUEST),
    ("guest, guests answered", (HOME,), {"is_restricted": True}, {"guests": "answer"}, Who.MEMBER),
    ("app user", (HOME,), {"is_bot": True}, {}, Who.APP),
    (
        "allow-listed other team",
        (OTHER,),
        {"team_id": OTHER},
        {"allowed_teams": {OTHER}},
        Who.MEMBER,
    ),
    ("home not on the allow list", (HOME,), {}, {"allowed_teams": {OTHER}}, Who.OUTSIDER),
    # Enterprise Grid: the org is ORG; TEMEA is another workspace of it.
    ("Grid colleague", ("TEMEA",), {"team_id": "TEMEA", "enterprise_id": ORG}, {}, Who.MEMBER),
    ("another org", ("TEMEA",), {"team_id": "TEMEA", "enterprise_id": "EOTHER"}, {}, Who.OUTSIDER),
    (
        "Grid colleague, workspace not allowed",
        ("TEMEA",),
        {"team_id": "TEMEA", "enterprise_id": ORG},
        {"allowed_teams": {HOME}},
        Who.NOT_ALLOWED,
    ),
    ("Grid guest", (HOME,), {"is_restricted": True, "enterprise_id": ORG}, {}, Who.GUEST),
]


@pytest.mark.parametrize("row", WHO, ids=[w[0] for w in WHO])
def test_who_asks(fake: FakeSlack, row: tuple[Any, ...]) -> None:
    case, teams, info, policy, expected = row
    fake.add_user("U1", **info)
    if "allowed_teams" in policy:
        policy = {**policy, "allowed_teams": frozenset(policy["allowed_teams"])}
    assert access(fake, **policy).who("U1", teams, home=frozenset({HOME, ORG})) is expected, case


def test_who_is_unknown_when_slack_fails_and_is_not_cached(fake: FakeSlack) -> None:
    gate = access(fake)
    fake.fail_next("users.info", error="internal_error")
    assert gate.who("U1", (HOME,), home=frozenset({HOME})) is Who.UNKNOWN
    assert gate.who("U1", (HOME,), home=frozenset({HOME})) is Who.MEMBER
    assert gate.who("U1", (HOME,), home=frozenset({HOME})) is Who.MEMBER
    assert len(fake.calls("users.info")) == 2


def incoming(channel: str, *, shared: bool | None, kind: str = "mention") -> Incoming:
    return Incoming.model_validate(
        {"kind": kind, "team": HOME, "channel": channel, "user": "U1", "ts": "1.1",
         "text": "ARR?", "teams": (HOME,), "shared": shared}
    )  # fmt: skip


WHERE = [
    # (case, channel, envelope says, conversations.info shares, policy, expected)
    ("internal channel", "C1", False, False, "dm", Decision.ANSWER),
    ("shared, by the envelope", "C1", True, False, "dm", Decision.ASK_IN_DM),
    ("shared, by conversations.info", "C1", None, True, "dm", Decision.ASK_IN_DM),
    ("internal, by conversations.info", "C1", None, False, "dm", Decision.ANSWER),
    ("shared, ephemeral answers", "C1", True, False, "ephemeral", Decision.ANSWER_PRIVATELY),
    ("shared private channel", "G1", None, True, "ephemeral", Decision.ANSWER_PRIVATELY),
]


@pytest.mark.parametrize("row", WHERE, ids=[w[0] for w in WHERE])
def test_where_answers_may_appear(fake: FakeSlack, row: tuple[Any, ...]) -> None:
    case, channel, envelope, shares, mode, expected = row
    if shares:
        fake.share_channel(channel)
    ruling = access(fake, shared_channels=mode).decide(
        incoming(channel, shared=envelope), home=frozenset({HOME})
    )
    assert ruling.decision is expected, case
    assert len(fake.calls("conversations.info")) == (1 if envelope is None else 0)


def test_a_channel_slack_cannot_describe_counts_as_shared(fake: FakeSlack) -> None:
    fake.fail_next("conversations.info", error="missing_scope")
    gate = access(fake)
    assert gate.is_shared("C1", None) is True
    assert gate.is_shared("C1", None) is False  # not cached: asked again, and it is internal
    assert gate.is_shared("D1", None) is False and len(fake.calls("conversations.info")) == 2


def test_dms_are_never_treated_as_shared(fake: FakeSlack) -> None:
    ruling = access(fake).decide(incoming("D1", shared=None, kind="dm"), home=frozenset({HOME}))
    assert ruling.decision is Decision.ANSWER and fake.calls("conversations.info") == []


def test_the_cache_forgets_after_its_ttl() -> None:
    now = [100.0]
    cache: TTLCache[str, int] = TTLCache(5.0, clock=lambda: now[0])
    cache.put("a", 1)
    assert cache.get("a") == 1
    now[0] += 4.9
    assert cache.get("a") == 1
    now[0] += 0.2
    assert cache.get("a") is None and cache.get("b") is None
