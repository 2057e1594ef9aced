"""The Gemini adapter: the real google-genai client against the local ``FakeGemini``."""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from google.genai import errors as genai_errors
from pydantic import SecretStr

from prism_slack.claims import Answer, Claim, answer_json_schema
from prism_slack.errors import (
    ConfigError,
    ModelAuthError,
    ModelError,
    ModelOutputError,
    ModelRateLimited,
    ModelTimeout,
)
from prism_slack.evidence import Leaf
from prism_slack.llm.gemini import API_VERSION, GeminiAnswerModel, GeminiClient, GeminiJudge
from prism_slack.pipeline.inject import judge_prompt
from prism_slack.ports import (
    AnswerRequest,
    AnswerTrace,
    JudgeAnswer,
    JudgeItem,
    JudgeRequest,
    JudgeVerdict,
    Prompt,
    TokenUsage,
    judge_json_schema,
)
from prism_slack.reports.model import build_report
from prism_slack.settings import Settings
from prism_slack.testing.fake_gemini import API_KEY_INVALID, FakeGemini, FakeResponse, judge_claims

KEY = "AIzaFAKE-test-key-0123456789"
MODEL = "gemini-test-flash"
SYSTEM = "You answer only from the audit report. SYSTEM-MARKER"
USER = "What CRM do they use? USER-MARKER"
REPORT = build_report(
    "acme",
    {
        "company": {"name": "Acme Corp", "aliases": ["Acme"]},
        "report": {"id": "r-1", "generated_at": "2026-03-09"},
        "vendors": {"crm": "HubSpot"},
    },
)
PROMPT = Prompt(system=SYSTEM, user=USER, digest="sha256:test")
GOOD = {"claims": [{"text": "Their CRM is HubSpot.", "kind": "fact", "evidence": ["vendors.crm"]}]}
REQUEST = AnswerRequest(question="What CRM do they use?", report=REPORT, prompt=PROMPT)
JUDGE_ITEMS = [
    JudgeItem(
        id="c1",
        claim=Claim(text="Their CRM is HubSpot.", kind="fact", evidence=["vendors.crm"]),
        cited=[Leaf("vendors.crm", "HubSpot")],
    ),
    JudgeItem(
        id="c3",
        claim=Claim(text="They love their CRM.", kind="fact", evidence=["vendors.crm"]),
        cited=[Leaf("vendors.crm", "HubSpot")],
    ),
]
JUDGE_REQUEST = JudgeRequest(items=JUDGE_ITEMS, prompt=judge_prompt(JUDGE_ITEMS))


@pytest.fixture
def fake() -> Iterator[FakeGemini]:
    with FakeGemini() as server:
        yield server


def make_client(fake: FakeGemini, **overrides: Any) -> GeminiClient:
    values: dict[str, Any] = {
        "api_key": SecretStr(KEY),
        "model": MODEL,
        "base_url": fake.base_url,
        "timeout_s": 1.0,
        "max_attempts": 3,
        "max_total_s": 3.0,
        "initial_backoff_s": 0.01,
        "max_backoff_s": 0.05,
    }
    values.update(overrides)
    return GeminiClient(**values)


@pytest.fixture
def client(fake: FakeGemini) -> Iterator[GeminiClient]:
    with make_client(fake) as c:
        yield c


# -- the request ------------------------------------------------------------------------
def test_request_carries_instruction_schema_model_and_no_tools(
    fake: FakeGemini, client: GeminiClient
) -> None:
    fake.answer(GOOD)

    answer = GeminiAnswerModel(client).answer(REQUEST)

    assert answer == Answer.model_validate(GOOD)
    [sent] = fake.requests
    assert sent.model == MODEL
    assert sent.path.endswith(f"/models/{MODEL}:generateContent")
    body = sent.body
    assert body["systemInstruction"]["parts"] == [{"text": SYSTEM}]
    assert body["contents"] == [{"role": "user", "parts": [{"text": USER}]}]
    config = body["generationConfig"]
    assert config["responseMimeType"] == "application/json"
    assert config["responseJsonSchema"] == answer_json_schema()
    # Gemini 3: the model's default temperature and thinking level unless configured.
    assert "temperature" not in config
    assert "thinkingConfig" not in config
    assert config.get("candidateCount", 1) == 1
    assert sent.api_version == API_VERSION == "v1beta"
    # L2 lock-down: nothing that lets the model call out.
    assert "tools" not in body
    assert "toolConfig" not in body
    assert sent.api_key_sent
    assert all(KEY not in value for value in sent.headers.values())


