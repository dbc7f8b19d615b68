"""Run the command line in a child process under a time and memory budget, and measure it.

The budgets are generous (about ten times the targets), because this machine is shared:
the point is that nothing hangs or balloons, not a benchmark. The time is the child's CPU
time (where /proc shows it while it runs): a busy machine stretches the wall clock, not
that. A child over its time is killed and the test fails with what it printed so far."""

from __future__ import annotations

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
WALL_CLOCK_FACTOR = 10
"""Where the child's CPU time can be read, the wall clock only stops a child that waits
(on nothing, as a hung one would) for this many times its budget."""


def cpu_seconds_so_far(pid: int) -> float | None:
    """User and system time of a running process, from /proc; None where there is none."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
    except OSError:
        return None
    # After the command name: state is field 3 of proc(5), utime 14 and stime 15.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True, slots=True)
class Finished:
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    peak_rss_bytes: int
    cpu_seconds: float
    """User and system time of the child alone (from its rusage): what a budget is held to,
    as it does not grow when the machine is busy with other work."""


def run_bounded(
    *argv: str,
    seconds: float,
    cwd: Path | None = None,
    address_space: int = ADDRESS_SPACE_LIMIT,
    env: Mapping[str, str] | None = None,
) -> Finished:
    """``mcpdesc-docs ARGV`` in a fresh interpreter, killed after ``seconds`` of CPU; with a smaller
    ``address_space`` a child that grows too much fails (MemoryError) instead of swapping."""

    def limit_address_space() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.monotonic()
        process = subprocess.Popen(
            [sys.executable, "-m", "mcpdesc_docs", *argv],
            stdout=out,
            stderr=err,
            cwd=cwd,
            preexec_fn=limit_address_space,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", **(env or {})},
        )
        while True:
            # wait4 reports this child's own peak memory (getrusage would give the largest
            # of every child the test session ever had).
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            used = cpu_seconds_so_far(process.pid)
            waited = time.monotonic() - started
            if (used if used is not None else waited) > seconds or waited > WALL_CLOCK_FACTOR * seconds:
                os.kill(process.pid, signal.SIGKILL)
                os.wait4(process.pid, 0)
                out.seek(0)
                err.seek(0)
                raise AssertionError(
                    f"mcpdesc-docs {' '.join(argv)} took over {seconds} s"
                    + (" of CPU" if used is not None else "")
                    + "; it printed:\n"
                    + out.read(4000).decode(errors="replace")
                    + err.read(4000).decode(errors="replace")
                )
            time.sleep(0.02)
        process.returncode = os.waitstatus_to_exitcode(status)
        elapsed = time.monotonic() - started
        out.seek(0)
        err.seek(0)
        return Finished(
            process.returncode,
            out.read().decode("utf-8", errors="surrogateescape"),
            err.read().decode("utf-8", errors="surrogateescape"),
            elapsed,
            usage.ru_maxrss * 1024,
            usage.ru_utime + usage.ru_stime,
        )
