"""How the offline answerer words a claim so that the deterministic verifier supports it.

Every fact states cited values verbatim or as a rep reads them at a glance — ``$1.84B``,
``$74M``, ``4.1M``, ``down 3.4%``, ``23 days`` — rounded to three significant digits at
most (the verifier accepts a figure rounded to the precision it shows), and names the
attribute from a humanised label map (``prism_slack/data/labels.yaml``) or else the words
of the field's own path (``Trial conversion: 3.66%.``, ``Search relevance: 4/10.``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

import yaml

from prism_slack.claims import Claim
from prism_slack.evidence import Leaf, Scalar
from prism_slack.llm import lexicon
from prism_slack.llm.offline_index import CURRENCIES, KEY_SCALES, UNIT_WORDS, Item
from prism_slack.llm.playbook import Entry

if TYPE_CHECKING:  # the facts package imports the verifier, which imports reports
    from prism_slack.facts import ReportFacts

ACRONYMS = frozenset(
    line.strip()
    for line in resources.files("prism_slack")
    .joinpath("data", "facts", "acronyms.txt")
    .read_text("utf-8")
    .splitlines()
    if line.strip() and not line.startswith("#")
)
"""Words a label writes in capitals (``data/facts/acronyms.txt``, shared with the typed-fact
labels)."""
_GENERIC_LABELS = frozenset({"id", "name", "version", "type", "period", "scope", "status", "date"})
_SERIES_KEYS = frozenset({"history", "series", "values", "trend", "by_year", "byyear", "years"})
"""Keys that hold a series by period, and name nothing of their own."""
_VENDOR_WORDS = frozenset({"vendor", "platform", "provider", "tool", "system", "software"})
_FRACTION_WORDS = frozenset(
    {
        "rate", "margin", "ratio", "share", "churn", "conversion", "retention", "yield",
        "occupancy", "adoption", "completion", "attrition", "return", "penetration",
        "utilisation", "utilization", "abandonment", "mix",
    }
)  # fmt: skip
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[\"'“(]?[A-Z0-9])")


def is_number(value: Scalar) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _decimal(value: int | float) -> Decimal:
    return Decimal(value) if isinstance(value, int) else Decimal(repr(value))


def _plain(d: Decimal) -> str:
    """A decimal as written: thousands separators from five digits on, no exponent."""
    text = format(d, "f")
    return format(d, ",f") if abs(d) >= 10000 else text


_SCALES = ((Decimal(10) ** 9, "B"), (Decimal(10) ** 6, "M"))
_SCALE_SUFFIX = {3: "K", 6: "M", 9: "B"}
_UNIT_KEYS = {
    "days": "days", "months": "months", "hours": "hours", "minutes": "min", "seconds": "seconds",
    "ppm": "ppm",
}  # fmt: skip


def compact(d: Decimal) -> str:
    """A large number as people say it: 1,843,000,000 → 1.84B, 4,137,220 → 4.14M, 412.5M
    kept as is; below a million, with thousands separators."""
    for size, suffix in _SCALES:
        if abs(d) >= size:
            scaled = d / size
            exact = scaled.normalize()
            exponent = exact.as_tuple().exponent
            if isinstance(exponent, int) and -exponent <= 1:
                return f"{format(exact, 'f')}{suffix}"
            digits = max(0, 3 - len(str(int(abs(scaled)))))
            rounded = scaled.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_EVEN)
            return f"{format(rounded.normalize(), 'f')}{suffix}"
    return format(d, ",f") if abs(d) >= 1000 else format(d, "f")


def format_number(keys: tuple[str, ...], value: int | float) -> str:
    """A number as its field means it: ``%`` for percents and stored fractions, ``$`` for USD
    (``$412.5M``), large counts compact (``6.83M``), a unit from the key (``74 days``).

    A fraction (a rate or margin stored below 1 with no ``pct`` in its key) is shown as a
    percent with exactly the digits it has: 0.0211 → 2.11%, 0.412 → 41.2%.
    """
    try:
        d = _decimal(value)
    except (InvalidOperation, ValueError):
        return str(value)
    key = [w for k in keys[-1:] for w in _words(k)]
    parent = [w for k in keys[-2:-1] for w in _words(k)]
    if {"pct", "percent"} & {*key, *parent}:  # channel_mix_pct.direct = 21.0 → 21.0%
        return f"{_plain(d)}%"
    symbol = next((CURRENCIES[w] for w in key if w in CURRENCIES), "")
    scale = next((KEY_SCALES[w] for w in key if w in KEY_SCALES), 0)
    if scale:  # in the key's own scale: total_assets_usd_millions = 3412.8 → $3,412.8M
        text = f"{symbol}{format(abs(d), ',f')}{_SCALE_SUFFIX[scale]}"
        return f"-{text}" if d < 0 else text
    if symbol:
        return f"-{symbol}{compact(-d)}" if d < 0 else f"{symbol}{compact(d)}"
    if isinstance(value, float) and abs(value) < 1 and _FRACTION_WORDS & set(key):
        return f"{format((d * 100).normalize(), 'f')}%"
    if ("year" in key or "founded" in key) and d == d.to_integral() and 1000 <= d < 3000:
        return format(d, "f")  # a year, not "patient_visits_per_year = 1,146,000"
    unit = field_label(keys).unit or next((_UNIT_KEYS[w] for w in key if w in _UNIT_KEYS), None)
    text = compact(d)
    return f"{text} {unit}" if unit else text


_MONEY_TEXT = re.compile(
    r"^(?:USD\s*(?P<a>[\d.,]+)\s*(?P<sa>million|billion)?"
    r"|(?P<b>[\d.,]+)\s*(?P<sb>million|billion)?\s*USD)$",
    re.IGNORECASE,
)


def money_text(text: str) -> str:
    """``87.40 USD`` → ``$87.40``; ``USD 61.2 million`` → ``$61.2M``; else ``text``."""
    m = _MONEY_TEXT.match(text.strip())
    if m is None:
        return text
    number = m.group("a") or m.group("b")
    scale = (m.group("sa") or m.group("sb") or "").lower()
    suffix = {"million": "M", "billion": "B"}.get(scale, "")
    return f"${number}{suffix}"


def format_value(keys: tuple[str, ...], value: Scalar) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if is_number(value):
        assert isinstance(value, (int, float))
        return format_number(keys, value)
    return money_text(str(value).strip().rstrip("."))


def _words(key: str) -> list[str]:
    return [w.lower() for w in _cased_words(key)]


def _cased_words(key: str) -> list[str]:
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", key)
    return [w for w in re.split(r"[_.\-\s]+", spaced) if w]


def _display(word: str, caps: frozenset[str] = frozenset()) -> str:
    return word.upper() if word in ACRONYMS or word in caps else word


@dataclass(frozen=True)
class FieldLabel:
    label: str | None = None
    unit: str | None = None


@cache
def _label_map() -> dict[str, FieldLabel]:
    text = resources.files("prism_slack").joinpath("data", "labels.yaml").read_text("utf-8")
    data = yaml.safe_load(text)["labels"]
    return {str(k): FieldLabel(v.get("label"), v.get("unit")) for k, v in data.items()}


def field_label(keys: tuple[str, ...]) -> FieldLabel:
    """The humanised label of a field (by dotted path, else by last key), if one is kept."""
    labels = _label_map()
    for n in range(len(keys), 0, -1):
        found = labels.get(".".join(keys[-n:]))
        if found is not None:
            return found
    return FieldLabel()


def label(keys: tuple[str, ...], caps: frozenset[str] = frozenset()) -> str:
    """The attribute's name: from the label map, else from the field's keys
    (``financials.gross_margin`` → gross margin; unit words and ``per month`` said plainly)."""
    return field_label(keys).label or _key_label(keys, caps)


def _key_label(keys: tuple[str, ...], caps: frozenset[str] = frozenset()) -> str:
    """The label from the keys; a word is in capitals when it is an acronym (the list), the
    key writes it so (``brokerNPS``) or the report's text does (``caps``: "CAPA backlog")."""
    caps = caps | {  # a capitals word in a key that has small letters too (an all-capitals
        # key, TOTAL_ASSETS, says nothing of which of its words are acronyms)
        w.lower()
        for k in keys
        if not k.isupper()
        for w in _cased_words(k)
        if len(w) > 1 and w.isupper()
    }
    written = keys[-1].strip() if keys else ""
    if " " in written and not set(_words(written)) <= _GENERIC_LABELS:
        return written  # a key written as words ("Review Score (TripAdvisor avg.)") as written
    # a period's key and a series' container name no field: ``LoadFactor.History["2023"].Pct``
    # is the load factor (the period is said with the value)
    named_keys = tuple(
        k for k in keys if not _PLAIN_PERIOD.fullmatch(k.strip()) and k.lower() not in _SERIES_KEYS
    )
    if len(named_keys) > 1 and named_keys != keys:
        keys = named_keys
    # the field's own key and the one that places it (``by_segment.pumps.share_pct`` →
    # "pumps share"), not every key down from the section
    inner = [w for k in keys[1:][-2:] for w in _words(k) if w not in UNIT_WORDS]
    if not inner:
        inner = [w for k in keys for w in _words(k) if w not in UNIT_WORDS]
    elif set(inner) <= _GENERIC_LABELS:
        inner = [singular(keys[0]).lower(), *inner]
    named = [w for w in inner if w not in ("scores", "score", "value")]
    if _is_score(keys) and named:
        inner = named  # "assessment.scores.guest_data" → "Guest data" (the figure says x/y)
    if keys and keys[0] == "vendors" and not _VENDOR_WORDS & set(inner):
        inner.append("vendor")
    if len(inner) > 1 and inner[-1] in _UNIT_KEYS:
        inner = inner[:-1]  # "sales cycle days" → "sales cycle" (the unit goes after the value)
    text = " ".join(_display(w, caps) for w in inner if w)
    return text.replace(" per month", " a month").replace(" per year", " a year")


