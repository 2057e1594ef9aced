"""Library trial (issue 19): do parsing libraries read report values and claims better
than the typed-facts compiler and the number grammar?

Candidates (each optional: one that is not installed is reported as missing; install them
with ``pip install -e '.[bench]'``):

- ``dateparser`` — dates (``DateDataParser``, absolute parsers only, English, a fixed
  relative base so runs repeat); claims through ``dateparser.search.search_dates``;
- ``python-dateutil`` — dates (``parser.parse``, run against two default dates so the
  parts it did not read show);
- ``quantulum3`` — money, percents, durations, numbers, in values and in claims (with its
  unit classifier when scikit-learn is installed: trained once from the package's own
  training set into a cache file, since the model it ships does not load on current
  scikit-learn);
- ``price-parser`` — money (an amount and the currency it names); claims too, one price
  per text;
- ``babel`` — plain numbers (``numbers.parse_decimal``, ``en_US``);
- ``pint`` — durations and other units (``UnitRegistry().Quantity``).

Inputs: (a) every leaf *string* of the reports in ``reports/`` and in the report-styles,
infotabs-dev and tabfact-dev corpora, read by ``Report.facts``; (b) every claim text of the
report-styles, natural-claims, infotabs-dev and tabfact-dev corpora, read by
``verify.numbers.scan``.

Every reading, ours and the library's, is put in one plain form: ``money CUR amount``,
``percent v``, ``duration unit v``, ``date 1874-04-14`` (``2019-03``, ``1400``, ``?-09-17``
for a date without a year, quarters, halves and ranges spelt out), ``number v``, ``score
v/max``, or ``several …`` when a library finds more than one quantity in one value. Only
what the value string itself says counts: a unit or currency our compiler took from the
key (``revenue_usd``) is dropped, since no library sees the key.

For each library and each distinct value: *agree* (same reading), *disagree* (both read,
differently), *library only*, *ours only*; per claim, the readings found by both, by the
library only, by ours only. A deterministic sample of the disagreements (and of the
one-sided readings) is judged by hand in ``bench/data/library_trial_judged.jsonl``: who is
right. The bench never derives an expected answer from our rules; the judgement file is
the only answer key, and an item whose readings changed since it was judged counts as
unjudged.

Writes ``bench/results/library_trial.md`` and ``.json`` (``--out``); ``--todo FILE`` writes
the sampled items that have no judgement yet, to judge by hand.

Usage: python bench/library_trial.py [--corpora DIR] [--out DIR] [--todo FILE]
       [--sample N] [--libraries a,b]
"""

from __future__ import annotations

import argparse
import collections
import datetime as dt
import hashlib
import importlib.util
import json
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from prism_slack.facts import FactKind, Granularity, Source, TypedFact, Unit, When
from prism_slack.reports.model import Report
from prism_slack.reports.store import validate_directory
from prism_slack.verify.numbers import scan
from prism_slack.verify.quantity import QKind
from prism_slack.verify.quantity import Quantity as Scanned

ROOT = Path(__file__).resolve().parent.parent
JUDGED = ROOT / "bench" / "data" / "library_trial_judged.jsonl"
VERDICTS = ("library", "ours", "both", "neither")
"""Who is right: the library, our reading, both (two right readings), or neither."""
RELATIVE_BASE = dt.datetime(2026, 1, 1)

Reading = tuple[str, ...]

# -- plain forms: the bench's own tables, not the compiler's ------------------------------

_SYMBOLS = {
    "$": "USD", "us$": "USD", "usd": "USD", "€": "EUR", "eur": "EUR", "£": "GBP", "gbp": "GBP",
    "¥": "JPY", "jpy": "JPY", "chf": "CHF", "cad": "CAD", "c$": "CAD", "a$": "AUD",
    "aud": "AUD", "₹": "INR", "inr": "INR", "sek": "SEK", "nok": "NOK", "dkk": "DKK",
}  # fmt: skip
_TIME_UNITS = {
    "millisecond": "millisecond", "second": "second", "minute": "minute", "hour": "hour",
    "day": "day", "week": "week", "month": "month", "year": "year", "night": "night",
    "ms": "millisecond", "s": "second", "sec": "second", "min": "minute", "h": "hour",
    "hr": "hour", "d": "day",
}  # fmt: skip


def number(x: float | Decimal) -> str:
    return f"{float(x):.10g}"


