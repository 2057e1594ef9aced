"""Compose (D3): the runtime, not the model, builds the reply from verified claims.

Each distinct cited path becomes one numbered footnote ``[n] path = value``; a claim shows
the numbers of the paths it cites. A path to an object or list shows its leaves compactly.
An ``absent`` claim is posted as the one fixed sentence, or as one of the plain forms that
name what is missing ("Not in the audit report: page speed.", "The report doesn't list any
competitors."), whatever else the model wrote: the verifier lets every ``absent`` claim
pass, so its text must never carry a fact (no figure, no name, no clause of its own).
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet

from prism_slack.claims import ABSENT_TEXT
from prism_slack.evidence import canonical_path
from prism_slack.pipeline.result import Footnote, PostedClaim
from prism_slack.reports.model import Report
from prism_slack.verdict import ClaimVerdict

FOOTNOTE_VALUE_CHARS = 300
_NAMED_ABSENT = re.compile(
    r"(?:Not in the audit report: |The report doesn't (?:list|name|give) )"
    r"(?:[a-z][a-z'/&-]*|[A-Z]{2,5})(?: (?:[a-z][a-z'/&-]*|[A-Z]{2,5})){0,9}\."
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
                footnotes.append(
                    Footnote(n=numbers[path], path=path, value=footnote_value(path, report))
                )
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


def footnote_value(path: str, report: Report) -> str:
    """The value at ``path``: a leaf as is, an object or list as ``key: value; …``."""
    leaves = report.evidence.resolve(path) or []
    if len(leaves) == 1 and leaves[0].path == path:
        text = leaves[0].render()
    else:
        text = "; ".join(
            f"{leaf.path[len(path) :].lstrip('.')}: {leaf.render()}" for leaf in leaves
        )
    if len(text) > FOOTNOTE_VALUE_CHARS:
        text = text[: FOOTNOTE_VALUE_CHARS - 1].rstrip() + "…"
    return text
