"""Cases for scores with their scale (``scores.search_relevance`` with ``scores.max``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from decimal import Decimal

from . import templates as T
from .cases import Case, Ctx, cap
from .fields import Field, Kind


def write_score(value: Decimal, scale: Decimal, style: int) -> str:
    v, s = f"{value.normalize():f}", f"{scale.normalize():f}"
    return (f"{v} out of {s}", f"{v}/{s}")[style % 2]


def _text(ctx: Ctx, f: Field, v: str, rng: random.Random) -> str:
    return rng.choice(T.SCORE).format(m=f.measure, M=cap(f.measure), v=v, co=ctx.company(rng))


def score_cases(ctx: Ctx, f: Field) -> Iterator[Case]:
    assert f.scale is not None and f.scale_path is not None
    rng = ctx.rng(f.path, "score")
    right = write_score(f.value, f.scale, rng.randrange(2))
    cited = rng.choice(([f.path, f.scale_path], [f.path, f.scale_path], ["scores"]))
    yield ctx.case("score_scale", f, _text(ctx, f, right, rng), cited)
    text = rng.choice(T.COACH_SCORE).format(m=f.measure, v=right)
    yield ctx.case("coaching_cited", f, text, [f.path, f.scale_path], kind="coaching")

    wrong_value = rng.choice([n for n in range(int(f.scale) + 1) if n != f.value])
    wrong = write_score(Decimal(wrong_value), f.scale, rng.randrange(2))
    yield ctx.case(
        "digit_change",
        f,
        _text(ctx, f, wrong, rng),
        [f.path, f.scale_path],
        note=f"{f.value} → {wrong_value}",
    )
    text = rng.choice(T.COACH_SCORE).format(m=f.measure, v=wrong)
    yield ctx.case(
        "smuggled_coaching",
        f,
        text,
        rng.choice(([], [f.path, f.scale_path])),
        kind="coaching",
        note=f"wrong score {wrong}",
    )

    other_scale = f.scale * 10 if f.scale <= 10 or f.value > f.scale / 10 else f.scale / 10
    slipped = write_score(f.value, other_scale, rng.randrange(2))
    yield ctx.case(
        "scale_x10",
        f,
        _text(ctx, f, slipped, rng),
        [f.path, f.scale_path],
        note=f"scale {f.scale} → {other_scale}",
    )
    yield ctx.case("uncited", f, _text(ctx, f, right, rng), [f.path], note="scale not cited")

    siblings = [g for g in ctx.fields if g.kind is Kind.SCORE and g.value != f.value]
    if siblings:
        g = rng.choice(siblings)
        assert g.scale == f.scale
        swapped = write_score(g.value, f.scale, rng.randrange(2))
        yield ctx.case(
            "attribute_swap",
            f,
            _text(ctx, f, swapped, rng),
            [g.path, f.scale_path],
            note=f"{g.path} = {g.value} stated as {f.measure}",
        )
    else:
        ctx.not_applicable("attribute_swap", "no sibling score with another value")
