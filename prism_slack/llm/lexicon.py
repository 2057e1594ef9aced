"""Words for the offline answerer and the playbook: tokens, light stems, synonym concepts.

A text becomes a sequence of *terms*:

1. lower-case word tokens (letters and digits; apostrophes dropped, possessive ``'s`` cut;
   hyphenated words split into their parts);
2. chat shorthand expanded (``ppl`` → ``people``, ``appt`` → ``appointment``);
3. multi-word phrases merged into one term (``top line`` → ``revenue``, ``gross margin`` →
   ``grossmargin``, ``chief financial officer`` → ``cfo``);
4. a light stem (plural ``-s``/``-ies``, ``-ing``/``-ed`` on long words, final ``-e``);
5. the stem mapped to its synonym *concept* (``profitability`` → ``margin``,
   ``provider`` → ``vendor``), or kept as is.

Question words that carry no subject (``what``, ``their``, ``please``) are *stop* terms;
words that only sharpen a subject (``rate``, ``total``, ``biggest``) are *soft*: they help
ranking but an answer never has to match them.

The word lists are packaged data (``prism_slack/data/lexicon.yaml``). The verifier keeps
its own vocabulary (``prism_slack/verify/lexicon.py``) on purpose: the checker shares no
word lists with an answerer it checks, so a gap in one cannot hide the same gap in the other.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from functools import cache
from importlib import resources
from typing import Any

import yaml
from wordfreq import zipf_frequency

_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z0-9]+)*")
_AMPERSAND = re.compile(r"\b([a-z])\s?&\s?([a-z])\b")
"""``f&b``, ``p&l``, ``r&d``: one word of initials (``fb``)."""


def wordset(text: str) -> frozenset[str]:
    """The whitespace-separated words of ``text`` (for readable word lists in code)."""
    return frozenset(text.split())


def _load() -> dict[str, Any]:
    text = resources.files("prism_slack").joinpath("data", "lexicon.yaml").read_text("utf-8")
    data: dict[str, Any] = yaml.safe_load(text)
    return data


_DATA = _load()


def words(text: str) -> list[str]:
    """Lower-case word tokens; hyphenated words split (``no-show`` → ``no``, ``show``)."""
    out: list[str] = []
    text = _fold(text)  # "Atlântica", "café": the letters a rep types without accents
    text = _AMPERSAND.sub(r"\1\2", text.lower().replace("’", "'").replace("-", " "))
    for m in _TOKEN.finditer(text):
        token = m.group(0)
        if token.endswith("'s"):
            token = token[:-2]
        out.append(_FULL_YEAR.sub(r"\1\2", token.replace("'", "")))
    return out


_FULL_YEAR = re.compile(r"^(fy|cy|q[1-4]|h[12])(?:19|20)(\d\d)$")
"""A period with a four-digit year is the one a rep writes with two: ``FY2025`` is fy25."""


@cache
def _fold(text: str) -> str:
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def key_words(key: str) -> list[str]:
    """Words of a field key: ``trial_conversion_pct`` / ``trialConversion`` → words."""
    return list(_key_words(key))


@cache
def _key_words(key: str) -> tuple[str, ...]:
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", key)
    spaced = re.sub(r"'(?=\d\d\b)", " ", spaced)  # Q1'25: the quarter and its year
    return tuple(words(re.sub(r"[_.\-]+", " ", spaced)))


def stem(word: str) -> str:
    """A light, deterministic stem: enough to merge plurals and simple verb forms."""
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    w = w.replace("'", "")
    if len(w) > 4 and w.endswith("ies"):
        w = w[:-3] + "y"
    elif len(w) > 4 and w.endswith("sses"):
        w = w[:-2]
    elif len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    if len(w) >= 7 and w.endswith("ing"):
        w = w[:-3]
    elif len(w) >= 6 and w.endswith("ed"):
        w = w[:-2]
    if len(w) > 4 and w[-1] == w[-2] and w[-1] not in "aeioulsz":
        w = w[:-1]  # planned → plann → plan
    if len(w) > 4 and w.endswith("e"):
        w = w[:-1]
    return w


ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    str(k): tuple(words(str(v))) for k, v in _DATA["abbreviations"].items()
}
_PHRASES: dict[tuple[str, ...], str] = {
    tuple(words(str(k))): str(v) for k, v in _DATA["phrases"].items()
}
_MAX_PHRASE = max(len(p) for p in _PHRASES)

_CONCEPT: dict[str, str] = {}
for _concept, _words in _DATA["synonyms"].items():
    for _word in str(_words).split():
        _CONCEPT.setdefault(stem(_word), str(_concept))
_QUESTION_CONCEPT: dict[str, str] = dict(_CONCEPT)
for _concept, _words in _DATA["question_synonyms"].items():
    for _word in str(_words).split():
        _QUESTION_CONCEPT.setdefault(stem(_word), str(_concept))
_STOP_STEMS_RAW = frozenset(str(_DATA["stop"]).split())
_STOP_STEMS = frozenset(stem(w) for w in str(_DATA["stop"]).split()) - frozenset(_QUESTION_CONCEPT)
_SOFT_STEMS = frozenset(stem(w) for w in str(_DATA["soft"]).split())
_SOFT_CONCEPTS: dict[str, str] = {stem(k): str(v) for k, v in _DATA["soft_concepts"].items()}
PHRASE_TERMS = frozenset(_PHRASES.values())
"""Terms that name one thing made of several words (``grossmargin``, ``cfo``)."""
KNOWN: frozenset[str] = (
    frozenset(_QUESTION_CONCEPT.values())
    | frozenset(_QUESTION_CONCEPT)
    | PHRASE_TERMS
    | _SOFT_STEMS
)
"""Terms the lexicon knows: a question word among them is a real subject even when the
report lacks it (``cto``, ``nps``); a word outside them may be noise."""
VOCABULARY: frozenset[str] = frozenset(
    w
    for group in (
        *_DATA["synonyms"].values(),
        *_DATA["question_synonyms"].values(),
        _DATA["stop"],
        _DATA["soft"],
    )
    for w in str(group).split()
) | frozenset(w for phrase in _PHRASES for w in phrase)
"""Every word the lexicon lists, as written (targets for typo correction)."""


RECORD_FIELDS: dict[str, dict[str, tuple[str, ...]]] = {
    str(kind): {str(role): tuple(str(keys).split()) for role, keys in roles.items()}
    for kind, roles in _DATA["record_fields"].items()
}
"""Record kind (``finding``, ``person``) → field role → the keys a report may use for it."""
PERSON_ASKS: dict[str, frozenset[str]] = {
    str(role): frozenset(stem(w) for w in str(said).split())
    for role, said in _DATA["person_asks"].items()
}
"""Person field role → the words (stems) a follow-up asks it in (``after`` → needs)."""


def _devowel(word: str) -> str:
    return word[:1] + re.sub("[aeiou]", "", word[1:])


_DEVOWELLED: dict[str, str] = {}
for _stop in sorted(str(_DATA["stop"]).split(), key=lambda w: (-zipf_frequency(w, "en"), w)):
    _short = _devowel(_stop)
    if len(_short) >= 3 and not re.search("[aeiou]", _short):
        _DEVOWELLED.setdefault(_short, _stop)  # the commonest word wins: "frm" is "from"
"""Function words typed without their vowels ("mny", "wht", "thr" → many, what, their):
read as the stop word they are, so the shorthand weighs nothing, instead of an unknown word
that lowers every field's coverage. Three letters at least: two-letter forms ("bn", "hr")
are read only as listed abbreviations."""


def expand(tokens: Iterable[str]) -> list[str]:
    """Tokens with chat shorthand spelled out (listed abbreviations, and function words
    typed without vowels)."""
    out: list[str] = []
    for token in tokens:
        found = ABBREVIATIONS.get(token)
        if found is None and token in _DEVOWELLED and token not in _STOP_STEMS_RAW:
            found = (_DEVOWELLED[token],)
        out.extend(found or (token,))
    return out


_PARTICLES = wordset("down off away up out back")
"""A phrasal verb's particle, which may follow its object ("turn loads down", "sign it off")."""