def test_judge_sends_every_claim_in_one_request_and_parses_one_verdict_each(
    fake: FakeGemini, client: GeminiClient
) -> None:
    fake.answer(
        {
            "verdicts": [
                {"id": "c1", "verdict": "supported"},
                {"id": "c3", "verdict": "unsupported", "rewrite": "Their CRM is HubSpot."},
            ]
        }
    )

    answer = GeminiJudge(client).judge(JUDGE_REQUEST)

    assert answer == JudgeAnswer(
        verdicts=[
            JudgeVerdict(id="c1", verdict="supported"),
            JudgeVerdict(id="c3", verdict="unsupported", rewrite="Their CRM is HubSpot."),
        ]
    )
    [sent] = fake.requests
    config = sent.body["generationConfig"]
    assert config["responseJsonSchema"] == judge_json_schema(["c1", "c3"])
    assert config["responseMimeType"] == "application/json"
    assert "tools" not in sent.body
    assert judge_claims(sent) == {"c1": "Their CRM is HubSpot.", "c3": "They love their CRM."}


def test_judge_schema_stays_inside_geminis_documented_subset() -> None:
    schema = judge_json_schema(["c1", "c2"])

    used = schema_keywords(schema)
    assert used <= DOCUMENTED_SCHEMA_KEYWORDS, used - DOCUMENTED_SCHEMA_KEYWORDS
    assert "default" not in used and "anyOf" not in used
    assert all(s.get("type") != "null" for s in _subschemas(schema))
    verdicts = schema["properties"]["verdicts"]
    assert verdicts["minItems"] == verdicts["maxItems"] == 2
    assert verdicts["items"]["properties"]["id"]["enum"] == ["c1", "c2"]
    assert verdicts["items"]["required"] == ["id", "verdict"]


def test_configured_temperature_and_thinking_level_are_sent(fake: FakeGemini) -> None:
    fake.answer(GOOD)
    with make_client(fake, temperature=1.0, thinking_level="low") as client:
        GeminiAnswerModel(client).answer(REQUEST)
    config = fake.requests[0].body["generationConfig"]
    assert config["temperature"] == 1.0
    # google-genai 3.6.1 passes the nested config through with its proto field name;
    # proto3's JSON mapping accepts the field name as well as its lowerCamelCase name.
    assert config["thinkingConfig"] in ({"thinkingLevel": "LOW"}, {"thinking_level": "LOW"})


# The keywords google-genai documents for ``response_json_schema`` (GenerateContentConfig
# docstring, 3.6.1): anything else "may be sent" but is not supported.
DOCUMENTED_SCHEMA_KEYWORDS = {
    "$id", "$defs", "$ref", "$anchor", "type", "format", "title", "description", "enum",
    "items", "prefixItems", "minItems", "maxItems", "minimum", "maximum", "anyOf", "oneOf",
    "properties", "additionalProperties", "required", "propertyOrdering",
}  # fmt: skip


def schema_keywords(schema: Any) -> set[str]:
    """Every keyword used in ``schema`` (property names under ``properties`` are not)."""
    found: set[str] = set()
    if isinstance(schema, dict):
        for key, value in schema.items():
            found.add(key)
            if key in ("properties", "$defs"):
                for sub in value.values():
                    found |= schema_keywords(sub)
            else:
                found |= schema_keywords(value)
    elif isinstance(schema, list):
        for item in schema:
            found |= schema_keywords(item)
    return found


def test_the_answer_schema_stays_inside_the_documented_subset() -> None:
    used = schema_keywords(answer_json_schema())
    assert used <= DOCUMENTED_SCHEMA_KEYWORDS, used - DOCUMENTED_SCHEMA_KEYWORDS
    # A ``$ref`` sub-schema may carry nothing else but ``$`` keywords.
    refs = [s for s in _subschemas(answer_json_schema()) if "$ref" in s]
    assert refs and all(all(k.startswith("$") for k in s) for s in refs)


