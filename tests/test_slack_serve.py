"""`prism serve` for real: gunicorn in a subprocess, /healthz, one signed DM answered through
FakeSlack by the offline answerer; and the one-line configuration errors."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from pydantic import SecretStr
from slack_support import (
    REPORTS_DIR,
    SIGNING_SECRET,
    answered,
    free_port,
    prism_command,
    serve_env,
    unique,
)

from prism_slack.cli import build_parser
from prism_slack.cli.serve_cmd import check_store, run, run_socket
from prism_slack.settings import Settings
from prism_slack.slack.server import PrismGunicorn, gunicorn_options
from prism_slack.state.redis_store import open_state_store
from prism_slack.testing.fake_slack import FakeSlack
from prism_slack.testing.redis_server import RedisServer
from prism_slack.testing.slack_delivery import SlackDelivery, dm

BOOT_S = 30.0


def wait_healthy(url: str, process: subprocess.Popen[bytes], log: Path) -> dict[str, object]:
    deadline = time.monotonic() + BOOT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"prism serve exited {process.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2) as response:
                doc = json.loads(response.read())
                assert response.status == 200
                return dict(doc)
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.1)
    pytest.fail(f"prism serve did not become healthy in {BOOT_S}s:\n{log.read_text()}")


@contextmanager
def served(
    redis_url: str, tmp_path: Path, *, enterprise_id: str | None = None
) -> Iterator[tuple[FakeSlack, SlackDelivery, Path]]:
    """`prism serve` (two gunicorn workers) on a new FakeSlack and ``redis_url``, healthy:
    the fake, a signed sender to its events URL, and its log. It must stop cleanly on
    SIGTERM afterwards. ``enterprise_id``: installed in that Enterprise Grid org.

    Give it a Redis of its own (``make_redis_server``): the turn log is one stream, and
    any other worker on that Redis could take its turns. A failure shows the log's tail,
    and a server that will not stop is killed, so it cannot outlive its test."""
    port = free_port()
    log = tmp_path / "serve.log"
    fake = FakeSlack(team_id=unique("T"), enterprise_id=enterprise_id)
    with fake, log.open("wb") as log_file:
        env = serve_env(fake, redis_url=redis_url, home=tmp_path, port=port)
        command = [*prism_command(), "serve", "--host", "127.0.0.1", "--workers", "2"]
        process = subprocess.Popen(
            command, env=env, stdout=log_file, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            url = f"http://127.0.0.1:{port}"
            health = wait_healthy(url, process, log)
            assert health["ok"] is True and health["store"] == "ok"
            slack = SlackDelivery(
                url + "/slack/events",
                SIGNING_SECRET,
                team_id=fake.team_id,
                enterprise_id=enterprise_id,
            )
            yield fake, slack, log
        except AssertionError as e:
            raise AssertionError(f"{e}\n{log_tail(log)}") from e
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                code = process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
                pytest.fail(f"prism serve did not stop in 30 s on SIGTERM\n{log_tail(log)}")
    assert code == 0, log.read_text()


def log_tail(log: Path, lines: int = 60) -> str:
    """The last ``lines`` lines of a serve log, headed."""
    tail = log.read_text(errors="replace").splitlines()[-lines:]
    return "--- prism serve log (tail) ---\n" + "\n".join(tail)


def test_prism_serve_under_gunicorn_answers_a_signed_dm(
    make_redis_server: Callable[..., RedisServer], tmp_path: Path
) -> None:
    with served(make_redis_server().url, tmp_path) as (fake, slack, log):
        user, channel = unique("U"), unique("D")
        question = "What is Northwind Outfitters' membership ARR?"
        delivered = slack.event(dm(question, user=user, channel=channel))
        assert delivered.status == 200
        [answer, *_] = fake.wait_for(
            lambda: answered(fake, channel), timeout=20, what="the offline answer"
        )
        assert "Northwind Outfitters" in answer.text
        assert any(b.get("block_id") == "prism_feedback" for b in answer.blocks)
        assert slack.raw("{}", {"Content-Type": "application/json"}).status == 401
    assert "Booting worker" in log.read_text()


CONFIG_ERRORS = [
    ("serve", {}, "SLACK_BOT_TOKEN"),
    ("serve", {"slack_bot_token": "xoxb-1"}, "SLACK_SIGNING_SECRET"),
    ("socket", {"slack_bot_token": "xoxb-1"}, "SLACK_APP_TOKEN"),
]


@pytest.mark.parametrize(("command", "given", "missing"), CONFIG_ERRORS)
def test_missing_tokens_fail_in_one_line(
    command: str, given: dict[str, str], missing: str, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = Settings(
        **{k: SecretStr(v) for k, v in given.items()}, prism_reports_dir=REPORTS_DIR
    )
    args = build_parser().parse_args([command])
    assert args.handler is (run if command == "serve" else run_socket)
    assert args.handler(args, settings) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"prism {command}: {missing} is not set") and "\n" not in err


def test_gunicorn_runs_gthread_workers_on_our_app() -> None:
    options = gunicorn_options(host="127.0.0.1", port=8123, workers=3, threads=6)
    built: list[str] = []

    def factory() -> object:
        built.append("app")
        return object()

    server = PrismGunicorn(factory, options)  # type: ignore[arg-type]
    assert server.cfg.worker_class_str == "gthread"
    assert server.cfg.threads == 6 and server.cfg.workers == 3
    assert server.cfg.bind == ["127.0.0.1:8123"]
    assert built == []  # built in each worker, after the fork
    server.load()
    assert built == ["app"]


def test_serve_parser_defaults() -> None:
    args = build_parser().parse_args(["serve"])
    assert isinstance(args, argparse.Namespace)
    assert args.port is None and args.workers >= 1 and args.threads >= 1


def test_a_token_slack_refuses_stops_serve_before_gunicorn(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with FakeSlack() as fake:
        settings = Settings(
            slack_bot_token=SecretStr("xoxb-revoked"),
            slack_signing_secret=SecretStr(SIGNING_SECRET),
            slack_api_url=fake.api_url,
            prism_reports_dir=REPORTS_DIR,
        )
        args = build_parser().parse_args(["serve", "--port", str(free_port())])
        assert run(args, settings) == 2
        [auth] = fake.calls("auth.test")
        assert auth.error == "invalid_auth"
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("prism serve: ") and "invalid_auth" in err[0]


def test_an_unusable_redis_database_stops_serve_in_one_line(
    redis_server: RedisServer, capsys: pytest.CaptureFixture[str]
) -> None:
    with FakeSlack() as fake:
        settings = Settings(
            slack_bot_token=SecretStr(fake.bot_token),
            slack_signing_secret=SecretStr(SIGNING_SECRET),
            slack_api_url=fake.api_url,
            redis_url=SecretStr(redis_server.url.rsplit("/", 1)[0] + "/99"),
            prism_reports_dir=REPORTS_DIR,
        )
        args = build_parser().parse_args(["serve", "--port", str(free_port())])
        assert run(args, settings) == 2
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("prism serve: ") and "DB index is out of range" in line


@pytest.mark.parametrize(("appendonly", "warned"), [(False, True), (True, False)])
def test_serve_warns_in_one_line_when_redis_would_lose_bindings(
    make_redis_server: Callable[..., RedisServer],
    capsys: pytest.CaptureFixture[str],
    appendonly: bool,
    warned: bool,
) -> None:
    server = make_redis_server(appendonly=appendonly)
    assert check_store(open_state_store(server.url), redis_url=True) is None
    err = capsys.readouterr().err.strip()
    if warned:
        assert err.startswith("prism serve: warning: Redis persistence OFF") and "\n" not in err
    else:
        assert err == ""


def test_a_redis_that_is_down_is_only_a_warning_at_start_up(
    make_redis_server: Callable[..., RedisServer], capsys: pytest.CaptureFixture[str]
) -> None:
    server = make_redis_server()
    store = open_state_store(server.url)
    server.stop()
    assert check_store(store, redis_url=True) is None
    assert capsys.readouterr().err.startswith("prism serve: warning: state store")


def test_graceful_timeout_covers_a_whole_turn() -> None:
    options = gunicorn_options(host="h", port=1, workers=2, threads=4, turn_budget_s=90)
    assert options["graceful_timeout"] == 93 and options["timeout"] >= 93
    server = PrismGunicorn(object, options)  # type: ignore[arg-type]
    assert server.cfg.graceful_timeout == 93
    assert server.cfg.post_worker_init is not None and server.cfg.worker_exit is not None
