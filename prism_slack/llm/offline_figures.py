"""Figures in a report's prose, read just well enough to tell whether a passage agrees with
a field: the offline answerer never quotes a passage beside a field when the passage states
a different amount or percentage for the very thing the field measures ("revenue is $5B"
beside ``revenue_usd = 412500000``).

Only money and percentages are compared: they carry their kind in the text ($, %), so a
passage's figure can be set against a field's without guessing what a bare number counts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Literal

from prism_slack.evidence import Scalar
from prism_slack.llm import lexicon
from prism_slack.llm.offline_index import CURRENCIES, KEY_SCALES

Kind = Literal["money", "pct"]


@dataclass(frozen=True, slots=True)
class Figure:
    kind: Kind
    value: Decimal
    precision: Decimal
    """Half a unit of the last digit shown: ``$412.5M`` is 412.5M ± 0.05M."""

    def matches(self, value: Decimal) -> bool:
        return abs(self.value - value) <= self.precision


_SCALE = {"k": 3, "thousand": 3, "m": 6, "mm": 6, "million": 6, "b": 9, "bn": 9, "billion": 9}
_TEXT_FIGURE = re.compile(
    r"(?P<money>[$€£]|\b(?:USD|EUR|GBP)\s?)?(?P<num>\d[\d,]*(?:\.\d+)?)\s?"
    r"(?P<scale>thousand|million|billion|bn|mm|[kmb])?(?![a-z])\s?(?P<pct>%|percent\b)?",
    re.IGNORECASE,
)


def text_figures(text: str) -> list[Figure]:
    """The amounts of money and the percentages ``text`` states."""
    out: list[Figure] = []
    for m in _TEXT_FIGURE.finditer(text):
        kind: Kind | None = "pct" if m.group("pct") else "money" if m.group("money") else None
        if kind is None:
            continue
        number = m.group("num").replace(",", "")
        try:
            value = Decimal(number)
        except InvalidOperation:
            continue
        exponent = _SCALE.get((m.group("scale") or "").lower(), 0)
        decimals = len(number.partition(".")[2])
        scale = Decimal(10) ** exponent
        out.append(Figure(kind, value * scale, Decimal(5) * scale / Decimal(10) ** (decimals + 1)))
    return out


def field_kind(keys: tuple[str, ...], value: Scalar) -> tuple[Kind, Decimal] | None:
    """A numeric field's kind and value as prose would state it (a stored fraction such
    as ``churn_rate = 0.0366`` as the percentage 3.66), or ``None`` when it is neither money
    nor a percentage."""
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not keys:
        return None
    words = set(lexicon.key_words(keys[-1]))
    number = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    if words & CURRENCIES.keys():
        scale = next((KEY_SCALES[w] for w in words if w in KEY_SCALES), 0)
        return "money", number * Decimal(10) ** scale
    if words & {"pct", "percent"}:
        return "pct", number
    if isinstance(value, float) and abs(value) < 1 and words & {"rate", "margin", "churn"}:
        return "pct", number * 100
    return None


def contradicts(passage: str, *, subject: frozenset[str], kind: Kind, value: Decimal) -> bool:
    """``passage`` speaks of ``subject`` (every term of the field's name), states figures
    of the field's kind, and none of them is the field's value. A passage about a target,
    goal or benchmark states what should be, not what is: it never contradicts."""
    terms = set(lexicon.text_terms(passage))
    if not subject or not subject <= terms or "target" in terms:
        return False
    stated = [f for f in text_figures(passage) if f.kind == kind]
    return bool(stated) and not any(f.matches(abs(value)) for f in stated)
