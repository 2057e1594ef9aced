"""Numbers as a claim writes them: shown precision, scale words, currency, units, tolerance.

A ``Shown`` number knows what it states (``value``, in the claim's units: dollars, percent
units, a plain number, or an amount of its unit) and how precise it claims to be (``tol``,
half a unit of its last shown digit after scale — widened for a hedged integer such as
``about 1,200``). ``Shown.states(truth)`` is the sweep's own ground truth: a correct claim
must state the truth, a perturbed one must not (otherwise it is skipped as accidentally true).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from typing import Literal

FormKind = Literal["money", "percent", "plain", "unit"]

SCALE_WORDS: dict[int, tuple[str, str]] = {
    3: ("k", "thousand"),
    6: ("M", "million"),
    9: ("B", "billion"),
}

MONEY_SCALED = ("${n}{s}", "${n} {l}", "{n} {l} dollars", "USD {n} {l}")
MONEY_PLAIN = ("${n}", "{n} USD", "{n} dollars")
PLAIN_SCALED = ("{n} {l}", "{n}{s}")
PERCENT_STYLES = ("{n}%", "{n} percent")

UNIT_WORDS: dict[str, tuple[str, ...]] = {
    "ms": ("ms", "milliseconds"),
    "s": ("seconds", "s"),
    "min": ("minutes", "min"),
    "h": ("hours", "h"),
    "days": ("days",),
    "months": ("months",),
}
UNIT_SECONDS: dict[str, Decimal] = {
    "ms": Decimal("0.001"),
    "s": Decimal(1),
    "min": Decimal(60),
    "h": Decimal(3600),
}
UNIT_ALIASES: dict[str, str] = {
    "ms": "ms",
    "millisecond": "ms",
    "milliseconds": "ms",
    "s": "s",
    "sec": "s",
    "secs": "s",
    "second": "s",
    "seconds": "s",
    "min": "min",
    "mins": "min",
    "minute": "min",
    "minutes": "min",
    "h": "h",
    "hr": "h",
    "hrs": "h",
    "hour": "h",
    "hours": "h",
    "day": "days",
    "days": "days",
    "month": "months",
    "months": "months",
}


@dataclass(frozen=True, slots=True)
class Form:
    """How a number is written."""

    kind: FormKind
    scale: int = 0
    """Power of ten of the scale word (0, 3, 6, 9)."""
    style: int = 0
    """Index into the style tuple of the kind (``$4.1M`` vs ``4.1 million dollars``)."""
    unit: str | None = None
    hedge: bool = False
    """Written ``about …``: an integer's trailing zeros are then not significant."""


@dataclass(frozen=True, slots=True)
class Shown:
    """A number as written in a claim, and what it states."""

    text: str
    value: Decimal
    tol: Decimal
    mantissa: Decimal
    places: int
    form: Form

    def states(self, truth: Decimal) -> bool:
        """Is ``truth`` (in this number's units) what the text says, at its precision?"""
        return abs(self.value - truth) <= self.tol


def places_of(d: Decimal) -> int:
    """Decimal places needed to write ``d`` exactly."""
    exponent = d.normalize().as_tuple().exponent
    assert isinstance(exponent, int)
    return max(0, -exponent)


def quantize(d: Decimal, places: int, rounding: str = ROUND_HALF_UP) -> Decimal:
    return d.quantize(Decimal(1).scaleb(-places), rounding=rounding)


def truncate(d: Decimal, places: int) -> Decimal:
    return quantize(d, places, ROUND_DOWN)


def write(value: Decimal, places: int, form: Form) -> Shown:
    """``value`` (in the form's units) rounded half-up to ``places`` after scale."""
    factor = Decimal(10) ** form.scale
    return write_mantissa(quantize(value / factor, places), places, form)


def write_mantissa(mantissa: Decimal, places: int, form: Form) -> Shown:
    factor = Decimal(10) ** form.scale
    n = f"{abs(mantissa):,.{places}f}"
    text = _styled(n, form)
    if form.hedge:
        text = f"about {text}"
    tol = Decimal(1).scaleb(-places) / 2 * factor
    if form.hedge and places == 0:
        digits = n.replace(",", "")
        zeros = len(digits) - len(digits.rstrip("0"))
        if digits.strip("0"):
            tol *= Decimal(10) ** zeros
    sign = "-" if mantissa < 0 else ""
    return Shown(sign + text, mantissa * factor, tol, mantissa, places, form)


def _styled(n: str, form: Form) -> str:
    short, long = SCALE_WORDS.get(form.scale, ("", ""))
    styles: tuple[str, ...]
    if form.kind == "money":
        styles = MONEY_SCALED if form.scale else MONEY_PLAIN
    elif form.kind == "percent":
        styles = PERCENT_STYLES
    elif form.kind == "unit":
        assert form.unit is not None
        words = UNIT_WORDS[form.unit]
        return f"{n} {words[form.style % len(words)]}"
    else:
        styles = PLAIN_SCALED if form.scale else ("{n}",)
    return styles[form.style % len(styles)].format(n=n, s=short, l=long)


def scale_for(value: Decimal) -> int:
    """The largest scale word that keeps the mantissa at least 1 (0 below a thousand)."""
    for power in (9, 6, 3):
        if abs(value) >= Decimal(10) ** power:
            return power
    return 0


def change_digit(shown: Shown, rng: random.Random) -> Shown:
    """``shown`` with one of its digits replaced by another (never a new leading zero)."""
    digits = f"{abs(shown.mantissa):.{shown.places}f}"
    positions = [i for i, c in enumerate(digits) if c.isdigit()]
    i = rng.choice(positions)
    choices = [d for d in "0123456789" if d != digits[i] and not (i == 0 and d == "0")]
    changed = Decimal(digits[:i] + rng.choice(choices) + digits[i + 1 :])
    return write_mantissa(-changed if shown.mantissa < 0 else changed, shown.places, shown.form)


def shift_decimal(shown: Shown, power: int) -> Shown:
    """``shown`` times ``10**power``, written with the same form (``$4.1M`` → ``$41M``)."""
    places = max(shown.places - power, 0)
    return write_mantissa(
        quantize(shown.mantissa * Decimal(10) ** power, places), places, shown.form
    )


def swap_scale_word(shown: Shown) -> Shown | None:
    """``shown`` with the next scale word up (or down at the top): ``$4.1M`` → ``$4.1B``."""
    if shown.form.scale == 0:
        return None
    scale = shown.form.scale + 3 if shown.form.scale < 9 else shown.form.scale - 3
    return write_mantissa(shown.mantissa, shown.places, replace(shown.form, scale=scale))
