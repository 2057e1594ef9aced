"""manifest.yml asks for exactly the scopes the code uses, and subscribes to what it handles.

The Web API methods are read from the source (every ``client.<method>(...)`` call in
prism_slack/slack), the events from its ``@app.event(...)`` listeners; the scope each one
needs is Slack's documented requirement, tabled here.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft7Validator

from prism_slack.slack.server import EVENTS_PATH

ROOT = Path(__file__).resolve().parent.parent
SLACK_SOURCES = sorted((ROOT / "prism_slack" / "slack").glob("*.py"))

HISTORY_SCOPES = ("channels:history", "groups:history", "im:history", "mpim:history")

METHOD_SCOPES: dict[str, str | tuple[str, ...] | None] = {
    "auth.test": None,
    "chat.postMessage": "chat:write",
    "chat.update": "chat:write",
    "chat.postEphemeral": "chat:write",
    "chat.delete": "chat:write",
    "assistant.threads.setStatus": "assistant:write",
    "assistant.threads.setSuggestedPrompts": "assistant:write",
    "assistant.threads.setTitle": "assistant:write",
    "users.info": "users:read",
    # one per kind of conversation it is called on (never on DMs: see slack/access.py)
    "conversations.info": ("channels:read", "groups:read", "mpim:read"),
    # Looking for a reply that may have landed before posting it again (slack/delivery.py),
    # in every kind of conversation PRISM answers in: the history scopes its message
    # events need already.
    "conversations.history": HISTORY_SCOPES,
    "conversations.replies": HISTORY_SCOPES,
}
"""Bot scope(s) each Web API method needs (``None``: no scope)."""

EVENT_SCOPES: dict[str, str | None] = {
    "app_mention": "app_mentions:read",
    "message.im": "im:history",
    "message.channels": "channels:history",
    "message.groups": "groups:history",
    "message.mpim": "mpim:history",
    "assistant_thread_started": "assistant:write",
    "assistant_thread_context_changed": "assistant:write",
    "app_home_opened": None,
    "app_context_changed": "assistant:write",
    "channel_shared": "channels:read",
    "channel_unshared": "channels:read",
}
"""Bot scope each event subscription needs."""

IMPLICIT_METHODS = {"auth.test"}
"""Called by Bolt itself (token verification at start-up and authorization)."""


def manifest() -> dict[str, Any]:
    loaded = yaml.safe_load((ROOT / "manifest.yml").read_text())
    assert isinstance(loaded, dict)
    return loaded


def called_methods() -> set[str]:
    """Web API methods the Slack code calls: ``<anything>.client.<method>(...)``."""
    methods: set[str] = set()
    for source in SLACK_SOURCES:
        for node in ast.walk(ast.parse(source.read_text())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            owner = node.func.value
            if isinstance(owner, ast.Attribute) and owner.attr == "client":
                methods.add(node.func.attr.replace("_", "."))
    return methods | IMPLICIT_METHODS


def handled_events() -> set[str]:
    """Event types with an ``@app.event("<type>")`` listener."""
    events: set[str] = set()
    for source in SLACK_SOURCES:
        for node in ast.walk(ast.parse(source.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "event"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                events.add(str(node.args[0].value))
    return events


def test_the_scan_finds_the_calls_we_know_about() -> None:
    methods = called_methods()
    assert {"chat.postMessage", "chat.update", "assistant.threads.setStatus"} <= methods
    assert {"message", "app_mention", "assistant_thread_started"} <= handled_events()


def test_every_called_method_is_known() -> None:
    unknown = called_methods() - METHOD_SCOPES.keys()
    assert not unknown, f"add the scope of {sorted(unknown)} to METHOD_SCOPES"


def test_scopes_are_exactly_the_ones_used() -> None:
    app = manifest()
    scopes = set(app["oauth_config"]["scopes"]["bot"])
    events = app["settings"]["event_subscriptions"]["bot_events"]
    needed: set[str] = set()
    for method in called_methods():
        scope = METHOD_SCOPES[method]
        needed |= {scope} if isinstance(scope, str) else set(scope or ())
    needed |= {scope for e in events if (scope := EVENT_SCOPES[e]) is not None}
    if app["features"].get("slash_commands"):
        needed.add("commands")
    assert scopes == needed, (
        f"unused: {sorted(scopes - needed)}; missing: {sorted(needed - scopes)}"
    )


def test_subscriptions_match_the_listeners() -> None:
    subscribed = set(manifest()["settings"]["event_subscriptions"]["bot_events"])
    as_types = {e.split(".")[0] for e in subscribed}
    assert as_types == handled_events()
    assert {"message.im", "message.channels", "message.groups", "message.mpim"} <= subscribed
    assert "app_mention" in subscribed
    assert {"app_home_opened", "app_context_changed"} <= subscribed  # agent_view
    assert {"assistant_thread_started", "assistant_thread_context_changed"} <= subscribed


SCHEMA = ROOT / "tests" / "data" / "slack-manifest-schema" / "manifest.schema.1.0.0.json"


def test_manifest_validates_against_slacks_published_schema() -> None:
    schema = json.loads(SCHEMA.read_text())
    Draft7Validator.check_schema(schema)
    problems = [
        f"{'.'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}"
        for e in Draft7Validator(schema).iter_errors(manifest())
    ]
    assert problems == []


def test_the_schema_catches_a_broken_manifest() -> None:
    schema = json.loads(SCHEMA.read_text())
    broken = manifest()
    broken["features"]["agent_view"] = {"agent_description": 42}
    broken["settings"]["event_subscriptions"]["bot_events"].append("no such event!")
    assert not Draft7Validator(schema).is_valid(broken)


def test_command_interactivity_and_modes() -> None:
    app = manifest()
    [command] = app["features"]["slash_commands"]
    assert command["command"] == "/prism"
    for word in ("bind", "unbind", "status", "reports", "help"):
        assert word in command["usage_hint"]
    urls = [
        command["url"],
        app["settings"]["event_subscriptions"]["request_url"],
        app["settings"]["interactivity"]["request_url"],
    ]
    assert all(url.endswith(EVENTS_PATH) for url in urls)
    assert app["settings"]["interactivity"]["is_enabled"] is True
    assert isinstance(app["settings"]["socket_mode_enabled"], bool)
    assert app["features"]["app_home"]["messages_tab_enabled"] is True
    # agent_view replaces the legacy assistant_view; both at once would be ambiguous.
    assert "agent_view" in app["features"] and "assistant_view" not in app["features"]
    assert app["features"]["agent_view"]["agent_description"]


def test_procfile_runs_http_and_socket_mode() -> None:
    lines = (ROOT / "Procfile").read_text().splitlines()
    assert lines == ["web: prism serve", "worker: prism socket"]
