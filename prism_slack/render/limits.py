"""Slack's documented Block Kit limits, and a checker for a message against them.

Figures from Slack's Block Kit reference: a message holds at most 50 blocks; a section's
text at most 3,000 characters (and at most 10 fields of 2,000); a context block at most 10
elements; a header's plain text at most 150; an actions block at most 25 elements, a
context_actions block at most 5; a button's text at most 75, its value at most 2,000;
``action_id`` and ``block_id`` at most 255. Context element text is kept to 2,000 here
as a safe margin.

Slack also rejects a message whose blocks hold too much text in total
(``msg_blocks_too_long``). That limit is not documented; reports put it near 12,000
characters of text, with rejections seen a little above 11,000 (slackapi/bolt-js issues
2509 and 2867), so ``MESSAGE_TEXT`` keeps the total of every text in the blocks at 11,000.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

MAX_BLOCKS = 50
SECTION_TEXT = 3000
SECTION_FIELDS = 10
FIELD_TEXT = 2000
CONTEXT_ELEMENTS = 10
CONTEXT_TEXT = 2000
HEADER_TEXT = 150
ACTIONS_ELEMENTS = 25
CONTEXT_ACTIONS_ELEMENTS = 5
BUTTON_TEXT = 75
BUTTON_VALUE = 2000
ID_CHARS = 255
MESSAGE_TEXT = 11_000
"""Our cap on the total text of a message's blocks (Slack's own limit is undocumented)."""
FALLBACK_TEXT = 300
"""Our own cap on a message's notification text (Slack allows far more)."""

_BARE_BROADCAST = re.compile(r"@(?:channel|here|everyone)", re.IGNORECASE)


def message_problems(text: str, blocks: list[dict[str, Any]]) -> list[str]:
    """Every way ``text`` + ``blocks`` break Slack's limits or our escaping; [] when valid.

    Besides the limits, any ``<`` or ``>`` or bare ``@here``-style broadcast in a text, or a
    mrkdwn text that is not ``verbatim``, is a problem: every message we build is defanged,
    and we never emit links or mentions.
    """
    problems: list[str] = []
    if not text.strip():
        problems.append("text: empty notification text")
    if len(text) > FALLBACK_TEXT:
        problems.append(f"text: {len(text)} chars > {FALLBACK_TEXT}")
    problems += _escaping("text", text)
    if len(blocks) > MAX_BLOCKS:
        problems.append(f"blocks: {len(blocks)} > {MAX_BLOCKS}")
    total = text_chars(blocks)
    if total > MESSAGE_TEXT:
        problems.append(f"blocks: {total} chars of text in total > {MESSAGE_TEXT}")
    seen_ids: set[str] = set()
    for i, block in enumerate(blocks):
        where = f"blocks[{i}]"
        block_id = block.get("block_id")
        if block_id is not None:
            if len(block_id) > ID_CHARS:
                problems.append(f"{where}.block_id: longer than {ID_CHARS}")
            if block_id in seen_ids:
                problems.append(f"{where}.block_id: duplicate {block_id!r}")
            seen_ids.add(block_id)
        problems += _block(where, block)
    return problems


def text_chars(blocks: list[dict[str, Any]]) -> int:
    """The total length of every text object's text in ``blocks``."""
    return sum(_chars(block) for block in blocks)


def _chars(node: Any) -> int:
    if isinstance(node, Mapping):
        own = len(node["text"]) if isinstance(node.get("text"), str) else 0
        return own + sum(_chars(v) for k, v in node.items() if k != "text" or own == 0)
    if isinstance(node, list):
        return sum(_chars(item) for item in node)
    return 0


