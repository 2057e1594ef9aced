"""The context of a number in its clause: a bound (``over``, ``at most``), a hedge
(``about 1,200`` is 1,200 ± 50) and a direction (``fell``, ``was down``; a level after
``to``/``from``/``at``; ``turn down`` is a verb; a participle before a noun opening its
clause, ``Contracted carriers``, is an adjective). A year after ``before``/``prior to``/
``after`` is bounded (``prior to 1956`` ⊨ 1951)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal
from typing import Literal

from prism_slack import language
from prism_slack.language import words
from prism_slack.verify import lexicon
from prism_slack.verify.quantity import Bound, Direction, QKind, Quantity

_BOUND_PHRASES = sorted([*lexicon.BOUNDS, *lexicon.HEDGES], key=len, reverse=True)
_BOUND_TAIL = re.compile(
    r"(?:^|[^\w~])(" + "|".join(re.escape(p) for p in _BOUND_PHRASES) + r")(?:\s*|-)$", re.I
)
_BOUND_NAMES: dict[str, Bound] = {"gt": "gt", "ge": "ge", "lt": "lt", "le": "le"}
_SENTENCE_CUT = re.compile(r"[.;!?](?:\s|$)")


def with_context(text: str, quantities: list[Quantity]) -> list[Quantity]:
    out = []
    for i, q in enumerate(quantities):
        if q.kind not in (QKind.NUMBER, QKind.PERCENT, QKind.CURRENCY):
            out.append(q)
            continue
        prev_end = quantities[i - 1].end if i else 0
        next_start = quantities[i + 1].start if i + 1 < len(quantities) else len(text)
        before = text[prev_end : q.start]
        bound, hedge_len = _bound(before)
        near = bound != "hedge" and before[len(before) - hedge_len :].lower().startswith(
            lexicon.NEAR_BOUND_WORDS
        )
        if bound == "eq" and q.year_like:
            bound = _year_bound(before)
        tolerance = _hedged(q) if bound == "hedge" else q.tolerance
        direction = (
            None
            if q.explicit_sign or q.share
            else _direction(before[: len(before) - hedge_len], text[q.end : next_start])
        )
        bound = "eq" if bound == "hedge" else bound
        same = tolerance is q.tolerance and (bound, near, direction) == (
            q.bound,
            q.near,
            q.direction,
        )
        out.append(
            q
            if same  # most figures have no context: the scanned quantity stands as it is
            else replace(q, bound=bound, near=near, tolerance=tolerance, direction=direction)
        )
    return out


def _bound(before: str) -> tuple[Bound | Literal["hedge"], int]:
    """The bound or hedge phrase right before a number, and its length in ``before``."""
    m = _BOUND_TAIL.search(before)
    if m is None:
        return "eq", 0
    phrase = re.sub(r"\s+", " ", m.group(1).lower())
    length = len(before) - m.start(1)
    bound = _BOUND_NAMES.get(lexicon.BOUNDS.get(phrase, ""))
    return (bound, length) if bound is not None else ("hedge", length)


_YEAR_BOUNDS: dict[str, Bound] = {
    "before": "lt", "prior to": "lt", "earlier than": "lt",
    "after": "gt", "later than": "gt",
}  # fmt: skip
_YEAR_BOUND_TAIL = re.compile(
    r"(?:^|\W)(" + "|".join(re.escape(p) for p in _YEAR_BOUNDS) + r")\s+(?:the\s+year\s+)?$",
    re.I,
)


def _year_bound(before: str) -> Bound:
    """``before 1956``, ``prior to 1956``, ``after 1985``: a bound on a year."""
    m = _YEAR_BOUND_TAIL.search(before)
    return _YEAR_BOUNDS[re.sub(r"\s+", " ", m.group(1).lower())] if m else "eq"


HALF = Decimal("0.5")


def _hedged(q: Quantity) -> Decimal:
    """Tolerance of a hedged integer: its trailing zeros are not significant (``nearly
    1,900`` or ``nearly nineteen hundred`` is 1,900 ± 50)."""
    digits = re.sub(r"\D", "", q.text.split(".")[0])
    if not digits and q.tolerance == HALF and q.value == q.value.to_integral_value():
        digits = str(int(q.value))  # in words, to the unit: "nineteen hundred"
    if "." in q.text or not digits or set(digits) == {"0"}:
        return q.tolerance
    zeros = len(digits) - len(digits.rstrip("0"))
    return q.tolerance * Decimal(10) ** zeros


def _clause_words(segment: str, *, backward: bool, limit: int) -> list[str]:
    """Words of ``segment`` nearest the number, up to a clause break or ``limit`` words."""
    parts = _SENTENCE_CUT.split(segment)
    segment = parts[-1] if backward else parts[0]
    if not backward:
        segment = segment.split(",", 1)[0]
    tokens = words(segment)
    ordered = list(reversed(tokens)) if backward else tokens
    out: list[str] = []
    for token in ordered:
        if token in lexicon.CLAUSE_BREAKS or len(out) == limit:
            break
        out.append(token)
    return out


def _direction(before: str, after: str) -> Direction | None:
    back = _clause_words(before, backward=True, limit=_CLAUSE_LIMIT)
    if any(w in lexicon.NEGATORS for w in back):
        return "down"
    nearest = next((w for w in back if w not in lexicon.DETERMINERS), None)
    if nearest in lexicon.LEVEL_MARKERS:
        return None  # ``fell to 4%``, ``fell below the 95% guarantee``: a level, no change
    for i, word in enumerate(back):
        if i + 1 < len(back) and back[i + 1] in lexicon.PHRASAL_HEADS:
            continue  # "turn down", "shut down": a verb, not a direction
        if i and _attributive(back, i):
            continue  # "Contracted carriers turn down …": an adjective of a noun
        found = _direction_of(word, None)
        if found:
            return found
    ahead = _clause_words(after, backward=False, limit=3)
    for i, word in enumerate(ahead):
        found = _direction_of(word, ahead[i + 1] if i + 1 < len(ahead) else None)
        if found:
            return found
    return None


_CLAUSE_LIMIT = 5


def _attributive(back: list[str], i: int) -> bool:
    """Is ``back[i]`` (words read backward from a number) a participle before the noun
    and verb of its clause, opening it or after a determiner (``Contracted carriers
    turn down …``, ``the reduced fleet carries …``), rather than a verb of the number
    (``revenue contracted 5%``, ``Reduced churn by 5%``)?"""
    opens = i + 1 == len(back) < _CLAUSE_LIMIT or (
        i + 1 < len(back) and back[i + 1] in lexicon.DETERMINERS
    )
    subject = i >= 2 and language.noun(back[i - 1]) and language.verb(back[i - 2])
    return opens and back[i].endswith("ed") and subject


def directions(tokens: Sequence[str]) -> dict[int, int]:
    """The direction words anywhere in ``tokens``, by position, with the sign each says:
    1 up, -1 down. Not directions: a negator, a phrasal verb (``turn down``, ``take up``,
    ``drop out``), a participle before its noun (``contracted carriers``, ``reduced
    fleet``)."""
    said: dict[int, int] = {}
    for i, word in enumerate(tokens):
        if word in lexicon.NEGATORS or (i and tokens[i - 1] in lexicon.PHRASAL_HEADS):
            continue
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        if word.endswith("ed") and after and language.noun(after) and not language.verb(after):
            continue
        found = _direction_of(word, after)
        if found:
            said[i] = 1 if found == "up" else -1
    return said


def _direction_of(word: str, following: str | None) -> Direction | None:
    if following in lexicon.PARTICLES:
        return None  # ``drop off``, ``drop out``, ``fall through``: another verb
    if word in lexicon.DIRECTION_DOWN:
        return "down"
    if word in lexicon.DIRECTION_UP:
        return "up"
    return None
