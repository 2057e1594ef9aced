"""Block Kit stays within Slack's limits however big the answer; splitting never cuts an atom."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prism_slack.pipeline.result import Footnote, Outcome, PostedClaim, TurnResult
from prism_slack.ports import Conversation
from prism_slack.render import message_problems, render_blocks, render_ephemeral, render_text
from prism_slack.render.defang import ZWJ, defang
from prism_slack.render.limits import (
    CONTEXT_TEXT,
    MAX_BLOCKS,
    MESSAGE_TEXT,
    SECTION_TEXT,
    text_chars,
)
from prism_slack.render.split import ELLIPSIS, clip, split_text
from prism_slack.verdict import Label, Method, Rung

WHERE = Conversation(team="T1", channel="D1")
SENTENCE = "Their pipeline review happens every week with the regional sales leads."


def result_with(posted: list[PostedClaim], footnotes: list[Footnote]) -> TurnResult:
    return TurnResult(
        outcome=Outcome.ANSWERED,
        conversation=WHERE,
        question="tell me everything",
        company="Northwind Traders",
        report_id="NW-1",
        posted=posted,
        footnotes=footnotes,
        label=Label.EVIDENCE_LINKED,
        method=Method.DETERMINISTIC,
    )


def big_answer(claims: int, *, value_chars: int = 1000) -> TurnResult:
    posted = [
        PostedClaim(
            text=f"Claim {i}: {SENTENCE} <!channel> & more.",
            kind="coaching" if i % 5 == 4 else "fact",
            citations=[2 * i + 1, 2 * i + 2],
            rung=Rung.EVIDENCE_WARRANTED,
        )
        for i in range(claims)
    ]
    footnotes = [
        Footnote(n=n, path=f"findings[{n}].detail", value=f"{n} " + "long <value> " * value_chars)
        for n in range(1, 2 * claims + 1)
    ]
    return result_with(posted, footnotes)


def texts(blocks: list[dict[str, object]], kind: str) -> list[str]:
    out: list[str] = []
    for block in blocks:
        if block["type"] != kind:
            continue
        if kind == "section":
            out.append(block["text"]["text"])  # type: ignore[index]
        else:
            out += [e["text"] for e in block["elements"]]  # type: ignore[attr-defined]
    return out


def test_huge_answer_is_cut_to_fit_and_says_how_many() -> None:
    result = big_answer(200)
    message = render_blocks(result)
    assert message_problems(message.text, message.blocks) == []
    assert len(message.blocks) <= MAX_BLOCKS
    assert all(len(t) <= SECTION_TEXT for t in texts(message.blocks, "section"))
    assert all(len(t) <= CONTEXT_TEXT for t in texts(message.blocks, "context"))
    shown = [i for i in range(200) if f"Claim {i}: " in message.model_dump_json()]
    assert shown == list(range(len(shown))), "the leading claims are kept, in order"
    assert 0 < len(shown) < 200
    cut_line = f"✂ {200 - len(shown)} claims not shown — too long for one Slack message."
    assert cut_line in texts(message.blocks, "context")
    # Only the footnotes the shown claims cite are kept.
    notes = "\n".join(texts(message.blocks, "context"))
    assert f"[{2 * len(shown)}] " in notes
    assert f"[{2 * len(shown) + 1}] " not in notes
    # The label and the feedback buttons survive the cut.
    assert any("EVIDENCE-LINKED" in t for t in texts(message.blocks, "context"))


def test_answer_that_fits_is_not_cut() -> None:
    message = render_blocks(big_answer(30, value_chars=2))
    assert message_problems(message.text, message.blocks) == []
    assert "cut to fit" not in message.model_dump_json()
    assert all(f"Claim {i}: " in message.model_dump_json() for i in range(30))
    assert len(texts(message.blocks, "section")) < 30, "lines are packed into sections"


def test_terminal_never_cuts() -> None:
    out = render_text(big_answer(200, value_chars=5))
    assert all(f"Claim {i}: " in out for i in range(200))


def test_ten_thousand_char_claim_is_split_with_its_citations_whole() -> None:
    words = " ".join(f"w{i:04d}." for i in range(1500))
    assert len(words) > 10_000
    claim = PostedClaim(text=words, kind="fact", citations=[1, 2], rung=Rung.ANCHOR_WARRANTED)
    result = result_with(
        [claim], [Footnote(n=1, path="a", value="1"), Footnote(n=2, path="b", value="2")]
    )
    message = render_blocks(result)
    assert message_problems(message.text, message.blocks) == []
    sections = texts(message.blocks, "section")[1:]  # after the header line
    assert len(sections) >= 4
    assert all(len(s) <= SECTION_TEXT for s in sections)
    joined = " ".join(sections)
    assert re.findall(r"w\d{4}\.", joined) == [f"w{i:04d}." for i in range(1500)]
    assert sections[-1].endswith("w1499.\u00a0[1][2]")


def test_unbroken_claim_is_split_between_atoms() -> None:
    text = "&<>" * 600 + "@here" * 300  # 9,600 chars once escaped, with no space
    claim = PostedClaim(text=text, kind="fact", citations=[1], rung=Rung.ANCHOR_WARRANTED)
    result = result_with([claim], [Footnote(n=1, path="a", value="1")])
    message = render_blocks(result)
    assert message_problems(message.text, message.blocks) == []
    sections = texts(message.blocks, "section")[1:]
    assert "".join(sections) == defang(text) + "\u00a0[1]"


def test_huge_message_is_capped() -> None:
    result = TurnResult(
        outcome=Outcome.FAILED, conversation=WHERE, question="q", message="line\n" * 60_000
    )
    message = render_blocks(result)
    assert message_problems(message.text, message.blocks) == []
    assert message.blocks[-1]["elements"][0]["text"] == "✂ Message cut to fit Slack's limits."


def test_huge_ephemeral_is_capped() -> None:
    message = render_ephemeral("x " * 200_000)
    assert message_problems(message.text, message.blocks) == []
    assert message.blocks[-1]["elements"][0]["text"] == "✂ Message cut to fit Slack's limits."
    assert text_chars(message.blocks) > MESSAGE_TEXT - SECTION_TEXT, "fills what it can"


def test_many_short_lines_are_capped_by_block_count() -> None:
    result = TurnResult(
        outcome=Outcome.AMBIGUOUS,
        conversation=WHERE,
        question="q",
        message="Which one?",
        candidates=[f"Company {i}" for i in range(5000)],
    )
    message = render_blocks(result)
    assert message_problems(message.text, message.blocks) == []
    assert message.blocks[-1]["elements"][0]["text"] == "✂ Message cut to fit Slack's limits."


# --- split_text and clip -------------------------------------------------------------

_ATOM = re.compile(r"&(?:amp|lt|gt);|@" + ZWJ + r"+|\[\d+\]")


def atom_interiors(text: str) -> set[int]:
    """Offsets that fall strictly inside an atom (where no cut may happen)."""
    return {i for m in _ATOM.finditer(text) for i in range(m.start() + 1, m.end())}


_PIECES = [*"ab .!?\n\t[]0123456789&<>@\u00a0", "here", "channel", "[12]"]
mrkdwn_text = st.lists(st.sampled_from(_PIECES), max_size=200).map(lambda xs: defang("".join(xs)))


@settings(max_examples=200, deadline=None)
@given(text=mrkdwn_text, limit=st.integers(min_value=32, max_value=120))
def test_split_text_properties(text: str, limit: int) -> None:
    chunks = split_text(text, limit)
    assert "".join(chunks) == text
    assert all(0 < len(c) <= limit for c in chunks)
    cuts = set()
    pos = 0
    for chunk in chunks[:-1]:
        pos += len(chunk)
        cuts.add(pos)
    assert not cuts & atom_interiors(text)


@pytest.mark.parametrize(
    ("text", "limit", "expected"),
    [
        ("One. Two. Three.", 100, ["One. Two. Three."]),
        ("a" * 40 + "\n" + "b" * 40, 50, ["a" * 40 + "\n", "b" * 40]),
        (
            "Sentence one is here. " * 3,
            50,
            ["Sentence one is here. Sentence one is here. ", "Sentence one is here. "],
        ),
        ("x" * 31 + "&amp;" + "y", 33, ["x" * 31, "&amp;y"]),
        ("x" * 30 + "[12]" + "y", 33, ["x" * 30, "[12]y"]),
    ],
)
def test_split_text_table(text: str, limit: int, expected: list[str]) -> None:
    assert split_text(text, limit) == expected


def test_split_text_rejects_tiny_limits() -> None:
    with pytest.raises(ValueError, match="at least"):
        split_text("abc", 5)


@settings(max_examples=200, deadline=None)
@given(text=mrkdwn_text, limit=st.integers(min_value=2, max_value=200))
def test_clip_properties(text: str, limit: int) -> None:
    out = clip(text, limit)
    assert len(out) <= limit
    if len(text) <= limit:
        assert out == text
    else:
        assert out.endswith(ELLIPSIS)
        kept = out[: -len(ELLIPSIS)]
        assert text.startswith(kept)
        assert len(kept) not in atom_interiors(text)


def test_fallback_text_never_cuts_an_entity() -> None:
    claim = PostedClaim(text="&" * 400, kind="fact", citations=[], rung=Rung.UNLINKED)
    text = render_blocks(result_with([claim], [])).text
    assert len(text) <= 300
    assert re.fullmatch(r"Northwind Traders: (&amp;)+…", text)


def test_claim_too_long_for_any_message_is_left_out_and_counted() -> None:
    claim = PostedClaim(text="word " * 5000, kind="fact", citations=[1], rung=Rung.UNLINKED)
    result = result_with([claim], [Footnote(n=1, path="a", value="1")])
    message = render_blocks(result)
    assert message_problems(message.text, message.blocks) == []
    contexts = texts(message.blocks, "context")
    assert "✂ 1 claim not shown — too long for one Slack message." in contexts
    assert "_No verified answer to show._" in texts(message.blocks, "section")
    assert not any(t.startswith("[1] ") for t in contexts), "its footnote goes with it"
