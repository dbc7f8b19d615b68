"""bench/run.py's own parts that its figures rest on: the memory of a whole process tree,
and the raised limits that let it build descriptions beyond the defaults."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from mcpdesc_docs.config import load_config
from mcpdesc_docs.source.limits import DEFAULT_LIMITS

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import run
from generate import description

MIB = 1024 * 1024
HELD = 48
"""MiB each process of the tree below writes to and holds: well above an interpreter's own
few MiB, so the sums can only reach twice it with both processes counted."""

# A parent that forks a child; each then fills HELD MiB of its own (the child after the
# fork, so no page is shared), says so, and holds it until its stdin closes.
TWO_PROCESSES = f"""
import os, sys
child = os.fork()
held = bytearray({HELD} * 1024 * 1024)
for index in range(0, len(held), 4096):
    held[index] = 1
os.write(1, b"ready\\n")
sys.stdin.read() if child else os.read(0, 1)
if child:
    os.waitpid(child, 0)
"""


def _until(condition, what: str) -> None:
    # Polls, with a deadline far beyond any real wait: the sampler reads every 10 ms.
    deadline = time.monotonic() + 60
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def test_tree_memory_sums_a_process_and_its_forked_child():
    command = [sys.executable, "-c", TWO_PROCESSES]
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE) as process:
        assert process.stdout is not None
        assert process.stdin is not None
        assert [process.stdout.readline(), process.stdout.readline()] == [b"ready\n"] * 2
        tree = run.TreeMemory(process.pid)
        try:
            _until(lambda: tree.processes == 2, "the forked child was never found")
            _until(lambda: tree.rss >= 2 * HELD * MIB, f"RSS sum stayed at {tree.rss}")
            _until(lambda: tree.pss >= 2 * HELD * MIB, f"PSS sum stayed at {tree.pss}")
        finally:
            process.stdin.close()
            process.wait()
            tree.stop()
    # Neither process alone holds twice HELD, and nothing outside the tree is counted.
    assert tree.rss < 4 * HELD * MIB
    assert tree.pss <= tree.rss


def test_timed_reports_the_commands_own_peak_and_its_tree():
    done = run.timed([*run.CLI, "--version"])
    assert done.processes == 1
    assert 0 < done.own <= done.tree_rss + 1  # VmHWM read at exit, RSS sampled: MiB rounding


def test_descriptions_within_the_default_limits_get_no_config(tmp_path):
    described, project, twin = run.described(12, tmp_path, "json")
    assert project == described
    assert not (tmp_path / "mcpdesc-docs.yml").exists()
    assert yaml.safe_load(twin.read_text(encoding="utf-8"))["mcpdesc"] == "0.7.0"


def test_a_description_past_a_default_limit_is_built_through_raised_limits(tmp_path, monkeypatch):
    data = description(12)
    primitives = len(data["tools"]) + len(data["resources"]) + len(data["prompts"]) + len(data["tags"])
    assert run.raised_limits(data, 1000) == {}
    # Past max_primitives: every raised limit keeps twice the room the description needs.
    past = {**data, "tools": [{"name": "t"}] * DEFAULT_LIMITS.max_primitives}
    limits = run.raised_limits(past, 1000)
    assert limits["max_primitives"] == 2 * (DEFAULT_LIMITS.max_primitives + primitives - len(data["tools"]))
    assert limits["max_bytes"] == DEFAULT_LIMITS.max_bytes
    assert limits["max_nodes"] == DEFAULT_LIMITS.max_nodes
    # Past max_bytes alone.
    assert run.raised_limits(data, DEFAULT_LIMITS.max_bytes + 1)["max_bytes"] == 2 * (DEFAULT_LIMITS.max_bytes + 1)

    # The config it writes is one the tool reads, with those limits.
    monkeypatch.setattr(run, "raised_limits", lambda data, size: {"max_primitives": 123_456})
    described, project, _ = run.described(12, tmp_path, "yaml")
    assert project == tmp_path / "mcpdesc-docs.yml"
    config = load_config(project)
    assert config.description == described
    assert config.limits.max_primitives == 123_456


@pytest.mark.parametrize(("text", "jobs"), [("1", [1]), ("1,2,4", [1, 2, 4])])
def test_jobs_option(text, jobs):
    assert run._jobs(text) == jobs


@pytest.mark.parametrize("text", ["", "0", "1,-2", ","])
def test_jobs_option_refuses_counts_below_one(text):
    with pytest.raises(run.argparse.ArgumentTypeError):
        run._jobs(text)
