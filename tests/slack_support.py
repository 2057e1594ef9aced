"""The Slack app under test, for real: Bolt over HTTP on loopback, FakeSlack, real Redis.

``SlackHarness`` builds the same WSGI app gunicorn serves, on a threaded loopback server,
with its ``WebClient`` pointed at a ``FakeSlack`` (through ``SLACK_API_URL``, as in
production) and its state in a real ``redis-server``. ``harness.slack`` delivers signed
events, commands and clicks; ``harness.fake`` records what the app did in Slack.

``drain()`` waits for every listener the app started (it shuts its executor down), so a
test can then assert that nothing more happened — exactly one reply, no reply at all.
"""

from __future__ import annotations

import itertools
import os
import socket
import sys
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from prism_slack.claims import Answer, Claim
from prism_slack.lifecycle import Closeable
from prism_slack.llm.scripted import AnswerStep, ScriptedModel
from prism_slack.pipeline.turn import TurnDeps
from prism_slack.ports import AnswerModel, AnswerRequest
from prism_slack.render.blocks import FEEDBACK_BLOCK_ID
from prism_slack.reports.store import FileReportStore
from prism_slack.settings import GuestMode, Settings, SharedChannelMode
from prism_slack.slack import texts
from prism_slack.slack.app import SlackOptions, build_app, turn_worker
from prism_slack.slack.server import build_wsgi_app
from prism_slack.slack.worker import TurnWorker
from prism_slack.state import keys
from prism_slack.state.redis_store import RedisStateStore, open_state_store
from prism_slack.testing.fake_slack import FakeMessage, FakeSlack, RecordedCall
from prism_slack.testing.slack_delivery import SlackDelivery
from prism_slack.testing.wsgi_server import LoopbackServer

REPORTS_DIR = Path(__file__).resolve().parent.parent / "reports"
SIGNING_SECRET = "test-signing-secret-0123456789abcdef"
WAIT_S = 15.0

_ids = itertools.count(1)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def prism_command() -> list[str]:
    """The installed ``prism`` entry point (``python -m prism_slack`` without one)."""
    script = Path(sys.executable).parent / "prism"
    return [str(script)] if script.exists() else [sys.executable, "-m", "prism_slack"]


def serve_env(fake: FakeSlack, *, redis_url: str, home: Path, port: int) -> dict[str, str]:
    """The environment ``prism serve`` runs with in tests: FakeSlack, real Redis."""
    return {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(home),
        **({"PYTHONPATH": os.environ["PYTHONPATH"]} if "PYTHONPATH" in os.environ else {}),
        "SLACK_BOT_TOKEN": fake.bot_token,
        "SLACK_SIGNING_SECRET": SIGNING_SECRET,
        "SLACK_API_URL": fake.api_url,
        "REDIS_URL": redis_url,
        "PRISM_REPORTS_DIR": str(REPORTS_DIR),
        "PORT": str(port),
    }


def unique(prefix: str) -> str:
    """A Slack-looking id no other test uses (Redis is shared by the whole session)."""
    return f"{prefix}{uuid.uuid4().hex[:8].upper()}{next(_ids)}"


def fact(text: str, *paths: str) -> Claim:
    return Claim(text=text, kind="fact", evidence=list(paths))


ARR_FACT = fact("Membership ARR is $4.1M.", "financials.membership_arr_usd")
SEARCH_FACT = fact("Their search runs on Algolia.", "vendors.search")
GOOD_ANSWER = Answer(claims=[ARR_FACT, SEARCH_FACT])


class SlowModel:
    """An ``AnswerModel`` that takes ``delay_s`` before each answer of ``inner``."""

    def __init__(self, inner: AnswerModel, delay_s: float) -> None:
        self.inner = inner
        self.delay_s = delay_s
        self.name = f"slow-{inner.name}"

    def answer(self, request: AnswerRequest) -> Answer:
        time.sleep(self.delay_s)
        return self.inner.answer(request)


class GatedModel:
    """An ``AnswerModel`` that holds every answer of ``inner`` until ``release()``."""

    def __init__(self, inner: AnswerModel) -> None:
        self.inner = inner
        self.name = f"gated-{inner.name}"
        self._gate = threading.Event()
        self._lock = threading.Lock()
        self.started = 0

    def answer(self, request: AnswerRequest) -> Answer:
        with self._lock:
            self.started += 1
        self._gate.wait(timeout=WAIT_S)
        return self.inner.answer(request)

    def release(self) -> None:
        self._gate.set()