def _block(where: str, block: Mapping[str, Any]) -> list[str]:
    kind = block.get("type")
    if kind == "section":
        out = []
        if "text" in block:
            out += _text(f"{where}.text", block["text"], SECTION_TEXT)
        fields = block.get("fields", [])
        if len(fields) > SECTION_FIELDS:
            out.append(f"{where}.fields: {len(fields)} > {SECTION_FIELDS}")
        for j, field in enumerate(fields):
            out += _text(f"{where}.fields[{j}]", field, FIELD_TEXT)
        if "text" not in block and not fields:
            out.append(f"{where}: section without text or fields")
        return out
    if kind == "context":
        elements = block.get("elements", [])
        out = [] if elements else [f"{where}: context without elements"]
        if len(elements) > CONTEXT_ELEMENTS:
            out.append(f"{where}.elements: {len(elements)} > {CONTEXT_ELEMENTS}")
        for j, element in enumerate(elements):
            out += _text(f"{where}.elements[{j}]", element, CONTEXT_TEXT)
        return out
    if kind == "header":
        return _text(f"{where}.text", block.get("text", {}), HEADER_TEXT, plain=True)
    if kind == "actions":
        return _actions(where, block.get("elements", []))
    if kind == "context_actions":
        return _context_actions(where, block.get("elements", []))
    if kind == "divider":
        return []
    return [f"{where}: unexpected block type {kind!r}"]


def _typed(
    where: str, elements: list[Mapping[str, Any]], kind: str, limit: int, element_type: str
) -> tuple[list[str], list[tuple[str, Mapping[str, Any]]]]:
    """The problems of an actions-like block's element list, and its elements of the one
    type it may hold, each with its place."""
    out = [] if elements else [f"{where}: {kind} without elements"]
    if len(elements) > limit:
        out.append(f"{where}.elements: {len(elements)} > {limit}")
    good = []
    for j, element in enumerate(elements):
        at = f"{where}.elements[{j}]"
        if element.get("type") == element_type:
            good.append((at, element))
        else:
            out.append(f"{at}: unexpected element type {element.get('type')!r}")
    return out, good


def _actions(where: str, elements: list[Mapping[str, Any]]) -> list[str]:
    out, buttons = _typed(where, elements, "actions", ACTIONS_ELEMENTS, "button")
    for at, element in buttons:
        out += _text(f"{at}.text", element.get("text", {}), BUTTON_TEXT, plain=True)
        if len(element.get("value", "")) > BUTTON_VALUE:
            out.append(f"{at}.value: longer than {BUTTON_VALUE}")
        if not 0 < len(element.get("action_id", "")) <= ID_CHARS:
            out.append(f"{at}.action_id: missing or longer than {ID_CHARS}")
    return out


def _context_actions(where: str, elements: list[Mapping[str, Any]]) -> list[str]:
    out, feedback = _typed(
        where, elements, "context_actions", CONTEXT_ACTIONS_ELEMENTS, "feedback_buttons"
    )
    for at, element in feedback:
        for side in ("positive_button", "negative_button"):
            button = element.get(side) or {}
            out += _text(f"{at}.{side}.text", button.get("text", {}), BUTTON_TEXT, plain=True)
            if not 0 < len(button.get("value", "")) <= BUTTON_VALUE:
                out.append(f"{at}.{side}.value: missing or longer than {BUTTON_VALUE}")
        if not 0 < len(element.get("action_id", "")) <= ID_CHARS:
            out.append(f"{at}.action_id: missing or longer than {ID_CHARS}")
    return out


def _text(where: str, obj: Mapping[str, Any], limit: int, *, plain: bool = False) -> list[str]:
    kind = obj.get("type")
    if kind not in ("plain_text", "mrkdwn") or (plain and kind != "plain_text"):
        return [f"{where}: bad text object type {kind!r}"]
    text = obj.get("text", "")
    out = []
    if kind == "mrkdwn" and obj.get("verbatim") is not True:
        out.append(f"{where}: mrkdwn without verbatim (Slack would auto-link bare URLs)")
    if not isinstance(text, str) or not text.strip():
        return [*out, f"{where}: empty text"]
    if len(text) > limit:
        out.append(f"{where}: {len(text)} chars > {limit}")
    return out + _escaping(where, text)


def _escaping(where: str, text: str) -> list[str]:
    out = [f"{where}: unescaped {ch!r}" for ch in "<>" if ch in text]
    out += [f"{where}: bare broadcast {m.group(0)!r}" for m in _BARE_BROADCAST.finditer(text)]
    return out
