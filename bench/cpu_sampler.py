"""Where a machine's CPU goes while something runs (a whole `.ci/run`, say), by kind of process.

Reads every process's CPU time from /proc once a second until SIGTERM, then prints the CPU
seconds per kind (Chromium, pytest workers, live servers, PostgreSQL, ...) and the machine's
busy and idle seconds over the same time. A process that ends between two readings loses at
most its last second; PostgreSQL's short-lived backends are counted through the postmaster's
reaped children instead (pass its pid file).

    python3 bench/cpu_sampler.py /var/run/postgresql/15-main.pid > cpu.txt &
    bash .ci/run; kill %1
"""

from __future__ import annotations

import collections
import os
import signal
import sys
import time
from pathlib import Path

HZ = os.sysconf("SC_CLK_TCK")


def kind(command: str, name: str) -> str:
    """A process's kind, from its command line and name."""
    kinds = [("chromium", "chromium" in command or "chrome" in name),
             ("postgres", "postgres" in name or "postgres" in command),
             ("redis", "redis" in name), ("nginx", "nginx" in name),
             ("forked or spawned children", "spawn_main" in command or "forkserver" in command),
             ("uvicorn", "uvicorn" in command),
             ("pytest workers", "exec(eval(sys.stdin" in command),
             ("app workers", "app.worker" in command), ("node", "node" in name)]
    for label, matches in kinds:
        if matches:
            return label
    return f"other: {command[:60] or name}"


def cpu(pid: int) -> tuple[str, int, int, int]:
    """(name, own CPU ticks, start tick, reaped children's CPU ticks) of ``pid``."""
    with open(f"/proc/{pid}/stat") as stat:
        text = stat.read()
    fields = text[text.rindex(")") + 2:].split()
    return (text[text.index("(") + 1:text.rindex(")")], int(fields[11]) + int(fields[12]),
            int(fields[19]), int(fields[13]) + int(fields[14]))


def machine() -> tuple[int, int]:
    """(busy, idle) ticks of the whole machine."""
    with open("/proc/stat") as stat:
        values = [int(value) for value in stat.readline().split()[1:]]
    return sum(values[:3]), values[3] + values[4]


def main() -> None:
    pid_file = Path(sys.argv[1]) if len(sys.argv) > 1 else None
    with open("/proc/uptime") as uptime:
        began = float(uptime.read().split()[0]) * HZ
    # reaped backends' ticks per postmaster (a restart, as .ci/run's, brings a new one)
    reaped: dict[tuple[int, int], list[int]] = {}

    def read_postmaster(path: Path) -> None:
        try:
            pid = int(path.read_text().split()[0])
            _, _, start, ticks = cpu(pid)
        except (OSError, ValueError, IndexError):
            return
        reaped.setdefault((pid, start), [0 if start > began else ticks, ticks])[1] = ticks
    busy_before, idle_before = machine()
    labels: dict[tuple[int, int], str] = {}
    seen: dict[tuple[int, int], list[int]] = {}  # (pid, start) -> [first ticks, last ticks]
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    while not stopping:
        if pid_file:
            read_postmaster(pid_file)
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                name, ticks, start, _ = cpu(int(entry))
                key = (int(entry), start)
                if key in seen:
                    seen[key][1] = ticks
                    continue
                with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                    command = cmdline.read().replace(b"\0", b" ").decode(errors="replace")
                # a process born while sampling counts from zero, an older one from now
                labels[key] = kind(command, name)
                seen[key] = [0 if start > began else ticks, ticks]
            except (OSError, ValueError):
                continue
        time.sleep(1)
    busy_after, idle_after = machine()
    totals: dict[str, float] = collections.defaultdict(float)
    for key, (first, last) in seen.items():
        totals[labels[key]] += (last - first) / HZ
    if pid_file:
        read_postmaster(pid_file)
        totals["postgres (ended backends)"] = sum(last - first for first, last in reaped.values()) / HZ
    print(f"machine busy {(busy_after - busy_before) / HZ:.0f} s, "
          f"idle {(idle_after - idle_before) / HZ:.0f} s")
    for label, seconds in sorted(totals.items(), key=lambda item: -item[1])[:25]:
        print(f"{seconds:9.1f} {label}")


if __name__ == "__main__":
    main()
