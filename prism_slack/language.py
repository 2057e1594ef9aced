"""The language the verifier (and the answerer) read claims and reports in: one
tokenizer, one stemmer, one stop list, and how common an English word is.

- ``words``: lower-case word tokens (letters, then letters or digits; ``'s`` cut; a
  negative contraction as its words: ``haven't`` → have, not).
- ``stem``: a light, deterministic stemmer (plural, ``-ing``, ``-ed``, a few derivational
  endings, final ``e``) of the American spelling (breame's table: ``centre`` and
  ``center`` meet), applied the same way to claim and evidence, so only consistency
  matters. ``-ion`` is kept (``conversion`` and ``conversation`` must not meet).
- ``STOP_WORDS``: words that carry no content (``data/stop_words.txt``); ``light``: any
  form of a verb that carries no fact (``came``, ``drew``: ``data/light_verbs.txt``).
- ``zipf``/``common``: an English word's frequency on the Zipf scale (wordfreq's bundled
  lists: 7 is "the", 3 is about once per million words, 0 is unknown). Rare words are
  what names, products and distinctive terms are made of.
- ``verb``/``particle_verb``: whether an English dictionary (lemminflect's) knows a word
  as a verb (``Pitch``, ``Ask``), or as a particle joined to a verb (``outscore``,
  ``overspend``): such a word is not a name; nor is an English plural (``Guests``)
  opening a sentence.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from breame.spelling import get_american_spelling
from wordfreq import zipf_frequency


def _word_file(name: str) -> frozenset[str]:
    text = resources.files("prism_slack.data").joinpath(name).read_text(encoding="utf-8")
    return frozenset(w for line in text.splitlines() for w in line.split("#", 1)[0].split())


STOP_WORDS = _word_file("stop_words.txt")
LIGHT_VERBS = _word_file("light_verbs.txt")

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:'[A-Za-z]+)?")


def words(text: str) -> list[str]:
    """Lower-case word tokens; possessive ``'s`` and other apostrophe tails dropped, and a
    negative contraction read as its words (``haven't`` → have, not; ``won't`` → will,
    not)."""
    return list(_words(text))


_NEGATIVE_HEADS = {"won": "will", "can": "can", "shan": "shall", "ain": "is"}


@lru_cache(maxsize=8192)
def _words(text: str) -> tuple[str, ...]:
    out = []
    for m in _WORD.finditer(text):
        token = m.group(0).lower()
        if "'" in token:
            token, tail = token.split("'", 1)
            if tail == "t" and token.endswith("n") and len(token) > 2:
                out += [_NEGATIVE_HEADS.get(token, token[:-1]), "not"]
                continue
        out.append(token)
    return tuple(out)


_SUFFIXES = (
    ("ational", "ate"),
    ("ations", ""),
    ("ation", ""),
    ("itions", ""),
    ("ition", ""),
    ("ities", ""),
    ("ity", ""),
    ("ments", ""),
    ("ment", ""),
    ("ness", ""),
    ("ingly", ""),
    ("ings", ""),
    ("ing", ""),
    ("edly", ""),
    ("ies", "y"),
    ("ied", "y"),
    ("sses", "ss"),
    ("ed", ""),
    ("es", ""),
    ("s", ""),
)
_MIN_STEM = 3


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light stem of the word's American spelling (breame: ``centres`` → ``center``):
    ``conversions`` → ``conversion``, ``declined`` → ``declin``.

    ``-ion`` is kept (``conversion`` and ``conversation`` must not meet)."""
    w: str = get_american_spelling(word.lower())
    if len(w) <= _MIN_STEM or not w.isalpha():
        return w
    for suffix, replacement in _SUFFIXES:
        if w.endswith(suffix) and not (suffix == "s" and w.endswith("ss")):
            candidate = w[: -len(suffix)] + replacement
            if len(candidate) >= _MIN_STEM:
                w = candidate
            break
    if len(w) > _MIN_STEM and w.endswith("e"):
        w = w[:-1]
    return w


