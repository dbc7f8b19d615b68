"""The memory of a process and all its descendants together, sampled from /proc: what a
build with worker processes takes of the machine (``bench/run.py``, ``bench/portal.py``)."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

PAGE = os.sysconf("SC_PAGE_SIZE")
SAMPLE_SECONDS = 0.01
PSS_SHARE = 0.05
"""The most of its time the sampler spends reading PSS: reading a process's
``smaps_rollup`` walks its page tables (milliseconds for hundreds of MiB), so PSS is read
again only after ``1 / PSS_SHARE`` times as long as the last reading took."""


class TreeMemory:
    """The peak memory of a process and all its descendants together, sampled from /proc
    in a thread until ``stop``: the sum of their RSS every ``SAMPLE_SECONDS``, the sum of
    their PSS less often (see ``PSS_SHARE``), and the most processes alive at once."""

    def __init__(self, root: int) -> None:
        self.root = root
        self.rss = 0
        self.pss = 0
        self.processes = 0
        self._parents: dict[int, int] = {}
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._done.set()
        self._thread.join()

    def _members(self) -> list[int]:
        # A parent is read once per process: the kernel here may lack the cheaper
        # /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN), and a full scan of every
        # process's stat each tick would cost more than the sampling it serves.
        for entry in os.scandir("/proc"):
            if entry.name.isdigit() and int(entry.name) not in self._parents:
                self._parents[int(entry.name)] = _parent(int(entry.name))
        members, frontier = [self.root], [self.root]
        while frontier:
            children = [pid for pid, parent in self._parents.items() if parent in frontier]
            members += children
            frontier = children
        return members

    def _run(self) -> None:
        next_pss = 0.0
        while not self._done.is_set():
            members = self._members()
            self.processes = max(self.processes, len(members))
            self.rss = max(self.rss, sum(_resident(pid) for pid in members))
            if time.perf_counter() >= next_pss:
                started = time.perf_counter()
                self.pss = max(self.pss, sum(_proportional(pid) for pid in members))
                next_pss = time.perf_counter() + (time.perf_counter() - started) / PSS_SHARE
            self._done.wait(SAMPLE_SECONDS)


def _parent(pid: int) -> int:
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:  # gone already
        return 0
    return int(stat[stat.rindex(b")") + 2 :].split()[1])  # the name in parentheses may hold spaces


def _resident(pid: int) -> int:
    """Bytes of RSS (0 once the process is gone)."""
    try:
        return int(Path(f"/proc/{pid}/statm").read_bytes().split()[1]) * PAGE
    except (OSError, IndexError):
        return 0


def _proportional(pid: int) -> int:
    """Bytes of PSS (0 once the process is gone)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as rollup:
            for line in rollup:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0
