"""Run the command line in a child process under a CPU-time and memory budget, and measure it.

The budget is CPU time (the kernel's RLIMIT_CPU, read back from the child's rusage), never
wall-clock time: a loaded machine makes a child wait for a core, not work more, so the
same child passes on a quiet machine and on one running the suite twice over. The budgets
are generous (about ten times the targets): the point is that nothing spins or balloons,
not a benchmark. A child over its budget is stopped by the kernel and the test fails with
what it printed so far.

A child that waits without working (a hang on I/O, which RLIMIT_CPU never stops) is killed
after WALL_CLOCK_SLACK times its budget of wall-clock time: a guard against hangs, far
above anything load can cause, not a measure of speed."""

from __future__ import annotations

import math
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

ADDRESS_SPACE_LIMIT = 4 * 1024**3
"""A safety net far above the 1 GB the property allows (address space is not memory)."""
WALL_CLOCK_SLACK = 30
"""Wall-clock seconds a child may take per CPU second of its budget before it is taken for hung."""


@dataclass(frozen=True, slots=True)
class Finished:
    returncode: int
    stdout: str
    stderr: str
    cpu_seconds: float
    """User and system time the child used (its own rusage, from wait4)."""
    peak_rss_bytes: int


def run_bounded(
    *argv: str,
    seconds: float,
    cwd: Path | None = None,
    address_space: int = ADDRESS_SPACE_LIMIT,
    env: Mapping[str, str] | None = None,
) -> Finished:
    """``mcpdesc-docs ARGV`` in a fresh interpreter allowed ``seconds`` of CPU time; with a
    smaller ``address_space`` a child that grows too much fails (MemoryError) instead of
    swapping."""
    cpu_limit = math.ceil(seconds)

    def limit_child() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
        # Past the soft limit the kernel sends SIGXCPU, which ends a Python process.
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 1))

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:

        def printed() -> str:
            out.seek(0)
            err.seek(0)
            return out.read(4000).decode(errors="replace") + err.read(4000).decode(errors="replace")

        process = subprocess.Popen(
            [sys.executable, "-m", "mcpdesc_docs", *argv],
            stdout=out,
            stderr=err,
            cwd=cwd,
            preexec_fn=limit_child,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", **(env or {})},
        )
        hang_guard = time.monotonic() + WALL_CLOCK_SLACK * seconds
        pid = 0
        try:
            while True:
                # wait4 reports this child's own peak memory and CPU time (getrusage would
                # give the largest or the sum of every child the test session ever had).
                pid, status, usage = os.wait4(process.pid, os.WNOHANG)
                if pid:
                    break
                if time.monotonic() > hang_guard:
                    raise AssertionError(
                        f"mcpdesc-docs {' '.join(argv)} made no end in {WALL_CLOCK_SLACK * seconds:.0f} s "
                        f"of wall-clock time (hung?); it printed:\n{printed()}"
                    )
                time.sleep(0.02)
        finally:
            if not pid:  # stopped by the guard, or by the test's own timeout
                os.kill(process.pid, signal.SIGKILL)
                os.wait4(process.pid, 0)
                process.returncode = -signal.SIGKILL  # reaped here: Popen must not warn it still runs
        process.returncode = os.waitstatus_to_exitcode(status)
        cpu_seconds = usage.ru_utime + usage.ru_stime
        # SIGXCPU comes only from the soft limit (the kernel may send it a tick before the
        # rusage it reports adds up to the limit); SIGKILL past it, from the hard one.
        over_budget = process.returncode == -signal.SIGXCPU or (
            process.returncode == -signal.SIGKILL and cpu_seconds >= cpu_limit
        )
        if over_budget:
            raise AssertionError(
                f"mcpdesc-docs {' '.join(argv)} used over {cpu_limit} s of CPU time; it printed:\n{printed()}"
            )
        out.seek(0)
        err.seek(0)
        return Finished(
            process.returncode,
            out.read().decode("utf-8", errors="surrogateescape"),
            err.read().decode("utf-8", errors="surrogateescape"),
            cpu_seconds,
            usage.ru_maxrss * 1024,
        )
