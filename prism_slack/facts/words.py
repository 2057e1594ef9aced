"""The word lists the typed-fact compiler reads keys and values with: data files in
``prism_slack/data/facts/``, one concept per file, loaded once."""

from __future__ import annotations

import re
from functools import cache, lru_cache
from importlib import resources
from typing import cast

import yaml

_CAMEL = re.compile(
    r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[a-z])(?=[0-9])|(?<=[0-9])(?=[a-z])"
)
_SPLIT = re.compile(r"[^0-9A-Za-z%&]+")


def _text(name: str) -> str:
    return resources.files("prism_slack.data").joinpath("facts").joinpath(name).read_text("utf-8")


@cache
def word_set(name: str) -> frozenset[str]:
    """One ``*.txt`` list: a word a line, ``#`` comments."""
    lines = (line.strip() for line in _text(f"{name}.txt").splitlines())
    return frozenset(line.lower() for line in lines if line and not line.startswith("#"))


@cache
def mapping(name: str) -> dict[str, object]:
    return cast(dict[str, object], yaml.safe_load(_text(f"{name}.yaml")))


@lru_cache(maxsize=65536)
def key_words(key: str) -> list[str]:
    """A key's words in any case style: ``grossWrittenPremium``, ``gross_written_premium``,
    ``Gross Written Premium`` and ``"NPS (2025)"`` all split into lower-case words."""
    out: list[str] = []
    for part in _SPLIT.split(key):
        if part:
            out += [w.lower() for w in _CAMEL.split(part) if w]
    return out


def currency_code(token: str) -> str | None:
    """``GBP``, ``£``, ``euros`` → the ISO code; anything else → ``None``."""
    table = mapping("currencies")
    t = token.strip()
    symbols = cast(dict[str, str], table["symbols"])
    if t in symbols:
        return symbols[t]
    if t.upper() in cast(list[str], table["codes"]):
        return t.upper()
    return cast(dict[str, str], table["words"]).get(t.lower())


def scale_factor(word: str) -> float | None:
    factor = mapping("scales").get(word.lower())
    return float(cast(int, factor)) if factor is not None else None


def duration_unit(word: str) -> str | None:
    unit = mapping("durations").get(word.lower())
    return cast(str, unit) if unit is not None else None


MEASURE_LABEL_KEYS = word_set("measure_label_keys")
"""Keys of a row's cell that names what its value measures (``{metric: "Logo churn",
value: 12.5}``, ``{concept: "Revenue", value: …}``)."""
ROW_LABEL_KEYS = MEASURE_LABEL_KEYS | word_set("thing_label_keys")
"""Keys of a row's cell that labels its value: its measure, or the thing it is of."""
QUALIFIER_KEYS = word_set("qualifier_keys")
"""Keys of a row's cell that says which part of the business its figure is of."""
UNIT_KEYS = word_set("unit_keys")
"""Keys (words joined by ``_``) of a field that states the unit of the value beside it."""
VALUE_META_KEYS = word_set("value_meta_keys")
"""Keys (words joined by ``_``) of a value object's fields that say what its value is
measured in, of, or when: ``unit``, ``unitRef``, ``period``, ``decimals``, …"""

_LABELLED = re.compile(r"\s*([^\W\d][^:;]{0,58}?)\s*:\s+\S")


def labelled(text: str) -> str | None:
    """The label of a string written as a label and its value (``Revenue: AUD 188.4
    million``, ``Baker's Lane: Sydney artisan wholesaler``), or ``None``."""
    m = _LABELLED.match(text)
    return m[1] if m else None


CURRENCY_SYMBOL = {"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥"}
