"""Names and identifiers in a claim, and whether cited evidence warrants them (check 6).

What is a name
--------------
Names are read from the claim text with every quantity and identifier masked out
(``numbers.scan``). A *name* is a maximal run of capitalised tokens — a capital first
letter, or a capital inside (``eBay``) — that are adjacent (only spaces between them),
possibly joined by a lower-case connector (``Head of Growth``, ``Tamarack & Pine``).
Punctuation, a masked quantity or any other word ends a run. Then:

1. a sentence's first word (after the start, ``.!?:;``, a quote or a bracket) is not a
   name when it is capitalised only because it opens the sentence: a function word
   (``The``, ``Their``), or — standing alone, not followed by another capitalised word — an
   ordinary word (``lexicon.COMMON_WORDS``), a word the report or the claim writes in
   lower case (``Revenue``, ``Ask``, ``Only``), an English plural (``Guests``), a word
   with an ordinary English ending
   (``Clinicians``, ``Scheduling``: ``lexicon.ORDINARY_SUFFIXES``), or a verb taking an
   object (followed by ``the``, ``their``, ``how`` …: ``Identify the buyer``;
   ``lexicon.OBJECT_STARTERS``). Inside a longer run
   such a word stays, and counts as a free word when the run is matched (rule below).
   ``HubSpot``/``Salesforce`` opening a sentence stay names. A verb opening a sentence
   before a name (``Pitch Saoirse on …``) is an imperative, unless a verb follows the
   name (``Mark Chen owns …``). (Without a full English
   dictionary, a vendor named by a plain English word that opens a sentence — ``Stripe``
   — is read as a word; it then counts as a content word of a fact instead, which its
   evidence must hold.)
2. words that are never names (``lexicon.NOT_NAMES``: pronouns, months, ``CRM``, ``ARR``,
   ``CEO``…) and connectors are trimmed from both ends;
3. a run left with only role words (``Chief Financial Officer``, ``VP Sales`` — checked as
   attributes instead), legal suffixes, ordinary words (``Site Search``) or nothing is
   not a name.

An *identifier* is a token mixing letters and digits (``FND-3``, ``M4``, ``GA4``), found by
the number grammar.

When a name is warranted
------------------------
Names are compared *squashed*: lower-case alphanumeric tokens run together, accents,
case, punctuation, possessive ``'s`` and legal suffixes (``Inc``, ``LLC`` …) ignored; an
acronym's plural (``OTAs``) is warranted by the acronym.

- the whole name occurs, on token boundaries, in one cited value, in a cited field's path
  words, in the prospect's name, aliases, legal name or domain, or in an ``allowed`` term
  (``Maria`` in ``Maria Chen`` passes; ``Maria Lopez`` against ``Maria Chen`` and
  ``Daniel Lopez`` does not); or
- an acronym (``CVHP``) or an identifier (``GA4``) spells the initials of consecutive
  words of one cited value, a number among them written whole (``Google Analytics 4``);
- a name run on past a possessive (``Kenji's Azure``) is warranted when each side is;
- the name splits into pieces each of which is a *complete* name of the evidence (a
  capitalised run of a cited value, a short cited value, a path key, the prospect's
  names, an allowed term) or a word that is never a name by itself (role, connector,
  ``NOT_NAMES``, ordinary word): ``VP Sales Maria Chen`` over ``VP Sales`` and
  ``Maria Chen``.

Fuzzy matching never warrants: a misspelt name fails.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import pairwise

from prism_slack import language
from prism_slack.verify import concepts, lexicon
from prism_slack.verify.numbers import MASK, Span
from prism_slack.verify.text import Squashed, name_tokens, squash_name

_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:['.\-&][A-Za-z0-9]+)*|&")
_OPENERS = frozenset(".!?:;\"'([{\n•")
_ACRONYM_PLURAL = re.compile(r"[A-Z]{2,}s")
"""An acronym's plural (``OTAs``, ``KPIs``): warranted by the acronym."""
_ACRONYM = re.compile(r"[A-Z]{2,}")
_POSSESSIVE = re.compile(r"['’]s$")


@dataclass(frozen=True, slots=True)
class NamePart:
    text: str
    squashed: str
    free: bool
    """A word that is never a name by itself (role, connector, NOT_NAMES, ordinary word)."""


@dataclass(frozen=True, slots=True)
class Name:
    text: str
    parts: tuple[NamePart, ...]
    start: int
    end: int

    @property
    def squashed(self) -> str:
        return squash_name(" ".join(p.text for p in self.parts))


