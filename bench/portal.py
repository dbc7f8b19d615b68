"""Time a portal's build: N servers of about 20 primitives each, built into one site.

    .venv/bin/python bench/portal.py N [SEED]          (default: 100 servers, seed 0)
    .venv/bin/python bench/run.py --portal N           (the same, seed 0)

Generates the portal (bench/generate.py ``write_portal``) in a temporary directory and runs
``mcpdesc-docs build`` on it as a separate process, twice: cold, and again after one
description's title changed. For each it reports the wall time, the CPU time of the
build with every process it started (its rusage as ``wait4`` gives it, waited-for
children included), and the peak memory of the whole process tree: the resident sizes of
the build and all its descendants, summed, sampled from /proc every 10 ms by
``tree_memory.TreeMemory``, as ``bench/run.py`` samples it (a shorter peak can be missed).

Commands run the way an installed tool does, with compiled bytecode: the package is
byte-compiled first and ``PYTHONDONTWRITEBYTECODE`` is dropped for them.
"""

from __future__ import annotations

import compileall
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import PORTAL_FOLDER, write_portal
from tree_memory import TreeMemory

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "mcpdesc_docs"]
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


@dataclass(frozen=True, slots=True)
class Measured:
    wall: float
    """Seconds from start to exit."""
    cpu: float
    """User and system seconds of the process and the children it waited for."""
    peak_mib: float
    """The largest sum of resident memory over the process tree, as sampled."""
    processes: int
    """The most processes of the tree seen at once."""


def measured(command: list[str]) -> Measured:
    """Run ``command`` to its end, sampling its tree's memory; exits the bench if it fails."""
    with tempfile.TemporaryFile() as output:
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=output, stderr=output, env=ENV)
        tree = TreeMemory(process.pid)
        # wait4, not wait: its rusage covers the build and every process it waited for.
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        tree.stop()
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            output.seek(0)
            tail = output.read().decode(errors="replace")[-4000:]
            raise SystemExit(f"{' '.join(command)} failed ({process.returncode}):\n{tail}")
    return Measured(wall, usage.ru_utime + usage.ru_stime, tree.rss / 1024 / 1024, tree.processes)


def change_one_title(project: Path) -> Path:
    """Edit the first description's title, as an author would, and return its path."""
    path = sorted((project / PORTAL_FOLDER).glob("*.mcpdesc.yaml"))[0]
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("  title: Server 0 ", "  title: Server zero ", 1), encoding="utf-8")
    return path


def row(label: str, result: Measured) -> str:
    return f"{label:<20} {result.wall:>8.2f}s {result.cpu:>8.2f}s {result.peak_mib:>9.0f}MiB {result.processes:>9}"


def main() -> None:
    report(int(sys.argv[1]) if len(sys.argv) > 1 else 100, int(sys.argv[2]) if len(sys.argv) > 2 else 0)


def report(count: int, seed: int = 0) -> None:
    """Print the portal's table (``bench/run.py --portal N`` runs this too)."""
    compileall.compile_dir(ROOT / "mcpdesc_docs", quiet=1)
    cores = subprocess.run(["nproc"], capture_output=True, text=True, check=False).stdout.strip()
    with tempfile.TemporaryDirectory() as directory:
        project = Path(directory) / "portal"
        files = write_portal(count, project, seed)
        size = sum(p.stat().st_size for p in files) / 1024 / 1024
        python = sys.version.split()[0]
        print(f"Python {python}, {cores} cores; portal of {count} servers ({size:.2f} MiB), seed {seed}")
        build = [*CLI, "build", str(project), "-o", str(project / "site")]
        cold = measured(build)
        change_one_title(project)
        changed = measured(build)
    print(f"{'':<20} {'wall':>9} {'CPU':>9} {'peak RSS':>12} {'processes':>9}")
    print(row("cold build", cold))
    print(row("one changed, build", changed))


if __name__ == "__main__":
    main()