def time_unit(word: str) -> str:
    w = word.strip().lower()
    w = w[:-1] if w.endswith("s") and w[:-1] in _TIME_UNITS else w
    return _TIME_UNITS.get(w, w)


def part_date(year: int | None, month: int | None = None, day: int | None = None) -> str:
    """``1874-04-14``, ``2019-03``, ``1400``, ``?-09-17``."""
    text = str(year) if year is not None else "?"
    if month is not None:
        text += f"-{month:02d}"
        if day is not None:
            text += f"-{day:02d}"
    return text


# -- our readings ---------------------------------------------------------------------------


def _when(w: When) -> Reading:
    s, e = w.start, w.end
    if w.granularity is Granularity.DAY and s:
        return ("date", part_date(s.year, s.month, s.day))
    if w.granularity is Granularity.MONTH and s:
        return ("date", part_date(s.year, s.month))
    if w.granularity is Granularity.YEAR and s:
        return ("date", ("FY" if w.fiscal else "") + str(s.year))
    if w.granularity in (Granularity.QUARTER, Granularity.HALF):
        name = "Q" if w.granularity is Granularity.QUARTER else "H"
        if s is None:
            return ("date", f"fiscal {name}")
        n = (s.month - 1) // (3 if name == "Q" else 6) + 1
        return ("date", f"{s.year}-{name}{n}")
    start = s.isoformat() if s else "?"
    end = "present" if w.present else e.isoformat() if e else "?"
    return ("date", f"{start}..{end}")


def ours_value(fact: TypedFact) -> Reading | None:
    """What our compiler read from the value string alone (key-sourced units dropped)."""
    if fact.kind is FactKind.DATE and fact.quantity is None:
        # a date whose day and month may be either way round has no ``when``
        return _when(fact.when) if fact.when is not None else ("date", "day/month open")
    q = fact.quantity
    if q is None:
        return None
    if q.unit is Unit.YEAR:
        return ("date", str(int(q.value)))
    if fact.sources.get("unit") is not Source.VALUE:
        return ("number", number(q.value))
    if q.unit is Unit.CURRENCY:
        return ("money", q.currency or "?", number(q.amount))
    if q.unit is Unit.PERCENT:
        return ("percent", number(q.value))
    if q.unit is Unit.DURATION:
        return ("duration", time_unit(q.measure or ""), number(q.value))
    if q.unit is Unit.SCORE:
        return ("score", f"{number(q.value)}/{number(q.out_of or 0)}")
    return ("number", number(q.amount))


def ours_claim(q: Scanned) -> Reading | None:
    """One quantity the number grammar found in a claim."""
    if q.kind is QKind.CURRENCY:
        return ("money", q.currency or "?", number(q.value))
    if q.kind is QKind.PERCENT:
        return ("percent", number(q.value))
    if q.kind is QKind.NUMBER:
        if q.unit and time_unit(q.unit) in _TIME_UNITS.values():
            return ("duration", time_unit(q.unit), number(q.value))
        return ("number", number(q.value))
    if q.kind is QKind.DATE and q.dates:
        # several dates for one written date are the readings it may have (``03/04/2026``)
        return ("date", " or ".join(part_date(d.year, d.month, d.day) for d in q.dates))
    if q.kind is QKind.PERIOD and q.period is not None:
        p = q.period
        name = f"Q{p.quarter}" if p.quarter else f"H{p.half}" if p.half else ""
        year = "?" if p.year is None else str(p.year)
        return ("date", ("FY" if p.fiscal else "") + year + (f"-{name}" if name else ""))
    if q.kind is QKind.SCORE:
        return ("score", f"{number(q.value)}/{number(q.scale or 0)}")
    return None


# -- the libraries ---------------------------------------------------------------------------


@dataclass
class Library:
    name: str
    package: str
    classes: str
    """What it is tried for, in words."""
    value: Callable[[str], Reading | None]
    claim: Callable[[str], list[Reading]] | None = None
    claim_classes: frozenset[str] = frozenset()
    mode: str = ""
    value_classes: frozenset[str] = frozenset()
    """The classes of our readings it is tried on (``ours only`` counts only these)."""


