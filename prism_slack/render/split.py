"""Cut and clip text to a length without breaking what must stay whole.

Text is cut at the gentlest boundary that fits: lines, then sentences, then spaces, and
only as a last resort between *atoms*. An atom is a character, or something that must never
be cut in half: an escaped entity (``&amp;``), a defanged ``@`` with its joiner, or a
citation marker (``[12]``). Only ASCII spaces, tabs and newlines count as breaks, so text
glued with a no-break space (a sentence and its citations) stays together.
"""

from __future__ import annotations

import re

from prism_slack.render.defang import ZWJ

ELLIPSIS = "…"

_LINES = re.compile(r"[^\n]*\n|[^\n]+")
_SENTENCES = re.compile(r".*?[.!?][ \t\n]+|.+", re.DOTALL)
_WORDS = re.compile(r"[^ \t\n]+[ \t\n]*|[ \t\n]+")
_ATOMS = re.compile(r"&(?:amp|lt|gt);|@" + ZWJ + r"{1,16}|\[\d{1,9}\]|.", re.DOTALL)
_LEVELS = (_LINES, _SENTENCES, _WORDS, _ATOMS)
_MAX_ATOM = 17
"""The longest atom: an ``@`` and 16 joiners."""
_MIN_LIMIT = 32
"""Longer than any atom, so every cut can make progress."""


def split_text(text: str, limit: int) -> list[str]:
    """``text`` in consecutive chunks of at most ``limit`` characters.

    ``"".join(result) == text``; each chunk is non-empty and ends on a boundary (its
    separator stays at the end of the chunk). An empty ``text`` gives ``[]``.
    """
    if limit < _MIN_LIMIT:
        raise ValueError(f"limit must be at least {_MIN_LIMIT}, got {limit}")
    if not text:
        return []
    return _split(text, limit, 0)


def _split(text: str, limit: int, level: int) -> list[str]:
    if len(text) <= limit:
        return [text]
    units: list[str] = []
    for piece in _LEVELS[level].findall(text):
        if len(piece) > limit:
            units.extend(_split(piece, limit, level + 1))
        else:
            units.append(piece)
    chunks: list[str] = []
    current = ""
    for unit in units:
        if current and len(current) + len(unit) > limit:
            chunks.append(current)
            current = unit
        else:
            current += unit
    if current:
        chunks.append(current)
    return chunks


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, ending in "…" when cut (never mid-atom)."""
    if len(text) <= limit:
        return text
    budget = limit - len(ELLIPSIS)
    out: list[str] = []
    used = 0
    # Atoms are short, so a prefix a little longer than the budget holds every atom needed.
    for atom in _ATOMS.findall(text, 0, limit + _MAX_ATOM):
        if used + len(atom) > budget:
            break
        out.append(atom)
        used += len(atom)
    return "".join(out).rstrip() + ELLIPSIS


_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")


def clip_sentence(text: str, limit: int) -> str:
    """``text`` within ``limit``, cut after the last whole sentence that fits (marked "…")
    when one fits in the last two thirds, else as ``clip`` cuts it."""
    if len(text) <= limit:
        return text
    head = clip(text, limit)
    ends = [m.end() for m in _SENTENCE_END.finditer(head)]
    if ends and ends[-1] >= limit // 3 and ends[-1] + 2 <= limit:
        return head[: ends[-1]] + " " + ELLIPSIS
    return head
