"""Terminal rendering of a turn, for ``prism ask`` and ``prism chat``.

Lays out the same ``View`` as the Block Kit renderer. Text from the model or a report is
stripped of control characters, so a report value cannot drive the terminal; ANSI colour
is added only when asked for.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from prism_slack.pipeline.result import TurnResult
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
    withheld_text,
)
from prism_slack.verdict import Label

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")

_RESET = "\x1b[0m"
_BOLD = "\x1b[1m"
_DIM = "\x1b[2m"
_RED = "\x1b[31m"
_GREEN = "\x1b[32m"
_YELLOW = "\x1b[33m"
_BLUE = "\x1b[34m"
_CYAN = "\x1b[36m"

_LABEL_STYLE = {
    Label.EVIDENCE_LINKED: _GREEN + _BOLD,
    Label.EVIDENCE_LINKED_PARTIAL: _YELLOW + _BOLD,
    Label.UNGROUNDED: _RED + _BOLD,
    Label.COACHING_ONLY: _BLUE + _BOLD,
}

Style = Callable[[str, str], str]


def render_text(result: TurnResult, *, color: bool = False) -> str:
    """``result`` as terminal text (no trailing newline); ANSI colour only when ``color``."""
    view = build_view(result)
    paint: Style = _ansi if color else _plain
    blocks: list[list[str]] = []
    top = []
    if view.header:
        top.append(paint(HEADER_SEPARATOR.join(_safe(p) for p in view.header), _BOLD))
    if view.notice:
        top.append(paint(f"» {_safe(view.notice)}", _CYAN))
    blocks.append(top)
    if not view.answered:
        blocks.append([_safe(view.message or "")])
        blocks.append([f"  • {_safe(c)}" for c in view.candidates])
        return _join(blocks)
    answer = [_claim_line(line, paint, view) for line in view.answer]
    if view.empty_answer:
        answer.append(paint(NO_ANSWER_TEXT, _DIM))
    blocks.append(answer)
    if view.coaching:
        title = paint(f"{COACHING_TITLE}:", _YELLOW + _BOLD)
        blocks.append([title, *(f"  • {_claim_line(line, paint, view)}" for line in view.coaching)])
    # path first: the dev corpora's scorers read a terminal footnote as `[n] path = value`
    notes = [footnote_text(f, path=_safe, text=_safe, labelled=False) for f in view.footnotes]
    blocks.append([paint(note, _DIM) for note in notes])
    closing = []
    if view.withheld:
        closing.append(paint(withheld_text(view.withheld), _YELLOW))
    if view.label and view.label_text:
        closing.append(paint(view.label_text, _LABEL_STYLE[view.label]))
    if view.plain:
        closing.append(paint(view.plain, _DIM))
    blocks.append(closing)
    return _join(blocks)


def _claim_line(line: ViewLine, paint: Style, view: View) -> str:
    text = _safe(line.shown(view.footnotes))
    if line.citations:
        text += " " + paint("".join(f"[{n}]" for n in line.citations), _CYAN)
    if line.rewritten:
        text += " " + paint(REWORDED_MARK, _DIM)
    if line.unchecked:
        text += " " + paint(UNCHECKED_MARK, _DIM)
    return text


def _join(blocks: list[list[str]]) -> str:
    return "\n\n".join("\n".join(block) for block in blocks if block)


def _safe(text: str) -> str:
    """Untrusted text without control characters (escape sequences, carriage returns)."""
    return _CONTROL.sub("\ufffd", text)


def _plain(text: str, _style: str) -> str:
    return text


def _ansi(text: str, style: str) -> str:
    return f"{style}{text}{_RESET}"
