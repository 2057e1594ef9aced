"""Measure concepts and synonym groups found in a word sequence (check 7's vocabulary).

A concept is found by its longest surface form first, on light stems, so ``net revenue
retention`` is ``nrr`` (not ``net`` + ``revenue``) and ``Chief Revenue Officer`` is
``cro``. The same function reads claims and field paths, so the two always agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from prism_slack import language
from prism_slack.language import stem, words
from prism_slack.verify import lexicon
from prism_slack.verify.numbers import UNITS
from prism_slack.verify.text import prefix


@dataclass(frozen=True, slots=True)
class Hit:
    concept: str
    measure: bool
    """True for a measure concept (strict), false for a synonym group (content count)."""
    start: int
    end: int


def _build() -> tuple[dict[tuple[str, ...], tuple[tuple[str, bool], ...]], int]:
    table: dict[tuple[str, ...], list[tuple[str, bool]]] = {}
    for groups, measure in ((lexicon.MEASURES, True), (lexicon.SYNONYMS, False)):
        for concept, forms in groups.items():
            for form in forms:
                key = tuple(stem(w) for w in form.replace("-", " ").split())
                entry = (concept, measure)
                if entry not in table.setdefault(key, []):
                    table[key].append(entry)
    longest = max(len(k) for k in table)
    return {k: tuple(v) for k, v in table.items()}, longest


_TABLE, _LONGEST = _build()


def hits(tokens: Sequence[str]) -> list[Hit]:
    """Concepts named in ``tokens`` (lower-case words), longest form first, left to right."""
    return list(_hits(tuple(tokens)))


@lru_cache(maxsize=8192)
def _hits(tokens: tuple[str, ...]) -> tuple[Hit, ...]:
    stems = [stem(t) for t in tokens]
    out: list[Hit] = []
    i = 0
    while i < len(stems):
        for n in range(min(_LONGEST, len(stems) - i), 0, -1):
            entries = _TABLE.get(tuple(stems[i : i + n]))
            if entries:
                out += [Hit(concept, measure, i, i + n) for concept, measure in entries]
                i += n
                break
        else:
            i += 1
    return tuple(out)


def measures(tokens: Sequence[str]) -> frozenset[str]:
    """The measure concepts ``tokens`` name."""
    return _concepts(tuple(tokens))[1]


def all_concepts(tokens: Sequence[str]) -> frozenset[str]:
    """Every concept (measure or synonym group) ``tokens`` name."""
    return _concepts(tuple(tokens))[0]


@lru_cache(maxsize=8192)
def _concepts(tokens: tuple[str, ...]) -> tuple[frozenset[str], frozenset[str]]:
    """Every concept ``tokens`` name, and the measures among them."""
    found = _hits(tokens)
    return frozenset(h.concept for h in found), frozenset(h.concept for h in found if h.measure)


NOT_CONTENT = (
    lexicon.STOP_WORDS
    | lexicon.DIRECTION_UP
    | lexicon.DIRECTION_DOWN
    | frozenset(lexicon.MONTHS)
    | lexicon.WEEKDAYS
    | frozenset(lexicon.NUMBER_WORDS)
    | (frozenset(UNITS) - frozenset(lexicon.RANK_ORDINALS))
)
"""Words that carry no content: stop, direction, month, number and unit words (a unit that
is also an ordinal, ``second``, is content: "in their second year" is no "first year")."""


def is_content(word: str) -> bool:
    """A word that carries content: not a stop, direction, month, number or unit word,
    nor a form of a light verb (``language.light``)."""
    return len(word) > 1 and word not in NOT_CONTENT and not language.light(word)


def content_words(text: str) -> list[str]:
    """The content words of ``text`` (quantities already masked), in order."""
    return [w for w in words(text) if is_content(w)]


@dataclass(frozen=True, slots=True)
class WordSet:
    """Words to find other words in: by light stem, shared prefix, or concept."""

    stems: frozenset[str]
    prefixes: frozenset[str]
    concepts: frozenset[str]

    @classmethod
    def of(cls, tokens: Sequence[str]) -> WordSet:
        return cls(
            frozenset(stem(t) for t in tokens),
            frozenset(p for t in tokens if (p := prefix(t))),
            all_concepts(tokens),
        )

    @classmethod
    def union(cls, sets: Iterable[WordSet]) -> WordSet:
        stems: set[str] = set()
        prefixes: set[str] = set()
        found: set[str] = set()
        for one in sets:
            stems |= one.stems
            prefixes |= one.prefixes
            found |= one.concepts
        return cls(frozenset(stems), frozenset(prefixes), frozenset(found))

    def has(self, word: str) -> bool:
        """Is ``word`` here, by stem, by a shared six-letter prefix, or by its concept?"""
        p = prefix(word)
        return (p is not None and p in self.prefixes) or self.has_exactly(word)

    def has_exactly(self, word: str) -> bool:
        """Is ``word`` here by stem or by its concept (no prefix guess: ``medicare`` is not
        ``medicaid``)?"""
        return (
            stem(word) in self.stems
            or bool(language.derived(word) & self.stems)
            or any(stem(lemma) in self.stems for lemma in language.lemmas(word))
            or bool(all_concepts([word]) & self.concepts)
            or any(s[:3] == word[:3] and same_place(word, s) for s in self.stems)  # last: a scan
        )


PLACE_ROOT = 4
PLACE_TAIL = 3


@lru_cache(maxsize=65536)
def same_place(a: str, b: str) -> bool:
    """Is one of two words the place the other is an adjective of (``canadian`` and
    ``canada``, ``swedish`` and ``sweden``, ``japanese`` and ``japan``)? They share a root of
    ``PLACE_ROOT`` letters or more, one ends in a ``lexicon.DEMONYM_SUFFIXES`` ending after
    it, and the other at most ``PLACE_TAIL`` letters after it."""
    a, b = a.lower(), b.lower()
    return a[:3] == b[:3] and a != b and (_place_of(a, b) or _place_of(b, a))


def _place_of(adjective: str, place: str) -> bool:
    for suffix in lexicon.DEMONYM_SUFFIXES:
        root = adjective.removesuffix(suffix)
        if root != adjective and len(root) >= PLACE_ROOT:
            return place.startswith(root) and len(place) - len(root) <= PLACE_TAIL
    return False
