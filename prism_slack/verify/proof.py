"""Settle only on proof, fail only on proof (DESIGN §6): the last word on a claim's state.

The checks before this one say what they found. This module asks of each outcome whether
the typed facts (``prism_slack.facts``) make it a proof:

- a **failure** stands only when every cited value the claim's figure or name could be
  about was understood and none fits. A cited value left untyped, a figure no cited value
  could be compared with (a span of years against a date, a count against a list of
  names), or a name that may be another form of a cited one, leaves the claim
  *undecided*: the judge decides, the checks do not;
- a **settled** claim needs each figure bound to one cited field in the terms the claim
  states it: the field's unit and currency typed, one field only (or the one the claim's
  words name), and a series point of the period the claim says.

Every outcome moved here names its rule (``RULES``, registered in ``data/rules.yaml``) as
its reason's ``rule``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from functools import lru_cache
from importlib import resources

from wordfreq import zipf_frequency

from prism_slack import language
from prism_slack.evidence import EvidenceMap
from prism_slack.facts.model import AGAINST, FactKind, Series, Source, TypedFact, Unit
from prism_slack.facts.model import Quantity as FactQuantity
from prism_slack.facts.words import duration_unit, key_words, labelled
from prism_slack.reports.model import Report
from prism_slack.verdict import Check, Problem, Reason
from prism_slack.verify import lexicon
from prism_slack.verify.anchors import matches, written_whole
from prism_slack.verify.context import directions
from prism_slack.verify.index import LeafFacts, index_for
from prism_slack.verify.numbers import UNITS, QKind, Quantity
from prism_slack.verify.quantity import MEASURED_UNITS
from prism_slack.verify.text import fold, list_item, path_words, squash_name, years_of


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    doc: str


FAIL_UNTYPED = Rule("fail.untyped_value", "a cited value could not be typed: no proof against")
FAIL_BEYOND = Rule(
    "fail.beyond_checks",
    "no cited value is of the figure's kind: it needs arithmetic or knowledge the checks lack",
)
FAIL_NAME_FORM = Rule(
    "fail.name_unproven",
    "the name may be another form of a cited one, or a passage may say it in other words",
)
SETTLE_UNIT = Rule(
    "settle.unit_unproven", "the figure matches a cited value whose unit the report does not state"
)
SETTLE_CURRENCY = Rule(
    "settle.currency_unproven", "the amount's currency is stated by no cited value"
)
SETTLE_AMBIGUOUS = Rule(
    "settle.ambiguous_figure", "two cited fields hold the figure and the claim names neither"
)
SETTLE_PERIOD = Rule(
    "settle.period_unbound", "the figure is another period's value of a series than the claim says"
)
SETTLE_ASSERTION = Rule(
    "settle.assertion_unread",
    "the claim asserts an order, comparison, quantity, promise or report of speech over the "
    "values that no check reads",
)
SETTLE_LEVEL = Rule(
    "settle.level_as_change",
    "a multiple of a prior value is said as a change: the level and the change differ",
)
SETTLE_FIELD = Rule(
    "settle.other_field_named",
    "a value is in one field while the claim names its contrasting sibling",
)
SETTLE_RECORD = Rule(
    "settle.record_in_parts",
    "a score or time no cited value writes whole matches only number by number",
)
SETTLE_KEY_NUMBER = Rule(
    "settle.key_number",
    "the figure is only a number in a field's key, which the claim does not say with its word",
)
SETTLE_LINK = Rule(
    "settle.name_unlinked",
    "the claim gives a named field's value to a name the report holds in an unlinked field",
)
SETTLE_SUBJECT = Rule(
    "settle.subject_unbound", "the claim names the subject of another field holding this measure"
)
SETTLE_COUNTED = Rule(
    "settle.counted_unbound", "the figure counts another thing in the cited passage"
)
SETTLE_DIRECTION = Rule(
    "settle.direction_unshown", "the claim says a change the cited series does not show"
)
SETTLE_SCALE = Rule(
    "settle.scale_below_zero", "a score is said out of its top, but its scale starts below zero"
)
RULES = (
    FAIL_UNTYPED, FAIL_BEYOND, FAIL_NAME_FORM,
    SETTLE_UNIT, SETTLE_CURRENCY, SETTLE_AMBIGUOUS, SETTLE_PERIOD, SETTLE_SUBJECT,
    SETTLE_ASSERTION, SETTLE_LEVEL, SETTLE_FIELD, SETTLE_RECORD, SETTLE_KEY_NUMBER,
    SETTLE_LINK, SETTLE_DIRECTION, SETTLE_COUNTED, SETTLE_SCALE,
)  # fmt: skip

WRONG_SIGN = "anchor.wrong_sign"
WRONG_SCALE = "anchor.wrong_scale"
COUNT_MISMATCH = "anchor.count_mismatch"
"""A cited list counted: its size is typed."""
_PROOFS = frozenset({"anchor.nothing_cited"})
"""Failures that are proof whatever the cited values are: a figure smuggled into a claim
that cites nothing (DESIGN §6.8)."""
_SIGN_WORDS = lexicon.NEGATIVE_SENSE | lexicon.LOSS_VERBS
"""Words that say a figure is below zero ("a loss of", "lost"): the sign said in words."""
_WORDED = frozenset({FactKind.NAME, FactKind.PASSAGE})
_NAMES_LIST = re.compile(r"\b[A-Z][\w-]*\b[^.;]*(?:,|\band\b|\bplus\b|&)[^.;]*\b[A-Z][\w-]*")
"""A text naming two or more things (``Kone 24/7 … and Sensolift``), which no check counts."""
_NO_VALUE = frozenset({FactKind.UNTYPED, FactKind.NOT_GIVEN})
"""Kinds of fact that hold no value a claim could restate."""

COMMON_ZIPF = 4.0
"""A name made only of words this common in English (``American``, ``North America``,
``Independence Day``) may be said in other words than the report's (``United States``)."""

_QUOTED = re.compile(r"^'(.+?)'(?=[\s:,.]|$)")
"""The figure or name a reason quotes first (``'Kenji's Apigee' appears in …``)."""
_UNIT_DIMENSION = {
    Unit.CURRENCY: "money",
    Unit.PERCENT: "percent",
    Unit.FRACTION: "percent",
    Unit.RATIO: "percent",
    Unit.BASIS_POINTS: "percent",
    Unit.DURATION: "duration",
    Unit.SCORE: "score",
    Unit.YEAR: "date",
    Unit.COUNT: "number",
    Unit.NUMBER: "number",
}
_COMPARABLE = {
    "money": {"money", "number"},
    "percent": {"percent", "score", "number"},
    "duration": {"duration"},
    "date": {"date"},
    "score": {"score", "percent", "number"},
    "number": {"number", "money", "percent", "score"},
    "power": {"power"},
    "energy": {"energy"},
}
"""A claim figure of each kind, and the cited kinds that could prove it wrong."""


