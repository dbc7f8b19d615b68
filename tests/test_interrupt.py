"""Ctrl-C during a build (issue 30, item 14): one line, exit 130, the previous site as it
was and nothing staged left behind."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mcpdesc_docs.commands.build import INTERRUPTED
from mcpdesc_docs.errors import ExitCode

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import generate

TOOLS = 1500
"""Enough pages that the build is still rendering when the signal arrives (the test waits
for the first pages to be staged, then interrupts; the whole build takes several seconds)."""
PATIENCE = 300.0
"""Seconds to wait for the child to reach a state before the test gives up (a safety net
on a busy machine, not a measure)."""


def snapshot(directory: Path) -> dict[str, bytes]:
    return {str(path.relative_to(directory)): path.read_bytes() for path in directory.rglob("*") if path.is_file()}


def staging_dirs(parent: Path) -> list[Path]:
    return [path for path in parent.iterdir() if path.name.startswith(".site.")]


def staged_pages(parent: Path) -> int:
    return sum(1 for directory in staging_dirs(parent) for _ in directory.rglob("*.html"))


def wait_for(condition: object, process: subprocess.Popen[bytes]) -> None:
    given_up = time.monotonic() + PATIENCE
    while not condition():  # type: ignore[operator]
        assert process.poll() is None, "the build ended before it was interrupted"
        assert time.monotonic() < given_up, "the build never got there"
        time.sleep(0.005)


@pytest.mark.slow  # starts a server or a whole build in a child process
@pytest.mark.timeout(2 * PATIENCE)
def test_ctrl_c_while_rendering_leaves_the_previous_site_and_says_one_line(tmp_path: Path):
    description = generate.write(TOOLS, tmp_path / "big.mcpdesc.yaml")
    site = tmp_path / "site"
    generate.write(3, tmp_path / "small.mcpdesc.yaml")
    first = subprocess.run(
        [sys.executable, "-m", "mcpdesc_docs", "build", str(tmp_path / "small.mcpdesc.yaml"), "-o", str(site)],
        capture_output=True,
        check=False,
    )
    assert first.returncode == 0, first.stderr
    before = snapshot(site)

    process = subprocess.Popen(
        [sys.executable, "-m", "mcpdesc_docs", "build", str(description), "-o", str(site)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        # A child of a background job inherits SIGINT ignored, and Python then installs no
        # handler: put the default back so that it sees the signal as a terminal would send it.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        wait_for(lambda: staged_pages(tmp_path) >= 20, process)
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=PATIENCE)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == ExitCode.INTERRUPTED == 130, stderr.decode()
    assert stderr.decode() == f"mcpdesc-docs: {INTERRUPTED}\n"
    assert "Traceback" not in stdout.decode()
    assert snapshot(site) == before
    assert staging_dirs(tmp_path) == []
