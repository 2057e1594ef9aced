"""Gemini adapter (google-genai): the ``AnswerModel`` and the ``Judge`` behind the pipeline.

Both send one ``generateContent`` request per attempt: the prompt's system text as the
system instruction, its user text as the contents, JSON output held to a schema (the claim
contract, or ``JudgeAnswer``) — and no tools of any kind (L2). Every reply's
``usage_metadata`` (prompt, cached, output and thinking tokens) goes on the call's log line
and, for answers, into the audit record.

The request follows Google's current guidance for Gemini 3 models: no temperature unless
the operator sets one (the Gemini 3 developer guide asks to keep the default of 1.0; lower
values can loop or degrade reasoning), and a ``thinkingLevel`` (not a token budget) only
when the operator sets one — the model's default otherwise (MEDIUM for gemini-3.8-flash).

Retries (429, 5xx, timeouts, connection errors) run on tenacity, not the SDK's
``HttpRetryOptions``: the SDK's wait is a plain exponential and cannot honour the delay the
server asks for (``google.rpc.RetryInfo.retryDelay`` or ``Retry-After``). Every attempt's
timeout is cut to the time left in the budget, so a call never outlives ``max_total_s``
by more than a few milliseconds. SDK and transport errors leave this module only as
``prism_slack.errors`` types.
"""

from __future__ import annotations

import email.utils
import logging
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, TypeVar

import httpx2
import tenacity
from google import genai
from google.genai import errors as genai_errors
from google.genai import types
from pydantic import SecretStr, ValidationError

from prism_slack.claims import Answer, answer_json_schema, parse_answer
from prism_slack.errors import (
    AnswerParseError,
    ConfigError,
    ModelAuthError,
    ModelError,
    ModelOutputError,
    ModelRateLimited,
    ModelTimeout,
)
from prism_slack.lifecycle import Closeable
from prism_slack.ports import (
    AnswerRequest,
    JudgeAnswer,
    JudgeRequest,
    Prompt,
    judge_json_schema,
)
from prism_slack.settings import Settings, ThinkingLevel
from prism_slack.usage import TokenUsage

logger = logging.getLogger(__name__)

Role = Literal["answer", "judge"]

API_VERSION = "v1beta"
"""Pinned, not left to the SDK. google-genai 3.x defaults the Developer API to ``v1``
(``GOOGLE_AI_API_DEFAULT_VERSION = 'v1'`` in its ``_api_client``), while Google's "API
versions explained" page says the SDKs default to ``v1beta`` and documents new
capabilities there first; ``v1`` has answered ``Unknown name "systemInstruction"`` to
requests like ours (googleapis/python-genai#425, vercel/ai#2256), and
``responseJsonSchema`` is documented on ``v1beta``'s generateContent. Pinning keeps an SDK
upgrade from silently moving every request to another API surface."""
RAW_LIMIT = 2000
"""Characters of raw model text kept on a ``ModelOutputError`` for the audit."""
_MESSAGE_LIMIT = 200
_RETRY_INFO = "type.googleapis.com/google.rpc.RetryInfo"
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)s\s*$")
_ACCEPTED_FINISH = {types.FinishReason.STOP, types.FinishReason.FINISH_REASON_UNSPECIFIED}
_SAFETY_FINISH = {
    types.FinishReason.SAFETY,
    types.FinishReason.BLOCKLIST,
    types.FinishReason.PROHIBITED_CONTENT,
    types.FinishReason.SPII,
    types.FinishReason.RECITATION,
}


T = TypeVar("T")


@dataclass(frozen=True)
class Reply:
    """One model reply: its JSON text and what it cost."""

    text: str
    usage: TokenUsage