def decide(
    report: Report,
    cited: Sequence[LeafFacts],
    found: Sequence[Quantity],
    reasons: list[Reason],
    *,
    derived: frozenset[str],
    claim_text: str,
    names: Sequence[str] = (),
) -> tuple[list[Reason], list[Reason]]:
    """The failures that stand, and the doubts that leave the claim undecided.

    ``derived``: claim figures warranted by arithmetic.
    ``names``: the names the claim writes, squashed."""
    facts = [report.facts.get(leaf.path) for leaf in cited]
    kept: list[Reason] = []
    doubts: list[Reason] = []
    for reason in reasons:
        rule = _no_proof(reason, report, cited, facts, found, claim_text)
        if rule is None:
            kept.append(reason)
        else:
            doubts.append(Reason(check=reason.check, rule=rule.id, message=reason.message))
    if kept:
        return kept, doubts
    # the settle rules are asked of an undecided claim too: a claim they doubt is more
    # than a restatement of its values, so ``auto`` never posts it unjudged
    said = _assertions(claim_text)
    if said:
        said -= {
            w
            for leaf in cited
            if (value := report.evidence.leaf(leaf.path)) is not None
            for w in re.findall(r"[a-z]+", fold(f"{value.render()} {_key_text(leaf.path)}").lower())
        }  # the report's own words (``the record`` of a ``record`` column), restated
    if said:
        words = ", ".join(sorted(said))
        doubts.append(_doubt(SETTLE_ASSERTION, f"{SETTLE_ASSERTION.doc}: {words}"))
    qualified = (
        derived and set(re.findall(r"[a-z]+", claim_text.lower())) & lexicon.FIGURE_QUALIFIERS
    )
    if qualified:  # "like-for-like revenue grew 8.4%": reckoned from the group's figures
        words = ", ".join(sorted(qualified))
        doubts.append(
            _doubt(SETTLE_ASSERTION, f"a derived figure said of a qualified measure: {words}")
        )
    dropped = _denial_dropped(report, cited, found, claim_text)
    if dropped:
        doubts.append(_doubt(SETTLE_ASSERTION, f"the cited text denies it: '{dropped}'"))
    for q in found:
        if q.kind is QKind.RECORD:
            rule = _record_unbound(q, found, cited, claim_text) if q.key else None
        elif q.optional or q.from_path or q.text in derived:
            continue
        else:
            rule = _unbound(q, report, cited, claim_text)
        if rule is SETTLE_PERIOD:  # proof: the series' own value for the year named differs
            swapped = _swapped_period(q, report, cited, found, claim_text)
            if swapped is not None:
                problem = Problem("attribute.period_swapped", swapped)
                return [Reason(check=Check.ATTRIBUTE_WARRANT, **problem._asdict())], []
        if rule is not None:
            doubts.append(_doubt(rule, f"'{q.text}': {rule.doc}"))
    if _direction_unshown(report, cited, claim_text):
        doubts.append(_doubt(SETTLE_DIRECTION, SETTLE_DIRECTION.doc))
    named = _other_field_named(report, cited, found, claim_text, names)
    if named:
        doubts.append(_doubt(SETTLE_FIELD, f"{SETTLE_FIELD.doc}: {named}"))
    unlinked = next(
        (
            name
            for clause in _CLAUSE.split(claim_text)
            if (name := _name_unlinked(report, cited, found, names, clause))
        ),
        None,
    )
    if unlinked:
        doubts.append(_doubt(SETTLE_LINK, f"'{unlinked}': {SETTLE_LINK.doc}"))
    if any(q.kind is QKind.SCORE for q in found) and _scale_below_zero(report, cited):
        doubts.append(_doubt(SETTLE_SCALE, SETTLE_SCALE.doc))  # NPS 24 "out of 100"
    crossed = _item_crossed(report, cited, found, claim_text)
    if crossed:
        doubts.append(_doubt(SETTLE_LINK, f"'{crossed}': {SETTLE_LINK.doc}"))
    return kept, doubts


def _swapped_period(
    q: Quantity, report: Report, cited: Sequence[LeafFacts], found: Sequence[Quantity], text: str
) -> str | None:
    """Proof that a claim gives a series' figure to the wrong year: the claim states one
    figure and names one year for it (``Load factor was 79.1% in 2025``), the figure is a
    cited series' value for another period, and the series' own value for that year, read
    and typed, is not the figure. ``None`` when any of that is not so."""
    figures = [f for f in found if f.numeric and not f.from_path and not f.year_like]
    years = years_of(text)
    if len(figures) != 1 or len(years) != 1 or _parts(text):
        return None
    [year] = years
    before = re.findall(rf"([a-z]+)\W+(?:fy\s?'?)?(?:{year}|{year[2:]})\b", text.lower())
    if set(before) & lexicon.YEAR_AWAY_WORDS:  # "up since 2023": no year of the figure
        return None
    index = index_for(report)
    for leaf in cited:
        if not any(matches(q, v) for v in leaf.quantities if not v.from_path):
            continue
        series = _series_holding(report, leaf.path)
        at = [p for p in series.points if years_of(p.period) == {year}] if series else []
        if len(at) != 1 or leaf.path.startswith(at[0].path):
            continue
        held = index.leaves.get(at[0].path)
        if held is None or not held.quantities:
            continue
        if not any(matches(q, v) for v in held.quantities if not v.from_path):
            return f"'{q.text}' is not {at[0].path}, the series' {at[0].period} value"
    return None


def _series_holding(report: Report, path: str) -> Series | None:
    """The series one of whose points is ``path`` (or holds it)."""
    for fact in report.facts.series.values():
        points = fact.series.points if fact.series is not None else []
        if any(path == p.path or path.startswith((f"{p.path}.", f"{p.path}[")) for p in points):
            return fact.series
    return None


def _scale_below_zero(report: Report, cited: Sequence[LeafFacts]) -> bool:
    """A cited scale minimum below zero (``ScaleMin: -100``)."""
    for leaf in cited:
        words = set(_stems(_tail(leaf.path)))
        value = report.evidence.leaf(leaf.path)
        number = value.value if value is not None else None
        if words & {"min", "minimum"} and isinstance(number, (int, float)) and number < 0:
            return True
    return False


CROSSED_WORDS = 2
"""A claim that names one labelled item and says this many words only another holds
speaks of the other."""


def _item_crossed(
    report: Report, cited: Sequence[LeafFacts], found: Sequence[Quantity], text: str
) -> str | None:
    """``Golden Crust takes orders until 9 pm`` citing two items written as a label and its
    value (``"Golden Crust Bakeries: national supplier…"``, ``"Baker's Lane: … orders until
    9 pm"``): the claim names one item's label and states a figure, or words, only another
    item holds. Returns the label named, or ``None``."""
    items: list[tuple[LeafFacts, str, str]] = []
    for leaf in cited:
        stored = report.evidence.leaf(leaf.path) if leaf.is_text else None
        value = stored.render() if stored is not None else ""
        if (label := labelled(value)) is not None:
            items.append((leaf, label, value))
    said = f" {_plain_words(text)} "
    named = [item for item in items if f" {_plain_words(item[1])} " in said]
    if len(items) < 2 or len(named) != 1:
        return None
    own, label, value = named[0]
    said_stems = _stems(text)
    # an item whose label the claim says too is spoken of as well ("prepared … issued …")
    items = [item for item in items if item is named[0] or not _stems(item[1]) & said_stems]
    for q in found:
        if q.optional or q.from_path:
            continue
        holders = [
            leaf for leaf, _, _ in items
            if any(matches(q, v) for v in leaf.quantities if not v.from_path)
        ]  # fmt: skip
        if holders and own not in holders:
            return label
    words = {w for w in said_stems if len(w) > 2 and w not in language.STOP_WORDS}
    mine = _stems(value)
    for leaf, other, theirs in items:
        only = (words & _stems(theirs)) - mine - _stems(other)
        if leaf is not own and len(only) >= CROSSED_WORDS:
            return label
    return None


DENIAL_WINDOW = 3
"""A negator at most this many words after a figure denies what the figure counts."""


