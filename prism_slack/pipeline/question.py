"""Reading a question's text before anything answers it: Slack markup made plain, and
whether it is written in English.

- ``plain``: Slack message markup as the words a rep typed. ``<!channel>``, ``<!here>``
  and user mentions (``<@U123>``, ``<@U123|ana>``) carry no subject and are dropped; a
  link shows its label (``<https://x|the deck>`` → ``the deck``) or its address; a
  channel its name (``<#C1|deals>`` → ``#deals``); ``&amp;``, ``&lt;``, ``&gt;`` their
  characters.
- ``english``: whether the words read as English. Each word is looked up in the word
  frequency lists of English and of other languages (wordfreq, offline): a word much
  more common in another language than in English leans foreign (``ingresos``,
  ``umsatz``), one common in English leans English; typos, figures and names (a word
  capitalised after the first) lean nowhere. A question is foreign when most of its
  letters are of a non-Latin script (Chinese, Cyrillic, Arabic), when it has letters of
  such a script and no English word (a Latin company name in a Chinese question), or when
  its foreign-leaning words outnumber its English ones (and there are at least two of
  them). A misspelled English question stays English, so it is answered rather than
  refused.
"""

from __future__ import annotations

import html
import re
import unicodedata
from functools import lru_cache

from wordfreq import zipf_frequency

OTHER_LANGUAGES = ("es", "de", "fr", "pt", "it", "nl", "pl", "sv", "tr", "id")
"""Languages a word is compared in (Latin-script languages a rep may write)."""
FOREIGN_MARGIN = 1.5
"""A word leans foreign when another language uses it this much more (Zipf) than English."""
COMMON = 3.0
"""Zipf frequency from which a word is a real word of a language (once per million)."""

ENGLISH_ONLY = (
    "I read questions in English only. Ask me again in English and I'll answer from the "
    "audit report."
)

_SPECIAL = re.compile(r"<!(?:channel|here|everyone)(?:\|[^>]*)?>|<!subteam\^[^>]*>")
_USER = re.compile(r"<@[UW][A-Z0-9]+(?:\|[^>]*)?>")
_CHANNEL = re.compile(r"<#[A-Z0-9]+(?:\|([^>]*))?>")
_LINK = re.compile(r"<((?:https?|mailto|tel):[^|>]+)(?:\|([^>]*))?>")
_OTHER = re.compile(r"<![^>]*>")
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def plain(text: str) -> str:
    """``text`` with Slack markup replaced by what it shows, and spaces collapsed."""
    text = _SPECIAL.sub(" ", text)
    text = _USER.sub(" ", text)
    text = _CHANNEL.sub(lambda m: f"#{m.group(1)}" if m.group(1) else " ", text)
    text = _LINK.sub(lambda m: m.group(2) or m.group(1).split(":", 1)[-1], text)
    text = _OTHER.sub(" ", text)
    return " ".join(html.unescape(text).split())


def english(text: str) -> bool:
    """Whether ``text`` reads as English (or has too few words to tell)."""
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return True
    latin = sum(1 for ch in letters if _latin(ch))
    if latin < len(letters) / 2:
        return False
    foreign = native = 0
    for i, found in enumerate(_WORD.finditer(text)):
        word = found.group(0)
        if not all(map(_latin, word)) or (i and word[:1].isupper()):
            continue  # another script's word, or a name ("Müller GmbH revenue?")
        if (
            text[found.end() : found.end() + 1].isdigit()
            or text[found.start() - 1 : found.start()].isdigit()
        ):
            continue  # a code with its number ("fy23", "q3"), no word of a language
        lean = _lean(word.lower())
        foreign += lean < 0
        native += lean > 0
    # "Kestrelpoint的收入是多少？": a Latin name in a question of another script
    other_script = len(letters) - latin >= 2 and native == 0
    return not (other_script or (foreign >= 2 and foreign > native))


def _latin(ch: str) -> bool:
    return ch.isascii() or "LATIN" in unicodedata.name(ch, "")


@lru_cache(maxsize=4096)
def _lean(word: str) -> int:
    """1: an English word; -1: a word of another language; 0: neither (a typo, a name)."""
    en = zipf_frequency(word, "en")
    other = max(zipf_frequency(word, lang) for lang in OTHER_LANGUAGES)
    if other >= COMMON and other >= en + FOREIGN_MARGIN:
        return -1
    if en >= COMMON and en + FOREIGN_MARGIN > other:
        return 1
    return 0
