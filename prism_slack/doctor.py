"""``prism doctor``: every dependency checked once, one line each, with the fix.

Each check is a function of ``Settings`` that returns a ``Finding`` (✓ or ✗, what was
found, and for a ✗ what to do); ``run_checks`` runs them all in order. What is not
configured is a valid deployment, said as what PRISM runs on: no Slack tokens, the
terminal only; no ``REDIS_URL``, the in-memory store in one process; no
``GEMINI_API_KEY``, the offline facts-only answerer with no judge. A ✗ is something
configured that does not work (or a half-configured Slack). Token formats are checked
before any network call, and the libraries' own log lines are held back while the checks
run. Nothing here changes state except one short-lived Redis key
(``prism:doctor:<random>``, 30 s TTL). Secrets are never printed.
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis
import yaml
from pydantic import SecretStr
from redis.exceptions import RedisError
from slack_sdk.errors import SlackApiError, SlackClientError

from prism_slack.errors import ConfigError, DuplicateReportFile, ModelAuthError, ModelError
from prism_slack.ports import Prompt
from prism_slack.preflight import BOT_TOKEN_FIX, NETWORK_FIX, quiet, token_format_problem
from prism_slack.reports.hazards import find_hazards
from prism_slack.reports.store import validate_directory
from prism_slack.settings import Settings
from prism_slack.slack.client import api_url, build_web_client
from prism_slack.state.keys import PREFIX
from prism_slack.state.persistence import Persistence, check_persistence

MANIFEST = Path(__file__).resolve().parent.parent / "manifest.yml"
OK, FAIL = "✓", "✗"
_PROBE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"ok": {"type": "boolean"}},
    "required": ["ok"],
}
_PROBE = Prompt(
    system="You are a health check. Answer with JSON that follows the response schema.",
    user='Set "ok" to true.',
    digest="doctor",
)


@dataclass(frozen=True)
class Finding:
    name: str
    ok: bool
    detail: str
    fix: str = ""

    def line(self) -> str:
        text = f"{OK if self.ok else FAIL} {self.name}: {self.detail}"
        return text if self.ok or not self.fix else f"{text} — fix: {self.fix}"


QUIET_LOGGERS = ("slack_bolt", "slack_sdk", "prism_slack", "google_genai", "httpx", "redis")
"""Loggers held back while the checks run: each check's outcome is its own line."""


def run_checks(settings: Settings, *, manifest: Path = MANIFEST) -> list[Finding]:
    """Every check, in the order an operator sets things up."""
    with quiet(QUIET_LOGGERS):
        findings = check_slack(settings, manifest=manifest)
        findings += check_redis(settings)
        findings.append(check_reports(settings))
        gemini = check_gemini(settings)
        findings += [gemini, check_judge_mode(settings, gemini_ok=gemini.ok)]
    return findings


# -- Slack -------------------------------------------------------------------------------
def _set(value: SecretStr | None) -> bool:
    return value is not None and bool(value.get_secret_value().strip())


def check_slack(settings: Settings, *, manifest: Path = MANIFEST) -> list[Finding]:
    """Nothing set: the terminal only (valid). Anything set: the bot token and the signing
    secret (or Socket Mode's app token) must all be there and work."""
    tokens = (settings.slack_bot_token, settings.slack_signing_secret, settings.slack_app_token)
    if not any(_set(t) for t in tokens):
        return [
            Finding(
                "Slack",
                True,
                "not configured: PRISM answers in the terminal (prism ask, prism chat); set "
                "SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET (or SLACK_APP_TOKEN) to serve Slack",
            )
        ]
    findings = [check_slack_token(settings, manifest=manifest), check_signing_secret(settings)]
    if _set(settings.slack_app_token):
        findings.append(check_app_token(settings))
    return findings


def check_app_token(settings: Settings) -> Finding:
    name = "Slack app token"
    token = settings.slack_app_token.get_secret_value() if settings.slack_app_token else ""
    problem = token_format_problem("SLACK_APP_TOKEN", token)
    if problem:
        return Finding(name, False, problem.what, problem.fix)
    return Finding(name, True, "an app-level token: `prism socket` runs in Socket Mode")


def manifest_scopes(manifest: Path) -> set[str]:
    data = yaml.safe_load(manifest.read_text(encoding="utf-8"))
    return set(data["oauth_config"]["scopes"]["bot"])


