"""`prism socket` for real: Socket Mode over a WebSocket to a fake endpoint, one DM event
acknowledged by envelope id and answered through FakeSlack; SIGTERM closes it cleanly."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import redis
from slack_support import REPORTS_DIR, answered, prism_command, unique

from prism_slack.testing.fake_slack import FakeSlack
from prism_slack.testing.fake_socket_mode import FakeSocketMode
from prism_slack.testing.redis_server import RedisServer
from prism_slack.testing.slack_delivery import SlackDelivery, dm


def test_prism_socket_answers_a_dm(
    redis_server: RedisServer, redis_client: redis.Redis, tmp_path: Path
) -> None:
    log = tmp_path / "socket.log"
    with (
        FakeSocketMode() as endpoint,
        FakeSlack(team_id=unique("T")) as fake,
        log.open("wb") as log_file,
    ):
        fake.socket_url = endpoint.url
        env = {
            "PATH": os.environ.get("PATH", ""),
            "HOME": str(tmp_path),
            **({"PYTHONPATH": os.environ["PYTHONPATH"]} if "PYTHONPATH" in os.environ else {}),
            "SLACK_BOT_TOKEN": fake.bot_token,
            "SLACK_APP_TOKEN": fake.app_token,
            "SLACK_API_URL": fake.api_url,
            "REDIS_URL": redis_server.url,
            "PRISM_REPORTS_DIR": str(REPORTS_DIR),
        }
        process = subprocess.Popen(
            [*prism_command(), "socket"], env=env, stdout=log_file, stderr=subprocess.STDOUT
        )
        try:
            deadline = time.monotonic() + 30
            while endpoint.connections == 0:
                assert process.poll() is None, log.read_text()
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.05)
            [opened] = fake.calls("apps.connections.open")
            assert opened.ok  # with the app-level token
            user, channel = unique("U"), unique("D")
            question = "What is Northwind Outfitters' membership ARR?"
            envelope = SlackDelivery("unused", "unused", team_id=fake.team_id).envelope(
                dm(question, user=user, channel=channel)
            )
            envelope_id = endpoint.send_event(envelope)
            assert endpoint.wait_for_ack(envelope_id) == {"envelope_id": envelope_id}
            [answer, *_] = fake.wait_for(
                lambda: answered(fake, channel), timeout=20, what="the answer over Socket Mode"
            )
            assert "Northwind Outfitters" in answer.text
        finally:
            process.send_signal(signal.SIGTERM)
            code = process.wait(timeout=20)
    assert code == 0, log.read_text()
