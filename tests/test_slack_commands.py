"""`/prism` against the real report store and the state store (no Slack needed here;
test_slack_app.py drives the same handler through signed HTTP requests)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from prism_slack.ports import Conversation
from prism_slack.reports.store import FileReportStore
from prism_slack.slack import texts
from prism_slack.slack.actions import record_feedback
from prism_slack.slack.commands import CommandHandler
from prism_slack.state.redis_store import RedisStateStore, memory_store

REPORTS_DIR = Path(__file__).resolve().parent.parent / "reports"
CHANNEL = Conversation(team="T1", channel="C1")
DM = Conversation(team="T1", channel="D1")


@pytest.fixture
def handler() -> CommandHandler:
    return CommandHandler(FileReportStore(REPORTS_DIR), memory_store())


def test_bind_then_status_then_unbind(handler: CommandHandler) -> None:
    bound = handler.handle("bind\t Kestrelpoint   Software ", CHANNEL)
    assert bound.in_channel and bound.response_type == "in_channel"
    assert "Kestrelpoint Software" in bound.text and "AUD-2026-0156" in bound.text
    assert handler.state.get_binding(CHANNEL) == "kestrelpoint-software"
    assert handler.state.get_binding(DM) is None

    status = handler.handle("status", CHANNEL)
    assert not status.in_channel
    assert "Kestrelpoint Software" in status.text
    assert "AUD-2026-0156" in status.text and "2026-03-27" in status.text

    unbound = handler.handle("UNBIND", CHANNEL)
    assert unbound.in_channel and "Kestrelpoint Software" in unbound.text
    assert handler.state.get_binding(CHANNEL) is None
    again = handler.handle("unbind", CHANNEL)
    assert not again.in_channel and "Nothing is bound" in again.text
    assert "Nothing is bound to this channel" in handler.handle("status", CHANNEL).text


def test_bind_in_a_dm_binds_the_dm(handler: CommandHandler) -> None:
    reply = handler.handle("bind cedar valley health", DM)
    assert reply.text.startswith("This DM is now bound to *Cedar Valley Health Partners*")
    assert handler.state.get_binding(DM) == "cedar-valley-health"


def test_ambiguous_bind_lists_the_candidates_and_binds_nothing(handler: CommandHandler) -> None:
    reply = handler.handle("bind Northwind", CHANNEL)
    assert not reply.in_channel
    assert "Northwind Outfitters" in reply.text and "Northwind Logistics" in reply.text
    assert handler.state.get_binding(CHANNEL) is None


def test_unknown_bind_suggests_the_closest(handler: CommandHandler) -> None:
    reply = handler.handle("bind Cedar Vally", CHANNEL)
    assert not reply.in_channel and handler.state.get_binding(CHANNEL) is None
    assert reply.text.startswith("I don't have an audit report for “Cedar Vally”")
    closest = reply.text.split("The closest I have:")[1]
    assert closest.strip().startswith("• Cedar Valley Health Partners")


def test_typo_bind_still_binds(handler: CommandHandler) -> None:
    reply = handler.handle("bind nortwind outfiters", CHANNEL)
    assert reply.in_channel and handler.state.get_binding(CHANNEL) == "northwind-outfitters"


def test_reports_lists_every_report_sorted(handler: CommandHandler) -> None:
    reply = handler.handle("reports", CHANNEL)
    names = [r.company.name for r in handler.reports.all()]
    positions = [reply.text.index(name) for name in sorted(names, key=str.lower)]
    assert positions == sorted(positions)
    assert f"({len(names)})" in reply.text and not reply.in_channel


@pytest.mark.parametrize("text", ["", "help", "  HELP  "])
def test_help(handler: CommandHandler, text: str) -> None:
    assert handler.handle(text, CHANNEL).text == texts.HELP


def test_unknown_subcommand_says_so_and_helps(handler: CommandHandler) -> None:
    reply = handler.handle("frobnicate now", CHANNEL)
    assert reply.text.startswith("I don't know `/prism frobnicate`") and texts.HELP in reply.text


def test_bind_without_a_company_asks_which(handler: CommandHandler) -> None:
    assert "Which company?" in handler.handle("bind   ", CHANNEL).text


@pytest.fixture
def dead_store() -> Iterator[RedisStateStore]:
    """A store whose Redis is not there (nothing listens on port 1)."""
    dead = redis.Redis(
        host="127.0.0.1", port=1, socket_connect_timeout=0.2, retry=Retry(NoBackoff(), 0)
    )
    yield RedisStateStore(dead)
    dead.close()


@pytest.mark.parametrize("text", ["bind Northwind Outfitters", "unbind", "status"])
def test_store_down_is_said_plainly(text: str, dead_store: RedisStateStore) -> None:
    handler = CommandHandler(FileReportStore(REPORTS_DIR), dead_store)
    assert handler.handle(text, CHANNEL).text == texts.STORE_DOWN


def test_feedback_is_recorded_or_says_why_not(dead_store: RedisStateStore) -> None:
    store = memory_store()
    assert record_feedback(store, "turn1", "U1", "up") == texts.FEEDBACK_THANKS
    assert store.get_feedback("turn1") == {"U1": "up"}
    assert record_feedback(dead_store, "turn1", "U1", "up") == texts.FEEDBACK_NOT_SAVED
    assert record_feedback(store, "", "U1", "up") == texts.FEEDBACK_FAILED
