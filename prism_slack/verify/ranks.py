"""Ranks: ``Personalization is their weakest area, at 3 out of 10`` citing ``scores``.

A superlative (``weakest``, ``lowest``, ``highest``, ``best`` …, maybe after an ordinal:
``second-highest``) next to a warranted figure ranks that figure's field among its peers:
the other numeric fields of the same object (``scores.*``, scales left out) or the same
column of the other items of a list (``rows[*].points``), at least ``MIN_PEERS`` of them.
The rank is computed, never guessed: when it is the one the claim states, the superlative
is warranted (check 7 finds it); when it is not, the claim fails, naming the field that
holds that rank. A superlative with no such figure, or whose figure's field the claim does
not name (a figure that only happens to equal it), is left to the other rules.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from prism_slack import language
from prism_slack.evidence import first_segment
from prism_slack.facts.model import FactKind, TypedFact, Unit
from prism_slack.facts.words import key_words
from prism_slack.language import stem, words
from prism_slack.verdict import Problem
from prism_slack.verify import lexicon
from prism_slack.verify.anchors import Anchoring
from prism_slack.verify.concepts import WordSet
from prism_slack.verify.index import LeafFacts, VerifierIndex
from prism_slack.verify.text import path_words

MIN_PEERS = 3
"""A rank among fewer fields than this says too little to check."""

REACH = 60
"""How many characters from the superlative the figure it ranks may sit."""

_SUPERLATIVE = re.compile(
    r"\b(?:("
    + "|".join(lexicon.RANK_ORDINALS)
    + r")[\s-]+)?("
    + "|".join(sorted(lexicon.LOWEST | lexicon.HIGHEST))
    + r")\b"
)


@dataclass(frozen=True, slots=True)
class Ranked:
    """What the rank rule found: the spans of warranted superlatives, and problems."""

    spans: tuple[tuple[int, int], ...] = ()
    problems: tuple[Problem, ...] = ()


def rank_findings(
    masked: str,
    anchorings: Sequence[Anchoring],
    index: VerifierIndex,
    *,
    cited: WordSet,
    paths: Sequence[str] = (),
) -> Ranked:
    """Check each superlative of ``masked`` (the claim, quantities masked) against the
    nearest warranted figure's peers in the report (``index``), else among the members of
    a cited collection (``paths``) the claim names by label (``named_ranks``). A
    superlative the cited values or keys say themselves (``highest_mark``, ``largest
    city``, ``best actress``) is their wording, not a rank."""
    spans: list[tuple[int, int]] = []
    problems: list[Problem] = []
    decided: list[tuple[int, int]] = []
    said = {stem(w) for w in words(masked)}
    for m in _SUPERLATIVE.finditer(masked.lower()):
        if cited.has(m.group(2)):
            continue
        figure = _nearest(m, anchorings)
        if figure is None:
            continue
        leaf, value = figure
        if not said & {stem(w) for w in path_words(leaf.path.rpartition(".")[2])}:
            continue  # the claim does not name the field it ranks
        peers = _peers(leaf.path, index)
        if len(peers) < MIN_PEERS:
            continue
        low = _runs_low(m.group(2), leaf.path.rpartition(".")[0], index)
        stated = lexicon.RANK_ORDINALS.get(m.group(1) or "", 1)
        ordered = sorted(set(peers.values()), reverse=not low)
        rank = ordered.index(value) + 1
        decided.append(m.span())
        if rank == stated:
            spans.append(m.span())
            continue
        holder = min(p for p, v in peers.items() if v == ordered[min(stated, len(ordered)) - 1])
        message = (
            f"'{m.group(0)}': {leaf.path} = {value} ranks {rank} of {len(peers)}; "
            f"{holder} = {peers[holder]} is the {m.group(0)}"
        )
        problems.append(Problem("attribute.rank", message))
    named = named_ranks(masked, paths, index, decided=decided)
    return Ranked((*spans, *named.spans), (*problems, *named.problems))


def _nearest(m: re.Match[str], anchorings: Sequence[Anchoring]) -> tuple[LeafFacts, Decimal] | None:
    best: tuple[int, LeafFacts, Decimal] | None = None
    for a in anchorings:
        if a.derivation is not None or a.counts or not a.quantity.numeric:
            continue
        gap = max(a.quantity.start - m.end(), m.start() - a.quantity.end, 0)
        for source in a.sources:
            if not isinstance(source, LeafFacts):
                continue
            value = _value(source)
            if value is not None and gap <= REACH and (best is None or gap < best[0]):
                best = (gap, source, value)
    return None if best is None else (best[1], best[2])


def _value(leaf: LeafFacts) -> Decimal | None:
    """The leaf's one number: a number value, or a text that is only that number (a
    table's ``"30"``); ``None`` for anything else (a sentence, a scale)."""
    numbers = [q for q in leaf.quantities if q.numeric and not q.from_path and not q.is_scale]
    if len({q.value for q in numbers}) != 1:
        return None  # (one number read two ways, ``3`` and ``3/10``, is one number)
    q = numbers[0]
    whole = leaf.value_text is None or leaf.value_text.text == q.text.replace(" ", "")
    return q.value if whole else None