@dataclass(frozen=True, slots=True)
class NameEvidence:
    """What names a claim may use: texts to find a name in, and complete names."""

    texts: tuple[Squashed, ...]
    units: frozenset[str]

    def warrants(self, name: Name) -> bool:
        return self._warrants(name.parts)

    def _warrants(self, parts: tuple[NamePart, ...]) -> bool:
        written = " ".join(p.text for p in parts)
        squashed = squash_name(written)
        if self.contains(squashed) or _segments(parts, self.units):
            return True
        if _AMPERSAND_INITIALS.fullmatch(written):  # "R&D": research and development
            return self.abbreviates(re.sub(r"[^a-z]", "", written.lower()), skip_and=True)
        last = parts[-1].text
        if _ACRONYM_PLURAL.fullmatch(last) and self.contains(squashed[:-1]):
            return True
        if len(parts) == 1 and _ACRONYM.fullmatch(last):
            return self.abbreviates(squashed)
        if len(parts) == 1 and self.places(squashed):
            return True
        cut = next((i for i, p in enumerate(parts[:-1]) if _POSSESSIVE.search(p.text)), None)
        return (
            cut is not None
            and self._warrants(parts[: cut + 1])
            and self._warrants(parts[cut + 1 :])
        )

    def contains(self, squashed: str) -> bool:
        return squashed in self.units or any(t.contains(squashed) for t in self.texts)

    def places(self, word: str) -> bool:
        """Is ``word`` a place's adjective of an evidence word, or the place of one
        (``canadian`` and ``canada``: ``concepts.same_place``)?"""
        held = {text.text[a:b] for text in self.texts for a, b in pairwise(sorted(text.bounds))}
        return any(concepts.same_place(word, t) for t in held)

    def abbreviates(self, key: str, *, skip_and: bool = False) -> bool:
        """Is ``key`` the initials of two or more consecutive words of one evidence text,
        a number among them written whole (``ga4``: Google Analytics 4)? ``skip_and``: the
        initials of an ampersand acronym pass over ``and`` (``rd``: research and
        development)."""
        if sum(c.isalpha() for c in key) < 2:
            return False
        for text in self.texts:
            bounds = sorted(text.bounds)
            tokens = [text.text[a:b] for a, b in pairwise(bounds)]
            if skip_and:
                tokens = [t for t in tokens if t != "and"]
            pieces = [token if token.isdigit() else token[0] for token in tokens]
            for i in range(len(pieces)):
                spelt = ""
                for j in range(i, len(pieces)):
                    spelt += pieces[j]
                    if not key.startswith(spelt):
                        break
                    if spelt == key and j > i:
                        return True
        return False


_AMPERSAND_INITIALS = re.compile(r"[A-Z]{1,2}&[A-Z]{1,2}")
"""``R&D``, ``O&M``, ``M&A``: initials joined by an ampersand."""


def _capitalised(token: str) -> bool:
    return not token.islower() and token != token.lower()


def _titlecase_only(token: str) -> bool:
    return token[0].isupper() and (len(token) == 1 or not _capitalised(token[1:]))


def _sentence_initial(text: str, start: int) -> bool:
    i = start - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    if i < 0 or text[i] in _OPENERS:
        return True
    return text[i] == "-" and i > 0 and text[i - 1] == " "  # a dash opening a clause


def _is_free(token: str) -> bool:
    low = token.lower()
    return (
        low in lexicon.NOT_NAMES
        or low in lexicon.ROLE_WORDS
        or low in lexicon.CONNECTORS
        or low in lexicon.LEGAL_SUFFIXES
        or (_titlecase_only(token) and low in lexicon.COMMON_WORDS)
    )


def _ordinary_form(word: str) -> bool:
    return len(word) > 4 and word.endswith(lexicon.ORDINARY_SUFFIXES)


def _trimmable(token: str) -> bool:
    low = token.lower()
    return low in lexicon.NOT_NAMES or low in lexicon.CONNECTORS


def _english(word: str) -> bool:
    """A compound whose every piece is ordinary English (``Top-line``, ``No-shows``):
    opening a sentence, it is capitalised for that alone. (A single word is not judged
    by frequency: ``Maria`` is as common as many words.)"""
    pieces = [part for part in re.split(r"[-']", word) if part]
    return len(pieces) > 1 and all(language.zipf(part) >= ENGLISH_ZIPF for part in pieces)


ENGLISH_ZIPF = 4.0
"""A sentence-initial compound whose pieces are this common is not taken for a name."""


