"""Slack credentials from ``Settings``, and the one ``WebClient`` the app posts with.

``slack_credentials`` fails fast with a one-line ``ConfigError`` naming the missing
variable. ``build_web_client`` honours ``SLACK_API_URL`` (``WebClient(base_url=...)``) and
retries what is worth retrying: HTTP 429 after the ``Retry-After`` Slack sends
(``RateLimitErrorRetryHandler``) and dropped connections (``ConnectionErrorRetryHandler``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Literal

from pydantic import SecretStr
from slack_sdk import WebClient
from slack_sdk.http_retry.builtin_handlers import (
    ConnectionErrorRetryHandler,
    RateLimitErrorRetryHandler,
)

from prism_slack.errors import ConfigError
from prism_slack.settings import Settings

logger = logging.getLogger(__name__)

DEFAULT_API_URL = WebClient.BASE_URL
RATE_LIMIT_RETRIES = 3
CONNECTION_RETRIES = 2
TIMEOUT_S = 15

Mode = Literal["http", "socket"]

_BOT_TOKEN_MISSING = (
    "SLACK_BOT_TOKEN is not set: give the app's bot token (xoxb-…, OAuth & Permissions page)"
)
_SIGNING_SECRET_MISSING = (
    "SLACK_SIGNING_SECRET is not set: give the app's signing secret (Basic Information page); "
    "every request is verified with it"
)
_APP_TOKEN_MISSING = (
    "SLACK_APP_TOKEN is not set: Socket Mode needs an app-level token (xapp-…) "
    "with the connections:write scope"
)


@dataclass(frozen=True)
class SlackCredentials:
    bot_token: str
    signing_secret: str
    """Empty in Socket Mode when not configured (Socket Mode requests are not signed)."""
    app_token: str | None = None

    def __repr__(self) -> str:
        return "SlackCredentials(***)"


def slack_credentials(settings: Settings, *, mode: Mode = "http") -> SlackCredentials:
    """The tokens ``mode`` needs; ``ConfigError`` (one line) for the first one missing."""
    bot = _secret(settings.slack_bot_token)
    if not bot:
        raise ConfigError(_BOT_TOKEN_MISSING)
    secret = _secret(settings.slack_signing_secret)
    if mode == "http" and not secret:
        raise ConfigError(_SIGNING_SECRET_MISSING)
    app_token = _secret(settings.slack_app_token)
    if mode == "socket" and not app_token:
        raise ConfigError(_APP_TOKEN_MISSING)
    return SlackCredentials(bot_token=bot, signing_secret=secret, app_token=app_token or None)


def api_url(settings: Settings) -> str:
    """The Web API base URL, with the trailing slash ``WebClient`` needs."""
    url = (settings.slack_api_url or DEFAULT_API_URL).strip()
    return url if url.endswith("/") else url + "/"


def build_web_client(settings: Settings, token: str) -> WebClient:
    """A ``WebClient`` on ``api_url(settings)`` that honours 429 ``Retry-After``."""
    return WebClient(
        token=token,
        base_url=api_url(settings),
        timeout=TIMEOUT_S,
        logger=logging.getLogger("prism_slack.slack.web"),
        retry_handlers=[
            ConnectionErrorRetryHandler(max_retry_count=CONNECTION_RETRIES),
            RateLimitErrorRetryHandler(max_retry_count=RATE_LIMIT_RETRIES),
        ],
    )


def _secret(value: SecretStr | None) -> str:
    return value.get_secret_value().strip() if value is not None else ""
