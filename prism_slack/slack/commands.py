"""``/prism``: bind, unbind, status, reports, help.

Slack escapes ``&``, ``<`` and ``>`` in the command text (``Procter &amp; Gamble``); the
text is unescaped before it is matched, and a reply shows the rep's own ``&``. The
listener acks at once (an empty 200, well within Slack's 3 seconds) and answers through
the command's ``response_url``. Answers are ephemeral — only the rep sees them — except a
bind or unbind confirmation, which the whole channel sees (``in_channel``): everyone there
is answered from that report from now on. Every text goes through ``render_ephemeral``,
which defangs it, so neither a report's company name nor the rep's own words can ping.

``CommandHandler.handle`` is the surface-free part (text in, ``CommandReply`` out).

Who may use it is ``access``'s rule, as for messages: someone from another organisation
or an app gets nothing (the command is acked; one log line); a person of the org who may
not ask (a guest, a workspace not allowed) is told why. In a channel shared
with another organisation nothing is said for all to see: with ``PRISM_SHARED_CHANNELS=dm``
``bind`` and ``unbind`` are refused with a note to ask in a DM; with ``ephemeral`` they work
and only the rep sees the confirmation.
"""

from __future__ import annotations

import logging
import time
from typing import Any, Literal

from pydantic import BaseModel
from slack_bolt import Ack, App, BoltContext, Respond
from slack_sdk.errors import SlackClientError

from prism_slack.errors import StoreUnavailable, UnknownReportError
from prism_slack.pipeline.binding import bind_company, possessive
from prism_slack.ports import Conversation, ConversationStore, ReportStore
from prism_slack.render.blocks import render_ephemeral
from prism_slack.reports.model import Report
from prism_slack.slack import texts
from prism_slack.slack.access import REFUSAL_NOTES, Access, Who, home_teams
from prism_slack.slack.conversation import unescape

logger = logging.getLogger(__name__)

COMMAND = "/prism"
MAX_LISTED_REPORTS = 40


class CommandReply(BaseModel):
    """What ``/prism`` answers. ``in_channel``: the channel sees it, not only the rep."""

    text: str
    in_channel: bool = False

    @property
    def response_type(self) -> Literal["in_channel", "ephemeral"]:
        return "in_channel" if self.in_channel else "ephemeral"


class CommandHandler:
    """``/prism <subcommand>`` against the report and state stores."""

    def __init__(self, reports: ReportStore, state: ConversationStore) -> None:
        self.reports = reports
        self.state = state

    def handle(self, text: str, where: Conversation) -> CommandReply:
        """Answer one command in ``where`` (a channel or DM as a whole)."""
        words = text.split(maxsplit=1)
        verb = words[0].lower() if words else ""
        rest = words[1] if len(words) > 1 else ""
        try:
            if verb == "bind":
                return self.bind(rest.strip(), where)
            if verb == "unbind":
                return self.unbind(where)
            if verb == "status":
                return self.status(where)
            if verb == "reports":
                return self.list_reports(where)
            if verb in ("", "help"):
                return CommandReply(text=texts.HELP)
        except StoreUnavailable as e:
            logger.warning("store unavailable for /prism %s: %s", verb, e)
            return CommandReply(text=texts.STORE_DOWN)
        except Exception:
            logger.exception("/prism %s failed", verb)
            return CommandReply(text=texts.FAILED)
        return CommandReply(text=f"I don't know `/prism {_clip(verb)}`.\n\n{texts.HELP}")

    def bind(self, company: str, where: Conversation) -> CommandReply:
        result = bind_company(company, where, self.reports, self.state)
        if result.status == "bound" and result.slug is not None:
            report = self.reports.get(result.slug)
            return CommandReply(
                text=f"{_here(where, capital=True)} is now bound to {_describe(report)}. "
                "I'll answer questions here from that report.",
                in_channel=True,
            )
        if result.status == "empty":
            return CommandReply(text="Which company? `/prism bind <company>`.")
        if result.status == "forbidden":
            return CommandReply(text=result.message())
        if result.status == "ambiguous":
            names = "\n".join(f"• {name}" for name in result.candidates)
            return CommandReply(
                text=f"“{_clip(company)}” matches more than one company — which one?\n{names}\n"
                "Bind it again with the full name."
            )
        closest = "\n".join(f"• {name}" for name in result.candidates)
        suggestion = f" The closest I have:\n{closest}" if closest else ""
        return CommandReply(
            text=f"I don't have an audit report for “{_clip(company)}”.{suggestion}\n"
            "`/prism reports` lists them all."
        )

    def unbind(self, where: Conversation) -> CommandReply:
        slug = self.state.get_binding(where)
        if not self.state.clear_binding(where):
            return CommandReply(text=f"Nothing is bound to {_here(where)}.")
        name = self._company(slug) if slug else None
        what = f" from {possessive(name)} report" if name else ""
        return CommandReply(
            text=f"{_here(where, capital=True)} is no longer bound{what}. "
            "I'll work out the company from each question, or ask.",
            in_channel=True,
        )

    def status(self, where: Conversation) -> CommandReply:
        slug = self.state.get_binding(where)
        if slug is None:
            return CommandReply(
                text=f"Nothing is bound to {_here(where)}. I work out the company from each "
                "question, or use `/prism bind <company>`."
            )
        try:
            report = self.reports.get(slug)
        except UnknownReportError:
            return CommandReply(
                text=f"{_here(where, capital=True)} is bound to `{slug}`, but that report is no "
                "longer available. `/prism bind <company>` to choose another."
            )
        return CommandReply(text=f"{_here(where, capital=True)} is bound to {_describe(report)}.")

    def list_reports(self, where: Conversation) -> CommandReply:
        usable = [r for r in self.reports.all() if r.usable_in(where.channel)]
        reports = sorted(usable, key=lambda r: r.company.name.lower())
        if not reports:
            return CommandReply(text="I have no audit reports loaded.")
        lines = [f"• {_describe(r)}" for r in reports[:MAX_LISTED_REPORTS]]
        if len(reports) > MAX_LISTED_REPORTS:
            lines.append(f"…and {len(reports) - MAX_LISTED_REPORTS} more.")
        return CommandReply(
            text=f"Audit reports I can answer from ({len(reports)}):\n" + "\n".join(lines)
        )

    def _company(self, slug: str) -> str | None:
        try:
            return self.reports.get(slug).company.name
        except UnknownReportError:
            return None