def check_slack_token(settings: Settings, *, manifest: Path = MANIFEST) -> Finding:
    name = "Slack bot token"
    token = settings.slack_bot_token.get_secret_value().strip() if settings.slack_bot_token else ""
    if not token:
        return Finding(name, False, "SLACK_BOT_TOKEN is not set", BOT_TOKEN_FIX)
    problem = token_format_problem("SLACK_BOT_TOKEN", token)
    if problem:  # said before anything is sent to Slack
        return Finding(name, False, problem.what, problem.fix)
    try:
        response = build_web_client(settings, token).auth_test()
    except SlackApiError as e:
        error = e.response.get("error", "error") if e.response is not None else "error"
        return Finding(name, False, f"auth.test answered {error}", BOT_TOKEN_FIX)
    except (SlackClientError, OSError) as e:
        reason = getattr(e, "reason", None) or type(e).__name__
        return Finding(
            name,
            False,
            f"could not reach the Slack Web API at {api_url(settings)} ({reason})",
            NETWORK_FIX,
        )
    who = f"{response.get('user', '?')} in {response.get('team', '?')} ({response.get('team_id')})"
    headers = {k.lower(): v for k, v in (response.headers or {}).items()}
    granted_header = headers.get("x-oauth-scopes")
    if granted_header is None:
        return Finding(name, True, f"{who}; Slack did not say which scopes it granted")
    granted = {s.strip() for s in str(granted_header).split(",") if s.strip()}
    wanted = manifest_scopes(manifest)
    missing = sorted(wanted - granted)
    if missing:
        return Finding(
            name,
            False,
            f"{who}; missing scopes {', '.join(missing)}",
            "add them from manifest.yml (OAuth & Permissions) and reinstall the app",
        )
    extra = sorted(granted - wanted)
    more = f"; also granted {', '.join(extra)}" if extra else ""
    return Finding(name, True, f"{who}; every scope manifest.yml asks for{more}")


def check_signing_secret(settings: Settings) -> Finding:
    name = "Slack signing secret"
    secret = settings.slack_signing_secret
    if secret is not None and secret.get_secret_value().strip():
        return Finding(name, True, "set (HTTP mode verifies every request with it)")
    if settings.slack_app_token is not None and settings.slack_app_token.get_secret_value():
        return Finding(name, True, "not set; not needed in Socket Mode (SLACK_APP_TOKEN is set)")
    return Finding(
        name,
        False,
        "SLACK_SIGNING_SECRET is not set (and no SLACK_APP_TOKEN for Socket Mode)",
        "set SLACK_SIGNING_SECRET from the app's Basic Information page",
    )


# -- Redis -------------------------------------------------------------------------------
def check_redis(settings: Settings) -> list[Finding]:
    name = "Redis"
    if settings.redis_url is None:
        return [
            Finding(
                "Store",
                True,
                "in memory (no REDIS_URL), so `prism serve` runs one process; bindings and "
                "history last until it stops. Set REDIS_URL to run more workers and keep state",
            )
        ]
    fix = "check REDIS_URL and that the server is up and reachable"
    try:
        client = redis.Redis.from_url(
            settings.redis_url.get_secret_value(), socket_timeout=5, socket_connect_timeout=5
        )
    except ValueError as e:
        return [Finding(name, False, f"REDIS_URL is not a Redis URL ({e})", fix)]
    try:
        key, value = f"{PREFIX}doctor:{secrets.token_hex(8)}", secrets.token_hex(8)
        started = time.perf_counter()
        client.set(key, value, ex=30)
        read = client.get(key)
        client.delete(key)
        ms = (time.perf_counter() - started) * 1000
    except RedisError as e:
        client.close()
        return [Finding(name, False, f"round trip failed ({type(e).__name__}: {e})", fix)]
    if (read.decode() if isinstance(read, bytes) else read) != value:
        client.close()
        return [Finding(name, False, "a key written was not read back", fix)]
    persistence = check_persistence(client)
    client.close()
    on = persistence.status is Persistence.ON
    return [
        Finding(name, True, f"set, read and deleted a key in {ms:.1f} ms"),
        Finding(
            "Redis persistence",
            on,
            persistence.detail,
            ""
            if on
            else "turn on AOF (appendonly yes) or RDB snapshots, or confirm it with "
            "your Redis provider",
        ),
    ]


