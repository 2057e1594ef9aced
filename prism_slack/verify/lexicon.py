"""The word lists the verifier reads: data files, one concept per file, loaded once.

Each list is a file of ``prism_slack/data/words/`` named after it (``NOT_NAMES`` is
``not_names.txt``), whose header says what the list is for:

- ``<name>.txt``: one entry per line (``#`` starts a comment line);
- ``<name>.yaml``: a mapping (``MEASURES``: concept → surface forms) or, for words that
  inflect, ``verbs``/``nouns`` lemmas expanded to every form by lemminflect, and
  ``words`` as written.

Stop words (``language.STOP_WORDS``) and the relation words of derived figures
(``relations.yaml``) are data of ``prism_slack/data/`` too. Every rule that uses a list
lives elsewhere.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any, cast

import yaml

from prism_slack import language
from prism_slack.verdict import Relation

_WORDS = resources.files("prism_slack.data").joinpath("words")


def _lines(name: str) -> list[str]:
    text = _WORDS.joinpath(f"{name}.txt").read_text("utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and line[0] != "#"]


def words(name: str) -> frozenset[str]:
    """The entries of ``words/<name>.txt``."""
    return frozenset(_lines(name))


def ordered(name: str) -> tuple[str, ...]:
    """The entries of ``words/<name>.txt``, in the file's order."""
    return tuple(_lines(name))


@cache
def _table(name: str) -> Any:
    return yaml.safe_load(_WORDS.joinpath(f"{name}.yaml").read_text("utf-8"))


def inflected(name: str) -> frozenset[str]:
    """``words/<name>.yaml``: every form of its ``verbs`` and ``nouns`` (lemminflect), and
    its ``words`` as written."""
    from lemminflect import getAllInflections

    data = _table(name)
    out = set(data.get("words", ()))
    for upos, key in (("VERB", "verbs"), ("NOUN", "nouns")):
        for lemma in data.get(key, ()):
            out.add(lemma)
            out.update(f for forms in getAllInflections(lemma, upos=upos).values() for f in forms)
    return frozenset(out)


STOP_WORDS = language.STOP_WORDS
POLARITY = words("polarity")
DETERMINERS = words("determiners")
BASE_DETERMINERS = words("base_determiners")
PLACE_LINKS = words("place_links")
ATTACHING_LINKS = words("attaching_links")
RATING_LINKS = words("rating_links")
PART_OF_WORDS = words("part_of_words")
WHOLE_GROUP = words("whole_group")
NO_MEMBER = words("no_member")
LOWEST = words("lowest")
HIGHEST = words("highest")
RANK_ORDINALS = cast(dict[str, int], _table("rank_ordinals"))
DIRECTION_UP: frozenset[str] = inflected("direction_up")
DIRECTION_DOWN: frozenset[str] = inflected("direction_down")
NEGATORS = words("negators")
TREND_PATH_WORDS = words("trend_path_words")
EXCLUSIVE_MEASURES: tuple[frozenset[str], ...] = tuple(
    frozenset(g) for g in _table("exclusive_measures")
)
RETENTION_CONCEPTS = words("retention_concepts")
BASE_CONCEPTS = words("base_concepts")
BASE_WORDS = words("base_words")
SELF_WORDS = words("self_words")
BOUNDARY_WORDS = words("boundary_words")
BOUNDARY_VERBS = words("boundary_verbs")
LEVEL_MARKERS = words("level_markers")
PHRASAL_HEADS: frozenset[str] = inflected("phrasal_heads")
PARTICLES = words("particles")
CLAUSE_BREAKS = words("clause_breaks")
NEGATION_WORDS = words("negation_words")
DENIAL_SKIPS = words("denial_skips")
ABSENT_VALUES = words("absent_values") | {""}  # an empty cell too
ABSENT_WORDS = words("absent_words")
BE_VERBS: frozenset[str] = inflected("be_verbs")
RELATION_LINKS = words("relation_links")
NEGATIVE_SENSE: frozenset[str] = inflected("negative_sense")
LOSS_VERBS: frozenset[str] = inflected("loss_verbs")
RIVAL_VERBS: frozenset[str] = inflected("rival_verbs")
FIGURE_QUALIFIERS = words("figure_qualifiers")
NEAR_BOUND_WORDS: tuple[str, ...] = ordered("near_bound_words")
BOUNDS: dict[str, str] = {
    **_table("bounds"),
    **{
        f"{near} {bound}": _table("bounds")[bound]
        for near in NEAR_BOUND_WORDS
        for bound in ("over", "under", "above", "below", "more than", "less than", "fewer than")
    },
}
FREQUENCY_WORDS = words("frequency_words")
PERIOD_WORDS: frozenset[str] = inflected("period_words")
HEDGES = words("hedges")
NUMBER_WORDS: dict[str, int] = cast(dict[str, int], _table("number_words"))
OPTIONAL_NUMBER_WORDS = words("optional_number_words")
MONTHS: dict[str, int] = cast(dict[str, int], _table("months"))
WEEKDAYS = words("weekdays")
TEMPORAL_PREPOSITIONS = words("temporal_prepositions")
QUARTER_WORDS: dict[str, int] = cast(dict[str, int], _table("quarter_words"))
NOT_NAMES = words("not_names")
ROLE_WORDS = words("role_words")
CONNECTORS = words("connectors")
LEGAL_SUFFIXES = words("legal_suffixes")
GENERIC_IDENTIFIERS = words("generic_identifiers")
AMOUNT_LINKS = words("amount_links")
MEASURES: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in _table("measures").items()}
ROLE_CONCEPTS = words("role_concepts")
REVERSE_QUALIFIERS = words("reverse_qualifiers")
QUANTITY_QUALIFIERS = words("quantity_qualifiers")
IMPLICIT_QUALIFIERS = words("implicit_qualifiers")
SYNONYMS: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in _table("synonyms").items()}
COMMON_WORDS = STOP_WORDS | words("common_words")
IMPERATIVES = words("imperatives")
OBJECT_STARTERS = words("object_starters")
ORDINARY_SUFFIXES: tuple[str, ...] = ordered("ordinary_suffixes")
DEMONYM_SUFFIXES: tuple[str, ...] = ordered("demonym_suffixes")
YEAR_AWAY_WORDS = words("year_away_words")
GENERIC_FIELD_WORDS = words("generic_field_words")
SCALE_PATH_WORDS = words("scale_path_words")
PERCENT_PATH_WORDS = words("percent_path_words")
BASIS_POINT_PATH_WORDS = words("basis_point_path_words")
FRACTION_PATH_WORDS = words("fraction_path_words")
FISCAL_PATH_WORDS = words("fiscal_path_words")
TRAILING_YEAR_WORDS = words("trailing_year_words")
ACRONYM_SKIPS = words("acronym_skips")
LAST_PATH_WORDS = words("last_path_words")
PARTIALS = words("partials")


def _relations() -> dict[Relation, frozenset[str]]:
    text = resources.files("prism_slack.data").joinpath("relations.yaml").read_text("utf-8")
    raw = cast(dict[str, list[str]], yaml.safe_load(text))
    return {cast(Relation, k): frozenset(v) for k, v in raw.items()}


RELATION_WORDS = _relations()
"""Words that name each relation a derived figure may use (``data/relations.yaml``)."""
