"""Configuration, read once from the environment at the entry point and passed down."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from prism_slack.verdict import JudgeMode

SharedChannelMode = Literal["dm", "ephemeral"]
"""In a channel shared with another organisation: tell the rep to ask in a DM (``dm``), or
answer only them (``ephemeral``). Report content is never posted there for all to see."""
GuestMode = Literal["none", "answer"]
"""Guests (multi- and single-channel guests of the workspace): nothing, or answers."""

__all__ = ["DEFAULT_GEMINI_MODEL", "JudgeMode", "Settings", "ThinkingLevel"]

DEFAULT_GEMINI_MODEL = "gemini-3.8-flash"
"""The current GA Flash model (Google's "Developer's guide to Gemini 3.8 Flash": model id
``gemini-3.8-flash``, GA, thinking levels LOW/MEDIUM/HIGH, default MEDIUM; the Gemini
Developer API model lists call older 3.x Flash models "no longer recommended").
Override with GEMINI_MODEL."""

ThinkingLevel = Literal["minimal", "low", "medium", "high"]


class Settings(BaseSettings):
    """Environment variables (DESIGN §10). Library code receives this, never ``os.environ``."""

    model_config = SettingsConfigDict(env_file=None, extra="ignore", case_sensitive=False)

    slack_bot_token: SecretStr | None = None
    slack_signing_secret: SecretStr | None = None
    slack_app_token: SecretStr | None = None
    slack_api_url: str | None = None
    redis_url: SecretStr | None = None
    gemini_api_key: SecretStr | None = None
    gemini_model: str = DEFAULT_GEMINI_MODEL
    gemini_base_url: str | None = None
    gemini_timeout_s: float = Field(default=30.0, gt=0)
    gemini_temperature: float | None = Field(default=None, ge=0, le=2)
    """GEMINI_TEMPERATURE; unset sends none, so the model's default applies. Google's
    Gemini 3 guide asks to keep Gemini 3 models at their default temperature of 1.0
    (lower values can cause looping or degraded reasoning)."""
    gemini_thinking_level: ThinkingLevel | None = None
    """GEMINI_THINKING_LEVEL; unset sends none, so the model's default applies (MEDIUM
    for gemini-3.8-flash). ``low`` trades some accuracy for latency; Gemini 3 models
    take a level, not a token budget."""
    prism_reports_dir: Path = Path("reports")
    prism_report_max_mb: float = Field(default=5.0, gt=0)
    """PRISM_REPORT_MAX_MB: a report file larger than this is refused with a clear error."""
    prism_judge: JudgeMode = "auto"
    prism_allowed_teams: Annotated[list[str], NoDecode] = []
    prism_shared_channels: SharedChannelMode = "dm"
    prism_guests: GuestMode = "none"
    prism_turn_budget_s: float = Field(default=90.0, gt=0)
    """PRISM_TURN_BUDGET_S: how long one turn may take (model calls, judge, Slack delivery);
    a deploy waits this long for the turns under way (gunicorn's graceful_timeout)."""
    prism_reclaim_after_s: float = Field(default=15.0, gt=0, le=30)
    """PRISM_RECLAIM_AFTER_S: a turn idle this long belongs to a dead worker and is taken
    over by a live one."""
    port: int = 3000
    log_level: str | None = None
    """LOG_LEVEL; by default INFO for the servers and WARNING for terminal commands."""

    @property
    def report_max_bytes(self) -> int:
        return int(self.prism_report_max_mb * 1_000_000)

    @field_validator("prism_allowed_teams", mode="before")
    @classmethod
    def _split(cls, value: object) -> object:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value