def _denial_dropped(
    report: Report, cited: Sequence[LeafFacts], found: Sequence[Quantity], text: str
) -> str | None:
    """``112 had a root-cause note`` of ``112 had no root-cause note``: a cited text
    denies, right after the claim's figure, what the claim affirms. Returns the text's
    words, or ``None``."""

    def after(written: str, figure: str) -> list[str] | None:
        at = re.search(rf"(?<![\w.]){re.escape(figure)}(?![\w.])", written)
        if at is None:
            return None
        return re.findall(r"[a-z]+", written[at.end() :].lower())[:DENIAL_WINDOW]

    for q in found:
        said = after(text, q.text)
        if said is None or set(said) & lexicon.NEGATION_WORDS:
            continue
        for leaf in cited:
            value = report.evidence.leaf(leaf.path)
            held = after(value.render(), q.text) if value is not None else None
            if held and set(held) & lexicon.NEGATION_WORDS:
                return f"{q.text} {' '.join(held)}"
    return None


def cited_series(series: Mapping[str, TypedFact], cited: Sequence[LeafFacts]) -> list[Series]:
    """The series (of a report's ``facts.series``) the claim cites two or more points of."""
    paths = {leaf.path for leaf in cited}
    return [
        f.series
        for f in series.values()
        if f.series is not None and len(paths & {p.path for p in f.series.points}) > 1
    ]


def direction_of(sign: int) -> str:
    return "up" if sign > 0 else "down"


def _direction_unshown(report: Report, cited: Sequence[LeafFacts], text: str) -> bool:
    """Does the claim say one direction over two or more points of a series that went
    another way (``improved since 2023`` of 6.8 then 6.1)?"""
    said = set(directions(language.words(text)).values())
    if len(said) != 1:
        return False
    [sign] = said
    return any(s.direction != direction_of(sign) for s in cited_series(report.facts.series, cited))


def _doubt(rule: Rule, message: str) -> Reason:
    return Reason(check=Check.ATTRIBUTE_WARRANT, rule=rule.id, message=message)


PART_UNREAD = _doubt(
    SETTLE_ASSERTION,
    "a figure recomputed as a cited share of a cited count or amount: which part it is, no "
    "check reads",
)


def said_in_cited(evidence: EvidenceMap, cited: Sequence[LeafFacts], text: str) -> bool:
    """The other way round: is the claim, as written, part of a cited text (a sentence of
    a finding's detail)? Then another field's trend cannot prove it wrong: the report says
    it."""
    claim = _plain_words(text)
    return bool(claim) and any(
        isinstance(stored.value, str) and f" {claim} " in f" {_plain_words(stored.value)} "
        for leaf in cited
        if (stored := evidence.leaf(leaf.path)) is not None
    )


def quotes_cited(report: Report, cited: Sequence[LeafFacts], text: str) -> bool:
    """Does the claim quote a cited text of three words or more whole (``Finding:
    Site search returns nothing for more than one query in ten``)? Then a figure in it is
    named by the value's own words."""
    claim = _plain_words(text)
    for leaf in cited:
        stored = report.evidence.leaf(leaf.path)
        if stored is None or not isinstance(stored.value, str):
            continue
        value = _plain_words(stored.value)
        words = re.findall(r"[a-z]{2,}", value)
        if len(words) >= 3 and f" {value} " in f" {claim} ":
            return True
    return False


# -- fail only on proof -------------------------------------------------------------------


def _no_proof(  # noqa: PLR0917
    reason: Reason,
    report: Report,
    cited: Sequence[LeafFacts],
    facts: Sequence[TypedFact | None],
    found: Sequence[Quantity],
    claim_text: str,
) -> Rule | None:
    """The rule that says this failure is no proof, or ``None`` when it stands."""
    if not cited or reason.check not in (
        Check.ANCHOR_WARRANT, Check.ENTITY_WARRANT, Check.ATTRIBUTE_WARRANT,
    ):  # fmt: skip
        return None  # nothing cited: no value of the report can support the claim
    if reason.rule in _PROOFS:
        return None
    if any(f is None or f.kind is FactKind.UNTYPED for f in facts):
        return FAIL_UNTYPED
    m = _QUOTED.match(reason.message)
    if m is None:
        return None
    said = m.group(1)
    if reason.check is Check.ANCHOR_WARRANT:
        q = next((q for q in found if q.text == said), None)
        if q is None:
            return None
        if _beyond(q, said, reason, cited, facts, claim_text, report.company.name):
            return FAIL_BEYOND
        if reason.rule == COUNT_MISMATCH:
            return None  # a cited list counted: its size is typed
        dims = set().union(*(_dimensions(f, leaf) for f, leaf in zip(facts, cited, strict=True)))
        could = set(_COMPARABLE[_dimension(q)])
        if q.year_like:
            could.add("date")
        if q.kind is QKind.PERCENT and len([d for d in facts if d and d.quantity]) >= 2:
            could |= {"money", "number"}  # a share of two cited amounts
        return None if dims & could else FAIL_BEYOND
    if reason.check is Check.ENTITY_WARRANT:
        if "closest cited name" in reason.message:
            return FAIL_NAME_FORM  # a near spelling of a cited name: fuzzy never proves
        if said.islower() and (_english(said) or language.typo(said)):
            return FAIL_NAME_FORM  # an English word in lower case (or its typo), not a name
        if any(p.islower() and _english(p) for p in said.split("-")[:-1] if p):
            return FAIL_NAME_FORM  # ``single-PMS``: a name with a word joined to it
        return _name_unproven(said, report, cited, facts, claim_text)
    return None


_VAGUE = r"(?:early|late|middle|spring|summer|autumn|fall|winter|end|start|beginning)"
"""Words for a part of a year the date grammar does not read (it reads ``mid-2026``)."""
_VAGUE_DATE = re.compile(rf"\b{_VAGUE}\b", re.I)
_SPANS = r"(?:decades?|centur(?:y|ies)|years?|quarters?|months?|weeks?|days?)"
_DEICTIC = r"(?:last|next|this|that|previous|prior|same)"
"""Words that make ``year`` a period named ("1.5 GWh last year"), not a span counted."""