class SlackHarness(Closeable):
    """One PRISM Slack app served on loopback; see the module docstring."""

    def __init__(
        self,
        redis_url: str,
        *,
        model: AnswerModel | None = None,
        steps: list[AnswerStep] | None = None,
        fake: FakeSlack | None = None,
        reclaim_after_s: float = 2.0,
        listener_threads: int = 8,
        allowed_teams: list[str] | None = None,
        reports_dir: Path = REPORTS_DIR,
        shared_channels: SharedChannelMode = "dm",
        guests: GuestMode = "none",
        agent_view: bool = True,
    ) -> None:
        self._own_fake = fake is None
        self.fake = fake or FakeSlack(team_id=unique("T"), agent_view=agent_view).start()
        self.scripted = ScriptedModel(steps or [GOOD_ANSWER], repeat=steps is None)
        self.model: AnswerModel = model or self.scripted
        self.settings = Settings(
            slack_bot_token=SecretStr(self.fake.bot_token),
            slack_signing_secret=SecretStr(SIGNING_SECRET),
            slack_api_url=self.fake.api_url,
            redis_url=SecretStr(redis_url),
            prism_reports_dir=reports_dir,
            prism_allowed_teams=allowed_teams or [],
            prism_shared_channels=shared_channels,
            prism_guests=guests,
        )
        self.state: RedisStateStore = open_state_store(redis_url)
        self.deps = TurnDeps(
            reports=FileReportStore(reports_dir),
            state=self.state,
            model=self.model,
            judge=None,
            judge_mode="never",
        )
        self.executor = ThreadPoolExecutor(listener_threads, thread_name_prefix="test-listener")
        self.app = build_app(
            self.settings,
            self.deps,
            self.state,
            options=SlackOptions(
                listener_threads=listener_threads,
                reclaim_after_s=reclaim_after_s,
                delivery_budget_s=5.0,
            ),
            executor=self.executor,
        )
        worker = turn_worker(self.app)
        assert worker is not None
        self.worker: TurnWorker = worker
        wsgi = build_wsgi_app(self.app, self.state, signing_secret=SIGNING_SECRET)
        self.server = LoopbackServer(wsgi).start()
        self.slack = SlackDelivery(
            self.server.url + "/slack/events", SIGNING_SECRET, team_id=self.fake.team_id
        )

    # -- waiting ---------------------------------------------------------------------------

    def drain(self) -> None:
        """Wait until every listener started so far has finished (no more can start) and
        every turn recorded has been finished."""
        self.executor.shutdown(wait=True)
        client = self.state.client
        self.fake.wait_for(
            lambda: client.xlen(keys.TURN_STREAM) == 0 and self.worker.held == 0,
            timeout=WAIT_S,
            what="every turn to finish",
        )

    def wait_for_answer(self, channel: str, thread_ts: str | None) -> FakeMessage:
        """The bot's message in that thread once it is no longer a placeholder (``None`` in
        a DM: in any of its threads — a top-level DM is answered in its own thread)."""

        def answered() -> FakeMessage | None:
            done = self.answers(channel, thread_ts)
            return done[-1] if done else None

        return self.fake.wait_for(answered, timeout=WAIT_S, what=f"an answer in {channel}")

    def bot_messages(self, channel: str) -> list[FakeMessage]:
        """The bot's messages in ``channel`` (every thread) that are not placeholders."""
        return [m for m in self.fake.messages(channel) if not _placeholder(m)]

    def answers(self, channel: str, thread_ts: str | None) -> list[FakeMessage]:
        """The bot's messages in one thread that are not placeholders (``None`` in a DM:
        every thread of the DM)."""
        return answered(self.fake, channel, thread_ts)

    def wait_answers(self, channel: str, thread_ts: str | None, n: int) -> list[FakeMessage]:
        """``answers(...)`` once there are at least ``n`` of them."""
        return self.fake.wait_for(
            lambda: found if len(found := self.answers(channel, thread_ts)) >= n else None,
            what=f"{n} answers in {channel}/{thread_ts}",
        )

    def wait_response(self, url: str) -> dict[str, Any]:
        """What the app posted to ``url`` (a ``response_url`` of the fake)."""
        path = url.removeprefix(self.fake.base_url)
        call = self.fake.wait_for(
            lambda: next((c for c in self.fake.calls("response_url") if c.path == path), None),
            what=f"a response to {path}",
        )
        return call.params

    def command(self, text: str, *, channel: str, user: str) -> str:
        """Run ``/prism <text>`` in ``channel``; the text of its answer."""
        url = self.fake.response_url()
        assert self.slack.command(text, channel=channel, user=user, response_url=url).status == 200
        return all_text(self.wait_response(url))

    def posts(self, channel: str) -> list[RecordedCall]:
        return [c for c in self.fake.calls("chat.postMessage") if c.params["channel"] == channel]

    def close(self) -> None:
        self.server.stop()
        self.worker.stop(grace_s=2.0)
        self.executor.shutdown(wait=True)
        if self._own_fake:
            self.fake.stop()


def _placeholder(message: FakeMessage) -> bool:
    return message.text == texts.PLACEHOLDER


def answered(fake: FakeSlack, channel: str, thread: str | None = None) -> list[FakeMessage]:
    """The messages of a thread that are not the placeholder; with ``thread=None`` in a DM,
    of the whole DM (a top-level DM is answered in the thread of the rep's message)."""
    if thread is None and channel.startswith("D"):
        found = fake.messages(channel)
    else:
        found = fake.thread(channel, thread)
    return [m for m in found if not _placeholder(m)]


def feedback_values(blocks: list[dict[str, Any]]) -> dict[str, str]:
    """The values of an answer's feedback buttons: ``{"up": "up:<turn>", "down": …}``."""
    [block] = [b for b in blocks if b.get("block_id") == FEEDBACK_BLOCK_ID]
    [buttons] = block["elements"]
    assert (block["type"], buttons["type"]) == ("context_actions", "feedback_buttons")
    return {"up": buttons["positive_button"]["value"], "down": buttons["negative_button"]["value"]}


def turn_id_of(message: FakeMessage) -> str:
    """The turn id an answer's feedback buttons carry."""
    return feedback_values(message.blocks)["up"].partition(":")[2]


def all_text(message: FakeMessage | dict[str, Any]) -> str:
    """Every text of a message (its blocks' texts and its fallback text), joined."""
    if isinstance(message, FakeMessage):
        blocks, text = message.blocks, message.text
    else:
        blocks, text = message.get("blocks") or [], str(message.get("text") or "")
    parts = [text]
    for block in blocks:
        if isinstance(block.get("text"), dict):
            parts.append(str(block["text"].get("text", "")))
        for element in block.get("elements", []):
            if isinstance(element, dict):
                inner = element.get("text")
                parts.append(
                    str(inner.get("text", "")) if isinstance(inner, dict) else str(inner or "")
                )
    return "\n".join(parts)
