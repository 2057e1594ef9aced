"""Binding a conversation to a report by company name: shared by `/prism bind` and `/bind`."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from prism_slack.ports import Conversation, ReportStore, StateStore


class BindResult(BaseModel):
    status: Literal["bound", "ambiguous", "unknown", "empty", "forbidden"]
    slug: str | None = None
    company: str | None = None
    report_id: str | None = None
    candidates: list[str] = []
    """Company names: the equal candidates (ambiguous) or the closest ones (unknown)."""

    def message(self) -> str:
        """What to tell the rep, in plain words (the surface defangs and formats it)."""
        if self.status == "bound":
            return f"Bound to {self.company}'s audit report ({self.report_id})."
        if self.status == "ambiguous":
            return "Which one? " + " or ".join(self.candidates) + ". Name it in full."
        if self.status == "forbidden":
            return f"{self.company}'s report can't be used in this channel."
        if self.status == "empty":
            return "Tell me which company: bind <company>."
        closest = ", ".join(self.candidates) if self.candidates else "none"
        return f"I don't have a report for that company. Closest: {closest}."


def bind_company(
    text: str, where: Conversation, reports: ReportStore, state: StateStore
) -> BindResult:
    """Detect the company named in ``text`` and bind ``where`` to its report."""
    if not text.strip():
        return BindResult(status="empty")
    detection = reports.detect(text)
    if detection.status == "ambiguous":
        names = [reports.get(s).company.name for s in detection.slugs]
        return BindResult(status="ambiguous", candidates=names)
    if detection.status == "none":
        names = [reports.get(s).company.name for s in reports.suggest(text)]
        return BindResult(status="unknown", candidates=names)
    report = reports.get(detection.slugs[0])
    if not report.usable_in(where.channel):
        return BindResult(status="forbidden", slug=report.slug, company=report.company.name)
    state.set_binding(where, report.slug)
    return BindResult(
        status="bound", slug=report.slug, company=report.company.name, report_id=report.id
    )