class GeminiClient(Closeable):
    """One configured google-genai client plus the retry policy around it.

    Built from explicit values; ``from_settings`` maps ``Settings`` onto them. ``sleep`` and
    ``initial_backoff_s`` exist so tests can run retries fast.
    """

    def __init__(
        self,
        *,
        api_key: SecretStr | str,
        model: str,
        base_url: str | None = None,
        api_version: str = API_VERSION,
        timeout_s: float = 30.0,
        max_attempts: int = 4,
        max_total_s: float = 60.0,
        initial_backoff_s: float = 1.0,
        max_backoff_s: float = 20.0,
        temperature: float | None = None,
        thinking_level: ThinkingLevel | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        key = api_key.get_secret_value() if isinstance(api_key, SecretStr) else api_key
        if not key.strip():
            # An empty key would make the SDK fall back to the process environment.
            raise ConfigError("GEMINI_API_KEY is empty")
        if not model:
            raise ConfigError("GEMINI_MODEL is empty")
        if timeout_s <= 0 or max_total_s <= 0 or max_attempts < 1:
            raise ConfigError("Gemini timeout, total budget and attempts must be positive")
        self.model = model
        self.base_url = base_url
        self.timeout_s = timeout_s
        self.max_attempts = max_attempts
        self.max_total_s = max_total_s
        self.initial_backoff_s = initial_backoff_s
        self.max_backoff_s = max_backoff_s
        self.temperature = temperature
        self.thinking_level = thinking_level
        self._sleep = sleep
        self._backoff = tenacity.wait_exponential_jitter(
            initial=initial_backoff_s, max=max_backoff_s, jitter=initial_backoff_s
        )
        self._genai = genai.Client(
            api_key=key,
            http_options=types.HttpOptions(
                base_url=base_url,
                api_version=api_version,
                timeout=_ms(timeout_s),
                retry_options=None,  # never retry inside the SDK; see module docstring
            ),
        )

    @classmethod
    def from_settings(cls, settings: Settings, **overrides: Any) -> GeminiClient:
        """A client for ``settings``; raises ``ConfigError`` when there is no API key."""
        if settings.gemini_api_key is None:
            raise ConfigError("GEMINI_API_KEY is not set")
        values: dict[str, Any] = {
            "api_key": settings.gemini_api_key,
            "model": settings.gemini_model,
            "base_url": settings.gemini_base_url,
            "timeout_s": settings.gemini_timeout_s,
            "temperature": settings.gemini_temperature,
            "thinking_level": settings.gemini_thinking_level,
            "max_total_s": max(60.0, 2 * settings.gemini_timeout_s),
        }
        values.update(overrides)
        return cls(**values)

    def __repr__(self) -> str:
        return f"GeminiClient(model={self.model!r}, base_url={self.base_url!r})"

    def close(self) -> None:
        self._genai.close()

    # -- the external calls ------------------------------------------------------------
    def generate_json(self, role: Role, prompt: Prompt, schema: dict[str, Any]) -> str:
        """The model's JSON text for ``prompt`` (see ``generate``)."""
        return self.generate(role, prompt, schema).text

    def generate(self, role: Role, prompt: Prompt, schema: dict[str, Any]) -> Reply:
        """The model's JSON text for ``prompt``, held to ``schema``, and its token usage.

        Raises ``ModelTimeout``, ``ModelRateLimited``, ``ModelAuthError``,
        ``ModelOutputError`` (blocked, empty, tool call, no text; its ``usage`` says what
        the broken reply cost) or ``ModelError``. The text itself is not validated here.
        """
        thinking = (
            types.ThinkingConfig(thinking_level=types.ThinkingLevel(self.thinking_level.upper()))
            if self.thinking_level
            else None
        )
        config = types.GenerateContentConfig(
            system_instruction=prompt.system,
            temperature=self.temperature,
            thinking_config=thinking,
            candidate_count=1,
            response_mime_type="application/json",
            response_json_schema=schema,
            # L2 lock-down: no tools are sent, and the SDK may never run one on its own.
            automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
            automatic_continuation=False,
        )
        response = self._with_retries(
            role, lambda attempt, started: self._attempt(role, prompt, config, attempt, started)
        )
        usage = token_usage(response)
        try:
            return Reply(text=_candidate_text(response, role), usage=usage)
        except ModelOutputError as e:
            e.usage = usage
            raise

    def get_model(self) -> types.Model:
        """The configured model as the service describes it (``models.get``): a cheap check
        that the key works and the model exists. Raises like ``generate``."""

        def lookup(attempt: int, _started: float) -> types.Model:
            with self._logged("lookup", attempt):
                return self._genai.models.get(model=self.model)

        return self._with_retries("lookup", lookup)

    def _with_retries(self, role: str, call: Callable[[int, float], T]) -> T:
        started = time.monotonic()
        retrying = tenacity.Retrying(
            stop=tenacity.stop_after_attempt(self.max_attempts)
            | tenacity.stop_before_delay(self.max_total_s),
            wait=self._wait,
            retry=tenacity.retry_if_exception(_retryable),
            sleep=self._sleep,
            reraise=True,
        )
        attempts = 0
        try:
            for attempt in retrying:
                with attempt:
                    attempts = attempt.retry_state.attempt_number
                    result = call(attempts, started)
        except genai_errors.APIError as e:
            raise self._api_error(e, role, attempts) from e
        except httpx2.TimeoutException as e:
            raise ModelTimeout(
                f"Gemini ({role}) did not answer in time (timeout {self.timeout_s:g}s, "
                f"budget {self.max_total_s:g}s) after {attempts} attempt(s)"
            ) from e
        except httpx2.HTTPError as e:
            raise ModelError(
                f"could not reach Gemini ({role}) after {attempts} attempt(s): {type(e).__name__}"
            ) from e
        except (ValueError, RecursionError) as e:  # a body the SDK cannot read (or parse)
            raise ModelError(f"Gemini ({role}) sent a response that cannot be read") from e
        return result

    def _attempt(
        self,
        role: Role,
        prompt: Prompt,
        config: types.GenerateContentConfig,
        attempt: int,
        started: float,
    ) -> types.GenerateContentResponse:
        left = self.max_total_s - (time.monotonic() - started)
        timeout_s = max(0.001, min(self.timeout_s, left))
        per_call = config.model_copy(
            update={"http_options": types.HttpOptions(timeout=_ms(timeout_s))}
        )
        with self._logged(role, attempt) as tokens:
            response = self._genai.models.generate_content(
                model=self.model, contents=prompt.user, config=per_call
            )
            tokens.append(token_usage(response).log_fields())
        return response

    @contextmanager
    def _logged(self, role: str, attempt: int) -> Iterator[list[str]]:
        """One INFO line per HTTP call: model, role, attempt, status, latency and, when the
        caller appends them, its tokens. Never the prompt, the reply or the key."""
        tokens: list[str] = []
        status = "error"
        t0 = time.perf_counter()
        try:
            yield tokens
            status = "200"
        except genai_errors.APIError as e:
            status = str(e.code)
            raise
        except httpx2.TimeoutException:
            status = "timeout"
            raise
        except httpx2.HTTPError as e:
            status = type(e).__name__
            raise
        finally:
            logger.info(
                "gemini call model=%s role=%s attempt=%d status=%s latency_ms=%.0f%s",
                self.model,
                role,
                attempt,
                status,
                (time.perf_counter() - t0) * 1000,
                "".join(f" {t}" for t in tokens),
            )

    def _wait(self, state: tenacity.RetryCallState) -> float:
        """The server's requested delay when it gives one, else exponential backoff."""
        error = state.outcome.exception() if state.outcome is not None else None
        hinted = server_retry_delay(error) if error is not None else None
        return hinted if hinted is not None else self._backoff(state)

    def _api_error(self, e: genai_errors.APIError, role: str, attempts: int) -> ModelError:
        what = f"Gemini ({role}) answered HTTP {e.code}"
        if e.status:
            what += f" {e.status}"
        detail = _short(e.message)
        if e.code == 429:
            hinted = server_retry_delay(e)
            if hinted is not None and attempts < self.max_attempts:
                return ModelRateLimited(
                    f"{what}: rate limited, and the requested wait of {hinted:g}s exceeds "
                    f"the {self.max_total_s:g}s budget (gave up after {attempts} attempt(s))"
                )
            return ModelRateLimited(f"{what}: still rate limited after {attempts} attempt(s)")
        if e.code in (401, 403) or _error_reason(e) == "API_KEY_INVALID":
            return ModelAuthError(
                f"{what}: the API key was refused — check GEMINI_API_KEY ({detail})"
            )
        if e.code == 404:
            return ModelError(f"{what}: model {self.model!r} not found — check GEMINI_MODEL")
        if e.code >= 500:
            return ModelError(f"{what} after {attempts} attempt(s): {detail}")
        return ModelError(f"{what}: {detail}")


class GeminiAnswerModel:
    """``AnswerModel`` on Gemini: the reply must be a claim-contract ``Answer``."""

    def __init__(self, client: GeminiClient) -> None:
        self.client = client
        self.name = client.model
        self._schema = answer_json_schema()

    def answer(self, request: AnswerRequest) -> Answer:
        try:
            reply = self.client.generate("answer", request.prompt, self._schema)
        except ModelOutputError as e:
            request.trace.usage = e.usage
            raise
        request.trace.usage = reply.usage
        try:
            return parse_answer(reply.text)
        except AnswerParseError as e:
            raise ModelOutputError(
                f"Gemini answer broke the claim contract: {e}", reply.text[:RAW_LIMIT]
            ) from e


class GeminiJudge:
    """``Judge`` on Gemini: one request per turn, the reply a ``JudgeAnswer`` held to a
    schema that names the request's claim ids."""

    def __init__(self, client: GeminiClient) -> None:
        self.client = client
        self.name = client.model

    def judge(self, request: JudgeRequest) -> JudgeAnswer:
        schema = judge_json_schema(request.ids)
        text = self.client.generate_json("judge", request.prompt, schema)
        try:
            return JudgeAnswer.model_validate_json(text)
        except ValidationError as e:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or 'verdict'}: {err['msg']}"
                for err in e.errors(include_url=False)
            )
            raise ModelOutputError(
                f"Gemini judge verdict is not valid: {problems}", text[:RAW_LIMIT]
            ) from e


