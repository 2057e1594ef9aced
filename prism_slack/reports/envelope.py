"""Wrap any JSON export in the report envelope (DESIGN §3), saying where each field came from.

The envelope is ``company.name``, ``company.aliases``, ``company.domain`` (optional),
``report.id`` and ``report.generated_at`` (an ISO date). Exports from other tools hold the
same facts under their own names: ``generatedAt``, ``trading_names``, ``reference``,
nested ``company.identity`` or ``report.meta`` objects, a ``Profile`` section with a
``"Legal Name"``, an ``Audit`` section with ``"Report Date": "24 February 2026"``.

``wrap`` looks, in this order, at what the operator gave (``--company``, ``--id``,
``--date``), the ``company`` and ``report`` objects, objects nested in them, top-level
sections named like a company or a report (``Profile``, ``Audit``, ``meta``), and
top-level scalars. A value found inside ``company``/``report`` under another key is moved
to its envelope key; one found elsewhere is copied, so the house style's own sections keep
what they had; so does a value rewritten on the way (a display date read as an ISO date,
a URL read as a domain). Nothing is guessed: a field that is not found and cannot be made from what
was found is listed in ``missing``.
"""

from __future__ import annotations

import copy
import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from prism_slack.evidence import join_key

COMPANY, REPORT = "company", "report"
_COMPANY_SECTIONS = {"company", "profile", "organisation", "organization", "account", "prospect"}
_REPORT_SECTIONS = {"report", "audit", "meta", "metadata", "document", "reportinfo"}

SYNONYMS: dict[str, tuple[str, ...]] = {
    "company.name": (
        "name",
        "companyname",
        "displayname",
        "tradingname",
        "company",
        "prospect",
        "customer",
        "client",
        "legalname",
    ),
    "company.aliases": ("aliases", "alias", "tradingnames", "aka", "alsoknownas", "othernames"),
    "company.domain": ("domain", "website", "web", "url", "homepage"),
    "report.id": ("id", "reportid", "reference", "ref", "auditid", "reportnumber"),
    "report.generated_at": (
        "generatedat",
        "generated",
        "generatedon",
        "reportdate",
        "date",
        "issued",
        "issuedon",
        "issuedate",
        "createdat",
        "created",
        "publishedat",
        "published",
        "auditdate",
        "preparedon",
    ),
}
"""Keys (lower case, letters and digits only) that may hold each envelope field, best first."""

_LEGAL_SUFFIX = re.compile(
    r"[\s,]+(?:ltd\.?|limited|plc|inc\.?|incorporated|llc|l\.l\.c\.|gmbh|ag|s\.?a\.?|"
    r"b\.?v\.?|n\.?v\.?|pty|co\.?|corp\.?|corporation|group|holdings)$",
    re.IGNORECASE,
)
_MONTHS = {
    name: i
    for i, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}
_DAY_MONTH_YEAR = re.compile(r"^(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]+)\.?,?\s+(\d{4})$")
_MONTH_DAY_YEAR = re.compile(r"^([A-Za-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$")
_NUMERIC = re.compile(r"^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$")
_ISO_START = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$")


@dataclass(frozen=True)
class Taken:
    """One envelope field: its value and where it came from (a JSON path, or an option)."""

    field: str
    value: Any
    source: str

    def line(self) -> str:
        return f"{self.field} = {_show(self.value)}  ← {self.source}"


@dataclass
class Wrapped:
    """The wrapped document, what each envelope field was taken from, and what is missing."""

    data: dict[str, Any]
    taken: list[Taken] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Options:
    """What the operator gave on the command line (``None``: take it from the file)."""

    company: str | None = None
    report_id: str | None = None
    date: str | None = None


@dataclass(frozen=True)
class _Candidate:
    rank: tuple[int, int]
    value: Any
    path: tuple[str, ...]

    @property
    def source(self) -> str:
        out = ""
        for key in self.path:
            out = join_key(out, key)
        return out


def norm_key(key: str) -> str:
    return re.sub(r"[^a-z0-9]", "", key.lower())


