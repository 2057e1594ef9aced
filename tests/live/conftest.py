"""Live gates: the real Gemini API. Run with ``pytest -m live`` and ``GEMINI_API_KEY`` set.

Without a key every gate is skipped; the default run (``addopts = -m "not live"``) never
selects them, so ``.ci/run`` never calls the service. ``PRISM_RECORD_CASSETTES=1`` puts a
``RecordingProxy`` between the client and the service and saves each gate's exchanges
(bodies only, the key scrubbed) to ``tests/cassettes/live-<gate>.json``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from live_support import SPENT

from prism_slack.llm.gemini import GeminiClient
from prism_slack.settings import Settings
from prism_slack.testing.cassette import GEMINI_API_URL, Cassette, RecordingProxy
from prism_slack.usage import TokenUsage

CASSETTES = Path(__file__).resolve().parent.parent / "cassettes"
SETTINGS = Settings()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.live)
            if SETTINGS.gemini_api_key is None:
                item.add_marker(pytest.mark.skip(reason="live gate: GEMINI_API_KEY is not set"))


@pytest.fixture
def live_client(request: pytest.FixtureRequest) -> Iterator[GeminiClient]:
    """A client on the real API (through the recorder when recording)."""
    recording = os.environ.get("PRISM_RECORD_CASSETTES") == "1"
    cassette = Cassette(source=f"recorded from {SETTINGS.gemini_model} by {request.node.name}")
    proxy = None
    base_url = SETTINGS.gemini_base_url
    if recording:
        proxy = RecordingProxy(cassette, upstream=base_url or GEMINI_API_URL).start()
        base_url = proxy.url
    client = GeminiClient.from_settings(SETTINGS.model_copy(update={"gemini_base_url": base_url}))
    try:
        yield client
    finally:
        client.close()
        if proxy is not None:
            proxy.stop()
            cassette.save(CASSETTES / f"live-{request.node.name}.json")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if SPENT:
        total = sum(SPENT, TokenUsage())
        terminalreporter.write_line(f"live gates: {len(SPENT)} model calls, {total.log_fields()}")
