"""Binding a conversation to a report by company name: shared by `/prism bind` and `/bind`."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from prism_slack.ports import Conversation, ConversationStore, ReportStore
from prism_slack.reports.model import Report


def possessive(name: str) -> str:
    """``Acme`` → ``Acme's``; ``Northwind Outfitters`` → ``Northwind Outfitters'``."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


class BindResult(BaseModel):
    status: Literal["bound", "ambiguous", "unknown", "empty", "forbidden"]
    slug: str | None = None
    company: str | None = None
    report_id: str | None = None
    candidates: list[str] = []
    """Company names: the equal candidates (ambiguous) or the closest ones (unknown)."""
    asked: str | None = None
    """The company name as the rep typed it (unknown)."""

    def message(self) -> str:
        """What to tell the rep, in plain words (the surface defangs and formats it)."""
        if self.status == "bound":
            return f"Bound to {possessive(self.company or '')} audit report ({self.report_id})."
        if self.status == "ambiguous":
            return f"That name fits {' and '.join(self.candidates)}: which one do you mean?"
        if self.status == "forbidden":
            return f"{possessive(self.company or '')} report can't be used in this channel."
        if self.status == "empty":
            return "Tell me which company: bind <company>."
        named = self.asked or "that company"
        if not self.candidates:
            return f"I have no report for {named}, and no reports at all yet."
        return f"I have no report for {named}; I have: {', '.join(self.candidates)}."


def bind_company(
    text: str,
    where: Conversation,
    reports: ReportStore,
    state: ConversationStore,
    *,
    enforce_access: bool = True,
) -> BindResult:
    """Detect the company named in ``text`` and bind ``where`` to its report.

    With ``enforce_access``, reports restricted to other channels are never offered as
    candidates or suggestions here, and cannot be bound.
    """
    if not text.strip():
        return BindResult(status="empty")

    def usable(slugs: list[str]) -> list[Report]:
        found = [reports.get(s) for s in slugs]
        return [r for r in found if r.usable_in(where.channel) or not enforce_access]

    detection = reports.detect(text)
    if detection.status == "ambiguous":
        names = [r.company.name for r in usable(detection.slugs)]
        return BindResult(status="ambiguous", candidates=names)
    if detection.status == "none":
        names = [r.company.name for r in usable(reports.suggest(text, limit=10))][:3]
        return BindResult(status="unknown", candidates=names, asked=" ".join(text.split()))
    report = reports.get(detection.slugs[0])
    if enforce_access and not report.usable_in(where.channel):
        return BindResult(status="forbidden", slug=report.slug, company=report.company.name)
    state.set_binding(where, slug=report.slug)
    return BindResult(
        status="bound", slug=report.slug, company=report.company.name, report_id=report.id
    )
