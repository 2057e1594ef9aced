"""Security: request signatures always verified, no secret in any log line, other
workspaces refused, reports kept to their channels, and a per-user rate limit."""

from __future__ import annotations

import ast
import json
import logging
import time
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from pydantic import SecretStr
from slack_support import (
    REPORTS_DIR,
    SIGNING_SECRET,
    SlackHarness,
    all_text,
    turn_id_of,
    unique,
)

import prism_slack
from prism_slack.errors import ConfigError
from prism_slack.llm.gemini import GeminiAnswerModel, GeminiClient, GeminiJudge
from prism_slack.pipeline.turn import TurnDeps
from prism_slack.ports import Conversation
from prism_slack.render.blocks import FEEDBACK_ACTION
from prism_slack.reports.store import REPORT_FILE, FileReportStore
from prism_slack.settings import Settings
from prism_slack.slack import texts
from prism_slack.slack.app import SlackOptions, build_app, turn_worker
from prism_slack.slack.server import build_wsgi_app
from prism_slack.state import keys
from prism_slack.state.redis_store import memory_store, open_state_store
from prism_slack.testing.fake_gemini import FakeGemini, FakeResponse
from prism_slack.testing.fake_slack import FakeSlack
from prism_slack.testing.redis_server import RedisServer
from prism_slack.testing.slack_delivery import (
    Delivered,
    SlackDelivery,
    app_mention,
    dm,
    new_ts,
)
from prism_slack.testing.wsgi_server import LoopbackServer

QUESTION = "What is Northwind Outfitters' membership ARR?"
NW = "northwind-outfitters"
KP = "kestrelpoint-software"
PACKAGE = Path(prism_slack.__file__).resolve().parent


# -- request signatures ------------------------------------------------------------------


class _NeverCalled:
    name = "never-called"

    def answer(self, request: object) -> Any:
        raise AssertionError("no request may reach the model")


ODD_ENVIRONMENT = {
    # Names an operator (or an attacker with a foothold in the config) might try.
    "SLACK_REQUEST_VERIFICATION_ENABLED": "false",
    "REQUEST_VERIFICATION_ENABLED": "0",
    "PRISM_REQUEST_VERIFICATION": "off",
    "PRISM_VERIFY_SIGNATURES": "false",
    "SLACK_SKIP_SIGNATURE_VERIFICATION": "1",
    "SLACK_SIGNATURE_VERIFICATION": "disabled",
    "PRISM_INSECURE": "1",
    "PRISM_DEBUG": "1",
    "PRISM_ENV": "development",
    "DEBUG": "true",
    "SLACK_VERIFICATION_TOKEN": "legacy-verification-token",  # what the bodies carry
    "PRISM_ALLOWED_TEAMS": " , ,",
    "PRISM_JUDGE": "never",
    "LOG_LEVEL": "debug",
    "PORT": "0",
    "SLACK_APP_TOKEN": "xapp-1-odd",
}


def test_no_setting_can_turn_signature_checks_off() -> None:
    suspicious = ("verif", "signature", "insecure", "skip", "unsafe", "debug", "disable")
    fields = [name for name in Settings.model_fields if any(w in name for w in suspicious)]
    assert fields == []


