"""Cases for numeric fields: money, percents, fractions, counts, decimals, amounts with units.

Every number is written through ``numfmt`` so the sweep knows what it states; a correct case
must state the field's value (asserted), a fabricated one must not (else it is skipped).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import replace
from decimal import Decimal

from . import templates as T
from .cases import Case, Ctx, cap, possessive
from .fields import NUMERIC, Field, Kind
from .numfmt import (
    UNIT_SECONDS,
    Form,
    FormKind,
    Shown,
    change_digit,
    places_of,
    quantize,
    scale_for,
    shift_decimal,
    swap_scale_word,
    truncate,
    write,
    write_mantissa,
)

MAX_TIDY_PLACES = 3
"""A scaled mantissa needing more decimals than this is not written exactly (61.382915M)."""
_UNIT_CONVERSIONS = {"ms": "s", "s": "ms", "min": "s", "h": "min"}
_UNIT_SLIPS = {"ms": "s", "s": "ms", "min": "h", "h": "min"}


def truth(f: Field, form: Form) -> Decimal:
    """The field's value in the units of ``form``."""
    if form.kind == "percent":
        return f.value * 100 if f.kind is Kind.FRACTION else f.value
    if form.kind == "plain" and f.kind is Kind.PERCENT:
        return f.value / 100
    convertible = f.unit in UNIT_SECONDS and form.unit in UNIT_SECONDS
    if form.kind == "unit" and f.unit and form.unit and form.unit != f.unit and convertible:
        return f.value * UNIT_SECONDS[f.unit] / UNIT_SECONDS[form.unit]
    return f.value


_FORM_KINDS: dict[Kind, FormKind] = {
    Kind.MONEY: "money",
    Kind.PERCENT: "percent",
    Kind.UNIT: "unit",
}


def base_form(f: Field, style: int = 0) -> Form:
    return Form(_FORM_KINDS.get(f.kind, "plain"), style=style, unit=f.unit)


def exact(f: Field, rng: random.Random) -> Shown:
    """The value as stored (a scaled string such as ``$41.2M`` keeps its scale)."""
    if f.kind is Kind.MONEY and f.text and any(c.isalpha() for c in f.text.replace("USD", "")):
        scaled = scaled_exact(f, rng)
        if scaled is not None:
            return scaled
    form = base_form(f, rng.randrange(3))
    return write(truth(f, form), f.places, form)


def scaled_exact(f: Field, rng: random.Random) -> Shown | None:
    """The exact value with a scale word (``$412.5M``) or in a converted unit (``0.64 s``)."""
    if f.kind is Kind.UNIT:
        target = _UNIT_CONVERSIONS.get(f.unit or "")
        if target is None:
            return None
        form = Form("unit", unit=target, style=rng.randrange(2))
        value = truth(f, form)
        places = places_of(value)
        return write(value, places, form) if places <= MAX_TIDY_PLACES else None
    if f.kind not in (Kind.MONEY, Kind.COUNT) or abs(f.value) < 1000:
        return None
    scale = scale_for(f.value)
    places = places_of(f.value / Decimal(10) ** scale)
    if places > MAX_TIDY_PLACES:
        return None
    form = Form("money" if f.kind is Kind.MONEY else "plain", scale, rng.randrange(4))
    return write(f.value, places, form)


def roundings(f: Field, rng: random.Random) -> list[Shown]:
    """Correct roundings of the value to a coarser shown precision."""
    out: list[Shown] = []
    if f.kind in (Kind.MONEY, Kind.COUNT) and abs(f.value) >= 1000:
        scale = scale_for(f.value)
        form = Form("money" if f.kind is Kind.MONEY else "plain", scale, rng.randrange(4))
        need = places_of(f.value / Decimal(10) ** scale)
        out += [write(f.value, p, form) for p in range(min(need, MAX_TIDY_PLACES))]
    elif f.kind is Kind.FRACTION:
        form = Form("percent", style=rng.randrange(2))
        out += [write(f.value * 100, p, form) for p in range(places_of(f.value * 100))]
    else:
        form = base_form(f, rng.randrange(3))
        out += [write(f.value, p, form) for p in range(places_of(f.value))]
    integral = f.value == f.value.to_integral_value()
    if integral and 10 <= abs(f.value) < 100_000 and f.kind in (Kind.COUNT, Kind.UNIT):
        digits = len(str(abs(int(f.value))))
        keep = 2 if digits >= 3 else 1
        rounded = quantize(f.value, -(digits - keep)).quantize(Decimal(1))
        if rounded != f.value:
            hedged = replace(base_form(f, rng.randrange(3)), hedge=True)
            out.append(write_mantissa(rounded, 0, hedged))
    exact_texts = {write(truth(f, s.form), f.places, s.form).text for s in out}
    kept = [s for s in out if s.states(truth(f, s.form)) and s.text not in exact_texts]
    assert all(s.states(truth(f, s.form)) for s in kept)
    return kept


