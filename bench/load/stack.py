"""Everything the load bench runs against, started and always torn down.

``LoadStack`` starts a real ``redis-server``, ``FakeSlack`` (the Web API), ``FakeGemini``
(answering through a ``BenchResponder``) and ``prism serve --workers N`` as a subprocess in
a process group of its own, configured only through its environment, exactly as an operator
would run it. Leaving the ``with`` block — normally, on an error or on Ctrl-C — terminates
the server's process group (SIGTERM, then SIGKILL), stops Redis and closes the fakes.

``ServerProcess.worker_pids`` finds gunicorn's workers (children of the master) for
``bench.load.watch``. ``appendonly`` runs Redis with AOF (it keeps its data across
``stack.redis.stop()``/``start()``); ``env`` adds to (or overrides) the server's environment.
A stopped ``stack.server`` can be started again (its log is appended to).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from bench.load.procfs import child_pids
from bench.load.responder import BenchResponder
from prism_slack.lifecycle import Startable
from prism_slack.testing.fake_gemini import FakeGemini
from prism_slack.testing.fake_slack import FakeSlack
from prism_slack.testing.redis_server import RedisServer

SIGNING_SECRET = "load-bench-signing-secret-0123456789abcdef"
HOST = "127.0.0.1"
BOOT_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 30.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def prism_command() -> list[str]:
    """The installed ``prism`` entry point (``python -m prism_slack`` without one)."""
    script = Path(sys.executable).parent / "prism"
    return [str(script)] if script.exists() else [sys.executable, "-m", "prism_slack"]


class ServerProcess:
    """``prism serve`` in its own process group, logging to ``log_path``."""

    def __init__(self, command: list[str], env: dict[str, str], log_path: Path) -> None:
        self.command = command
        self.env = env
        self.log_path = log_path
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> ServerProcess:
        with self.log_path.open("ab") as log:  # a restart appends to the same log
            self.process = subprocess.Popen(
                self.command,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        return self

    @property
    def pid(self) -> int:
        if self.process is None:
            raise RuntimeError("the server is not started")
        return self.process.pid

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def wait_healthy(self, url: str, *, workers: int, timeout_s: float = BOOT_TIMEOUT_S) -> None:
        """Until ``/healthz`` answers with the store ok and every worker is up."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(
                    f"prism serve exited {self.process.returncode}:\n{self.log_text()[-3000:]}"
                )
            with contextlib.suppress(urllib.error.URLError, ConnectionError, TimeoutError):
                with urllib.request.urlopen(url + "/healthz", timeout=2) as response:
                    doc = json.loads(response.read())
                if doc.get("store") == "ok" and len(self.worker_pids()) >= workers:
                    booted = self.log_text().count("Booting worker")
                    if booted >= workers:
                        return
            time.sleep(0.1)
        raise RuntimeError(
            f"prism serve was not healthy in {timeout_s:g} s:\n{self.log_text()[-3000:]}"
        )

    def worker_pids(self) -> list[int]:
        return child_pids(self.pid) if self.process is not None else []

    def stop(self) -> int | None:
        """SIGTERM the process group, SIGKILL it after ``STOP_TIMEOUT_S``; the exit code."""
        process = self.process
        if process is None:
            return None
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        # Workers are in the same group; make sure none outlives the master.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        return process.returncode


class LoadStack(Startable):
    """Redis, FakeSlack, FakeGemini and ``prism serve``; see the module docstring."""

    def __init__(
        self,
        *,
        responder: BenchResponder,
        reports_dir: Path,
        work_dir: Path,
        workers: int = 2,
        threads: int = 8,
        listener_threads: int | None = None,
        appendonly: bool = False,
        env: dict[str, str] | None = None,
    ) -> None:
        self.responder = responder
        self.appendonly = appendonly
        self.extra_env = dict(env or {})
        self.reports_dir = reports_dir
        self.work_dir = work_dir
        self.workers = workers
        self.threads = threads
        self.listener_threads = listener_threads
        self.port = free_port()
        self._exit = contextlib.ExitStack()
        self.redis: RedisServer
        self.slack: FakeSlack
        self.gemini: FakeGemini
        self.server: ServerProcess

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def events_url(self) -> str:
        return self.url + "/slack/events"

    def start(self) -> LoadStack:
        try:
            self.redis = self._exit.enter_context(RedisServer(appendonly=self.appendonly))
            # A legacy (assistant_view) app: DMs are answered in place, after a placeholder.
            legacy = FakeSlack(team_id="TLOADBENCH", agent_view=False)
            self.slack = self._exit.enter_context(legacy)
            self.gemini = self._exit.enter_context(FakeGemini(default=self.responder))
            self.server = ServerProcess(
                [
                    *prism_command(),
                    "serve",
                    "--host",
                    HOST,
                    "--workers",
                    str(self.workers),
                    "--threads",
                    str(self.threads),
                    *(
                        ["--listener-threads", str(self.listener_threads)]
                        if self.listener_threads is not None
                        else []
                    ),
                ],
                self._env(),
                self.work_dir / "serve.log",
            )
            self._exit.callback(self.server.stop)
            self.server.start().wait_healthy(self.url, workers=self.workers)
        except BaseException:
            self._exit.close()
            raise
        return self

    def stop(self) -> None:
        self._exit.close()

    def _env(self) -> dict[str, str]:
        passed = {k: os.environ[k] for k in ("PATH", "PYTHONPATH", "LANG") if k in os.environ}
        return {
            **passed,
            "HOME": str(self.work_dir),
            "PORT": str(self.port),
            "SLACK_BOT_TOKEN": self.slack.bot_token,
            "SLACK_SIGNING_SECRET": SIGNING_SECRET,
            "SLACK_API_URL": self.slack.api_url,
            "REDIS_URL": self.redis.url,
            "GEMINI_API_KEY": "load-bench-fake-key",
            "GEMINI_BASE_URL": self.gemini.base_url,
            "PRISM_REPORTS_DIR": str(self.reports_dir),
            "LOG_LEVEL": "INFO",
            **self.extra_env,
        }
