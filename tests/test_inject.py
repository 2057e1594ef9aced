"""The injected report listing: compact, yet every leaf's exact path can be read back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from prism_slack.evidence import join_key
from prism_slack.pipeline.inject import report_listing, split_path
from prism_slack.reports.model import build_report
from prism_slack.reports.store import FileReportStore

REPORTS = FileReportStore(Path(__file__).resolve().parent.parent / "reports")


def read_back(listing: str) -> list[tuple[str, str]]:
    """Rebuild (path, value) pairs the way the prompt tells the model to."""
    pairs, prefix = [], ""
    for line in listing.splitlines():
        if line.startswith("[") and " = " not in line:
            prefix = line[1:-1]
            continue
        key, _, value = line.partition(" = ")
        path = prefix + key if key.startswith("[") else (f"{prefix}.{key}" if prefix else key)
        pairs.append((path, value))
    return pairs


def test_every_sample_report_reads_back_exactly() -> None:
    for report in REPORTS.all():
        expected = [(leaf.path, leaf.render()) for leaf in report.evidence]
        assert read_back(report_listing(report)) == expected


def test_listing_is_smaller_than_raw_json() -> None:
    for report in REPORTS.all():
        raw = json.dumps(report.data, indent=2, ensure_ascii=False)
        assert len(report_listing(report)) < 0.9 * len(raw)


def test_split_path() -> None:
    assert split_path("financials.revenue_usd") == ("financials", "revenue_usd")
    assert split_path("findings[2]") == ("findings", "[2]")
    assert split_path("findings[2].title") == ("findings[2]", "title")
    assert split_path("top") == ("", "top")


keys = st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True)
scalars = st.one_of(st.integers(), st.text(alphabet="abc xyz", max_size=8), st.booleans())
trees: st.SearchStrategy[Any] = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, min_size=1, max_size=3),
        st.dictionaries(keys, children, min_size=1, max_size=3),
    ),
    max_leaves=12,
)


@given(st.dictionaries(keys, trees, min_size=1, max_size=4))
def test_any_nested_report_reads_back(body: dict[str, Any]) -> None:
    data = {
        "company": {"name": "Acme", "aliases": []},
        "report": {"id": "R1", "generated_at": "2026-01-01"},
        **{join_key("", f"x_{k}"): v for k, v in body.items()},
    }
    report = build_report("acme", data)
    expected = [(leaf.path, leaf.render()) for leaf in report.evidence]
    assert read_back(report_listing(report)) == expected