def _dateparser() -> Library:
    from dateparser.date import DateDataParser
    from dateparser.search import search_dates

    settings: dict[str, Any] = {
        "PARSERS": ["custom-formats", "absolute-time"],
        "PREFER_DAY_OF_MONTH": "first",
        "REQUIRE_PARTS": ["year"],
        "RELATIVE_BASE": RELATIVE_BASE,
    }
    ddp = DateDataParser(languages=["en"], settings=settings)

    def one(date: dt.datetime, period: str | None) -> Reading:
        if period == "year":
            return ("date", part_date(date.year))
        if period == "month":
            return ("date", part_date(date.year, date.month))
        return ("date", part_date(date.year, date.month, date.day))

    def value(text: str) -> Reading | None:
        data = ddp.get_date_data(text)
        return None if data.date_obj is None else one(data.date_obj, data.period)

    def claim(text: str) -> list[Reading]:
        found = search_dates(text, languages=["en"], settings=settings) or []
        out = []
        for surface, date in found:
            data = ddp.get_date_data(surface)
            out.append(one(date, data.period if data.date_obj else None))
        return out

    return Library(
        "dateparser", "dateparser", "dates", value, claim, frozenset({"date"}),
        "absolute-time and custom-formats parsers, English, a year required", frozenset({"date"}),
    )  # fmt: skip


def _dateutil() -> Library:
    from dateutil import parser as du

    first, second = dt.datetime(2000, 1, 1), dt.datetime(2004, 2, 2)

    def value(text: str) -> Reading | None:
        try:
            a = du.parse(text, default=first)
            b = du.parse(text, default=second)
        except (ValueError, OverflowError, TypeError):
            return None
        year = a.year if a.year == b.year else None
        month = a.month if a.month == b.month else None
        day = a.day if a.day == b.day else None
        if month is None and day is not None:
            return None
        if year is None and month is None:
            return None
        return ("date", part_date(year, month, day))

    return Library(
        "dateutil",
        "python-dateutil",
        "dates",
        value,
        mode="parse, not fuzzy",
        value_classes=frozenset({"date"}),
    )


def _quantulum3() -> Library:
    from quantulum3 import parser as qp

    clf = _quantulum_classifier()

    def reading(q: Any) -> Reading:
        unit, entity = q.unit.name, q.unit.entity.name
        if entity == "currency":
            symbol = q.unit.symbols[0].lower() if q.unit.symbols else ""
            code = q.unit.currency_code or _SYMBOLS.get(symbol, "?")
            return ("money", code, number(q.value))
        if unit == "percentage":
            return ("percent", number(q.value))
        if entity == "time":
            return ("duration", time_unit(unit), number(q.value))
        return ("number", number(q.value))

    def parse(text: str) -> list[Any]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return list(qp.parse(text, classifier_path=clf))

    def value(text: str) -> Reading | None:
        found = parse(text)
        if not found:
            return None
        if len(found) > 1:
            return ("several", *(" ".join(reading(q)) for q in found))
        return reading(found[0])

    def claim(text: str) -> list[Reading]:
        return [reading(q) for q in parse(text)]

    mode = "unit classifier trained locally" if clf else "no unit classifier"
    classes = frozenset({"money", "percent", "duration", "number"})
    return Library(
        "quantulum3", "quantulum3", "money, percents, durations, numbers", value, claim,
        classes, mode, classes,
    )  # fmt: skip


def _quantulum_classifier() -> str | None:
    """A unit classifier trained from quantulum3's own training set, cached; ``None`` when
    scikit-learn is missing (quantulum3 then reads without one)."""
    if importlib.util.find_spec("sklearn") is None:
        return None
    from quantulum3 import classifier

    path = Path.home() / ".cache" / "prism-bench" / "quantulum3-clf.joblib"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            classifier.train_classifier(store=True, output_path=str(path))
    return str(path)


def _price_parser() -> Library:
    from price_parser import Price

    def reading(text: str) -> Reading | None:
        p = Price.fromstring(text)
        if p.amount is None:
            return None
        if p.currency is None:
            return ("number", number(p.amount))
        return ("money", _SYMBOLS.get(p.currency.strip().lower(), p.currency), number(p.amount))

    def claim(text: str) -> list[Reading]:
        r = reading(text)
        return [r] if r is not None and r[0] == "money" else []

    return Library(
        "price-parser", "price-parser", "money", reading, claim, frozenset({"money"}),
        "Price.fromstring", frozenset({"money", "number"}),
    )  # fmt: skip


