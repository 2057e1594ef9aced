"""How the offline answerer words a claim so that the deterministic verifier supports it.

Every fact states cited values verbatim or in a faithful number format, and names the
attribute it measures with the words of the field's own path (``Trial conversion: 3.66%.``,
``Search vendor: Algolia.``, ``Search relevance score: 4 out of 10.``). Nothing else is
added: no paraphrase, no rounding, no words the evidence does not hold.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from prism_slack.claims import Claim
from prism_slack.evidence import Leaf, Scalar
from prism_slack.llm.lexicon import wordset
from prism_slack.llm.offline_index import UNIT_WORDS, Item
from prism_slack.llm.playbook import Entry

ACRONYMS = wordset(
    """hq crm seo arr mrr nps aov gmv cac ltv api sso cdn ebitda esp cms erp pim oms b2b b2c
    dtc ux ui sla kpi roi fy ehr tms wms csat mql sql p75 p95 p99 dso id"""
)
_GENERIC_LABELS = frozenset({"id", "name", "version", "type", "period", "scope", "status", "date"})
_VENDOR_WORDS = frozenset({"vendor", "platform", "provider", "tool", "system", "software"})
_FRACTION_WORDS = frozenset(
    {"rate", "margin", "ratio", "share", "churn", "conversion", "retention", "yield"}
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[\"'“(]?[A-Z0-9])")


def is_number(value: Scalar) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _decimal(value: int | float) -> Decimal:
    return Decimal(value) if isinstance(value, int) else Decimal(repr(value))


def _plain(d: Decimal) -> str:
    """A decimal as written: thousands separators from five digits on, no exponent."""
    text = format(d, "f")
    return format(d, ",f") if abs(d) >= 10000 else text


def format_number(keys: tuple[str, ...], value: int | float) -> str:
    """A number as its field means it: ``%`` for percents and stored fractions, ``$`` for USD.

    A fraction (a rate or margin stored below 1 with no ``pct`` in its key) is shown as a
    percent with exactly the digits it has: 0.0211 → 2.11%, 0.412 → 41.2%.
    """
    try:
        d = _decimal(value)
    except (InvalidOperation, ValueError):
        return str(value)
    key = [w for k in keys[-1:] for w in _words(k)]
    if "pct" in key or "percent" in key:
        return f"{_plain(d)}%"
    if "usd" in key:
        return f"-${_plain(-d)}" if d < 0 else f"${_plain(d)}"
    if isinstance(value, float) and abs(value) < 1 and _FRACTION_WORDS & set(key):
        return f"{format((d * 100).normalize(), 'f')}%"
    if "year" in key or "founded" in key:
        return format(d, "f")
    return _plain(d)


def format_value(keys: tuple[str, ...], value: Scalar) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if is_number(value):
        assert isinstance(value, (int, float))
        return format_number(keys, value)
    return str(value).strip().rstrip(".")


def _words(key: str) -> list[str]:
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", key)
    return [w.lower() for w in re.split(r"[_.\-\s]+", spaced) if w]


def _display(word: str) -> str:
    return word.upper() if word in ACRONYMS else word


def label(keys: tuple[str, ...]) -> str:
    """The attribute's name from the field's keys: ``financials.gross_margin`` → gross margin."""
    inner = [w for k in keys[1:] for w in _words(k) if w not in UNIT_WORDS]
    if not inner:
        inner = [w for k in keys for w in _words(k) if w not in UNIT_WORDS]
    elif set(inner) <= _GENERIC_LABELS:
        inner = [singular(keys[0]).lower(), *inner]
    if keys and keys[0] == "vendors" and not _VENDOR_WORDS & set(inner):
        inner.append("vendor")
    return " ".join(_display(w) for w in inner)


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


def leaf_claim(item: Item, scale: Leaf | None) -> Claim:
    """``Gross margin: 41.2%.`` or, for a score with a known scale, ``… 4 out of 10.``"""
    leaf = item.leaves[0]
    name = label(item.keys)
    if scale is not None and is_number(leaf.value) and _is_score(item.keys):
        if "score" not in name.lower().split():
            name += " score"
        value = format_value(item.keys, leaf.value)
        out_of = format_value(tuple(scale.path.split(".")), scale.value)
        return fact(f"{name}: {value} out of {out_of}", [leaf.path, scale.path])
    return fact(f"{name}: {format_value(item.keys, leaf.value)}", [leaf.path])


def _is_score(keys: tuple[str, ...]) -> bool:
    return any("score" in k.lower() for k in keys)


def list_claim(item: Item) -> Claim:
    values = "; ".join(format_value(item.keys, leaf.value) for leaf in item.leaves)
    return fact(f"{label(item.keys)}: {values}", [item.path])


def finding_claim(item: Item) -> Claim:
    """``Finding: Site search returns …; critical severity.`` citing title and severity.

    The severity follows the title after a semicolon, so that it stays out of the clause
    of any number the title holds.
    """
    title, severity = item.fields["title"], item.fields["severity"]
    return fact(
        f"Finding: {format_value((), title.value)}; "
        f"{format_value((), severity.value).lower()} severity",
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
    described = ", ".join(format_value((), p.value) for p in parts)
    return fact(
        f"{format_value((), name.value)}: {described}", [name.path] + [p.path for p in parts]
    )


def notes_claim(item: Item) -> Claim | None:
    notes = item.fields.get("notes")
    if notes is None or not isinstance(notes.value, str):
        return None
    return fact(notes.value, [notes.path])


_NAME_FIELDS = ("name", "title", "area", "label")


def record_claim(item: Item) -> Claim:
    """A generic list record, head first, fields apart: ``Tipalti (competitor); Wins ….``

    Semicolons keep each field in its own clause, so a number is read with its own
    field's words only.
    """
    head = next((item.fields[k] for k in _NAME_FIELDS if k in item.fields), None)
    rest = [leaf for leaf in item.fields.values() if leaf is not head][:4]
    parts = []
    for leaf in rest:
        key = leaf.path.rsplit(".", 1)[-1]
        value = format_value((key,), leaf.value)
        bare = key in ("notes", "detail", "description", "summary")
        parts.append(value if bare else f"{label(('', key))}: {value}")
    kind = singular(item.section)
    lead = f"{format_value((), head.value)} ({kind})" if head is not None else kind
    evidence = ([head.path] if head is not None else []) + [leaf.path for leaf in rest]
    return fact("; ".join([lead, *parts]), evidence)


def coaching_claim(entry: Entry, evidence: list[str]) -> Claim:
    """``Use M3 (Quantify the gap): turn the finding …; write the estimate down ….``

    One sentence: the guidance's sentences are joined by a semicolon and each starts in
    lower case, so that no capitalised word stands mid-sentence where a checker would
    read it as a name.
    """
    sentences = [t.strip() for t in _SENTENCE.split(entry.guidance) if t.strip()]
    guidance = "; ".join(_lower_first(t.rstrip(".")) for t in sentences)
    return Claim(text=f"Use {entry.label}: {guidance}.", kind="coaching", evidence=evidence)


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def ask_claim(entry: Entry, evidence: list[str]) -> Claim:
    return Claim(text=f"Ask: “{entry.question}”", kind="coaching", evidence=evidence)
