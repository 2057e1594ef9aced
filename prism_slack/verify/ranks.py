"""Ranks: ``Personalization is their weakest area, at 3 out of 10`` citing ``scores``.

A superlative (``weakest``, ``lowest``, ``highest``, ``best`` …, maybe after an ordinal:
``second-highest``) next to a warranted figure ranks that figure's field among its peers:
the other numeric fields of the same object (``scores.*``, scales left out) or the same
column of the other items of a list (``rows[*].points``), at least ``MIN_PEERS`` of them.
The rank is computed, never guessed: when it is the one the claim states, the superlative
is warranted (check 7 finds it); when it is not, the claim fails, naming the field that
holds that rank. A superlative with no such figure, or whose figure's field the claim does
not name (a figure that only happens to equal it), is left to the other rules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from prism_slack.language import stem, words
from prism_slack.verdict import Problem
from prism_slack.verify import lexicon
from prism_slack.verify.anchors import Anchoring
from prism_slack.verify.concepts import WordSet
from prism_slack.verify.index import LeafFacts, VerifierIndex
from prism_slack.verify.text import path_words

MIN_PEERS = 3
"""A rank among fewer fields than this says too little to check."""

REACH = 60
"""How many characters from the superlative the figure it ranks may sit."""

_SUPERLATIVE = re.compile(
    r"\b(?:("
    + "|".join(lexicon.RANK_ORDINALS)
    + r")[\s-]+)?("
    + "|".join(sorted(lexicon.LOWEST | lexicon.HIGHEST))
    + r")\b"
)


@dataclass(frozen=True, slots=True)
class Ranked:
    """What the rank rule found: the spans of warranted superlatives, and problems."""

    spans: tuple[tuple[int, int], ...] = ()
    problems: tuple[Problem, ...] = ()


def rank_findings(
    masked: str, anchorings: Sequence[Anchoring], index: VerifierIndex, *, cited: WordSet
) -> Ranked:
    """Check each superlative of ``masked`` (the claim, quantities masked) against the
    nearest warranted figure's peers in the report (``index``). A superlative the cited
    values or keys say themselves (``highest_mark``, ``largest city``, ``best actress``)
    is their wording, not a rank."""
    spans: list[tuple[int, int]] = []
    problems: list[Problem] = []
    said = {stem(w) for w in words(masked)}
    for m in _SUPERLATIVE.finditer(masked.lower()):
        if cited.has(m.group(2)):
            continue
        figure = _nearest(m, anchorings)
        if figure is None:
            continue
        leaf, value = figure
        if not said & {stem(w) for w in path_words(leaf.path.rpartition(".")[2])}:
            continue  # the claim does not name the field it ranks
        peers = _peers(leaf.path, index)
        if len(peers) < MIN_PEERS:
            continue
        low = m.group(2) in lexicon.LOWEST
        stated = lexicon.RANK_ORDINALS.get(m.group(1) or "", 1)
        ordered = sorted(set(peers.values()), reverse=not low)
        rank = ordered.index(value) + 1
        if rank == stated:
            spans.append(m.span())
            continue
        holder = min(p for p, v in peers.items() if v == ordered[min(stated, len(ordered)) - 1])
        message = (
            f"'{m.group(0)}': {leaf.path} = {value} ranks {rank} of {len(peers)}; "
            f"{holder} = {peers[holder]} is the {m.group(0)}"
        )
        problems.append(Problem("attribute.rank", message))
    return Ranked(tuple(spans), tuple(problems))


def _nearest(m: re.Match[str], anchorings: Sequence[Anchoring]) -> tuple[LeafFacts, Decimal] | None:
    best: tuple[int, LeafFacts, Decimal] | None = None
    for a in anchorings:
        if a.derivation is not None or a.counts or not a.quantity.numeric:
            continue
        gap = max(a.quantity.start - m.end(), m.start() - a.quantity.end, 0)
        for source in a.sources:
            if not isinstance(source, LeafFacts):
                continue
            value = _value(source)
            if value is not None and gap <= REACH and (best is None or gap < best[0]):
                best = (gap, source, value)
    return None if best is None else (best[1], best[2])


def _value(leaf: LeafFacts) -> Decimal | None:
    """The leaf's one number: a number value, or a text that is only that number (a
    table's ``"30"``); ``None`` for anything else (a sentence, a scale)."""
    numbers = [q for q in leaf.quantities if q.numeric and not q.from_path and not q.is_scale]
    if len({q.value for q in numbers}) != 1:
        return None  # (one number read two ways, ``3`` and ``3/10``, is one number)
    q = numbers[0]
    whole = leaf.value_text is None or leaf.value_text.text == q.text.replace(" ", "")
    return q.value if whole else None


def _peers(path: str, index: VerifierIndex) -> dict[str, Decimal]:
    """The fields ``path`` ranks among, with their values (``path`` included)."""
    head, _, key = path.rpartition(".")
    item = re.fullmatch(r"(.*)\[\d+\]", head)
    if item is not None:  # rows[3].points → rows[*].points
        items = len(index.records.get(item.group(1), ()))
        paths = [f"{item.group(1)}[{i}].{key}" for i in range(items)]
    else:  # scores.security → scores.*
        paths = index.children.get(head, [])
    out = {}
    for other in paths:
        leaf = index.leaves.get(other)
        value = _value(leaf) if leaf is not None else None
        if value is not None:
            out[other] = value
    return out
