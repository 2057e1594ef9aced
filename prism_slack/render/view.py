"""What a rendered turn shows, decided once for every surface (DESIGN §8).

``build_view`` turns a ``TurnResult`` into a ``View``: the header, notice, answer lines,
coaching lines, footnotes, withheld count and label line, as RAW text (not escaped for any
surface). The terminal and Block Kit renderers only lay a ``View`` out, so both always show
the same content. Withheld claims contribute their count, never their text.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pydantic import BaseModel, ConfigDict

from prism_slack.claims import ClaimKind
from prism_slack.pipeline.result import Footnote, Outcome, PostedClaim, TurnResult
from prism_slack.render.split import clip
from prism_slack.verdict import Label, Method

FOOTNOTE_VALUE_CHARS = 200
"""A footnote shows at most this much of a cited value."""
FOOTNOTE_PATH_CHARS = 160
COMPANY_CHARS = 60
REPORT_ID_CHARS = 40
CANDIDATE_CHARS = 100
HEADER_SEPARATOR = " · "
NO_ANSWER_TEXT = "No verified answer to show."
COACHING_TITLE = "Coaching"
REWORDED_MARK = "(reworded)"
UNCHECKED_MARK = "(wording not checked)"
"""Marks a claim posted without the entailment check its wording needed: only its numbers
and names were checked against the report (no judge ran)."""
CHECKED_PLAIN = "Every fact below is checked against the audit report"
UNCHECKED_PLAIN = (
    "Every figure and name below is checked against the audit report; "
    "the wording of marked lines is not"
)
"""The plain line when a posted fact is marked ``UNCHECKED_MARK``."""
PARTLY_PLAIN = (
    "Part of what was asked is not in the audit report; every fact below is checked against it"
)
"""The plain line when the reply answers and then names a part the report lacks."""
EMPTY_VALUE = "(empty)"

_DEFAULT_MESSAGES = {
    Outcome.NEEDS_BINDING: "No report is bound here yet: name a company, or bind one.",
    Outcome.AMBIGUOUS: "More than one company fits: which one do you mean?",
    Outcome.FAILED: "Something went wrong on my side; please try again.",
    Outcome.REFUSED: "I can't answer that here.",
}
_FALLBACK_MESSAGE = "I couldn't answer that."


class ViewLine(BaseModel):
    """One posted claim as shown: a single line of text and its footnote numbers."""

    model_config = ConfigDict(frozen=True)

    text: str
    kind: ClaimKind
    citations: list[int]
    rewritten: bool = False
    unchecked: bool = False

    def shown(self, footnotes: list[Footnote]) -> str:
        """The text with a score bar before a cited ``score/max`` (``4/10`` →
        ``▇▇▇▇░░░░░░ 4/10``), the same on every surface."""
        values = {f.n: f.value for f in footnotes if f.n in self.citations}
        return score_bar(self.text, set(values.values()))


BAR_CELLS = 10
_SCORE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(?:/|out of)\s*(\d+(?:\.\d+)?)(?![\d])")


def score_bar(text: str, cited: set[str]) -> str:
    """``text`` with a bar before each ``score/max`` whose two numbers are cited values
    (each alone, or together as a displayed ``46/100``)."""
    cited = cited | {n for value in cited for m in _SCORE.finditer(value) for n in m.groups()}

    def bar(m: re.Match[str]) -> str:
        score, scale = float(m.group(1)), float(m.group(2))
        if m.group(1) not in cited or m.group(2) not in cited or not 0 <= score <= scale:
            return m.group(0)
        filled = round(BAR_CELLS * score / scale) if scale else 0
        return f"{'▇' * filled}{'░' * (BAR_CELLS - filled)} {m.group(0)}"

    return _SCORE.sub(bar, text)


class View(BaseModel):
    """The content of one rendered reply, surface-neutral and unescaped."""

    model_config = ConfigDict(frozen=True)

    outcome: Outcome
    header: list[str] = []
    """Company, report id, report date — the parts that exist, in that order."""
    notice: str | None = None
    message: str | None = None
    """For every outcome but ANSWERED: the whole reply."""
    candidates: list[str] = []
    claims: list[ViewLine] = []
    """The posted claims, in the order they were posted."""
    footnotes: list[Footnote] = []
    """Values flattened to one line and clipped to ``FOOTNOTE_VALUE_CHARS``."""
    withheld: int = 0
    label: Label | None = None
    label_title: str | None = None
    """The label's name as shown (``EVIDENCE-LINKED``, ``Coaching only``)."""
    label_text: str | None = None
    """The whole label line; it starts with ``label_title``."""
    plain: str | None = None
    """The label in plain words for the rep ("Every fact below is checked against the
    audit report")."""
    cut: int = 0
    """How many posted claims were left out to fit the surface."""

    @property
    def answered(self) -> bool:
        return self.outcome is Outcome.ANSWERED

    @property
    def answer(self) -> list[ViewLine]:
        """Facts and ``absent`` claims, in order."""
        return [line for line in self.claims if line.kind != "coaching"]

    @property
    def coaching(self) -> list[ViewLine]:
        return [line for line in self.claims if line.kind == "coaching"]

    @property
    def empty_answer(self) -> bool:
        return self.answered and not self.claims

    def keep(self, count: int) -> View:
        """This view with only its first ``count`` claims and the footnotes they cite."""
        shown = self.claims[: max(count, 0)]
        cited = {n for line in shown for n in line.citations}
        return self.model_copy(
            update={
                "claims": shown,
                "footnotes": [f for f in self.footnotes if f.n in cited],
                "cut": self.cut + len(self.claims) - len(shown),
            }
        )


