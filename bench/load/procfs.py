"""What Linux says about a process and the host: children, memory, threads, CPU time."""

from __future__ import annotations

import os
from pathlib import Path

PROC = Path("/proc")


def _stat_fields(pid: int) -> list[str] | None:
    """``/proc/<pid>/stat`` after the command name (field 3, the state, comes first)."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # The command name (field 2) is in parentheses and may hold spaces or parentheses.
    return text.rsplit(")", 1)[-1].split()


def child_pids(parent: int) -> list[int]:
    """Processes whose parent is ``parent``."""
    found = []
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            fields = _stat_fields(int(entry.name))
            if fields is not None and len(fields) > 1 and fields[1] == str(parent):
                found.append(int(entry.name))
    return sorted(found)


def descendants(root: int) -> list[int]:
    """``root``'s children, their children, and so on."""
    found: list[int] = []
    frontier = [root]
    while frontier:
        children = [c for pid in frontier for c in child_pids(pid)]
        found += children
        frontier = children
    return found


def status_value(pid: int, name: str) -> int | None:
    """A numeric ``/proc/<pid>/status`` field (``VmRSS``/``VmHWM`` in KiB, ``Threads``)."""
    return _field(PROC / str(pid) / "status", name)


def pss_kib(pid: int) -> int | None:
    """Proportional set size: resident pages, shared ones split between their users."""
    return _field(PROC / str(pid) / "smaps_rollup", "Pss")


def private_kib(pid: int) -> int | None:
    """Unique set size: resident pages no other process shares (what the process alone
    costs; shared pages are the master's, copy-on-write)."""
    clean = _field(PROC / str(pid) / "smaps_rollup", "Private_Clean")
    dirty = _field(PROC / str(pid) / "smaps_rollup", "Private_Dirty")
    return None if clean is None or dirty is None else clean + dirty


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time ``pid`` has used so far."""
    fields = _stat_fields(pid)
    if fields is None or len(fields) < 13:
        return None
    # utime and stime are fields 14 and 15 of the line: 11 and 12 after the name.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def host_cpu_seconds() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole host since boot, over every core."""
    first = (PROC / "stat").read_text().splitlines()[0].split()[1:]
    ticks = [int(v) for v in first[:8]]  # user nice system idle iowait irq softirq steal
    idle = ticks[3] + ticks[4]
    hz = os.sysconf("SC_CLK_TCK")
    return (sum(ticks) - idle) / hz, sum(ticks) / hz


def tcp_counter(name: str) -> int | None:
    """A host-wide ``TcpExt`` counter from ``/proc/net/netstat`` (e.g. ``ListenOverflows``)."""
    try:
        lines = (PROC / "net" / "netstat").read_text().splitlines()
    except OSError:
        return None
    for header, values in zip(lines[::2], lines[1::2], strict=False):
        if header.startswith("TcpExt:"):
            counters = dict(zip(header.split()[1:], values.split()[1:], strict=False))
            value = counters.get(name)
            return int(value) if value is not None else None
    return None


def _field(path: Path, name: str) -> int | None:
    try:
        text = path.read_text()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith(name + ":"):
            return int(line.split()[1])
    return None
