"""What the generators produce: cases (one claim each), their classes, and the context they
are generated in — the report, the other reports (for swaps), a seeded random source per
(field, class), and the count of perturbations skipped because they would be true."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from prism_slack.claims import Claim, ClaimKind
from prism_slack.reports.model import Report

from .fields import Field, fields_of

Polarity = Literal["correct", "fabricated"]

CORRECT_CLASSES: tuple[str, ...] = (
    "exact",
    "rounded",
    "scale_words",
    "fraction_percent",
    "direction_word",
    "date_formats",
    "period_qualified",
    "score_scale",
    "names_exact",
    "name_variants",
    "finding_text",
    "coaching_cited",
)
FABRICATED_CLASSES: tuple[str, ...] = (
    "digit_change",
    "scale_x10",
    "percent_x100",
    "rounding_error",
    "sign_flip",
    "vendor_swap",
    "person_swap",
    "attribute_swap",
    "period_shift",
    "uncited",
    "dangling_path",
    "smuggled_coaching",
    "other_company",
    "one_right_one_wrong",
    "invented_finding",
)
CLASSES: dict[str, Polarity] = {
    **dict.fromkeys(CORRECT_CLASSES, "correct"),
    **dict.fromkeys(FABRICATED_CLASSES, "fabricated"),
}
DESCRIPTIONS: dict[str, str] = {
    "exact": "a value as stored",
    "rounded": "rounded to the precision the claim shows",
    "scale_words": "k/M/B, thousand/million/billion, $ and USD; unit conversions",
    "fraction_percent": "a stored fraction as a percent, a stored percent as a fraction",
    "direction_word": "a change stated with the right direction word",
    "date_formats": "dates in other formats and at coarser granularity; fiscal years",
    "period_qualified": "a figure qualified by its (right) fiscal year",
    "score_scale": "a score with its scale, the scale cited",
    "names_exact": "a vendor, competitor or person as written",
    "name_variants": "a name in another case or punctuation",
    "finding_text": "a finding's title, a sentence of its detail, its severity",
    "coaching_cited": "coaching that carries a correctly cited figure or name",
    "digit_change": "one digit of a figure changed",
    "scale_x10": "a figure ×10 or ÷10, or its scale word or unit swapped",
    "percent_x100": "a fraction written as a percent without ×100 (or the reverse)",
    "rounding_error": "a figure rounded wrongly for the precision it shows",
    "sign_flip": "the direction word reversed, or a sign added or dropped",
    "vendor_swap": "a vendor or competitor swapped for another report's",
    "person_swap": "a person swapped for another report's",
    "attribute_swap": "a sibling field's value or name, cited from that sibling",
    "period_shift": "a fiscal year, date, quarter or year shifted",
    "uncited": "a correct fact citing nothing (or a score without its scale)",
    "dangling_path": "a correct fact citing a path that does not resolve",
    "smuggled_coaching": "coaching carrying an uncited or wrongly cited figure or name",
    "other_company": "another report's figure for the same field",
    "one_right_one_wrong": "two figures in one claim, one of them wrong",
    "invented_finding": "another report's finding citing an unrelated finding here",
}


@dataclass(frozen=True, slots=True)
class Case:
    """One generated claim and what it is."""

    slug: str
    cls: str
    claim: Claim
    field: str
    """The field the claim was generated from."""
    note: str = ""
    """What was changed, for a fabricated claim (``412.5 → 415.5``)."""

    @property
    def polarity(self) -> Polarity:
        return CLASSES[self.cls]

    @property
    def ident(self) -> str:
        return (
            f"{self.slug}|{self.cls}|{self.field}|{self.claim.text}|{','.join(self.claim.evidence)}"
        )


class Ctx:
    """The context one report's cases are generated in."""

    def __init__(self, report: Report, others: Iterable[Report], seed: int) -> None:
        self.report = report
        self.others = [r for r in others if r.slug != report.slug]
        self.seed = seed
        self.fields = fields_of(report)
        self.other_fields = {r.slug: fields_of(r) for r in self.others}
        self.skipped: Counter[tuple[str, str]] = Counter()
        self.inapplicable: Counter[tuple[str, str]] = Counter()
        company = report.company
        self.company_names = [company.name, *company.aliases]

    def rng(self, *parts: str) -> random.Random:
        """A random source seeded by the report, the field and the class: the same cases
        come out whatever else is generated, and on every run."""
        return random.Random(":".join([str(self.seed), self.report.slug, *parts]))

    def skip(self, cls: str, reason: str) -> None:
        """A perturbation left out because it would (or could) be true."""
        self.skipped[(cls, reason)] += 1

    def not_applicable(self, cls: str, reason: str) -> None:
        """A perturbation that does not apply to this field (no sibling, no such form)."""
        self.inapplicable[(cls, reason)] += 1

    def case(
        self,
        cls: str,
        f: Field,
        text: str,
        evidence: list[str],
        *,
        kind: ClaimKind = "fact",
        note: str = "",
    ) -> Case:
        assert cls in CLASSES, cls
        claim = Claim(text=text, kind=kind, evidence=evidence)
        return Case(self.report.slug, cls, claim, f.path, note)

    def company(self, rng: random.Random) -> str:
        return rng.choice(self.company_names)

    def resolves(self, path: str) -> bool:
        return self.report.evidence.resolve(path) is not None


# --- ground-truth checks used to skip perturbations that would be true --------------------

_TOKENS = re.compile(r"[a-z0-9]+")
_LEGAL = frozenset({"inc", "llc", "ltd", "co", "corp", "plc", "gmbh"})


def name_tokens(text: str) -> list[str]:
    """Lower-case alphanumeric tokens, legal suffixes dropped (``Bill.com`` → bill, com)."""
    return [t for t in _TOKENS.findall(text.lower()) if t not in _LEGAL]


def contains_name(haystack: str, name: str) -> bool:
    """Does ``haystack`` hold ``name`` as a run of whole tokens (case and punctuation
    ignored)? A swapped name that does is (partly) true, and is skipped."""
    needle, hay = name_tokens(name), name_tokens(haystack)
    if not needle:
        return True
    n = len(needle)
    return any(hay[i : i + n] == needle for i in range(len(hay) - n + 1))


def shares_a_name(a: str, b: str) -> bool:
    """Do two names share a token (``Salesforce Health Cloud`` / ``Salesforce Sales Cloud``)?"""
    return bool(set(name_tokens(a)) & set(name_tokens(b)) - {"cloud", "sales"})


def possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def numbers_in(text: str) -> list[Decimal]:
    """Plain numbers written in a text (commas dropped), for collision checks."""
    return [Decimal(m.replace(",", "")) for m in re.findall(r"(?<![\w.])\d[\d,]*(?:\.\d+)?", text)]
