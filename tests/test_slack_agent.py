"""PRISM in a real sales org's Slack (issue 20), end to end: signed events through the app
over HTTP, FakeSlack and a real Redis.

- agent_view: opening the DM greets once and sets prompts the way Slack says for agent
  apps (no ``thread_ts``); the channel in view becomes the DM's binding; the legacy
  ``assistant_thread_*`` events still work;
- Enterprise Grid: a colleague from another workspace of the org is answered, one whose
  workspace is not allowed is told why, a Slack Connect outsider gets nothing, and an event
  for another install is dropped;
- replies only when spoken to: colleague chatter in an engaged thread is ignored (one log
  line with why) while a real follow-up is answered;
- never silent: a file-only DM and a whitespace DM get a note, an edit that adds @PRISM
  is answered once;
- ``/prism bind Procter &amp; Gamble`` binds Procter & Gamble.
"""

from __future__ import annotations

import json
import logging
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from slack_support import (
    REPORTS_DIR,
    SIGNING_SECRET,
    SlackHarness,
    all_text,
    answered,
    unique,
)

from prism_slack.ports import Conversation
from prism_slack.slack import texts
from prism_slack.testing.fake_slack import FakeSlack
from prism_slack.testing.slack_delivery import (
    SlackDelivery,
    app_mention,
    assistant_thread_started,
    channel_message,
    context_changed,
    dm,
    edited,
    home_opened,
    new_ts,
    with_file,
)

QUESTION = "What is Northwind Outfitters' membership ARR?"
NW = "northwind-outfitters"


def mention(harness: SlackHarness, text: str, *, user: str, channel: str, ts: str) -> None:
    """Deliver the ``app_mention`` and ``message`` events Slack sends for one @mention."""
    body = f"<@{harness.fake.bot_user_id}> {text}"
    for event in (
        app_mention(body, user=user, channel=channel, ts=ts),
        channel_message(body, user=user, channel=channel, ts=ts),
    ):
        assert harness.slack.event(event).status == 200


def handled(caplog: pytest.LogCaptureFixture, needle: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if needle in r.getMessage()]


# -- agent_view: entry and context ---------------------------------------------------------


def test_opening_the_dm_greets_once_and_sets_prompts_for_an_agent_app(
    harness: SlackHarness,
) -> None:
    user, direct = unique("U"), unique("D")
    for _ in range(2):
        assert harness.slack.event(home_opened(user=user, channel=direct)).status == 200
    harness.slack.event(home_opened(user=user, channel=direct, tab="home"))  # not the DM
    harness.drain()
    [hello] = harness.fake.messages(direct)
    assert hello.thread_ts is None and "answer only from their audit report" in hello.text
    prompts = harness.fake.calls("assistant.threads.setSuggestedPrompts")
    assert len(prompts) == 2 and len(harness.fake.prompts_shown()) == 2
    assert all("thread_ts" not in c.params and c.params["channel_id"] == direct for c in prompts)
    titles = [p["title"] for p in prompts[0].params["prompts"]]
    assert titles and all(t.startswith("About ") for t in titles)  # a few reports offered


def test_the_channel_in_view_becomes_the_binding_the_side_panel_answers_from(
    harness: SlackHarness,
) -> None:
    user, direct, deal = unique("U"), unique("D"), unique("C")
    harness.command("bind Northwind Outfitters", channel=deal, user=user)
    harness.slack.event(home_opened(user=user, channel=direct))
    # Slack's sample app_context_changed names no DM: the one the rep opened is used.
    team = harness.fake.team_id
    harness.slack.event(context_changed(user=user, viewing=deal, team=team))
    harness.fake.wait_for(
        lambda: len(harness.fake.prompts_shown()) == 2, what="prompts naming the company"
    )
    named = harness.fake.prompts_shown()[-1]
    assert named["title"] == "Ask about Northwind Outfitters"
    assert "thread_ts" not in named
    # The rep asks without naming a company: answered from the channel in view's report.
    ts = new_ts()
    harness.slack.event(dm("what is their membership ARR?", user=user, channel=direct, ts=ts))
    answer = harness.wait_for_answer(direct, ts)
    assert "Membership ARR is $4.1M." in all_text(answer)
    [request] = harness.scripted.requests
    assert request.report.slug == NW
    # An empty context (the rep looks at something Slack does not name) changes nothing.
    harness.slack.event(context_changed(user=user, viewing=None, team=team, channel=direct))
    harness.drain()
    assert len(harness.fake.prompts_shown()) == 2


