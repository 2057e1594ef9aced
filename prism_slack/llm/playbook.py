"""The coaching playbook: frames F1–F6 and moves M1–M10 for a B2B discovery call.

The content is packaged data (``prism_slack/data/playbook.yaml``), validated on load. The
playbook's guidance and questions carry no digits and no number words, so coaching drawn
from it can never smuggle a figure; its ids and names are the only extra vocabulary the
verifier allows in coaching claims (``Playbook.vocabulary``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import cache, cached_property
from importlib import resources
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from prism_slack.errors import ConfigError
from prism_slack.llm import lexicon

Severity = Literal["critical", "high", "medium", "low"]

PLAYBOOK_RESOURCE = "playbook.yaml"
FRAME_IDS = tuple(f"F{i}" for i in range(1, 7))
MOVE_IDS = tuple(f"M{i}" for i in range(1, 11))

_NUMBER_WORDS = lexicon.wordset(
    "zero one two three four five six seven eight nine ten eleven twelve twenty thirty forty "
    "fifty hundred thousand million billion percent dozen half twice"
)
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)")


class Trigger(BaseModel):
    """When an entry fits: words in a finding or question, finding severities, sections."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    keywords: tuple[str, ...] = ()
    severities: tuple[Severity, ...] = ()
    sections: tuple[str, ...] = ()


class Entry(BaseModel):
    """One frame or move."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    name: str = Field(min_length=3)
    when: Trigger
    guidance: str = Field(min_length=10)
    question: str = Field(min_length=10)

    @field_validator("guidance", "question")
    @classmethod
    def _no_figures(cls, text: str) -> str:
        if any(ch.isdigit() for ch in text):
            raise ValueError("must not contain digits (coaching never carries figures)")
        found = sorted(set(lexicon.words(text)) & _NUMBER_WORDS)
        if found:
            raise ValueError(f"must not contain number words: {', '.join(found)}")
        return " ".join(text.split())

    @field_validator("guidance")
    @classmethod
    def _short(cls, text: str) -> str:
        sentences = len(_SENTENCE_END.findall(text))
        if not 1 <= sentences <= 2:
            raise ValueError(f"must be one or two sentences, found {sentences}")
        return text

    @field_validator("question")
    @classmethod
    def _is_question(cls, text: str) -> str:
        if not text.endswith("?"):
            raise ValueError("must end with a question mark")
        return text

    @cached_property
    def keyword_stems(self) -> frozenset[str]:
        return _stems(self.when.keywords)

    @property
    def label(self) -> str:
        """How coaching names the entry: ``M1 (Open with their numbers)``."""
        return f"{self.id} ({self.name})"


class Frame(Entry):
    @field_validator("id")
    @classmethod
    def _frame_id(cls, value: str) -> str:
        if value not in FRAME_IDS:
            raise ValueError(f"frame ids are {FRAME_IDS[0]}–{FRAME_IDS[-1]}, got {value!r}")
        return value


class Move(Entry):
    @field_validator("id")
    @classmethod
    def _move_id(cls, value: str) -> str:
        if value not in MOVE_IDS:
            raise ValueError(f"move ids are {MOVE_IDS[0]}–{MOVE_IDS[-1]}, got {value!r}")
        return value


class Playbook(BaseModel):
    """All frames and moves, in order. Matching prefers moves: they say what to do."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    frames: tuple[Frame, ...]
    moves: tuple[Move, ...]

    @model_validator(mode="after")
    def _complete(self) -> Playbook:
        if tuple(f.id for f in self.frames) != FRAME_IDS:
            raise ValueError(f"frames must be exactly {', '.join(FRAME_IDS)} in order")
        if tuple(m.id for m in self.moves) != MOVE_IDS:
            raise ValueError(f"moves must be exactly {', '.join(MOVE_IDS)} in order")
        names = [e.name.casefold() for e in self.entries()]
        if len(set(names)) != len(names):
            raise ValueError("entry names must be unique")
        return self

    def entries(self) -> tuple[Move | Frame, ...]:
        """Moves first, then frames: the order ties are broken in."""
        return (*self.moves, *self.frames)

    def get(self, entry_id: str) -> Move | Frame:
        for entry in self.entries():
            if entry.id == entry_id:
                return entry
        raise KeyError(entry_id)

    def vocabulary(self) -> frozenset[str]:
        """Ids and names the verifier allows in coaching claims."""
        return frozenset(v for e in self.entries() for v in (e.id, e.name))

    def render(self) -> str:
        """A compact text of the playbook for a model prompt."""
        lines = ["Frames (how to hold the conversation):"]
        lines += [_render_entry(f) for f in self.frames]
        lines.append("Moves (what to do on the call):")
        lines += [_render_entry(m) for m in self.moves]
        return "\n".join(lines)

    def for_question(self, text: str) -> Move | Frame | None:
        """The entry whose keywords a coaching question uses most, or ``None``."""
        stems = _stems(lexicon.words(text))
        best: tuple[int, Move | Frame] | None = None
        for entry in self.entries():
            overlap = len(stems & entry.keyword_stems)
            if overlap and (best is None or overlap > best[0]):
                best = (overlap, entry)
        return best[1] if best else None

    def for_finding(self, finding: Mapping[str, Any]) -> Move | Frame:
        """The entry that fits a finding (``title``, ``severity``, ``detail``) best.

        Score: keywords shared with the title (double weight) and detail, plus a bonus when
        the finding's severity is one the entry lists. Ties go to moves, then to order.
        """
        title = _stems(lexicon.words(str(finding.get("title", ""))))
        detail = _stems(lexicon.words(str(finding.get("detail", ""))))
        severity = str(finding.get("severity", "")).lower()
        best: tuple[float, Move | Frame] | None = None
        for entry in self.entries():
            keys = entry.keyword_stems
            score = 2 * len(title & keys) + len(detail & keys)
            if severity in entry.when.severities:
                score += 2
            if best is None or score > best[0]:
                best = (score, entry)
        assert best is not None
        return best[1]

    def for_section(self, section: str) -> Move | Frame | None:
        """The first entry (moves first) triggered by a report section, or ``None``."""
        for entry in self.entries():
            if section in entry.when.sections:
                return entry
        return None


def _render_entry(entry: Entry) -> str:
    return f"- {entry.id} {entry.name}: {entry.guidance} Ask: {entry.question}"


def _stems(tokens: Iterable[str]) -> frozenset[str]:
    return frozenset(lexicon.stem(t) for t in tokens)


def parse_playbook(text: str, *, source: str = PLAYBOOK_RESOURCE) -> Playbook:
    """Parse and validate playbook YAML; raises ``ConfigError`` naming what is wrong."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise ConfigError(f"{source}: not valid YAML: {e}") from e
    try:
        return Playbook.model_validate(data)
    except ValidationError as e:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '$'}: {err['msg']}"
            for err in e.errors(include_url=False)
        )
        raise ConfigError(f"{source}: {problems}") from e


@cache
def load_playbook() -> Playbook:
    """The packaged playbook, read and validated once per process."""
    text = resources.files("prism_slack").joinpath("data", PLAYBOOK_RESOURCE).read_text("utf-8")
    return parse_playbook(text)