def value_text(ctx: Ctx, f: Field, v: str, rng: random.Random) -> str:
    co = ctx.company(rng)
    pool = T.HEADCOUNT if f.key == "employees" else T.VALUE
    return rng.choice(pool).format(m=f.measure, v=v, co=co, cos=possessive(co))


def _growth_base(f: Field) -> str:
    words = [w for w in f.measure.split() if w not in ("growth", "change")]
    return cap(" ".join(words) or f.measure)


def _abs_text(shown: Shown) -> str:
    return shown.text.lstrip("-")


def numeric_cases(ctx: Ctx, f: Field) -> Iterator[Case]:
    """Every correct and fabricated case of one numeric field."""
    yield from _correct(ctx, f)
    yield from _fabricated(ctx, f)


def _correct(ctx: Ctx, f: Field) -> Iterator[Case]:
    rng = ctx.rng(f.path, "correct")
    ex = exact(f, rng)
    assert ex.states(truth(f, ex.form)), (f.path, ex)
    if not f.growth or f.value >= 0:
        yield ctx.case("exact", f, value_text(ctx, f, ex.text, rng), [f.path])
    else:
        yield ctx.case("exact", f, rng.choice(T.VALUE[:2]).format(m=f.measure, v=ex.text), [f.path])
    rounded = roundings(f, rng)
    for shown in rng.sample(rounded, k=min(2, len(rounded))):
        yield ctx.case("rounded", f, value_text(ctx, f, shown.text, rng), [f.path])
    scaled = scaled_exact(f, rng)
    if scaled is not None:
        assert scaled.states(truth(f, scaled.form))
        yield ctx.case("scale_words", f, value_text(ctx, f, scaled.text, rng), [f.path])
    if f.kind is Kind.FRACTION or (f.kind is Kind.PERCENT and not f.growth):
        form = Form("percent" if f.kind is Kind.FRACTION else "plain", style=rng.randrange(2))
        value = truth(f, form)
        shown = write(value, places_of(value), form)
        assert shown.states(value)
        yield ctx.case("fraction_percent", f, value_text(ctx, f, shown.text, rng), [f.path])
    if f.growth:
        pool = T.GROWTH_DOWN if f.value < 0 else T.GROWTH_UP
        text = rng.choice(pool).format(B=_growth_base(f), v=_abs_text(ex))
        yield ctx.case("direction_word", f, text, [f.path])
    fiscal = _fiscal_field(ctx)
    if fiscal is not None and f.section == "financials":
        text = rng.choice(T.FISCAL_VALUE).format(fy=fiscal.text, m=f.measure, v=ex.text)
        yield ctx.case("period_qualified", f, text, [f.path, fiscal.path])
    if not f.growth:
        shown = rng.choice([ex, *rounded])
        text = rng.choice(T.COACH_VALUE).format(m=f.measure, v=shown.text)
        yield ctx.case("coaching_cited", f, text, [f.path], kind="coaching")


def _fiscal_field(ctx: Ctx) -> Field | None:
    return next((g for g in ctx.fields if g.kind is Kind.FISCAL), None)


def _wrong(ctx: Ctx, cls: str, f: Field, shown: Shown | None) -> bool:
    """Is ``shown`` a usable falsehood about ``f``? Records a skip when it is not."""
    if shown is None:
        ctx.not_applicable(cls, "no such form")
        return False
    if shown.states(truth(f, shown.form)):
        ctx.skip(cls, "would be true at the precision it shows")
        return False
    return True


def digit_changed(ctx: Ctx, cls: str, f: Field, rng: random.Random) -> Shown | None:
    """A digit of the exact, scaled or a rounded form changed, never to a true value."""
    bases = [exact(f, rng), *roundings(f, rng)]
    bases = [b for b in bases if not b.form.hedge]
    scaled = scaled_exact(f, rng)
    if scaled is not None:
        bases.append(scaled)
    for _ in range(6):
        changed = change_digit(rng.choice(bases), rng)
        if not changed.states(truth(f, changed.form)):
            return changed
        ctx.skip(cls, "digit change equals a valid rounding")
    return None


