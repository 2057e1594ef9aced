"""The eligible fields of a report, read on the sweep's own terms.

Every leaf of a report is looked at once and classified — money, percent, fraction, count,
decimal, an amount with a unit, a year, a date, a fiscal year, a date range, a score with
its scale, a vendor, a competitor, a person, a finding. A field carries the words a claim
about it would use (``measure``): ``financials.revenue_usd`` → ``revenue``,
``metrics.trial_conversion_pct`` → ``trial conversion``.

This reading is deliberately independent of the verifier's number grammar: the claims the
verifier is scored on must not be shaped by the verifier.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from typing import Any

from prism_slack.evidence import Leaf
from prism_slack.reports.model import Report

from .numfmt import UNIT_ALIASES


class Kind(StrEnum):
    MONEY = "money"
    PERCENT = "percent"
    FRACTION = "fraction"
    COUNT = "count"
    DECIMAL = "decimal"
    UNIT = "unit"
    YEAR = "year"
    DATE = "date"
    FISCAL = "fiscal"
    RANGE = "range"
    SCORE = "score"
    VENDOR = "vendor"
    COMPETITOR = "competitor"
    PERSON = "person"
    FINDING = "finding"


NUMERIC = frozenset({Kind.MONEY, Kind.PERCENT, Kind.FRACTION, Kind.COUNT, Kind.DECIMAL, Kind.UNIT})
NAMED = frozenset({Kind.VENDOR, Kind.COMPETITOR, Kind.PERSON})

_ACRONYMS = "arr ebitda nps api cac csat hcahps crm erp tms wms ehr cms mql aov acv sla"
ACRONYMS = frozenset(_ACRONYMS.split())
UNIT_TOKENS = frozenset({"usd", "pct", "percent"})
FRACTION_TOKENS = frozenset({"rate", "margin", "share", "churn", "ratio"})
UNIT_KEY_TOKENS = frozenset({"days", "months", "hours", "minutes", "seconds", "ms"})
GROWTH_TOKENS = frozenset({"growth", "change"})
NAME_SECTIONS = frozenset({"vendors", "tech_stack"})

_INDEX = re.compile(r"\[(\d+)\]")
_ISO_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_FISCAL = re.compile(r"^FY(\d{4})$")
_RANGE = re.compile(r"^(\d{4}-\d{2}-\d{2}) to (\d{4}-\d{2}-\d{2})$")
_NUMERIC_TEXT = re.compile(
    r"^(?P<cur>\$|USD\s)?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"\s?(?P<scale>k|K|M|B|thousand|million|billion)?"
    r"(?:\s(?P<cur2>USD))?(?:\s(?P<unit>[a-z]+))?$"
)
_SCALES = {"k": 3, "K": 3, "thousand": 3, "M": 6, "million": 6, "B": 9, "billion": 9}


@dataclass(frozen=True)
class Field:
    """One eligible field of a report."""

    path: str
    kind: Kind
    measure: str
    """Words a claim about the field uses for it (``trial conversion``)."""
    section: str
    value: Decimal = Decimal(0)
    """Numeric kinds: dollars, percent units, the fraction, the count or amount, the score."""
    unit: str | None = None
    places: int = 0
    """Decimal places of the stored value (``18.0`` has one; ``$41.2M`` none, in dollars)."""
    text: str = ""
    """The raw value as text (a name, a date, a finding title)."""
    date: dt.date | None = None
    end: dt.date | None = None
    """A range's last day."""
    scale: Decimal | None = None
    scale_path: str | None = None
    growth: bool = False
    """A change (``revenue_growth_pct``): stated with a direction word."""
    info: dict[str, str] = field(default_factory=dict)
    """Person: title, role, title_path, object; finding: id, title, detail, severity."""

    @property
    def key(self) -> str:
        """The last key of the path, without list indexes."""
        return keys(self.path)[-1]


def keys(path: str) -> list[str]:
    return [k for k in _INDEX.sub("", path).split(".") if k]


def measure_words(path: str) -> str:
    """What a claim calls the field: the last key's words, without unit tokens, prefixed by
    the parent key when the field sits below a section (``commercial payer mix``)."""
    parts = keys(path)
    words = [w for w in parts[-1].split("_") if w not in UNIT_TOKENS] or parts[-1].split("_")
    if len(parts) >= 3 and not re.search(r"\[\d+\]$", path.rsplit(".", 1)[0]):
        words += parts[-2].split("_")
    return " ".join(w.upper() if w in ACRONYMS else w for w in words)


def fields_of(report: Report) -> list[Field]:
    """Every eligible field of ``report``, in document order."""
    data = report.data
    out: list[Field] = []
    for leaf in report.evidence:
        found = _classify(leaf, data)
        if found is not None:
            out.append(found)
    out += _people(data)
    out += _findings(data)
    return out


