"""All cases of a report: every eligible field through its kind's generators, plus the
classes that apply to any fact (uncited, dangling path) and pairs of figures."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from prism_slack.reports.model import Report

from .cases import Case, Ctx
from .dates import KIND_CASES
from .fields import NUMERIC, Field, Kind
from .findings import finding_cases
from .names import NAME_KINDS, name_cases
from .numeric import numeric_cases, pair_cases
from .scores import score_cases

DEFAULT_SEED = 8


@dataclass
class Generated:
    """One report's cases, and the perturbations skipped as accidentally true
    ((class, reason) → n)."""

    slug: str
    cases: list[Case] = field(default_factory=list)
    skipped: Counter[tuple[str, str]] = field(default_factory=Counter)
    not_applicable: Counter[tuple[str, str]] = field(default_factory=Counter)
    """(class, reason) → n: perturbations that do not apply to a field (no sibling …)."""


def _by_kind(kind: Kind) -> Callable[[Ctx, Field], Iterable[Case]]:
    if kind in NUMERIC:
        return numeric_cases
    if kind in KIND_CASES:
        return KIND_CASES[kind]
    if kind in NAME_KINDS:
        return name_cases
    if kind is Kind.SCORE:
        return score_cases
    return finding_cases


def generate(report: Report, others: Iterable[Report], seed: int = DEFAULT_SEED) -> Generated:
    """Every case of ``report``; ``others`` lend names and figures to swap in."""
    ctx = Ctx(report, others, seed)
    out = Generated(report.slug)
    seen: set[str] = set()

    def add(cases: Iterable[Case]) -> None:
        for case in cases:
            if case.ident not in seen:
                seen.add(case.ident)
                out.cases.append(case)

    for f in ctx.fields:
        own = list(_by_kind(f.kind)(ctx, f))
        add(own)
        add(_unlinked(ctx, f, own))
    add(pair_cases(ctx))
    out.skipped = ctx.skipped
    out.not_applicable = ctx.inapplicable
    return out


def _unlinked(ctx: Ctx, f: Field, own: list[Case]) -> Iterator[Case]:
    """The field's first correct fact, citing nothing and citing a path that does not exist."""
    first = next((c for c in own if c.polarity == "correct" and c.claim.kind == "fact"), None)
    if first is None:
        return
    text = first.claim.text
    yield ctx.case("uncited", f, text, [], note="cites nothing")
    rng = ctx.rng(f.path, "dangling")
    path = rng.choice(first.claim.evidence)
    bogus = [p for p in dangling_paths(path, rng) if not ctx.resolves(p)]
    if not bogus:
        ctx.not_applicable("dangling_path", "every variant resolves")
        return
    wrong = rng.choice(bogus)
    evidence = [wrong] if rng.random() < 0.7 else [*first.claim.evidence, wrong]
    yield ctx.case("dangling_path", f, text, evidence, note=f"{path} → {wrong}")


def dangling_paths(path: str, rng: random.Random) -> list[str]:
    """Plausible wrong paths near ``path``: a dropped suffix, another case, a typo, a child
    that is not there, an index past the end. The caller keeps those that do not resolve."""
    head, _, last = path.rpartition(".")
    join = (lambda k: f"{head}.{k}") if head else (lambda k: k)
    out = [join(last.upper()), f"{path}.value"]
    key = re.sub(r"\[\d+\]$", "", last)
    if "_" in key:
        out.append(join(key.rsplit("_", 1)[0]))
    letters = [i for i in range(len(key) - 1) if key[i].isalpha() and key[i + 1].isalpha()]
    if letters:
        i = rng.choice(letters)
        out.append(join(key[:i] + key[i + 1] + key[i] + key[i + 2 :]))
    if m := re.search(r"\[(\d+)\]", path):
        out.append(path[: m.start()] + f"[{int(m.group(1)) + 40}]" + path[m.end() :])
    return out


def generate_all(reports: list[Report], seed: int = DEFAULT_SEED) -> list[Generated]:
    return [generate(r, reports, seed) for r in reports]
