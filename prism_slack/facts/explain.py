"""Each leaf's typed reading, as an operator checks it before reps see it
(``prism reports show SLUG``)."""

from __future__ import annotations

import json
from collections.abc import Iterator

from prism_slack.evidence import EvidenceMap
from prism_slack.facts.compile import ReportFacts
from prism_slack.facts.model import FactKind


def explain(facts: ReportFacts, evidence: EvidenceMap, *, passages: bool = False) -> Iterator[str]:
    """``path = stored value → reading`` a leaf, in document order, then each series.
    Passages are summarised unless ``passages`` is true; untyped leaves say why."""
    for leaf in evidence:
        fact = facts.by_path.get(leaf.path)
        if fact is None:
            continue
        stored = leaf.value if isinstance(leaf.value, str) else json.dumps(leaf.value)
        if fact.kind is FactKind.PASSAGE and not passages:
            yield f"{leaf.path} = passage, {len(str(stored).split())} words"
            continue
        if len(stored) > 60:
            stored = stored[:57] + "…"
        marker = "  ⚠ untyped" if fact.kind is FactKind.UNTYPED else ""
        yield f"{leaf.path} = {stored} → {fact.label}: {fact.reading()}{marker}"
    for path, fact in facts.series.items():
        yield f"{path} → series {fact.label}: {fact.display}"