_DERIVING = ("ure", "al", "th", "age")
"""Suffixes that make a noun of a verb and keep its sense (``fail`` → failure, ``approve``
→ approval, ``grow`` → growth, ``lever`` → leverage); ``-ment``, ``-ation`` and ``-ing``
are already stripped by ``stem``."""
_UNDERIVING = ("ure", "th")
"""Those read back to the verb too (``failure`` → fail); ``-al`` and ``-age`` are not
(``central`` is no ``center``, ``package`` no ``pack``)."""
_MIN_DERIVED = 4


@lru_cache(maxsize=65536)
def derived(word: str) -> frozenset[str]:
    """The stems of the words ``word`` derives to by a ``_DERIVING`` suffix, or from by an
    ``_UNDERIVING`` one: for ``fail``, ``failur``; for ``failure``, ``fail``. Empty for a
    word under four letters."""
    w = get_american_spelling(word.lower())
    if len(w) < _MIN_DERIVED or not w.isalpha():
        return frozenset()
    bases = {w.removesuffix("e"), stem(w)}
    out = {stem(b + suffix) for b in bases for suffix in _DERIVING}
    for suffix in _UNDERIVING:
        root = w.removesuffix(suffix)
        if root != w and len(root) >= _MIN_DERIVED:
            out |= {stem(root), stem(root + "e")}
    return frozenset(out - {stem(w)})


COMMON_ZIPF = 5.0
"""At or above this Zipf frequency a word is ordinary English (``win``, ``game``,
``place``); below it, a word is distinctive (``helene``, ``klaviyo``, ``amplitude``)."""


@lru_cache(maxsize=65536)
def zipf(word: str) -> float:
    """How common ``word`` is in English (Zipf scale, 0 when unknown)."""
    return float(zipf_frequency(word.lower(), "en"))


def common(word: str) -> bool:
    """Is ``word`` an ordinary English word (not a distinctive name or term)?"""
    return zipf(word) >= COMMON_ZIPF


NAME_ZIPF = 3.0
"""Below this Zipf frequency a lower-case word is read as a name (``klaviyo``,
``zelenkovskaya``) that its evidence must hold."""


TYPO_ZIPF = 3.5
"""A word of seven letters or more one letter off an English word this common is read
as its typo (shorter ones are as often names: ``Coveo``, ``cerner``)."""
TYPO_LENGTH = 7


