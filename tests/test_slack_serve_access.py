"""Who may ask and where, against `prism serve` itself: gunicorn workers in a subprocess,
configured from the environment, signed Slack Connect payloads, FakeSlack, real Redis."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from slack_support import all_text, answered, unique
from test_slack_serve import served

from prism_slack.slack import texts
from prism_slack.testing.redis_server import RedisServer
from prism_slack.testing.slack_delivery import (
    app_mention,
    channel_message,
    dm,
    new_ts,
)

QUESTION = "What is Northwind Outfitters' membership ARR?"
OUTSIDE = "TPROSPECT"


def test_prism_serve_keeps_report_content_out_of_shared_channels(
    make_redis_server: Callable[..., RedisServer], tmp_path: Path
) -> None:
    with served(make_redis_server().url, tmp_path) as (fake, slack, log):
        bot, rep = fake.bot_user_id, unique("U")
        shared, deal = unique("C"), unique("C")
        prospect = unique("U")
        outside: dict[str, Any] = {"user_team": OUTSIDE, "source_team": OUTSIDE}
        # The prospect's own person, and our rep, in a Slack Connect channel.
        root = new_ts()
        text = f"<@{bot}> {QUESTION}"
        for event in (
            app_mention(text, user=prospect, channel=shared, ts=root),
            channel_message(text, user=prospect, channel=shared, ts=root),
        ):
            assert slack.event({**event, **outside, "team": OUTSIDE}, shared=True).status == 200
        rep_root = new_ts()
        slack.event(app_mention(text, user=rep, channel=shared, ts=rep_root), shared=True)
        # Our rep in an internal deal channel, then a reply there meant for a colleague.
        deal_root = new_ts()
        slack.event(app_mention(text, user=rep, channel=deal, ts=deal_root))
        fake.wait_for(lambda: answered(fake, deal, deal_root), timeout=20, what="the answer")
        aside = "<@U2BOSS> can you join the call tomorrow?"
        slack.event(channel_message(aside, user=rep, channel=deal, thread_ts=deal_root))
        # A DM afterwards: once it is answered, the events before it have been handled.
        direct = unique("D")
        slack.event(dm(QUESTION, user=rep, channel=direct))
        fake.wait_for(lambda: answered(fake, direct, None), timeout=20, what="the DM answer")
        note = fake.wait_for(
            lambda: fake.calls("chat.postEphemeral"), timeout=20, what="the rep's note"
        )
    assert fake.messages(shared) == []
    [only] = note
    assert (only.params["user"], only.params["thread_ts"]) == (rep, rep_root)
    assert only.params["text"] == texts.SHARED_CHANNEL
    [deal_answer] = answered(fake, deal, deal_root)
    assert "Northwind Outfitters" in all_text(deal_answer)  # the offline answerer's
    statuses = [
        c for c in fake.calls("assistant.threads.setStatus") if c.params["channel_id"] == deal
    ]
    assert statuses and statuses[0].params["thread_ts"] == deal_root
    assert "outsider" in log.read_text() and OUTSIDE in log.read_text()
