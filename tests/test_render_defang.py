"""Nothing from a model or a report can ping or link anyone in Slack."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prism_slack.pipeline.result import Footnote, Outcome, PostedClaim, TurnResult
from prism_slack.ports import Conversation
from prism_slack.render import defang, message_problems, render_blocks, render_text, undefang
from prism_slack.render.defang import ZWJ
from prism_slack.verdict import Label, Method, Rung

WHERE = Conversation(team="T1", channel="C1")

PINGS = [
    "<!channel>",
    "<!here>",
    "<!everyone>",
    "<@U123ABC>",
    "<#C1|general>",
    "<!subteam^S0123|@sales-team>",
    "<https://evil.example/login|click here>",
    "<mailto:ceo@example.com>",
    "@channel",
    "@here",
    "@everyone",
    "@Here",
    "@CHANNEL",
]

_BARE = re.compile(r"@(?:channel|here|everyone)", re.IGNORECASE)


def base(**changes: object) -> TurnResult:
    result = TurnResult(
        outcome=Outcome.ANSWERED,
        conversation=WHERE,
        question="q",
        company="Northwind Traders",
        report_id="NW-1",
        report_date=dt.date(2026, 3, 9),
        posted=[
            PostedClaim(
                text="Their CRM is HubSpot.", kind="fact", citations=[1], rung=Rung.ANCHOR_WARRANTED
            )
        ],
        footnotes=[Footnote(n=1, path="vendors.crm", value="HubSpot")],
        label=Label.EVIDENCE_LINKED,
        method=Method.DETERMINISTIC,
    )
    return result.model_copy(update=changes)


def in_claim(ping: str) -> TurnResult:
    claim = PostedClaim(
        text=f"Ask {ping} about HubSpot.", kind="fact", citations=[1], rung=Rung.ANCHOR_WARRANTED
    )
    return base(posted=[claim])


def in_coaching(ping: str) -> TurnResult:
    claim = PostedClaim(text=f"Loop in {ping}.", kind="coaching", citations=[], rung=Rung.UNLINKED)
    return base(posted=[claim], label=Label.COACHING_ONLY)


def in_footnote_value(ping: str) -> TurnResult:
    return base(footnotes=[Footnote(n=1, path="vendors.crm", value=f"HubSpot {ping}")])


def in_footnote_path(ping: str) -> TurnResult:
    return base(footnotes=[Footnote(n=1, path=f'vendors["{ping}"]', value="HubSpot")])


def in_company(ping: str) -> TurnResult:
    return base(company=f"Northwind {ping}")


def in_notice(ping: str) -> TurnResult:
    return base(notice=f"Now answering from {ping}'s report.")


def in_message(ping: str) -> TurnResult:
    return TurnResult(
        outcome=Outcome.AMBIGUOUS,
        conversation=WHERE,
        question="q",
        message=f"Did you mean {ping}?",
        candidates=[f"Acme {ping}", "Acme Foods"],
    )


PLACES: dict[str, Callable[[str], TurnResult]] = {
    "claim": in_claim,
    "coaching": in_coaching,
    "footnote_value": in_footnote_value,
    "footnote_path": in_footnote_path,
    "company": in_company,
    "notice": in_notice,
    "message_and_candidates": in_message,
}


@pytest.mark.parametrize("place", list(PLACES))
@pytest.mark.parametrize("ping", PINGS)
def test_ping_is_defanged_everywhere(place: str, ping: str) -> None:
    message = render_blocks(PLACES[place](ping))
    assert message_problems(message.text, message.blocks) == []
    dumped = message.model_dump_json()
    assert "<" not in dumped and ">" not in dumped
    assert not _BARE.search(dumped)
    assert defang(ping).replace("`", "ʼ") in dumped
    # The terminal shows the text as written: nothing to ping there.
    assert ping in render_text(PLACES[place](ping))


def test_defang_escapes_exactly_once() -> None:
    claim = PostedClaim(
        text="AT&T and A&amp;B said <b> &lt;x&gt;.",
        kind="fact",
        citations=[1],
        rung=Rung.ANCHOR_WARRANTED,
    )
    message = render_blocks(base(posted=[claim], company="Smith & Sons"))
    sections = [b["text"]["text"] for b in message.blocks if b["type"] == "section"]
    assert sections[0].startswith(":page_facing_up: *Smith &amp; Sons*")
    assert sections[1] == ("AT&amp;T and A&amp;amp;B said &lt;b&gt; &amp;lt;x&amp;gt;.\u00a0[1]")
    assert message.text.startswith("Smith &amp; Sons: AT&amp;T and A&amp;amp;B")


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("<!channel>", "&lt;!channel&gt;"),
        ("<@U1>", "&lt;@U1&gt;"),
        ("a & b", "a &amp; b"),
        ("&amp;", "&amp;amp;"),
        ("@here now", "@" + ZWJ + "here now"),
        ("@Everyone", "@" + ZWJ + "Everyone"),
        ("email me@example.com", "email me@example.com"),
        ("@" + ZWJ + "here", "@" + ZWJ + ZWJ + "here"),
        ("*bold* _it_ `code`", "*bold* _it_ `code`"),
    ],
)
def test_defang_table(raw: str, expected: str) -> None:
    assert defang(raw) == expected
    assert undefang(expected) == raw


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(max_size=8),
            st.sampled_from(
                ["<", ">", "&", "&amp;", "&lt;", "@", ZWJ, "here", "channel", "everyone", "!"]
            ),
        ),
        max_size=30,
    ).map("".join)
)
def test_defang_property(text: str) -> None:
    out = defang(text)
    assert "<" not in out and ">" not in out
    assert not _BARE.search(out)
    assert undefang(out) == text
