"""Concepts reps ask about that a report keeps in its structure rather than in one field's
name: its competitors, its people by role, its risks, its age.

Each concept is a data file of the words that ask for it and the key words that hold it
(``prism_slack/data/competitors.yaml``, ``roles.yaml``, ``risks.yaml``, ``age.yaml``). A
question and a report are compared on light stems of whole words, so "competitors",
``Competitors``, ``competitorList`` and ``main_competitors`` all meet, whatever the case
style of the report's keys.

- *competitors*: the records or names under a key whose words name competitors,
  alternatives or incumbents, at any depth;
- *roles*: the people whose title or buying role holds the role asked ("CFO", "champion",
  "who signs the check"), else the nearest one (the VP Finance for a CFO);
- *risks*: asked as "what should I worry about", "red flags": answered with the most severe
  findings, a figure each (the composer does that);
- *age*: the founding year or date, wherever the company's keys keep it;
- *the period before* (``data/previous_period.txt``): "and last year?" after a series;
- *measures* (``prism_slack/data/measures/*.yaml``, one file per measure: how well
  capitalised, what customers think of them…): the fields whose keys name the measure, the
  ones whose keys also hold the question's other words first ("what do brokers think"
  → ``brokerNps``).

A concept the report does not hold is said plainly, by the composer, naming the concept.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import yaml

from prism_slack.llm import lexicon
from prism_slack.llm.offline_index import Item, ReportIndex

Stems = tuple[str, ...]
_IN_LIST = re.compile(r"\[\d+\]")
"""A list index in a field path (``stack[2]``; ``KPIs["NPS (2025)"]`` is no list)."""


def _load(name: str) -> Any:
    text = resources.files("prism_slack").joinpath("data", name).read_text("utf-8")
    return yaml.safe_load(text)


def stems(text: str) -> Stems:
    """The light stems of ``text``'s words (``Competitors`` → ``competitor``)."""
    return tuple(lexicon.stem(w) for w in lexicon.words(text))


def key_stems(keys: Iterable[str]) -> frozenset[str]:
    """The stems of the words of report keys, in any case style."""
    return frozenset(_key_run(keys))


def _key_run(keys: Iterable[str]) -> Stems:
    """The stems of the words of report keys, in order."""
    return tuple(lexicon.stem(w) for key in keys for w in lexicon.key_words(key))


@dataclass(frozen=True)
class Phrases:
    """Word runs, compared on stems."""

    runs: tuple[Stems, ...]

    @classmethod
    def of(cls, texts: Iterable[str]) -> Phrases:
        return cls(tuple(s for s in (stems(str(t)) for t in texts) if s))

    def longest(self, said: Stems) -> int:
        """The length of the longest run found in ``said`` (0: none)."""
        best = 0
        for run in self.runs:
            n = len(run)
            if n > best and any(said[i : i + n] == run for i in range(len(said) - n + 1)):
                best = n
        return best

    def found(self, said: Stems) -> bool:
        return self.longest(said) > 0


@dataclass(frozen=True)
class Role:
    key: str
    name: str
    asked: Phrases
    holds: Phrases
    near: Phrases

    @property
    def article(self) -> str:
        return "an" if self.name[:1].lower() in "aeiou" else "a"


@dataclass(frozen=True)
class Measure:
    """A measure reps ask for in their own words, held by fields whose keys name it."""

    key: str
    name: str
    asked: Phrases
    keys: Phrases
    """Word runs of a report key that hold it (``csat``, ``top box``), in any case style."""
    part: bool = False
    """The question names the part it asks the measure of ("how much of their business is
    pumps"): a field answers only when its keys hold that part."""


@dataclass(frozen=True)
class Concepts:
    competitors_asked: Phrases
    competitor_keys: frozenset[str]
    risks_asked: Phrases
    age_asked: Phrases
    age_keys: frozenset[str]
    roles: tuple[Role, ...]
    measures: tuple[Measure, ...]
    previous: Phrases


def _lines(name: str) -> list[str]:
    text = resources.files("prism_slack").joinpath("data", name).read_text("utf-8")
    return [t.strip() for t in text.splitlines() if t.strip() and not t.startswith("#")]


def _measures() -> tuple[Measure, ...]:
    folder = resources.files("prism_slack").joinpath("data", "measures")
    out = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".yaml"):
            continue
        data = yaml.safe_load(entry.read_text("utf-8"))
        out.append(
            Measure(
                key=entry.name.removesuffix(".yaml"),
                name=str(data["name"]),
                asked=Phrases.of(data["asked"]),
                keys=Phrases(tuple(_key_run([str(k)]) for k in data["keys"])),
                part=bool(data.get("part", False)),
            )
        )
    return tuple(out)


@cache
def concepts() -> Concepts:
    competitors = _load("competitors.yaml")
    age = _load("age.yaml")
    roles = tuple(
        Role(
            key=str(key),
            name=str(entry["name"]),
            asked=Phrases.of(entry["asked"]),
            holds=Phrases.of(entry["holds"]),
            near=Phrases.of(entry.get("near") or []),
        )
        for key, entry in _load("roles.yaml").items()
    )
    return Concepts(
        competitors_asked=Phrases.of(competitors["asked"]),
        competitor_keys=frozenset(lexicon.stem(str(w)) for w in competitors["keys"]),
        risks_asked=Phrases.of(_load("risks.yaml")["asked"]),
        age_asked=Phrases.of(age["asked"]),
        age_keys=frozenset(lexicon.stem(str(w)) for w in age["keys"]),
        roles=roles,
        measures=_measures(),
        previous=Phrases.of(_lines("previous_period.txt")),
    )