def test_signatures_are_verified_whatever_the_environment_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("REDIS_URL", "GEMINI_API_KEY", "SLACK_CLIENT_ID", "SLACK_CLIENT_SECRET"):
        monkeypatch.delenv(name, raising=False)
    with FakeSlack(team_id=unique("T")) as fake:
        monkeypatch.setenv("SLACK_BOT_TOKEN", fake.bot_token)
        monkeypatch.setenv("SLACK_SIGNING_SECRET", f"  {SIGNING_SECRET}\n")
        monkeypatch.setenv("SLACK_API_URL", fake.api_url)
        monkeypatch.setenv("PRISM_REPORTS_DIR", str(REPORTS_DIR))
        for name, value in ODD_ENVIRONMENT.items():
            monkeypatch.setenv(name, value)
        settings = Settings()
        deps = TurnDeps(
            reports=FileReportStore(REPORTS_DIR), state=memory_store(), model=_NeverCalled()
        )
        app = build_app(settings, deps, memory_store())
        with LoopbackServer(
            build_wsgi_app(app, deps.state, signing_secret=SIGNING_SECRET)
        ) as server:
            url = server.url + "/slack/events"
            good = SlackDelivery(url, SIGNING_SECRET, team_id=fake.team_id)
            forged = SlackDelivery(url, "not-the-signing-secret", team_id=fake.team_id)
            event = dm(QUESTION, user=unique("U"), channel=unique("D"))
            body = json.dumps(good.envelope(event))
            content = {"Content-Type": "application/json"}
            stale = good.signed_headers(body, timestamp=int(time.time()) - 6 * 60)
            future = good.signed_headers(body, timestamp=int(time.time()) + 6 * 60)
            rejected: dict[str, Delivered] = {
                "unsigned": good.raw(body, content),
                "stale": good.raw(body, {**content, **stale}),
                "from the future": good.raw(body, {**content, **future}),
                "wrong secret": forged.event(event),
                "empty signature": good.raw(
                    body, {**content, **good.signed_headers(body), "X-Slack-Signature": ""}
                ),
                "unsigned command": good.raw(
                    "command=%2Fprism&text=bind+Kestrelpoint&team_id=" + fake.team_id,
                    {"Content-Type": "application/x-www-form-urlencoded"},
                ),
            }
            assert {name: d.status for name, d in rejected.items()} == dict.fromkeys(rejected, 401)
            challenge = json.dumps({"type": "url_verification", "challenge": "c-1", "token": "t"})
            assert good.raw(challenge, content).status == 401
            assert good.raw(challenge, {**content, **good.signed_headers(challenge)}).json() == {
                "challenge": "c-1"
            }
        worker = turn_worker(app)
        assert worker is not None
        worker.stop()
    assert fake.calls("chat.postMessage") == []