def singular(word: str) -> str:
    w = word.replace("_", " ")
    if w.endswith("ies"):
        return w[:-3] + "y"
    if w.endswith("s") and not w.endswith("ss"):
        return w[:-1]
    return w


def sentence(text: str) -> str:
    """Capitalise the first letter and end with a full stop (unless it ends in one already)."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def fact(text: str, evidence: list[str]) -> Claim:
    return Claim(text=sentence(text), kind="fact", evidence=evidence)


def shown(
    keys: tuple[str, ...],
    leaf: Leaf,
    facts: ReportFacts | None,
    periods: frozenset[str] = frozenset(),
) -> str:
    """A value as a rep says it: its typed fact's display (amounts in the report's
    currency, fractions and ratios as percents, a series as its latest value and the one
    before: "8.3% in 2025, from 9% in 2024", or the ``periods`` a question names), else
    as the report writes it. The one place the answerer formats a value."""
    typed = facts.get(leaf.path) if facts is not None else None
    if typed is not None and typed.series is not None and len(typed.series.points) > 1:
        from prism_slack.facts.display import quantity  # the facts package imports verify

        asked = [p for p in typed.series.points if _names_period(p.period, periods)]
        if asked:  # "digital order share 2023 vs 2025": the periods asked, in order
            return "; ".join(f"{quantity(p.quantity)} {_in_period(p.period)}" for p in asked)
        latest, before = typed.series.points[-1], typed.series.points[-2]
        return (
            f"{quantity(latest.quantity)} {_in_period(latest.period)}, "
            f"from {quantity(before.quantity)} {_in_period(before.period)}"
        )
    if typed is not None and typed.kind.value == "untyped" and is_number(leaf.value):
        return typed.display  # read no unit: the number as stored ("0.768"), none guessed
    if typed is None or typed.kind.value not in _SHOWN or not typed.display:
        return format_value(keys, leaf.value)
    if typed.quantity is not None:
        written = format_value(keys, leaf.value)
        unit = typed.quantity.unit.value
        symbol = written.lstrip("-")[:1]  # the key's own currency: revenue_usd → "$4.1M"
        own_currency = (
            is_number(leaf.value)
            and symbol in set(CURRENCIES.values())
            and typed.display.lstrip("-").startswith(symbol)
        )
        bare = unit in _PLAIN_UNITS and typed.quantity.measure is not None and _BARE.match(written)
        if bare:  # a row's unit beside its figure: "212,400 hectares", not "212,400"
            return typed.display
        if unit in _PLAIN_UNITS or (unit == "currency" and own_currency):
            return written  # a count as written or with its key's unit; the key's currency
    return typed.display


_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_BARE = re.compile(r"-?[\d,.]+[KMB]?$")
"""A figure written with no unit."""


def asked_points(facts: ReportFacts, path: str, periods: frozenset[str]) -> frozenset[str]:
    """The paths of the points of the series at ``path`` whose periods a question names
    ("bad debt fy23 vs fy25"): those are the figures said, and cited."""
    typed = facts.series.get(path)
    if typed is None or typed.series is None or not periods:
        return frozenset()
    return frozenset(p.path for p in typed.series.points if _names_period(p.period, periods))


def _points_said(facts: ReportFacts, path: str, asked: frozenset[str]) -> str:
    """``in FY23: 2.1%; in FY25: 2.6%``: each asked point after its period."""
    from prism_slack.facts.display import quantity  # the facts package imports verify

    typed = facts.series[path]
    points = typed.series.points if typed.series is not None else ()
    return "; ".join(
        f"{_period_phrase(p.period)}: {quantity(p.quantity)}" for p in points if p.path in asked
    )


def _said_points(
    facts: ReportFacts, path: str, cited: list[str], said: frozenset[str]
) -> list[str]:
    """``cited`` without the series' points not ``said``, nor the other fields of a long
    table's row that holds one (its period)."""
    unsaid = _point_paths(facts, path) - said
    rows = {r for p in unsaid if (r := _row_of(p)) is not None and r != path}
    heads = tuple(f"{r}{mark}" for r in rows for mark in ".[")
    return [x for x in cited if x not in unsaid and not x.startswith(heads)]