# -- helpers ---------------------------------------------------------------------------
def server_retry_delay(error: BaseException) -> float | None:
    """Seconds the server asked us to wait: ``RetryInfo.retryDelay``, else ``Retry-After``."""
    if not isinstance(error, genai_errors.APIError):
        return None
    body = error.details if isinstance(error.details, dict) else {}
    inner = body.get("error", body)
    details = inner.get("details") if isinstance(inner, dict) else None
    for item in details if isinstance(details, list) else []:
        if isinstance(item, dict) and item.get("@type") == _RETRY_INFO:
            match = _DURATION.match(str(item.get("retryDelay", "")))
            if match:
                return float(match.group(1))
    headers = getattr(error.response, "headers", None)
    header = headers.get("retry-after") if headers is not None else None
    return _parse_retry_after(header) if isinstance(header, str) else None


def _parse_retry_after(value: str) -> float | None:
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def token_usage(response: types.GenerateContentResponse) -> TokenUsage:
    """``usage_metadata`` as ``TokenUsage`` (zeros for what the service left out)."""
    meta = response.usage_metadata
    if meta is None:
        return TokenUsage()
    return TokenUsage(
        prompt=meta.prompt_token_count or 0,
        cached=meta.cached_content_token_count or 0,
        output=meta.candidates_token_count or 0,
        thinking=meta.thoughts_token_count or 0,
        total=meta.total_token_count or 0,
    )


