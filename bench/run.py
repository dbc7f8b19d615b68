"""Time validate, build and a serve rebuild on synthetic descriptions, against a floor.

    .venv/bin/python bench/run.py [N ...] [--jobs 1,2] [--formats yaml,json]
                                                    (default: 10 100 1000 5000, --jobs 1)

Each size is measured with the description as YAML and as JSON (the same data). The floor
is measured in the same run: libyaml's event scan of the same text (the least any reader
of it must do) plus writing the same files with the same bytes. Times are medians; "build"
lets the build use its default workers (``-j auto``), "build -jK" renders in K processes,
for each K of ``--jobs``. A description beyond the default limits (N = 20,000) is built
through an ``mcpdesc-docs.yml`` beside it that raises them.

Memory: "validate RSS" and "build RSS" are the peak RSS of the command's own process (its
VmHWM, reported as it exits), the largest of its runs. "tree" is the whole process tree
of a build (the command and its forked workers), sampled every 10 ms: the peak of the sum
of their RSS (an upper bound: a page the workers share copy-on-write with the main process
counts once in each) / the peak of the sum of their PSS (each shared page split among its
sharers, which is what the tree takes of the machine's memory; read less often, since it
costs the kernel a walk of each process's pages), the largest of its runs; "procs" is the
most processes of a default build alive at once. "serve edit" is the time from saving a
one-line edit to the dev server having the new site swapped in (file watcher, debounce and
rebuild; the browser then reloads one page).

When ``MCPCONTRACT_JS`` names a built copy of mcpcontract (its ``build/index.js``), its
``document`` command (``node $MCPCONTRACT_JS document DESCRIPTION -o FILE``: one Markdown
page, no validation) is timed on the 0.7.0 twin of the same data (bench/generate.py's
``description_070``: mcpcontract reads 0.7.0), with its tree's peak RSS; otherwise those
columns show ``-``.

Commands run the way an installed tool does, with compiled bytecode: the package is
byte-compiled first and ``PYTHONDONTWRITEBYTECODE`` is dropped for them.
"""

from __future__ import annotations

import argparse
import compileall
import io
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from mcpdesc_docs.devserver.project import ProjectBuilder
from mcpdesc_docs.devserver.server import DevServer
from mcpdesc_docs.source.limits import DEFAULT_LIMITS

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import description as bench_description
from generate import description_070, dump
from tree_memory import TreeMemory

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "mcpdesc_docs"]
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


# The command's own peak: the kernel carries the spawning process's peak into the child's
# rusage at exec (this bench process holds whole descriptions), so the child reports the
# high-water mark of its own memory (VmHWM) as it exits.
_REPORT_PEAK = (
    "import atexit, os, runpy, sys\n"
    "def report():\n"
    "    peak = [l for l in open('/proc/self/status') if l.startswith('VmHWM:')][0].split()[1]\n"
    "    os.write(int(os.environ['BENCH_PEAK_FD']), peak.encode())\n"
    "atexit.register(report)\n"
    "sys.argv[0] = 'mcpdesc_docs'\n"
    "runpy.run_module('mcpdesc_docs', run_name='__main__', alter_sys=True)\n"
)


@dataclass(frozen=True, slots=True)
class Run:
    seconds: float
    own: int
    """Peak RSS of the command's own process (VmHWM, MiB); 0 when it is not ours."""
    tree_rss: int
    """Peak of the summed RSS of the command and its descendants (MiB)."""
    tree_pss: int
    """Peak of their summed PSS (MiB), sampled less often."""
    processes: int