def _row_of(point: str) -> str | None:
    """The row a long table's point is the value of (``facts[10]`` of ``facts[10].value``)."""
    head, dot, _ = point.rpartition(".")
    return head if dot and head.endswith("]") else None


def _point_paths(facts: ReportFacts, path: str) -> frozenset[str]:
    typed = facts.series.get(path)
    points = typed.series.points if typed is not None and typed.series is not None else ()
    return frozenset(p.path for p in points)


def _names_period(period: str, asked: frozenset[str]) -> bool:
    """A series point's ``period`` is one the question names: as written ("2024", "FY24"),
    or a quarter or half named without its year ("Q1" for ``Q1'25``, "H2" for ``2H FY25``)
    when the series holds it once."""
    label = period.lower()
    if label in asked or re.sub(r"[\s']+", "", label) in {re.sub(r"[\s']+", "", a) for a in asked}:
        return True
    if set(lexicon.words(period)) & asked:  # "fy25" names ``FY2025``
        return True
    part = re.match(r"(q[1-4]|h[12]|[12]h)\b", label)
    if part is None:
        return False
    name = part.group(1)
    return name in asked or (name[::-1] in asked and name[0] in "12")


_PLAIN_UNITS = frozenset({"count", "number"})
"""Units the typed display adds nothing to: a count keeps its key's unit and short form
("142 days", "4.1M")."""


