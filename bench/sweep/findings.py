"""Cases for findings: titles, detail sentences, severities, the figures inside details,
and invented findings (another report's finding citing an unrelated one here)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from decimal import Decimal

from . import templates as T
from .cases import Case, Ctx, numbers_in
from .fields import Field, Kind

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9])")
_NUMBER = re.compile(r"(?<![\w.$/\-])\d[\d,]*(?:\.\d+)?(?![\w/])")
_WORD = re.compile(r"[a-z]+")
_YEAR = re.compile(r"(?<![\w\-/.])(?:FY)?((?:19|20)\d\d)(?![\w\-/])")
_STOP_WORDS = """
    a an the and or of to in on for at by with from is are was were be been has have had
    not no but than that this their its it as into over about after before only still most
    more less every each any all so such there they them which who what when where while
"""
_STOP = frozenset(_STOP_WORDS.split())
MAX_FINDING_OVERLAP = 0.5
"""An invented finding sharing more of its content words with the cited one is skipped."""


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s.strip()]


def figures(sentence: str) -> list[re.Match[str]]:
    """The figures of a sentence that a digit change may touch (years are periods, not
    figures)."""
    out = []
    for m in _NUMBER.finditer(sentence):
        raw = m.group(0).replace(",", "")
        if re.fullmatch(r"(19|20)\d\d", raw):
            continue
        out.append(m)
    return out


def sentence_of(title: str) -> str:
    """A title as a claim sentence (with a full stop)."""
    return title if title.endswith((".", "!", "?")) else f"{title}."


def content_words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP and len(w) > 2}


def _tolerance(raw: str) -> Decimal:
    places = len(raw.split(".")[1]) if "." in raw else 0
    return Decimal(1).scaleb(-places) / 2


def change_figure(sentence: str, m: re.Match[str], rng: random.Random, cited: str) -> str | None:
    """``sentence`` with one digit of figure ``m`` changed, unless the new figure is a value
    the cited text holds anyway (then it would be warranted whatever it claims)."""
    raw = m.group(0)
    positions = [i for i, c in enumerate(raw) if c.isdigit()]
    i = rng.choice(positions)
    leading = i == positions[0] and len(raw.replace(",", "").split(".")[0]) > 1
    digit = rng.choice([d for d in "0123456789" if d != raw[i] and not (leading and d == "0")])
    new = raw[:i] + digit + raw[i + 1 :]
    value, tol = Decimal(new.replace(",", "")), _tolerance(new)
    held = numbers_in(cited)
    if any(abs(value - x * k) <= tol for x in held for k in (1, 100, Decimal("0.01"))):
        return None
    return sentence[: m.start()] + new + sentence[m.end() :]


def _shifted_year(ctx: Ctx, f: Field, sentence: str, path: str) -> Iterator[Case]:
    """A year (or fiscal year) in a detail sentence moved by one to three years."""
    found = list(_YEAR.finditer(sentence))
    if not found:
        return
    rng = ctx.rng(f.path, sentence, "year")
    m = rng.choice(found)
    year = int(m.group(1)) + rng.choice((-1, 1)) * rng.randint(1, 3)
    if str(year) in f.info["detail"]:
        ctx.skip("period_shift", "the shifted year is another year of the cited detail")
        return
    text = sentence[: m.start(1)] + str(year) + sentence[m.end(1) :]
    moved = m.group(0).replace(m.group(1), str(year))
    yield ctx.case("period_shift", f, text, [path], note=f"{m.group(0)} → {moved} in the detail")


def finding_cases(ctx: Ctx, f: Field) -> Iterator[Case]:
    rng = ctx.rng(f.path, "finding")
    info = f.info
    title_cite = rng.choice(([f"{f.path}.title"], [f.path]))
    yield ctx.case("finding_text", f, sentence_of(info["title"]), title_cite)
    detail_path = f"{f.path}.detail"
    parts = sentences(info["detail"])
    if parts:
        yield ctx.case("finding_text", f, rng.choice(parts), [detail_path])
    text = rng.choice(T.SEVERITY).format(id=info["id"], severity=info["severity"])
    yield ctx.case("finding_text", f, text, [f.path])

    for sentence in parts:
        yield from _shifted_year(ctx, f, sentence, detail_path)
        found = figures(sentence)
        if not found:
            continue
        srng = ctx.rng(f.path, sentence, "figures")
        changed = change_figure(sentence, srng.choice(found), srng, info["detail"])
        if changed is None:
            ctx.skip("digit_change", "new figure is another value of the cited detail")
        else:
            yield ctx.case("digit_change", f, changed, [detail_path], note="a figure in the detail")
        if len(found) >= 2:
            wrong = change_figure(sentence, srng.choice(found), srng, info["detail"])
            if wrong is None:
                ctx.skip("one_right_one_wrong", "new figure is another value of the cited detail")
            else:
                yield ctx.case(
                    "one_right_one_wrong",
                    f,
                    wrong,
                    [detail_path],
                    note="one of two figures in a detail sentence",
                )

    yield ctx.case(
        "coaching_cited",
        f,
        rng.choice(T.COACH_FINDING).format(id=info["id"]),
        [f"{f.path}.id"],
        kind="coaching",
    )
    count = sum(1 for g in ctx.fields if g.kind is Kind.FINDING)
    prefix = info["id"].rsplit("-", 1)[0]
    bogus = f"{prefix}-{count + rng.randint(1, 4)}"
    yield ctx.case(
        "smuggled_coaching",
        f,
        rng.choice(T.COACH_FINDING).format(id=bogus),
        rng.choice(([], [f"{f.path}.id"])),
        kind="coaching",
        note=f"no finding {bogus}",
    )
    yield from _invented(ctx, f, rng)


def _invented(ctx: Ctx, f: Field, rng: random.Random) -> Iterator[Case]:
    """Two of another report's findings, citing this finding: a title or detail sentence
    with no figure (only the content check can catch it), and a detail sentence."""
    mine = content_words(f.info["title"] + " " + f.info["detail"])
    others = [g for fields in ctx.other_fields.values() for g in fields if g.kind is Kind.FINDING]
    plain = [
        t
        for g in others
        for t in (sentence_of(g.info["title"]), *sentences(g.info["detail"]))
        if not any(c.isdigit() for c in t)
    ]
    detail = [t for g in others for t in sentences(g.info["detail"])]
    for pool, note in ((plain, "no figure"), (detail, "a detail sentence")):
        rng.shuffle(pool)
        for text in pool:
            words = content_words(text)
            if not words or len(words & mine) / len(words) > MAX_FINDING_OVERLAP:
                ctx.skip("invented_finding", "shares most words with the cited finding")
                continue
            cited = rng.choice(([f"{f.path}.detail"], [f"{f.path}.title"], [f.path]))
            yield ctx.case("invented_finding", f, text, cited, note=f"another report's, {note}")
            break
