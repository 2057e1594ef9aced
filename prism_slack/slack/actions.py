"""Interactivity: the 👍/👎 feedback buttons under every answer.

A click is acked at once, then stored with the turn's audit record
(``state.save_feedback(turn_id, user=user, value=value)``; the button's value is the turn id), and
the rep gets an ephemeral thank-you — or, when the store is down, a note saying the
feedback could not be saved.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Literal

from slack_bolt import Ack, App, Respond

from prism_slack.errors import StoreUnavailable
from prism_slack.ports import StateStore
from prism_slack.render.blocks import FEEDBACK_DOWN_ACTION, FEEDBACK_UP_ACTION
from prism_slack.slack import texts
from prism_slack.slack.commands import CommandReply, send_response

logger = logging.getLogger(__name__)

FeedbackValue = Literal["up", "down"]


def record_feedback(state: StateStore, turn_id: str, user: str, value: FeedbackValue) -> str:
    """Store one click; the text to show the rep."""
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


def register_actions(app: App, state: StateStore) -> None:
    """Add the feedback button listeners to ``app``."""

    def listener(value: FeedbackValue) -> Callable[..., None]:
        def on_click(
            ack: Ack, body: dict[str, Any], action: dict[str, Any], respond: Respond
        ) -> None:
            ack()
            user = str((body.get("user") or {}).get("id") or "")
            text = record_feedback(state, str(action.get("value") or ""), user, value)
            send_response(respond, CommandReply(text=text), what=f"feedback {value}")

        return on_click

    app.action(FEEDBACK_UP_ACTION)(listener("up"))
    app.action(FEEDBACK_DOWN_ACTION)(listener("down"))
