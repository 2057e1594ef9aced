"""Compose (D3): the runtime, not the model, builds the reply from verified claims.

Each distinct cited path becomes one numbered footnote: its label, value and path, which
``render.view.footnote_text`` writes (``[n] label = value · path``); a claim shows the
numbers of the paths it cites. A path to an object or list shows its leaves compactly.
An ``absent`` claim is posted as the one fixed sentence, or as one of the plain forms that
name what is missing ("Not in the audit report: page speed.", "The report doesn't list any
competitors."), whatever else the model wrote: the verifier lets every ``absent`` claim
pass, so its text must never carry a fact (no figure, no name, no clause of its own).
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet

from prism_slack.claims import ABSENT_TEXT
from prism_slack.evidence import Leaf, canonical_path
from prism_slack.pipeline.result import Footnote, PostedClaim
from prism_slack.render.split import clip, clip_sentence
from prism_slack.reports.model import Report
from prism_slack.verdict import ClaimVerdict

FOOTNOTE_VALUE_CHARS = 200
"""A footnote shows at most this much of a cited value (the renderers' limit too)."""
_NAMED_ABSENT = re.compile(
    r"(?:Not in the audit report: |The report doesn't (?:list|name|give|mention) )"
    r"(?:[a-z][a-z'/&-]*|[A-Z][A-Z0-9&]{1,5})(?: (?:[a-z][a-z'/&-]*|[A-Z][A-Z0-9&]{1,5})){0,9}\."
)
"""What an absent claim may say besides the fixed sentence: the part that is missing, in
lower-case words (a role's acronym aside), with no figure and no second clause."""


def compose(
    verdicts: list[ClaimVerdict],
    report: Report,
    *,
    rewritten: AbstractSet[int] = frozenset(),
    unchecked: AbstractSet[int] = frozenset(),
) -> tuple[list[PostedClaim], list[Footnote]]:
    """Posted claims and footnotes for ``verdicts``; ``rewritten`` and ``unchecked`` are
    indexes into ``verdicts`` (judge rewrites; undecided claims no judge saw)."""
    numbers: dict[str, int] = {}
    footnotes: list[Footnote] = []
    posted: list[PostedClaim] = []
    for i, verdict in enumerate(verdicts):
        if verdict.claim.kind == "absent":
            text = absent_text(verdict.claim.text)
            if all(p.text != text for p in posted):
                posted.append(
                    PostedClaim(text=text, kind="absent", citations=[], rung=verdict.rung)
                )
            continue
        cites: list[int] = []
        for cited in verdict.claim.evidence:
            path = canonical_path(cited) or cited
            if path not in numbers:
                numbers[path] = len(numbers) + 1
                label, value = footnote(path, report)
                footnotes.append(Footnote(n=numbers[path], path=path, value=value, label=label))
            if numbers[path] not in cites:
                cites.append(numbers[path])
        posted.append(
            PostedClaim(
                text=verdict.claim.text,
                kind=verdict.claim.kind,
                citations=cites,
                rung=verdict.rung,
                rewritten=i in rewritten,
                unchecked=i in unchecked,
            )
        )
    return posted, footnotes


def absent_text(text: str) -> str:
    """``text`` when it is a plain form naming the missing part, else the fixed sentence."""
    text = " ".join(text.split())
    return text if _NAMED_ABSENT.fullmatch(text) else ABSENT_TEXT


def footnote(path: str, report: Report) -> tuple[str, str]:
    """``(label, value)`` of the field at ``path``, as a rep reads them: a leaf's typed
    label and display (``Annual revenue``, ``£212.4m``), an object or list as its leaves'
    ``label: value; …``; a long passage cut at a sentence end."""
    leaves = report.evidence.resolve(path) or []
    typed = report.facts.get(path)
    label = typed.label if typed is not None else ""
    if typed is not None and typed.series is not None:
        return label, _clip(typed.display)
    if len(leaves) == 1 and leaves[0].path == path:
        return label, _clip(_display(leaves[0], report))  # a passage ends at a sentence end
    parts = []
    for leaf in leaves:
        part = report.facts.get(leaf.path)
        name = part.label if part is not None else leaf.path[len(path) :].lstrip(".")
        parts.append(f"{name}: {_display(leaf, report)}")
    return label, clip(" ".join("; ".join(parts).split()), FOOTNOTE_VALUE_CHARS)


_SHOWN = frozenset({"quantity", "date", "series"})
"""Fact kinds shown by their display (a name or a passage is shown as written)."""


def _display(leaf: Leaf, report: Report) -> str:
    typed = report.facts.get(leaf.path)
    if typed is not None and typed.kind.value in _SHOWN and typed.display:
        return typed.display
    return leaf.render().replace("**", "")  # a passage's Markdown bold, as a person reads it


def _clip(text: str) -> str:
    return clip_sentence(" ".join(text.split()), FOOTNOTE_VALUE_CHARS)