def _babel() -> Library:
    from babel.numbers import NumberFormatError, parse_decimal

    def value(text: str) -> Reading | None:
        try:
            return ("number", number(parse_decimal(text.strip(), locale="en_US")))
        except (NumberFormatError, InvalidOperation, ValueError):
            return None

    return Library(
        "babel",
        "babel",
        "plain numbers",
        value,
        mode="parse_decimal, en_US",
        value_classes=frozenset({"number"}),
    )


def _pint() -> Library:
    import pint

    ureg: Any = pint.UnitRegistry()

    def value(text: str) -> Reading | None:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                q: Any = ureg.Quantity(text)
            magnitude = float(q.magnitude)
        except Exception:  # pint raises many kinds on free text
            return None
        units = str(q.units)
        if units == "percent":
            return ("percent", number(magnitude))
        if q.dimensionality == ureg.second.dimensionality:
            return ("duration", time_unit(units), number(magnitude))
        return ("number", number(magnitude))

    return Library(
        "pint",
        "pint",
        "durations and units",
        value,
        mode="UnitRegistry().Quantity",
        value_classes=frozenset({"duration", "percent", "number"}),
    )


FACTORIES: dict[str, tuple[str, Callable[[], Library]]] = {
    "dateparser": ("dateparser", _dateparser),
    "dateutil": ("dateutil", _dateutil),
    "quantulum3": ("quantulum3", _quantulum3),
    "price-parser": ("price_parser", _price_parser),
    "babel": ("babel", _babel),
    "pint": ("pint", _pint),
}


# -- inputs ----------------------------------------------------------------------------------


def _reports(directory: Path) -> list[Report]:
    reports, _errors = validate_directory(directory)
    return reports


def report_sets(corpora: Path) -> dict[str, list[Report]]:
    infotabs = corpora / "infotabs-dev" / "reports"
    return {
        "reports": _reports(ROOT / "reports"),
        "report-styles": _reports(corpora / "report-styles" / "reports"),
        "infotabs-dev": [r for d in sorted(infotabs.iterdir()) for r in _reports(d)],
        "tabfact-dev": _reports(corpora / "tabfact-dev" / "reports"),
    }


