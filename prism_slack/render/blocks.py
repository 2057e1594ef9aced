"""Slack Block Kit rendering of a turn, within Slack's limits (DESIGN §8).

Every untrusted string (claim, footnote path and value, company, notice, message,
candidate) is defanged exactly once, here, before our own mrkdwn (bold, emoji, bullets) is
added; text that comes from a report (claims, footnote values, header, candidates) also
has its mrkdwn formatting characters made inert (``as_text``), so it renders as text. Every
mrkdwn text is ``verbatim`` so Slack does not auto-link bare URLs or channel names in it.
Long text is split across sections at line, sentence or word boundaries; an answer too big
for one message loses its last claims, and a context line says how many.

Blocks are built with ``slack_sdk.models.blocks`` (so Slack's per-object limits are the
library's, checked as each block is serialised) and handed on as their dicts. Every answer
ends with Slack's ``feedback_buttons`` in a ``context_actions`` block; each button's value
is ``<vote>:<turn id>`` (``feedback_value``).
"""

from __future__ import annotations

import logging
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict
from slack_sdk.models.blocks import (
    ContextActionsBlock,
    ContextBlock,
    FeedbackButtonObject,
    FeedbackButtonsElement,
    MarkdownTextObject,
    SectionBlock,
)

from prism_slack.pipeline.result import Footnote, Outcome, TurnResult
from prism_slack.render.defang import as_text, defang
from prism_slack.render.limits import (
    CONTEXT_TEXT,
    FALLBACK_TEXT,
    MAX_BLOCKS,
    MESSAGE_TEXT,
    SECTION_TEXT,
    text_chars,
)
from prism_slack.render.split import clip, split_text
from prism_slack.render.view import (
    COACHING_TITLE,
    HEADER_SEPARATOR,
    NO_ANSWER_TEXT,
    REWORDED_MARK,
    UNCHECKED_MARK,
    View,
    ViewLine,
    build_view,
    footnote_text,
    one_line,
    withheld_text,
)
from prism_slack.render.view import (
    label_title as view_label_title_of,
)
from prism_slack.verdict import Label

logger = logging.getLogger(__name__)

FEEDBACK_BLOCK_ID = "prism_feedback"
FEEDBACK_ACTION = "prism_feedback"
FEEDBACK_UP_TEXT = "Helpful"
FEEDBACK_DOWN_TEXT = "Not helpful"
FeedbackVote = Literal["up", "down"]

_NBSP = "\u00a0"
"""Glues a sentence to its citations, so a split never separates them."""
_LABEL_EMOJI = {
    Label.EVIDENCE_LINKED: ":white_check_mark:",
    Label.EVIDENCE_LINKED_PARTIAL: ":large_yellow_circle:",
    Label.UNGROUNDED: ":red_circle:",
    Label.COACHING_ONLY: ":bulb:",
}
_MESSAGE_CUT = "✂ Message cut to fit Slack's limits."

Block = dict[str, Any]


class RenderedMessage(BaseModel):
    """A Slack message: notification ``text`` (plain, defanged, short) and its ``blocks``."""

    model_config = ConfigDict(frozen=True)

    text: str
    blocks: list[Block]


def render_blocks(result: TurnResult, *, feedback: bool = True) -> RenderedMessage:
    """``result`` as a Block Kit message.

    Feedback buttons come with an answer (``Outcome.ANSWERED``) when ``feedback`` is on and
    the turn has an id; a prompt to bind, a failure or a refusal has nothing to rate.
    """
    answered = result.outcome is Outcome.ANSWERED
    turn_id = result.turn_id if feedback and answered else None
    full = build_view(result)
    view = full
    blocks = _layout(view, turn_id)
    if not _fits(blocks) and view.claims:
        view = full.keep(_claims_that_fit(full, turn_id))
        blocks = _layout(view, turn_id)
        logger.info(
            "render: showing %d of %d claims to fit Slack's limits (turn %s)",
            len(view.claims),
            len(full.claims),
            result.turn_id,
        )
    return RenderedMessage(text=_fallback(full), blocks=_cap(blocks))


def render_ephemeral(text: str) -> RenderedMessage:
    """A short reply of our own (a command's answer); ``text`` is defanged, mrkdwn kept."""
    blocks = [_section(chunk) for chunk in _chunks(defang(text), SECTION_TEXT)]
    fallback = clip(defang(one_line(text)), FALLBACK_TEXT) or "…"
    return RenderedMessage(text=fallback, blocks=_cap(blocks))


def feedback_block(turn_id: str) -> Block:
    """Slack's 👍/👎 ``feedback_buttons`` in a ``context_actions`` block, for one turn."""
    buttons = FeedbackButtonsElement(
        action_id=FEEDBACK_ACTION,
        positive_button=FeedbackButtonObject(
            text=FEEDBACK_UP_TEXT,
            accessibility_label="This answer was helpful",
            value=feedback_value("up", turn_id),
        ),
        negative_button=FeedbackButtonObject(
            text=FEEDBACK_DOWN_TEXT,
            accessibility_label="This answer was not helpful",
            value=feedback_value("down", turn_id),
        ),
    )
    return ContextActionsBlock(block_id=FEEDBACK_BLOCK_ID, elements=[buttons]).to_dict()


def feedback_value(vote: FeedbackVote, turn_id: str) -> str:
    """A feedback button's value: the vote and the turn it is about."""
    return f"{vote}:{turn_id}"


def _fits(blocks: list[Block]) -> bool:
    return len(blocks) <= MAX_BLOCKS and text_chars(blocks) <= MESSAGE_TEXT