def _beyond(  # noqa: PLR0917
    q: Quantity,
    said: str,
    reason: Reason,
    cited: Sequence[LeafFacts],
    facts: Sequence[TypedFact | None],
    text: str,
    report_name: str,
) -> bool:
    """Does the figure need reckoning the checks do not do: a decade or century, a vague
    date (``late 2024``), a year the cited dates hold but said in other words, months
    against days, or arithmetic over two cited numbers?"""
    century = re.search(rf"{re.escape(said)}\s+centur", text, re.I)
    decade = re.search(r"\b(?:\d{3}0|'\d0)'?s\b", said)
    figure = re.escape(said)
    letters = re.sub(_VAGUE, "", said, flags=re.I)
    yearly = q.year_like or (
        q.kind in (QKind.DATE, QKind.PERIOD) and not re.search(r"[A-Za-z]{3}", letters)
    )  # a year, perhaps with a vague part (``late 2024``), no month
    if decade or century or (yearly and _VAGUE_DATE.search(said)):
        return True
    if yearly and re.search(rf"\b{_VAGUE}\s+(?:of\s+)?(?:the\s+)?(?:year\s+)?{figure}", text, re.I):
        return True  # ``middle 1960``, ``the spring of 1874``: a part of a year
    if q.kind is QKind.NUMBER and re.search(
        rf"\b(?:when\s+\w+\s+(?:was|were|is|turned)|aged?|age of)\s+(?:about\s+)?{figure}\b"
        rf"(?!\s*(?:%|percent))|{figure}(?:th)?\s+(?:years?\s+old|birthday)",
        text,
        re.I,
    ):
        return True  # an age, reckoned from dates the checks do not subtract
    dated = any(f is not None and f.kind is FactKind.DATE for f in facts)
    durations = any(  # a cited duration (a value's, a key's) is compared, not reckoned
        (f is not None and f.quantity and f.quantity.unit is Unit.DURATION)
        or any(_dimension(v) == "duration" for v in leaf.quantities)
        for f, leaf in zip(facts, cited, strict=True)
    )
    spans = re.search(rf"{figure}\s+(?:(?!{_DEICTIC}\b)\w+\s+)?{_SPANS}\b", text, re.I) or (
        not durations and re.search(rf"\b{_SPANS}$", said, re.I)  # "two quarters" of dates
    )
    if dated and spans:
        return True  # a span of time against dates: arithmetic the checks do not do
    if said in report_name:
        return True  # a figure of the prospect's own name (``the 1984 Winter Olympics``)
    before = text[: text.find(said)][-40:].lower()
    if reason.rule == WRONG_SIGN and set(re.findall(r"[a-z]+", before)) & _SIGN_WORDS:
        return True  # ``a loss of A$4 million`` of ``-4.2``: the sign said in words
    after = text[text.find(said) + len(said) :]
    if q.share and _ORDINAL_SHARE.fullmatch(said) and not re.match(r"\s+of\b", after):
        return True  # ``own two and charter a third``: an ordinal may be meant, not a share
    quantities = [f.quantity for f in facts if f is not None and f.quantity is not None]
    if q.kind is QKind.PERCENT and any(
        c.unit is Unit.RATIO and c.value > 1 and abs(float(q.value) - 100 * (c.value - 1)) < 0.5
        for c in quantities
    ):
        return True  # ``an NRR of 1.12 … grew by 12%``: a multiple's excess, reckoned
    unit_word = re.match(r"\s+([a-z]+)", after)
    if unit_word and any(
        c.measure and _prefixed(q.value, unit_word.group(1), c) for c in quantities
    ):
        return True  # ``900,000 litres`` of ``0.9 megalitres``: a metric prefix converted
    if _arithmetic(q, quantities):
        return True  # ``up 7.5 hours since FY2023``: a difference or sum of cited values
    if q.kind is QKind.CURRENCY and _product(q, cited):
        return True  # ``EBITDA of A$18.5m`` of revenue 188.4m and a 9.8% margin
    if re.search(rf"\b(?:top|bottom|first|last)\s+{figure}\b", text, re.I):
        return True  # ``in the bottom four`` of ``14th of 17``: a rank range, reckoned
    if (
        reason.rule == WRONG_SCALE
        and q.kind is QKind.CURRENCY
        and quantities
        and all(c.unit is Unit.NUMBER and not c.currency for c in quantities)
    ):
        return True  # money against a bare number: the report does not say its scale
    if (
        reason.rule == WRONG_SCALE
        and q.kind is QKind.CURRENCY
        and _scale_unstated(float(q.value), facts)
    ):
        return True  # ``SEK 412 million`` of a bare ``412``: no scale stated, none proven
    said_year = str(int(q.value)) if q.year_like else ""
    if (
        said_year
        and q.bound == "eq"
        and any(f is not None and said_year in f"{f.display} {f.period_text}" for f in facts)
    ):
        return True  # the year is there (or counted as a list's size): the wording is not read
    if reason.rule == COUNT_MISMATCH:
        return False
    items = {(at.list_path, at.item) for leaf in cited if (at := list_item(leaf.path))}
    if q.kind is QKind.NUMBER and q.unit is None and q.value % 1 == 0 and 0 < q.value < len(items):
        return True  # ``two high ones`` of the cited findings: some of its items, counted
    listed = any(
        f is not None and f.kind in _WORDED and _NAMES_LIST.search(f.text or "") for f in facts
    )
    small_count = q.kind is QKind.NUMBER and q.unit is None and q.value in range(2, 11)
    if small_count and listed:
        return True  # ``two platforms`` of "Kone … and Sensolift …": things a text names, counted
    if (
        q.bound != "eq"
        and not q.year_like
        and any(
            v.value == q.value and matches(replace(q, bound="eq"), v)
            for leaf in cited
            for v in leaf.quantities
        )
    ):
        return True  # the figure is the value; only a bound word (``turned over``) is read
    measures = {
        f.quantity.measure
        for f in facts
        if f is not None and f.quantity is not None and f.quantity.unit is Unit.DURATION
    }
    said_unit = duration_unit(q.unit) if q.unit is not None else None
    if said_unit and measures and said_unit not in measures:
        if re.match(r"\s+and\s+a\s+(?:half|quarter)\b", text[text.find(said) + len(said) :]):
            return True  # ``a day and a half``: the grammar reads ``a day``
        if not {_dimension_of(said_unit)} & set(map(_dimension_of, measures)):
            # ``seven months`` of ``210 days``: a conversion the anchor does not make
            return any(
                _converts(q.value, said_unit, f.quantity)
                for f in facts
                if f is not None and f.quantity is not None
            )
    numeric = [leaf for leaf in cited if any(v.numeric for v in leaf.quantities)]
    if len(numeric) < 2 or q.kind is not QKind.NUMBER or q.unit is not None:
        return False
    # points between two fractions, or one number so many times another: arithmetic the
    # derived figures do not do
    relation = re.search(rf"{re.escape(said)}\s+(?:percentage\s+)?(points?|times)\b", text, re.I)
    shares = any(
        f is not None and f.quantity is not None
        and (f.quantity.unit in (Unit.FRACTION, Unit.RATIO) or 0 < abs(f.quantity.value) < 1)
        for f in facts
    )  # fmt: skip
    return relation is not None and (shares or relation.group(1).lower() == "times")


def _scale_unstated(said: float, facts: Sequence[TypedFact | None]) -> bool:
    """Is the figure a cited amount times a thousand, a million or a billion, where the
    report states no scale for that amount (a small number, no scale in its key, a
    sibling field or the report, and the currency not from a key such as ``revenue_usd``,
    whose numbers are whole units)? Its scale is then unread, not wrong."""
    return any(
        f is not None
        and (c := f.quantity) is not None
        and "scale" not in f.sources
        and f.sources.get("currency") is not Source.KEY  # ``revenue_usd``: in units
        and c.scale == 1
        and c.unit is Unit.CURRENCY
        and not c.measure
        and 0 < abs(c.value) < 1000
        and any(math.isclose(said, c.value * k, rel_tol=0.01) for k in (1e3, 1e6, 1e9))
        for f in facts
    )


def _arithmetic(q: Quantity, cited: Sequence[FactQuantity]) -> bool:
    """Is the figure the difference or the sum of two of the few (at most
    ``ARITHMETIC_VALUES``) cited values of one unit, in points or basis points for rates?
    Among a table row's many numbers some pair adds up to almost anything."""
    if q.share or q.kind is QKind.SCORE:
        return False
    groups: dict[tuple[Unit, str | None], list[float]] = {}
    for c in cited:
        value = c.percent if c.percent is not None else c.amount
        groups.setdefault((c.unit, c.currency), []).append(value)
    said, tolerance = float(q.value), float(q.tolerance) + 1e-9
    return any(
        result and abs(said - result) <= tolerance
        for values in groups.values()
        if 2 <= len(values) <= ARITHMETIC_VALUES
        for i, x in enumerate(values)
        for y in values[i + 1 :]
        for result in (abs(x - y), x + y)
    )


ARITHMETIC_VALUES = 3


def _product(q: Quantity, cited: Sequence[LeafFacts]) -> bool:
    """Is the amount a cited amount taken at a cited rate (revenue times a margin), among
    few (at most ``ARITHMETIC_VALUES`` of each) cited amounts and rates?"""
    said = [v for leaf in cited for v in leaf.quantities if not v.from_path]
    amounts = [float(v.value) for v in said if v.kind is QKind.CURRENCY]
    rates = [float(v.value) for v in said if v.kind is QKind.PERCENT]
    if not (amounts and rates) or max(len(amounts), len(rates)) > ARITHMETIC_VALUES:
        return False
    value, slack = float(q.value), max(float(q.tolerance), 0.005 * abs(float(q.value)))
    return any(abs(value - a * r / 100) <= slack for a in amounts for r in rates)