def parse_date(text: str) -> dt.date | None:
    """An ISO date or datetime, "24 February 2026", "February 24, 2026" or an unambiguous
    "24/02/2026"; ``None`` for anything else (including "03/04/2026", which could be
    either)."""
    text = " ".join(str(text).split())
    try:
        iso = _ISO_START.match(text)
        if iso:
            return dt.date.fromisoformat(iso.group(1))
        if m := _DAY_MONTH_YEAR.match(text):
            day, month, year = int(m.group(1)), _MONTHS.get(m.group(2).lower()), int(m.group(3))
        elif m := _MONTH_DAY_YEAR.match(text):
            month, day, year = _MONTHS.get(m.group(1).lower()), int(m.group(2)), int(m.group(3))
        elif m := _NUMERIC.match(text):
            first, second, year = int(m.group(1)), int(m.group(2)), int(m.group(3))
            if first > 12 >= second:
                day, month = first, second
            elif second > 12 >= first:
                day, month = second, first
            else:
                return None
        else:
            return None
        return dt.date(year, month, day) if month else None
    except ValueError:
        return None


def _show(value: Any) -> str:
    return repr(value) if not isinstance(value, list) else "[" + ", ".join(map(repr, value)) + "]"


def _aliases(value: Any) -> list[str] | None:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [v.strip() for v in value if v.strip()]
    if isinstance(value, str) and value.strip():
        return [part.strip() for part in re.split(r"[;,|]", value) if part.strip()]
    return None


