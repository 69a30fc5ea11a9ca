"""Where the test suite's CPU goes: the whole suite (or any command) run once, every process
on the machine sampled from /proc twice a second, and the CPU each kind of process used
while it ran — pytest's workers (the app tests run in them), the Kodama server processes the
tests start, Chromium's renderers and browser process, PostgreSQL, Playwright's driver…

    .venv/bin/python bench/suite_cpu.py                     # the README's pytest command
    .venv/bin/python bench/suite_cpu.py -- -q tests/browser  # pytest with these arguments

The suite's wall time is bound by the machine's cores once they are busy (the goal is
≤ 5 minutes on this 2-core machine): this says which work to cut. Every process on the
machine is counted, so run it on a quiet machine. A process living less than half a second
between two samples is missed (a few per run: `ruff`, short `git` calls).
"""

from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TICK = os.sysconf("SC_CLK_TCK")
INTERVAL_S = 0.5
WINDOW_S = 10.0


def kind(cmdline: str) -> str:
    """A process's kind, from its command line."""
    if "chromium" in cmdline:
        if "--type=" in cmdline:
            return "chromium " + cmdline.split("--type=", 1)[1].split(maxsplit=1)[0]
        return "chromium browser"
    if "postgres" in cmdline:
        return "postgres"
    if "-m app serve" in cmdline or "-m tests.zygote" in cmdline:
        return "kodama server"  # the test servers are forked from a zygote (tests/zygote.py)
    if "pytest" in cmdline or "exec(eval(" in cmdline:  # xdist's workers
        return "pytest (the app tests run here)"
    if "playwright" in cmdline or cmdline.startswith("node"):
        return "playwright driver"
    if "mypy" in cmdline or "ruff" in cmdline:
        return "mypy, ruff"
    if "nginx" in cmdline:
        return "nginx"
    return "other: " + (cmdline.split(" ", 1)[0].rsplit("/", 1)[-1] or "kernel threads")


@dataclass
class Seen:
    before: int  # CPU ticks when first seen (0 for a process started during the run)
    now: int
    kind: str


class Census:
    """The CPU time of every process seen, from the first sample that saw it."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, str], Seen] = {}  # by (pid, start time)
        self.first = True

    def sample(self) -> None:
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
                fields = stat.rsplit(") ", 1)[1].split()
                ticks = int(fields[11]) + int(fields[12])  # utime + stime
                key = (pid, fields[19])  # a pid with its start time: pids are reused
                if key in self.seen:
                    self.seen[key].now = ticks
                    continue
                raw = Path(f"/proc/{pid}/cmdline").read_bytes()
                cmdline = raw.replace(b"\0", b" ").decode(errors="replace").strip()
                # What a process had used before the run started is not the run's.
                self.seen[key] = Seen(ticks if self.first else 0, ticks, kind(cmdline))
            except (OSError, IndexError, ValueError):
                continue  # it ended meanwhile
        self.first = False

    def by_kind(self) -> tuple[dict[str, float], dict[str, int]]:
        cpu: dict[str, float] = {}
        count: collections.Counter[str] = collections.Counter()
        for seen in self.seen.values():
            used = (seen.now - seen.before) / TICK
            if used > 0:
                cpu[seen.kind] = cpu.get(seen.kind, 0.0) + used
                count[seen.kind] += 1
        return cpu, count


def busy_ticks() -> tuple[int, int]:
    """The machine's (busy, all) CPU ticks since boot, all cores summed (/proc/stat)."""
    fields = [int(f) for f in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return sum(fields) - idle, sum(fields)


class Timeline:
    """How many cores were busy in each window of the run: idle cores at the start or the
    end show work that waits rather than runs (a long test left alone at the end)."""

    def __init__(self, window_s: float) -> None:
        self.window_s = window_s
        self.start = time.monotonic()
        self.mark = busy_ticks()
        self.windows: list[float] = []

    def sample(self) -> None:
        if time.monotonic() - self.start < (len(self.windows) + 1) * self.window_s:
            return
        busy, every = busy_ticks()
        cores = os.cpu_count() or 1
        self.windows.append(cores * (busy - self.mark[0]) / max(1, every - self.mark[1]))
        self.mark = (busy, every)

    def show(self) -> str:
        return " ".join(f"{busy:.1f}" for busy in self.windows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pytest_args", nargs="*", help="pytest's arguments (after --)")
    args = parser.parse_args()
    command = [sys.executable, "-m", "pytest", *args.pytest_args]
    census = Census()
    census.sample()
    started = time.monotonic()
    timeline = Timeline(WINDOW_S)
    proc = subprocess.Popen(command, cwd=ROOT)
    while proc.poll() is None:
        time.sleep(INTERVAL_S)
        census.sample()
        timeline.sample()
    wall = time.monotonic() - started
    cpu, count = census.by_kind()
    total = sum(cpu.values())
    print(f"\n{' '.join(command)}: exit {proc.returncode}, {wall:.0f} s of wall time")
    print(f"CPU used while it ran: {total:.0f} s ({total / wall:.2f} cores busy on average,")
    print(f"{os.cpu_count()} cores)\n")
    print(f"{'CPU s':>8} {'share':>6} {'processes':>9}  kind")
    for name, used in sorted(cpu.items(), key=lambda item: -item[1]):
        print(f"{used:8.0f} {used / total:6.0%} {count[name]:9d}  {name}")
    print(f"\ncores busy, each {WINDOW_S:.0f} s of the run: {timeline.show()}")
    sys.exit(proc.returncode)


if __name__ == "__main__":
    main()