def _peers(path: str, index: VerifierIndex) -> dict[str, Decimal]:
    """The fields ``path`` ranks among, with their values (``path`` included)."""
    head, _, key = path.rpartition(".")
    item = re.fullmatch(r"(.*)\[\d+\]", head)
    if item is not None:  # rows[3].points → rows[*].points
        items = len(index.records.get(item.group(1), ()))
        paths = [f"{item.group(1)}[{i}].{key}" for i in range(items)]
    else:  # scores.security → scores.*
        paths = index.children.get(head, [])
    out = {}
    for other in paths:
        leaf = index.leaves.get(other)
        value = _value(leaf) if leaf is not None else None
        if value is not None:
            out[other] = value
    return out


# -- a member named by its label ("Data integration is their weakest area") ---------------

SIZE_WORDS = lexicon.words("size_superlatives")
QUALITY_WORDS = lexicon.words("quality_superlatives")
_INVERTED = re.compile(
    r"\blower\s+(?:is|=|means)\s+better\b|\b1\s*(?:=|is|:)\s*(?:[\w-]+\s+){0,3}\(?best\b", re.I
)
"""A scale whose best is its lowest number: "lower is better", "1 = sehr gut (best)"."""


def _runs_low(word: str, path: str, index: VerifierIndex) -> bool:
    """Does the superlative ``word`` rank ``path``'s collection from its lowest number: a
    low-end word (``weakest``), or a high-end word of quality (``best``) on a scale the
    text beside the collection says runs the other way?"""
    low = word in lexicon.LOWEST
    return not low if word in QUALITY_WORDS and _lower_is_better(path, index) else low


def _lower_is_better(path: str, index: VerifierIndex) -> bool:
    """Does the text beside ``path``'s collection (its own or its parents' values) say
    its scale runs the other way?"""
    for container in _with_parents(path):
        for leaf in index.evidence.resolve(container) or []:
            if isinstance(leaf.value, str) and _INVERTED.search(leaf.value):
                return True
    return False


@dataclass(frozen=True, slots=True)
class _Member:
    label: str
    stems: frozenset[str]
    values: dict[str, TypedFact]
    """Relative path (``[1]``, ``.utilisation``) → its numeric fact."""


def named_ranks(
    masked: str,
    paths: Sequence[str],
    index: VerifierIndex,
    *,
    decided: Sequence[tuple[int, int]],
) -> Ranked:
    """Each superlative the figure rule left (``decided``: the spans it judged) ranked among
    the members of a cited collection — a table's rows, a list's records, an object's
    objects or fields — when the claim names one member by its label near the superlative
    and one measure of the members can be meant. The rank is computed from the typed
    facts; a collection, member or measure that cannot be told decides nothing."""
    spans: list[tuple[int, int]] = []
    problems: list[Problem] = []
    tokens = [(m.start(), stem(m.group(0))) for m in _TOKEN.finditer(masked.lower())]
    said = {s for _, s in tokens}
    for m in _SUPERLATIVE.finditer(masked.lower()):
        if any(a <= m.start() < b for a, b in decided):
            continue
        for container in _containers(paths, index):
            members = _members(container, index)
            if len(members) < MIN_PEERS:
                continue
            named = _named_member(members, tokens, m)
            measure = _measure(members, said, m.group(2)) if named else None
            if named is None or measure is None:
                continue
            by = _BY.search(masked.lower(), m.end(), m.end() + REACH)
            measured = {stem(w) for w in key_words(_canonical_key(measure))}
            if by and stem(by.group(1)) not in measured:
                break  # "biggest by headcount": a measure the members do not hold
            if stem(m.group(2)) in measured | {stem(w) for w in words(container)}:
                break  # a superlative the ranked field's key says (``highest_mark``)
            peers = {k: v.values[measure] for k, v in members.items() if measure in v.values}
            labels = {k: v.label for k, v in members.items()}
            ranked = _ranked(named, peers, labels, m, low=_runs_low(m.group(2), container, index))
            if ranked is None:
                break
            if ranked == "":
                spans.append(m.span())
            else:
                problems.append(Problem("attribute.rank", ranked))
            break
    return Ranked(tuple(spans), tuple(problems))


_TOKEN = re.compile(r"[a-z][a-z0-9]*")
_BY = re.compile(r"\bby\s+([a-z]+)")
"""The measure a rank names after it: "the biggest segment by revenue"."""


def _containers(paths: Sequence[str], index: VerifierIndex) -> list[str]:
    """The collections a cited path is, or is a member or a member's field of."""
    found = (c for path in paths for c in _with_parents(path) if c in index.containers)
    return list(dict.fromkeys(found))


def _with_parents(path: str) -> list[str]:
    """``path``, its parent and its grandparent (``a.b[2].c``, ``a.b[2]``, ``a.b``)."""
    out = [path]
    for _ in range(2):
        cut = max(out[-1].rfind("."), out[-1].rfind("["))
        if cut <= 0:
            break
        out.append(out[-1][:cut])
    return out