@lru_cache(maxsize=8192)
def typo(word: str) -> bool:
    """Is ``word`` one letter off (one dropped, added, changed or swapped) a common English
    word it is not itself: ``centurry``, ``mosty``, ``secceeded``, ``Austrailia``?"""
    w = word.lower()
    if len(w) < TYPO_LENGTH or not w.isalpha() or zipf(w) >= TYPO_ZIPF:
        return False
    letters = "abcdefghijklmnopqrstuvwxyz"
    splits = [(w[:i], w[i:]) for i in range(len(w) + 1)]
    edits = {a + b[1:] for a, b in splits if b}
    edits |= {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    edits |= {a + c + b[1:] for a, b in splits if b for c in letters}
    edits |= {a + c + b for a, b in splits for c in letters}
    return any(zipf(e) >= TYPO_ZIPF for e in edits - {w})


def rare(word: str) -> bool:
    """Is ``word`` rare enough in English to be a name or a coined term?"""
    return zipf(word) < NAME_ZIPF


@lru_cache(maxsize=65536)
def _lemmas(word: str) -> dict[str, tuple[str, ...]]:
    """Part of speech → the lemmas lemminflect's dictionary gives the lower-case ``word``."""
    from lemminflect import getAllLemmas  # loaded on first use (it brings numpy)

    return dict(getAllLemmas(word.lower()))


def _parts_of_speech(word: str) -> frozenset[str]:
    return frozenset(_lemmas(word))


@lru_cache(maxsize=65536)
def light(word: str) -> bool:
    """Is ``word`` a form of a verb that carries no fact (``came``, ``draws``, ``holds``:
    ``data/light_verbs.txt``), and not also a noun as written (``a draw``, ``on hold``)?"""
    lemmas = _lemmas(word)
    return word.lower() not in lemmas.get("NOUN", ()) and any(
        v in LIGHT_VERBS for v in lemmas.get("VERB", ())
    )


def lemmas(word: str) -> frozenset[str]:
    """Every lemma lemminflect's dictionary gives ``word`` (``spent`` → spend, ``grew`` →
    grow, ``children`` → child)."""
    return frozenset(lemma for forms in _lemmas(word).values() for lemma in forms)


def verb_lemmas(word: str) -> tuple[str, ...]:
    """The verbs ``word`` is a form of (``began`` → ``begin``)."""
    return _lemmas(word).get("VERB", ())


def verb(word: str) -> bool:
    """Does English use ``word`` as a verb (``pitch``, ``ask``, ``owns``, ``is``)?"""
    return bool(_parts_of_speech(word) & {"VERB", "AUX"})


def noun(word: str) -> bool:
    """Does English use ``word`` as a noun (``carriers``, ``fleet``)?"""
    return "NOUN" in _parts_of_speech(word)


@lru_cache(maxsize=8192)
def agent_nouns(word: str) -> frozenset[str]:
    """The English nouns for one who does what the verb ``word`` says (``write`` →
    writer, ``direct`` → director, ``win`` → winner); empty for a word that is no verb."""
    w = word.lower()
    if len(w) < 3 or not verb(w):
        return frozenset()
    forms = (w + "r", w + "er", w + "or", w + w[-1] + "er")
    return frozenset(f for f in forms if noun(f) and not rare(f))


def plural_noun(word: str) -> bool:
    """Is ``word`` the plural of an English noun (``guests``, ``members``)?"""
    lemmas = _lemmas(word).get("NOUN", ())
    return bool(lemmas) and word.lower() not in lemmas


_PARTICLE_ZIPF = 5.0


def particle_verb(word: str) -> bool:
    """A common adverb particle run into a verb: ``outscore``, ``overspend``, ``underbid``."""
    w = word.lower()
    for i in range(2, len(w) - 3):
        head, rest = w[:i], w[i:]
        if "ADV" in _parts_of_speech(head) and zipf(head) >= _PARTICLE_ZIPF and verb(rest):
            return True
    return False


@lru_cache(maxsize=65536)
def english_form(word: str) -> bool:
    """Is ``word`` a form of an English word that is not rare: its lemma or an irregular
    inflection in lemminflect's dictionary (``authorizes`` → authorize, ``alumnus`` →
    alumni), or the word a regular ``-ed``/``-ing`` ending was added to (``synced`` →
    sync; not ``harding``: ``hard`` is no verb)? A plain ``-s`` plural does not count: a
    name's plural is often common (``oiler`` → Oilers, ``kansa`` → Kansas), and names
    have no other forms (``priyas``)."""
    from lemminflect import getAllInflections, getAllInflectionsOOV

    w = word.lower()
    lemmas = {lemma for found in _lemmas(w).values() for lemma in found}
    base = stem(w)
    if base != w and w.endswith(("ed", "ing")):
        known = bool(_lemmas(base))  # a known word's verb forms, else the regular ones
        regular = getAllInflections(base, "VERB") if known else getAllInflectionsOOV(base, "VERB")
        if any(w in forms for forms in regular.values()):
            lemmas.add(base)
    forms = set(lemmas)
    for lemma in lemmas | {w}:
        forms.update(f for found in getAllInflections(lemma).values() for f in found)
    forms -= {w, w + "s", w + "es"}
    return any(not rare(form) for form in forms)
