"""Typed facts (DESIGN §3): every leaf of a report read once, at load, into what it means.

``compile_facts`` builds them (``Report.facts`` caches them per report); ``explain`` prints
each leaf's reading for an operator; ``display`` formats values as a rep says them.
"""

from __future__ import annotations

from prism_slack.facts.compile import ReportFacts, compile_facts
from prism_slack.facts.explain import explain
from prism_slack.facts.model import (
    FactKind,
    Granularity,
    Quantity,
    Series,
    SeriesPoint,
    Source,
    TypedFact,
    Unit,
    When,
)

__all__ = [
    "FactKind",
    "Granularity",
    "Quantity",
    "ReportFacts",
    "Series",
    "SeriesPoint",
    "Source",
    "TypedFact",
    "Unit",
    "When",
    "compile_facts",
    "explain",
]
