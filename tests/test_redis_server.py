"""RedisServer: a real redis-server for tests and benches, restartable on the same port."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import redis

from prism_slack.testing.redis_server import RedisServer, RedisServerError, find_redis_server


@pytest.mark.parametrize(("appendonly", "survives"), [(True, True), (False, False)])
def test_restart_keeps_port_and_dir_and_data_only_with_appendonly(
    make_redis_server: Callable[..., RedisServer], appendonly: bool, survives: bool
) -> None:
    server = make_redis_server(appendonly=appendonly)
    port, directory = server.port, server.directory
    with server.client() as client:
        client.set("k", "v")
    server.stop()
    assert not server.running
    with server.client() as client, pytest.raises(redis.ConnectionError):
        client.ping()
    server.start()
    assert (server.port, server.directory) == (port, directory)
    with server.client() as client:
        assert (client.get("k") == b"v") is survives


def test_a_killed_server_starts_again(make_redis_server: Callable[..., RedisServer]) -> None:
    server = make_redis_server()
    server.kill()
    assert not server.running
    server.start()
    with server.client() as client:
        assert client.ping()


def test_servers_get_their_own_ports_and_a_taken_port_is_reported(
    make_redis_server: Callable[..., RedisServer],
) -> None:
    first, second = make_redis_server(), make_redis_server()
    assert first.port != second.port
    squatter = RedisServer(binary=first.binary)
    squatter._port = first.port  # as if restarting onto a port someone else took meanwhile
    try:
        with pytest.raises(RedisServerError, match="Address already in use"):
            squatter.start()
        assert not squatter.running
    finally:
        squatter.close()
    with first.client() as client:
        assert client.ping()  # PING reached the real owner, not the squatter


def test_context_manager_stops_the_server_and_removes_its_dir() -> None:
    with RedisServer() as server:
        url, directory = server.url, server.directory
        assert url == f"redis://127.0.0.1:{server.port}/0"
        assert directory.is_dir()
    assert not server.running
    assert not directory.exists()
    with server.client() as client, pytest.raises(redis.ConnectionError):
        client.ping()


def test_missing_binary_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(RedisServerError, match="install it"):
        find_redis_server()
    with pytest.raises(RedisServerError, match="not found"):
        find_redis_server(tmp_path / "no-such-redis-server")
    with pytest.raises(RedisServerError, match="not found"):
        RedisServer(binary=tmp_path / "no-such-redis-server")


def test_port_before_start_is_an_error() -> None:
    server = RedisServer()
    try:
        with pytest.raises(RedisServerError, match="not been started"):
            _ = server.url
    finally:
        server.close()