def _claims_that_fit(view: View, turn_id: str | None) -> int:
    """The most leading claims whose layout fits (blocks and text grow with the claims)."""
    lo, hi = 0, len(view.claims) - 1
    best = 0
    while lo <= hi:
        mid = (lo + hi) // 2
        if _fits(_layout(view.keep(mid), turn_id)):
            best, lo = mid, mid + 1
        else:
            hi = mid - 1
    return best


def _layout(view: View, turn_id: str | None) -> list[Block]:
    blocks: list[Block] = []
    if view.header:
        first, *rest = (as_text(part) for part in view.header)
        line = f":page_facing_up: *{first}*" + "".join(HEADER_SEPARATOR + p for p in rest)
        blocks.append(_section(clip(line, SECTION_TEXT)))
    if view.notice:
        blocks.append(_context(clip(f":information_source: {defang(view.notice)}", CONTEXT_TEXT)))
    if view.answered:
        blocks += _answer(view)
    else:
        blocks += [_section(c) for c in _chunks(defang(view.message or ""), SECTION_TEXT)]
        bullets = "\n".join(f"• {as_text(c)}" for c in view.candidates)
        blocks += [_section(c) for c in _chunks(bullets, SECTION_TEXT)]
    if turn_id:
        blocks.append(feedback_block(turn_id))
    return blocks


def _answer(view: View) -> list[Block]:
    blocks: list[Block] = []
    answer = "\n".join(_claim(line, view) for line in view.answer)
    if view.empty_answer:
        answer = f"_{NO_ANSWER_TEXT}_"
    blocks += [_section(c) for c in _chunks(answer, SECTION_TEXT)]
    if view.coaching:
        coaching = "\n".join(f"• {_claim(line, view)}" for line in view.coaching)
        text = f":bulb: *{COACHING_TITLE}*\n{coaching}"
        blocks += [_section(c) for c in _chunks(text, SECTION_TEXT)]
    notes = "\n".join(_footnote_line(f) for f in view.footnotes)
    blocks += [_context(c) for c in _chunks(notes, CONTEXT_TEXT)]
    if view.withheld:
        blocks.append(_context(withheld_text(view.withheld)))
    if view.label and view.label_title and view.label_text:
        rest = view.label_text[len(view.label_title) :]
        emoji = _LABEL_EMOJI[view.label] if view.label_title == view_label_title(view) else ""
        plain = f"\n{view.plain}" if view.plain else ""
        blocks.append(_context(f"{emoji or ':mag:'} *{view.label_title}*{rest}{plain}"))
    if view.cut:
        blocks.append(_context(_cut_text(view.cut)))
    return blocks


def view_label_title(view: View) -> str | None:
    """The label's own title (not the "not in the report" line that replaces it)."""
    return view_label_title_of(view.label) if view.label else None


def _cut_text(count: int) -> str:
    noun = "claim" if count == 1 else "claims"
    return f"✂ {count} {noun} not shown — too long for one Slack message."


def _claim(line: ViewLine, view: View) -> str:
    text = as_text(line.shown(view.footnotes))
    if line.citations:
        text += _NBSP + "".join(f"[{n}]" for n in line.citations)
    if line.rewritten:
        text += f" _{REWORDED_MARK}_"
    if line.unchecked:
        text += f" _{UNCHECKED_MARK}_"
    return text


def _fallback(view: View) -> str:
    """The notification text: plain words, no mrkdwn of ours, at most ``FALLBACK_TEXT``."""
    if not view.answered:
        body = view.message or ""
    else:
        lines = [line.text for line in view.claims]
        body = " ".join(lines) or (withheld_text(view.withheld) if view.withheld else "")
        body = body or NO_ANSWER_TEXT
    if view.header:
        body = f"{view.header[0]}: {body}"
    return clip(defang(one_line(body)), FALLBACK_TEXT)


def _cap(blocks: list[Block]) -> list[Block]:
    """Last resort: as many leading blocks as fit, then a cut line and the feedback buttons."""
    if _fits(blocks):
        return blocks
    actions = [b for b in blocks if b.get("block_id") == FEEDBACK_BLOCK_ID]
    content = [b for b in blocks if b.get("block_id") != FEEDBACK_BLOCK_ID]
    cut_line = _context(_MESSAGE_CUT)
    room_blocks = MAX_BLOCKS - len(actions) - 1
    room_chars = MESSAGE_TEXT - text_chars([*actions, cut_line])
    kept: list[Block] = []
    for block in content[:room_blocks]:
        room_chars -= text_chars([block])
        if room_chars < 0:
            break
        kept.append(block)
    logger.info(
        "render: cut %d of %d blocks to fit Slack's limits", len(content) - len(kept), len(content)
    )
    return [*kept, cut_line, *actions]


def _chunks(text: str, limit: int) -> list[str]:
    """``text`` split to fit ``limit``, without trailing blanks or empty chunks."""
    return [c for c in (chunk.rstrip() for chunk in split_text(text, limit)) if c]


def _mrkdwn(text: str) -> MarkdownTextObject:
    # verbatim: Slack still applies our formatting but does not auto-link bare URLs or
    # channel names, nor auto-parse mentions, in text we did not write.
    return MarkdownTextObject(text=text, verbatim=True)


def _section(text: str) -> Block:
    return SectionBlock(text=_mrkdwn(text)).to_dict()


def _context(text: str) -> Block:
    return ContextBlock(elements=[_mrkdwn(text)]).to_dict()


def _footnote_line(f: Footnote) -> str:
    """``footnote_text`` for Slack: the path as code, the report's words made inert."""
    return footnote_text(f, path=_code, text=as_text)


def _code(path: str) -> str:
    return f"`{defang(path).replace('`', 'ʼ')}`"