# -- what a question asks ----------------------------------------------------------------


def asks_competitors(text: str) -> bool:
    return concepts().competitors_asked.found(stems(text))


def asks_risks(text: str) -> bool:
    return concepts().risks_asked.found(stems(text))


def asks_previous(text: str) -> bool:
    """``text`` asks for the period before the one just given ("and last year?")."""
    return concepts().previous.found(stems(text))


@cache
def _relative_periods() -> frozenset[str]:
    return frozenset(_lines("relative_periods.txt"))


def only_relative_period(text: str) -> bool:
    """``text`` only places a comparison's side in time ("last", "the yr before")."""
    said = [w for w in lexicon.words(text) if not lexicon.is_stop(w)]
    return bool(said) and set(said) <= _relative_periods()


@cache
def _figure_attributes() -> frozenset[str]:
    return frozenset(lexicon.stem(w) for w in _lines("figure_attributes.txt"))


def only_figure_attribute(text: str) -> bool:
    """``text`` asks only for an attribute of the figure just given ("and the target?")."""
    said = [lexicon.stem(w) for w in lexicon.words(text) if not lexicon.is_stop(w)]
    return bool(said) and set(said) <= _figure_attributes()


def asks_age(text: str) -> bool:
    return concepts().age_asked.found(stems(text))


def age_of_a_part(index: ReportIndex, text: str) -> bool:
    """Does ``text`` ask the age of something a field measures ("avg age" beside
    ``Fleet.AverageAge``, "how old is the fleet"): a key holding "age" and another word of
    the question? Then it is that field's, not the company's."""
    said = {lexicon.stem(w) for w in lexicon.expand(lexicon.words(text)) if not lexicon.is_stop(w)}
    age = lexicon.stem("age")
    return any(
        _outside_lists(item) and age in (held := key_stems(item.keys)) and (held - {age}) & said
        for item in index.items
    )


def measure_asked(text: str) -> Measure | None:
    """The measure ``text`` asks for in a rep's words (the longest phrase wins), or ``None``."""
    said = stems(text)
    best: tuple[int, Measure] | None = None
    for measure in concepts().measures:
        n = measure.asked.longest(said)
        if n and (best is None or n > best[0]):
            best = (n, measure)
    return best[1] if best else None


def role_asked(text: str) -> Role | None:
    """The role ``text`` asks for (the longest phrase wins: "chief financial officer" over
    a shorter one), or ``None``."""
    said = stems(text)
    best: tuple[int, Role] | None = None
    for role in concepts().roles:
        n = role.asked.longest(said)
        if n and (best is None or n > best[0]):
            best = (n, role)
    return best[1] if best else None


# -- what a report holds -------------------------------------------------------------------


def _person_stems(person: Item) -> Stems:
    said = " ; ".join(person.get(k) or "" for k in ("title", "role"))
    return tuple(lexicon.stem(w) for w in lexicon.key_words(said))  # ``TechnicalEvaluator``


def holders(role: Role, people: list[Item]) -> tuple[list[Item], list[Item]]:
    """The people who hold ``role`` by title or buying role, and, when none does, the
    nearest ones."""
    exact = [p for p in people if role.holds.found(_person_stems(p))]
    if exact:
        return exact, []
    return [], [p for p in people if role.near.found(_person_stems(p))]


def competitor_items(index: ReportIndex) -> list[Item]:
    """The items under a key naming competitors: records, name lists, or named leaves."""
    keys = concepts().competitor_keys
    return [item for item in index.items if key_stems(item.keys) & keys]


def competitor_named(index: ReportIndex, text: str) -> Item | None:
    """The competitor record whose name the question uses, in full or by a distinctive word
    of it ("position against beacon" for Beacon Underwriting)."""
    said = set(stems(text))
    for item in competitor_items(index):
        if item.kind != "record":
            continue
        name = next((item.get(k) for k in ("name", "title", "label") if item.get(k)), None)
        words = [w for w in stems(name or "") if len(w) >= 4 and not lexicon.is_stop(w)]
        if words and any(w in said for w in words):
            return item
    return None


def age_items(index: ReportIndex) -> list[Item]:
    """Leaves outside any list whose key says when the company was founded."""
    keys = concepts().age_keys
    return [
        item for item in index.items if _outside_lists(item) and key_stems(item.keys[-1:]) & keys
    ]


def measure_items(index: ReportIndex, measure: Measure, text: str) -> tuple[list[Item], str]:
    """The fields (outside any list) whose keys name ``measure``, those whose keys also hold
    a word of ``text`` first (then document order); and, for a measure of a part, the part
    asked when no field's keys hold it (``""`` when they do, or nothing is asked)."""
    said = stems(text)
    asked = {s for run in measure.asked.runs for s in run}
    rest = {w for w in said if w not in asked and not lexicon.is_stop(w) and len(w) > 1}
    found = [
        item
        for item in index.items
        if _outside_lists(item) and measure.keys.found(_key_run(item.keys))
    ]
    found.sort(key=lambda item: (-len(key_stems(item.keys) & rest), item.order))
    if not measure.part or not rest:
        return found, ""
    held = [item for item in found if key_stems(item.keys) & rest]
    if held:
        return held, ""
    words = [w for w in lexicon.words(text) if lexicon.stem(w) in rest]
    return found, " ".join(words)


def _outside_lists(item: Item) -> bool:
    """A leaf field outside any list, or a row of a table of figures (``profile[3] =
    {"label": "Founded", "value": 2009}``): a field named by its row."""
    return item.kind == "leaf" and (bool(item.row_key) or not _IN_LIST.search(item.path))
