"""Verifier rules for language written outside the templates (issue 8, helper A): crowd
statements about table rows and LLM-style answers. Numbers that are part of a cited key,
English words that are not names, typos of cited words, dates as people write them,
participles that are not directions. Each rule is pinned by a true and a false example."""

from __future__ import annotations

from typing import Any

import pytest

from prism_slack import language
from prism_slack.reports.model import Report, build_report
from prism_slack.testing.verify_cases import Case, Expected, meets, one_sided, outcome

DATA: dict[str, Any] = {
    "company": {"name": "Harbour Senior Tour", "aliases": []},
    "report": {"id": "T-1", "generated_at": "2019-12-20"},
    "rows": [
        {
            "date": "jul 30",
            "tournament": "newport cup",
            "purse": "275000",
            "1st_prize": "41500",
        },
        {"home_1st_leg": "central norte", "1st_leg": "0 - 0", "2nd_leg": "3 - 2"},
        {"pick": "41", "player": "craig zimmer", "position": "lb", "college": "regina"},
        {"album": "avant que l'ombre", "length": "4:30", "year": "2005"},
        {"date": "yqa 1984 - 06 - 09", "issue_dates": "14 november - 12 december"},
        {"date": "3 / 30 / 07", "score": "1 - 8", "viewers": "6.66", "episodes": "22"},
        {"club": "tumble rfc", "played": "22", "won": "20", "lost": "2", "year": "1951"},
        {"date": "14.09.07", "race_date": "08 - 02 - 2008", "final": "2014 - 02 - 1"},
        {"place": "t3", "player": "mark carnevale", "points": "23"},
        {"player": "tom kite", "years_for_jazz": "1980 - 85"},
    ],
    "company_figures": {"orders_per_month": 3100000, "cart_items": 3.1},
    "vendors": {"analytics": "Google Analytics 4"},
    "customers": {"top_10_share_pct": 41.0},
    "stakeholders": [
        {
            "name": "Kenji Morrow",
            "notes": "Any integration must go through the Azure API gateway he runs.",
        }
    ],
    "findings": [
        {"detail": "6.42% of tenders are rejected by contracted carriers."},
        {"detail": "Contract volume fell 6.4% on the year."},
    ],
}

CASES: list[Case] = [
    # a number that is part of a cited key, next to another word of that key
    ("key word", "the prize money for the 1st place of the newport cup be 41500",
     ("rows[0]",), "supported"),
    ("key word", "the prize money for the 2nd place of the newport cup be 41500",
     ("rows[0]",), "fails"),
    ("key word", "central norte be home in the 1st leg", ("rows[1]",), "supported"),
    ("key word", "central norte be home in the 4th leg", ("rows[1]",), "fails"),
    # a number a path names is a label: a plain number, never a percent
    ("path label", "The top 10 customers make up 41% of revenue.",
     ("customers.top_10_share_pct",), "supported"),
    ("path label", "The top 10 customers make up 10% of revenue.",
     ("customers.top_10_share_pct",), "fails"),
    # a rare word with a common English form is no name; a rare word with none still is
    ("english form", "craig zimmer , a regina alumnus , play lb", ("rows[2]",), "supported"),
    ("english form", "craig zimmer , a regina zorblat , play lb", ("rows[2]",), "fails"),
    # a near miss of a cited word or key is a typo; a word far from all of them is a name
    ("typo of a cited word", "craig zimmer play the poistion of lb", ("rows[2]",),
     "supported"),
    ("typo of a cited word", "craig zimmer play the pacheco of lb", ("rows[2]",), "fails"),
    # an elided article joined to a word, as the cited value writes it
    ("elision", "the album avant que l'ombre be 4:30 long", ("rows[3]",), "supported"),
    ("elision", "the album avant que l'orage be 4:30 long", ("rows[3]",), "fails"),
    # an identifier or acronym spelling the initials of a cited value's words
    ("initials", "Their web analytics runs on GA4.", ("vendors.analytics",), "supported"),
    ("initials", "Their web analytics runs on GA3.", ("vendors.analytics",), "fails"),
    # a possessive name run into another name: each side must be warranted
    ("possessive", "Integrations go through Kenji's Azure API gateway.",
     ("stakeholders[0].name", "stakeholders[0].notes"), "supported"),
    ("possessive", "Integrations go through Kenji's Apigee API gateway.",
     ("stakeholders[0].name", "stakeholders[0].notes"), "fails"),
    # a participle before the noun and verb of its clause is no direction word
    ("attributive participle", "Contracted carriers turn down about 6.4% of tenders.",
     ("findings[0].detail",), "supported"),
    ("attributive participle", "Contract volume contracted 6.4% on the year.",
     ("findings[0].detail",), "fails"),
    # dates as tables write them: spaced ISO and slashes, two dates run together
    ("table dates", "it take place on june 9 , 1984", ("rows[4]",), "supported"),
    ("table dates", "it take place on june 9 , 1985", ("rows[4]",), "fails"),
    ("table dates", "on march 30th , 2007 the score be 1 - 8", ("rows[5]",), "supported"),
    ("table dates", "on march 30th , 2008 the score be 1 - 8", ("rows[5]",), "fails"),
    ("table dates", "the game be on 14 september 2007", ("rows[7]",), "supported"),
    ("table dates", "the game be on 9 september 2007", ("rows[7]",), "fails"),
    ("table dates", "the race be on august 2 , 2008", ("rows[7]",), "supported"),
    ("table dates", "the race be on august 3 , 2008", ("rows[7]",), "fails"),
    ("table dates", "the final be on 1 february 2014", ("rows[7]",), "supported"),
    ("table dates", "the final be on 1 march 2014", ("rows[7]",), "fails"),
    ("table dates", "the issue date be from 14 november 12 december", ("rows[4]",), "supported"),
    ("table dates", "the issue date be from 14 november 19 december", ("rows[4]",), "fails"),
    # a count in millions against a fractional value whose field states no scale
    ("stated scale", "the episode be see by 6.66 million viewer", ("rows[5]",), "supported"),
    ("stated scale", "the episode be see by 6.66 billion viewer", ("rows[5]",), "fails"),
    ("stated scale", "the season have 22 million episode", ("rows[5]",), "fails"),
    ("stated scale", "They process 3.1 billion orders a month.",
     ("company_figures.orders_per_month",), "fails"),
    # a year after before / prior to / after is a bound, on a number or a date
    ("year bound", "tumble rfc play in a season prior to 1956", ("rows[6]",), "supported"),
    ("year bound", "tumble rfc play in a season prior to 1950", ("rows[6]",), "fails"),
    ("year bound", "it take place after 1980", ("rows[4]",), "supported"),
    ("year bound", "it take place before 1980", ("rows[4]",), "fails"),
    # a score's scale may be another cited number field of the row
    ("scale from a field", "tumble rfc win 20 out of 22 game", ("rows[6]",), "supported"),
    ("scale from a field", "tumble rfc win 20 out of 24 game", ("rows[6]",), "fails"),
    # number words as a table tokenizer spaces them
    ("spaced number words", "mark carnevale have twenty - three point", ("rows[8]",),
     "supported"),
    ("spaced number words", "mark carnevale have twenty - four point", ("rows[8]",), "fails"),
    # a year inside a cited span of years
    ("year span", "tom kite play for the jazz in 1982", ("rows[9]",), "supported"),
    ("year span", "tom kite play for the jazz in 1987", ("rows[9]",), "fails"),
]  # fmt: skip


