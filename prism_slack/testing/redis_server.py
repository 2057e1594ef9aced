"""A real ``redis-server`` on 127.0.0.1 for tests and benches.

``RedisServer`` starts the binary on a free port in a temporary directory, waits until
``PING`` answers, and can be stopped and started again on the SAME port and directory,
so a test can take Redis down mid-conversation and bring it back (with
``appendonly=True`` the data survives the restart)::

    with RedisServer() as server:
        client = redis.Redis.from_url(server.url)
        server.stop()   # Redis is down
        server.start()  # back, same port

The binary is ``binary`` when given (a caller may pass ``PRISM_REDIS_SERVER`` from its
environment), else ``redis-server`` on ``PATH``. This module never reads the environment.
"""

from __future__ import annotations

import logging
import shutil
import socket
import subprocess
import tempfile
import time
import weakref
from os import PathLike
from pathlib import Path
from typing import Self

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from prism_slack.lifecycle import Startable

logger = logging.getLogger(__name__)

HOST = "127.0.0.1"
_PORT_ATTEMPTS = 5
_LOG_NAME = "redis.log"


class RedisServerError(RuntimeError):
    """``redis-server`` is missing, or did not start; the message says why."""


def find_redis_server(binary: str | PathLike[str] | None = None) -> Path:
    """The ``redis-server`` to run: ``binary`` if given, else the one on ``PATH``."""
    if binary is not None:
        path = Path(binary)
        if not path.is_file():
            raise RedisServerError(f"redis-server not found at {path}")
        return path
    found = shutil.which("redis-server")
    if found is None:
        raise RedisServerError(
            "redis-server not found on PATH: install it (Debian/Ubuntu: "
            "`apt-get install redis-server`) or give its path"
        )
    return Path(found)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def _kill(process: subprocess.Popen[bytes] | None, directory: Path | None) -> None:
    """Last-resort cleanup (garbage collection or interpreter exit)."""
    if process is not None and process.poll() is None:
        process.kill()
        process.wait()
    if directory is not None:
        shutil.rmtree(directory, ignore_errors=True)


class RedisServer(Startable):
    """One ``redis-server`` process on 127.0.0.1; restartable on the same port and dir."""

    def __init__(
        self,
        *,
        binary: str | PathLike[str] | None = None,
        appendonly: bool = False,
        startup_timeout_s: float = 10.0,
    ) -> None:
        self.binary = find_redis_server(binary)
        self.appendonly = appendonly
        self.startup_timeout_s = startup_timeout_s
        self.directory = Path(tempfile.mkdtemp(prefix="prism-redis-"))
        self._port: int | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._log_offset = 0
        self._finalizer = weakref.finalize(self, _kill, None, self.directory)

    # -- public -------------------------------------------------------------------------

    @property
    def port(self) -> int:
        if self._port is None:
            raise RedisServerError("the server has not been started")
        return self._port

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self) -> Self:
        """Start (or restart on the same port and directory); return once it answers."""
        if self.running:
            return self
        if self._port is not None:
            self._launch(self._port)
            return self
        for attempt in range(1, _PORT_ATTEMPTS + 1):
            port = _free_port()
            try:
                self._launch(port)
            except RedisServerError:
                clash = "Address already in use" in self._launch_output()
                if attempt == _PORT_ATTEMPTS or not clash:
                    raise
                logger.info("redis-server port %d was taken; trying another", port)
                continue
            return self
        raise AssertionError("unreachable")  # pragma: no cover

    def stop(self) -> None:
        """Shut the server down (SIGTERM, then SIGKILL after 5 s). Data on disk is kept."""
        process = self._process
        if process is None:
            return
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self._process = None
        self._track()
        logger.debug("redis-server on port %s stopped", self._port)

    def kill(self) -> None:
        """Crash the server (SIGKILL): nothing is flushed."""
        process = self._process
        if process is None:
            return
        process.kill()
        process.wait()
        self._process = None
        self._track()

    def close(self) -> None:
        """Stop the server and remove its directory (the end of a ``with`` does this)."""
        self.stop()
        self._finalizer()

    def client(self) -> redis.Redis:
        """A new client on this server (short timeouts, no retries)."""
        return redis.Redis(
            host=HOST,
            port=self.port,
            socket_connect_timeout=1.0,
            socket_timeout=2.0,
            retry=Retry(NoBackoff(), 0),
        )

    def log_tail(self, lines: int = 20) -> str:
        path = self.directory / _LOG_NAME
        if not path.exists():
            return ""
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        return f"RedisServer(port={self._port}, dir={self.directory}, {state})"

    # -- internals ----------------------------------------------------------------------

    def _args(self, port: int) -> list[str]:
        return [
            str(self.binary),
            "--port",
            str(port),
            "--bind",
            HOST,
            "--dir",
            str(self.directory),
            "--daemonize",
            "no",
            "--logfile",
            "",
            "--save",
            "",
            "--appendonly",
            "yes" if self.appendonly else "no",
        ]

    def _launch_output(self) -> str:
        """What the server wrote since it was last launched."""
        with open(self.directory / _LOG_NAME, "rb") as log:
            log.seek(self._log_offset)
            return log.read().decode(errors="replace")

    def _launch(self, port: int) -> None:
        started = time.perf_counter()
        with open(self.directory / _LOG_NAME, "ab") as log:
            self._log_offset = log.tell()
            self._process = subprocess.Popen(
                self._args(port),
                cwd=self.directory,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        self._port = port
        self._track()
        try:
            self._wait_ready()
        except RedisServerError:
            self.kill()
            raise
        logger.debug(
            "redis-server up on port %d in %.0f ms", port, (time.perf_counter() - started) * 1e3
        )

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + self.startup_timeout_s
        client = self.client()
        try:
            while True:
                process = self._process
                if process is None or process.poll() is not None:
                    raise RedisServerError(
                        f"redis-server exited while starting:\n{self._launch_output()}"
                    )
                try:
                    # PING alone could reach another server that holds the port.
                    if client.info("server").get("process_id") == process.pid:
                        return
                except (redis.ConnectionError, redis.TimeoutError):
                    pass
                if time.monotonic() > deadline:
                    raise RedisServerError(
                        f"redis-server did not answer PING within {self.startup_timeout_s} s:\n"
                        f"{self.log_tail()}"
                    )
                time.sleep(0.01)
        finally:
            client.close()

    def _track(self) -> None:
        """Keep the last-resort finalizer pointing at the current process."""
        self._finalizer.detach()
        self._finalizer = weakref.finalize(self, _kill, self._process, self.directory)
