"""Which company a message talks about, from the reports' names, aliases and domains.

Pure functions over precomputed keys; no I/O. A *key* is a normalised name (lower-case,
accents and punctuation dropped, ``&`` read as ``and``, a leading "the" and trailing legal
suffixes such as Inc, LLC, GmbH removed) held by one or more reports: an alias that two
reports share ("Northwind") is one key owned by both.

A message is tokenised the same way (possessives "Acme's" and "Acmes'" are read as "Acme").
Every run of up to a few consecutive tokens is compared with the keys *without spaces*, so
"North Wind" and "northwindoutfitters.com" find "Northwind" and "Northwind Outfitters":

- exactly (always, and the only way short keys match, so "NWO" needs the whole word), or
- with a few typos (optimal string alignment distance, at most ``allowed_edits`` of the
  key's length, same first letter), so "Nortwind Outfiters" still finds its company.

Overlapping matches keep the longest key ("Northwind Outfitters" beats the shared
"Northwind" inside it). A shared key is explained by a company named specifically elsewhere
in the message; otherwise every company it could mean is a candidate. One candidate is
``found``; several are ``ambiguous`` — never a guess.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz
from rapidfuzz.distance import OSA
from wordfreq import zipf_frequency

from prism_slack.ports import Detection
from prism_slack.reports.model import Report

LEGAL_SUFFIXES = frozenset(
    {
        "inc",
        "incorporated",
        "llc",
        "llp",
        "lp",
        "ltd",
        "limited",
        "gmbh",
        "ag",
        "sa",
        "plc",
        "corp",
        "corporation",
        "co",
        "company",
        "pty",
        "bv",
        "nv",
        "srl",
        "sarl",
        "kg",
    }
)
"""Trailing words dropped from names and aliases before matching ("Acme Inc." is "acme")."""

MIN_FUZZY_LEN = 5
"""Keys shorter than this (once spaces are dropped) match exactly or not at all."""

_TOKEN = re.compile(r"[a-z0-9]+(?:['’][a-z0-9]+)*['’]?")
_APOSTROPHES = re.compile(r"['’]")


def allowed_edits(length: int) -> int:
    """Typos tolerated in a key of ``length`` letters (spaces dropped)."""
    if length < MIN_FUZZY_LEN:
        return 0
    if length < 10:
        return 1
    if length < 20:
        return 2
    return 3


def _fold(text: str) -> str:
    """Lower-case, accents dropped, ``&`` read as "and"."""
    text = text.casefold()
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text)
        text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return text.replace("&", " and ")


def _tokens(text: str) -> list[tuple[str, str | None]]:
    """Tokens of ``text`` as (form, possessive alternative): "acme's" → ("acme", None),
    "acmes'" → ("acmes", "acme")."""
    return [(form, alt) for form, alt, _ in _spanned_tokens(text)]


def _spanned_tokens(text: str) -> list[tuple[str, str | None, tuple[int, int]]]:
    """``_tokens`` with each token's character span in ``text`` (``(0, 0)`` when folding
    changed the text's length, so spans cannot be mapped back)."""
    folded = _fold(text)
    mappable = len(folded) == len(text)
    out: list[tuple[str, str | None, tuple[int, int]]] = []
    for m in _TOKEN.finditer(folded):
        raw = m.group(0)
        form: str = raw
        alt: str | None = None
        if form.endswith(("'s", "’s")):
            form = form[:-2]
        elif form.endswith(("'", "’")):
            form = form[:-1]
            if form.endswith("s") and len(form) > 1:
                alt = form[:-1]
        out.append((_APOSTROPHES.sub("", form), alt, m.span() if mappable else (0, 0)))
    return out


def name_tokens(name: str) -> tuple[str, ...]:
    """A company name or alias as key tokens: leading "the" and legal suffixes dropped."""
    words = [form for form, _ in _tokens(name)]
    while len(words) > 1 and words[-1] in LEGAL_SUFFIXES:
        words.pop()
        if len(words) > 1 and words[-1] == "and":  # "GmbH & Co. KG"
            words.pop()
    if len(words) > 1 and words[0] == "the":
        words.pop(0)
    return tuple(words)


def normalise_name(name: str) -> str:
    """The comparable form of a company name: "Northwind Outfitters, Inc." → "northwind
    outfitters". Two names that normalise alike are the same company."""
    return " ".join(name_tokens(name))


