"""Text normalisation shared by every check: folding, word tokens, light stems, path words,
and the *squashed* form names are compared in.

- ``fold``: Unicode compatibility-decompose, drop accents, straighten quotes and dashes.
  Offsets are preserved for the characters the grammars look at (one char in, one out),
  so spans found in folded text index the original claim text too.
- word tokens and stems come from ``prism_slack.language`` (shared with the answerer);
- ``squash``: a name as its lower-case alphanumeric tokens run together, with the offsets
  where tokens start/end (``Hub-Spot`` and ``HubSpot`` both squash to ``hubspot``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import NamedTuple

from prism_slack.verify import lexicon

_TRANSLATE = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u2032": "'",
        "\u2212": "-",  # minus sign
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",  # en dash
        "\u2014": "-",  # em dash
        "\u00a0": " ",
        "\u2009": " ",
        "\u202f": " ",
    }
)


def fold(text: str) -> str:
    """Same length as ``text``: accents dropped, quotes/dashes/spaces made ASCII."""
    translated = text.translate(_TRANSLATE)
    if translated.isascii():
        return translated
    out = []
    for ch in translated:
        if ord(ch) < 128:
            out.append(ch)
            continue
        base = unicodedata.normalize("NFKD", ch)
        ascii_part = "".join(c for c in base if not unicodedata.combining(c))
        out.append(ascii_part[0] if len(ascii_part) == 1 and ord(ascii_part[0]) < 128 else ch)
    return "".join(out)


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_PATH_SPLIT = re.compile(r"[^0-9A-Za-z%&'$€£]+")
"""Between a path's words: dots, brackets, quotes, spaces and any punctuation a key that
is a label carries (``Vessel wait before berth, median (hrs, FY2025)``)."""


PREFIX_LEN = 6
"""Two words of at least this length that share this many first letters match in check 7's
content count (``conversion``/``converts``, ``membership``/``members``)."""


def years_of(text: str) -> frozenset[str]:
    """The years a text names: ``2025``, ``FY2025``, ``CY2025``, ``FY25``."""
    found = set(re.findall(r"(?:\b|(?<=fy)|(?<=cy))((?:19|20)\d{2})\b", text, re.IGNORECASE))
    return frozenset(found | {f"20{y}" for y in re.findall(r"\bFY\s?'?(\d{2})\b", text, re.I)})


def prefix(word: str) -> str | None:
    return word[:PREFIX_LEN] if len(word) >= PREFIX_LEN and word.isalpha() else None


def path_words(path: str) -> list[str]:
    """Words of a field path: ``metrics.trialConversion_pct[2]`` → trial, conversion, pct.

    List indexes are dropped; ``metrics`` and every other key along the path are kept.
    """
    return list(_path_words(path))


@lru_cache(maxsize=65536)
def _path_words(path: str) -> tuple[str, ...]:  # a report's paths, read by every claim
    out = []
    for part in _PATH_SPLIT.split(path):
        if not part or part.isdigit():
            continue
        out += [w.lower() for w in _CAMEL.split(part) if w]
    return tuple(out)


class ListItem(NamedTuple):
    """Where a field path reaches into a list: ``company.plants[2].site`` is field
    ``site`` of item 2 of ``company.plants``."""

    list_path: str
    item: int
    field: str
    """The rest of the path within the item (``""`` for the item itself)."""

    @property
    def path(self) -> str:
        return f"{self.list_path}[{self.item}]"


_ITEM = re.compile(r"\[(\d+)\]")


def list_items(path: str) -> list[ListItem]:
    """Every list item ``path`` reaches into, outermost first."""
    return list(_list_items(path))


@lru_cache(maxsize=65536)
def _list_items(path: str) -> tuple[ListItem, ...]:
    return tuple(
        ListItem(path[: m.start()], int(m.group(1)), path[m.end() :].lstrip("."))
        for m in _ITEM.finditer(path)
    )


def list_item(path: str) -> ListItem | None:
    """The innermost list item ``path`` reaches into, or ``None`` outside lists; a cell of
    a table stored as rows (``people.rows[2][1]``) is field ``[1]`` of row 2."""
    items = _list_items(path)
    if len(items) > 1 and not items[-1].field and items[-2].field == f"[{items[-1].item}]":
        return items[-2]
    return items[-1] if items else None


def path_phrases(path: str) -> list[str]:
    """Each key of a path as a phrase: ``tech_stack.website_cms`` → ``tech stack``,
    ``website cms``."""
    out = []
    for key in re.split(r"[.\[\]\"]+", path):
        if key and not key.isdigit():
            out.append(" ".join(w.lower() for w in re.split(r"[_\-\s]+", key) if w))
    return out


_NAME_TOKEN = re.compile(r"[a-z0-9]+")


def name_tokens(text: str) -> list[str]:
    """Lower-case alphanumeric tokens of a name, possessive ``'s`` dropped."""
    folded = fold(text).lower().replace("&", " and ")  # ``R&D`` is ``r and d``
    folded = re.sub(r"'s\b", "", folded)
    folded = folded.replace("'", "")
    return _NAME_TOKEN.findall(folded)


def strip_legal(tokens: Sequence[str]) -> list[str]:
    """Drop trailing legal-form tokens: ``northwind outfitters inc`` → ``northwind outfitters``."""
    out = list(tokens)
    while len(out) > 1 and out[-1] in lexicon.LEGAL_SUFFIXES:
        out.pop()
    return out


@dataclass(frozen=True, slots=True)
class Squashed:
    """A text's name tokens run together, with the offsets where tokens meet."""

    text: str
    bounds: frozenset[int]

    def contains(self, needle: str) -> bool:
        """True when ``needle`` (squashed) occurs here starting and ending on token bounds."""
        if not needle:
            return False
        start = self.text.find(needle)
        while start != -1:
            if start in self.bounds and start + len(needle) in self.bounds:
                return True
            start = self.text.find(needle, start + 1)
        return False


def squash(tokens: Iterable[str]) -> Squashed:
    text = ""
    bounds = {0}
    for token in tokens:
        text += token
        bounds.add(len(text))
    return Squashed(text, frozenset(bounds))


def squash_text(text: str) -> Squashed:
    """Squashed form of free text, legal suffixes dropped wherever they stand."""
    return squash(t for t in name_tokens(text) if t not in lexicon.LEGAL_SUFFIXES)


def squash_name(text: str) -> str:
    """The squashed string of one name (trailing legal suffixes dropped)."""
    return "".join(strip_legal(name_tokens(text)))


_INITIAL_WORD = re.compile(r"[A-Za-z]+")


def spell_initials(text: str, keys: Iterable[str]) -> str:
    """``text`` with each run of two or more consecutive words whose initials spell one of
    ``keys`` (``average daily rate`` for ``adr``, ``return on assets`` for ``roa``)
    replaced by that key, padded with spaces to the same length (offsets are kept)."""
    wanted = {k for k in keys if 2 <= len(k) <= 5 and k.isalpha()}
    if not wanted:
        return text
    found = list(_INITIAL_WORD.finditer(text))
    out = text
    for i in range(len(found)):
        for key in wanted:
            run = found[i : i + len(key)]
            if len(run) != len(key) or "".join(m.group(0)[0] for m in run).lower() != key:
                continue
            gaps = (text[a.end() : b.start()] for a, b in pairwise(run))
            if any(g.strip() for g in gaps):
                continue  # the words must follow each other, nothing between them
            start, end = run[0].start(), run[-1].end()
            out = out[:start] + key.ljust(end - start) + out[end:]
    return out
