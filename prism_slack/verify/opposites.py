"""Opposites and alternatives (check 7, facts): a claim that says a phrase its cited values
never say, while they say an alternative that excludes it, fails (``The returns policy
page is up to date`` citing ``… is out of date``; ``win a gold medal`` when the row says
``silver``). The groups are data (``data/opposites.yaml``); phrases match as whole word
runs, so ``out of date`` never counts as ``date``."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import cast

import yaml

from prism_slack.language import words
from prism_slack.verdict import Problem

Phrase = tuple[str, ...]
Alternative = tuple[Phrase, ...]
"""The forms of one alternative (``women``, ``female``)."""


@lru_cache(maxsize=1)
def groups() -> tuple[tuple[Alternative, ...], ...]:
    """Each group of mutually exclusive alternatives, each as its forms' word runs."""
    text = resources.files("prism_slack.data").joinpath("opposites.yaml").read_text("utf-8")
    raw = cast(list[list[str | list[str]]], yaml.safe_load(text))
    return tuple(
        tuple(
            tuple(tuple(words(form)) for form in ([item] if isinstance(item, str) else item))
            for item in group
        )
        for group in raw
    )


@lru_cache(maxsize=1)
def _by_first_word() -> dict[str, list[tuple[tuple[Alternative, ...], Alternative]]]:
    """First word of a form → the (group, alternative) pairs it may start."""
    out: dict[str, list[tuple[tuple[Alternative, ...], Alternative]]] = {}
    for group in groups():
        for alternative in group:
            for form in alternative:
                pairs = out.setdefault(form[0], [])
                if (group, alternative) not in pairs:
                    pairs.append((group, alternative))
    return out


def _says(tokens: Sequence[str], phrase: Phrase) -> bool:
    n = len(phrase)
    return any(tuple(tokens[i : i + n]) == phrase for i in range(len(tokens) - n + 1))


def _said(tokens: Sequence[str], alternative: Alternative) -> Phrase | None:
    return next((form for form in alternative if _says(tokens, form)), None)


def opposite_problems(claim: str, cited: Sequence[str]) -> list[Problem]:
    """``claim``: the claim's text; ``cited``: the cited values' texts."""
    said = words(claim)
    index = _by_first_word()
    candidates = dict.fromkeys(pair for w in said for pair in index.get(w, ()))
    spoken = [(g, a, p) for g, a in candidates if (p := _said(said, a)) is not None]
    if not spoken:
        return []
    texts = [words(t) for t in cited]
    problems = []
    for group, alternative, phrase in spoken:
        if any(_said(t, alternative) for t in texts):
            continue
        others = (_said(t, a) for a in group if a is not alternative for t in texts)
        other = next((found for found in others if found), None)
        if other is not None:
            message = (
                f"the claim says '{' '.join(phrase)}', the cited values say '{' '.join(other)}'"
            )
            problems.append(Problem("attribute.opposite", message))
    return problems
