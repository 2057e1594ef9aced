"""Slack's AI surface around an answer: the side panel's thread start, its context, prompts.

(The working status with rotating ``loading_messages`` is shown when a turn starts:
``MessageAnswerer._begin``.)

- ``assistant_thread_started``: the side panel opened a new thread. Its
  ``context.channel_id`` is the channel the rep is looking at; when that channel is bound
  to a company, the new thread is bound to it too (``follow``), the greeting names the
  company, and the suggested prompts ask about it. Without a binding the greeting says how
  to name one, and the prompts offer a few companies PRISM has reports for.
- ``assistant_thread_context_changed``: the rep moved to another channel with the panel
  open; the thread follows that channel's binding (a channel without one leaves the
  thread's as it was: the conversation keeps its company).
"""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt import App, BoltContext

from prism_slack.errors import StoreUnavailable, UnknownReportError
from prism_slack.pipeline.binding import possessive
from prism_slack.ports import Conversation, ReportStore, StateStore
from prism_slack.render.blocks import render_ephemeral
from prism_slack.slack import texts
from prism_slack.slack.replies import Replier, Reply

logger = logging.getLogger(__name__)

MAX_PROMPTS = 3
PROMPT_TITLE_CHARS = 75


def bound_prompts(company: str) -> list[dict[str, str]]:
    """Suggested prompts about the company bound to the channel in view."""
    owner = possessive(company)
    prompts = [
        ("Key facts", f"What are the key facts in {owner} audit report?"),
        ("Biggest risks", f"What are the biggest risks in {owner} audit report?"),
        ("Plan the next call", f"How should I open my next call with {company}?"),
    ]
    return [{"title": _clip(title), "message": message} for title, message in prompts]


def open_prompts(companies: list[str]) -> list[dict[str, str]]:
    """Suggested prompts with nothing bound: one about each of a few companies."""
    return [
        {
            "title": _clip(f"About {name}"),
            "message": f"What are the key facts in {possessive(name)} audit report?",
        }
        for name in companies[:MAX_PROMPTS]
    ]


def greeting(company: str | None) -> str:
    if company is None:
        return texts.GREETING
    return (
        f"Hi! I'm answering from {possessive(company)} audit report here — the channel you're "
        "looking at is bound to it. Every fact I post is checked against that report and "
        "cited. Name another company in your question to switch."
    )


class Panel:
    """The side panel's listeners, on the shared replier and stores."""

    def __init__(self, replier: Replier, reports: ReportStore, state: StateStore) -> None:
        self.replier = replier
        self.reports = reports
        self.state = state

    def thread_started(self, event: dict[str, Any], *, team: str) -> None:
        thread = event.get("assistant_thread") or {}
        channel, thread_ts = thread.get("channel_id"), thread.get("thread_ts")
        if not channel or not thread_ts:
            logger.warning("assistant_thread_started without channel or thread_ts")
            return
        channel, thread_ts = str(channel), str(thread_ts)
        company = self.follow(team, channel, thread_ts, _viewed(thread))
        hello = render_ephemeral(greeting(company))
        self.replier.post(channel, thread_ts, Reply(hello.text, hello.blocks))
        if company is not None:
            prompts, title = bound_prompts(company), f"Ask about {company}"
        else:
            names = sorted(r.company.name for r in self.reports.all())
            prompts, title = open_prompts(names), "Try asking"
        if prompts:
            self.replier.suggest_prompts(channel, thread_ts, prompts, title=_clip(title))

    def context_changed(self, event: dict[str, Any], *, team: str) -> None:
        thread = event.get("assistant_thread") or {}
        channel, thread_ts = thread.get("channel_id"), thread.get("thread_ts")
        if channel and thread_ts:
            self.follow(team, str(channel), str(thread_ts), _viewed(thread))

    def follow(self, team: str, channel: str, thread_ts: str, viewed: str | None) -> str | None:
        """Bind the panel thread to the report of the channel in view; that company's name."""
        if not viewed or viewed == channel:
            return None
        try:
            slug = self.state.get_binding(Conversation(team=team, channel=viewed))
            if slug is None:
                return None
            name = self.reports.get(slug).company.name
            self.state.set_binding(
                Conversation(team=team, channel=channel, thread=thread_ts), slug=slug
            )
        except UnknownReportError:
            return None
        except StoreUnavailable as e:
            logger.warning("panel thread %s: binding of %s not followed: %s", thread_ts, viewed, e)
            return None
        logger.info("panel thread %s follows channel %s (%s)", thread_ts, viewed, slug)
        return name


def register_panel(app: App, panel: Panel) -> None:
    """Add the side panel's ``assistant_thread_*`` listeners to ``app``."""

    @app.event("assistant_thread_started")
    def on_thread_started(event: dict[str, Any], context: BoltContext) -> None:
        panel.thread_started(event, team=_team(event, context))

    @app.event("assistant_thread_context_changed")
    def on_context_changed(event: dict[str, Any], context: BoltContext) -> None:
        panel.context_changed(event, team=_team(event, context))


def _viewed(thread: dict[str, Any]) -> str | None:
    context = thread.get("context") or {}
    viewed = context.get("channel_id") if isinstance(context, dict) else None
    return str(viewed) if viewed else None


def _team(event: dict[str, Any], context: BoltContext) -> str:
    thread_context = (event.get("assistant_thread") or {}).get("context") or {}
    return str(context.team_id or thread_context.get("team_id") or "")


def _clip(text: str) -> str:
    return text if len(text) <= PROMPT_TITLE_CHARS else text[: PROMPT_TITLE_CHARS - 1] + "…"
