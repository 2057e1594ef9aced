"""Our WebClient against FakeSlack: base URL override, 429 + Retry-After, Slack's limits;
and the one-line configuration errors."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator

import pytest
from pydantic import SecretStr
from slack_sdk.errors import SlackApiError

from prism_slack.errors import ConfigError
from prism_slack.settings import Settings
from prism_slack.slack.client import (
    RATE_LIMIT_RETRIES,
    Mode,
    api_url,
    build_web_client,
    slack_credentials,
)
from prism_slack.testing.fake_slack import FakeSlack


@pytest.fixture
def fake() -> Iterator[FakeSlack]:
    with FakeSlack() as fake:
        yield fake


def settings_for(fake: FakeSlack, **extra: object) -> Settings:
    return Settings(
        slack_bot_token=SecretStr(fake.bot_token),
        slack_signing_secret=SecretStr("secret"),
        slack_api_url=fake.api_url.rstrip("/"),
        **extra,  # type: ignore[arg-type]
    )


def test_client_uses_slack_api_url_and_the_bot_token(fake: FakeSlack) -> None:
    client = build_web_client(settings_for(fake), fake.bot_token)
    assert client.base_url == fake.api_url
    response = client.chat_postMessage(channel="C1", text="hello")
    assert response["ok"] and response["ts"]
    [call] = fake.calls("chat.postMessage")
    assert call.params["channel"] == "C1" and call.params["text"] == "hello"
    wrong = build_web_client(settings_for(fake), "xoxb-wrong")
    with pytest.raises(SlackApiError) as raised:
        wrong.chat_postMessage(channel="C1", text="hello")
    assert raised.value.response["error"] == "invalid_auth"


def test_client_waits_out_429_with_retry_after(fake: FakeSlack) -> None:
    client = build_web_client(settings_for(fake), fake.bot_token)
    fake.rate_limit_next("chat.postMessage", count=2, retry_after=0)
    response = client.chat_postMessage(channel="C1", text="after the rate limit")
    assert response["ok"]
    statuses = [c.status for c in fake.calls("chat.postMessage")]
    assert statuses == [429, 429, 200]
    assert [m.text for m in fake.messages("C1")] == ["after the rate limit"]


def test_client_gives_up_after_its_retries(fake: FakeSlack) -> None:
    client = build_web_client(settings_for(fake), fake.bot_token)
    fake.rate_limit_next("chat.update", count=10, retry_after=0)
    with pytest.raises(SlackApiError):
        client.chat_update(channel="C1", ts="1.1", text="x")
    assert len(fake.calls("chat.update")) == 1 + RATE_LIMIT_RETRIES


def test_fake_enforces_slack_limits_and_message_identity(fake: FakeSlack) -> None:
    client = build_web_client(settings_for(fake), fake.bot_token)
    section = {"type": "section", "text": {"type": "mrkdwn", "text": "x"}}
    big = {**section, "text": {"type": "mrkdwn", "text": "y" * 3001}}
    cases: list[tuple[dict[str, object], str]] = [
        ({"text": "t", "blocks": [section] * 51}, "invalid_blocks"),
        ({"text": "t", "blocks": [big]}, "invalid_blocks"),
        ({"text": "z" * 40_001}, "msg_too_long"),
        ({}, "no_text"),
    ]
    for body, error in cases:
        with pytest.raises(SlackApiError) as raised:
            client.api_call("chat.postMessage", json={"channel": "C1", **body})
        assert raised.value.response["error"] == error
    assert client.api_call(
        "chat.postMessage", json={"channel": "C1", "text": "t", "blocks": [section] * 50}
    )["ok"]
    with pytest.raises(SlackApiError) as raised:
        client.chat_update(channel="C1", ts="999.000001", text="never posted")
    assert raised.value.response["error"] == "message_not_found"
    assert len(fake.messages()) == 1


def test_fake_set_status_in_a_legacy_apps_dm_only_in_assistant_threads() -> None:
    with FakeSlack(agent_view=False) as legacy:
        client = build_web_client(settings_for(legacy), legacy.bot_token)
        with pytest.raises(SlackApiError):
            client.assistant_threads_setStatus(channel_id="D1", thread_ts="1.1", status="thinking")
        legacy.add_assistant_thread("D1", "1.1")
        status = client.assistant_threads_setStatus(
            channel_id="D1", thread_ts="1.1", status="thinking"
        )
        assert status["ok"]


def test_fake_agent_app_status_in_any_dm_thread_and_prompts_without_thread_ts(
    fake: FakeSlack,
) -> None:
    client = build_web_client(settings_for(fake), fake.bot_token)
    assert client.assistant_threads_setStatus(channel_id="D1", thread_ts="1.1", status="…")["ok"]
    prompts = [{"title": "Key facts", "message": "What are the key facts?"}]
    # With thread_ts an agent app's call "fails silently": ok, but nothing is shown.
    assert client.assistant_threads_setSuggestedPrompts(
        channel_id="D1", thread_ts="1.1", prompts=prompts
    )["ok"]
    assert fake.prompts_shown() == []
    client.assistant_threads_setSuggestedPrompts(channel_id="D1", prompts=prompts)
    [shown] = fake.prompts_shown()
    assert shown["channel_id"] == "D1" and "thread_ts" not in shown


def test_fake_records_response_url_posts(fake: FakeSlack) -> None:
    url = fake.response_url()
    body = json.dumps({"text": "hi", "response_type": "ephemeral"}).encode()
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as response:
        assert response.status == 200
    [call] = fake.calls("response_url")
    assert call.params == {"text": "hi", "response_type": "ephemeral"}
    assert call.path == url.removeprefix(fake.base_url)


def test_wait_for_times_out_with_what_it_saw(fake: FakeSlack) -> None:
    with pytest.raises(AssertionError, match="a reply"):
        fake.wait_for(lambda: fake.calls("chat.postMessage"), timeout=0.05, what="a reply")


CONFIG = [
    # (mode, bot token, signing secret, app token, error naming the variable or None)
    ("http", None, "s", None, "SLACK_BOT_TOKEN"),
    ("http", "xoxb-1", None, None, "SLACK_SIGNING_SECRET"),
    ("http", "xoxb-1", "  ", None, "SLACK_SIGNING_SECRET"),
    ("http", "xoxb-1", "s", None, None),
    ("socket", "xoxb-1", None, None, "SLACK_APP_TOKEN"),
    ("socket", None, None, "xapp-1", "SLACK_BOT_TOKEN"),
    ("socket", "xoxb-1", None, "xapp-1", None),
]


@pytest.mark.parametrize(("mode", "bot", "secret", "app", "missing"), CONFIG)
def test_credentials(
    mode: Mode, bot: str | None, secret: str | None, app: str | None, missing: str | None
) -> None:
    settings = Settings(
        slack_bot_token=SecretStr(bot) if bot else None,
        slack_signing_secret=SecretStr(secret) if secret else None,
        slack_app_token=SecretStr(app) if app else None,
    )
    if missing is None:
        credentials = slack_credentials(settings, mode=mode)
        assert credentials.bot_token == bot
        assert "xoxb" not in repr(credentials)
        return
    with pytest.raises(ConfigError) as raised:
        slack_credentials(settings, mode=mode)
    message = str(raised.value)
    assert message.startswith(missing) and "\n" not in message


def test_api_url_defaults_to_slack_and_gets_its_slash() -> None:
    assert api_url(Settings()) == "https://slack.com/api/"
    assert api_url(Settings(slack_api_url="http://127.0.0.1:9/api")) == "http://127.0.0.1:9/api/"
