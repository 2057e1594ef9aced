"""The evidence map (DESIGN §4): every leaf of a report addressable by a field path.

Paths use dotted keys and ``[i]`` for list items: ``financials.arr_usd``,
``findings[1].detail``. A key that is not a plain identifier is written ``["odd key"]``.
Citing an object or a list cites every leaf beneath it, up to ``CITE_LEAF_CAP`` leaves.
The map has a stable digest, its *root*, recorded with every turn.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

Scalar = str | int | float | bool | None

CITE_LEAF_CAP = 64
"""How many leaves one cited path may stand for; beyond it the citation is cut."""

_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]*$")


@dataclass(frozen=True, slots=True)
class Leaf:
    """One scalar value of the report and the path that addresses it."""

    path: str
    value: Scalar

    def render(self) -> str:
        """The value as shown to people and models: strings bare, the rest as JSON."""
        return self.value if isinstance(self.value, str) else json.dumps(self.value)


def join_key(prefix: str, key: str) -> str:
    part = key if _PLAIN_KEY.match(key) else f"[{json.dumps(key, ensure_ascii=False)}]"
    if not prefix:
        return part
    return f"{prefix}{part}" if part.startswith("[") else f"{prefix}.{part}"


_SEGMENT = re.compile(
    r"""\s*(?:\[\s*(\d+)\s*\]|\[\s*"((?:[^"\\]|\\.)*)"\s*\]|\[\s*'((?:[^'\\]|\\.)*)'\s*\]"""
    r"""|\.?\s*([^.\[\]"']+))"""
)


@lru_cache(maxsize=65536)
def canonical_path(path: str) -> str | None:
    """Normalise a cited path to the map's form, or ``None`` if it cannot parse.

    Accepted: dotted keys, ``[i]`` list items, ``["key"]`` or ``['key']`` for any key
    (spaces, dots, brackets), a leading ``$``, and spaces around the parts:
    ``$.a .b[ 0 ]`` → ``a.b[0]``; ``Financials["Annual Revenue"]``,
    ``Financials['Annual Revenue']`` and ``Financials.Annual Revenue`` are one path.
    """
    text = path.strip()
    if text.startswith("$"):
        text = text[1:].lstrip().removeprefix(".")
    if not text.strip() or text.lstrip().startswith("."):
        return None
    out = ""
    pos = 0
    while pos < len(text):
        m = _SEGMENT.match(text, pos)
        if m is None or m.end() == pos:
            return None
        index, dq, sq, bare = m.groups()
        if index is not None:
            out = f"{out}[{int(index)}]"
        elif dq is not None:
            out = join_key(out, json.loads(f'"{dq}"'))
        elif sq is not None:
            out = join_key(out, sq.replace("\\'", "'"))
        else:
            key = bare.strip()
            if not key:
                return None
            out = join_key(out, key)
        pos = m.end()
    return out or None


def first_segment(tail: str) -> tuple[str, str]:
    """A canonical path's tail split after its first part: ``[2].value`` → (``[2]``,
    ``.value``); ``.coatings.net-revenue`` → (``.coatings``, ``.net-revenue``)."""
    m = _SEGMENT.match(tail)
    if m is None or m.end() == 0:
        return tail, ""
    return tail[: m.end()], tail[m.end() :]


class EvidenceMap:
    """Leaves of a report in document order, with O(1) lookup of any node's leaves."""

    __slots__ = ("_leaves", "_spans", "root")

    def __init__(self, data: Mapping[str, Any]) -> None:
        self._leaves: list[Leaf] = []
        self._spans: dict[str, tuple[int, int]] = {}
        for key, value in data.items():
            self._walk(join_key("", key), value)
        lines = "".join(f"{leaf.path}\t{json.dumps(leaf.value)}\n" for leaf in self._leaves)
        self.root = hashlib.sha256(lines.encode()).hexdigest()

    def _walk(self, path: str, value: Any) -> None:
        start = len(self._leaves)
        if isinstance(value, Mapping):
            for key, child in value.items():
                self._walk(join_key(path, str(key)), child)
        elif isinstance(value, list):
            for i, child in enumerate(value):
                self._walk(f"{path}[{i}]", child)
        else:
            self._leaves.append(Leaf(path, value))
        self._spans[path] = (start, len(self._leaves))

    def __len__(self) -> int:
        return len(self._leaves)

    def __iter__(self) -> Iterator[Leaf]:
        return iter(self._leaves)

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and self.resolve(path) is not None

    def paths(self) -> Iterator[str]:
        """Every addressable path: leaves and the objects and lists above them."""
        return iter(self._spans)

    def resolve(self, path: str) -> list[Leaf] | None:
        """The leaves a cited path stands for (capped), or ``None`` if it does not resolve."""
        canonical = canonical_path(path)
        span = self._spans.get(canonical) if canonical is not None else None
        if span is None:
            return None
        start, end = span
        return self._leaves[start : min(end, start + CITE_LEAF_CAP)]

    def leaf(self, path: str) -> Leaf | None:
        """The single leaf at ``path``, or ``None`` if it is missing or not a leaf."""
        leaves = self.resolve(path)
        if leaves is None or len(leaves) != 1:
            return None
        return leaves[0] if leaves[0].path == canonical_path(path) else None


def content_digest(data: Mapping[str, Any]) -> str:
    """A stable digest of a JSON document (key order and spacing do not matter)."""
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()
