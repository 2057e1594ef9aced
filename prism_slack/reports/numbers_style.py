"""A report's way of writing numbers, read once when it loads.

Most reports write ``1,234.5``. Some write ``1.234,5`` (a decimal comma, dots between
thousands: ``"248,3 Mio. EUR"``, ``"14.820"``). The style is taken from where the report
states it — a conventions field naming a locale (``"de-AT"``) or saying "decimal comma" —
else from its values, when those that can only be read one way (``248,3``, ``1.072,5``)
outnumber the others (``4.8%``, ``1,234.56``) three to one. A report in the decimal-comma
style is then read with its numbers written the English way (``english``), so every
reader — the typed facts, the verifier, the answerer — sees one form. Numbers that could be
either (``0,052``, ``14.820``) follow the report's style; dates (``31.12.2025``) are left
as they are.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from functools import cache
from importlib import resources
from typing import Any, cast

import yaml

_ONLY_COMMA = re.compile(r"(?<![\d.,])(?:\d{1,3}(?:\.\d{3})+,\d+|\d+,\d{1,2})(?![\d.,])")
"""A number only a decimal comma reads: ``1.072,5``, ``248,3``, ``4,8``."""
_ONLY_POINT = re.compile(r"(?<![\d.,])(?:\d{1,3}(?:,\d{3})+\.\d+|\d+\.\d{1,2})(?![\d.,])")
"""A number only a decimal point reads: ``1,234.56``, ``4.8``."""
_NUMBER = re.compile(
    r"(?<![\d.,])(?:(\d{1,3}(?:\.\d{3})+)(?:,(\d+))?(?![\d,]|\.\d)|(\d+),(\d+)(?![\d.,]))"
)
"""A number in the decimal-comma style: dots between thousands (``1.234,5``, ``14.820``) or a
decimal comma alone (``248,3``)."""
_NEGATIVE = re.compile(
    r"^\s*\((?!(?:19|20)\d\d\))(\d[\d.]*)\)(?=\s*(?:Mio|Mrd|Tsd|[A-Z]{3}\b|%|$))"
)
"""A value that is an amount in brackets, the accounting way of writing it below zero:
``(3,1) Mio. EUR``."""
MAJORITY = 3
"""How many times the one-way readings of one style must outnumber the other's."""
MIN_EVIDENCE = 3


@cache
def _table() -> dict[str, Any]:
    text = resources.files("prism_slack.data").joinpath("facts").joinpath("decimal_comma.yaml")
    return cast(dict[str, Any], yaml.safe_load(text.read_text("utf-8")))


@cache
def _words() -> re.Pattern[str]:
    words = sorted(cast(dict[str, str], _table()["words"]), key=len, reverse=True)
    alternatives = "|".join(re.escape(w) for w in words)
    return re.compile(rf"(?<=[\d)])(\s*)({alternatives})(?![\w.])")


@cache
def _months() -> re.Pattern[str]:
    names = sorted(cast(dict[str, str], _table()["months"]), key=len, reverse=True)
    return re.compile(rf"\b({'|'.join(re.escape(n) for n in names)})(?!\w)")


_DAY_DOT = re.compile(r"(?<![\d.])(\d{1,2})\.\s+(?=[A-Z][a-z]{2,8}\.?\s+(?:\d{4}|[-–]))")
"""A day written with a dot before its month: ``1. Apr. 2026``."""


def decimal_comma(data: Mapping[str, Any]) -> bool:
    """Does the report write its numbers with a decimal comma?"""
    texts = [text for _, text in _keyed_strings(data)]
    declared = _declared(data)
    if declared is not None:
        return declared
    comma = sum(len(_ONLY_COMMA.findall(t)) for t in texts)
    point = sum(len(_ONLY_POINT.findall(t)) for t in texts)
    return comma >= MIN_EVIDENCE and comma >= MAJORITY * point


def english(text: str) -> str:
    """``text`` of a decimal-comma report with its numbers written the English way:
    ``"248,3 Mio. EUR"`` → ``"248.3 million EUR"``, ``"14.820"`` → ``"14,820"``."""
    text = _NUMBER.sub(_english_number, text)
    text = _NEGATIVE.sub(r"-\1", text)
    words = cast(dict[str, str], _table()["words"])
    text = _words().sub(lambda m: f"{m.group(1) or ' '}{words[m.group(2)]}", text)
    months = cast(dict[str, str], _table()["months"])
    text = _months().sub(lambda m: months[m.group(1)], text)
    return _DAY_DOT.sub(r"\1 ", text)


def english_data(data: Any) -> Any:
    """``data`` with every string value read by ``english`` (keys as they are)."""
    if isinstance(data, Mapping):
        return {k: english_data(v) for k, v in data.items()}
    if isinstance(data, list):
        return [english_data(v) for v in data]
    return english(data) if isinstance(data, str) else data


def _english_number(m: re.Match[str]) -> str:
    grouped, fraction, whole, decimals = m.groups()
    if grouped is None:
        return f"{whole}.{decimals}"
    return grouped.replace(".", ",") + (f".{fraction}" if fraction else "")


def _declared(data: Mapping[str, Any]) -> bool | None:
    """What a conventions field says (``Locale: "de-AT — decimal comma…"``), if any."""
    table = _table()
    phrases = [p.lower() for p in table["phrases"]]
    locales = "|".join(table["locales"])
    code = re.compile(rf"^(?:{locales})(?:[-_][A-Za-z]{{2}})?\b")
    for key, value in _keyed_strings(data):
        lowered = key.lower()
        if "locale" not in lowered and not ("number" in lowered and "format" in lowered):
            continue
        said = value.strip()
        if any(p in said.lower() for p in phrases) or code.match(said):
            return True
        if re.match(r"^en(?:[-_][A-Za-z]{2})?\b", said) or "decimal point" in said.lower():
            return False
    return None


def _keyed_strings(data: Any, key: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(data, Mapping):
        for k, v in data.items():
            yield from _keyed_strings(v, str(k))
    elif isinstance(data, list):
        for v in data:
            yield from _keyed_strings(v, key)
    elif isinstance(data, str):
        yield key, data