def _imperative(word: str, after: str) -> bool:
    """A sentence-opening verb before a name (``Ask Dana``, ``Pitch Saoirse on …``), not
    a first name that is also a verb (``Mark Chen owns …``: a verb follows the name)."""
    return word in lexicon.IMPERATIVES or (language.verb(word) and not language.verb(after))


def _next_word(masked: str, end: int) -> str:
    m = re.match(r"\s+([a-z]+)\b", masked[end:])
    return m.group(1) if m else ""


def find_names(masked: str, ordinary: Callable[[str], bool] = lambda w: False) -> list[Name]:
    """The names in ``masked`` text (quantities and identifiers already masked).

    ``ordinary(word)`` says whether a lower-case word is an ordinary word of this report
    (so that a sentence may open with it capitalised).
    """
    names: list[Name] = []
    run: list[re.Match[str]] = []
    prev_end = 0
    for m in _TOKEN.finditer(masked):
        token = m.group(0)
        gap = masked[prev_end : m.start()]
        adjacent = bool(run) and gap != "" and gap.strip(" ") == "" and MASK not in gap
        connector = token.lower() in lexicon.CONNECTORS and not _capitalised(token)
        if _capitalised(token) and token != "&":
            if not adjacent:
                _flush(masked, run, names, ordinary)
                run = []
            run.append(m)
        elif connector and adjacent:
            run.append(m)
        else:
            _flush(masked, run, names, ordinary)
            run = []
        prev_end = m.end()
    _flush(masked, run, names, ordinary)
    return names


def _flush(
    masked: str, run: list[re.Match[str]], names: list[Name], ordinary: Callable[[str], bool]
) -> None:
    tokens = list(run)
    if not tokens:
        return
    first = tokens[0].group(0)
    if _sentence_initial(masked, tokens[0].start()) and _titlecase_only(first):
        low = first.lower()
        verb = _next_word(masked, tokens[0].end()) in lexicon.OBJECT_STARTERS
        if (
            low in lexicon.STOP_WORDS
            or low.split("'", 1)[0] in lexicon.STOP_WORDS  # They're, There's, That's
            or (len(tokens) > 1 and _imperative(low, _next_word(masked, tokens[-1].end())))
            or (
                len(tokens) == 1
                and (
                    low in lexicon.COMMON_WORDS
                    or ordinary(low)
                    or _ordinary_form(low)
                    or language.plural_noun(low)
                    or verb
                    or _english(low)
                )
            )
        ):
            tokens = tokens[1:]
    while tokens and _trimmable(tokens[0].group(0)):
        tokens = tokens[1:]
    while tokens and _trimmable(tokens[-1].group(0)):
        tokens = tokens[:-1]
    if not tokens or all(_is_free(t.group(0)) for t in tokens):
        return
    lowered = [t.group(0).lower() for t in tokens]
    covered = {i for h in concepts.hits(lowered) for i in range(h.start, h.end)}
    if len(lowered) > 1 and len(covered) == len(lowered):
        return  # a measure's name in title case (``Net Promoter Score``), not a name
    parts = tuple(
        NamePart(t.group(0), "".join(name_tokens(t.group(0))), _is_free(t.group(0))) for t in tokens
    )
    start, end = tokens[0].start(), tokens[-1].end()
    names.append(Name(masked[start:end], parts, start, end))


def _segments(parts: tuple[NamePart, ...], units: frozenset[str]) -> bool:
    """Can ``parts`` be cut into complete evidence names and free words?"""
    n = len(parts)
    reachable = [False] * (n + 1)
    reachable[0] = True
    for i in range(n):
        if not reachable[i]:
            continue
        if parts[i].free:
            reachable[i + 1] = True
        piece = ""
        for j in range(i, n):
            piece += parts[j].squashed
            if piece in units:
                reachable[j + 1] = True
    return reachable[n]


def identifier_key(span: Span) -> str:
    """An identifier's squashed form: ``FND-3``, ``fnd 3`` and ``FND3`` are all ``fnd3``."""
    return "".join(name_tokens(span.text))


def units_of(text: str, names: Iterable[Name], identifiers: Iterable[Span]) -> set[str]:
    """The complete names a value holds: its capitalised runs, its identifiers, and the
    whole value when it is short (``HubSpot``, ``VP Patient Access``)."""
    units = {n.squashed for n in names}
    units |= {identifier_key(s) for s in identifiers}
    tokens = name_tokens(text)
    if 0 < len(tokens) <= 8:
        units.add(squash_name(text))
    return {u for u in units if u}
