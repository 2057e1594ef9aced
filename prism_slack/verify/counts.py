"""Counts of a cited list: ``two critical findings`` citing ``findings``.

A bare whole number followed, within ``NOUN_REACH`` words, by the word that names a cited
list (``findings``, ``stakeholders``; by stem or synonym group: ``issues``) counts that
list's items (not ``two of the findings``: a part of it), and only those
its qualifiers pick. A qualifier is a word between the number and the list's name, or
right after a rating link (``one risk is rated critical``, ``two of its risks as
critical``), that is a short cell value of some item (``critical``, ``high``: a finding's
severity); a column's own name (``severity`` in ``high-severity``) is a label, not a
filter. The count is then
decisive: it matches when the number states exactly that many, and otherwise fails,
whatever stray ``two`` a finding's text holds. A qualifier that is neither (``two serious
findings``) leaves the count to the other rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from prism_slack.language import stem
from prism_slack.verify import concepts, lexicon
from prism_slack.verify.index import Container
from prism_slack.verify.text import path_words

NOUN_REACH = 4
"""How many words after the number may name the list it counts."""

Cells = Mapping[str, Mapping[str, Mapping[int, frozenset[str]]]]


def list_count(
    after: Sequence[str], containers: Sequence[Container], cells: Cells, *, whole: bool = False
) -> tuple[Container, int] | None:
    """The cited list a number counts and how many of its items the qualifiers pick, or
    ``None`` when the words after it name no cited list or a qualifier is unknown.
    ``after``: the claim's words after the number; ``cells``: ``VerifierIndex.cells``;
    ``whole``: the number is the total a part is taken of (``one of the six findings is
    rated critical``), so a rating link after the list's name qualifies the part.
    Qualifiers stand before the list's name (``two critical findings``) or after it past
    a rating link (``one risk is rated critical``, ``two of its risks as critical``)."""
    part = after[:1] == ["of"]
    start = next((i for i, w in enumerate(after) if w not in lexicon.PART_OF_WORDS), len(after))
    for i, word in enumerate(after[start : start + NOUN_REACH], start):
        for container in containers:
            names = path_words(container.path)
            if not container.is_list or not names or not _names(word, names[-1]):
                continue
            columns = cells.get(container.path, {})
            rated = [] if whole else _rated(after[i + 1 :])
            if part and not rated:
                return None  # "two of the findings": part of the list, not its count
            picked = _picked([*after[start:i], *rated], container, columns)
            return None if picked is None else (container, picked)
    return None


def _rated(tail: Sequence[str]) -> list[str]:
    """The word a rating link puts after a list's name: ``critical`` in ``risk is rated
    critical``; none without a link."""
    links = 0
    while links < len(tail) and tail[links] in lexicon.RATING_LINKS:
        links += 1
    return list(tail[links : links + 1]) if links else []


def _names(word: str, key: str) -> bool:
    """Does ``word`` name the list ``key`` (``findings``: ``findings``, ``issues``)?"""
    return stem(word) == stem(key) or bool(
        concepts.all_concepts([word]) & concepts.all_concepts([key])
    )


def _picked(
    qualifiers: Sequence[str],
    container: Container,
    columns: Mapping[str, Mapping[int, frozenset[str]]],
) -> int | None:
    items = set(range(container.size))
    labels = {stem(w) for column in columns for w in path_words(column)}
    for word in concepts.content_words(" ".join(qualifiers)):
        key = stem(word)
        if key in labels:
            continue  # "severity" of "high-severity": the column's name
        holders = {i for by_item in columns.values() for i, held in by_item.items() if key in held}
        if not holders:
            return None
        items &= holders
    return len(items)