_ORDINAL_SHARE = re.compile(r"(?:a|one)\s+(?:third|quarter|fifth|tenth)", re.I)
_METRIC_PREFIXES = {"kilo": 1e3, "mega": 1e6, "giga": 1e9, "milli": 1e-3, "centi": 1e-2}


def _prefixed(value: Decimal, word: str, cited: FactQuantity) -> bool:
    """Is ``value`` ``word`` the cited quantity in a unit with a metric prefix
    (``900,000 litres`` of ``0.9 megalitres``)?"""
    for m in re.findall(r"[a-z]+", (cited.measure or "").lower()):
        factor = _METRIC_PREFIXES.get(m[: -len(word)]) if m.endswith(word) else None
        if factor and abs(float(value) - cited.value * factor) <= CONVERTED * abs(
            cited.value * factor
        ):
            return True
    return False


CONVERTED = 0.1
"""A figure in another unit that comes within this share of a cited duration."""
MONTH_SECONDS = 2_629_800
"""A mean month (365.25 / 12 days), to set calendar units against clock ones."""


def _dimension_of(unit: str | None) -> str | None:
    """The dimension the anchor converts a unit within (``hours`` and ``days`` are both
    time; ``months`` and ``years`` are calendar)."""
    return UNITS[unit][0] if unit in UNITS else None


def _seconds(unit: str | None) -> float | None:
    """A unit's length in seconds, a month taken at its mean."""
    if unit not in UNITS:
        return None
    dimension, factor = UNITS[unit]
    scale = {"time": 1, "month": MONTH_SECONDS}.get(dimension)
    return float(factor) * scale if scale is not None else None


def _converts(value: Decimal, unit: str, cited: FactQuantity) -> bool:
    """Does ``value`` ``unit`` come near the cited duration in the cited unit?"""
    said, theirs = _seconds(unit), _seconds(cited.measure)
    if said is None or theirs is None or not cited.value:
        return False
    return abs(float(value) * said / theirs - cited.value) <= CONVERTED * abs(cited.value)


def _dimension(q: Quantity) -> str:
    if q.kind in (QKind.DATE, QKind.PERIOD):
        return "date"
    if q.kind is QKind.CURRENCY:
        return "money"
    if q.kind is QKind.PERCENT:
        return "percent"
    if q.kind is QKind.SCORE:
        return "score"
    if q.unit in MEASURED_UNITS:
        return UNITS[q.unit][0]  # "1.9 TWh": energy
    if q.unit is not None and not (q.unit == "s" and q.text.endswith("0s")):  # Under-20s
        return "duration"
    return "number"


def _dimensions(fact: TypedFact | None, leaf: LeafFacts) -> set[str]:
    if fact is None:
        return set()
    if fact.kind is FactKind.QUANTITY and fact.quantity is not None:
        measure = (fact.quantity.measure or "").lower()
        measured = {UNITS[measure][0]} if measure in MEASURED_UNITS else set()  # ``unitRef: GWh``
        return {_UNIT_DIMENSION[fact.quantity.unit], *measured} | (
            {"date"} if fact.period else set()
        )
    if fact.kind is FactKind.DATE:
        return {"date"}
    if fact.kind is FactKind.NOT_GIVEN:  # read, and holds no figure of any kind (a period
        return set(_COMPARABLE) - {"date"}  # it names is its key's, not its value's)
    found = {_dimension(q) for q in leaf.quantities if not q.from_path}
    return found | ({"date"} if any(q.year_like for q in leaf.quantities) else set())


def _name_unproven(
    name: str,
    report: Report,
    cited: Sequence[LeafFacts],
    facts: Sequence[TypedFact | None],
    text: str,
) -> Rule | None:
    """A name missing from the cited values is proof when the report states it of another
        field (a swap), or when a cited field holds a name (the slot the claim fills) and the
        claim's name is no form of any cited word. A name is left to the judge when the cited
        values hold no name (a passage may say it in other words), when it shares a stem or
        initials with a cited word (``USA`` for ``U.S.``, ``Spain`` for ``Spanish``), or when it
        is made of common words (``American``), is a common word that only opens the sentence
    (``Debtor days``), or is part of the prospect's own name."""
    squashed = squash_name(name)
    if not squashed:
        return None
    cited_paths = {leaf.path for leaf in cited}
    if _named_elsewhere(report, squashed, frozenset(cited_paths)):
        return None
    words = re.findall(r"[A-Za-z]+", fold(name).lower())
    plain = re.fullmatch(r"[A-Za-z]+(?:[ -][A-Za-z]+)*", fold(name)) is not None
    claim_words = _stems(text)
    slot_named = any(
        f is not None and f.kind is FactKind.NAME and _key_stems(f.path) & claim_words
        for f in facts
    )  # ``They use X for reviews`` citing ``vendors.reviews``: X fills that slot
    if (
        plain
        and not (slot_named and len(words) > 1)
        and all(zipf_frequency(w, "en") >= COMMON_ZIPF for w in words)
    ):
        return FAIL_NAME_FORM  # common words (a place, a people, a season) may be said otherwise
    own = {w for n in [report.company.name, *report.company.aliases] for w in _words(fold(n))}
    if squashed in squash_name(fold(report.company.name)) or own & {w for w in words if len(w) > 3}:
        return FAIL_NAME_FORM  # the prospect's own name, or part of it
    tokens = {
        (squash_name(token), "." in token)
        for f in facts
        if f is not None and f.text is not None
        for token in re.findall(r"[A-Za-z][A-Za-z.]*", f.text)
    }
    initials = {
        "".join(w[0] for w in phrase.split()).lower()
        for f in facts
        if f is not None and f.text is not None
        for phrase in re.findall(r"[A-Z][a-z]+(?: [A-Z][a-z]+)+", f.text)
    }
    acronym = re.fullmatch(r"[A-Z][A-Z.&]+(s?)", name)
    if acronym:  # ``SOVs`` of ``service operation vessels``: initials in any case
        texts = [f.text or "" for f in facts if f is not None] + [leaf.path for leaf in cited]
        for said in map(key_words, texts):  # values and keys, camel humps too
            for words in (said, [w for w in said if w not in lexicon.ACRONYM_SKIPS]):
                initials |= {
                    "".join(heads) + acronym.group(1)
                    for n in (2, 3, 4)
                    for i in range(len(words) - n + 1)
                    for heads in _initials(words[i : i + n])
                }
    letters = re.sub(r"[^a-z]", "", name.lower())  # ``O&M``: its letters, "&" left out
    if squashed in initials or (acronym and letters in initials):
        return FAIL_NAME_FORM  # ``U.S.`` for ``United States``
    parts = [squash_name(w) for w in re.findall(r"[A-Za-z][A-Za-z.]*", name)]
    if parts and all(language.typo(p) for p in parts):
        return FAIL_NAME_FORM  # ``Austrailia``: a typo of a word, not a name of its own
    formed = [any(_form_of(p, t, dotted) for t, dotted in tokens if t) for p in parts if p]
    common = [zipf_frequency(p, "en") >= COMMON_ZIPF for p in parts if p]
    if any(formed) and all(f or c for f, c in zip(formed, common, strict=True)):
        return FAIL_NAME_FORM  # each rare word a form of a cited one (``Counter Liffey's``)
    return None