_SHOWN = frozenset({"quantity", "date", "series"})
"""The fact kinds whose display is how a rep says the value (a name or passage is shown
as written)."""


def leaf_claim(
    item: Item,
    scale: Leaf | None,
    facts: ReportFacts | None = None,
    periods: frozenset[str] = frozenset(),
    caps: frozenset[str] = frozenset(),
) -> Claim:
    """``Gross margin: 41.2%.``, ``Revenue growth: down 5%.``, ``Revenue: €812.6M in FY25.``
    or, for a score with a known scale, ``Search relevance: 4/10.`` A value read with its
    unit, period or scale beside it, or a series, cites every leaf it is read from."""
    leaf = item.leaves[0]
    if item.labelled:  # "Revenue: AUD 188.4 million (FY25)", as the report writes it
        return fact(str(leaf.value), [leaf.path])
    if facts is not None and item.path in facts.series:  # the series, not its first point
        leaf = Leaf(item.path, leaf.value)
    name = label(item.keys, caps)
    cited = [x.path for x in item.leaves]
    if facts is not None and (asked := asked_points(facts, item.path, periods)):
        # "bad debt fy23 vs fy25": each point named by its period, the period beside the name
        cited = _said_points(facts, item.path, cited, asked)
        return fact(f"{name} {_points_said(facts, item.path, asked)}", cited)
    if facts is not None and (typed := facts.series.get(item.path)) and typed.series:
        said = frozenset(p.path for p in typed.series.points[-2:])  # the latest, the one before
        cited = _said_points(facts, item.path, cited, said)
    value = shown(item.keys, leaf, facts, periods)
    if scale is not None and is_number(leaf.value) and (_is_score(item.keys) or "/" in value):
        if "/" not in value:  # the scale's top: 10, or of a range written "0-10"
            top = scale.value if is_number(scale.value) else _NUMBER.findall(str(scale.value))[-1]
            value = f"{value}/{format_value((), top)}"
        if item.row_key:  # a row of named scores: "Field scheduling; score: 1/5"
            name = f"{name}; {label(('', item.row_key), caps).lower()}"
        return fact(f"{name}: {value}", list(dict.fromkeys([*cited, scale.path])))
    if _is_change(item.keys) and value[:1] in ("-", "−"):
        value = f"down {value[1:]}"
    elif _is_change(item.keys) and (
        value.startswith("+") or (is_number(leaf.value) and leaf.value)
    ):
        value = f"up {value.lstrip('+')}"  # a signed change as said: "+6.3% YoY" → up 6.3%
    typed = facts.get(leaf.path) if facts is not None else None
    period = (
        typed.period_text
        if typed is not None and typed.kind.value in ("quantity", "untyped")
        else None
    )
    if period and period.lower() not in name.lower():
        phrase = _period_phrase(period)  # a cited leaf beside it, or its key's
        if phrase.startswith("in ") and not item.row_key:
            name = f"{name} {phrase}"  # "EBITDA margin in FY25: 40.6%": the period names it
        else:
            value = f"{value} {phrase}"
    if item.row_key and item.row_key.lower() not in _GENERIC_VALUE_KEYS:
        # a table row: its figure is said as the row's own field holds it ("; score: 4")
        return fact(f"{name}; {item.row_key}: {value}", cited)
    return fact(f"{name}: {value}", cited)


