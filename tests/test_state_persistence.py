"""check_persistence against real redis-servers started with and without persistence."""

from __future__ import annotations

from collections.abc import Callable

import redis

from prism_slack.state.persistence import Persistence, PersistenceReport, check_persistence
from prism_slack.testing.redis_server import RedisServer


def test_a_redis_without_aof_or_snapshots_is_off(redis_client: redis.Redis) -> None:
    report = check_persistence(redis_client)
    assert report == PersistenceReport(Persistence.OFF, report.detail)
    assert "OFF" in report.detail
    assert "appendonly yes" in report.detail
    assert "\n" not in report.detail


def test_appendonly_is_on(make_redis_server: Callable[..., RedisServer]) -> None:
    server = make_redis_server(appendonly=True)
    with server.client() as client:
        report = check_persistence(client)
    assert report.status is Persistence.ON
    assert "AOF" in report.detail
    assert "appendfsync everysec" in report.detail


def test_rdb_snapshots_alone_are_on_but_say_what_a_crash_loses(
    make_redis_server: Callable[..., RedisServer],
) -> None:
    server = make_redis_server()
    with server.client() as client:
        assert check_persistence(client).status is Persistence.OFF
        client.config_set("save", "60 1")
        report = check_persistence(client)
    assert report.status is Persistence.ON
    assert "RDB snapshots only" in report.detail
    assert "60 1" in report.detail


def test_a_refused_config_is_unknown(make_redis_server: Callable[..., RedisServer]) -> None:
    """A managed Redis that forbids CONFIG (here: an ACL user without +config)."""
    server = make_redis_server(appendonly=True)
    with server.client() as admin:
        admin.acl_setuser(
            "app", enabled=True, nopass=True, keys=["*"], commands=["+@all", "-config"]
        )
    with redis.Redis(host="127.0.0.1", port=server.port, username="app") as client:
        client.ping()
        report = check_persistence(client)
    assert report.status is Persistence.UNKNOWN
    assert "refused" in report.detail
    assert "NoPermissionError" in report.detail


def test_an_unreachable_redis_is_unknown(make_redis_server: Callable[..., RedisServer]) -> None:
    server = make_redis_server()
    client = server.client()
    server.stop()
    report = check_persistence(client)
    client.close()
    assert report.status is Persistence.UNKNOWN
