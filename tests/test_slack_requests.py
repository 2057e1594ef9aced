"""Request hygiene at the HTTP edge: size capped and signature verified before anything
parses the body; a malformed signed body is a 400 with one log line, never a traceback."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import time
import urllib.error
import urllib.request

import pytest
from slack_support import SIGNING_SECRET, SlackHarness

from prism_slack.slack.server import MAX_BODY


def post(harness: SlackHarness, body: bytes, headers: dict[str, str]) -> int:
    request = urllib.request.Request(
        harness.server.url + "/slack/events", data=body, headers=headers, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as e:
        with e:
            return int(e.code)
    except (ConnectionError, urllib.error.URLError):
        return -1  # the server closed the connection on a body it would not read


@pytest.mark.parametrize("signed", [False, True])
def test_a_body_over_the_limit_is_refused_unread(
    harness: SlackHarness, caplog: pytest.LogCaptureFixture, signed: bool
) -> None:
    body = json.dumps({"type": "event_callback", "pad": "x" * (MAX_BODY + 10)})
    headers = {"Content-Type": "application/json"}
    if signed:
        headers |= harness.slack.signed_headers(body)
    with caplog.at_level(logging.WARNING):
        status = post(harness, body.encode(), headers)
    assert status in (413, -1)
    assert any("limit" in r.getMessage() for r in caplog.records)
    assert not any(r.exc_info for r in caplog.records)


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (b"{not json", "application/json"),
        (b"[1, 2]", "application/json"),
        (b"payload=%7Bnot-json", "application/x-www-form-urlencoded"),
        (b'{"type": "event_callback", "event": {"type": "message", "te', "application/json"),
    ],
)
def test_a_malformed_signed_body_is_a_400_and_one_line(
    harness: SlackHarness, caplog: pytest.LogCaptureFixture, body: bytes, content_type: str
) -> None:
    stamp = str(int(time.time()))
    base = b"v0:" + stamp.encode() + b":" + body  # Slack signs the raw bytes
    signature = "v0=" + hmac.new(SIGNING_SECRET.encode(), base, hashlib.sha256).hexdigest()
    headers = {
        "Content-Type": content_type,
        "X-Slack-Request-Timestamp": stamp,
        "X-Slack-Signature": signature,
    }
    with caplog.at_level(logging.INFO):
        status = post(harness, body, headers)
    assert status == 400
    lines = [r for r in caplog.records if "does not parse" in r.getMessage()]
    assert len(lines) == 1 and lines[0].levelno == logging.WARNING
    assert not any(r.exc_info for r in caplog.records)


def test_an_unsigned_body_is_never_parsed(
    harness: SlackHarness, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO):
        status = post(harness, b"{not json", {"Content-Type": "application/json"})
    assert status == 401
    assert not any("does not parse" in r.getMessage() for r in caplog.records)
