"""Claim phrasings. Each class has several; a seeded random choice picks one per case.

Templates use the field's own measure words (``{m}``), the value as a claim writes it
(``{v}``), a name (``{name}``), the prospect's name (``{co}``/``{cos}`` possessive).
"""

from __future__ import annotations

VALUE = (
    "The {m} is {v}.",
    "Their {m} is {v}.",
    "{cos} {m} is {v}.",
    "The {m} stands at {v}.",
    "The report lists the {m} as {v}.",
    "The {m} was {v}.",
)
HEADCOUNT = ("{co} has {v} employees.", "{co} employs {v} people.")
FISCAL_VALUE = ("In {fy}, the {m} was {v}.", "The {fy} {m} was {v}.")
GROWTH_UP = ("{B} grew {v}.", "{B} rose {v}.", "{B} was up {v}.", "{B} increased by {v}.")
GROWTH_DOWN = ("{B} fell {v}.", "{B} declined {v}.", "{B} was down {v}.", "{B} shrank by {v}.")
NEGATIVE = ("The {m} is -{v}.", "The {m} was negative at {v}.")
PAIR = ("The {m1} is {v1} and the {m2} is {v2}.", "The {m1} is {v1}, while the {m2} is {v2}.")

SCORE = (
    "The {m} score is {v}.",
    "{M} is rated {v}.",
    "{co} scores {v} on {m}.",
    "The {m} rating is {v}.",
)

YEAR = ("The {m} was in {v}.", "The {m} happened in {v}.")
FOUNDED = ("{co} was founded in {v}.", "{co} was established in {v}.")
DATE_DAY = ("The {m} was on {v}.", "The {m} date is {v}.")
DATE_COARSE = ("The {m} was in {v}.", "The {m} came in {v}.")
DATE_SPECIAL: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "generated_at": (
        ("The report was generated on {v}.", "The audit was generated on {v}."),
        ("The report was generated in {v}.", "The audit was generated in {v}."),
    ),
    "fiscal_year_end": (
        ("The fiscal year ends on {v}.", "Their fiscal year ended on {v}."),
        ("The fiscal year ends in {v}.", "Their fiscal year ended in {v}."),
    ),
}
FISCAL = ("The audit covers {v}.", "The report covers {v}.", "The audit is for {v}.")
RANGE_START = ("The audit period starts in {v}.", "The audit period began in {v}.")
RANGE_END = ("The audit period ends in {v}.", "The audit period ended in {v}.")

VENDOR = (
    "Their {m} vendor is {name}.",
    "They use {name} for {m}.",
    "{name} is their {m} platform.",
    "The {m} system is {name}.",
)
COMPETITOR = ("{name} is listed as a competitor.", "They compete with {name}.")
PERSON = ("{name} is the {title}.", "The {title} is {name}.", "{name} serves as {title}.")
PERSON_ROLE = ("{name} is their {role}.", "{name} is the {role}.")
AUDITOR = ("The auditor was {name}.", "{name} was the auditor.")

SEVERITY = ("Finding {id} has {severity} severity.", "{id} is a {severity}-severity finding.")

COACH_VALUE = (
    "Open with their {v} {m} and ask what fixing it is worth.",
    "Ask why the {m} sits at {v}.",
    "Use M3 (Quantify the gap) on the {v} {m}.",
)
COACH_SCORE = ("Ask why {m} scores only {v}.", "Open with the {m} score of {v}.")
COACH_VENDOR = (
    "Ask how {name} fits their {m} plans.",
    "Mention their {name} {m} setup and ask who owns it.",
)
COACH_PERSON = ("Ask {name} what a fix is worth before the demo.", "Loop in {name} early.")
COACH_FINDING = ("Ask about {id} before the demo.", "Open with {id} and ask who owns it.")
