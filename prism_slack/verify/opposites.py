"""Opposites (check 7, facts): a claim that says a phrase whose opposite its cited values
say, and never the phrase itself, fails (``The returns policy page is up to date`` citing
``… is out of date``). The pairs are data (``data/opposites.yaml``); phrases match as
whole word runs, so ``out of date`` never counts as ``date``."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import cast

import yaml

from prism_slack.language import words


@lru_cache(maxsize=1)
def pairs() -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """Each opposite pair as word runs, both ways round."""
    text = resources.files("prism_slack.data").joinpath("opposites.yaml").read_text("utf-8")
    raw = cast(list[list[str]], yaml.safe_load(text))
    out = []
    for a, b in raw:
        out += [(tuple(words(a)), tuple(words(b))), (tuple(words(b)), tuple(words(a)))]
    return tuple(out)


def _says(tokens: Sequence[str], phrase: tuple[str, ...]) -> bool:
    n = len(phrase)
    return any(tuple(tokens[i : i + n]) == phrase for i in range(len(tokens) - n + 1))


def opposite_problems(claim: str, cited: Sequence[str]) -> list[str]:
    """``claim``: the claim's text; ``cited``: the cited values' texts."""
    said = words(claim)
    present = set(said)
    phrases = [(p, o) for p, o in pairs() if p[0] in present and _says(said, p)]
    if not phrases:
        return []
    texts = [words(t) for t in cited]
    problems = []
    for phrase, opposite in phrases:
        if any(_says(t, phrase) for t in texts):
            continue
        if any(_says(t, opposite) for t in texts):
            problems.append(
                f"the claim says '{' '.join(phrase)}', the cited values say '{' '.join(opposite)}'"
            )
    return problems
