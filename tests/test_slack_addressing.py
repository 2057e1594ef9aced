"""Is an untagged reply in an engaged thread for PRISM? A table of realistic replies."""

from __future__ import annotations

import pytest

from prism_slack.slack.addressing import for_prism

BOT = "UPRISMBOT"

FOR_PRISM = [
    "what about their churn?",
    "And the biggest risk?",
    "how does that compare with last year",
    "Can you break that down by region?",
    "ok, what's their renewal date?",
    "thanks! what else should I know before the call?",
    "Also, which vendors do they use for search?",
    "tell me more about their membership program",
    "Summarize the key risks in three bullets",
    "give me the numbers behind that",
    "draft an opener for the CFO",
    "what should I ask them first?",
    "is their ARR growing",
    "same for Kestrelpoint",
    f"and <@{BOT}> what about hiring?",
    "Why did their margin drop",
    "explain the second point",
    "any red flags in their financials?",
    "How should I open the call with their CFO?",
    "where does that number come from?",
    "can you give me more detail on that?",
    "how confident are you in that figure?",
]

NOT_FOR_PRISM = [
    ("nice, I'll take it from here — Dana can you send the deck over?", "colleague"),
    ("thanks!", "thanks"),
    ("Great, thanks", "thanks"),
    ("perfect :raised_hands:", "thanks"),
    ("got it", "thanks"),
    ("Dana, can you join the call tomorrow?", "colleague"),
    ("Sam will love this", "colleague"),
    ("thanks Sam, that's what I needed", "colleague"),
    ("<@U2BOSS> can you review before I send?", "someone else"),
    ("great work <@U2BOSS|dana>", "someone else"),
    ("<!here> call moved to 3pm", "group"),
    ("<!subteam^S123|@sales> see above", "group"),
    ("I'll follow up with their CFO on Monday", "logistics"),
    ("let's sync after lunch", "logistics"),
    ("can someone send me the deck?", "people"),
    ("who's joining the call tomorrow?", "logistics"),
    ("anyone free to join?", "people"),
    ("sending the invite now", "logistics"),
    ("on it", "logistics"),
    ("lol", "thanks"),
    ("this is going to be a tough one", "no question"),
    ("who's taking notes?", "logistics"),
    ("what time is the call?", "logistics"),
    ("when's the call?", "logistics"),
    ("could you two sync on pricing?", "people"),
    ("+1", "thanks"),
    (":+1:", "thanks"),
    ("agreed, good to know", "thanks"),
    ("Interesting, didn't know that", "no question"),
    ("ping me when you're back", "logistics"),
]


@pytest.mark.parametrize("text", FOR_PRISM)
def test_follow_ups_and_instructions_are_for_prism(text: str) -> None:
    verdict = for_prism(text, BOT)
    assert verdict.for_prism, (text, verdict.reason)


@pytest.mark.parametrize(("text", "why"), NOT_FOR_PRISM, ids=[t for t, _ in NOT_FOR_PRISM])
def test_remarks_to_colleagues_are_not(text: str, why: str) -> None:
    verdict = for_prism(text, BOT)
    assert not verdict.for_prism, text
    assert verdict.reason  # every skip is logged with why


def test_under_doubt_prism_stays_quiet() -> None:
    assert not for_prism("hmm", BOT).for_prism
    assert not for_prism("  ", BOT).for_prism