def _classify(leaf: Leaf, data: dict[str, Any]) -> Field | None:
    parts = keys(leaf.path)
    section, key = parts[0], parts[-1]
    tokens = key.split("_")
    value = leaf.value
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return _number(leaf.path, Decimal(repr(value)), data)
    if section in NAME_SECTIONS and len(parts) == 2:
        return Field(leaf.path, Kind.VENDOR, measure_words(leaf.path), section, text=value)
    if re.fullmatch(r"competitors\[\d+\]\.name", leaf.path):
        return Field(leaf.path, Kind.COMPETITOR, "competitor", section, text=value)
    if section == "report" and key == "auditor":
        info = {"title": "auditor", "role": "auditor", "object": leaf.path}
        return Field(leaf.path, Kind.PERSON, "auditor", section, text=value, info=info)
    return _text_value(leaf.path, section, tokens, value)


def _number(path: str, value: Decimal, data: dict[str, Any]) -> Field | None:
    parts = keys(path)
    section, key = parts[0], parts[-1]
    tokens = key.split("_")
    measure = measure_words(path)
    if section == "scores":
        scale = data.get("scores", {}).get("max")
        if key == "max" or not isinstance(scale, int | float):
            return None
        return Field(
            path,
            Kind.SCORE,
            measure,
            section,
            value=value,
            scale=Decimal(repr(scale)),
            scale_path="scores.max",
        )
    integral = value == value.to_integral_value()
    if (key.endswith("_year") or key == "founded") and integral and 1900 <= value <= 2100:
        measure = measure.removesuffix(" year")
        return Field(path, Kind.YEAR, measure, section, value=value)
    growth = bool(GROWTH_TOKENS & set(tokens))
    places = _places(value)
    if tokens[-1] == "usd":
        return Field(path, Kind.MONEY, measure, section, value, places=places, growth=growth)
    if tokens[-1] in ("pct", "percent"):
        return Field(path, Kind.PERCENT, measure, section, value, places=places, growth=growth)
    if FRACTION_TOKENS & set(tokens) and abs(value) <= 1:
        return Field(path, Kind.FRACTION, measure, section, value, places=places)
    if tokens[-1] in UNIT_KEY_TOKENS and (len(tokens) < 2 or tokens[-2] != "per"):
        unit = UNIT_ALIASES[tokens[-1]]
        words = " ".join(w for w in measure.split() if w != tokens[-1])
        return Field(path, Kind.UNIT, words or measure, section, value, unit, places)
    kind = Kind.COUNT if integral else Kind.DECIMAL
    return Field(path, kind, measure, section, value, places=places)


def _places(value: Decimal) -> int:
    exponent = value.as_tuple().exponent
    assert isinstance(exponent, int)
    return max(0, -exponent)


def _text_value(path: str, section: str, tokens: list[str], value: str) -> Field | None:
    measure = measure_words(path)
    text = value.strip()
    if m := _ISO_DATE.match(text):
        date = dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        return Field(path, Kind.DATE, measure, section, text=text, date=date)
    if m := _FISCAL.match(text):
        return Field(path, Kind.FISCAL, measure, section, value=Decimal(m.group(1)), text=text)
    if m := _RANGE.match(text):
        start, end = (dt.date.fromisoformat(g) for g in m.groups())
        return Field(path, Kind.RANGE, measure, section, text=text, date=start, end=end)
    m = _NUMERIC_TEXT.match(text)
    if m is None:
        return None
    number = Decimal(m.group("num").replace(",", ""))
    scale = _SCALES.get(m.group("scale") or "", 0)
    amount = (number * Decimal(10) ** scale).normalize() if scale else number
    places = _places(amount) if not scale else max(0, -_exponent(amount))
    unit_raw = m.group("unit")
    if m.group("cur") or m.group("cur2") or unit_raw in ("dollars", "USD"):
        return Field(path, Kind.MONEY, measure, section, amount, places=places, text=text)
    if unit_raw:
        unit = UNIT_ALIASES.get(unit_raw)
        if unit is None:
            return None
        return Field(path, Kind.UNIT, measure, section, amount, unit, places, text=text)
    kind = Kind.COUNT if "." not in text else Kind.DECIMAL
    return Field(path, kind, measure, section, amount, places=places, text=text)


def _exponent(value: Decimal) -> int:
    exponent = value.as_tuple().exponent
    assert isinstance(exponent, int)
    return exponent


def _people(data: dict[str, Any]) -> Iterator[Field]:
    for i, person in enumerate(data.get("stakeholders") or []):
        if not isinstance(person, dict) or not isinstance(person.get("name"), str):
            continue
        base = f"stakeholders[{i}]"
        info = {
            "title": str(person.get("title", "")),
            "role": str(person.get("role", "")),
            "title_path": f"{base}.title",
            "object": base,
        }
        yield Field(
            f"{base}.name",
            Kind.PERSON,
            "stakeholder",
            "stakeholders",
            text=person["name"],
            info=info,
        )


def _findings(data: dict[str, Any]) -> Iterator[Field]:
    for i, finding in enumerate(data.get("findings") or []):
        if not isinstance(finding, dict) or not isinstance(finding.get("title"), str):
            continue
        info = {k: str(finding.get(k, "")) for k in ("id", "title", "detail", "severity")}
        yield Field(
            f"findings[{i}]", Kind.FINDING, "finding", "findings", text=finding["title"], info=info
        )