def merge_phrases(tokens: list[str]) -> Iterator[tuple[str, tuple[str, ...]]]:
    """(term or token, the tokens it was made of). A two-word phrase ending in a particle
    also merges across one word between (``turn loads down`` → ``reject``, ``loads``)."""
    i = 0
    while i < len(tokens):
        if i + 2 < len(tokens) and tokens[i + 2] in _PARTICLES:
            split = _PHRASES.get((tokens[i], tokens[i + 2]))
            if split is not None and (tokens[i], tokens[i + 1]) not in _PHRASES:
                yield split, (tokens[i], tokens[i + 2])
                yield tokens[i + 1], (tokens[i + 1],)
                i += 3
                continue
        for size in range(min(_MAX_PHRASE, len(tokens) - i), 1, -1):
            merged = _PHRASES.get(tuple(tokens[i : i + size]))
            if merged is not None:
                yield merged, tuple(tokens[i : i + size])
                i += size
                break
        else:
            yield tokens[i], (tokens[i],)
            i += 1


def report_concept(stemmed: str) -> str:
    """The concept a stem stands for in a report (no question-only synonyms)."""
    return _CONCEPT.get(stemmed, stemmed)


def concept(word: str) -> str:
    """The concept a single word stands for (its synonym group), or its stem."""
    s = stem(word)
    return _CONCEPT.get(s, s)


def term_pairs(tokens: Iterable[str]) -> list[tuple[str, str]]:
    """``(stem, concept)`` of word tokens, stop words and one-letter tokens dropped."""
    return [(s, c) for s, c, _ in term_parts(tokens)]


def term_parts(
    tokens: Iterable[str], *, question: bool = False
) -> list[tuple[str, str, tuple[str, ...]]]:
    """``(stem, concept, words)``: ``term_pairs`` with the words each term was made of.
    ``question``: also read the question-only synonyms ("lose" → churn)."""
    concepts = _QUESTION_CONCEPT if question else _CONCEPT
    out: list[tuple[str, str, tuple[str, ...]]] = []
    for token, parts in merge_phrases(expand(tokens)):
        s = token if token in PHRASE_TERMS else stem(token)
        if len(s) < 2 or s in _STOP_STEMS:
            continue
        out.append((s, concepts.get(s, s), parts))
    return out


def terms(tokens: Iterable[str]) -> list[str]:
    """Concept terms of word tokens, stop words and one-letter tokens dropped."""
    return [c for _, c in term_pairs(tokens)]


def text_terms(text: str) -> list[str]:
    return terms(words(text))


def is_stop(word: str) -> bool:
    return stem(word) in _STOP_STEMS


def is_soft(term: str) -> bool:
    """A soft term sharpens ranking but never has to be matched."""
    return term in _SOFT_STEMS or term in _SOFT_CONCEPTS


def soft_concept(term: str) -> str | None:
    """The concept a soft term leans towards (``top`` → ``finding``), if any."""
    return _SOFT_CONCEPTS.get(term)


COACHING = "coaching"
SUMMARY = "summary"
BRIEF = "talkingpoints"
"""Talking points, what to lead with: the top findings with a figure and a move each."""
FINDING = "finding"
VENDOR = "vendor"
STAKEHOLDER = "stakeholder"
SCALE = "scale"
