"""Make untrusted text safe for Slack mrkdwn: nothing from a model or a report pings or links.

Slack treats ``&``, ``<`` and ``>`` as control characters and documents escaping exactly
those three as HTML entities; with them escaped, ``<!channel>``, ``<@U123>``, ``<#C1>``,
``<!subteam^S1>`` and ``<https://…|links>`` show as plain text. Bare ``@channel``,
``@here`` and ``@everyone`` get a zero-width joiner after the ``@`` so no client or
``link_names`` setting turns them into a broadcast.

``defang`` is applied exactly once to each untrusted string, before our own formatting is
added; ``undefang`` is its exact inverse (tests and logs use it).

Text from a report (claims, footnote values, company names) also goes through ``as_text``:
Slack has no escape for its formatting characters, so ``*``, `````, ``~`` and an ``_`` that
could open or close italics are replaced with look-alikes that format nothing (``∗``,
``ˋ``, ``∼``, ``ˍ``). ``*bold*`` in a report value then reads as written, not as bold.
"""

from __future__ import annotations

import re

ZWJ = "\u200d"
"""Zero-width joiner: invisible, and breaks ``@here`` into something that never pings."""

_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_UNESCAPES = {"amp": "&", "lt": "<", "gt": ">"}
_CONTROL = re.compile(r"[&<>]")
_ENTITY = re.compile(r"&(amp|lt|gt);")

# An '@' before a broadcast word, allowing joiners already there so that the mapping stays
# one-to-one: defang adds exactly one joiner, undefang removes exactly one.
_BROADCAST = r"(?=" + ZWJ + r"*(?:channel|here|everyone))"
_PING = re.compile("@" + _BROADCAST, re.IGNORECASE)
_UNPING = re.compile("@" + ZWJ + _BROADCAST, re.IGNORECASE)


def defang(text: str) -> str:
    """``text`` escaped for Slack mrkdwn: no ``<``/``>`` left, broadcasts neutralised."""
    escaped = _CONTROL.sub(lambda m: _ESCAPES[m.group(0)], text)
    return _PING.sub("@" + ZWJ, escaped)


_FORMATTING = re.compile(r"[*`~]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
_INERT = {"*": "\u2217", "`": "\u02cb", "~": "\u223c", "_": "\u02cd"}


def as_text(text: str) -> str:
    """``defang(text)`` with Slack's mrkdwn formatting characters made inert."""
    return _FORMATTING.sub(lambda m: _INERT[m.group(0)], defang(text))


def undefang(text: str) -> str:
    """The exact inverse of ``defang``: ``undefang(defang(x)) == x`` for every string."""
    unpinged = _UNPING.sub("@", text)
    return _ENTITY.sub(lambda m: _UNESCAPES[m.group(1)], unpinged)