def _initials(words: Sequence[str]) -> Iterator[tuple[str, ...]]:
    """The initials of ``words``: each word's first letter, and ``x`` for a word starting
    ``ex`` (``CX`` of ``Customer Experience``)."""
    heads = [w[0] for w in words]
    yield tuple(heads)
    if any(w.startswith("ex") for w in words):
        yield tuple("x" if w.startswith("ex") else h for w, h in zip(words, heads, strict=True))


LOWER_ZIPF = 2.7
"""A lower-case word this common in English (``fizzy``, ``lingual``) is a word, not a name."""


def _english(word: str) -> bool:
    """Is a lower-case word English: a noun or a verb, or common enough to be a word, or a
    unit with a metric prefix (``megalitres``)?"""
    prefix = next(
        (p for p in _METRIC_PREFIXES if word.startswith(p) and len(word) > len(p) + 2), ""
    )
    if prefix:
        word = word[len(prefix) :]
    return language.noun(word) or language.verb(word) or zipf_frequency(word, "en") >= LOWER_ZIPF


def _words(text: str) -> set[str]:
    return {squash_name(w) for w in re.findall(r"[^\W\d_]+", text.lower())} - {""}


def _form_of(said: str, cited: str, initials: bool) -> bool:
    """``spain`` of ``spanish``: one starts as the other does, in four letters or more, or
    the cited word is initials (``U.S.``) that the name starts with (``USA``)."""
    if said == cited:
        return True
    if initials and len(cited) >= 2:
        return said.startswith(cited)
    if min(len(said), len(cited)) < 4:
        return False
    return cited.startswith(said[:4]) or said.startswith(cited[:4])


def _named_elsewhere(report: Report, squashed: str, cited: frozenset[str]) -> bool:
    """Does a value outside the cited paths hold the name (one to three of its words,
    squashed)? Then the report gives it to another field."""
    holders = report.derived(_name_holders).get(squashed, ())
    return any(path not in cited for path in holders)


def _build_squashed(report: Report) -> dict[str, frozenset[str]]:
    out: dict[str, frozenset[str]] = {}
    for leaf in report.evidence:
        if isinstance(leaf.value, str):
            words = re.findall(r"[A-Za-z0-9][A-Za-z0-9.&'-]*", leaf.value)
            grams = {
                squash_name(" ".join(words[i : i + n]))
                for n in (1, 2, 3)
                for i in range(len(words) - n + 1)
            }
            out[leaf.path] = frozenset(g for g in grams if g)
    return out


def _name_holders(report: Report) -> dict[str, tuple[str, ...]]:
    """``_build_squashed`` inverted: each name a text value holds → the paths holding it.
    (Built from its own call: ``Report.derived`` holds its lock while it builds.)"""
    out: dict[str, list[str]] = {}
    for path, grams in _build_squashed(report).items():
        for gram in grams:
            out.setdefault(gram, []).append(path)
    return {gram: tuple(paths) for gram, paths in out.items()}


# -- settle only on proof -----------------------------------------------------------------


def _record_unbound(
    q: Quantity, found: Sequence[Quantity], cited: Sequence[LeafFacts], text: str
) -> Rule | None:
    """A score or time string is bound when a cited value writes it whole, of the period
    the claim says, and, listed with the next one (``7 - 5 , 7 - 6``), in that order."""
    hits = written_whole(q, cited, either_way=False)  # ``1 - 2`` of ``won 2 - 1`` is unread
    if not hits:
        return SETTLE_RECORD
    if all(_other_period(text, _no_index(leaf.path)) for leaf in hits):
        return SETTLE_PERIOD  # ``1 - 4 in 1998`` is 2012's record: its path names the year
    later = found[found.index(q) + 1 :]
    if later and later[0].kind is QKind.RECORD:
        listed = re.search(rf"{re.escape(q.text)}\s*[,;]\s*{re.escape(later[0].text)}", text)
        run = f"{q.key},{later[0].key}"
        if listed and not any(run in leaf.record_text for leaf in hits):
            return SETTLE_RECORD
    return None


def _unbound(q: Quantity, report: Report, cited: Sequence[LeafFacts], text: str) -> Rule | None:
    """The rule that keeps figure ``q`` from being bound to one cited field, or ``None``."""
    hits = [
        leaf for leaf in cited if any(matches(q, v) for v in leaf.quantities if not v.from_path)
    ]
    if not hits:
        labels = [
            leaf.path
            for leaf in cited
            if any(
                v.from_path and v.kind is QKind.NUMBER and matches(q, v) for v in leaf.quantities
            )
        ]
        if labels and not any(_says_key_number(q, path, text) for path in labels):
            return SETTLE_KEY_NUMBER
        return None  # warranted another way (a path's period, a count): the checks said so
    if all(_rounded_part(q, leaf, report.facts.get(leaf.path)) for leaf in hits):
        return SETTLE_RECORD  # ``10.1`` of ``10.11 (71)``: a score's part, rounded
    facts = [report.facts.get(leaf.path) for leaf in hits]
    typed = [f for f in facts if f is not None and f.kind not in _NO_VALUE]
    if not typed:
        # a bare number restating untyped numbers ("0.768" of ``Pct: 0.768``) says no unit
        bare = q.kind is QKind.NUMBER and q.unit is None and not q.currency
        return None if bare and all(f is not None for f in facts) else SETTLE_UNIT
    has_unit = q.kind in (QKind.PERCENT, QKind.CURRENCY) or (q.unit is not None and q.numeric)
    if has_unit and all(_unitless(f) for f in typed):
        return SETTLE_UNIT
    if q.kind is QKind.CURRENCY and q.currency and all(_no_currency(f) for f in typed):
        return SETTLE_CURRENCY
    words = _stems(text)
    if len({leaf.path for leaf in hits}) > 1 and q.kind not in (QKind.DATE, QKind.PERIOD):
        named = [leaf for leaf in hits if _key_stems(leaf.path) & words]
        if len(named) != 1:
            return SETTLE_AMBIGUOUS
    clause = _clause_of(text, q)  # "in 2025-H1: 77.6%; in 2025-H2: 84.6%": each its own
    if any(f.period_text and f.quantity and _other_period(clause, f.period_text) for f in typed):
        return SETTLE_PERIOD
    if all(_passage_period_other(q, leaf, report, text) for leaf in hits):
        return SETTLE_PERIOD  # ``£138.6m in FY2025, up from £127.9m in FY2024``
    for leaf in hits:
        if _other_subject(leaf.path, report, words):
            return SETTLE_SUBJECT
    if q.direction is not None and any(f.note == AGAINST for f in typed):
        return SETTLE_LEVEL
    if _count_noun_unbound(q, report, hits, text):
        return SETTLE_COUNTED
    return None


COUNTED_WINDOW = 4
"""How many words after a passage's number may name what it counts (``three of the 14
lines``)."""
PASSAGE_TOKENS = 6
"""A text of fewer words and numbers is a cell, whose key says what its number counts."""


def _count_noun_unbound(q: Quantity, report: Report, hits: Sequence[LeafFacts], text: str) -> bool:
    """Is ``q`` a count whose noun (``Three planners``) is not among the words after that
    number in any cited passage that holds it (``three of the 14 lines``)?"""
    if q.kind is not QKind.NUMBER or q.unit is not None:
        return False
    after = re.findall(r"[a-z]+", text[q.end :].lower())[:1]
    if not after or not language.plural_noun(after[0]):
        return False
    noun = language.stem(after[0])
    for leaf in hits:
        value = report.evidence.leaf(leaf.path)
        if value is None or not isinstance(value.value, str):
            return False  # a number field: its key says what it counts
        tokens = [t.replace(",", "") for t in _TOKEN.findall(value.value.lower())]
        if len(tokens) < PASSAGE_TOKENS:
            return False  # a cell, not a passage: its key says what it counts
        for i, token in enumerate(tokens):
            if _same_number(token, q) and noun in map(
                language.stem, tokens[i + 1 : i + 1 + COUNTED_WINDOW]
            ):
                return False
    return True


