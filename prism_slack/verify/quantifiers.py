"""Quantifiers (check 7, facts): a claim about a whole group (``every``, ``all``,
``none``, ``no``, ``never``) citing passages whose clauses speak only of part of it
fails — ``Every demo call starts with the rep correcting the price`` citing ``… one in
four began with the rep correcting the price``.

A clause speaks of part of a group when it says ``only``, ``most``, ``some`` …
(``lexicon.PARTIALS``), ``two of`` or a share short of all (``63% of``, ``one in four``);
it speaks of the whole when it uses a quantifier of the claim's own sense (``every``,
``all``, ``each`` for a claim of all; ``no``, ``none``, ``never`` … for a claim of none)
and no such part. ``63% of trial accounts never connect`` speaks of part: its ``never``
is about the 63%, so ``No trial account ever connects`` exaggerates it. Clauses (cut at
commas and sentence ends) are read one by one, and only those that share the most content
words with the claim (the ones it restates) count; a claim that itself speaks of part
(``More than 60% … never``) is not about the whole.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from prism_slack.language import stem, words
from prism_slack.verdict import Problem
from prism_slack.verify import concepts, lexicon
from prism_slack.verify.numbers import QKind, scan

_CLAUSE = re.compile(r"(?<=[.;!?,])\s+")
_PART_OF = re.compile(r"\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten)\s+of\b", re.I)


def quantifier_problems(claim: str, passages: Sequence[tuple[str, str]]) -> list[Problem]:
    """``claim``: the claim's text; ``passages``: (path, text) of each cited text."""
    tokens = words(claim)
    said = set(tokens)
    every, none = lexicon.WHOLE_GROUP, lexicon.NO_MEMBER
    sense = every if said & every else none if said & (none - {"no"}) or _leads_no(tokens) else None
    if sense is None or _part(claim) is not None:
        return []  # no whole group, or the claim itself speaks of part of it
    topic = {stem(w) for w in concepts.content_words(claim)}
    scored = [
        (len(topic & {stem(w) for w in concepts.content_words(clause)}), path, clause)
        for path, text in passages
        for clause in _CLAUSE.split(text)
    ]
    best = max((n for n, _, _ in scored), default=0)
    about = [(path, clause, _part(clause)) for n, path, clause in scored if n == best and n]
    if any(part is None and set(words(clause)) & sense for _, clause, part in about):
        return []  # the clause the claim restates speaks of the whole too
    for path, _, part in about:
        if part is not None:
            quantifier = min(said & sense) if said & sense else "no"
            message = f"the claim says {quantifier}, but {path} says {part}"
            return [Problem("attribute.whole_for_part", message)]
    return []


def _leads_no(tokens: Sequence[str]) -> bool:
    """``No trial account …``: ``no`` as a determiner, not an answer or ``no longer``."""
    return any(
        t == "no" and i + 1 < len(tokens) and tokens[i + 1] not in {"longer", "more", "one"}
        for i, t in enumerate(tokens)
    )


def _part(text: str) -> str | None:
    """What in ``text`` speaks of part of a group, if anything."""
    found = sorted(set(words(text)) & lexicon.PARTIALS)
    if found:
        return found[0]
    m = _PART_OF.search(text)
    if m is not None:
        return m.group(0)
    shares = [
        q.text
        for q in scan(text, report_text=True).quantities
        if q.kind is QKind.PERCENT and 0 < q.value < 100
    ]
    return shares[0] if shares else None
