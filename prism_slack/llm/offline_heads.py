"""The head of a count ask: the thing "how many X" counts, read from the question's own words
(and the subject of a frequency ask: "how often do the sensors break").

In "how many farms are on the platform" the rep counts *farms*; "on the platform" only
places them. The head is the last word of the run of subject words straight after "how
many", "number of" or "count of" (an English compound's last word names the thing:
"active grower accounts" counts accounts); the subject words after that run qualify it.
"How much" asks for an amount, not a count, and has no head here.

The composer uses the head twice (``offline.Composer``):

- when no field answers the whole question, it asks again with the qualifiers as soft
  words, so a field named by the head alone still answers ("how many growers are on the
  platform" → ``Active grower accounts``);
- a count is answered by a field whose name (key, a table row's name, its unit) holds the
  head, or by a passage that counts it ("27,800 probes"); a passage that only mentions
  the thing ("19 farm visits") does not count it, and the reply says the count is not in
  the report, with the counts the report keeps offered as near facts;
- a head the report never mentions ("sensors", "trucks") is said to be missing, by name,
  beside the nearest facts: the report's counts for a count, what answers the rest of a
  frequency ask ("break": the failures it records).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from prism_slack.llm import lexicon

_COUNT_LEADS = (("how", "many"), ("number", "of"), ("count", "of"))
_FREQUENCY_LEAD = ("how", "often")
"""A frequency ask: its head is the subject after the verb ("how often do the sensors
break": sensors)."""
_DURATIONS = frozenset(
    map(lexicon.stem, lexicon.wordset("seconds minutes hours days weeks months quarters years"))
)
"""Units of time: "how many days…" asks how long, not how many of a thing."""
_NAMES = re.compile(r"(?<=\w\W)\b[A-Z][a-z]+\b")
"""A capitalised word inside the question: a name, which always qualifies ("in Brazil")."""


@dataclass(frozen=True)
class AskHead:
    """What a count ask counts, or what a frequency ask is about."""

    word: str
    """The head as the rep typed it (spelling corrected): ``farms``."""
    term: str
    """Its index term: ``farm``."""
    qualifiers: frozenset[str]
    """The terms of the words that place the head after it, names left out: ``vendor``
    for "are on the platform" (none in "customers bail at checkout")."""
    counts: bool = True
    """A count ("how many farms"), not a frequency ("how often do the sensors break")."""


def ask_head(text: str, correct: Callable[[str], str]) -> AskHead | None:
    """The head of the count or frequency ``text`` asks for (``correct``: the report's
    spelling of a word), or ``None`` when it asks for neither ("how much cash")."""
    said = _said(text, correct)
    words = [word for word, _ in said]
    start, counts = _lead_end(words)
    if start is None:
        return None
    if not counts:  # "how often do the sensors break": past the verb and the article
        while start < len(words) and lexicon.is_stop(words[start]):
            start += 1
    run: list[str] = []
    for word in words[start:]:
        if lexicon.is_stop(word) or not lexicon.terms([word]):
            break
        run.append(word)
    if not run:
        return None
    # the last plural of the run is the thing counted ("how many trials turn into…": the
    # trials); a run with no plural ends in it ("how many staff")
    plural = [i for i, w in enumerate(run) if len(w) > 3 and w.endswith("s") and w[-2] != "s"]
    run = run[: plural[-1] + 1] if plural else run
    end = start + len(run)
    if lexicon.stem(run[-1]) in _DURATIONS or words[end : end + 1] == ["of"]:
        return None  # "how many days of cash", "how many weeks does it take": a measure
    term = lexicon.terms(run[-1:])[0]
    names = {t for name in _NAMES.findall(text) for t in lexicon.text_terms(name)}
    placed = end < len(words) and lexicon.is_stop(words[end])
    # "farms are on the platform": what follows a verb of being or a preposition places
    # the head; "customers bail at checkout": a verb straight after it is the ask itself
    qualifiers = frozenset(lexicon.terms(words[end:])) - names - {term} if placed else frozenset()
    return AskHead(word=said[end - 1][1], term=term, qualifiers=qualifiers, counts=counts)


def _said(text: str, correct: Callable[[str], str]) -> list[tuple[str, str]]:
    """(word as read, word as shown) of ``text``: typos corrected and shorthand spelled
    out, a word the correction only changed in number shown as typed ("farms", not the
    report's "farm")."""
    out: list[tuple[str, str]] = []
    for raw in lexicon.words(text):
        fixed = correct(raw)
        spelled = lexicon.expand([fixed])
        same = len(spelled) == 1 and lexicon.stem(raw) == lexicon.stem(spelled[0])
        out += [(word, raw if same else word) for word in spelled]
    # a phrase is one word ("hit the site": session), shown as typed
    shown = dict(reversed(out))
    merged = lexicon.merge_phrases([word for word, _ in out])
    return [(term, " ".join(shown[w] for w in parts)) for term, parts in merged]


def _lead_end(words: list[str]) -> tuple[int | None, bool]:
    """Where the words after "how many" (or "how often") start, and whether it counts."""
    for i in range(len(words) - 1):
        pair = (words[i], words[i + 1])
        if pair in _COUNT_LEADS or pair == _FREQUENCY_LEAD:
            return i + 2, pair != _FREQUENCY_LEAD
    return None, True


def is_duration(measure: str) -> bool:
    """``measure`` is a unit of time ("working days", "months")."""
    return any(lexicon.stem(word) in _DURATIONS for word in lexicon.words(measure))


def counts_in(text: str, head: str) -> bool:
    """``text`` counts ``head``: a figure, at most two words, then the head word, and no
    further subject word ("27,800 probes", "1,630 grower accounts"; not "19 farm visits"
    for farms)."""
    tokens = lexicon.words(text)
    want = lexicon.stem(head)
    for i, token in enumerate(tokens):
        if not token[:1].isdigit():
            continue
        for j in range(i + 1, min(i + 4, len(tokens))):
            if lexicon.stem(tokens[j]) != want:
                continue
            following = tokens[j + 1] if j + 1 < len(tokens) else None
            if following is None or lexicon.is_stop(following) or following[:1].isdigit():
                return True
    return False
