"""Renderers: one ``TurnResult``, drawn as terminal text or as Slack Block Kit."""

from prism_slack.render.blocks import (
    FEEDBACK_ACTION,
    FEEDBACK_BLOCK_ID,
    RenderedMessage,
    feedback_block,
    feedback_value,
    render_blocks,
    render_ephemeral,
)
from prism_slack.render.defang import defang, undefang
from prism_slack.render.limits import message_problems
from prism_slack.render.text import render_text

__all__ = [
    "FEEDBACK_ACTION",
    "FEEDBACK_BLOCK_ID",
    "RenderedMessage",
    "defang",
    "feedback_block",
    "feedback_value",
    "message_problems",
    "render_blocks",
    "render_ephemeral",
    "render_text",
    "undefang",
]