def _fabricated(ctx: Ctx, f: Field) -> Iterator[Case]:
    rng = ctx.rng(f.path, "fabricated")
    ex = exact(f, rng)

    changed = digit_changed(ctx, "digit_change", f, rng)
    if changed is not None:
        yield ctx.case(
            "digit_change",
            f,
            value_text(ctx, f, changed.text, rng),
            [f.path],
            note=f"{f.value} → {changed.text}",
        )

    slipped = _scale_slip(f, ex, scaled_exact(f, rng), rng)
    if _wrong(ctx, "scale_x10", f, slipped) and slipped is not None:
        yield ctx.case(
            "scale_x10",
            f,
            value_text(ctx, f, slipped.text, rng),
            [f.path],
            note=f"{f.value} → {slipped.text}",
        )

    if f.kind in (Kind.FRACTION, Kind.PERCENT):
        form = Form("percent", style=rng.randrange(2))
        mantissa = f.value if f.kind is Kind.FRACTION else f.value / 100
        slip = write(mantissa, places_of(mantissa), form)
        if _wrong(ctx, "percent_x100", f, slip):
            yield ctx.case(
                "percent_x100",
                f,
                value_text(ctx, f, slip.text, rng),
                [f.path],
                note=f"{f.value} → {slip.text}",
            )

    wrong_round = _rounding_error(f, rng)
    if _wrong(ctx, "rounding_error", f, wrong_round) and wrong_round is not None:
        yield ctx.case(
            "rounding_error",
            f,
            value_text(ctx, f, wrong_round.text, rng),
            [f.path],
            note=f"{f.value} → {wrong_round.text}",
        )

    yield from _sign_flip(ctx, f, ex, rng)
    yield from _attribute_swap(ctx, f, rng)
    yield from _other_company(ctx, f, rng)

    fiscal = _fiscal_field(ctx)
    if fiscal is not None and f.section == "financials":
        shifted = int(fiscal.value) + rng.choice((-1, 1))
        fy = fiscal.text.replace(str(int(fiscal.value)), str(shifted))
        text = rng.choice(T.FISCAL_VALUE).format(fy=fy, m=f.measure, v=ex.text)
        yield ctx.case("period_shift", f, text, [f.path, fiscal.path], note=f"{fiscal.text} → {fy}")

    if not f.growth:
        wrong = digit_changed(ctx, "smuggled_coaching", f, rng)
        if wrong is not None:
            text = rng.choice(T.COACH_VALUE).format(m=f.measure, v=wrong.text)
            cited = rng.choice(([], [f.path]))
            yield ctx.case(
                "smuggled_coaching",
                f,
                text,
                cited,
                kind="coaching",
                note=f"wrong figure {wrong.text}, cites {cited or 'nothing'}",
            )
        text = rng.choice(T.COACH_VALUE).format(m=f.measure, v=ex.text)
        yield ctx.case(
            "smuggled_coaching", f, text, [], kind="coaching", note="right figure, cites nothing"
        )


def _scale_slip(f: Field, ex: Shown, scaled: Shown | None, rng: random.Random) -> Shown | None:
    base = rng.choice([s for s in (ex, scaled) if s is not None])
    options: list[Shown] = [shift_decimal(base, 1), shift_decimal(base, -1)]
    swapped = swap_scale_word(base)
    if swapped is not None:
        options.append(swapped)
    if base.form.kind == "unit" and base.form.unit in _UNIT_SLIPS:
        unit = _UNIT_SLIPS[base.form.unit]
        options.append(write_mantissa(base.mantissa, base.places, replace(base.form, unit=unit)))
    return rng.choice(options)


def _rounding_error(f: Field, rng: random.Random) -> Shown | None:
    candidates = [s for s in roundings(f, rng) if not s.form.hedge]
    if not candidates:
        return None
    shown = rng.choice(candidates)
    value = truth(f, shown.form) / Decimal(10) ** shown.form.scale
    unit = Decimal(1).scaleb(-shown.places)
    options = [truncate(value, shown.places), shown.mantissa + unit, shown.mantissa - unit]
    for mantissa in options:
        wrong = write_mantissa(mantissa, shown.places, shown.form)
        if mantissa != shown.mantissa and not wrong.states(truth(f, wrong.form)) and mantissa > 0:
            return wrong
    return None