def _describe(report: Report) -> str:
    return (
        f"*{report.company.name}* (report {report.id}, "
        f"{report.generated_at.isoformat()}, `{report.slug}`)"
    )


def _here(where: Conversation, *, capital: bool = False) -> str:
    here = "DM" if where.channel.startswith("D") else "channel"
    return f"{'This' if capital else 'this'} {here}"


def _clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def register_commands(app: App, handler: CommandHandler, access: Access) -> None:
    """Add the ``/prism`` listener to ``app``."""

    @app.command(COMMAND)
    def on_prism(ack: Ack, command: dict[str, Any], respond: Respond, context: BoltContext) -> None:
        ack()
        text = unescape(str(command.get("text") or ""))  # Slack sends & as &amp;
        verb = text.strip().partition(" ")[0].lower()
        user, channel = str(command.get("user_id") or ""), str(command["channel_id"])
        teams = tuple(
            dict.fromkeys(str(t) for t in (command.get("user_team"), command.get("team_id")) if t)
        )
        who = access.who(user, teams, home=home_teams(context))
        if who not in (Who.MEMBER, Who.UNKNOWN, *REFUSAL_NOTES):
            logger.warning("/prism %s in %s not answered: %s %s", verb, channel, who.value, user)
            return
        where = Conversation(team=str(command.get("team_id") or ""), channel=channel)
        shared = (
            who is Who.MEMBER and verb in ("bind", "unbind") and access.is_shared(channel, None)
        )
        if who in REFUSAL_NOTES:
            logger.warning("/prism %s in %s refused: %s %s", verb, channel, who.value, user)
            reply = CommandReply(text=REFUSAL_NOTES[who])
        elif who is Who.UNKNOWN:
            reply = CommandReply(text=texts.CANNOT_CHECK)
        elif shared and access.policy.shared_channels == "dm":
            reply = CommandReply(text=texts.SHARED_CHANNEL_BIND)
        else:
            reply = handler.handle(text, where)
            if shared:
                reply = reply.model_copy(update={"in_channel": False})
        send_response(respond, reply, what=f"/prism {verb}")


def send_response(respond: Respond, reply: CommandReply, *, what: str) -> bool:
    """Post ``reply`` to the request's ``response_url`` (defanged); log one line."""
    message = render_ephemeral(reply.text)
    started = time.perf_counter()
    error: str | None = None
    try:
        response = respond(
            text=message.text,
            blocks=message.blocks,
            response_type=reply.response_type,
            replace_original=False,
        )
        if response.status_code != 200:
            error = f"HTTP {response.status_code}"
    except (SlackClientError, OSError, ValueError) as e:
        error = type(e).__name__
    logger.log(
        logging.INFO if error is None else logging.WARNING,
        "slack response_url %s type=%s ok=%s error=%s latency_ms=%.1f",
        what,
        reply.response_type,
        error is None,
        error,
        (time.perf_counter() - started) * 1000,
    )
    return error is None