@pytest.mark.parametrize("secret", ["", "   ", "\n"])
def test_the_app_does_not_start_without_a_signing_secret(
    secret: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SLACK_SIGNING_SECRET", secret)
    settings = Settings(slack_bot_token=SecretStr("xoxb-x"), slack_api_url="http://127.0.0.1:9/")
    deps = TurnDeps(
        reports=FileReportStore(REPORTS_DIR), state=memory_store(), model=_NeverCalled()
    )
    with pytest.raises(ConfigError, match="SLACK_SIGNING_SECRET"):
        build_app(settings, deps, memory_store(), options=SlackOptions(start_worker=False))


def test_bolts_own_oauth_variables_are_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Bolt reads these itself; with both set it would drop the bot token and answer nothing.
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("SLACK_CLIENT_ID", "111.222")
    monkeypatch.setenv("SLACK_CLIENT_SECRET", "client-secret")
    with FakeSlack() as fake:
        settings = Settings(
            slack_bot_token=SecretStr(fake.bot_token),
            slack_signing_secret=SecretStr(SIGNING_SECRET),
            slack_api_url=fake.api_url,
        )
        deps = TurnDeps(
            reports=FileReportStore(REPORTS_DIR), state=memory_store(), model=_NeverCalled()
        )
        with pytest.raises(ConfigError, match="SLACK_CLIENT_ID"):
            build_app(settings, deps, memory_store(), options=SlackOptions(start_worker=False))


def _app_calls(tree: ast.AST) -> Iterator[ast.Call]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name in ("App", "AsyncApp"):
                yield node


def test_no_code_passes_request_verification_enabled_false() -> None:
    calls: list[tuple[str, ast.Call]] = []
    for file in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(file.read_text(), filename=str(file))
        calls += [(str(file.relative_to(PACKAGE)), call) for call in _app_calls(tree)]
    assert calls, "no App(...) call found: the check would be vacuous"
    for where, call in calls:
        kwargs = {k.arg: k.value for k in call.keywords}
        assert None not in kwargs, f"{where}: **kwargs could carry the flag"
        flag = kwargs.get("request_verification_enabled")
        assert isinstance(flag, ast.Constant) and flag.value is True, where


# -- no secret in any log line ---------------------------------------------------------


def test_no_secret_reaches_any_log_line(
    make_redis_server: Callable[..., RedisServer], caplog: pytest.LogCaptureFixture
) -> None:
    secret = uuid.uuid4().hex
    bot_token = f"xoxb-{secret[:8]}-bot"
    app_token = f"xapp-{secret[8:16]}-app"
    gemini_key = f"AIza-{secret[16:24]}-key"
    redis_password = f"pw-{secret[24:]}"
    server = make_redis_server()
    with server.client() as admin:
        admin.config_set("requirepass", redis_password)
    redis_url = f"redis://:{redis_password}@127.0.0.1:{server.port}/0"
    caplog.set_level(logging.DEBUG)
    with (
        FakeGemini() as gemini,
        FakeSlack(team_id=unique("T"), bot_token=bot_token, app_token=app_token) as fake,
    ):
        settings = Settings(
            slack_bot_token=SecretStr(bot_token),
            slack_signing_secret=SecretStr(SIGNING_SECRET),
            slack_app_token=SecretStr(app_token),
            slack_api_url=fake.api_url,
            redis_url=SecretStr(redis_url),
            gemini_api_key=SecretStr(gemini_key),
            gemini_base_url=gemini.base_url,
            gemini_timeout_s=2.0,
        )
        assert all(s not in repr(settings) + str(settings) for s in (bot_token, gemini_key))
        gemini.answer(
            {
                "claims": [
                    {
                        "text": "Membership ARR is $4.1M.",
                        "kind": "fact",
                        "evidence": ["financials.membership_arr_usd"],
                    },
                    {
                        "text": "The returns page is stale.",  # undecided: judged
                        "kind": "fact",
                        "evidence": ["findings[5].title"],
                    },
                ]
            }
        ).enqueue(FakeResponse.verdicts({"c2": "unsupported"})).error(
            401, message="API key not valid."
        )
        with (
            GeminiClient.from_settings(settings, max_attempts=1) as client,
            SlackHarness(redis_url, fake=fake, model=GeminiAnswerModel(client)) as harness,
        ):
            harness.deps.judge, harness.deps.judge_mode = GeminiJudge(client), "auto"
            run_scenario(harness)
    assert len(gemini.requests) == 3 and all(r.api_key_sent for r in gemini.requests)
    records = caplog.records
    loggers = {r.name for r in records}
    # The scenario really ran through every component, at DEBUG.
    assert {"prism_slack.state.redis_store", "prism_slack.slack.web", "prism_slack.llm.gemini"} <= (
        loggers
    )
    assert any(r.levelno == logging.DEBUG for r in records)
    lines = [caplog.text] + [
        f"{r.getMessage()} {r.args!r} {r.exc_text or ''} {r.stack_info or ''}" for r in records
    ]
    everything = "\n".join(lines)
    for name, value in {
        "bot token": bot_token,
        "app token": app_token,
        "signing secret": SIGNING_SECRET,
        "Gemini API key": gemini_key,
        "Redis password": redis_password,
    }.items():
        assert value not in everything, f"the {name} was logged"


def run_scenario(harness: SlackHarness) -> None:
    """A DM, a mention, /prism bind, a feedback click, a Gemini failure, /healthz."""
    user, direct, channel = unique("U"), unique("D"), unique("C")
    harness.slack.event(dm(QUESTION, user=user, channel=direct))
    answer = harness.wait_for_answer(direct, None)
    assert "4.1M" in all_text(answer)
    assert "Kestrelpoint" in harness.command(
        "bind Kestrelpoint Software", channel=channel, user=user
    )
    turn_id = turn_id_of(answer)
    harness.slack.block_action(
        action_id=FEEDBACK_ACTION,
        action_type="feedback_buttons",
        value=f"up:{turn_id}",
        user=user,
        channel=direct,
        message_ts=answer.ts,
    )
    harness.fake.wait_for(lambda: harness.fake.calls("chat.postEphemeral"), what="thanks")
    root = new_ts()
    bot = harness.fake.bot_user_id
    harness.slack.event(app_mention(f"<@{bot}> {QUESTION}", user=user, channel=channel, ts=root))
    assert harness.wait_for_answer(channel, root)  # Gemini refused the key: offline or failed
    harness.drain()
    assert harness.state.get_feedback(turn_id) == {user: "up"}
    with urllib.request.urlopen(harness.server.url + "/healthz", timeout=5) as response:
        assert json.loads(response.read())["store"] == "ok"


# -- workspaces outside PRISM_ALLOWED_TEAMS ------------------------------------------------


def test_other_workspaces_are_refused(make_harness: Callable[..., SlackHarness]) -> None:
    team = unique("T")
    with FakeSlack(team_id=team) as fake:
        harness = make_harness(fake=fake, allowed_teams=[team, unique("T")])
        user, direct = unique("U"), unique("D")
        # A turn in the allowed workspace, to click on from outside.
        harness.slack.event(dm(QUESTION, user=user, channel=direct))
        answer = harness.wait_for_answer(direct, None)
        turn_id = turn_id_of(answer)
        posts_before = len(fake.calls("chat.postMessage"))

        intruder = SlackDelivery(harness.slack.url, SIGNING_SECRET, team_id=unique("T"))
        bot = fake.bot_user_id
        other_dm, other_channel, root = unique("D"), unique("C"), new_ts()
        url = fake.response_url()
        deliveries = {
            "DM": intruder.event(dm(QUESTION, user=user, channel=other_dm)),
            "mention": intruder.event(
                app_mention(f"<@{bot}> {QUESTION}", user=user, channel=other_channel, ts=root)
            ),
            "command": intruder.command(
                "bind Kestrelpoint Software", channel=other_channel, user=user, response_url=url
            ),
            "feedback click": intruder.block_action(
                action_id=FEEDBACK_ACTION,
                action_type="feedback_buttons",
                value=f"up:{turn_id}",
                user="UINTRUDER",
                channel=direct,
                message_ts=answer.ts,
                response_url=url,
            ),
        }
        no_team = intruder.envelope(dm(QUESTION, user=user, channel=other_dm))
        no_team.pop("team_id")
        no_team.pop("authorizations")
        body = json.dumps(no_team)
        deliveries["no workspace"] = intruder.raw(
            body, {"Content-Type": "application/json", **intruder.signed_headers(body)}
        )
        assert {k: d.status for k, d in deliveries.items()} == dict.fromkeys(deliveries, 200)
        assert deliveries["command"].json()["text"] == texts.NOT_ENABLED
        harness.drain()
    assert len(fake.calls("chat.postMessage")) == posts_before
    assert fake.calls("response_url") == [] and fake.calls("chat.postEphemeral") == []
    assert [r.question for r in harness.scripted.requests] == [QUESTION]  # only the allowed one
    assert harness.state.get_feedback(turn_id) == {}
    for where in (
        Conversation(team=intruder.team_id, channel=other_channel),
        Conversation(team=intruder.team_id, channel=other_channel, thread=root),
    ):
        assert harness.state.get_binding(where) is None


# -- access.channels -----------------------------------------------------------------------


def restricted_reports(tmp_path: Path, slug: str, channels: list[str]) -> Path:
    """The sample reports with ``slug`` limited to ``channels``."""
    directory = tmp_path / "reports"
    for source in REPORTS_DIR.iterdir():
        if source.is_dir():
            (directory / source.name).mkdir(parents=True)
            data = json.loads((source / REPORT_FILE).read_text())
            if source.name == slug:
                data["access"] = {"channels": channels}
            (directory / source.name / REPORT_FILE).write_text(json.dumps(data))
    return directory


def test_a_restricted_report_is_used_only_in_its_channels(
    make_harness: Callable[..., SlackHarness], tmp_path: Path
) -> None:
    allowed, other, stale, direct = unique("C"), unique("C"), unique("C"), unique("D")
    harness = make_harness(reports_dir=restricted_reports(tmp_path, KP, [allowed]))
    team, bot, user = harness.fake.team_id, harness.fake.bot_user_id, unique("U")
    refused = "can't be used in this channel"

    assert "Kestrelpoint" not in harness.command("reports", channel=other, user=user)
    assert "Kestrelpoint" in harness.command("reports", channel=allowed, user=user)
    assert refused in harness.command("bind Kestrelpoint Software", channel=other, user=user)
    assert harness.state.get_binding(Conversation(team=team, channel=other)) is None
    # A channel bound to another report keeps it when a question names the restricted one.
    assert "Northwind" in harness.command("bind Northwind Outfitters", channel=other, user=user)
    # A binding made before the report was restricted no longer answers.
    harness.state.set_binding(Conversation(team=team, channel=stale), slug=KP)

    asked = {
        other: f"<@{bot}> What is Kestrelpoint Software's churn?",
        stale: f"<@{bot}> What is their churn?",
    }
    roots = {channel: new_ts() for channel in asked}
    for channel, text in asked.items():
        harness.slack.event(app_mention(text, user=user, channel=channel, ts=roots[channel]))
    harness.slack.event(dm("What is Kestrelpoint Software's churn?", user=user, channel=direct))
    for channel in (*asked, direct):
        reply = harness.wait_for_answer(channel, roots.get(channel))
        assert refused in all_text(reply), channel
    assert harness.scripted.requests == []
    assert harness.state.get_binding(Conversation(team=team, channel=other)) == NW
    asked_thread = Conversation(team=team, channel=other, thread=roots[other])
    assert harness.state.get_binding(asked_thread) is None

    # In its own channel it binds and answers.
    assert "is now bound" in harness.command(
        "bind Kestrelpoint Software", channel=allowed, user=user
    )
    root = new_ts()
    harness.slack.event(
        app_mention(f"<@{bot}> What is their churn?", user=user, channel=allowed, ts=root)
    )
    harness.wait_for_answer(allowed, root)
    harness.drain()
    assert [r.report.slug for r in harness.scripted.requests] == [KP]


# -- per-user rate limit -------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def test_rate_limit_is_per_user_friendly_and_refills(
    make_harness: Callable[..., SlackHarness], redis_server: RedisServer, redis_client: redis.Redis
) -> None:
    harness = make_harness()
    clock = Clock()
    harness.worker.answerer.store = open_state_store(
        redis_server.url, rate_capacity=3, rate_refill_per_s=0.5, clock=clock
    )
    rep, other = unique("U"), unique("U")
    rep_dm, other_dm = unique("D"), unique("D")
    for _ in range(5):
        harness.slack.event(dm(QUESTION, user=rep, channel=rep_dm, ts=new_ts()))
    replies = harness.fake.wait_for(
        lambda: found if len(found := harness.bot_messages(rep_dm)) == 5 else None,
        what="five replies",
    )
    texts_seen = sorted(all_text(m) for m in replies)
    limited = [t for t in texts_seen if t.startswith(texts.RATE_LIMITED)]
    assert len(limited) == 2 and sum("Membership ARR" in t for t in texts_seen) == 3
    assert len(harness.scripted.requests) == 3
    # Another rep is not held up by this one.
    harness.slack.event(dm(QUESTION, user=other, channel=other_dm))
    assert "Membership ARR" in all_text(harness.wait_for_answer(other_dm, None))
    # The bucket lives in Redis (shared by every worker) and refills with time.
    bucket = redis_client.hgetall(keys.rate(rep))
    assert float(bucket[b"tokens"]) < 1.0
    clock.now += 2.0  # 0.5 token a second → one more question
    harness.slack.event(dm(QUESTION, user=rep, channel=rep_dm, ts=new_ts()))
    harness.fake.wait_for(lambda: len(harness.bot_messages(rep_dm)) == 6, what="a sixth reply")
    harness.drain()
    assert len(harness.scripted.requests) == 5
    assert harness.fake.calls("chat.postEphemeral") == []  # a DM note goes in the DM
