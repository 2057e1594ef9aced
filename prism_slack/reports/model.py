"""A prospect's audit report: the validated envelope plus the free nested JSON body."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator

from prism_slack.evidence import EvidenceMap, content_digest
from prism_slack.reports import numbers_style

if TYPE_CHECKING:
    from prism_slack.facts import ReportFacts

T = TypeVar("T")


class Company(BaseModel):
    model_config = ConfigDict(extra="allow")

    name: str = Field(min_length=1)
    aliases: list[str]
    domain: str | None = None

    @field_validator("name")
    @classmethod
    def _name_not_blank(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("must not be blank")
        return v


class ReportMeta(BaseModel):
    model_config = ConfigDict(extra="allow")

    id: str = Field(min_length=1)
    generated_at: dt.date

    @field_validator("generated_at", mode="before")
    @classmethod
    def _day_of_timestamp(cls, v: Any) -> Any:
        """An ISO timestamp (``2026-03-12T09:30:00Z``) is read as its day."""
        if isinstance(v, str) and "T" in v:
            try:
                return dt.datetime.fromisoformat(v.replace("Z", "+00:00")).date()
            except ValueError:
                return v  # pydantic says what is wrong with it
        return v


class Access(BaseModel):
    model_config = ConfigDict(extra="allow")

    channels: list[str] | None = None


class Envelope(BaseModel):
    """The required part of ``audit-data.json`` (DESIGN §3); everything else is free."""

    model_config = ConfigDict(extra="allow")

    company: Company
    report: ReportMeta
    access: Access | None = None


class Report:
    """One loaded report. Its evidence map and every index derived from it are built once,
    on first use, and kept with the report (``derived``)."""

    def __init__(self, slug: str, envelope: Envelope, data: dict[str, Any]) -> None:
        self.slug = slug
        self.envelope = envelope
        self.decimal_comma = numbers_style.decimal_comma(data)
        """Written ``248,3``/``14.820``: read (``data``) with its numbers the English way."""
        self.data: dict[str, Any] = numbers_style.english_data(data) if self.decimal_comma else data
        """What every reader reads: the report with its numbers written the English way."""
        self.digest = content_digest(data)
        self._derived: dict[Callable[[Report], Any], Any] = {}
        self._derived_lock = threading.Lock()

    def derived(self, build: Callable[[Report], T]) -> T:
        """``build(self)``, computed once per report even when many threads ask at once."""
        with self._derived_lock:
            if build not in self._derived:
                self._derived[build] = build(self)
            value: T = self._derived[build]
            return value

    @property
    def company(self) -> Company:
        return self.envelope.company

    @property
    def id(self) -> str:
        return self.envelope.report.id

    @property
    def generated_at(self) -> dt.date:
        return self.envelope.report.generated_at

    @property
    def allowed_channels(self) -> list[str] | None:
        return self.envelope.access.channels if self.envelope.access else None

    def usable_in(self, channel: str) -> bool:
        """Whether ``channel`` may bind and answer from this report (``access.channels``)."""
        allowed = self.allowed_channels
        return allowed is None or channel in allowed

    @cached_property
    def evidence(self) -> EvidenceMap:
        return EvidenceMap(self.data)

    @cached_property
    def facts(self) -> ReportFacts:
        """Every leaf's typed fact (DESIGN §3), compiled once per report."""
        from prism_slack.facts import compile_facts  # the number grammar imports reports

        return compile_facts(self.data)

    def __repr__(self) -> str:
        return f"Report({self.slug!r}, id={self.id!r})"


def build_report(slug: str, data: dict[str, Any]) -> Report:
    """Validate the envelope (raises pydantic ``ValidationError``) and wrap the data."""
    return Report(slug, Envelope.model_validate(data), data)