_GENERIC_VALUE_KEYS = frozenset({"value", "amount", "val"})
"""A row's figure under one of these keys is the row's label's figure: ``Revenue: £148.6M``."""

_PERIOD_LEAD = frozenset(
    {"at", "as", "in", "on", "for", "over", "during", "by", "since", "until", "to", "from"}
)
_PLAIN_PERIOD = re.compile(r"(?:FY|CY|[QH][1-4]|[12]H)?\s?'?\d{2,4}(?:[/-]\d{2,4})?", re.I)


_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _in_period(period: str) -> str:
    """A series point's period after its value: "in GJ 2025", "in the year to 31 March
    2026", "as of 31 March 2026" (a day)."""
    from prism_slack.facts.display import period as spoken  # the facts package imports verify

    return f"as of {spoken(period)}" if _DAY.fullmatch(period.strip()) else f"in {spoken(period)}"


def _period_phrase(period: str) -> str:
    """A period as said after a value: "in FY25", "at 30 June 2025" (it brings its own
    preposition), "as of 30 September 2025" (a day), "in the year to 31 March 2026" (a
    range of days), "(FY2024/25 average)" (a period with words of its own)."""
    from prism_slack.facts.display import period as spoken  # the facts package imports verify

    words = period.split()
    if words and words[0].lower() in _PERIOD_LEAD:
        return period
    if spoken(period) != period:  # a day or a range of days, said in words
        return _in_period(period)
    if _PLAIN_PERIOD.fullmatch(period.strip()) or not any(ch.isdigit() for ch in period):
        return f"in {period}"
    return f"({period})" if len(words) > 1 else f"in {period}"


def _is_change(keys: tuple[str, ...]) -> bool:
    return bool({"growth", "change", "yoy"} & set(_words(keys[-1])))


def _is_score(keys: tuple[str, ...]) -> bool:
    return any("score" in k.lower() for k in keys)


def list_claim(
    item: Item, facts: ReportFacts | None = None, caps: frozenset[str] = frozenset()
) -> Claim:
    values = "; ".join(shown(item.keys, leaf, facts) for leaf in item.leaves)
    return fact(f"{label(item.keys, caps)}: {values}", [item.path])


