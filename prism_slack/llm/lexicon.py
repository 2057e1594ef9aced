"""Words for the offline answerer and the playbook: tokens, light stems, synonym concepts.

A text becomes a sequence of *terms*:

1. lower-case word tokens (letters and digits; apostrophes dropped, possessive ``'s`` cut;
   hyphenated words split into their parts);
2. multi-word phrases merged into one term (``top line`` → ``revenue``, ``e commerce`` →
   ``ecommerce``, ``annual recurring revenue`` → ``arr``);
3. a light stem (plural ``-s``/``-ies``, ``-ing``/``-ed`` on long words, final ``-e``);
4. the stem mapped to its synonym *concept* (``profitability`` → ``margin``,
   ``provider`` → ``vendor``), or kept as is.

Question words that carry no subject (``what``, ``their``, ``please``) are *stop* terms;
words that only sharpen a subject (``rate``, ``total``, ``biggest``) are *soft*: they help
ranking but an answer never has to match them.

The verifier keeps its own vocabulary (``prism_slack/verify/lexicon.py``) on purpose: the
checker shares no word lists with an answerer it checks, so a gap in one cannot hide the
same gap in the other.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z0-9]+)*")

_PHRASES: dict[tuple[str, ...], str] = {
    ("e", "commerce"): "ecommerce",
    ("e", "mail"): "email",
    ("e", "mails"): "email",
    ("top", "line"): "revenue",
    ("annual", "recurring", "revenue"): "arr",
    ("monthly", "recurring", "revenue"): "mrr",
    ("gross", "merchandise", "value"): "gmv",
    ("average", "order", "value"): "aov",
    ("net", "promoter", "score"): "nps",
    ("customer", "acquisition", "cost"): "cac",
    ("lifetime", "value"): "ltv",
    ("decision", "maker"): "buyer",
    ("decision", "makers"): "buyer",
    ("talk", "to"): "stakeholder",
    ("speak", "to"): "stakeholder",
    ("reach", "out", "to"): "stakeholder",
    ("meet", "with"): "stakeholder",
    ("site", "search"): "search",
    ("tech", "stack"): "vendor",
    ("next", "step"): "nextstep",
    ("next", "steps"): "nextstep",
    ("follow", "up"): "nextstep",
    ("bring", "up"): "raise",
    ("red", "flag"): "finding",
    ("red", "flags"): "finding",
    ("what", "went", "wrong"): "finding",
    ("tl", "dr"): "summary",
    ("stock", "price"): "stockprice",
    ("sales", "cycle"): "salescycle",
    ("quick", "win"): "quickwin",
    ("quick", "wins"): "quickwin",
    ("days", "sales", "outstanding"): "dso",
    ("inside", "sales"): "insidesales",
    ("share", "price"): "stockprice",
}
_MAX_PHRASE = max(len(p) for p in _PHRASES)

# concept → its words (stemmed on import). The first word names the concept.
_SYNONYMS: dict[str, str] = {
    "revenue": "revenue sales topline turnover",
    "margin": "margin profitability profitable profit",
    "growth": "growth grow grew growing grown yoy",
    "vendor": "vendor provider platform tool tooling stack use used uses using software "
    "technology tech system solution processor gateway run runs powered supplier",
    "stakeholder": "stakeholder people contact person talk speak persona",
    "conversion": "conversion convert converting converted cvr",
    "churn": "churn retention retain attrition cancellation cancel",
    "search": "search searching",
    "email": "email newsletter esp mail mailing",
    "payment": "payment pay paying",
    "crm": "crm",
    "score": "score rating rated grade graded scorecard",
    "finding": "finding find issue problem risk concern weakness flaw pain wrong",
    "summary": "summary summarize summarise overview recap tldr highlight takeaway rundown gist",
    "employee": "employee headcount staff workforce fte",
    "hq": "hq headquarter headquarters headquartered based located where",
    "founded": "founded established founding inception",
    "analytics": "analytics analytic",
    "budget": "budget spend spends spending",
    "industry": "industry sector vertical",
    "competitor": "competitor competition rival",
    "domain": "domain website url",
    "buyer": "buyer buying",
    "auditor": "auditor author wrote written",
    "coaching": "open opener opening pitch approach coach coaching advice advise tip prepare "
    "prep handle objection pushback position angle start kick kickoff say raise frame "
    "discovery call meeting conversation strategy playbook move ask nextstep close respond "
    "reply plan quickwin",
}


def wordset(text: str) -> frozenset[str]:
    """The whitespace-separated words of ``text`` (for readable word lists in code)."""
    return frozenset(text.split())


_STOP_WORDS = wordset(
    """
    a an the is are was were be been being am do does did doing done have has had having
    what whats which whose why how i me my mine we our ours you your yours they them their
    theirs it its this that these those there here of in on at for to from by with about as
    into onto over under and or but if so than then can could should would will shall may
    might must please tell give show know let us any some all just also really actually
    currently current now today right get got like s t anything something much many more
    most very quite up out again dont don didnt doesnt isnt arent im id ive youre thats
    audit report prospect company account they're it's tell me able need want go going
    look looking see think thing things one ones each every kind sort type info
    information detail details data say said
    """
)

_SOFT_WORDS = wordset(
    """
    rate number total overall level amount figure value big biggest large largest size fast
    high highest low lowest good bad main key primary latest recent last annual yearly
    average avg stat stats top best worst major important doing performance status state
    right when count who whom time
    """
)


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
    if len(w) > 4 and w.endswith("e"):
        w = w[:-1]
    return w


_CONCEPT: dict[str, str] = {}
for _concept, _words in _SYNONYMS.items():
    for _word in _words.split():
        _CONCEPT.setdefault(stem(_word), _concept)
_STOP_STEMS = frozenset(stem(w) for w in _STOP_WORDS) - frozenset(_CONCEPT)
_SOFT_STEMS = frozenset(stem(w) for w in _SOFT_WORDS) - frozenset(_CONCEPT)
_SOFT_CONCEPTS: dict[str, str] = {
    stem("top"): "finding",
    stem("biggest"): "finding",
    stem("who"): "stakeholder",
    stem("whom"): "stakeholder",
}


def words(text: str) -> list[str]:
    """Lower-case word tokens; hyphenated words split (``no-show`` → ``no``, ``show``)."""
    out: list[str] = []
    for m in _TOKEN.finditer(text.lower().replace("’", "'").replace("-", " ")):
        token = m.group(0)
        if token.endswith("'s"):
            token = token[:-2]
        out.append(token.replace("'", ""))
    return out


def key_words(key: str) -> list[str]:
    """Words of a field key: ``trial_conversion_pct`` / ``trialConversion`` → words."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", key)
    return words(re.sub(r"[_.\-]+", " ", spaced))


