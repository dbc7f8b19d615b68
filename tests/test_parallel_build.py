"""``build -j N``: a large site's pages rendered in forked workers of the tool's own. The
same bytes as one process; a worker that dies fails the build and leaves the previous site
as it was; no worker outlives the build; no program is run and no connection opened."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mcpdesc_docs.render import parallel

from .helpers import CLI_AUDIT_PROBE, PATIENCE
from .sites import build

TOOLS = 2 * parallel.MIN_PAGES_PER_WORKER + 20
"""Enough primitive pages for two workers."""
_pids_file: Path | None = None


def tools(count: int) -> str:
    items = "".join(
        f"  - name: tool_{i}\n    description: Tool {i} does **{i}** things.\n"
        "    inputSchema:\n      type: object\n      properties:\n"
        f"        q: {{type: string, maxLength: {i + 1}}}\n      required: [q]\n"
        for i in range(count)
    )
    return (
        'mcpdesc: "0.9.0"\ninfo:\n  name: many\n  version: "1"\nprotocolVersions: [2025-11-25]\n'
        f"transports:\n  - type: stdio\n    command: many\ntags:\n  - name: t\ntools:\n{items}"
    )


@pytest.fixture(scope="module")
def description(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("many") / "many.mcpdesc.yaml"
    path.write_text(tools(TOOLS), encoding="utf-8")
    return path


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _killing_run(start: int, stop: int) -> tuple[list[str], int]:
    if start == 0:
        os.kill(os.getpid(), signal.SIGKILL)
    return _original_run(start, stop)


def _recording_run(start: int, stop: int) -> tuple[list[str], int]:
    assert _pids_file is not None
    with _pids_file.open("a", encoding="utf-8") as pids:
        pids.write(f"{os.getpid()}\n")
    return _original_run(start, stop)


_original_run = parallel._run


@pytest.mark.slow
def test_workers_write_the_same_site_as_one_process(description: Path, tmp_path: Path) -> None:
    assert parallel.workers_for(TOOLS, 2) == 2
    one, two = tmp_path / "one", tmp_path / "two"
    code, out, err = build(description, one, "-j", "1")
    assert code == 0, out + err
    code, out, err = build(description, two, "-j", "2")
    assert code == 0, out + err
    assert tree(one) == tree(two)
    assert f"built {TOOLS + 3} pages" in err  # the overview, the tag page and 404.html besides


@pytest.mark.slow
def test_a_worker_that_dies_fails_the_build_and_keeps_the_previous_site(
    description: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    assert build(description, site, "-j", "1")[0] == 0
    before = tree(site)
    monkeypatch.setattr(parallel, "_run", _killing_run)
    code, _, err = build(description, site, "-j", "2")
    assert code == 2
    assert "a build worker stopped before its pages were written" in err
    assert "Traceback" not in err
    assert tree(site) == before
    assert [p.name for p in tmp_path.iterdir()] == ["site"]  # no staging directory left behind


@pytest.mark.slow
def test_no_worker_outlives_the_build(description: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    global _pids_file
    _pids_file = tmp_path / "pids"
    monkeypatch.setattr(parallel, "_run", _recording_run)
    try:
        assert build(description, tmp_path / "site", "-j", "2")[0] == 0
    finally:
        _pids_file = None
    pids = {int(line) for line in (tmp_path / "pids").read_text(encoding="utf-8").split()}
    assert len(pids) == 2
    assert os.getpid() not in pids
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


@pytest.mark.slow
def test_workers_are_forks_and_nothing_else(description: Path, tmp_path: Path) -> None:
    argv = ["build", str(description), "-o", str(tmp_path / "site"), "-j", "2"]
    done = subprocess.run(
        [sys.executable, "-c", CLI_AUDIT_PROBE, *argv], capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "EVENTS ['os.fork']" in done.stdout  # the workers; no program, no connection


def test_small_sites_render_in_the_build_process() -> None:
    assert parallel.workers_for(parallel.MIN_PAGES_PER_WORKER * 2 - 1, 8) == 1
    assert parallel.workers_for(10_000, 1) == 1
    assert parallel.workers_for(10_000, 4) == 4


ORPHAN = """
import os, sys, time
from pathlib import Path
from mcpdesc_docs.cli import main
from mcpdesc_docs.render import parallel

pids = Path(sys.argv[1])
def stuck(start, stop):
    with pids.open("a") as out:
        out.write(f"{os.getpid()}\\n")
    time.sleep(600)
parallel._run = stuck
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.slow
def test_workers_die_with_a_build_that_is_killed(description: Path, tmp_path: Path) -> None:
    pids_file = tmp_path / "pids"
    argv = [str(pids_file), "build", str(description), "-o", str(tmp_path / "site"), "-j", "2"]
    with subprocess.Popen(
        [sys.executable, "-c", ORPHAN, *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    ) as build_process:
        deadline = time.monotonic() + PATIENCE  # a hang guard, not a measure of speed
        while time.monotonic() < deadline and build_process.poll() is None:
            if pids_file.exists() and len(pids_file.read_text(encoding="utf-8").split()) >= 2:
                break  # both workers have started
            time.sleep(0.05)
        workers = {int(line) for line in pids_file.read_text(encoding="utf-8").split()}
        assert len(workers) == 2, build_process.stderr.read() if build_process.stderr else ""
        build_process.kill()
        build_process.wait()
    for pid in workers:
        deadline = time.monotonic() + PATIENCE  # the kernel ends each (PR_SET_PDEATHSIG) at once
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)
            raise AssertionError(f"worker {pid} outlived the build")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
