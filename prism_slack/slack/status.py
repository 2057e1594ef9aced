"""Slack's agent surface around an answer: the side panel's greeting, context and prompts.

(The working status with rotating ``loading_messages`` is shown when a turn starts:
``MessageAnswerer._begin``.)

The manifest ships ``agent_view`` (Slack's "Agents & AI Apps"): the side panel is the
app's Messages tab, the DM with PRISM.

- ``app_home_opened`` with ``tab: "messages"``: the rep opened the DM (or the side panel).
  The first time (in 30 days) PRISM greets them there; every time it sets the suggested
  prompts: about the company bound to the DM when there is one, else one about each of a
  few companies PRISM has reports for. For an agent app the prompts are sent without
  ``thread_ts`` (Slack's method page: with it, the call fails silently for agent apps).
- ``app_context_changed``: the rep is looking at another channel with the side panel open
  (the first ``slack#/types/channel_id`` of ``context.entities``; the DM is the event's
  ``channel``, or the one ``app_home_opened`` last named for that rep). When that channel is
  bound to a company, the DM is bound to it too — the side panel answers from the report
  of the channel in view — and the prompts name it. A channel without a binding leaves the
  DM's as it was.

Installs still on the older manifest (``assistant_view``) get the legacy events:

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
from prism_slack.ports import Conversation, ConversationStore, DeliveryStore, ReportStore
from prism_slack.render.blocks import render_ephemeral
from prism_slack.slack import texts
from prism_slack.slack.access import Access, Who, home_teams
from prism_slack.slack.replies import Replier, Reply

logger = logging.getLogger(__name__)

MAX_PROMPTS = 3
PROMPT_TITLE_CHARS = 75
CHANNEL_ENTITY = "slack#/types/channel_id"


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

    def __init__(
        self,
        replier: Replier,
        reports: ReportStore,
        state: ConversationStore,
        store: DeliveryStore,
    ) -> None:
        self.replier = replier
        self.reports = reports
        self.state = state
        self.store = store

    # -- agent_view -----------------------------------------------------------------------

    def home_opened(self, event: dict[str, Any], *, team: str) -> None:
        """``app_home_opened`` on the Messages tab: greet once, set the prompts."""
        channel = str(event.get("channel") or "")
        if event.get("tab") != "messages" or not channel:
            return
        dm = Conversation(team=team, channel=channel)
        company = self._company(dm)
        try:
            if event.get("user"):
                self.store.remember_dm(team, str(event["user"]), channel)
            first = self.store.first_greeting(dm)
        except StoreUnavailable as e:
            logger.warning("panel %s: not greeted (store unavailable): %s", channel, e)
            first = False
        if first:
            hello = render_ephemeral(greeting(company))
            self.replier.post(channel, None, Reply(hello.text, hello.blocks))
        logger.info("panel %s opened: greeted=%s company=%s", channel, first, company is not None)
        self._prompts(channel, None, company)

    def app_context_changed(self, event: dict[str, Any], *, team: str) -> None:
        """``app_context_changed``: the DM follows the binding of the channel in view."""
        viewed = _viewed_channel(event.get("context"))
        channel = str(event.get("channel") or "") or self._dm_of(team, event.get("user"))
        if not channel or not viewed:
            logger.info("panel context changed without a DM or a channel in view; nothing to do")
            return
        company = self.follow(Conversation(team=team, channel=channel), viewed)
        if company is not None:
            self._prompts(channel, None, company)

    # -- assistant_view (legacy) ----------------------------------------------------------

    def thread_started(self, event: dict[str, Any], *, team: str) -> None:
        thread = event.get("assistant_thread") or {}
        channel, thread_ts = thread.get("channel_id"), thread.get("thread_ts")
        if not channel or not thread_ts:
            logger.warning("assistant_thread_started without channel or thread_ts")
            return
        channel, thread_ts = str(channel), str(thread_ts)
        where = Conversation(team=team, channel=channel, thread=thread_ts)
        company = self.follow(where, _viewed(thread))
        hello = render_ephemeral(greeting(company))
        self.replier.post(channel, thread_ts, Reply(hello.text, hello.blocks))
        self._prompts(channel, thread_ts, company)

    def context_changed(self, event: dict[str, Any], *, team: str) -> None:
        thread = event.get("assistant_thread") or {}
        channel, thread_ts = thread.get("channel_id"), thread.get("thread_ts")
        if channel and thread_ts:
            where = Conversation(team=team, channel=str(channel), thread=str(thread_ts))
            self.follow(where, _viewed(thread))

    # -- both -----------------------------------------------------------------------------

    def follow(self, panel: Conversation, viewed: str | None) -> str | None:
        """Bind the panel (the DM, or a legacy panel thread) to the report of the channel in
        view; that company's name (``None``: nothing to follow)."""
        if not viewed or viewed == panel.channel:
            return None
        try:
            slug = self.state.get_binding(Conversation(team=panel.team, channel=viewed))
            if slug is None:
                return None
            report = self.reports.get(slug)
            if not report.usable_in(panel.channel):  # access.channels keeps it out of here
                logger.info("panel %s: %s is not usable here; not followed", panel.channel, slug)
                return None
            name = report.company.name
            if self.state.get_binding(panel) != slug:
                self.state.set_binding(panel, slug=slug)
        except UnknownReportError:
            return None
        except StoreUnavailable as e:
            logger.warning("panel %s: binding of %s not followed: %s", panel.channel, viewed, e)
            return None
        logger.info(
            "panel %s/%s follows channel %s (%s)", panel.channel, panel.thread, viewed, slug
        )
        return name

    def _dm_of(self, team: str, user: object) -> str:
        """The DM of ``user`` (an ``app_context_changed`` may not name it), or ``""``."""
        try:
            return (self.store.dm_of(team, str(user)) if user else None) or ""
        except StoreUnavailable as e:
            logger.warning("panel: the DM of %s is not known (store unavailable): %s", user, e)
            return ""

    def _company(self, where: Conversation) -> str | None:
        """The company bound to ``where``, if any (and its report still exists)."""
        try:
            slug = self.state.get_binding(where)
            return self.reports.get(slug).company.name if slug else None
        except (UnknownReportError, StoreUnavailable):
            return None

    def _prompts(self, channel: str, thread_ts: str | None, company: str | None) -> None:
        """The suggested prompts (``thread_ts`` only for a legacy panel thread)."""
        if company is not None:
            prompts, title = bound_prompts(company), f"Ask about {company}"
        else:
            names = sorted(r.company.name for r in self.reports.all())
            prompts, title = open_prompts(names), "Try asking"
        if prompts:
            self.replier.suggest_prompts(channel, thread_ts, prompts, title=_clip(title))