@pytest.fixture(scope="module")
def report() -> Report:
    return build_report("harbour", DATA)


@pytest.mark.parametrize(
    ("rule", "text", "evidence", "expected"),
    CASES,
    ids=[f"{rule}: {text}" for rule, text, _, _ in CASES],
)
def test_rule(
    report: Report, rule: str, text: str, evidence: tuple[str, ...], expected: Expected
) -> None:
    assert meets(outcome(report, text, evidence), expected)


def test_each_rule_has_a_true_and_a_false_example() -> None:
    assert one_sided(CASES) == {}


@pytest.mark.parametrize(
    ("word", "english"),
    [
        ("alumnus", True),  # alumni
        ("authorizes", True),  # authorize
        ("synced", True),  # sync
        ("oiler", False),  # a plain plural does not count: a name's plural (Oilers)
        ("harding", False),  # "hard" is no verb
        ("quarterfinal", False),  # only its plain plural is common
        ("zendesk", False),
        ("chargebee", False),
        ("priya", False),  # not "pry": a name's ending is not stripped unless regular
        ("tableau", False),  # a vendor that is also a rare noun stays a name
    ],
)
def test_english_form(word: str, english: bool) -> None:
    assert language.english_form(word) is english


@pytest.mark.parametrize(
    ("verb", "agents"),
    [("write", {"writer"}), ("direct", {"director"}), ("win", {"winner"}),
     ("play", {"player"}), ("team", set()), ("be", set())],
)  # fmt: skip
def test_agent_nouns(verb: str, agents: set[str]) -> None:
    assert language.agent_nouns(verb) == agents


@pytest.mark.parametrize(
    ("british", "american"),
    [("centres", "centers"), ("recognised", "recognized"), ("programme", "program")],
)
def test_british_and_american_spellings_stem_alike(british: str, american: str) -> None:
    assert language.stem(british) == language.stem(american)


@pytest.mark.parametrize(
    ("text", "tokens"),
    [("They haven't", ["they", "have", "not"]), ("won't", ["will", "not"]),
     ("can't", ["can", "not"]), ("Kyruus's search", ["kyruus", "search"]),
     ("they're", ["they"])],
)  # fmt: skip
def test_a_negative_contraction_reads_as_its_words(text: str, tokens: list[str]) -> None:
    assert language.words(text) == tokens