def _subschemas(schema: Any) -> Iterator[dict[str, Any]]:
    if isinstance(schema, dict):
        yield schema
        for value in schema.values():
            yield from _subschemas(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from _subschemas(item)


# -- token usage ------------------------------------------------------------------------
def test_usage_metadata_goes_into_the_trace_and_the_log_line(
    fake: FakeGemini, client: GeminiClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="prism_slack.llm.gemini")
    usage = {
        "promptTokenCount": 1500,
        "cachedContentTokenCount": 1024,
        "candidatesTokenCount": 60,
        "thoughtsTokenCount": 210,
        "totalTokenCount": 1770,
    }
    body = FakeResponse.answer(GOOD).body
    fake.enqueue(FakeResponse(body={**body, "usageMetadata": usage}))
    request = AnswerRequest(question="q", report=REPORT, prompt=PROMPT, trace=AnswerTrace())

    GeminiAnswerModel(client).answer(request)

    expected = TokenUsage(prompt=1500, cached=1024, output=60, thinking=210, total=1770)
    assert request.trace.usage == expected
    [line] = [r.getMessage() for r in caplog.records if "gemini call" in r.getMessage()]
    assert expected.log_fields() in line


def test_the_fake_computes_usage_and_counts_a_shared_prefix_as_cached(
    fake: FakeGemini, client: GeminiClient
) -> None:
    fake.cache_min_tokens = 4
    fake.answer(GOOD).answer(GOOD)
    model = GeminiAnswerModel(client)
    first = AnswerRequest(question="q", report=REPORT, prompt=PROMPT)
    second_prompt = Prompt(system=SYSTEM, user=USER + " and again?", digest="d2")
    second = AnswerRequest(question="q", report=REPORT, prompt=second_prompt)
    model.answer(first)
    model.answer(second)
    assert first.trace.usage is not None and second.trace.usage is not None
    assert first.trace.usage.cached == 0
    assert first.trace.usage.prompt == -(-len(SYSTEM + USER) // 4)
    assert second.trace.usage.cached == len(SYSTEM + USER) // 4
    assert second.trace.usage.output > 0


def test_a_broken_reply_still_reports_what_it_cost(fake: FakeGemini, client: GeminiClient) -> None:
    fake.answer({"answer": "HubSpot"})
    request = AnswerRequest(question="q", report=REPORT, prompt=PROMPT)
    with pytest.raises(ModelOutputError):
        GeminiAnswerModel(client).answer(request)
    assert request.trace.usage is not None and request.trace.usage.prompt > 0


# -- models.get --------------------------------------------------------------------------
def test_get_model_describes_the_model_and_names_a_missing_one() -> None:
    with FakeGemini(models={MODEL}) as fake:
        with make_client(fake) as client:
            assert client.get_model().name == f"models/{MODEL}"
        with (
            make_client(fake, model="gemini-nope") as client,
            pytest.raises(ModelError, match="check GEMINI_MODEL"),
        ):
            client.get_model()
    with (
        FakeGemini(api_key="right") as fake,
        make_client(fake) as client,
        pytest.raises(ModelAuthError, match="GEMINI_API_KEY"),
    ):
        client.get_model()


def test_names_are_the_model_id(client: GeminiClient) -> None:
    assert GeminiAnswerModel(client).name == MODEL
    assert GeminiJudge(client).name == MODEL
    assert KEY not in repr(client)


# -- retries ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("hint", "expected_wait"),
    [
        pytest.param({"retry_delay": 0.4}, 0.4, id="rpc-RetryInfo"),
        pytest.param({"retry_after": "1"}, 1.0, id="Retry-After-header"),
    ],
)
def test_429_waits_for_the_server_delay_then_succeeds(
    fake: FakeGemini, client: GeminiClient, hint: dict[str, Any], expected_wait: float
) -> None:
    fake.error(429, message="Resource has been exhausted", **hint)
    fake.answer(GOOD)

    answer = GeminiAnswerModel(client).answer(REQUEST)

    assert answer == Answer.model_validate(GOOD)
    first, second = fake.requests
    gap = second.received_at - first.received_at
    # Honoured: at least the server's delay (the backoff alone would be ~0.01 s) ...
    assert gap >= expected_wait - 0.02
    # ... and not much more.
    assert gap < expected_wait + 0.4


def test_429_asking_beyond_the_budget_gives_up_at_once(fake: FakeGemini) -> None:
    fake.error(429, retry_delay=30)
    fake.answer(GOOD)
    with make_client(fake, max_total_s=2.0) as client:
        started = time.monotonic()
        with pytest.raises(ModelRateLimited, match=r"30s exceeds the 2s budget") as info:
            GeminiAnswerModel(client).answer(REQUEST)
    assert time.monotonic() - started < 0.5
    assert len(fake.requests) == 1
    assert isinstance(info.value.__cause__, genai_errors.ClientError)


def test_429_every_time_is_rate_limited_after_max_attempts(fake: FakeGemini) -> None:
    fake.default = lambda _request: FakeResponse.error(429)
    with (
        make_client(fake, max_attempts=3) as client,
        pytest.raises(ModelRateLimited, match="after 3 attempt"),
    ):
        GeminiAnswerModel(client).answer(REQUEST)
    assert len(fake.requests) == 3


def test_500_then_success_is_retried(fake: FakeGemini, client: GeminiClient) -> None:
    fake.error(500, message="internal")
    fake.answer(GOOD)

    assert GeminiAnswerModel(client).answer(REQUEST) == Answer.model_validate(GOOD)
    assert len(fake.requests) == 2


def test_persistent_503_fails_after_max_attempts_in_bounded_time(fake: FakeGemini) -> None:
    fake.default = lambda _request: FakeResponse.error(503, message="overloaded")
    with make_client(fake, max_attempts=4) as client:
        started = time.monotonic()
        with pytest.raises(ModelError, match="HTTP 503") as info:
            GeminiAnswerModel(client).answer(REQUEST)
    assert type(info.value) is ModelError
    assert len(fake.requests) == 4
    assert time.monotonic() - started < 1.0
    assert isinstance(info.value.__cause__, genai_errors.ServerError)


def test_slow_server_raises_model_timeout(fake: FakeGemini) -> None:
    fake.default = lambda _request: FakeResponse.answer(GOOD, delay_s=2.0)
    with make_client(fake, timeout_s=0.2, max_attempts=2) as client:
        started = time.monotonic()
        with pytest.raises(ModelTimeout) as info:
            GeminiAnswerModel(client).answer(REQUEST)
    assert time.monotonic() - started < 1.0
    assert len(fake.requests) == 2  # timeouts are retried, within the attempts
    assert isinstance(info.value.__cause__, httpx2.TimeoutException)


def test_total_budget_cuts_the_last_attempt_short(fake: FakeGemini) -> None:
    fake.default = lambda _request: FakeResponse.answer(GOOD, delay_s=5.0)
    with make_client(fake, timeout_s=5.0, max_attempts=5, max_total_s=0.4) as client:
        started = time.monotonic()
        with pytest.raises(ModelTimeout):
            GeminiAnswerModel(client).answer(REQUEST)
    assert time.monotonic() - started < 0.8


def test_unreachable_server_is_a_model_error() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    client = GeminiClient(
        api_key=KEY,
        model=MODEL,
        base_url=f"http://127.0.0.1:{port}",
        max_attempts=2,
        initial_backoff_s=0.01,
        max_backoff_s=0.02,
    )
    with client, pytest.raises(ModelError, match="could not reach Gemini") as info:
        GeminiAnswerModel(client).answer(REQUEST)
    assert isinstance(info.value.__cause__, httpx2.TransportError)


# -- the model answered, but not with the contract ----------------------------------------
OUTPUT_CASES = [
    pytest.param(FakeResponse.answer('{"claims": [{"text": '), "not valid JSON", id="bad-json"),
    pytest.param(
        FakeResponse.answer({"claims": [{"text": "x", "kind": "opinion", "evidence": []}]}),
        r"claims\[0\]\.kind",
        id="schema-violation",
    ),
    pytest.param(FakeResponse.answer({"answer": "HubSpot"}), "claims", id="wrong-shape"),
    pytest.param(
        FakeResponse.answer("Their CRM is HubSpot, as far as I know."),
        "not valid JSON",
        id="prose",
    ),
    pytest.param(FakeResponse.empty(), "no candidates", id="no-candidates"),
    pytest.param(FakeResponse.blocked(), "blocked the prompt: block_reason=SAFETY", id="blocked"),
    pytest.param(
        FakeResponse.blocked(stage="candidate"),
        "blocked by safety filters: finish_reason=SAFETY",
        id="candidate-blocked",
    ),
    pytest.param(
        FakeResponse(
            body={"candidates": [{"content": {"role": "model", "parts": [{"text": " "}]}}]}
        ),
        "carries no text",
        id="blank-text",
    ),
    pytest.param(
        FakeResponse(
            body={
                "candidates": [
                    {
                        "content": {"role": "model", "parts": [{"text": '{"claims": [{"te'}]},
                        "finishReason": "MAX_TOKENS",
                    }
                ]
            }
        ),
        "stopped early: finish_reason=MAX_TOKENS",
        id="truncated",
    ),
    pytest.param(
        FakeResponse(
            body={
                "candidates": [
                    {
                        "content": {
                            "role": "model",
                            "parts": [{"functionCall": {"name": "search", "args": {}}}],
                        },
                        "finishReason": "STOP",
                    }
                ]
            }
        ),
        "attempted a tool call",
        id="function-call",
    ),
]


@pytest.mark.parametrize(("response", "message"), OUTPUT_CASES)
def test_output_that_breaks_the_contract_is_a_model_output_error(
    fake: FakeGemini, client: GeminiClient, response: FakeResponse, message: str
) -> None:
    fake.enqueue(response)
    fake.answer(GOOD)  # would be returned if the adapter wrongly retried

    with pytest.raises(ModelOutputError, match=message):
        GeminiAnswerModel(client).answer(REQUEST)
    assert len(fake.requests) == 1


def test_output_error_keeps_the_raw_text_truncated(fake: FakeGemini, client: GeminiClient) -> None:
    prose = "Sure! " + "blah " * 1000
    fake.answer(prose)
    with pytest.raises(ModelOutputError) as info:
        GeminiAnswerModel(client).answer(REQUEST)
    assert info.value.raw == prose[:2000]


@pytest.mark.parametrize(
    "payload",
    [
        pytest.param({"verdicts": [{"id": "c1", "verdict": "maybe"}]}, id="unknown-verdict"),
        pytest.param(
            {"verdicts": [{"id": "c1", "verdict": "supported", "why": "x"}]}, id="extra-field"
        ),
        pytest.param({"verdicts": [{"verdict": "supported"}]}, id="no-id"),
        pytest.param({"verdict": "supported"}, id="one-verdict-not-a-list"),
        pytest.param("It is supported.", id="prose"),
    ],
)
def test_invalid_judge_output_is_a_model_output_error(
    fake: FakeGemini, client: GeminiClient, payload: object
) -> None:
    fake.answer(payload)
    with pytest.raises(ModelOutputError, match="judge verdict is not valid"):
        GeminiJudge(client).judge(JUDGE_REQUEST)


# -- client errors are not retried --------------------------------------------------------


@pytest.mark.parametrize(
    ("response", "message"),
    [
        pytest.param(
            FakeResponse.error(400, message="bad schema"), "HTTP 400.*bad schema", id="400"
        ),
        pytest.param(FakeResponse.error(400, body=API_KEY_INVALID), "GEMINI_API_KEY", id="bad-key"),
        pytest.param(FakeResponse.error(401), "check GEMINI_API_KEY", id="401"),
        pytest.param(FakeResponse.error(403), "check GEMINI_API_KEY", id="403"),
        pytest.param(FakeResponse.error(404), "check GEMINI_MODEL", id="404"),
    ],
)
def test_client_errors_are_model_errors_and_not_retried(
    fake: FakeGemini, client: GeminiClient, response: FakeResponse, message: str
) -> None:
    fake.enqueue(response)
    fake.answer(GOOD)

    with pytest.raises(ModelError, match=message) as info:
        GeminiAnswerModel(client).answer(REQUEST)
    expected = ModelAuthError if "GEMINI_API_KEY" in message else ModelError
    assert type(info.value) is expected
    assert isinstance(info.value.__cause__, genai_errors.ClientError)
    assert len(fake.requests) == 1


# -- logs --------------------------------------------------------------------------------
def test_one_info_line_per_call_and_never_the_key_or_text(
    fake: FakeGemini, client: GeminiClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    fake.error(429, retry_delay=0.01)
    fake.answer(GOOD)
    fake.error(401, message="API key not valid")
    model = GeminiAnswerModel(client)

    model.answer(REQUEST)
    with pytest.raises(ModelError):
        model.answer(REQUEST)

    assert KEY not in caplog.text
    for record in caplog.records:
        assert KEY not in record.getMessage()
    ours = [r for r in caplog.records if r.name == "prism_slack.llm.gemini"]
    assert [r.levelno for r in ours] == [logging.INFO] * 3
    lines = [r.getMessage() for r in ours]
    assert ["attempt=1 status=429" in lines[0], "attempt=2 status=200" in lines[1]] == [True] * 2
    assert "attempt=1 status=401" in lines[2]
    assert all(f"model={MODEL} role=answer" in line and "latency_ms=" in line for line in lines)
    info_text = "\n".join(r.getMessage() for r in caplog.records if r.levelno >= logging.INFO)
    for secret in ("SYSTEM-MARKER", "USER-MARKER", "HubSpot"):
        assert secret not in info_text


# -- construction ------------------------------------------------------------------------
def test_from_settings_builds_a_client_and_requires_a_key(fake: FakeGemini) -> None:
    settings = Settings(
        gemini_api_key=SecretStr(KEY), gemini_model=MODEL, gemini_base_url=fake.base_url
    )
    fake.answer(GOOD)
    with GeminiClient.from_settings(settings, initial_backoff_s=0.01) as client:
        assert client.model == MODEL
        assert (client.temperature, client.thinking_level) == (None, None)
        assert GeminiAnswerModel(client).answer(REQUEST) == Answer.model_validate(GOOD)

    tuned = settings.model_copy(update={"gemini_temperature": 1.0, "gemini_thinking_level": "low"})
    with GeminiClient.from_settings(tuned) as client:
        assert (client.temperature, client.thinking_level) == (1.0, "low")

    with pytest.raises(ConfigError, match="GEMINI_API_KEY"):
        GeminiClient.from_settings(Settings(gemini_api_key=None))
    with pytest.raises(ConfigError, match="GEMINI_API_KEY"):
        GeminiClient(api_key=" ", model=MODEL)


# -- the fake itself ---------------------------------------------------------------------
def test_fake_closes_fast_with_a_request_in_flight_and_leaves_no_threads() -> None:
    before = set(threading.enumerate())
    fake = FakeGemini(default=FakeResponse.answer(GOOD, delay_s=30.0))
    client = make_client(fake, timeout_s=0.2, max_attempts=1)
    with client, pytest.raises(ModelTimeout):
        GeminiAnswerModel(client).answer(REQUEST)
    started = time.monotonic()
    fake.close()
    assert time.monotonic() - started < 1.0
    assert set(threading.enumerate()) <= before


def test_fake_delay_applies_to_the_next_response(fake: FakeGemini, client: GeminiClient) -> None:
    fake.delay(0.3).answer(GOOD)
    started = time.monotonic()
    GeminiAnswerModel(client).answer(REQUEST)
    assert time.monotonic() - started >= 0.3
    assert fake.pending == 0


def test_unreadable_200_body_is_a_model_error(fake: FakeGemini, client: GeminiClient) -> None:
    fake.enqueue(FakeResponse(body="<html>proxy error</html>", raw=True))
    with pytest.raises(ModelError, match="cannot be read"):
        GeminiAnswerModel(client).answer(REQUEST)
    assert len(fake.requests) == 1
