"""What a turn costs: token usage in the audit record, a byte-identical report prefix, and
the fallback as a model of its own (one ERROR for a refused key, not one a turn)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import SecretStr

from prism_slack.claims import Answer, Claim
from prism_slack.errors import ModelAuthError, ModelTimeout
from prism_slack.llm.fallback import FallbackModel
from prism_slack.llm.gemini import GeminiAnswerModel, GeminiClient
from prism_slack.llm.offline import OfflineAnswerer
from prism_slack.llm.playbook import load_playbook
from prism_slack.llm.scripted import ScriptedModel
from prism_slack.pipeline.inject import answer_prompt
from prism_slack.pipeline.turn import TurnDeps, run_turn
from prism_slack.ports import Conversation, HistoryTurn
from prism_slack.reports.store import FileReportStore
from prism_slack.settings import Settings
from prism_slack.state.redis_store import memory_store
from prism_slack.testing.fake_gemini import FakeGemini, shared_prefix_chars
from prism_slack.usage import TokenUsage

REPORTS = FileReportStore(Path(__file__).resolve().parent.parent / "reports")
NW = "northwind-outfitters"
WHERE = Conversation(team="T1", channel="D1")
SEARCH = {
    "claims": [
        {
            "text": "Their search runs on Algolia.",
            "kind": "fact",
            "evidence": ["vendors.search"],
        }
    ]
}


@pytest.fixture
def gemini() -> Iterator[FakeGemini]:
    with FakeGemini() as fake:
        yield fake


def gemini_client(fake: FakeGemini) -> GeminiClient:
    settings = Settings(gemini_api_key=SecretStr("AIzaFAKE-cost"), gemini_base_url=fake.base_url)
    return GeminiClient.from_settings(
        settings, max_attempts=1, initial_backoff_s=0.01, timeout_s=2.0
    )


def deps_for(model: object) -> TurnDeps:
    return TurnDeps(reports=REPORTS, state=memory_store(), model=model)  # type: ignore[arg-type]


# -- usage in the audit record -----------------------------------------------------------
def test_the_audit_record_carries_each_calls_token_usage(gemini: FakeGemini) -> None:
    gemini.cache_min_tokens = 16
    gemini.answer(SEARCH).answer(SEARCH)
    with gemini_client(gemini) as client:
        deps = deps_for(FallbackModel(GeminiAnswerModel(client), OfflineAnswerer()))
        first = run_turn("What do they use for search?", WHERE, deps, report=NW)
        second = run_turn("And for search, again?", WHERE, deps, report=NW)

    for result in (first, second):
        assert result.audit is not None and result.audit.model == client.model
        [call] = result.audit.model_calls
        assert call.ok and call.usage is not None
        assert call.usage.prompt > 1000 and call.usage.output > 0
        stored = deps.state.get_audit(result.audit.turn_id)
        assert stored is not None and stored.model_calls[0].usage == call.usage
    # The second prompt repeats the first up to the history: the service caches it.
    assert first.audit is not None and second.audit is not None
    assert first.audit.model_calls[0].usage.cached == 0  # type: ignore[union-attr]
    assert second.audit.model_calls[0].usage.cached > 1000  # type: ignore[union-attr]


def test_a_local_model_reports_no_usage() -> None:
    result = run_turn("What do they use for search?", WHERE, deps_for(OfflineAnswerer()), report=NW)
    assert [c.usage for c in result.model_calls] == [None]


# -- the report block is a byte-identical prefix ----------------------------------------
def test_two_questions_on_one_report_share_the_prompt_up_to_the_history() -> None:
    report = REPORTS.get(NW)
    playbook = load_playbook().render()
    first = answer_prompt("What do they use for search?", report, [], playbook)
    history = [HistoryTurn(question="What do they use for search?", answer="Algolia.")]
    second = answer_prompt("And their CRM?", report, history, playbook)

    assert first.system == second.system
    shared = first.user[: shared_prefix_chars(first.user, second.user)]
    assert shared.endswith("\n")
    assert first.user[len(shared) :].startswith("QUESTION")
    assert second.user[len(shared) :].startswith("CONVERSATION SO FAR")
    assert "[vendors]" in shared and playbook in shared
    # The shared part is most of the prompt: the report and the playbook.
    assert len(shared) / len(first.user) > 0.9


def test_another_report_has_another_prefix() -> None:
    nw, other = REPORTS.get(NW), next(r for r in REPORTS.all() if r.slug != NW)
    a = answer_prompt("q", nw, [], "")
    b = answer_prompt("q", other, [], "")
    assert shared_prefix_chars(a.user, b.user) < 40


# -- the fallback is a model ------------------------------------------------------------
def test_fallback_answers_says_so_and_records_both_calls() -> None:
    model = FallbackModel(ScriptedModel([ModelTimeout("slow")], name="gemini-x"), OfflineAnswerer())
    result = run_turn("What do they use for search?", WHERE, deps_for(model), report=NW)

    assert result.audit is not None and result.audit.model == "offline"
    assert [(c.model, c.ok) for c in result.model_calls] == [("gemini-x", False), ("offline", True)]
    assert "gemini-x model was unavailable (ModelTimeout)" in (result.notice or "")
    assert any("Algolia" in p.text for p in result.posted)


def test_a_refused_key_is_one_error_naming_the_variable_not_a_warning_per_turn(
    caplog: pytest.LogCaptureFixture,
) -> None:
    refused = ModelAuthError("Gemini (answer) answered HTTP 403: check GEMINI_API_KEY")
    primary = ScriptedModel([refused], name="gemini-x", repeat=True)
    deps = deps_for(FallbackModel(primary, OfflineAnswerer()))
    caplog.set_level(logging.DEBUG)
    for _ in range(3):
        result = run_turn("What do they use for search?", WHERE, deps, report=NW)
        assert result.posted

    ours = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [(r.levelname, r.name) for r in ours] == [("ERROR", "prism_slack.llm.fallback")]
    assert "GEMINI_API_KEY" in ours[0].getMessage()


def test_other_failures_warn_every_time(caplog: pytest.LogCaptureFixture) -> None:
    primary = ScriptedModel([ModelTimeout("slow")], name="gemini-x", repeat=True)
    deps = deps_for(FallbackModel(primary, OfflineAnswerer()))
    for _ in range(2):
        run_turn("What do they use for search?", WHERE, deps, report=NW)
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 2 and all("ModelTimeout" in r.getMessage() for r in warnings)


def test_when_both_fail_the_turn_fails_closed() -> None:
    model = FallbackModel(
        ScriptedModel([ModelTimeout("slow")], name="gemini-x"),
        ScriptedModel([ModelTimeout("also slow")], name="offline"),
    )
    result = run_turn("What do they use for search?", WHERE, deps_for(model), report=NW)
    assert result.posted == [] and [c.ok for c in result.model_calls] == [False, False]


def test_usage_adds_up() -> None:
    a = TokenUsage(prompt=10, cached=4, output=2, thinking=1, total=13)
    assert (a + a).prompt == 20 and (a + a).cached == 8 and (a + a).total == 26
    assert Answer(claims=[Claim(text="x", kind="absent", evidence=[])])  # contract unchanged
