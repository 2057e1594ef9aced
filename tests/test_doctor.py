"""`prism doctor` against the fakes: FakeSlack, FakeGemini, a real redis-server, the sample
reports. All green first; then each dependency broken in turn names its fix."""

from __future__ import annotations

import json
import shutil
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from prism_slack.cli import main
from prism_slack.doctor import MANIFEST, manifest_scopes, run_checks
from prism_slack.settings import Settings
from prism_slack.testing.fake_gemini import FakeGemini, FakeResponse
from prism_slack.testing.fake_slack import FakeSlack
from prism_slack.testing.redis_server import RedisServer

ROOT = Path(__file__).resolve().parent.parent
BOT, KEY, MODEL = "xoxb-doctor-token", "AIzaFAKE-doctor-key", "gemini-3.8-flash"
SCOPES = sorted(manifest_scopes(MANIFEST))


@pytest.fixture(scope="module")
def persistent_redis() -> Iterator[RedisServer]:
    with RedisServer(appendonly=True) as server:
        yield server


@pytest.fixture
def slack() -> Iterator[FakeSlack]:
    with FakeSlack(bot_token=BOT, scopes=SCOPES) as fake:
        yield fake


@pytest.fixture
def gemini() -> Iterator[FakeGemini]:
    with FakeGemini(api_key=KEY, models={MODEL}, default=FakeResponse.answer({"ok": True})) as f:
        yield f


@pytest.fixture
def env(slack: FakeSlack, gemini: FakeGemini, persistent_redis: RedisServer) -> dict[str, Any]:
    """Settings values of a deployment where everything works."""
    return {
        "slack_bot_token": SecretStr(BOT),
        "slack_signing_secret": SecretStr("signing-secret"),
        "slack_api_url": slack.api_url,
        "redis_url": SecretStr(persistent_redis.url),
        "gemini_api_key": SecretStr(KEY),
        "gemini_model": MODEL,
        "gemini_base_url": gemini.base_url,
        "prism_reports_dir": ROOT / "reports",
    }


def lines(**values: Any) -> dict[str, str]:
    """Each finding's line, by the finding's name."""
    return {f.name: f.line() for f in run_checks(Settings(**values))}