def finding_claim(item: Item) -> Claim:
    """``Finding: Site search returns …; critical severity.`` citing title and severity
    (named by the report's own key: "high priority", "high rating").

    The severity follows the title after a semicolon, so that it stays out of the clause
    of any number the title holds.
    """
    title, severity = item.fields["title"], item.fields["severity"]
    named = " ".join(_words(item.key_of(severity.path)))  # severity, rating, priority
    if severity.path == title.path:  # "… (severity: high)" inside the title's own text
        named = "severity"
    return fact(
        f"Finding: {format_value((), title.value)}; "
        f"{format_value((), severity.value).lower()} {named}",
        [title.path, severity.path],
    )


def detail_sentences(item: Item) -> list[str]:
    detail = item.get("detail")
    return [s.strip() for s in _SENTENCE.split(detail) if s.strip()] if detail else []


def detail_claim(item: Item, text: str) -> Claim:
    """One sentence of a finding's detail, verbatim."""
    return fact(text, [item.fields["detail"].path])


def person_claim(item: Item) -> Claim:
    """``Priya Raman: Chief Digital Officer, economic buyer.``"""
    name = item.fields["name"]
    parts = [item.fields[k] for k in ("title", "role") if k in item.fields]
    described = ", ".join(
        " ".join(lexicon.key_words(p.value)).lower()  # ``TechnicalEvaluator``, as said
        if isinstance(p.value, str) and _IDENTIFIER.fullmatch(p.value)
        else format_value((), p.value)
        for p in parts
    )
    return fact(
        f"{format_value((), name.value)}: {described}", [name.path] + [p.path for p in parts]
    )


def notes_claim(item: Item) -> Claim | None:
    notes = item.fields.get("notes")
    if notes is None or not isinstance(notes.value, str):
        return None
    return fact(notes.value, [notes.path])


_NAME_FIELDS = ("name", "title", "area", "label")
_IDENTIFIER = re.compile(r"[A-Z][a-z]+(?:[A-Z][a-z]+)+")
"""A value written as one PascalCase identifier (``EconomicBuyer``)."""


def record_claim(
    item: Item, facts: ReportFacts | None = None, caps: frozenset[str] = frozenset()
) -> Claim:
    """A generic list record, head first, fields apart: ``Tipalti (competitor); Wins ….``

    Semicolons keep each field in its own clause, so a number is read with its own
    field's words only.
    """
    named = {"_".join(lexicon.key_words(k)): leaf for k, leaf in item.fields.items()}
    head = next((named[k] for k in _NAME_FIELDS if k in named), None)  # name, Name, NAME
    rest = [leaf for leaf in item.fields.values() if leaf is not head][:4]
    parts = []
    for leaf in rest:
        key = item.key_of(leaf.path)
        value = shown((key,), leaf, facts)
        bare = "_".join(lexicon.key_words(key)) in ("notes", "detail", "description", "summary")
        parts.append(value if bare else f"{label(('', key), caps)}: {value}")
    kind = singular(" ".join(lexicon.key_words(item.section)))  # COMPETITORS → competitor
    lead = f"{format_value((), head.value)} ({kind})" if head is not None else kind
    evidence = ([head.path] if head is not None else []) + [leaf.path for leaf in rest]
    return fact("; ".join([lead, *parts]), evidence)


def coaching_claim(entry: Entry, evidence: list[str]) -> Claim:
    """``Quantify the gap: turn the finding …; write the estimate down ….``

    The move in plain words (its name, never its playbook code). One sentence: the
    guidance's sentences are joined by a semicolon and each starts in lower case, so that
    no capitalised word stands mid-sentence where a checker would read it as a name.
    """
    sentences = [t.strip() for t in _SENTENCE.split(entry.guidance) if t.strip()]
    guidance = "; ".join(_lower_first(t.rstrip(".")) for t in sentences)
    return Claim(text=f"{entry.name}: {guidance}.", kind="coaching", evidence=evidence)


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def ask_claim(entry: Entry, evidence: list[str]) -> Claim:
    return Claim(text=f"Ask: “{entry.question}”", kind="coaching", evidence=evidence)