def register_panel(app: App, panel: Panel, access: Access) -> None:
    """Add the side panel's listeners to ``app``: ``app_home_opened`` and
    ``app_context_changed`` (``agent_view``), ``assistant_thread_*`` (``assistant_view``).
    Only members see it: anyone else's event is one log line (the prompts name reports)."""

    def member(user: object, context: BoltContext, what: str) -> bool:
        who = access.who(str(user or ""), (), home=home_teams(context))
        if who is not Who.MEMBER:
            logger.warning("panel %s from %s ignored: %s", what, user or "-", who.value)
        return who is Who.MEMBER

    @app.event("app_home_opened")
    def on_home_opened(event: dict[str, Any], context: BoltContext) -> None:
        if event.get("tab") == "messages" and member(event.get("user"), context, "opened"):
            panel.home_opened(event, team=_team(event, context))

    @app.event("app_context_changed")
    def on_app_context_changed(event: dict[str, Any], context: BoltContext) -> None:
        if member(event.get("user"), context, "context change"):
            panel.app_context_changed(event, team=_team(event, context))

    @app.event("assistant_thread_started")
    def on_thread_started(event: dict[str, Any], context: BoltContext) -> None:
        if member(_thread_user(event), context, "thread start"):
            panel.thread_started(event, team=_team(event, context))

    @app.event("assistant_thread_context_changed")
    def on_context_changed(event: dict[str, Any], context: BoltContext) -> None:
        if member(_thread_user(event), context, "thread context change"):
            panel.context_changed(event, team=_team(event, context))


def _thread_user(event: dict[str, Any]) -> object:
    return (event.get("assistant_thread") or {}).get("user_id")


def _viewed_channel(context: object) -> str | None:
    """The most relevant channel of an ``app_context_changed`` context (entities are
    ordered by relevance), or ``None``."""
    entities = context.get("entities") if isinstance(context, dict) else None
    for entity in entities if isinstance(entities, list) else ():
        if (
            isinstance(entity, dict)
            and entity.get("type") == CHANNEL_ENTITY
            and entity.get("value")
        ):
            return str(entity["value"])
    return None


def _viewed(thread: dict[str, Any]) -> str | None:
    context = thread.get("context") or {}
    viewed = context.get("channel_id") if isinstance(context, dict) else None
    return str(viewed) if viewed else None


def _team(event: dict[str, Any], context: BoltContext) -> str:
    thread_context = (event.get("assistant_thread") or {}).get("context") or {}
    return str(context.team_id or thread_context.get("team_id") or "")


def _clip(text: str) -> str:
    return text if len(text) <= PROMPT_TITLE_CHARS else text[: PROMPT_TITLE_CHARS - 1] + "…"