def _domain_tokens(domain: str) -> tuple[str, ...]:
    text = _fold(domain).strip()
    text = re.sub(r"^[a-z][a-z0-9+.-]*://", "", text)
    text = text.split("/", 1)[0]
    text = re.sub(r"^www\.", "", text)
    return tuple(form for form, _ in _tokens(text))


@dataclass(frozen=True, slots=True)
class _Key:
    compact: str
    size: int
    slugs: frozenset[str]
    edits: int


@dataclass(frozen=True, slots=True)
class _Match:
    start: int
    end: int
    key: _Key
    distance: int

    def rank(self) -> tuple[int, int, int]:
        """Longer keys first, then fewer typos, then earlier in the text."""
        return (len(self.key.compact), -self.distance, -self.start)


def _report_names(report: Report) -> list[tuple[str, ...]]:
    company = report.company
    names = [name_tokens(company.name)] + [name_tokens(alias) for alias in company.aliases]
    if company.domain:
        names.append(_domain_tokens(company.domain))
    return [n for n in names if n]


_JOINERS = frozenset({"the", "and", "for"})


def _short_forms(names: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The first two words of a name of three or more ("cedar valley" for Cedar Valley
    Health Partners), unless one is a joining word ("bank of"): matched exactly, never as
    a typo."""
    return [
        n[:2]
        for n in names
        if len(n) >= 3
        and n[:2] not in names
        and not any(len(t) < 3 or t in _JOINERS for t in n[:2])
    ]


class CompanyIndex:
    """Detection over a fixed set of reports; build once, query many times."""

    def __init__(self, reports: Iterable[Report]) -> None:
        owners: dict[str, set[str]] = {}
        sizes: dict[str, int] = {}
        full: set[str] = set()
        self._labels: dict[str, list[str]] = {}
        for report in reports:
            names = _report_names(report)
            labels = [" ".join(n) for n in names] + [report.slug.replace("-", " ")]
            self._labels[report.slug] = labels
            # a domain is matched as written: read as a typo, its ending would swallow the
            # word after the name ("kestrelpoint win" is no "kestrelpoint.io")
            domain = _domain_tokens(report.company.domain) if report.company.domain else ()
            full.update("".join(n) for n in names if n != domain)
            for tokens in names + _short_forms(names):
                compact = "".join(tokens)
                owners.setdefault(compact, set()).add(report.slug)
                sizes[compact] = max(sizes.get(compact, 0), len(tokens))
        keys = [
            _Key(c, sizes[c], frozenset(s), allowed_edits(len(c)) if c in full else 0)
            for c, s in owners.items()
        ]
        self._exact: dict[str, _Key] = {k.compact: k for k in keys}
        self._prefixes: frozenset[str] = frozenset(
            k.compact[:i] for k in keys for i in range(1, len(k.compact) + 1)
        )
        self._fuzzy: dict[str, list[_Key]] = {}
        for key in keys:
            if key.edits:
                self._fuzzy.setdefault(key.compact[0], []).append(key)
        self._max_len = max((len(k.compact) + k.edits for k in keys), default=0)
        self._max_size = max((k.size for k in keys), default=0) + 1

    @property
    def slugs(self) -> list[str]:
        return sorted(self._labels)

    def _matches(self, text: str) -> list[_Match]:
        return self._matches_in(_tokens(text))

    def _matches_in(self, tokens: Sequence[tuple[str, str | None]]) -> list[_Match]:
        found: list[_Match] = []
        for i, (first, first_alt) in enumerate(tokens):
            fuzzy = self._fuzzy.get(first[:1], ())
            exact_possible = first in self._prefixes or (
                first_alt is not None and first_alt in self._prefixes
            )
            if not fuzzy and not exact_possible:
                continue
            compact = ""
            for j in range(i, min(i + self._max_size, len(tokens))):
                form, alt = tokens[j]
                forms = (compact + form,) if alt is None else (compact + form, compact + alt)
                compact = forms[0]
                if len(compact) > self._max_len:
                    break
                size = j - i + 1
                for candidate in forms:
                    hit = self._exact.get(candidate)
                    if hit is not None:
                        found.append(_Match(i, j + 1, hit, 0))
                        continue
                    for key in fuzzy:
                        if abs(key.size - size) > 1 or abs(len(key.compact) - len(candidate)) > (
                            key.edits
                        ):
                            continue
                        distance = OSA.distance(candidate, key.compact, score_cutoff=key.edits)
                        if distance <= key.edits:
                            found.append(_Match(i, j + 1, key, distance))
        return found

    def detect(self, text: str) -> Detection:
        """The company ``text`` names: ``found`` (one slug), ``ambiguous`` or ``none``."""
        kept = _kept(self._matches(text))
        specific = {slug for m in kept if len(m.key.slugs) == 1 for slug in m.key.slugs}
        candidates = set(specific)
        for match in kept:
            if not match.key.slugs & specific:
                candidates |= match.key.slugs
        if not candidates:
            return Detection(status="none")
        status = "found" if len(candidates) == 1 else "ambiguous"
        return Detection(status=status, slugs=sorted(candidates), named=sorted(specific))

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Character spans of ``text`` that name a company (the matches ``detect`` keeps),
        in text order. Empty where accents or ligatures made spans unmappable."""
        spanned = _spanned_tokens(text)
        kept = _kept(self._matches_in([(form, alt) for form, alt, _ in spanned]))
        spans = [(spanned[m.start][2][0], spanned[m.end - 1][2][1]) for m in kept]
        return sorted(s for s in spans if s[1] > s[0])

    def strip(self, text: str) -> str:
        """``text`` with every span naming a company removed ("nortwind outfiters revenue?"
        → " revenue?"), so the name's words are not read as the question's subject."""
        out, at = [], 0
        for start, end in self.spans(text):
            out.append(text[at:start])
            at = end
        out.append(text[at:])
        return " ".join("".join(out).split())

    def suggest(self, text: str, limit: int = 3) -> list[str]:
        """Every company ranked by how closely its names resemble ``text``; best first."""
        query = " ".join(form for form, _ in _tokens(text))
        scored = [(_similarity(query, labels), slug) for slug, labels in self._labels.items()]
        scored.sort(key=lambda item: (-item[0], item[1]))
        return [slug for _, slug in scored[: max(limit, 0)]]


SUFFIX_WORDS = LEGAL_SUFFIXES - {"co", "company", "sa", "ag", "lp", "kg", "nv", "bv"}
"""Legal suffixes that mark a company name in any case ("acme corp"); the short ones that
are also common words or initials are left out."""
COMMON_WORD = 4.0
"""Zipf frequency from which a capitalised word is an ordinary English word, not a name."""
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9&'’.-]*[A-Za-z0-9]|[A-Za-z]")
_POSSESSIVE = re.compile(r"['’]s$", re.IGNORECASE)
"""A possessive ending is no part of a name ("Acme's revenue", "Acme Corp's")."""


def unknown_company(text: str, *, capitalised: bool = True) -> str | None:
    """A company name ``text`` uses, as written: one or two words before a legal suffix
    ("Acme Corp", "globex inc"), or, with ``capitalised``, a run of capitalised words none
    of which is an ordinary English word or an acronym ("Initech", "Vandelay Industries";
    never the message's first word alone). The caller checks it names no known company."""
    words = [
        (_POSSESSIVE.sub("", m.group(0)).rstrip(".’'"), m.start()) for m in _WORD.finditer(text)
    ]
    for i, (word, _) in enumerate(words):
        if word.lower() in SUFFIX_WORDS and i > 0:
            head = [w for w, _ in words[max(0, i - 2) : i]]
            if len(head) == 2 and not head[0][:1].isupper():
                head = head[1:]
            return " ".join([*head, word])
    if not capitalised:
        return None
    run: list[str] = []
    for i, (word, _) in enumerate(words):
        if _name_word(word) and (i > 0 or _name_word_after(words, i)):
            run.append(word)
        elif run:
            break
    return " ".join(run) or None


def _name_word(word: str) -> bool:
    return (
        word[:1].isupper()
        and not word.isupper()
        and zipf_frequency(word.lower(), "en") < COMMON_WORD
    )


def _name_word_after(words: list[tuple[str, int]], i: int) -> bool:
    return i + 1 < len(words) and _name_word(words[i + 1][0])


def _kept(matches: list[_Match]) -> list[_Match]:
    """Non-overlapping matches, longest keys (then fewest typos, earliest) first."""
    kept: list[_Match] = []
    for match in sorted(matches, key=_Match.rank, reverse=True):
        if all(match.end <= k.start or match.start >= k.end for k in kept):
            kept.append(match)
    return kept


def _similarity(query: str, labels: Sequence[str]) -> float:
    if not query:
        return 0.0
    squeezed = query.replace(" ", "")
    return max(
        max(fuzz.WRatio(query, label), fuzz.ratio(squeezed, label.replace(" ", "")))
        for label in labels
    )