# -- reports -----------------------------------------------------------------------------
def check_reports(settings: Settings) -> Finding:
    name = "Reports"
    directory = settings.prism_reports_dir
    try:
        reports, errors = validate_directory(directory, max_bytes=settings.report_max_bytes)
    except ConfigError as e:
        return Finding(name, False, str(e), "set PRISM_REPORTS_DIR to the report directory")
    validate = f"run `prism reports validate --reports-dir {directory}` and fix each file"
    duplicates = [e for e in errors if isinstance(e, DuplicateReportFile)]
    if duplicates:
        return Finding(
            name,
            False,
            f"{len(duplicates)} files duplicate another report, so `prism serve` will not "
            f"start: {duplicates[0]}",
            validate,
        )
    if errors:
        return Finding(
            name,
            False,
            f"{len(errors)} invalid file(s) in {directory}: " + "; ".join(map(str, errors[:3])),
            validate,
        )
    if not reports:
        return Finding(
            name,
            False,
            f"no report in {directory}",
            "add one: `prism reports add FILE` (or reports/<slug>/audit-data.json)",
        )
    flagged = sum(len(find_hazards(r)) for r in reports)
    warn = f"; {flagged} values flagged (`prism reports validate` shows them)" if flagged else ""
    return Finding(name, True, f"{len(reports)} valid in {directory}{warn}")


# -- Gemini ------------------------------------------------------------------------------
def check_gemini(settings: Settings) -> Finding:
    name = "Gemini"
    if not _set(settings.gemini_api_key):
        return Finding(
            "Answerer",
            True,
            "the offline facts-only answerer (no GEMINI_API_KEY): answers from the report "
            "alone, with no network; set GEMINI_API_KEY for Gemini's answers and judge",
        )
    key = settings.gemini_api_key.get_secret_value().strip() if settings.gemini_api_key else ""
    if not key.isascii() or not key.isprintable() or " " in key:
        return Finding(
            name,
            False,
            "GEMINI_API_KEY holds spaces or characters no API key has (not sent)",
            "set GEMINI_API_KEY to the key exactly as Google AI Studio shows it",
        )
    from prism_slack.llm.gemini import GeminiClient

    model = settings.gemini_model
    try:
        with GeminiClient.from_settings(settings, max_attempts=2, max_total_s=30.0) as client:
            described = client.get_model()
            started = time.perf_counter()
            reply = client.generate("answer", _PROBE, _PROBE_SCHEMA)
            seconds = time.perf_counter() - started
    except ModelAuthError as e:
        return Finding(name, False, str(e), "set GEMINI_API_KEY to a valid key")
    except ModelError as e:
        fix = "set GEMINI_MODEL to a model your key can use" if "GEMINI_MODEL" in str(e) else ""
        return Finding(name, False, f"{model}: {e}", fix or "see the error; try again later")
    try:
        ok = json.loads(reply.text).get("ok") is True
    except (ValueError, AttributeError):
        ok = False
    if not ok:
        return Finding(
            name,
            False,
            f"{model}: the structured call did not follow its schema ({reply.text[:80]!r})",
            "set GEMINI_MODEL to a model that supports structured output",
        )
    u = reply.usage
    return Finding(
        name,
        True,
        f"{described.name or model} found; a structured call answered in {seconds:.1f} s "
        f"({u.prompt} prompt, {u.output} output, {u.thinking} thinking tokens)",
    )


def check_judge_mode(settings: Settings, *, gemini_ok: bool = True) -> Finding:
    """The judge mode, agreeing with the Gemini line: no judge is claimed that cannot run."""
    name = "Judge"
    mode = settings.prism_judge
    keyed = _set(settings.gemini_api_key)
    if mode == "never":
        return Finding(
            name,
            True,
            "never: a claim the checks cannot decide is withheld",
        )
    if not keyed:
        if mode == "always":
            return Finding(
                name,
                False,
                "PRISM_JUDGE=always, but without GEMINI_API_KEY there is no judge",
                "set GEMINI_API_KEY, or PRISM_JUDGE=auto",
            )
        return Finding(
            name,
            True,
            "none (no GEMINI_API_KEY): a claim the checks cannot decide is withheld",
        )
    what = "every fact" if mode == "always" else "only claims the checks cannot decide"
    if not gemini_ok:
        return Finding(
            name,
            False,
            f"{mode}: Gemini would judge {what}, but Gemini is not working (the line above)",
            "fix Gemini, or set PRISM_JUDGE=never",
        )
    return Finding(name, True, f"{mode}: Gemini judges {what}")
