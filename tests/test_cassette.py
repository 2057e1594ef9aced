"""Cassettes: a recorded (here: hand-made) exchange replayed through the real google-genai
client, the fake Gemini server and the whole pipeline; and the recorder that makes them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from prism_slack.claims import answer_json_schema
from prism_slack.errors import ModelError
from prism_slack.llm.gemini import GeminiAnswerModel, GeminiClient
from prism_slack.llm.playbook import load_playbook
from prism_slack.pipeline.turn import TurnDeps, run_turn
from prism_slack.ports import AnswerRequest, Conversation, Prompt
from prism_slack.reports.store import FileReportStore
from prism_slack.settings import Settings
from prism_slack.state.redis_store import memory_store
from prism_slack.testing.cassette import SCRUBBED, Cassette, RecordingProxy, Replay
from prism_slack.testing.fake_gemini import FakeGemini
from prism_slack.usage import TokenUsage
from prism_slack.verdict import Label

ROOT = Path(__file__).resolve().parent.parent
CASSETTES = ROOT / "tests" / "cassettes"
EXAMPLE = CASSETTES / "example-northwind-search.json"
REPORTS = FileReportStore(ROOT / "reports")
QUESTION = "What do they use for search, and what's their conversion rate?"
KEY = "AIzaFAKE-cassette-key-0123456789"


def client_for(base_url: str) -> GeminiClient:
    settings = Settings(gemini_api_key=SecretStr(KEY), gemini_base_url=base_url)
    return GeminiClient.from_settings(settings, max_attempts=1, timeout_s=5.0)


def turn_deps(client: GeminiClient) -> TurnDeps:
    playbook = load_playbook()
    return TurnDeps(
        reports=REPORTS,
        state=memory_store(),
        model=GeminiAnswerModel(client),
        playbook_text=playbook.render(),
        vocabulary=playbook.vocabulary(),
    )


def test_the_example_cassette_says_it_is_hand_made_and_holds_no_key() -> None:
    cassette = Cassette.load(EXAMPLE)
    assert cassette.source.startswith("hand-made, not recorded")
    assert "x-goog-api-key" not in EXAMPLE.read_text().lower()
    [exchange] = cassette.exchanges
    assert exchange.path == "/v1beta/models/gemini-3.8-flash:generateContent"


def test_a_cassette_replays_through_the_real_client_and_the_pipeline() -> None:
    replay = Replay(Cassette.load(EXAMPLE))
    with FakeGemini(default=replay) as fake, client_for(fake.base_url) as client:
        result = run_turn(
            QUESTION, Conversation(team="T", channel="D"), turn_deps(client),
            report="northwind-outfitters",
        )  # fmt: skip

    assert result.label is Label.EVIDENCE_LINKED
    assert [p.text for p in result.posted][:2] == [
        "Their search runs on Algolia.",
        "Their conversion rate is 2.14%.",
    ]
    assert result.audit is not None
    [call] = result.audit.model_calls
    assert call.usage == TokenUsage(prompt=4012, cached=0, output=96, thinking=283, total=4391)
    assert replay.remaining == 0
    # What we send today is what was recorded: the same generation config, schema and all.
    [drift] = replay.drift
    assert [d for d in drift if d.startswith("generationConfig")] == []
    recorded = Cassette.load(EXAMPLE).exchanges[0].request
    assert recorded["generationConfig"]["responseJsonSchema"] == answer_json_schema()


def test_a_replay_asked_for_another_model_fails_loudly() -> None:
    replay = Replay(Cassette.load(EXAMPLE))
    report = REPORTS.get("northwind-outfitters")
    request = AnswerRequest(
        question="q", report=report, prompt=Prompt(system="s", user="u", digest="d")
    )
    with FakeGemini(default=replay) as fake:
        settings = Settings(
            gemini_api_key=SecretStr(KEY),
            gemini_model="gemini-other",
            gemini_base_url=fake.base_url,
        )
        with (
            GeminiClient.from_settings(settings, max_attempts=1) as client,
            pytest.raises(ModelError, match="cassette: recorded"),
        ):
            GeminiAnswerModel(client).answer(request)


def test_the_recorder_keeps_bodies_never_the_key_and_its_cassette_replays(
    tmp_path: Path,
) -> None:
    answer = {"claims": [{"text": f"Key {KEY}?", "kind": "absent", "evidence": []}]}
    cassette = Cassette(source="recorded in a test from FakeGemini")
    with (
        FakeGemini(api_key=KEY) as upstream,
        RecordingProxy(cassette, upstream=upstream.base_url) as proxy,
        client_for(proxy.url) as client,
    ):
        upstream.answer(answer)
        client.get_model()
        recorded = client.generate_json("answer", Prompt("sys", "user", "d"), {"type": "object"})
        assert upstream.requests[-1].api_key_sent
    saved = tmp_path / "recorded.json"
    cassette.save(saved)

    text = saved.read_text()
    assert KEY not in text and SCRUBBED in text
    assert [(e.method, e.status) for e in cassette.exchanges] == [("GET", 200), ("POST", 200)]
    post = cassette.exchanges[1]
    assert post.request["systemInstruction"]["parts"] == [{"text": "sys"}]
    assert "usageMetadata" in post.response
    with FakeGemini(default=Replay(Cassette.load(saved))) as fake, client_for(fake.base_url) as c:
        again = c.generate_json("answer", Prompt("sys", "user", "d"), {"type": "object"})
    assert json.loads(again) == json.loads(recorded.replace(KEY, SCRUBBED))


def test_an_error_is_recorded_as_the_service_sent_it() -> None:
    cassette = Cassette(source="test")
    with (
        FakeGemini(api_key="another") as upstream,
        RecordingProxy(cassette, upstream=upstream.base_url) as proxy,
        client_for(proxy.url) as client,
        pytest.raises(ModelError, match="GEMINI_API_KEY"),
    ):
        client.get_model()
    [exchange] = cassette.exchanges
    body: Any = exchange.response
    assert exchange.status == 400 and body["error"]["status"] == "INVALID_ARGUMENT"
