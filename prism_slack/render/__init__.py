"""Renderers: one ``TurnResult``, drawn as terminal text or as Slack Block Kit."""

from prism_slack.render.blocks import (
    FEEDBACK_BLOCK_ID,
    FEEDBACK_DOWN_ACTION,
    FEEDBACK_UP_ACTION,
    RenderedMessage,
    feedback_block,
    render_blocks,
    render_ephemeral,
)
from prism_slack.render.defang import defang, undefang
from prism_slack.render.limits import message_problems
from prism_slack.render.text import render_text

__all__ = [
    "FEEDBACK_BLOCK_ID",
    "FEEDBACK_DOWN_ACTION",
    "FEEDBACK_UP_ACTION",
    "RenderedMessage",
    "defang",
    "feedback_block",
    "message_problems",
    "render_blocks",
    "render_ephemeral",
    "render_text",
    "undefang",
]