def _members(container: str, index: VerifierIndex) -> dict[str, _Member]:
    leaves = index.evidence.resolve(container) or []
    grouped: dict[str, dict[str, TypedFact]] = {}
    names: dict[str, str] = {}
    for leaf in leaves:
        head, rest = first_segment(leaf.path[len(container) :])
        fact = index.typed.get(leaf.path)
        if fact is None or not head:
            continue
        member = container + head
        if fact.kind is FactKind.NAME and member not in names and fact.text:
            names[member] = fact.text  # a record's first name (``site: "Muttenz"``)
        scale = any(q.is_scale for q in index.leaves[leaf.path].quantities)
        if fact.kind is FactKind.QUANTITY and fact.quantity is not None and not scale:
            grouped.setdefault(member, {})[rest] = fact
    out = {}
    for member, values in grouped.items():
        label = _label(member[len(container) :], values, names.get(member))
        stems = frozenset(stem(w) for w in words(label) if w not in language.STOP_WORDS)
        if stems:
            out[member] = _Member(label, stems, values)
    return out


def _label(head: str, values: dict[str, TypedFact], name: str | None) -> str:
    """A member's label: its key (an object's member), else the label its value was given
    by a sibling (a row's label, ``{name, value}``), else the record's first name."""
    if not head.startswith("[") or head.startswith('["'):
        return " ".join(key_words(_canonical_key(head)))
    for fact in values.values():
        if fact.sources.get("label") is not None:
            return fact.label
    return name or ""


def _canonical_key(head: str) -> str:
    """``.coatings-additives`` or ``["Net revenue"]`` → the key as written."""
    if head.startswith('["'):
        return str(json.loads(head[1:-1]))
    return head.lstrip(".")


def _named_member(
    members: dict[str, _Member], tokens: list[tuple[int, str]], m: re.Match[str]
) -> str | None:
    """The one member whose label the claim says within ``REACH`` of the superlative (the
    longest such label when one contains another)."""
    near = {s for at, s in tokens if m.start() - 2 * REACH <= at <= m.end() + REACH}
    found = [k for k, v in members.items() if v.stems <= near]
    if not found:
        return None
    longest = max(len(members[k].stems) for k in found)
    best = [k for k in found if len(members[k].stems) == longest]
    return best[0] if len(best) == 1 else None


def _measure(members: dict[str, _Member], said: set[str], word: str) -> str | None:
    """The measure ranked: the one numeric field most members hold in one unit, else the
    one the claim names by its key's words, else (a size superlative) the one amount."""
    counts: dict[str, list[TypedFact]] = {}
    for member in members.values():
        for rest, fact in member.values.items():
            counts.setdefault(rest, []).append(fact)
    shared = [
        rest
        for rest, facts in counts.items()
        if len(facts) >= MIN_PEERS and len({_unit(f) for f in facts}) == 1
    ]
    if "" in shared and not all(_like(f) for f in counts[""]):
        shared.remove("")  # a record's own fields are peers only when they are alike
    if len(shared) == 1:
        return shared[0]
    named = [r for r in shared if {stem(w) for w in key_words(_canonical_key(r))} & said]
    if len(named) == 1:
        return named[0]
    if word in SIZE_WORDS and not named:
        money = [r for r in shared if _unit(counts[r][0])[1] is not None]
        return money[0] if len(money) == 1 else None
    return None


def _like(fact: TypedFact) -> bool:
    """A field an object's other fields are ranked beside: a score, or an amount of money
    (``scores.*``, ``costs.*``), not a record's mix of counts and marks."""
    q = fact.quantity
    return q is not None and (q.unit is Unit.SCORE or q.currency is not None)


def _unit(fact: TypedFact) -> tuple[object, ...]:
    q = fact.quantity
    return (None,) if q is None else (q.unit, q.currency, q.out_of)


def _ranked(
    named: str,
    peers: dict[str, TypedFact],
    labels: dict[str, str],
    m: re.Match[str],
    *,
    low: bool,
) -> str | None:
    """``""`` when ``named`` holds the rank the superlative states; the failure message when
    another peer does; ``None`` when ties make it unclear."""
    amounts = {k: f.quantity.amount for k, f in peers.items() if f.quantity is not None}
    if named not in amounts or len(amounts) < MIN_PEERS:
        return None
    ordered = sorted(set(amounts.values()), reverse=not low)
    stated = lexicon.RANK_ORDINALS.get(m.group(1) or "", 1)
    if stated > len(ordered):
        return None
    at_rank = [k for k, v in amounts.items() if v == ordered[stated - 1]]
    if len(at_rank) > 1:
        return None  # a tie: "the weakest" of two says too little to check
    if at_rank == [named]:
        return ""
    holder = at_rank[0]
    return (
        f"'{m.group(0)}': {labels[named]} = {peers[named].display} ranks "
        f"{ordered.index(amounts[named]) + 1} of {len(amounts)}; "
        f"{labels[holder]} = {peers[holder].display} is the {m.group(0)}"
    )