def _sign_flip(ctx: Ctx, f: Field, ex: Shown, rng: random.Random) -> Iterator[Case]:
    if f.kind in (Kind.COUNT, Kind.UNIT) or f.value == 0:
        return
    v = _abs_text(ex)
    if f.growth:
        pool = T.GROWTH_UP if f.value < 0 else T.GROWTH_DOWN
        text = rng.choice(pool).format(B=_growth_base(f), v=v)
        yield ctx.case("sign_flip", f, text, [f.path], note="direction word reversed")
        if f.value < 0:
            text = rng.choice(T.VALUE[:2]).format(m=f.measure, v=v)
            yield ctx.case("sign_flip", f, text, [f.path], note="sign dropped")
            return
    if f.value > 0:
        text = rng.choice(T.NEGATIVE).format(m=f.measure, v=v)
        yield ctx.case("sign_flip", f, text, [f.path], note="negative sign added")


def _family(f: Field) -> tuple[Kind, str | None]:
    kind = Kind.PERCENT if f.kind is Kind.FRACTION else f.kind
    return kind, f.unit


def _attribute_swap(ctx: Ctx, f: Field, rng: random.Random) -> Iterator[Case]:
    siblings = [
        g
        for g in ctx.fields
        if g.kind in NUMERIC
        and g.path != f.path
        and _family(g) == _family(f)
        and g.measure != f.measure
        and not g.growth
        and not f.growth
    ]
    near = [g for g in siblings if g.section == f.section] or siblings
    if not near:
        ctx.not_applicable("attribute_swap", "no sibling field of the same kind")
        return
    g = rng.choice(near)
    form = Form("percent") if f.kind in (Kind.FRACTION, Kind.PERCENT) else base_form(g)
    value = truth(g, form)
    shown = write(value, places_of(value), form)
    if shown.states(truth(f, form)):
        ctx.skip("attribute_swap", "would be true (sibling holds the same value)")
        return
    text = value_text(ctx, f, shown.text, rng)
    yield ctx.case(
        "attribute_swap", f, text, [g.path], note=f"{g.path} = {g.value} stated as {f.measure}"
    )


def _other_company(ctx: Ctx, f: Field, rng: random.Random) -> Iterator[Case]:
    matches = [
        g
        for fields in ctx.other_fields.values()
        for g in fields
        if g.kind is f.kind and (g.path == f.path or g.key == f.key) and g.unit == f.unit
    ]
    if not matches:
        ctx.not_applicable("other_company", "no other report has this field")
        return
    g = rng.choice(matches)
    shown = exact(g, rng)
    if shown.states(truth(f, shown.form)):
        ctx.skip("other_company", "would be true (same value)")
        return
    if f.growth and g.value < 0 < f.value:
        text = rng.choice(T.VALUE[:2]).format(m=f.measure, v=shown.text)
    else:
        text = value_text(ctx, f, shown.text, rng)
    yield ctx.case(
        "other_company", f, text, [f.path], note=f"{g.path} of another report = {g.value}"
    )


def pair_cases(ctx: Ctx) -> Iterator[Case]:
    """One right and one wrong figure in one claim: neighbouring numeric fields of a section."""
    numeric = [f for f in ctx.fields if f.kind in NUMERIC and not f.growth]
    for a, b in itertools.pairwise(numeric):
        if a.section != b.section:
            continue
        rng = ctx.rng(a.path, b.path, "pair")
        wrong_second = rng.random() < 0.5
        right_f, wrong_f = (a, b) if wrong_second else (b, a)
        right = exact(right_f, rng)
        wrong = digit_changed(ctx, "one_right_one_wrong", wrong_f, rng)
        if wrong is None:
            continue
        if wrong.states(truth(right_f, wrong.form)):
            ctx.skip("one_right_one_wrong", "wrong figure equals the other field")
            continue
        first, second = ((a, right), (b, wrong)) if wrong_second else ((a, wrong), (b, right))
        text = rng.choice(T.PAIR).format(
            m1=first[0].measure, v1=first[1].text, m2=second[0].measure, v2=second[1].text
        )
        yield ctx.case(
            "one_right_one_wrong",
            wrong_f,
            text,
            [a.path, b.path],
            note=f"{wrong_f.path}: {wrong_f.value} → {wrong.text}",
        )
