"""Checks before any network call, and Slack start-up failures told as what failed and the fix.

Used by ``prism doctor`` and by ``prism serve``/``prism socket`` at start-up:

- ``token_problems``: a token of the wrong kind (``hello``, a user token ``xoxp-…`` for
  the bot token, a bot token for the app token) is named, with where to find the right
  one, before anything is sent to Slack;
- ``quiet``: libraries' own log lines (the Slack SDK's are one ERROR and two INFO lines
  per retry) are held back while a check runs; its outcome is told once instead;
- ``explain_slack_error``: an auth.test failure as one line with the fix.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NamedTuple

from slack_bolt.error import BoltError
from slack_sdk.errors import SlackApiError

from prism_slack.settings import Settings
from prism_slack.slack.client import api_url

BOT_TOKEN_FIX = (
    "set SLACK_BOT_TOKEN to the app's Bot User OAuth Token (xoxb-…, OAuth & Permissions)"
)
APP_TOKEN_FIX = (
    "set SLACK_APP_TOKEN to an app-level token with connections:write "
    "(xapp-…, Basic Information → App-Level Tokens)"
)
NETWORK_FIX = "check the network, and SLACK_API_URL if you set it"
SLACK_LOGGERS = ("slack_bolt", "slack_sdk", "prism_slack.slack.web")
"""Loggers of the Slack libraries and of our ``WebClient``."""

_KINDS = {
    "SLACK_BOT_TOKEN": ("xoxb-", "a bot token", BOT_TOKEN_FIX),
    "SLACK_APP_TOKEN": ("xapp-", "an app-level token", APP_TOKEN_FIX),
}


class TokenProblem(NamedTuple):
    """What is wrong with a token's form (never the token itself), and the fix."""

    what: str
    fix: str

    def __str__(self) -> str:
        return f"{self.what}: {self.fix}"


def token_format_problem(variable: str, token: str) -> TokenProblem | None:
    """What is wrong with the form of a Slack token, or ``None``."""
    prefix, what, fix = _KINDS[variable]
    token = token.strip()
    if token.startswith(prefix) and len(token) > len(prefix) and " " not in token:
        return None
    other = token[:5] if token[:4] in {"xoxb", "xoxp", "xapp", "xoxe", "xoxa"} else ""
    seen = f"; this one starts with {other}" if other else ""
    return TokenProblem(f"{variable} is not {what} (those start with {prefix}{seen})", fix)


def token_problems(settings: Settings) -> list[TokenProblem]:
    """Format problems of every Slack token that is set."""
    problems = []
    for variable, value in (
        ("SLACK_BOT_TOKEN", settings.slack_bot_token),
        ("SLACK_APP_TOKEN", settings.slack_app_token),
    ):
        text = value.get_secret_value().strip() if value is not None else ""
        problem = token_format_problem(variable, text) if text else None
        if problem:
            problems.append(problem)
    return problems


@contextmanager
def quiet(names: tuple[str, ...] = SLACK_LOGGERS) -> Iterator[None]:
    """Hold back these loggers' lines (and their children's) below CRITICAL in the block."""
    loggers = [logging.getLogger(name) for name in names]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels, strict=True):
            lg.setLevel(level)


def explain_slack_error(error: Exception, settings: Settings) -> str:
    """An auth.test failure at start-up: what failed, and what to do."""
    if isinstance(error, SlackApiError):
        code = error.response.get("error", "an error") if error.response is not None else "?"
        return f"Slack refused SLACK_BOT_TOKEN (auth.test answered {code}): {BOT_TOKEN_FIX}"
    if isinstance(error, BoltError):
        return f"Slack refused SLACK_BOT_TOKEN ({error}): {BOT_TOKEN_FIX}"
    reason = getattr(error, "reason", None) or error
    return f"could not reach the Slack Web API at {api_url(settings)} ({reason}): {NETWORK_FIX}"
