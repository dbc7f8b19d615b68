"""Time validate, build and a serve rebuild on synthetic descriptions, against a floor.

    .venv/bin/python bench/run.py [N ...]          (default: 10 100 1000 5000)

Each size is measured twice, with the description as YAML and as JSON (the same data).
The floor is measured in the same run: libyaml's event scan of the same text (the least
any reader of it must do) plus writing the same files with the same bytes. Times are
medians; "build" lets the build use its default workers (``-j auto``), "build -j1" renders
in one process. Memory is the peak RSS of each command's own process (its VmHWM, reported
as it exits), the largest of its runs; a build's workers share its pages copy-on-write and
are not counted. "serve edit" is the time from saving a one-line edit to the dev server
having the new site swapped in (file watcher, debounce and rebuild; the browser then
reloads one page).

When ``MCPCONTRACT_JS`` names a built copy of mcpcontract, its ``document`` command
(``node $MCPCONTRACT_JS document DESCRIPTION -o DIR``: one page, no validation) is timed
on the same files; otherwise that column shows ``-``.

Commands run the way an installed tool does, with compiled bytecode: the package is
byte-compiled first and ``PYTHONDONTWRITEBYTECODE`` is dropped for them.
"""

from __future__ import annotations

import compileall
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import yaml

from mcpdesc_docs.devserver.project import ProjectBuilder
from mcpdesc_docs.devserver.server import DevServer

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import description as bench_description
from generate import write

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


def timed(command: list[str]) -> tuple[float, int]:
    """Wall time and peak RSS (MiB) of one subprocess, its own (not the largest so far).
    ``command`` runs as given when it is not ours (mcpcontract; its memory is not shown)."""
    ours = command[: len(CLI)] == CLI
    read_end, write_end = os.pipe()
    if ours:
        command = [sys.executable, "-c", _REPORT_PEAK, *command[len(CLI) :]]
    env = {**ENV, "BENCH_PEAK_FD": str(write_end)}
    with tempfile.TemporaryFile() as output:
        started = time.perf_counter()
        done = subprocess.run(command, stdout=output, stderr=output, env=env, pass_fds=(write_end,), check=False)
        elapsed = time.perf_counter() - started
        os.close(write_end)
        with os.fdopen(read_end, "rb") as peak:
            reported = peak.read().decode() or "0"
        if done.returncode != 0:
            output.seek(0)
            raise SystemExit(f"{' '.join(command)} failed:\n{output.read().decode(errors='replace')}")
    return elapsed, int(reported) // 1024


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


def sample_site(runs: int = 9) -> tuple[float, float]:
    """Build wall time of ``sample-site`` (median) and its serve edit latency."""
    with tempfile.TemporaryDirectory() as directory:
        project = Path(directory) / "sample-site"
        shutil.copytree(ROOT / "sample-site", project, ignore=shutil.ignore_patterns("site", "screenshots"))
        builds = [timed([*CLI, "build", str(project), "-o", str(project / "out")])[0] for _ in range(runs)]
        return statistics.median(builds), serve_edit(
            project, project / "helpdesk.mcpdesc.yaml", "Search tickets", "tools/search_tickets.html"
        )


def mcpcontract(description: Path, scratch: Path, runs: int) -> str:
    script = os.environ.get("MCPCONTRACT_JS")
    if not script:
        return "-"
    command = ["node", script, "document", str(description), "-o", str(scratch / "mcpcontract")]
    return f"{statistics.median(timed(command)[0] for _ in range(runs)):.2f}s"


def described(n: int, scratch: Path, fmt: str) -> Path:
    if fmt == "yaml":
        return write(n, scratch / "bench.mcpdesc.yaml")
    path = scratch / "bench.mcpdesc.json"
    path.write_text(json.dumps(bench_description(n), indent=2), encoding="utf-8")
    return path


def measure(n: int, fmt: str) -> str:
    runs = 5 if n <= 100 else 3
    with tempfile.TemporaryDirectory() as directory:
        scratch = Path(directory)
        description = described(n, scratch, fmt)
        site = scratch / "site"
        validations = [timed([*CLI, "validate", str(description)]) for _ in range(runs)]
        builds = [timed([*CLI, "build", str(description), "-o", str(site)]) for _ in range(runs)]
        serial = [timed([*CLI, "build", str(description), "-o", str(site), "-j", "1"])[0] for _ in range(runs)]
        floors = [floor(description, site, scratch) for _ in range(runs)]
        peer = mcpcontract(description, scratch, runs)
        edit = serve_edit(description, description, "Tool number 1", "tools/tool_00001.html")
        build, base = statistics.median(t for t, _ in builds), statistics.median(floors)
        size = description.stat().st_size / 1024 / 1024
        return (
            f"{n:>6} {fmt:>4} {size:>6.2f}MiB {statistics.median(t for t, _ in validations):>7.2f}s {build:>7.2f}s "
            f"{statistics.median(serial):>7.2f}s "
            f"{base:>7.2f}s {build / base:>10.2f}x {peer:>11} {edit:>9.2f}s "
            f"{max(m for _, m in validations):>9}MiB {max(m for _, m in builds):>6}MiB"
        )


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [10, 100, 1000, 5000]
    compileall.compile_dir(ROOT / "mcpdesc_docs", quiet=1)
    cores = subprocess.run(["nproc"], capture_output=True, text=True, check=False).stdout.strip()
    print(f"Python {sys.version.split()[0]}, {cores} cores")
    build, edit = sample_site()
    print(f"sample-site: build {build:.2f}s, serve edit {edit:.2f}s")
    header = ("N", "in", "size", "validate", "build", "build -j1", "floor", "build/floor", "mcpcontract", "serve edit")
    widths = (6, 4, 8, 9, 8, 9, 8, 11, 11, 10)
    memory = ("validate RSS", "build RSS")
    print(" ".join(f"{h:>{w}}" for h, w in zip(header, widths, strict=True)), " ".join(memory))
    for n in sizes:
        for fmt in ("yaml", "json"):
            print(measure(n, fmt), flush=True)


if __name__ == "__main__":
    main()