def test_installs_on_the_legacy_manifest_keep_their_side_panel_threads(
    make_harness: Callable[..., SlackHarness],
) -> None:
    with FakeSlack(team_id=unique("T"), agent_view=False) as fake:
        harness = make_harness(fake=fake)
        user, direct, deal, thread = unique("U"), unique("D"), unique("C"), new_ts()
        harness.command("bind Northwind Outfitters", channel=deal, user=user)
        fake.add_assistant_thread(direct, thread)
        started = assistant_thread_started(
            user=user, channel=direct, thread_ts=thread, viewing=deal, team=fake.team_id
        )
        harness.slack.event(started)
        [shown] = fake.wait_for(fake.prompts_shown, what="the legacy prompts")
        assert shown["thread_ts"] == thread and shown["title"] == "Ask about Northwind Outfitters"
        [hello] = fake.thread(direct, thread)
        assert "Northwind Outfitters" in hello.text


# -- Enterprise Grid -------------------------------------------------------------------


def test_a_grid_colleague_is_answered_and_a_slack_connect_outsider_gets_nothing(
    make_harness: Callable[..., SlackHarness],
) -> None:
    org, home = unique("E"), unique("T")
    with FakeSlack(team_id=home, enterprise_id=org) as fake:
        harness = make_harness(fake=fake)
        slack = SlackDelivery(harness.slack.url, SIGNING_SECRET, team_id=home, enterprise_id=org)
        # A rep whose home workspace is another workspace of the same org.
        colleague, emea = unique("U"), unique("T")
        fake.add_user(colleague, team_id=emea, enterprise_id=org)
        deal, root = unique("C"), new_ts()
        grid = {"team": emea, "user_team": emea, "source_team": emea}
        body = f"<@{fake.bot_user_id}> {QUESTION}"
        slack.event({**app_mention(body, user=colleague, channel=deal, ts=root), **grid})
        answer = harness.wait_for_answer(deal, root)
        assert "Membership ARR is $4.1M." in all_text(answer)
        # The prospect, from their own organisation, in a Slack Connect channel.
        outsider, prospect, shared = unique("U"), unique("T"), unique("C")
        fake.add_user(outsider, team_id=prospect, enterprise_id=unique("E"))
        fake.share_channel(shared)
        theirs = {"team": prospect, "user_team": prospect, "source_team": prospect}
        outside_root = new_ts()
        body = f"<@{fake.bot_user_id}> {QUESTION}"
        slack.event(
            {**app_mention(body, user=outsider, channel=shared, ts=outside_root), **theirs},
            shared=True,
        )
        slack.event({**dm(QUESTION, user=outsider, channel=unique("D")), **theirs})
        harness.drain()
        assert answered(fake, shared, outside_root) == []
        assert [c.params["channel"] for c in fake.calls("chat.postMessage")] == [deal]
        assert fake.calls("chat.postEphemeral") == []  # not even told
        assert len(harness.scripted.requests) == 1


def test_an_org_colleague_whose_workspace_is_not_allowed_is_told_why(
    make_harness: Callable[..., SlackHarness],
) -> None:
    org, home = unique("E"), unique("T")
    with FakeSlack(team_id=home, enterprise_id=org) as fake:
        harness = make_harness(fake=fake, allowed_teams=[home])
        colleague, apac = unique("U"), unique("T")
        fake.add_user(colleague, team_id=apac, enterprise_id=org)
        direct = unique("D")
        harness.slack.event({**dm(QUESTION, user=colleague, channel=direct), "user_team": apac})
        [note] = fake.wait_for(lambda: fake.calls("chat.postEphemeral"), what="the note")
        harness.drain()
        assert (note.params["user"], note.params["text"]) == (
            colleague,
            texts.WORKSPACE_NOT_ALLOWED,
        )
        assert fake.calls("chat.postMessage") == [] and harness.scripted.requests == []


def test_an_event_for_another_install_is_dropped(harness: SlackHarness) -> None:
    """The team gate compares with the token's own team (``auth.test``), not the request's."""
    elsewhere = SlackDelivery(harness.slack.url, SIGNING_SECRET, team_id=unique("T"))
    user, direct = unique("U"), unique("D")
    assert elsewhere.event(dm(QUESTION, user=user, channel=direct)).status == 200
    url = harness.fake.response_url()
    reply = elsewhere.command("status", channel=direct, user=user, response_url=url)
    assert reply.status == 200 and reply.json()["text"] == texts.NOT_ENABLED
    harness.drain()
    assert harness.fake.calls("chat.postMessage") == [] and harness.scripted.requests == []
    assert harness.fake.calls("users.info") == []


# -- replies only when spoken to -----------------------------------------------------------


def test_colleague_chatter_is_ignored_while_a_real_follow_up_is_answered(
    harness: SlackHarness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="prism_slack.slack.events")
    rep, colleague, deal, root = unique("U"), unique("U"), unique("C"), new_ts()
    mention(harness, QUESTION, user=rep, channel=deal, ts=root)
    harness.wait_answers(deal, root, 1)
    chatter = [
        (rep, "nice, I'll take it from here — Dana can you send the deck over?"),
        (colleague, "thanks!"),
        (colleague, "<@U0DANA> can you join the call tomorrow?"),
        (rep, "let's sync after lunch"),
    ]
    for who, text in chatter:
        harness.slack.event(channel_message(text, user=who, channel=deal, thread_ts=root))
    follow_up = "And which search vendor do they use?"
    harness.slack.event(channel_message(follow_up, user=rep, channel=deal, thread_ts=root))
    harness.wait_answers(deal, root, 2)
    harness.drain()
    assert len(harness.answers(deal, root)) == 2
    assert [r.question for r in harness.scripted.requests] == [QUESTION, follow_up]
    skipped = handled(caplog, "not answered: untagged reply not for PRISM")
    assert len(skipped) == len(chatter)
    assert all(line.startswith(f"slack reply in {deal}/{root} ") for line in skipped)


