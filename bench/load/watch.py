"""Watching the server while the burst runs: its workers' memory, threads and CPU, and
how busy the host was (the bench shares two cores with whatever else runs there).

``ServerWatch.start()`` takes a baseline just before the burst and samples every
``interval_s`` in a daemon thread; ``workers()`` then reads each worker's peak resident
memory as the kernel kept it (``VmHWM``), and ``host()`` the CPU the host spent meanwhile.

A worker's listener pool (a ``ThreadPoolExecutor``) starts a thread only when no idle one
is free, so the worker's thread count above its pre-burst count tracks the most listeners
running at once (plus the few HTTP threads gthread starts) — at the pool's size, the pool
is saturated and new messages queue behind it. (After a ``--warmup`` the pool's threads
already exist before the burst, so only the app's log — ``outcome.peak_listeners`` — tells.)
"""

from __future__ import annotations

import os
import resource
import threading
import time

from pydantic import BaseModel

from bench.load import procfs
from bench.load.stack import ServerProcess

KIB = 1024


def _mib(kib: int | None) -> float | None:
    return None if kib is None else round(kib / KIB, 1)


class WorkerStats(BaseModel):
    pid: int
    rss_before_mib: float | None = None
    """``VmRSS`` when the burst began (after start-up and any warm-up)."""
    pss_before_mib: float | None = None
    """Proportional set size when the burst began."""
    peak_rss_mib: float | None
    """The kernel's high-water mark of the worker's resident memory (``VmHWM``)."""
    sampled_peak_rss_mib: float | None
    """The highest ``VmRSS`` seen while sampling during the run."""
    pss_mib: float | None
    """Proportional set size at the end (pages shared with the master and the other
    worker split between them)."""
    private_mib: float | None = None
    """Unique set size at the end: pages this worker alone holds."""
    threads_before: int | None
    threads_peak: int | None
    cpu_s: float | None
    """CPU time the worker used from the start of the burst to the end of the drain."""


class MasterStats(BaseModel):
    """The gunicorn master, whose pages the workers share copy-on-write."""

    pid: int
    rss_mib: float | None
    pss_mib: float | None


class HostStats(BaseModel):
    cores: int
    load_avg_before: float
    """1-minute load average just before the burst (other work on the host)."""
    wall_s: float
    busy_pct: float
    """Host CPU busy over the run, in % of all cores."""
    stack_cpu_s: float
    """CPU the bench used: its own process and every process it started (Redis, the
    sender, ``prism serve`` and its workers)."""
    other_cpu_s: float
    """CPU the host spent on anything else meanwhile (other work competing for the cores)."""
    listen_overflows: int | None
    """Connections any listening socket on the host dropped because its accept queue was
    full (each costs the client a SYN retransmit, 1 s)."""


class ServerWatch:
    """See the module docstring."""

    def __init__(self, server: ServerProcess, *, interval_s: float = 0.25) -> None:
        self.server = server
        self.interval_s = interval_s
        self.peak_rss_kib: dict[int, int] = {}
        self.threads_before: dict[int, int] = {}
        self.threads_peak: dict[int, int] = {}
        self.cpu_before: dict[int, float] = {}
        self.memory_before: dict[int, tuple[float | None, float | None]] = {}
        self.pids_seen: set[int] = set()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._load_before = 0.0
        self._host_before = (0.0, 0.0)
        self._stack_before = 0.0
        self._overflows_before: int | None = None
        self._started = 0.0

    def start(self) -> ServerWatch:
        for pid in self.server.worker_pids():
            self.threads_before[pid] = procfs.status_value(pid, "Threads") or 0
            self.cpu_before[pid] = procfs.cpu_seconds(pid) or 0.0
            rss, pss = procfs.status_value(pid, "VmRSS"), procfs.pss_kib(pid)
            self.memory_before[pid] = (_mib(rss), _mib(pss))
        self._load_before = os.getloadavg()[0]
        self._host_before = procfs.host_cpu_seconds()
        self._stack_before = _stack_cpu()
        self._overflows_before = procfs.tcp_counter("ListenOverflows")
        self._started = time.monotonic()
        self._thread = threading.Thread(target=self._run, name="server-watch", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self.sample()

    def sample(self) -> None:
        for pid in self.server.worker_pids():
            self.pids_seen.add(pid)
            rss = procfs.status_value(pid, "VmRSS")
            if rss is not None:
                self.peak_rss_kib[pid] = max(rss, self.peak_rss_kib.get(pid, 0))
            threads = procfs.status_value(pid, "Threads")
            if threads is not None:
                self.threads_peak[pid] = max(threads, self.threads_peak.get(pid, 0))

    def workers(self) -> list[WorkerStats]:
        """The workers alive now (call before the server stops)."""
        stats = []
        for pid in self.server.worker_pids():
            cpu = procfs.cpu_seconds(pid)
            before = self.cpu_before.get(pid)
            rss_before, pss_before = self.memory_before.get(pid, (None, None))
            stats.append(
                WorkerStats(
                    pid=pid,
                    rss_before_mib=rss_before,
                    pss_before_mib=pss_before,
                    peak_rss_mib=_mib(procfs.status_value(pid, "VmHWM")),
                    sampled_peak_rss_mib=_mib(self.peak_rss_kib.get(pid)),
                    pss_mib=_mib(procfs.pss_kib(pid)),
                    private_mib=_mib(procfs.private_kib(pid)),
                    threads_before=self.threads_before.get(pid),
                    threads_peak=self.threads_peak.get(pid),
                    cpu_s=None if cpu is None or before is None else round(cpu - before, 2),
                )
            )
        return stats

    def master(self) -> MasterStats:
        """The master's memory now (call before the server stops)."""
        pid = self.server.pid
        return MasterStats(
            pid=pid,
            rss_mib=_mib(procfs.status_value(pid, "VmRSS")),
            pss_mib=_mib(procfs.pss_kib(pid)),
        )

    def host(self) -> HostStats:
        """The host's CPU since ``start()`` (call before the server stops)."""
        busy, total = procfs.host_cpu_seconds()
        busy -= self._host_before[0]
        total -= self._host_before[1]
        stack = _stack_cpu() - self._stack_before
        overflows = procfs.tcp_counter("ListenOverflows")
        return HostStats(
            cores=os.cpu_count() or 1,
            load_avg_before=round(self._load_before, 2),
            wall_s=round(time.monotonic() - self._started, 2),
            busy_pct=round(100 * busy / total, 1) if total > 0 else 0.0,
            stack_cpu_s=round(stack, 2),
            other_cpu_s=round(max(0.0, busy - stack), 2),
            listen_overflows=None
            if overflows is None or self._overflows_before is None
            else overflows - self._overflows_before,
        )

    def _run(self) -> None:
        while not self._stop.is_set():
            self.sample()
            self._stop.wait(self.interval_s)


def _stack_cpu() -> float:
    """CPU of this process, its live descendants and its reaped children."""
    me = os.getpid()
    live = sum(procfs.cpu_seconds(pid) or 0.0 for pid in [me, *procfs.descendants(me)])
    reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
    return live + reaped.ru_utime + reaped.ru_stime