_TOKEN = re.compile(r"\d[\d,]*(?:\.\d+)?|[a-z]+")


def _same_number(token: str, q: Quantity) -> bool:
    spoken = lexicon.NUMBER_WORDS.get(token)
    value = Decimal(spoken) if spoken is not None else None
    if value is None and re.fullmatch(r"\d+(?:\.\d+)?", token):
        value = Decimal(token)
    return value is not None and value == q.value


def _rounded_part(q: Quantity, leaf: LeafFacts, fact: TypedFact | None) -> bool:
    """Does ``q`` match the field only by rounding a part of a score or time string, or
    one of the numbers of a text that is no typed quantity (``10.11 (71)``)?"""
    if q.bound != "eq" or q.year_like:
        return False
    values = [v for v in leaf.quantities if not v.from_path]
    parts = [p for r in values if r.kind is QKind.RECORD for p in r.parts]
    if fact is not None and fact.kind is not FactKind.QUANTITY and len(values) > 1:
        parts += [v for v in values if v.kind is QKind.NUMBER and not v.fraction]
    return not any(matches(q, v) and (v not in parts or v.value == q.value) for v in values)


def _says_key_number(q: Quantity, path: str, text: str) -> bool:
    """Does the claim say the number with a word its key writes beside it (``top 10`` of
    ``top_10_share_pct``, ``rule of 40`` of ``rule_of_40``)? ``episode 2`` is not
    ``col_2``'s number."""
    key, said = _tokens(_CAMEL.sub(" ", _last_key(path))), _tokens(text)
    return any(
        word == q.text and word in said and _beside(key, i) & _beside(said, said.index(word))
        for i, word in enumerate(key)
    )


def _tokens(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z]+|\d+", text.lower()) if w not in _FILLERS]


def _beside(words: list[str], i: int) -> set[str]:
    return {language.stem(words[j]) for j in (i - 1, i + 1) if 0 <= j < len(words)}


def _unitless(f: TypedFact) -> bool:
    q = f.quantity
    return (
        f.kind is FactKind.QUANTITY
        and q is not None
        and q.unit in (Unit.COUNT, Unit.NUMBER)
        and (not q.measure)
    )


def _no_currency(f: TypedFact) -> bool:
    return f.quantity is not None and f.quantity.currency is None


@lru_cache(maxsize=8)
def _data(name: str) -> frozenset[str]:
    """A word list of ``prism_slack/data/proof/``: a word a line, ``#`` comments."""
    text = resources.files("prism_slack.data").joinpath("proof").joinpath(f"{name}.txt")
    lines = (line.strip() for line in text.read_text("utf-8").splitlines())
    return frozenset(line for line in lines if line and not line.startswith("#"))


def _key_text(path: str) -> str:
    """A path's keys as words, in any case style (``ChangeVsPriorYear`` → change vs prior
    year)."""
    return f"{path} {' '.join(path_words(path))}"


def _assertions(text: str) -> set[str]:
    """The order, comparison and quantity words a claim says, but for a bound before a
    figure (``more than one query in ten``), which the number grammar reads, and ``most
    recent``, which says ``latest``."""
    unbound = _READ_ELSEWHERE.sub(" ", text.lower())
    said = set(re.findall(r"[a-z]+", unbound))
    found = said & (_data("assertion_words") | _data("reported_speech"))
    found |= {p for p in _data("promises") if re.search(rf"\b{p}\b", unbound)}
    return found | ({"record"} if _RECORD.search(unbound) else set())


_RECORD = re.compile(r"\b(?:a|an|its|their|new)\s+(?:all-time\s+)?record\b(?!\s+(?:of|for)\b)")
"""``a record NZ$318.4m``, ``a new record``: a record said of a value, not a ``record``
field (``the record be 20 - 9``)."""


_READ_ELSEWHERE = re.compile(
    r"\b(?:more|less|fewer|longer|shorter|higher|lower)\s+than\b|\bmost\s+recent(?:ly)?\b"
)  # ``most recent`` is ``latest``, no order over the values


def _other_field_named(
    report: Report,
    cited: Sequence[LeafFacts],
    found: Sequence[Quantity],
    text: str,
    names: Sequence[str] = (),
) -> str | None:
    """``the score for the home team of brentford``: the value (``brentford``) is the
    ``away_team``'s, and the claim names ``home``, the word that sets its sibling
    ``home_team`` apart, and not ``away``. A row's value is named by its row's label
    (``{name: "Learning platform", value: "Canvas LMS"}``): ``Canvas for student
    management`` names another row's. Returns the value's field, or ``None``."""
    if len(cited) < 2:
        return None
    said = _stems(text)
    stated = {leaf.path for leaf in cited if _states(report, leaf, found, text, names)}
    periods = {
        f.period_text for leaf in cited if (f := report.facts.get(leaf.path)) and f.period_text
    }  # a table's period column states the period of its other columns' items
    rows = {_record_of(leaf.path) for leaf in cited if _naming_stems(report, leaf.path)[1]}
    rows.discard(None)
    label_cells = {
        leaf.path
        for leaf in cited
        if _record_of(leaf.path) in rows and not _naming_stems(report, leaf.path)[1]
    }
    for leaf in cited:
        value = report.evidence.leaf(leaf.path)
        if leaf.path not in stated or (value is not None and value.render() in periods):
            continue
        own, labelled = _naming_stems(report, leaf.path)
        if leaf.path in label_cells:
            continue  # a row's label cell names the row's value; it is no value itself
        for other in cited:
            theirs, other_labelled = _naming_stems(report, other.path)
            if other.path in stated or not theirs or theirs == own:
                continue  # a sibling whose own value the claim states names that value;
                # one key (another point of a column, a column's unit) contrasts nothing
            if labelled and other_labelled and not own & theirs:  # two rows' labels
                named = len(theirs & said) >= LABEL_WORDS and not own & said
            elif own & theirs:  # contrasting siblings: home_team and away_team, strongs and
                # strongs_transliteration (every word that sets a longer key apart is said)
                extra, rest = theirs - own, own - theirs
                if extra:
                    named = bool(extra & said) and not rest & said and (bool(rest) or extra <= said)
                else:  # ``1 loss`` of ``draws_wins_losses``: the claim names ``losses``
                    named = theirs <= said and not rest & said
            else:  # another cited field named whole: ``directed in 1993`` of a release date
                named = theirs <= said and not own & said
            if named:
                return leaf.path
    return None


LABEL_WORDS = 2
"""A claim names another row when it says this many words of that row's label."""


def _naming_stems(report: Report, path: str) -> tuple[frozenset[str], bool]:
    """The stems that name a field: its row's label (``{name: …, value: …}``), else its
    key's; and whether they are a row's label."""
    fact = report.facts.get(path)
    if fact is not None and fact.sources.get("label") is Source.SIBLING:
        return _stems(fact.label), True
    return _key_stems(path), False


def _states(
    report: Report,
    leaf: LeafFacts,
    found: Sequence[Quantity],
    text: str,
    names: Sequence[str] = (),
) -> bool:
    """Does the claim state the field's value: one of its figures, its words whole, or,
    for a row's value, a name the claim writes (``names``, squashed) that it holds?"""
    values = [v for v in leaf.quantities if not v.from_path]
    if any(matches(q, v) for q in found if not q.optional for v in values):
        return True
    stored = report.evidence.leaf(leaf.path)
    value = _plain_words(stored.render()) if stored is not None else ""
    row = names and leaf.is_text and _naming_stems(report, leaf.path)[1]
    if row and any(n in squash_name(value) for n in names if len(n) > 2):
        return True  # a row's name value (``Canvas LMS``) is stated by a name of it
    return len(value) >= 2 and not value.isdigit() and f" {value} " in f" {_plain_words(text)} "