def _merge_phrases(tokens: list[str]) -> Iterator[str]:
    i = 0
    while i < len(tokens):
        for size in range(min(_MAX_PHRASE, len(tokens) - i), 1, -1):
            merged = _PHRASES.get(tuple(tokens[i : i + size]))
            if merged is not None:
                yield merged
                i += size
                break
        else:
            yield tokens[i]
            i += 1


def concept(word: str) -> str:
    """The concept a single word stands for (its synonym group), or its stem."""
    s = stem(word)
    return _CONCEPT.get(s, s)


def term_pairs(tokens: Iterable[str]) -> list[tuple[str, str]]:
    """``(stem, concept)`` of word tokens, stop words and one-letter tokens dropped."""
    out: list[tuple[str, str]] = []
    for token in _merge_phrases(list(tokens)):
        s = stem(token)
        if len(s) < 2 or s in _STOP_STEMS:
            continue
        out.append((s, _CONCEPT.get(s, s)))
    return out


def terms(tokens: Iterable[str]) -> list[str]:
    """Concept terms of word tokens, stop words and one-letter tokens dropped."""
    return [c for _, c in term_pairs(tokens)]


def text_terms(text: str) -> list[str]:
    return terms(words(text))


def is_soft(term: str) -> bool:
    """A soft term sharpens ranking but never has to be matched."""
    return term in _SOFT_STEMS


def soft_concept(term: str) -> str | None:
    """The concept a soft term leans towards (``top`` → ``finding``), if any."""
    return _SOFT_CONCEPTS.get(term)


COACHING = "coaching"
SUMMARY = "summary"
FINDING = "finding"
STAKEHOLDER = "stakeholder"