def test_everything_green_is_one_check_mark_a_line_and_exit_0(
    env: dict[str, Any], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, value in env.items():
        text = value.get_secret_value() if isinstance(value, SecretStr) else str(value)
        monkeypatch.setenv(name.upper(), text)
    code = main(["doctor"])
    out = capsys.readouterr().out.splitlines()
    assert code == 0, out
    names = ["Slack bot token", "Slack signing secret", "Redis", "Redis persistence"]
    names += ["Reports", "Gemini", "Judge"]
    assert [line.split(":")[0] for line in out] == [f"✓ {n}" for n in names]
    text = "\n".join(out)
    assert "every scope manifest.yml asks for" in text and "AOF" in text
    assert f"models/{MODEL} found" in text and "thinking tokens" in text
    for secret in (BOT, KEY, "signing-secret"):
        assert secret not in text


def test_gemini_gets_a_lookup_and_one_tiny_structured_call(
    env: dict[str, Any], gemini: FakeGemini
) -> None:
    lines(**env)
    get, post = gemini.requests
    assert (get.method, get.path) == ("GET", f"/v1beta/models/{MODEL}")
    config = post.body["generationConfig"]
    assert config["responseMimeType"] == "application/json"
    assert config["responseJsonSchema"]["required"] == ["ok"]


def unused_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def bad_report_dir(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "reports", tmp_path / "reports")
    (tmp_path / "reports" / "broken-co").mkdir()
    (tmp_path / "reports" / "broken-co" / "audit-data.json").write_text("{")
    return tmp_path / "reports"


BREAKAGES: list[tuple[str, Callable[[dict[str, Any], Path], dict[str, Any]], str, str]] = [
    (
        "no bot token",
        lambda e, _: {**e, "slack_bot_token": None},
        "Slack bot token",
        "fix: set SLACK_BOT_TOKEN",
    ),
    (
        "wrong bot token",
        lambda e, _: {**e, "slack_bot_token": SecretStr("xoxb-wrong")},
        "Slack bot token",
        "auth.test answered invalid_auth — fix: set SLACK_BOT_TOKEN",
    ),
    (
        "no signing secret",
        lambda e, _: {**e, "slack_signing_secret": None},
        "Slack signing secret",
        "fix: set SLACK_SIGNING_SECRET",
    ),
    (
        "not a bot token",
        lambda e, _: {**e, "slack_bot_token": SecretStr("hello")},
        "Slack bot token",
        "SLACK_BOT_TOKEN is not a bot token (those start with xoxb-) — fix: set SLACK_BOT_TOKEN",
    ),
    (
        "a user token",
        lambda e, _: {**e, "slack_bot_token": SecretStr("xoxp-1-2-3")},
        "Slack bot token",
        "this one starts with xoxp-",
    ),
    (
        "Redis down",
        lambda e, _: {**e, "redis_url": SecretStr(f"redis://127.0.0.1:{unused_port()}/0")},
        "Redis",
        "round trip failed (ConnectionError",
    ),
    (
        "a bad report",
        lambda e, tmp: {**e, "prism_reports_dir": bad_report_dir(tmp)},
        "Reports",
        "1 invalid file(s)",
    ),
    (
        "no reports dir",
        lambda e, tmp: {**e, "prism_reports_dir": tmp / "nowhere"},
        "Reports",
        "fix: set PRISM_REPORTS_DIR",
    ),
    (
        "wrong Gemini key",
        lambda e, _: {**e, "gemini_api_key": SecretStr("AIzaWRONG")},
        "Gemini",
        "API key was refused — check GEMINI_API_KEY",
    ),
    (
        "a key with a space",
        lambda e, _: {**e, "gemini_api_key": SecretStr("my key")},
        "Gemini",
        "(not sent) — fix: set GEMINI_API_KEY",
    ),
    (
        "unknown model",
        lambda e, _: {**e, "gemini_model": "gemini-0.1-nope"},
        "Gemini",
        "fix: set GEMINI_MODEL",
    ),
    (
        "judge always without a key",
        lambda e, _: {**e, "gemini_api_key": None, "prism_judge": "always"},
        "Judge",
        "fix: set GEMINI_API_KEY, or PRISM_JUDGE=auto",
    ),
]


Breakage = tuple[str, Callable[[dict[str, Any], Path], dict[str, Any]], str, str]


@pytest.mark.parametrize("breakage", BREAKAGES, ids=[b[0] for b in BREAKAGES])
def test_each_broken_dependency_is_a_cross_with_its_fix(
    env: dict[str, Any], tmp_path: Path, breakage: Breakage
) -> None:
    _, breaks, name, says = breakage
    found = lines(**breaks(env, tmp_path))
    assert found[name].startswith(f"✗ {name}: "), found[name]
    assert says in found[name]
    assert "fix:" in found[name]
    # Only that line: the rest of the deployment still checks out.
    # Only that line: the rest of the deployment still checks out, and the judge line
    # agrees with the Gemini line.
    crossed = [n for n, line in found.items() if line.startswith("✗")]
    assert crossed == (["Gemini", "Judge"] if name == "Gemini" else [name])


def test_a_token_without_a_scope_of_the_manifest_says_which(env: dict[str, Any]) -> None:
    with FakeSlack(bot_token=BOT, scopes=[s for s in SCOPES if s != "commands"]) as fake:
        found = lines(**{**env, "slack_api_url": fake.api_url})
    assert "missing scopes commands" in found["Slack bot token"]
    assert (
        found["Slack bot token"].startswith("✗") and "reinstall the app" in found["Slack bot token"]
    )


def test_redis_without_persistence_is_a_cross(
    env: dict[str, Any], make_redis_server: Callable[..., RedisServer]
) -> None:
    volatile = make_redis_server(appendonly=False)
    found = lines(**{**env, "redis_url": SecretStr(volatile.url)})
    assert found["Redis"].startswith("✓")
    assert found["Redis persistence"].startswith("✗ Redis persistence: Redis persistence OFF")


def test_a_model_that_ignores_the_schema_is_a_cross(
    env: dict[str, Any], gemini: FakeGemini
) -> None:
    gemini.default = lambda _request: FakeResponse.answer(json.dumps({"fine": "thanks"}))
    found = lines(**env)
    assert found["Gemini"].startswith("✗") and "did not follow its schema" in found["Gemini"]


def test_socket_mode_needs_no_signing_secret(env: dict[str, Any]) -> None:
    found = lines(**{**env, "slack_signing_secret": None, "slack_app_token": SecretStr("xapp-1")})
    assert (
        found["Slack signing secret"].startswith("✓")
        and "Socket Mode" in found["Slack signing secret"]
    )


def test_any_cross_makes_the_exit_status_1(
    env: dict[str, Any], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A half-configured Slack (a signing secret, no bot token) is broken."""
    for name in ("SLACK_BOT_TOKEN", "GEMINI_API_KEY", "REDIS_URL", "SLACK_APP_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SLACK_SIGNING_SECRET", "signing-secret")
    monkeypatch.setenv("PRISM_REPORTS_DIR", str(ROOT / "reports"))
    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert "✗ Slack bot token" in out and "✓ Reports" in out


def test_nothing_configured_is_a_valid_offline_install_and_exits_0(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A fresh clone: no Slack, no Redis, no Gemini. Each ✓ says what PRISM runs on."""
    for name in (
        "SLACK_BOT_TOKEN",
        "SLACK_SIGNING_SECRET",
        "SLACK_APP_TOKEN",
        "GEMINI_API_KEY",
        "REDIS_URL",
        "PRISM_JUDGE",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PRISM_REPORTS_DIR", str(ROOT / "reports"))
    assert main(["doctor"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    found = {line.split(":")[0]: line for line in out.splitlines()}
    assert list(found) == ["✓ Slack", "✓ Store", "✓ Reports", "✓ Answerer", "✓ Judge"]
    assert "terminal" in found["✓ Slack"]
    assert "in memory" in found["✓ Store"] and "one process" in found["✓ Store"]
    assert "offline facts-only answerer" in found["✓ Answerer"]
    assert "no GEMINI_API_KEY" in found["✓ Judge"]


def test_a_malformed_token_is_never_sent_and_no_library_line_is_logged(
    env: dict[str, Any], slack: FakeSlack, capsys: pytest.CaptureFixture[str]
) -> None:
    found = lines(**{**env, "slack_bot_token": SecretStr("hello")})
    assert found["Slack bot token"].startswith("✗")
    assert [c for c in slack.calls() if c.method == "auth.test"] == []
    found = lines(**{**env, "slack_api_url": f"http://127.0.0.1:{unused_port()}/api/"})
    assert "could not reach the Slack Web API at http://127.0.0.1:" in found["Slack bot token"]
    assert capsys.readouterr().err == ""


def test_the_judge_line_agrees_with_a_broken_gemini(env: dict[str, Any]) -> None:
    found = lines(**{**env, "gemini_api_key": SecretStr("AIzaWRONG")})
    assert found["Gemini"].startswith("✗")
    assert found["Judge"].startswith("✗ Judge: auto: Gemini would judge")
    assert "fix: fix Gemini, or set PRISM_JUDGE=never" in found["Judge"]
