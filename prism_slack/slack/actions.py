"""Interactivity: the 👍/👎 ``feedback_buttons`` under every answer.

A click is acked at once. Only a member (``access``, as for messages) is heard: anyone
else's click is dropped with one log line. The vote is stored with its turn id
(``state.save_feedback(turn_id, user=user, value=vote)``; the button's value is
``<vote>:<turn id>``), and the rep gets a thank-you with ``chat.postEphemeral`` in the
answer's own thread — or, when the store is down, a note that the vote could not be saved.

Answers posted before ``feedback_buttons`` carry two plain buttons
(``prism_feedback_up``/``_down``, value: the turn id); their clicks count the same.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from slack_bolt import Ack, App, BoltContext

from prism_slack.errors import StoreUnavailable
from prism_slack.ports import DeliveryStore
from prism_slack.render.blocks import FEEDBACK_ACTION, FeedbackVote
from prism_slack.slack import texts
from prism_slack.slack.access import Access, Who, home_teams
from prism_slack.slack.replies import Replier

logger = logging.getLogger(__name__)

LEGACY_ACTIONS: dict[str, FeedbackVote] = {
    "prism_feedback_up": "up",
    "prism_feedback_down": "down",
}
_ACTIONS = re.compile(r"^prism_feedback(?:_up|_down)?$")


def record_feedback(state: DeliveryStore, turn_id: str, user: str, value: FeedbackVote) -> str:
    """Store one vote; the text to show the rep."""
    if not turn_id or not user:
        logger.warning("feedback click without turn id or user")
        return texts.FEEDBACK_FAILED
    try:
        state.save_feedback(turn_id, user=user, value=value)
    except StoreUnavailable as e:
        logger.warning("feedback on turn %s not saved: %s", turn_id, e)
        return texts.FEEDBACK_NOT_SAVED
    except Exception:
        logger.exception("feedback on turn %s failed", turn_id)
        return texts.FEEDBACK_FAILED
    logger.info("feedback turn=%s user=%s value=%s", turn_id, user, value)
    return texts.FEEDBACK_THANKS


def vote_of(action: dict[str, Any]) -> tuple[FeedbackVote, str] | None:
    """(vote, turn id) of a feedback click, or ``None`` when it does not say."""
    value = str(action.get("value") or "")
    action_id = str(action.get("action_id") or "")
    if action_id in LEGACY_ACTIONS:
        return (LEGACY_ACTIONS[action_id], value) if value else None
    if action_id != FEEDBACK_ACTION:
        return None
    vote, _, turn_id = value.partition(":")
    if vote == "up" and turn_id:
        return "up", turn_id
    if vote == "down" and turn_id:
        return "down", turn_id
    return None


def register_actions(app: App, state: DeliveryStore, access: Access, replier: Replier) -> None:
    """Add the feedback listeners to ``app``."""

    @app.action(_ACTIONS)
    def on_feedback(
        ack: Ack, body: dict[str, Any], action: dict[str, Any], context: BoltContext
    ) -> None:
        ack()
        person = body.get("user") or {}
        user = str(person.get("id") or "")
        teams = tuple(dict.fromkeys(str(t) for t in (person.get("team_id"), _team(body)) if t))
        who = access.who(user, teams, home=home_teams(context))
        if who is not Who.MEMBER:
            logger.warning("feedback click from %s dropped: %s", user or "-", who.value)
            return
        found = vote_of(action)
        if found is None:
            logger.warning("feedback click without a vote and turn id")
            text = texts.FEEDBACK_FAILED
        else:
            text = record_feedback(state, found[1], user, found[0])
        channel, thread_ts = _where(body)
        if channel:
            replier.ephemeral(channel, user, thread_ts, text)


def _team(body: dict[str, Any]) -> str | None:
    team = body.get("team")
    return str(team.get("id")) if isinstance(team, dict) and team.get("id") else None


def _where(body: dict[str, Any]) -> tuple[str | None, str | None]:
    """The channel of the clicked message, and its thread (``None`` at the top level)."""
    container = body.get("container") or {}
    message = body.get("message") or {}
    channel = container.get("channel_id") or (body.get("channel") or {}).get("id")
    thread_ts = container.get("thread_ts") or message.get("thread_ts")
    return (str(channel) if channel else None), (str(thread_ts) if thread_ts else None)
