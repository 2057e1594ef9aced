"""Is an untagged reply in a thread PRISM is engaged in meant for PRISM? (DESIGN §13)

``for_prism(text, bot_user_id)`` is a pure function of the reply's raw Slack text. It says
yes only for a follow-up question or an instruction; a remark to colleagues, thanks, an
acknowledgement, logistics or a message that names someone else is not for PRISM. Under
doubt the answer is no: in a channel, a wrong answer is noise for everyone, while the rep
can always @mention PRISM (a mention is never judged here).
"""

from __future__ import annotations

import re
from typing import NamedTuple


class Addressed(NamedTuple):
    """The verdict on one reply, with why (logged when a reply is skipped)."""

    for_prism: bool
    reason: str


_MENTION = re.compile(r"<@([A-Z0-9]+)(?:\|[^>]*)?>")
_BROADCAST = re.compile(r"<!(?:here|channel|everyone|subteam\^)")
_MARKUP = re.compile(r"<[^>]*>")

_NOT_NAMES = frozenset(
    """
    also and anyway are but can cool could did do does got great hey hi how hmm i if is
    it just maybe nice no now ok okay perfect please prism should so sorry sure tell
    thanks that then this thx well what when where which who why will would yeah yep yes
    """.split()  # noqa: SIM905 (a word list reads better as words)
)
"""Capitalised first words that are not a colleague's name (``Also, …``, ``Great, …``)."""

_TO_A_COLLEAGUE = re.compile(
    r"(?:^|[.,;:!?—–-]\s*)(?:(?i:hey|hi|thanks|thank you|ty)\s+)?([A-Z][a-z]{1,20})"
    r"(?:\s*[,:]|\s+(?:can|could|would|will|please|pls|do|did|are|you)\b)"
)
"""A colleague spoken to by name: ``Dana, …``, ``— Dana can you …``, ``thanks Sam, …``."""

_TO_PEOPLE = re.compile(
    r"\b(?:anyone|anybody|someone|somebody|everyone|you guys|y'all|folks|team|guys|"
    r"you two|you both|both of you|all of you)\b",
    re.IGNORECASE,
)
_FIRST_PERSON_PLAN = re.compile(
    r"\b(?:i'll|i will|i'm going to|i am going to|let me|let's|we'll|we will|we should|"
    r"i'll take it|on it|will do)\b",
    re.IGNORECASE,
)
_LOGISTICS = re.compile(
    r"\b(?:deck|slides|invite|calendar|zoom|meet(?:ing)?|lunch|dinner|standup|sync|agenda|"
    r"notes|what time|call (?:at|on|tomorrow|today)|when(?:'s| is) (?:the|our) call|"
    r"send (?:me|it|over|the)|forward|cc|loop (?:in|me)|dm me|ping me|talk (?:later|soon))\b",
    re.IGNORECASE,
)
_ACKNOWLEDGEMENT = re.compile(
    r"^(?:thanks|thank you|thx|ty|cheers|great|nice|cool|perfect|awesome|got it|ok(?:ay)?|"
    r"sounds good|makes sense|lol|haha|yes|yep|yup|no|nope|sure|agreed|same|exactly|"
    r"\+1|:[a-z0-9_+-]+:)",
    re.IGNORECASE,
)
_QUESTION_START = re.compile(
    r"^(?:and |so |also |ok(?:ay)?,? |thanks,? |great,? )?"
    r"(?:what|what's|whats|how|why|when|where|which|who|whose|is|are|was|were|does|do|did|"
    r"can|could|should|would|will|has|have|any)\b",
    re.IGNORECASE,
)
_REQUEST = re.compile(
    r"^(?:and |so |also |ok(?:ay)?,? |thanks,? |great,? |now |please )?"
    r"(?:tell|show|give|list|summari[sz]e|explain|compare|break|expand|elaborate|draft|"
    r"write|cite|quote|dig|go deeper|more (?:on|about|detail)|what about|how about|"
    r"same for|now for|rank|outline|suggest|recommend)\b",
    re.IGNORECASE,
)


def for_prism(text: str, bot_user_id: str | None) -> Addressed:
    """Whether an untagged thread reply (raw Slack text) is a follow-up for PRISM."""
    if any(m.group(1) != bot_user_id for m in _MENTION.finditer(text)):
        return Addressed(False, "mentions someone else")
    if _BROADCAST.search(text):
        return Addressed(False, "calls on a group (@here, @channel, a user group)")
    words = " ".join(_MARKUP.sub(" ", text).split())
    if not words:
        return Addressed(False, "no words")
    named = next(
        (
            m.group(1)
            for m in _TO_A_COLLEAGUE.finditer(words)
            if m.group(1).lower() not in _NOT_NAMES
        ),
        None,
    )
    if named is not None:
        return Addressed(False, "speaks to a colleague by name")
    if _TO_PEOPLE.search(words):
        return Addressed(False, "speaks to the people in the thread")
    if _FIRST_PERSON_PLAN.search(words) or _LOGISTICS.search(words):
        return Addressed(False, "logistics between colleagues")
    asks = "?" in words or _QUESTION_START.search(words) is not None
    if asks or _REQUEST.search(words):
        return Addressed(True, "a follow-up question or request")
    if _ACKNOWLEDGEMENT.search(words):
        return Addressed(False, "thanks or an acknowledgement")
    return Addressed(False, "no question or request (under doubt PRISM stays quiet)")