def _lines(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def claim_texts(corpora: Path) -> dict[str, list[str]]:
    def texts(path: Path) -> list[str]:
        return [
            row["claim"]["text"] if "claim" in row else row["hypothesis"] for row in _lines(path)
        ]

    return {
        "report-styles": texts(corpora / "report-styles" / "claims.jsonl"),
        "natural-claims": texts(corpora / "natural-claims" / "claims.jsonl"),
        "infotabs-dev": texts(corpora / "infotabs-dev" / "cases.jsonl"),
        "tabfact-dev": texts(corpora / "tabfact-dev" / "cases.jsonl"),
    }


@dataclass
class Values:
    """Distinct value strings with our reading of each (one per distinct pair)."""

    pairs: dict[tuple[str, Reading | None], str] = field(default_factory=dict)
    """Each pair, with the first leaf it was read at (``slug:path``)."""
    leaves: int = 0
    string_leaves: int = 0
    compile_ms: float = 0.0


def collect_values(sets: dict[str, list[Report]]) -> Values:
    out = Values()
    for reports in sets.values():
        for report in reports:
            started = time.perf_counter()
            from prism_slack.facts import compile_facts

            facts = compile_facts(report.data)
            out.compile_ms += (time.perf_counter() - started) * 1000
            out.leaves += len(facts)
            for leaf in report.evidence:
                if not isinstance(leaf.value, str) or not leaf.value.strip():
                    continue
                out.string_leaves += 1
                fact = facts.by_path.get(leaf.path)
                ours = ours_value(fact) if fact is not None else None
                key = (leaf.value.strip(), ours)
                out.pairs.setdefault(key, f"{report.slug}:{leaf.path}")
    return out


# -- comparison ------------------------------------------------------------------------------


def _class(r: Reading | None) -> str:
    return "none" if r is None else r[0]


def show(r: Reading | None) -> str:
    return "—" if r is None else " ".join(r)


def _rank(*parts: str) -> str:
    return hashlib.sha1("\x1f".join(parts).encode()).hexdigest()


@dataclass
class Item:
    side: str
    library: str
    category: str
    text: str
    library_reading: str
    ours_reading: str
    cls: str
    where: str = ""
    """A report leaf (or claim corpus) it was found at, for the judge."""

    @property
    def key(self) -> tuple[str, str, str, str, str]:
        return (self.side, self.library, self.text, self.library_reading, self.ours_reading)


def compare_values(lib: Library, values: Values) -> tuple[dict[str, Any], list[Item]]:
    cache: dict[str, Reading | None] = {}
    started = time.perf_counter()
    for text, _ours in values.pairs:
        if text not in cache:
            try:
                cache[text] = lib.value(text)
            except Exception:  # a library crashing on a value is a value it does not read
                cache[text] = None
    seconds = time.perf_counter() - started
    counts: collections.Counter[str] = collections.Counter()
    by_class: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    items: list[Item] = []
    for (text, ours), where in values.pairs.items():
        mine = cache[text]
        if mine is None and ours is None:
            continue
        if mine == ours:
            cat = "agree"
        elif mine is None:
            if ours is not None and ours[0] not in lib.value_classes:
                continue
            cat = "ours_only"
        elif ours is None:
            cat = "library_only"
        else:
            cat = "disagree"
        cls = _class(ours) if ours is not None else _class(mine)
        counts[cat] += 1
        by_class[cls][cat] += 1
        if cat != "agree":
            items.append(Item("value", lib.name, cat, text, show(mine), show(ours), cls, where))
    figures = {
        "distinct_values": len(cache),
        "read_by_library": sum(r is not None for r in cache.values()),
        "us_per_value": round(seconds / max(1, len(cache)) * 1e6, 1),
        **{c: counts[c] for c in ("agree", "disagree", "library_only", "ours_only")},
        "by_class": {k: dict(v) for k, v in sorted(by_class.items())},
    }
    return figures, items


def compare_claims(
    lib: Library, claims: dict[str, list[str]], ours: dict[str, list[Reading]]
) -> tuple[dict[str, Any], list[Item]]:
    assert lib.claim is not None
    counts: collections.Counter[str] = collections.Counter()
    items: list[Item] = []
    same = 0
    texts = sorted({t for ts in claims.values() for t in ts})
    started = time.perf_counter()
    found: dict[str, list[Reading]] = {}
    for text in texts:
        try:
            found[text] = lib.claim(text)
        except Exception:
            found[text] = []
    seconds = time.perf_counter() - started
    for text in texts:
        mine = collections.Counter(found[text])
        theirs = collections.Counter(r for r in ours[text] if r[0] in lib.claim_classes)
        both = mine & theirs
        counts["agree"] += sum(both.values())
        same += mine == theirs
        for r in (mine - theirs).elements():
            counts["library_only"] += 1
            items.append(Item("claim", lib.name, "library_only", text, show(r), "—", r[0]))
        for r in (theirs - mine).elements():
            counts["ours_only"] += 1
            items.append(Item("claim", lib.name, "ours_only", text, "—", show(r), r[0]))
    figures = {
        "claims": len(texts),
        "claims_read_alike": same,
        "ms_per_claim": round(seconds / max(1, len(texts)) * 1000, 2),
        **{c: counts[c] for c in ("agree", "library_only", "ours_only")},
    }
    return figures, items


def sample(items: list[Item], per: int) -> list[Item]:
    """The first ``per`` items of each (side, library, category), in a fixed hash order."""
    groups: dict[tuple[str, str, str], list[Item]] = collections.defaultdict(list)
    for it in items:
        groups[(it.side, it.library, it.category)].append(it)
    out: list[Item] = []
    for group in groups.values():
        unique = {it.key: it for it in group}
        out += sorted(unique.values(), key=lambda it: _rank(*it.key))[:per]
    return out


def load_judged(path: Path) -> dict[tuple[str, str, str, str, str], dict[str, Any]]:
    if not path.exists():
        return {}
    out = {}
    for row in _lines(path):
        if row["verdict"] not in VERDICTS:
            raise SystemExit(f"{path}: bad verdict {row['verdict']!r}")
        key = (row["side"], row["library"], row["text"], row["library_reading"],
               row["ours_reading"])  # fmt: skip
        out[key] = row
    return out


# -- report ----------------------------------------------------------------------------------


def verdicts(
    items: list[Item], judged: dict[tuple[str, str, str, str, str], dict[str, Any]]
) -> dict[str, dict[str, int]]:
    """Per library: judged verdicts over the sampled items, and how many are unjudged."""
    out: dict[str, dict[str, int]] = collections.defaultdict(lambda: dict.fromkeys(VERDICTS, 0))
    for it in items:
        row = judged.get(it.key)
        tally = out[it.library]
        if row is None:
            tally["unjudged"] = tally.get("unjudged", 0) + 1
        else:
            tally[row["verdict"]] += 1
    return dict(out)


def _stale(rows: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Judged rows whose readings no longer occur (our reading changed since), per library."""
    out: dict[str, dict[str, int]] = {}
    for row in rows:
        tally = out.setdefault(row["library"], dict.fromkeys(VERDICTS, 0))
        tally[row["verdict"]] += 1
    return out


def _verdict_table(tallies: dict[str, dict[str, int]]) -> list[str]:
    lines = [
        "| library | judged | library right | ours right | both right | neither | unjudged |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, t in tallies.items():
        judged = sum(t[k] for k in VERDICTS)
        lines.append(
            f"| {name} | {judged} | {t['library']} | {t['ours']} | {t['both']} | "
            f"{t['neither']} | {t.get('unjudged', 0)} |"
        )
    return lines


def markdown(result: dict[str, Any]) -> str:
    v = result["values"]
    lines = [
        "# Library trial",
        "",
        "`python bench/library_trial.py` (issue 19): candidate parsing libraries against the",
        "typed-facts compiler (`Report.facts`) on every leaf string of the sample reports and",
        "three corpora, and against the number grammar (`verify.numbers.scan`) on every claim",
        "text of four corpora. Readings are compared in one plain form; a unit our compiler",
        "took from the key is dropped. The judged items are in",
        "`bench/data/library_trial_judged.jsonl` (who is right, by hand).",
        "",
        f"Values: {v['distinct']} distinct (string, our reading) pairs from {v['string_leaves']}",
        f"string leaves ({v['leaves']} leaves in all); our compiler: "
        f"{v['ours_us_per_leaf']} µs per leaf (whole-report compile, every leaf).",
        "",
        "## Report values",
        "",
        "| library | tried for | read | agree | disagree | library only | ours only | µs/value |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, lib in result["libraries"].items():
        if "missing" in lib:
            lines.append(f"| {name} | — | not installed | | | | | |")
            continue
        f = lib["values"]
        lines.append(
            f"| {name} | {lib['classes']} | {f['read_by_library']} | {f['agree']} | "
            f"{f['disagree']} | {f['library_only']} | {f['ours_only']} | {f['us_per_value']} |"
        )
    lines += ["", "How each was run:", ""]
    lines += [
        f"- {name}: {lib['mode']}" for name, lib in result["libraries"].items() if "mode" in lib
    ]
    lines += [
        "",
        "Timings are of one run on a shared two-core machine under load: compare them within",
        "a run, not across runs.",
        "",
        "By class (ours where we read it, else the library's):",
        "",
    ]
    for name, lib in result["libraries"].items():
        if "missing" in lib:
            continue
        cells = []
        for cls, c in lib["values"]["by_class"].items():
            cells.append(
                f"{cls} {c.get('agree', 0)}/{c.get('disagree', 0)}/"
                f"{c.get('library_only', 0)}/{c.get('ours_only', 0)}"
            )
        lines.append(f"- **{name}** (agree/disagree/library only/ours only): " + "; ".join(cells))
    lines += [
        "",
        "## Claim texts",
        "",
        "| library | claims | read alike | both | library only | ours only | ms/claim |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, lib in result["libraries"].items():
        c = lib.get("claims")
        if not c:
            continue
        lines.append(
            f"| {name} | {c['claims']} | {c['claims_read_alike']} | {c['agree']} | "
            f"{c['library_only']} | {c['ours_only']} | {c['ms_per_claim']} |"
        )
    lines.append(f"| ours (`scan`) | | | | | | {result['ours_ms_per_claim']} |")
    lines += [
        "",
        "## Judged sample (who is right)",
        "",
        f"Up to {result['sample_per_group']} items of each library × side × category, in a",
        "fixed hash order.",
        "",
        *_verdict_table(result["judged"]),
        "",
        "Every judged item that occurs now (the sample, and whole classes judged beyond it):",
        "",
        *_verdict_table(result["judged_all"]),
        "",
        "By library · side · category · class:",
        "",
        *[
            f"- {k}: " + ", ".join(f"{v} {n}" for v, n in sorted(t.items()))
            for k, t in result["judged_all_by_class"].items()
        ],
    ]
    if result["judged_stale"]:
        lines += [
            "",
            "Judged on readings of ours that have since changed (a class the compiler now reads",
            "differently; a run at the commit before the change shows them as items):",
            "",
            *_verdict_table(result["judged_stale"]),
        ]
    lines += ["", "### Where a library was right", ""]
    wins = [r for r in result["judged_rows"] if r["verdict"] == "library"]
    lines += [
        f"- {r['library']} ({r['side']}): `{r['text'][:80]}` — library `{r['library_reading']}`,"
        f" ours `{r['ours_reading']}`: {r['why']}"
        for r in wins
    ] or ["- none"]
    lines += ["", "### Sampled disagreements", ""]
    for r in result["judged_rows"][:40]:
        lines.append(
            f"- {r['library']} ({r['side']}, {r['category']}): `{r['text'][:70]}` — library "
            f"`{r['library_reading']}`, ours `{r['ours_reading']}` → **{r['verdict']}** "
            f"({r['why']})"
        )
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results")
    ap.add_argument("--judged", type=Path, default=JUDGED)
    ap.add_argument("--todo", type=Path, help="write the sampled, unjudged items here")
    ap.add_argument("--sample", type=int, default=4, help="items judged per group")
    ap.add_argument("--libraries", default=",".join(FACTORIES))
    args = ap.parse_args()
    corpora = args.corpora
    if not corpora.exists():
        corpora = Path("/work/shared/corpora")
    values = collect_values(report_sets(corpora))
    claims = claim_texts(corpora)
    texts = sorted({t for ts in claims.values() for t in ts})
    started = time.perf_counter()
    ours_claims = {
        t: [r for q in scan(t).quantities if (r := ours_claim(q)) is not None] for t in texts
    }
    ours_ms = (time.perf_counter() - started) / max(1, len(texts)) * 1000
    libraries: dict[str, Any] = {}
    items: list[Item] = []
    for name in args.libraries.split(","):
        module, factory = FACTORIES[name]
        if importlib.util.find_spec(module) is None:
            libraries[name] = {"missing": True}
            continue
        lib = factory()
        figures, found = compare_values(lib, values)
        entry: dict[str, Any] = {"classes": lib.classes, "mode": lib.mode, "values": figures}
        items += found
        if lib.claim is not None:
            entry["claims"], found = compare_claims(lib, claims, ours_claims)
            items += found
        libraries[name] = entry
        print(f"{name}: values {figures}  claims {entry.get('claims')}", flush=True)
    judged = load_judged(args.judged)
    picked = sample(items, args.sample)
    current = {it.key: it for it in items}
    every = [it for key, it in current.items() if key in judged]
    stale = [row for key, row in judged.items() if key not in current]
    rows = []
    for it in picked:
        row = judged.get(it.key)
        if row is not None:
            rows.append({**row, "category": it.category})
    if args.todo:
        todo = [it for it in picked if it.key not in judged]
        with args.todo.open("w", encoding="utf-8") as f:
            for it in todo:
                f.write(json.dumps(it.__dict__, ensure_ascii=False) + "\n")
        print(f"{len(todo)} sampled items to judge in {args.todo}")
    result = {
        "values": {
            "distinct": len(values.pairs),
            "string_leaves": values.string_leaves,
            "leaves": values.leaves,
            "ours_us_per_leaf": round(values.compile_ms * 1000 / max(1, values.leaves), 1),
        },
        "ours_ms_per_claim": round(ours_ms, 2),
        "libraries": libraries,
        "sample_per_group": args.sample,
        "judged": verdicts(picked, judged),
        "judged_rows": rows,
        "judged_all": verdicts(every, judged),
        "judged_stale": _stale(stale),
    }
    by_class: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for it in every:
        by_class[f"{it.library} · {it.side} · {it.category} · {it.cls}"][
            judged[it.key]["verdict"]
        ] += 1
    result["judged_all_by_class"] = {k: dict(v) for k, v in sorted(by_class.items())}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "library_trial.json").write_text(
        json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    (args.out / "library_trial.md").write_text(markdown(result), encoding="utf-8")
    for name, t in result["judged"].items():
        print(f"judged {name}: {t}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