def _retryable(error: BaseException) -> bool:
    if isinstance(error, genai_errors.APIError):
        return error.code in (408, 429) or error.code >= 500
    return isinstance(error, httpx2.TransportError)  # timeouts and connection errors


def _error_reason(error: genai_errors.APIError) -> str | None:
    body = error.details if isinstance(error.details, dict) else {}
    inner = body.get("error", body)
    details = inner.get("details") if isinstance(inner, dict) else None
    for item in details if isinstance(details, list) else []:
        if isinstance(item, dict) and isinstance(item.get("reason"), str):
            return str(item["reason"])
    return None


def _candidate_text(response: types.GenerateContentResponse, role: Role) -> str:
    """The text of the first candidate, or ``ModelOutputError`` saying why there is none."""
    feedback = response.prompt_feedback
    if feedback is not None and feedback.block_reason is not None:
        raise ModelOutputError(
            f"Gemini ({role}) blocked the prompt: block_reason={_name(feedback.block_reason)}"
        )
    if not response.candidates:
        raise ModelOutputError(f"Gemini ({role}) returned no candidates")
    candidate = response.candidates[0]
    parts = candidate.content.parts if candidate.content and candidate.content.parts else []
    text = "".join(p.text for p in parts if p.text and not p.thought)
    reason = candidate.finish_reason
    if reason is not None and reason not in _ACCEPTED_FINISH:
        why = "blocked by safety filters" if reason in _SAFETY_FINISH else "stopped early"
        raise ModelOutputError(
            f"Gemini ({role}) candidate {why}: finish_reason={_name(reason)}", text[:RAW_LIMIT]
        )
    if any(p.function_call or p.executable_code or p.code_execution_result for p in parts):
        raise ModelOutputError(
            f"Gemini ({role}) attempted a tool call, but tools are disabled", text[:RAW_LIMIT]
        )
    if not text.strip():
        raise ModelOutputError(f"Gemini ({role}) candidate carries no text")
    return text


def _name(value: object) -> str:
    return str(getattr(value, "value", value))


def _short(message: str | None) -> str:
    if not message:
        return "no message"
    return message if len(message) <= _MESSAGE_LIMIT else message[:_MESSAGE_LIMIT] + "…"


def _ms(seconds: float) -> int:
    return max(1, round(seconds * 1000))
