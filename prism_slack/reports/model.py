"""A prospect's audit report: the validated envelope plus the free nested JSON body."""

from __future__ import annotations

import datetime as dt
from functools import cached_property
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from prism_slack.evidence import EvidenceMap, content_digest


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
    """One loaded report. Its evidence map is built once, on first use, and reused."""

    def __init__(self, slug: str, envelope: Envelope, data: dict[str, Any]) -> None:
        self.slug = slug
        self.envelope = envelope
        self.data = data
        self.digest = content_digest(data)

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

    def __repr__(self) -> str:
        return f"Report({self.slug!r}, id={self.id!r})"


def build_report(slug: str, data: dict[str, Any]) -> Report:
    """Validate the envelope (raises pydantic ``ValidationError``) and wrap the data."""
    return Report(slug, Envelope.model_validate(data), data)