def timed(command: list[str]) -> Run:
    """Wall time and memory of one subprocess and its descendants (its own peak, not the
    largest so far). ``command`` runs as given when it is not ours (mcpcontract), and
    then its own peak is not known."""
    ours = command[: len(CLI)] == CLI
    read_end, write_end = os.pipe()
    if ours:
        command = [sys.executable, "-c", _REPORT_PEAK, *command[len(CLI) :]]
    env = {**ENV, "BENCH_PEAK_FD": str(write_end)}
    with tempfile.TemporaryFile() as output:
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=output, stderr=output, env=env, pass_fds=(write_end,))
        tree = TreeMemory(process.pid)
        returncode = process.wait()
        elapsed = time.perf_counter() - started
        tree.stop()
        os.close(write_end)
        with os.fdopen(read_end, "rb") as peak:
            reported = peak.read().decode() or "0"
        if returncode != 0:
            output.seek(0)
            raise SystemExit(f"{' '.join(command)} failed:\n{output.read().decode(errors='replace')}")
    mib = 1024 * 1024
    return Run(elapsed, int(reported) // 1024, tree.rss // mib, tree.pss // mib, tree.processes)


def floor(description: Path, site: Path, scratch: Path) -> float:
    text = description.read_text(encoding="utf-8")
    files = [p for p in site.rglob("*") if p.is_file()]
    contents = [(p.relative_to(site), p.read_bytes()) for p in files]
    started = time.perf_counter()
    for _ in yaml.parse(text, Loader=yaml.CSafeLoader):
        pass
    target = scratch / "floor"
    for relative, content in contents:
        path = target / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
    elapsed = time.perf_counter() - started
    shutil.rmtree(target)
    return elapsed


EDIT_PAUSE_SECONDS = 1.5
"""Between saves: an author's edits are seconds apart, and the dev server tidies its heap
a second after each rebuild (devserver/tidy.py), as it would between real edits."""


def serve_edit(path: Path, description: Path, title: str, page: str, runs: int = 3) -> float:
    """Median time from saving an edit (a tool's ``title``) to the dev server serving the
    rebuilt site with the new title in that tool's ``page``."""
    server = DevServer(ProjectBuilder(path, out=io.StringIO(), err=io.StringIO()), err=io.StringIO())
    original = description.read_text(encoding="utf-8")
    try:
        assert server.rebuild()
        watcher = threading.Thread(target=server.watch_loop, args=(server.file_changes(),), daemon=True)
        watcher.start()
        time.sleep(EDIT_PAUSE_SECONDS)  # the watcher starts; an author reads the first build
        times = []
        for run in range(runs):
            token = server.state_token
            marker = f"{title} (edit {run})"
            edited = original.replace(f"title: {title}\n", f"title: {marker}\n", 1)
            edited = edited.replace(f'"title": "{title}"', f'"title": "{marker}"', 1)  # JSON
            description.write_text(edited, encoding="utf-8")
            started = time.perf_counter()
            while not _serves(server, page, marker):
                if server.wait_for_change(token, 60) == token:
                    raise SystemExit("serve did not pick up the edit")
                token = server.state_token
            times.append(time.perf_counter() - started)
            time.sleep(EDIT_PAUSE_SECONDS)
        return statistics.median(times)
    finally:
        server.close()
        description.write_text(original, encoding="utf-8")


def _serves(server: DevServer, page: str, text: str) -> bool:
    # Only the edited page is read: scanning every page would hold the interpreter lock
    # (tens of milliseconds at thousands of tools) while the rebuild it measures runs.
    site = server.site_files
    return site is not None and text.encode() in site.get(page, b"")


def sample_site(runs: int = 9) -> str:
    """Validate and build wall times of ``sample-site`` (medians) and its serve edit latency."""
    with tempfile.TemporaryDirectory() as directory:
        project = Path(directory) / "sample-site"
        shutil.copytree(ROOT / "sample-site", project, ignore=shutil.ignore_patterns("site", "screenshots"))
        validations = [timed([*CLI, "validate", str(project)]).seconds for _ in range(runs)]
        builds = [timed([*CLI, "build", str(project), "-o", str(project / "out")]) for _ in range(runs)]
        edit = serve_edit(project, project / "helpdesk.mcpdesc.yaml", "Search tickets", "tools/search_tickets.html")
        return (
            f"sample-site: validate {statistics.median(validations):.2f}s, "
            f"build {statistics.median(b.seconds for b in builds):.2f}s, serve edit {edit:.2f}s, "
            f"build RSS {max(b.own for b in builds)}MiB, tree {_tree(builds)}"
        )


def mcpcontract(description: Path, scratch: Path, runs: int) -> tuple[str, str]:
    """Median time and peak tree RSS of mcpcontract's ``document`` on ``description``."""
    script = os.environ.get("MCPCONTRACT_JS")
    if not script:
        return "-", "-"
    command = ["node", script, "document", str(description), "-o", str(scratch / "mcpcontract.md")]
    done = [timed(command) for _ in range(runs)]
    return f"{statistics.median(r.seconds for r in done):.2f}s", f"{max(r.tree_rss for r in done)}MiB"


def mcpcontract_version() -> str:
    script = os.environ.get("MCPCONTRACT_JS")
    if not script:
        return "mcpcontract: none (set MCPCONTRACT_JS to its build/index.js)"
    node = subprocess.run(["node", "--version"], capture_output=True, text=True, check=False).stdout.strip()
    version = subprocess.run(["node", script, "--version"], capture_output=True, text=True, check=False)
    return f"mcpcontract {version.stdout.strip()} (node {node})"


RAISED = ("max_bytes", "max_nodes", "max_primitives")
"""The limits a large description goes past (its depth and strings stay small)."""


def _values(data: object) -> Iterator[object]:
    stack = [data]
    while stack:
        value = stack.pop()
        yield value
        if isinstance(value, dict):
            stack += value.keys()
            stack += value.values()
        elif isinstance(value, list):
            stack += value


def raised_limits(data: dict[str, Any], size: int) -> dict[str, int]:
    """Limits the description passes with room to spare, where it exceeds a default one;
    none when the defaults do. Keys are counted with values, so ``max_nodes`` is above
    what the readers count whatever they count."""
    collections = ("tools", "resources", "resourceTemplates", "prompts", "tags")
    needed = {
        "max_bytes": size,
        "max_nodes": sum(1 for _ in _values(data)),
        "max_primitives": sum(len(data.get(name, [])) for name in collections),
    }
    defaults = {name: getattr(DEFAULT_LIMITS, name) for name in RAISED}
    if all(needed[name] <= limit for name, limit in defaults.items()):
        return {}
    return {name: max(limit, 2 * needed[name]) for name, limit in defaults.items()}


def described(n: int, scratch: Path, fmt: str) -> tuple[Path, Path, Path]:
    """The N-tool description in ``fmt``, the path to build it through (a config raising
    the limits where it needs that, else the description itself), and its 0.7.0 twin."""
    data = bench_description(n)
    description = dump(data, scratch / f"bench.mcpdesc.{fmt}")
    twin = dump(description_070(n), scratch / f"bench-070.mcpdesc.{fmt}")
    limits = raised_limits(data, description.stat().st_size)
    if not limits:
        return description, description, twin
    config = scratch / "mcpdesc-docs.yml"
    config.write_text(yaml.safe_dump({"description": description.name, "limits": limits}), encoding="utf-8")
    return description, config, twin


def _tree(runs: Sequence[Run]) -> str:
    return f"{max(r.tree_rss for r in runs)}/{max(r.tree_pss for r in runs)}MiB"


def measure(n: int, fmt: str, jobs: Sequence[int]) -> str:
    runs = 5 if n <= 100 else 3 if n <= 5000 else 1
    with tempfile.TemporaryDirectory() as directory:
        scratch = Path(directory)
        description, project, twin = described(n, scratch, fmt)
        site = scratch / "site"
        validations = [timed([*CLI, "validate", str(project)]) for _ in range(runs)]
        builds = [timed([*CLI, "build", str(project), "-o", str(site)]) for _ in range(runs)]
        scaled = {
            k: [timed([*CLI, "build", str(project), "-o", str(site), "-j", str(k)]) for _ in range(runs)] for k in jobs
        }
        floors = [floor(description, site, scratch) for _ in range(runs)]
        peer, peer_memory = mcpcontract(twin, scratch, runs)
        edit = serve_edit(project, description, "Tool number 1", "tools/tool_00001.html")
        build, base = statistics.median(r.seconds for r in builds), statistics.median(floors)
        size = description.stat().st_size / 1024 / 1024
        times = "".join(f" {statistics.median(r.seconds for r in done):>{_width(k)}.2f}s" for k, done in scaled.items())
        trees = "".join(f" {_tree(done):>{_width(k) + 7}}" for k, done in scaled.items())
        return (
            f"{n:>6} {fmt:>4} {size:>6.2f}MiB {statistics.median(r.seconds for r in validations):>7.2f}s "
            f"{build:>7.2f}s{times} "
            f"{base:>7.2f}s {build / base:>10.2f}x {peer:>11} {edit:>9.2f}s "
            f"{max(r.own for r in validations):>9}MiB {max(r.own for r in builds):>6}MiB "
            f"{_tree(builds):>14} {max(r.processes for r in builds):>5}{trees} {peer_memory:>15}"
        )


def _width(jobs: int) -> int:
    """The width of a "build -jK" column's figure (its header is wider than the time)."""
    return max(7, len(f"build -j{jobs}") - 1)


def machine() -> str:
    """The machine in one line: what the figures depend on, and how busy it was."""
    cpuinfo = Path("/proc/cpuinfo").read_text().splitlines()
    model = next((line.split(":", 1)[1].strip() for line in cpuinfo if "model name" in line), platform.machine())
    meminfo = Path("/proc/meminfo").read_text().splitlines()
    memory = next(line.split()[1] for line in meminfo if line.startswith("MemTotal"))
    cores = len(os.sched_getaffinity(0))
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    return (
        f"Python {sys.version.split()[0]}, {platform.system()} {platform.release()}, {model}, {cores} usable cores "
        f"(build's default -j), {int(memory) // 1024 // 1024} GiB, load average {load}"
    )


def _jobs(text: str) -> list[int]:
    values = [int(part) for part in text.split(",") if part]
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError("a comma-separated list of worker counts, each 1 or more")
    return values


def _formats(text: str) -> list[str]:
    values = [part for part in text.split(",") if part]
    if not values or any(value not in ("yaml", "json") for value in values):
        raise argparse.ArgumentTypeError("yaml, json or both, comma-separated")
    return values


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="time validate, build and serve on synthetic descriptions")
    parser.add_argument("sizes", metavar="N", type=int, nargs="*", default=[10, 100, 1000, 5000])
    parser.add_argument("--jobs", type=_jobs, default=[1], help="build -jK columns, e.g. 1,2 (default: 1)")
    parser.add_argument("--formats", type=_formats, default=["yaml", "json"], help="yaml, json or both (default)")
    parser.add_argument("--portal", type=int, metavar="N", help="time a portal of N servers instead (bench/portal.py)")
    options = parser.parse_args(argv)
    if options.portal is not None:
        from portal import report

        report(options.portal)
        return
    compileall.compile_dir(ROOT / "mcpdesc_docs", quiet=1)
    print(machine())
    print(mcpcontract_version())
    print(sample_site(), flush=True)
    header = (
        ("N", 6),
        ("in", 4),
        ("size", 8),
        ("validate", 9),
        ("build", 8),
        *((f"build -j{k}", _width(k) + 1) for k in options.jobs),
        ("floor", 8),
        ("build/floor", 11),
        ("mcpcontract", 11),
        ("serve edit", 10),
        ("validate RSS", 12),
        ("build RSS", 9),
        ("tree RSS/PSS", 14),
        ("procs", 5),
        *((f"tree -j{k}", _width(k) + 8) for k in options.jobs),
        ("mcpcontract RSS", 15),
    )
    print(" ".join(f"{h:>{w}}" for h, w in header))
    for n in options.sizes:
        for fmt in options.formats:
            print(measure(n, fmt, options.jobs), flush=True)
    print(f"load average at the end {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")


if __name__ == "__main__":
    main()
