"""Issue 20 against `prism serve` itself: gunicorn workers in a subprocess, an Enterprise
Grid install, signed events, FakeSlack (an agent app), real Redis — agent_view entry and
context, a Grid colleague answered while a Slack Connect outsider gets nothing, chatter
ignored while a follow-up is answered, ``&amp;`` in ``/prism bind``, a top-level DM
without a placeholder edit, a file-only DM answered with a note."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from slack_support import all_text, answered, unique
from test_slack_serve import served

from prism_slack.slack import texts
from prism_slack.testing.redis_server import RedisServer
from prism_slack.testing.slack_delivery import (
    app_mention,
    channel_message,
    context_changed,
    dm,
    home_opened,
    new_ts,
    with_file,
)

QUESTION = "What is Northwind Outfitters' membership ARR?"
WAIT_S = 20


def test_prism_serve_in_a_real_sales_org(
    make_redis_server: Callable[..., RedisServer], tmp_path: Path
) -> None:
    org = unique("E")
    with served(make_redis_server().url, tmp_path, enterprise_id=org) as (fake, slack, log):
        bot, rep, deal, direct = fake.bot_user_id, unique("U"), unique("C"), unique("D")
        # /prism bind with Slack's escaping: no such company, named back with a plain &.
        url = fake.response_url()
        slack.command("bind Johnson &amp; Johnson", channel=deal, user=rep, response_url=url)
        [missing] = fake.wait_for(
            lambda: [c for c in fake.calls("response_url") if c.path.endswith(url[-3:])],
            timeout=WAIT_S,
            what="the bind reply",
        )
        shown = all_text(missing.params)
        assert "Johnson &amp; Johnson" in shown and "&amp;amp;" not in shown
        url = fake.response_url()
        slack.command("bind Northwind Outfitters", channel=deal, user=rep, response_url=url)
        fake.wait_for(lambda: len(fake.calls("response_url")) == 2, timeout=WAIT_S, what="bind")

        # agent_view: the rep opens the DM, then looks at the bound deal channel.
        slack.event(home_opened(user=rep, channel=direct))
        fake.wait_for(lambda: fake.messages(direct), timeout=WAIT_S, what="the greeting")
        slack.event(context_changed(user=rep, viewing=deal, team=fake.team_id, channel=direct))
        fake.wait_for(
            lambda: any(
                p["title"] == "Ask about Northwind Outfitters" for p in fake.prompts_shown()
            ),
            timeout=WAIT_S,
            what="prompts naming the company in view",
        )
        assert all("thread_ts" not in p for p in fake.prompts_shown())

        # A top-level DM that names no company: the status in its thread, the answer there.
        ts = new_ts()
        slack.event(dm("what is their membership ARR?", user=rep, channel=direct, ts=ts))
        [answer] = fake.wait_for(
            lambda: answered(fake, direct, ts), timeout=WAIT_S, what="the DM answer"
        )
        assert "Northwind Outfitters: Membership ARR" in all_text(answer) and answer.updates == 0
        assert any(
            c.params.get("thread_ts") == ts for c in fake.calls("assistant.threads.setStatus")
        )

        # A screenshot with no words: one note.
        slack.event(with_file(dm("", user=rep, channel=direct)))
        fake.wait_for(
            lambda: any(m.text == texts.FILES_ONLY for m in fake.messages(direct)),
            timeout=WAIT_S,
            what="the files note",
        )

        # A colleague of another workspace of the org, in the deal channel's thread.
        colleague, emea = unique("U"), unique("T")
        fake.add_user(colleague, team_id=emea, enterprise_id=org)
        root = new_ts()
        grid = {"team": emea, "user_team": emea, "source_team": emea}
        slack.event(
            {**app_mention(f"<@{bot}> {QUESTION}", user=colleague, channel=deal, ts=root), **grid}
        )
        fake.wait_for(lambda: answered(fake, deal, root), timeout=WAIT_S, what="the colleague")
        # Chatter in that thread, then a real follow-up.
        chatter = "nice, I'll take it from here — Dana can you send the deck over?"
        slack.event(
            {**channel_message(chatter, user=colleague, channel=deal, thread_ts=root), **grid}
        )
        follow_up = "And which search vendor do they use?"
        slack.event(
            {**channel_message(follow_up, user=colleague, channel=deal, thread_ts=root), **grid}
        )
        fake.wait_for(
            lambda: len(answered(fake, deal, root)) == 2, timeout=WAIT_S, what="the follow-up"
        )

        # The prospect, from their own organisation, in a Slack Connect channel.
        outsider, prospect, shared = unique("U"), unique("T"), unique("C")
        fake.add_user(outsider, team_id=prospect, enterprise_id=unique("E"))
        fake.share_channel(shared)
        theirs = {"team": prospect, "user_team": prospect, "source_team": prospect}
        outside_root = new_ts()
        slack.event(
            {
                **app_mention(
                    f"<@{bot}> {QUESTION}", user=outsider, channel=shared, ts=outside_root
                ),
                **theirs,
            },
            shared=True,
        )
        # A last DM: once it is answered, every event before it has been handled.
        last = new_ts()
        slack.event(dm(QUESTION, user=rep, channel=direct, ts=last))
        fake.wait_for(lambda: answered(fake, direct, last), timeout=WAIT_S, what="the last DM")
    assert fake.messages(shared) == [] and fake.calls("chat.postEphemeral") == []
    assert len(answered(fake, deal, root)) == 2
    assert fake.calls("chat.update") == []  # no placeholder was edited into an answer
    text = log.read_text()
    assert "untagged reply not for PRISM: speaks to a colleague by name" in text
