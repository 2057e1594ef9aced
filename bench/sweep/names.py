"""Cases for names: vendors (and the tech stack), competitors, people (stakeholders, auditor).

Swaps take a name from another report; a swap that the cited value already holds, or that
shares a word with the true name (``Salesforce Sales Cloud`` for ``Salesforce Health
Cloud``), is skipped: it could be read as true.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from . import templates as T
from .cases import Case, Ctx, contains_name, shares_a_name
from .fields import Field, Kind

_HONORIFIC = re.compile(r"^(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+")


def variants(name: str) -> list[str]:
    """The name in other case or punctuation, each different from the name as written."""
    out = [
        _HONORIFIC.sub("", name),
        re.sub(r"\s+", " ", re.sub(r"\.(?=\s|$)|(?<=\w)[-/](?=\w)", " ", name)).strip(),
        name.upper(),
        " ".join(w[:1].upper() + w[1:].lower() for w in name.split()),
    ]
    return [v for v in dict.fromkeys(out) if v and v != name]


def _pool(ctx: Ctx, f: Field) -> list[Field]:
    """Names of the same kind from the other reports, the same key first."""
    kinds = {Kind.VENDOR, Kind.COMPETITOR} if f.kind is not Kind.PERSON else {Kind.PERSON}
    found = [g for fields in ctx.other_fields.values() for g in fields if g.kind in kinds]
    same_key = [g for g in found if g.key == f.key]
    return same_key or found


def _cited_text(ctx: Ctx, paths: list[str]) -> str:
    leaves = [leaf for p in paths for leaf in ctx.report.evidence.resolve(p) or []]
    return " ".join(leaf.render() for leaf in leaves)


def _swap(ctx: Ctx, cls: str, f: Field, cited: list[str], rng: random.Random) -> str | None:
    """Another report's name that is certainly not true here, or ``None``."""
    candidates = _pool(ctx, f)
    rng.shuffle(candidates)
    haystack = _cited_text(ctx, cited) + " " + " ".join(ctx.company_names)
    for g in candidates:
        if contains_name(haystack, g.text) or shares_a_name(g.text, f.text):
            ctx.skip(cls, "would be true (the swapped name is in the cited values)")
            continue
        return g.text
    return None


def _say(ctx: Ctx, f: Field, name: str, rng: random.Random) -> tuple[str, list[str]]:
    """A statement of the field with ``name`` in it, and what it cites."""
    if f.kind is Kind.VENDOR:
        return rng.choice(T.VENDOR).format(m=f.measure, name=name), [f.path]
    if f.kind is Kind.COMPETITOR:
        return rng.choice(T.COMPETITOR).format(name=name), [f.path]
    info = f.info
    if f.key == "auditor":
        return rng.choice(T.AUDITOR).format(name=name), [f.path]
    if rng.random() < 0.25 and info["role"]:
        return rng.choice(T.PERSON_ROLE).format(name=name, role=info["role"]), [info["object"]]
    cited = rng.choice(([f.path, info["title_path"]], [info["object"]]))
    return rng.choice(T.PERSON).format(name=name, title=info["title"]), cited


def name_cases(ctx: Ctx, f: Field) -> Iterator[Case]:
    rng = ctx.rng(f.path, "name")
    text, cited = _say(ctx, f, f.text, rng)
    yield ctx.case("names_exact", f, text, cited)
    for variant in rng.sample(variants(f.text), k=min(2, len(variants(f.text)))):
        text, cited = _say(ctx, f, variant, rng)
        yield ctx.case("name_variants", f, text, cited, note=f"{f.text} → {variant}")

    swap_cls = "person_swap" if f.kind is Kind.PERSON else "vendor_swap"
    text, cited = _say(ctx, f, "{}", rng)
    swapped = _swap(ctx, swap_cls, f, cited, rng)
    if swapped is not None:
        yield ctx.case(
            swap_cls, f, text.replace("{}", swapped), cited, note=f"{f.text} → {swapped}"
        )

    if f.kind is not Kind.COMPETITOR and f.key != "auditor":
        yield from _coaching(ctx, f, rng)
    yield from _attribute_swap(ctx, f, rng)


def _coaching(ctx: Ctx, f: Field, rng: random.Random) -> Iterator[Case]:
    pool = T.COACH_PERSON if f.kind is Kind.PERSON else T.COACH_VENDOR
    cited = [f.info["object"]] if f.kind is Kind.PERSON else [f.path]
    text = rng.choice(pool).format(name=f.text, m=f.measure)
    yield ctx.case("coaching_cited", f, text, cited, kind="coaching")
    swapped = _swap(ctx, "smuggled_coaching", f, cited, rng)
    if swapped is not None:
        wrong_cited = rng.choice(([], cited))
        text = rng.choice(pool).format(name=swapped, m=f.measure)
        yield ctx.case(
            "smuggled_coaching",
            f,
            text,
            wrong_cited,
            kind="coaching",
            note=f"{f.text} → {swapped}, cites {wrong_cited or 'nothing'}",
        )


def _attribute_swap(ctx: Ctx, f: Field, rng: random.Random) -> Iterator[Case]:
    """A sibling's name stated for this field, citing the sibling (the name is warranted
    there, the attribute is not)."""
    if f.kind is Kind.VENDOR:
        siblings = [
            g
            for g in ctx.fields
            if g.kind is Kind.VENDOR
            and g.path != f.path
            and not shares_a_name(g.text, f.text)
            and g.measure != f.measure
        ]
        if not siblings:
            ctx.not_applicable("attribute_swap", "no sibling vendor")
            return
        g = rng.choice(siblings)
        text = rng.choice(T.VENDOR).format(m=f.measure, name=g.text)
        yield ctx.case(
            "attribute_swap", f, text, [g.path], note=f"{g.path} = {g.text} stated as {f.measure}"
        )
    elif f.kind is Kind.PERSON and f.key != "auditor":
        title = f.info["title"]
        siblings = [
            g
            for g in ctx.fields
            if g.kind is Kind.PERSON
            and g.key != "auditor"
            and g.path != f.path
            and not _title_within(title, g.info["title"])
        ]
        if not siblings:
            ctx.not_applicable("attribute_swap", "no sibling person with another title")
            return
        g = rng.choice(siblings)
        cited = rng.choice(([g.path, g.info["title_path"]], [g.info["object"]]))
        text = rng.choice(T.PERSON).format(name=g.text, title=title)
        yield ctx.case("attribute_swap", f, text, cited, note=f"{g.text} given the title {title!r}")


def _title_within(title: str, other: str) -> bool:
    """Would ``title`` be a fair description of someone titled ``other``?"""
    return set(title.lower().split()) <= set(other.lower().split())


NAME_KINDS = frozenset({Kind.VENDOR, Kind.COMPETITOR, Kind.PERSON})