def test_an_edit_that_adds_the_mention_is_answered_once(
    harness: SlackHarness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="prism_slack.slack")
    rep, deal, ts = unique("U"), unique("C"), new_ts()
    original = channel_message(QUESTION, user=rep, channel=deal, ts=ts)
    harness.slack.event(original)
    with_mention = f"<@{harness.fake.bot_user_id}> {QUESTION}"
    harness.slack.event(edited(original, with_mention))
    harness.wait_answers(deal, ts, 1)
    # Edited again (the mention stays) and a redelivery: nothing more.
    again = {**original, "text": with_mention}
    harness.slack.event(edited(again, with_mention + " thanks"))
    harness.drain()
    assert len(harness.answers(deal, ts)) == 1 and len(harness.scripted.requests) == 1
    assert len(handled(caplog, "was edited to mention the bot")) == 1
    # A DM that was answered already is not answered again when edited to add @PRISM.
    direct, dm_ts = unique("D"), new_ts()
    first = dm(QUESTION, user=rep, channel=direct, ts=dm_ts)
    harness.slack.event(first)
    harness.wait_for_answer(direct, None)
    harness.slack.event(edited(first, with_mention))
    harness.drain()
    assert len(answered(harness.fake, direct)) == 1 and len(harness.scripted.requests) == 2


# -- never silent --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("case", "notice", "text"),
    [("file_only", "files_only", texts.FILES_ONLY), ("whitespace", "empty", texts.EMPTY_MESSAGE)],
)
def test_a_dm_without_words_gets_one_note(
    harness: SlackHarness, caplog: pytest.LogCaptureFixture, case: str, notice: str, text: str
) -> None:
    caplog.set_level(logging.INFO, logger="prism_slack.slack.answering")
    user, direct = unique("U"), unique("D")
    event = dm("" if case == "file_only" else "  \n ", user=user, channel=direct)
    harness.slack.event(with_file(event) if case == "file_only" else event)
    note = harness.wait_for_answer(direct, None)
    harness.drain()
    assert note.text == text and note.thread_ts is None
    assert harness.scripted.requests == [] and harness.fake.calls("chat.update") == []
    [line] = handled(caplog, f" notice={notice}")
    assert " handled=answered " in line
    assert f":{direct}:" in line


def test_a_screenshot_in_an_engaged_thread_without_words_is_not_for_prism(
    harness: SlackHarness,
) -> None:
    rep, deal, root = unique("U"), unique("C"), new_ts()
    mention(harness, QUESTION, user=rep, channel=deal, ts=root)
    harness.wait_answers(deal, root, 1)
    harness.slack.event(with_file(channel_message("", user=rep, channel=deal, thread_ts=root)))
    harness.drain()
    assert len(harness.answers(deal, root)) == 1


# -- /prism bind with Slack's escaped & ------------------------------------------------------


def test_bind_unescapes_slacks_entities_and_shows_a_plain_ampersand(
    make_harness: Callable[..., SlackHarness], tmp_path: Path
) -> None:
    reports = tmp_path / "reports"
    shutil.copytree(REPORTS_DIR / "kestrelpoint-software", reports / "procter-gamble")
    data_file = reports / "procter-gamble" / "audit-data.json"
    data: dict[str, Any] = json.loads(data_file.read_text())
    data["company"].update(
        name="Procter & Gamble", aliases=["P&G"], legal_name="The Procter & Gamble Company"
    )
    data_file.write_text(json.dumps(data))
    harness = make_harness(reports_dir=reports)
    rep, deal = unique("U"), unique("C")
    url = harness.fake.response_url()
    harness.slack.command("bind Procter &amp; Gamble", channel=deal, user=rep, response_url=url)
    response = harness.wait_response(url)
    assert response["response_type"] == "in_channel"
    shown = all_text(response)
    # What Slack displays: one level of escaping, so the rep reads a plain "&".
    assert "Procter &amp; Gamble" in shown and "&amp;amp;" not in shown
    assert "is now bound to" in shown
    where = Conversation(team=harness.fake.team_id, channel=deal)
    assert harness.state.get_binding(where) == "procter-gamble"
    missing = harness.command("bind Johnson &amp; Johnson", channel=deal, user=rep)
    assert "Johnson &amp; Johnson" in missing and "&amp;amp;" not in missing