def _domain(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    host = re.sub(r"^[a-z][a-z0-9+.-]*://", "", value.strip().lower()).split("/")[0]
    host = host.removeprefix("www.")
    return host if re.fullmatch(r"[a-z0-9-]+(?:\.[a-z0-9-]+)+", host) else None


def _typed(envelope_field: str, value: Any) -> Any:
    """``value`` as that envelope field holds it, or ``None`` when it cannot be one."""
    if envelope_field == "company.aliases":
        return _aliases(value)
    if envelope_field == "company.domain":
        return _domain(value)
    if envelope_field == "report.generated_at":
        if not isinstance(value, str):
            return None
        date = parse_date(value)
        return date.isoformat() if date else None
    if envelope_field == "report.id" and isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return value.strip() if isinstance(value, str) and value.strip() else None


def _objects(
    data: dict[str, Any], section: str
) -> Iterator[tuple[int, tuple[str, ...], dict[str, Any]]]:
    """(location rank, path, object) for every object that may hold ``section``'s fields."""
    names = _COMPANY_SECTIONS if section == COMPANY else _REPORT_SECTIONS
    own = data.get(section)
    if isinstance(own, dict):
        yield 1, (section,), own
        for key, child in own.items():
            if isinstance(child, dict):
                yield 2, (section, key), child
    for key, child in data.items():
        if key != section and isinstance(child, dict) and norm_key(key) in names:
            yield 3, (key,), child
            for inner, grandchild in child.items():
                if isinstance(grandchild, dict):
                    yield 4, (key, inner), grandchild
    yield 5, (), data


def _find(data: dict[str, Any], envelope_field: str) -> _Candidate | None:
    section = envelope_field.split(".", maxsplit=1)[0]
    wanted = SYNONYMS[envelope_field]
    best: _Candidate | None = None
    for where, path, obj in _objects(data, section):
        for key, raw in obj.items():
            nk = norm_key(key)
            if nk not in wanted or isinstance(raw, dict):
                continue
            value = _typed(envelope_field, raw)
            if value is None:
                continue
            candidate = _Candidate((where, wanted.index(nk)), value, (*path, key))
            if best is None or candidate.rank < best.rank:
                best = candidate
    return best


def _plain_name(legal: str) -> str:
    name = legal
    while (shorter := _LEGAL_SUFFIX.sub("", name)) != name and shorter:
        name = shorter
    return name.strip(" ,")


def _slug_part(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def wrap(document: dict[str, Any], options: Options | None = None) -> Wrapped:
    """``document`` with the envelope filled in; nothing in ``document`` is changed."""
    options = options or Options()
    data = copy.deepcopy(document)
    result = Wrapped(data)
    given = {
        "company.name": options.company,
        "report.id": options.report_id,
        "report.generated_at": options.date,
    }
    found: dict[str, Any] = {}
    for envelope_field in SYNONYMS:
        option = given.get(envelope_field)
        if option is not None:
            value = _typed(envelope_field, option)
            if value is None:
                result.missing.append(f"{envelope_field}: {option!r} is not one (see --help)")
                continue
            flag = {"company.name": "--company", "report.id": "--id"}.get(envelope_field, "--date")
            found[envelope_field] = value
            result.taken.append(Taken(envelope_field, value, f"{flag} {option!r}"))
            continue
        candidate = _find(document, envelope_field)
        if candidate is None:
            continue
        value, source = candidate.value, candidate.source
        section, key = envelope_field.split(".")
        inside = candidate.path[0] == section and len(candidate.path) > 1
        if inside and candidate.path != (section, key) and value == _at(document, candidate.path):
            _remove(data, candidate.path)
            source += " (moved)"
        elif candidate.path != (section, key) and value != _at(document, candidate.path):
            source += f" (as written: {_at(document, candidate.path)!r}, kept there)"
        if envelope_field == "company.name" and norm_key(candidate.path[-1]) == "legalname":
            plain = _plain_name(value)
            if plain != value:
                source += f" without its suffix; {value!r} kept as an alias (or pass --company)"
                found["legal name"] = value
                value = plain
        found[envelope_field] = value
        result.taken.append(Taken(envelope_field, value, source))
    _fill(data, found, result)
    return result


def _at(document: dict[str, Any], path: tuple[str, ...]) -> Any:
    node: Any = document
    for key in path:
        node = node[key]
    return node


def _remove(data: dict[str, Any], path: tuple[str, ...]) -> None:
    parents = [data]
    for key in path[:-1]:
        parents.append(parents[-1][key])
    del parents[-1][path[-1]]
    for depth in range(len(path) - 1, 1, -1):  # drop nested objects left empty
        if not parents[depth]:
            del parents[depth - 1][path[depth - 1]]


def _fill(data: dict[str, Any], found: dict[str, Any], result: Wrapped) -> None:
    company = data.get(COMPANY)
    if not isinstance(company, dict):
        company = data[COMPANY] = {}
    report = data.get(REPORT)
    if not isinstance(report, dict):
        report = data[REPORT] = {} if report is None else {"value": report}
    name = found.get("company.name")
    if name is None:
        result.missing.append("company.name: no company name found (pass --company NAME)")
    else:
        company["name"] = name
    aliases = list(found.get("company.aliases", []))
    legal = found.get("legal name")
    if legal is not None and legal not in aliases:
        aliases.append(legal)
    if "company.aliases" not in found:
        source = "the legal name" if aliases else "none found (add some: they help detection)"
        result.taken.append(Taken("company.aliases", aliases, source))
    company["aliases"] = aliases
    if "company.domain" in found:
        company["domain"] = found["company.domain"]
    date = found.get("report.generated_at")
    if date is None:
        result.missing.append("report.generated_at: no report date found (pass --date YYYY-MM-DD)")
    else:
        report["generated_at"] = date
    report_id = found.get("report.id")
    if report_id is None and name is not None and date is not None:
        report_id = f"{_slug_part(name)}-{date}"
        result.taken.append(
            Taken("report.id", report_id, "made from the company name and date (or pass --id)")
        )
    if report_id is not None:
        report["id"] = report_id
    elif name is not None:
        result.missing.append("report.id: no report id found (pass --id ID)")
    _put_first(data, (COMPANY, REPORT))
    _put_first(company, ("name", "aliases", "domain"))
    _put_first(report, ("id", "generated_at"))


def _put_first(obj: dict[str, Any], keys: tuple[str, ...]) -> None:
    """Reorder ``obj`` in place so that ``keys`` (those present) come first."""
    rest = {k: v for k, v in obj.items() if k not in keys}
    first = {k: obj[k] for k in keys if k in obj}
    obj.clear()
    obj.update(first | rest)


def default_slug(name: str) -> str:
    """The directory name for a company: ``Marlow Grange Hotels`` → ``marlow-grange-hotels``."""
    return _slug_part(name)