def _name_unlinked(
    report: Report,
    cited: Sequence[LeafFacts],
    found: Sequence[Quantity],
    names: Sequence[str],
    text: str,
) -> str | None:
    """``Polly Samson has eight children`` citing ``spouse`` and ``children``: the claim
    gives the named field's value (8 children) to a name the report holds in another field,
    outside that field's record (a list item, a table row). The report links each to its
    subject, not to each other. Asked of one clause at a time (``text``): two clauses say
    two facts. Returns the name, or ``None``."""
    said = _stems(text)
    found = [q for q in found if q.text in text]
    names = [n for n in names if n in squash_name(text)]
    grams = report.derived(_build_squashed)
    subject = {squash_name(fold(n)) for n in [report.company.name, *report.company.aliases]}
    named = [
        leaf for leaf in cited
        if (key := _key_stems(_no_index(leaf.path))) and key <= said
        and _states(report, leaf, found, text)
    ]  # fmt: skip
    for name in names:
        if not name or any(name in s or s in name for s in subject):
            continue
        holders = [leaf.path for leaf in cited if name in grams.get(leaf.path, ())]
        if not holders or any(_stems(_tail(p)) & said for p in holders):
            continue  # not a cited value, or the claim names its field
        others = [leaf.path for leaf in named if leaf.path not in holders]
        if others and not any(
            (record := _record_of(o)) is not None and record == _record_of(h)
            for o in others
            for h in holders
        ):
            return name
    return None


_CLAUSE = re.compile(r"[:;]|,\s*(?:and|but|while|whereas|so)?\b")
"""Where a claim's clauses part: each says its own fact."""


def _tail(path: str) -> str:
    """A path's last two keys, indexes dropped (``route_planning.vendor``)."""
    return " ".join(re.split(r"\.(?![^\[]*\])", _no_index(path))[-2:])


def _record_of(path: str) -> str | None:
    """The list item a field is of: ``rows[3]`` of ``rows[3].team``, a table's row of its
    cell (``financials.rows[1]`` of ``financials.rows[1][3]``), or ``None``."""
    at = list_item(path)
    return at.path if at is not None and at.field else None


@lru_cache(maxsize=65536)
def _stems(text: str) -> frozenset[str]:
    """The words of a claim or a key, in any case style, stemmed (``losses`` and ``loss``
    meet), fillers (``by``, ``of``) left out: what a claim and a field's key are compared
    in."""
    words = re.findall(r"[a-z0-9]+", _CAMEL.sub(" ", text).lower())
    return frozenset(language.stem(w) for w in words) - _FILLERS


@lru_cache(maxsize=65536)
def _key_stems(path: str) -> frozenset[str]:
    """The stems of a path's last key (``rows[3].home_team`` → home, team; a column's
    index is no word: ``revenue[2]`` → revenue)."""
    return _stems(_no_index(re.split(r"\.(?![^\[]*\])", path)[-1]))


_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_FILLERS = frozenset({"col", "by", "of", "the", "and", "in", "for", "to", "s"})


_PART = re.compile(
    r"\b(?:(?P<h>[12])H|H(?P<h2>[12])|Q(?P<q>[1-4]))\s*(?:FY\s?)?'?(?P<y>(?:19|20)?\d{2})\b"
    r"|\b(?P<y0>(?:19|20)\d{2})\s?[-/ ]?\s?(?:H(?P<h3>[12])|Q(?P<q0>[1-4]))\b",
    re.IGNORECASE,
)
"""A half or a quarter with its year: ``1H FY25``, ``H2 2025``, ``Q3'25``, ``Q4 FY2024``,
``2025-H1``."""


def _parts(text: str) -> set[str]:
    """The halves and quarters a text names, as ``2025h2``, ``2025q3``."""
    out = set()
    for m in _PART.finditer(text):
        y = m["y"] or m["y0"]
        year = y if len(y) == 4 else f"20{y}"
        quarter, half = m["q"] or m["q0"], m["h"] or m["h2"] or m["h3"]
        out.add(f"{year}h{half}" if quarter is None else f"{year}q{quarter}")
    return out


def _clause_of(text: str, q: Quantity) -> str:
    """The ``;``-separated part of a claim that holds figure ``q`` (the whole claim when it
    has one part, or ``q`` has no place in it)."""
    if ";" not in text or not q.end:
        return text
    start = text.rfind(";", 0, q.start) + 1
    end = text.find(";", q.end)
    return text[start : end if end >= 0 else len(text)]


_PERIOD_AFTER = re.compile(
    r"\**\s*(?:in|for|during|as of)\s+(?:the\s+)?((?:FY|CY)\s?'?\d{2,4}|(?:19|20)\d{2}"
    r"|[HQ][1-4]\s*(?:FY\s?)?'?\d{2,4}|[12]H\s*'?\d{2,4})\b",
    re.IGNORECASE,
)
"""The period a passage writes right after a figure: "£138.6m in FY2025" (not "up 22% on
FY24", whose period is the figure's base)."""


def _passage_period_other(q: Quantity, leaf: LeafFacts, report: Report, text: str) -> bool:
    """Does a passage write the period of its figure ``q`` right after it ("£138.6m in
    FY2025"), a period other than the claim names?"""
    value = report.evidence.leaf(leaf.path)
    if q.kind in (QKind.DATE, QKind.PERIOD) or value is None or not isinstance(value.value, str):
        return False
    for v in leaf.quantities:
        if v.from_path or not matches(q, v) or v.end <= v.start:
            continue
        m = _PERIOD_AFTER.match(value.value, v.end)
        if m is not None and _other_period(text, m.group(1)):
            return True
    return False


def _other_period(text: str, held: str) -> bool:
    """Does the claim name a year, or a half or quarter, that ``held`` (a field's period or
    path) names otherwise?"""
    stated, theirs = years_of(text), years_of(held)
    if stated and theirs and not stated & theirs:
        return True
    stated_parts, their_parts = _parts(text), _parts(held)
    return bool(stated_parts and their_parts and not stated_parts & their_parts)


def _other_subject(path: str, report: Report, words: frozenset[str]) -> bool:
    """Does another field with this field's key hold the same measure for a subject the
    claim names, which this field's path does not (``families.weeklyActive`` when the claim
    says families and cites ``teachers.weeklyActive``)?"""
    siblings = report.derived(_by_last_key).get(_last_key(path), ())
    own = _stems(_no_index(path))
    for other in siblings:
        if other == path:
            continue
        theirs = _stems(_no_index(other)) - own
        if theirs & words and not (own - theirs) & words - _key_stems(path):
            return True
    return False


@lru_cache(maxsize=65536)
def _plain_words(text: str) -> str:
    """``Fewer than 1 in 5!`` → ``fewer than 1 in 5``: folded, lower-case words and numbers."""
    return " ".join(re.findall(r"[a-z0-9]+", fold(text).lower()))


@lru_cache(maxsize=65536)
def _no_index(path: str) -> str:
    return re.sub(r"\[\d+\]", "", path)


def _last_key(path: str) -> str:
    return _no_index(path).rsplit(".", 1)[-1]


def _by_last_key(report: Report) -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for leaf in report.evidence:
        out.setdefault(_last_key(leaf.path), []).append(leaf.path)
    return {k: tuple(v) for k, v in out.items() if len(v) > 1}
