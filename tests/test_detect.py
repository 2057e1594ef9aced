"""Company detection: names, aliases, domains; typos; ambiguity; no false alarms; speed."""

from __future__ import annotations

import json
import re
import statistics
import time
from pathlib import Path
from typing import Any

import pytest

from prism_slack.reports.detect import CompanyIndex, allowed_edits, name_tokens, normalise_name
from prism_slack.reports.model import Report, build_report

REPO_REPORTS = Path(__file__).resolve().parent.parent / "reports"


def report(slug: str, name: str, aliases: list[str], domain: str | None = None) -> Report:
    data: dict[str, Any] = {
        "company": {"name": name, "aliases": aliases, "domain": domain},
        "report": {"id": f"AUD-{slug}", "generated_at": "2026-01-01"},
    }
    return build_report(slug, data)


REPORTS = [
    report("nwo", "Northwind Outfitters", ["Northwind", "NWO"], "northwindoutfitters.com"),
    report(
        "nwl", "Northwind Logistics", ["Northwind", "NWL"], "https://www.northwindlogistics.com"
    ),
    report("acme", "Acme Widgets", ["Acme", "Acme Widgets GmbH"], "acme-widgets.de"),
    report("kps", "Kestrelpoint Software", ["Kestrelpoint", "KPS"], "kestrelpoint.io"),
    report("cafe", "Café Lumière", ["Lumiere Roasters"]),
    report("tp", "Tamarack & Pine Co.", []),
    report("hbf", "Harbor Bay Freight Services", []),
    report("boa", "Bank of Arcadia Trust", []),
]
INDEX = CompanyIndex(REPORTS)

FOUND: list[tuple[str, str, str]] = [
    ("exact name", "What CRM does Northwind Outfitters use?", "nwo"),
    ("exact alias", "Tell me about Kestrelpoint", "kps"),
    ("short alias", "NWO churn?", "nwo"),
    ("alias in a command", "bind nwl", "nwl"),
    ("upper case", "NORTHWIND OUTFITTERS", "nwo"),
    ("lower case", "kestrelpoint software pricing", "kps"),
    ("lower-case acronym", "what does kps charge", "kps"),
    ("punctuation", "(Northwind-Outfitters)!!", "nwo"),
    ("underscores", "northwind_logistics", "nwl"),
    ("at sign", "@Kestrelpoint?", "kps"),
    ("possessive 's", "What is Acme's churn?", "acme"),
    ("possessive s'", "Acmes' churn is high", "acme"),
    ("curly possessive", "Kestrelpoint’s pricing", "kps"),
    ("possessive of full name", "Northwind Outfitters' returns policy", "nwo"),
    ("suffix Inc", "Is Acme Inc. a good fit?", "acme"),
    ("suffix GmbH", "Acme Widgets GmbH revenue", "acme"),
    ("suffix Corp", "Acme Widgets Corp.", "acme"),
    ("suffix LLC", "Northwind Logistics, LLC", "nwl"),
    ("suffix dropped from name", "Tamarack & Pine", "tp"),
    ("ampersand as and", "tamarack and pine", "tp"),
    ("accents", "how big is cafe lumiere", "cafe"),
    ("accented possessive", "Café Lumière's roastery", "cafe"),
    ("domain", "northwindoutfitters.com", "nwo"),
    ("www domain", "see www.northwindlogistics.com", "nwl"),
    ("url", "https://northwindoutfitters.com/returns?x=1", "nwo"),
    ("subdomain", "shop.northwindoutfitters.com is slow", "nwo"),
    ("slack link", "<https://kestrelpoint.io|kestrelpoint.io>", "kps"),
    ("email domain", "mail from jane@acme-widgets.de", "acme"),
    ("squashed name", "NorthwindOutfitters", "nwo"),
    ("split name", "kestrel point", "kps"),
    ("typo in two words", "Nortwind Outfiters", "nwo"),
    ("typo in one word", "Kestrelpont", "kps"),
    ("transposition", "Northwind Logisitcs", "nwl"),
    ("typo in alias", "Acme Widgtes", "acme"),
    ("specific beats shared", "Northwind Outfitters", "nwo"),
    ("typo'd specific beats shared", "Northwind Logistcs", "nwl"),
    ("shared explained by specific", "Northwind Logistics: is Northwind's DSO high?", "nwl"),
    ("first two words of a long name", "what should I lead with on the harbor bay call", "hbf"),
]


@pytest.mark.parametrize(("text", "slug"), [c[1:] for c in FOUND], ids=[c[0] for c in FOUND])
def test_found(text: str, slug: str) -> None:
    detection = INDEX.detect(text)
    assert (detection.status, detection.slugs) == ("found", [slug])


AMBIGUOUS: list[tuple[str, str, list[str]]] = [
    ("shared alias", "Northwind", ["nwl", "nwo"]),
    ("shared alias possessive", "what's Northwind's churn?", ["nwl", "nwo"]),
    ("typo of shared alias", "Nortwind", ["nwl", "nwo"]),
    ("two companies", "compare Acme with Kestrelpoint", ["acme", "kps"]),
    ("shared plus another", "Northwind or KPS?", ["kps", "nwl", "nwo"]),
]


@pytest.mark.parametrize(
    ("text", "slugs"), [c[1:] for c in AMBIGUOUS], ids=[c[0] for c in AMBIGUOUS]
)
def test_ambiguous_never_guesses(text: str, slugs: list[str]) -> None:
    detection = INDEX.detect(text)
    assert (detection.status, detection.slugs) == ("ambiguous", slugs)


