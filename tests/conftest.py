"""Shared fixtures.

- ``redis_server`` (session): a real ``redis-server`` on 127.0.0.1, on a free port, in a
  temp dir. Never skipped: when the binary is missing the tests that need it FAIL and say
  to install it. ``PRISM_REDIS_SERVER`` may name the binary (default: ``PATH``).
- ``redis_client`` (function): a client on that server; the database is flushed first.
- ``fake_redis`` (function): a ``fakeredis`` client on its own private server.
- ``make_redis_server`` (function): ``make_redis_server(appendonly=False)`` starts a
  ``RedisServer`` of the test's own, for tests that stop or restart it; all are closed after.
- ``harness`` (function): a ``SlackHarness`` (``slack_support``) on the session's Redis,
  with a FakeSlack of its own; the database is flushed first.
- ``make_harness`` (function): ``make_harness(**options)`` builds a ``SlackHarness`` with
  ``SlackHarness``'s options; all are closed after.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import fakeredis
import pytest
import redis
from slack_support import SlackHarness

from prism_slack.testing.redis_server import RedisServer, RedisServerError


def redis_server_binary() -> str | None:
    """The ``redis-server`` to run for tests, if the environment names one."""
    return os.environ.get("PRISM_REDIS_SERVER") or None


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    try:
        server = RedisServer(binary=redis_server_binary())
    except RedisServerError as e:
        pytest.fail(f"{e}. These tests need a real Redis: install redis-server.", pytrace=False)
    with server:
        yield server


@pytest.fixture
def redis_client(redis_server: RedisServer) -> Iterator[redis.Redis]:
    client = redis_server.client()
    client.flushdb()
    yield client
    client.close()


@pytest.fixture
def fake_redis() -> fakeredis.FakeRedis:
    return fakeredis.FakeRedis(server=fakeredis.FakeServer())


@pytest.fixture
def make_redis_server() -> Iterator[Callable[..., RedisServer]]:
    servers: list[RedisServer] = []

    def make(*, appendonly: bool = False) -> RedisServer:
        try:
            server = RedisServer(binary=redis_server_binary(), appendonly=appendonly)
        except RedisServerError as e:
            pytest.fail(f"{e}. These tests need a real Redis: install redis-server.", pytrace=False)
        servers.append(server)
        return server.start()

    yield make
    for server in servers:
        server.close()


@pytest.fixture
def harness(redis_server: RedisServer, redis_client: redis.Redis) -> Iterator[SlackHarness]:
    with SlackHarness(redis_server.url) as made:
        yield made


@pytest.fixture
def make_harness(
    redis_server: RedisServer, redis_client: redis.Redis
) -> Iterator[Callable[..., SlackHarness]]:
    made: list[SlackHarness] = []

    def make(**kwargs: Any) -> SlackHarness:
        made.append(SlackHarness(redis_server.url, **kwargs))
        return made[-1]

    yield make
    for harness in made:
        harness.close()