def build_view(result: TurnResult) -> View:
    """The view of ``result``: what any surface shows of it."""
    header = _header(result)
    notice = result.notice.strip() if result.notice and result.notice.strip() else None
    if result.outcome is not Outcome.ANSWERED:
        message = (result.message or "").strip() or _DEFAULT_MESSAGES.get(
            result.outcome, _FALLBACK_MESSAGE
        )
        return View(
            outcome=result.outcome,
            header=header,
            notice=notice,
            message=message,
            candidates=[clip(one_line(c), CANDIDATE_CHARS) for c in result.candidates],
        )
    title = label_title(result.label) if result.label else None
    text = label_text(result.label, result.method) if result.label else None
    if result.posted and all(c.kind == "absent" for c in result.posted):
        title, text = NOT_IN_REPORT_TITLE, NOT_IN_REPORT_TEXT
    return View(
        outcome=result.outcome,
        header=header,
        notice=notice,
        claims=_lines(result.posted),
        footnotes=[_footnote(f) for f in result.footnotes],
        withheld=len(result.withheld),
        label=result.label,
        label_title=title,
        label_text=text,
        plain=plain_words(result) if result.label else None,
    )


def label_title(label: Label) -> str:
    return "Coaching only" if label is Label.COACHING_ONLY else label.value


def label_text(label: Label, method: Method | None) -> str:
    """The label line: what the label means and what decided it, in plain words."""
    title = label_title(label)
    if label is Label.COACHING_ONLY:
        return f"{title} — no report facts stated"
    if label is Label.UNGROUNDED:
        return f"{title} — nothing in this reply is backed by the report"
    return f"{title} · via {method.value}" if method else title


NOT_IN_REPORT_TITLE = "NOT IN THE REPORT"
NOT_IN_REPORT_TEXT = (
    f"{NOT_IN_REPORT_TITLE} — I looked through the whole audit report; nothing was guessed"
)


def plain_words(result: TurnResult) -> str | None:
    """One line in plain words for the rep, beside the label: what the checks mean. A
    withheld statement is said by its own line (``withheld_text``)."""
    if result.withheld or not any(c.kind == "fact" for c in result.posted):
        return None
    if result.posted[0].kind == "absent":
        return "What was asked is not in the audit report; every fact below is checked against it"
    if any(c.kind == "absent" for c in result.posted):  # an answer, and a part it lacks
        return PARTLY_PLAIN
    if any(c.unchecked for c in result.posted):
        return UNCHECKED_PLAIN
    return CHECKED_PLAIN


def withheld_text(count: int) -> str:
    if count == 1:
        return "⚠ 1 statement withheld — I couldn't verify it against the audit report."
    return f"⚠ {count} statements withheld — I couldn't verify them against the audit report."


def one_line(text: str) -> str:
    """``text`` with every run of whitespace (newlines included) made a single space."""
    return " ".join(text.split())


def _header(result: TurnResult) -> list[str]:
    if not result.company:
        return []
    parts = [clip(one_line(result.company), COMPANY_CHARS)]
    if result.report_id:
        parts.append(clip(one_line(result.report_id), REPORT_ID_CHARS))
    if result.report_date:
        parts.append(result.report_date.isoformat())
    return parts


NEARBY_TEXT = "It does have:"
"""After a leading "not in the report", before the facts the report holds nearby."""


def _lines(posted: list[PostedClaim]) -> list[ViewLine]:
    """The answer lines; a leading "not in the report" followed by facts introduces them
    ("That's not in the audit report. It does have:")."""
    lines = [_line(c) for c in posted]
    if len(posted) > 1 and posted[0].kind == "absent" and posted[1].kind == "fact":
        lines[0] = lines[0].model_copy(update={"text": f"{lines[0].text} {NEARBY_TEXT}"})
    return lines


def _line(claim: PostedClaim) -> ViewLine:
    return ViewLine(
        text=one_line(claim.text),
        kind=claim.kind,
        citations=list(claim.citations),
        rewritten=claim.rewritten,
        unchecked=claim.unchecked,
    )


def _as_is(text: str) -> str:
    return text


def footnote_text(
    footnote: Footnote,
    *,
    path: Callable[[str], str] = _as_is,
    text: Callable[[str], str] = _as_is,
    labelled: bool = True,
) -> str:
    """The footnote form, for every surface: ``[1] Annual revenue = £212.4m ·
    Financials["Annual Revenue"]`` — what a rep reads first (the field's label and its
    value as a rep says it), the field path after it; ``[1] path = value`` when the field
    has no label, or when ``labelled`` is off (the terminal's text, which the corpus
    scorers read as ``[n] path = value``). ``path`` and ``text`` make the path and the
    report's words safe for a surface (Slack code and escaping, the terminal's control
    characters)."""
    shown = text(footnote.value)
    if not (labelled and footnote.label):
        return f"[{footnote.n}] {path(footnote.path)} = {shown}"
    return f"[{footnote.n}] {text(footnote.label)} = {shown} · {path(footnote.path)}"


def _footnote(footnote: Footnote) -> Footnote:
    return Footnote(
        n=footnote.n,
        path=clip(one_line(footnote.path), FOOTNOTE_PATH_CHARS),
        value=clip(one_line(footnote.value), FOOTNOTE_VALUE_CHARS) or EMPTY_VALUE,
        label=clip(one_line(footnote.label), FOOTNOTE_PATH_CHARS),
    )