ORDINARY = [
    "what's their churn?",
    "What CRM do they use?",
    "who is the economic buyer?",
    "How should I open the call tomorrow?",
    "What are the top three findings, and which is critical?",
    "Is their search any good? Zero results seem high.",
    "give me a quick summary of the financials",
    "what's the gross margin and EBITDA margin",
    "any risks with procurement or legal?",
    "The northern warehouse is windy",
    "now what",
    "thanks!",
    "acne",
    "KPIs for next quarter",
    "snwow",
    "NWX",
    "we need a new widget",
    "pine trees near the lake",
    "is that a good point?",
    "harbr bay rates",  # a short form is matched exactly, never as a typo
    "which bank of theirs",  # not a short form: "of" joins words
    "",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_messages_name_no_company(text: str) -> None:
    assert INDEX.detect(text).status == "none"


def _prose(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [t for v in value.values() for t in _prose(v)]
    if isinstance(value, list):
        return [t for v in value for t in _prose(v)]
    return [value] if isinstance(value, str) and " " in value else []


def test_no_company_in_the_shipped_reports_prose_besides_their_own() -> None:
    """Realistic business prose (every sentence of every sample report) triggers nothing
    about another company: no fuzzy false alarms on ordinary words."""
    docs = {p.parent.name: json.loads(p.read_text()) for p in REPO_REPORTS.glob("*/*.json")}
    index = CompanyIndex([build_report(slug, data) for slug, data in docs.items()])
    checked = 0
    for slug, data in docs.items():
        sections = {k: v for k, v in data.items() if k not in ("company", "report")}
        for text in _prose(sections):
            detection = index.detect(text)
            assert detection.slugs in ([], [slug]), (slug, text, detection)
            checked += 1
    assert checked > 50


@pytest.mark.parametrize(
    ("text", "slugs"),
    [
        ("Northwind", ["northwind-logistics", "northwind-outfitters"]),
        ("Northwind Outfitters", ["northwind-outfitters"]),
        ("northwind logistics", ["northwind-logistics"]),
        ("cedarvalleyhealth.org", ["cedar-valley-health"]),
    ],
)
def test_the_shipped_reports_share_an_alias(text: str, slugs: list[str]) -> None:
    index = CompanyIndex(
        build_report(p.parent.name, json.loads(p.read_text()))
        for p in REPO_REPORTS.glob("*/audit-data.json")
    )
    assert index.detect(text).slugs == slugs


@pytest.mark.parametrize(
    ("length", "edits"), [(1, 0), (4, 0), (5, 1), (9, 1), (10, 2), (19, 2), (20, 3), (40, 3)]
)
def test_short_keys_need_exact_matches(length: int, edits: int) -> None:
    assert allowed_edits(length) == edits


@pytest.mark.parametrize(
    ("name", "normal"),
    [
        ("Northwind Outfitters, Inc.", "northwind outfitters"),
        ("The Acme Company", "acme"),
        ("Müller GmbH & Co. KG", "muller"),
        ("Tamarack & Pine", "tamarack and pine"),
        ("Northwind Logistics Group, LLC", "northwind logistics group"),
        ("Co", "co"),
        ("  ", ""),
    ],
)
def test_normalise_name(name: str, normal: str) -> None:
    assert normalise_name(name) == normal
    assert name_tokens(name) == tuple(normal.split())


@pytest.mark.parametrize(
    ("text", "first"),
    [
        ("acmee", ["acme"]),
        ("kestrel", ["kps"]),
        ("tamarak", ["tp"]),
        ("cafe", ["cafe"]),
        ("nwl", ["nwl"]),
        ("tp", ["tp"]),
    ],
)
def test_suggest_puts_the_closest_company_first(text: str, first: list[str]) -> None:
    assert INDEX.suggest(text, limit=1) == first


def test_suggest_ranks_both_near_companies_above_the_rest() -> None:
    assert sorted(INDEX.suggest("northwnd", limit=2)) == ["nwl", "nwo"]


@pytest.mark.parametrize("limit", [0, 1, 3, 6, 10])
def test_suggest_returns_distinct_slugs_up_to_the_limit(limit: int) -> None:
    for text in ("", "zzz", "acme"):
        slugs = INDEX.suggest(text, limit=limit)
        assert len(slugs) == min(limit, len(REPORTS))
        assert len(set(slugs)) == len(slugs)


def test_an_empty_index_finds_nothing() -> None:
    index = CompanyIndex([])
    assert index.detect("Northwind").status == "none"
    assert index.suggest("Northwind") == []


def test_detect_is_fast_on_a_long_message_with_ten_reports() -> None:
    extra = [report(f"co{i}", f"Meridian Holdings {i}", [f"Meridian {i}"]) for i in range(4)]
    index = CompanyIndex(REPORTS + extra)
    words = re.findall(r"\w+", " ".join(ORDINARY[:9]))
    message = (" ".join(words) + " Nortwind Outfiters and kestrelpoint ") * 3
    message = message[-500:]
    assert index.detect(message).slugs == ["kps", "nwo"]
    runs = []
    for _ in range(200):
        started = time.perf_counter()
        index.detect(message)
        runs.append(time.perf_counter() - started)
    assert statistics.median(runs) < 0.001
