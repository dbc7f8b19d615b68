"""The pre-commit hooks (.pre-commit-hooks.yaml) and ``validate`` of several files.

pre-commit installs a ``language: python`` hook by pip-installing this repository into an
environment of its own, which needs the package index (PyPI: the dependencies are not all
cached here). One slow test does exactly that, with ``pre-commit try-repo`` on this
checkout; the others run pre-commit offline on a ``repo: local`` configuration made from
the manifest's own hooks, with only the language and the command's start changed to this
checkout's interpreter: the file patterns, the passing of file names and the exit codes
are pre-commit's own."""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from pre_commit.clientlib import load_manifest

from mcpdesc_docs.cli import main

from .git_repos import git, isolate_git
from .shared_data import ROOT

MANIFEST = ROOT / ".pre-commit-hooks.yaml"
SAMPLE = ROOT / "sample-site" / "helpdesk.mcpdesc.yaml"
INVALID = 'mcpdesc: "0.9.0"\ninfo: {name: x, version: "1"}\nprotocolVersions: [2025-11-25]\ntools: []\n'
WARNINGS = 'mcpdesc: "0.8.0"\ninfo: {name: x, version: "1"}\nprotocolVersions: [2025-03-26, 2025-06-18]\n'


def hooks() -> dict[str, dict[str, Any]]:
    return {hook["id"]: hook for hook in load_manifest(str(MANIFEST))}  # pre-commit's own checks


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_the_manifest_is_valid_and_its_validate_hook_picks_descriptions():
    validate = hooks()["mcpdesc-validate"]
    assert validate["entry"] == "mcpdesc-docs validate"
    assert validate["language"] == "python"
    assert validate["pass_filenames"] is True
    pattern = re.compile(validate["files"])
    for name in ("server.mcpdesc.yaml", "docs/api.mcpdesc.yml", "x/y.mcpdesc.json"):
        assert pattern.search(name), name
    for name in ("mcpdesc-docs.yml", "server.yaml", "server.mcpdesc.yaml.orig", "notes.mcpdesc.md"):
        assert not pattern.search(name), name
    check = hooks()["mcpdesc-check-server"]
    assert check["entry"] == "mcpdesc-docs describe"
    assert check["pass_filenames"] is False


@pytest.fixture
def repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    isolate_git(monkeypatch, tmp_path)
    monkeypatch.setenv("PRE_COMMIT_HOME", str(tmp_path / "pre-commit-home"))
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # this checkout's mcpdesc_docs
    repository = tmp_path / "repo"
    git(tmp_path, "init", "--quiet", "-b", "main", str(repository))
    return repository


def local_config(repository: Path, hook_id: str, **changes: Any) -> None:
    """A repo: local pre-commit configuration running the manifest's hook here, offline."""
    hook = dict(next(h for h in yaml.safe_load(MANIFEST.read_text(encoding="utf-8")) if h["id"] == hook_id))
    program = hook["entry"].split()
    assert program[0] == "mcpdesc-docs"
    hook["entry"] = shlex.join([sys.executable, "-m", "mcpdesc_docs", *program[1:]])
    hook["language"] = "unsupported"  # what pre-commit calls a command already installed
    hook.update(changes)
    config = {"repos": [{"repo": "local", "hooks": [hook]}]}
    (repository / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")


def pre_commit(repository: Path, *args: str) -> subprocess.CompletedProcess[str]:
    git(repository, "add", "--all")
    command = [sys.executable, "-m", "pre_commit", "run", *args]
    return subprocess.run(command, cwd=repository, capture_output=True, text=True, env=os.environ.copy(), timeout=240)


def test_pre_commit_validates_each_staged_description(repository: Path):
    local_config(repository, "mcpdesc-validate")
    (repository / "docs").mkdir()
    (repository / "docs" / "good.mcpdesc.yaml").write_text(SAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    (repository / "bad.mcpdesc.yml").write_text(INVALID, encoding="utf-8")
    (repository / "not-a-description.yaml").write_text(INVALID, encoding="utf-8")  # not matched: not checked
    done = pre_commit(repository, "--files", "docs/good.mcpdesc.yaml", "not-a-description.yaml")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Validate MCP Descriptions" in done.stdout
    done = pre_commit(repository, "--all-files", "--verbose")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "bad.mcpdesc.yml:4:1: error[mcpdesc.collections.non-empty]" in done.stdout
    assert "docs/good.mcpdesc.yaml: valid (0.9.0-rc.3)" in done.stdout
    assert "not-a-description.yaml" not in done.stdout


def test_pre_commit_runs_nothing_when_no_description_changed(repository: Path):
    local_config(repository, "mcpdesc-validate")
    (repository / "README.md").write_text("hello\n")
    done = pre_commit(repository, "--files", "README.md")
    assert done.returncode == 0
    assert "(no files to check)Skipped" in done.stdout


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_pre_commit_checks_a_description_against_its_server(repository: Path):
    from .test_describe import stdio

    described = repository / "helpdesk.mcpdesc.yaml"
    assert run_cli("describe", "--stdio", stdio(), "-o", str(described))[0] == 0
    local_config(repository, "mcpdesc-check-server", args=["--stdio", stdio(), "--check", described.name])
    done = pre_commit(repository, "--all-files", "--verbose")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "matches the server" in done.stdout
    described.write_text(described.read_text(encoding="utf-8").replace("Helpdesk", "Desk"), encoding="utf-8")
    done = pre_commit(repository, "--all-files")
    assert done.returncode == 1, done.stdout + done.stderr


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_pre_commit_try_repo_installs_and_runs_the_hook_from_this_checkout(repository: Path):
    (repository / "good.mcpdesc.yaml").write_text(SAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    bad = {"mcpdesc": "0.9.0", "info": {"name": "x", "version": "1"}, "protocolVersions": ["2025-11-25"], "tools": []}
    (repository / "bad.mcpdesc.json").write_text(json.dumps(bad), encoding="utf-8")
    git(repository, "add", "--all")
    # A hook environment of its own, as users get: the installed package, not this checkout's.
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    command = [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "mcpdesc-validate", "--all-files", "-v"]
    done = subprocess.run(command, cwd=repository, capture_output=True, text=True, env=environment, timeout=540)
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr[-3000:]
    assert "bad.mcpdesc.json:1:" in done.stdout
    assert "error[mcpdesc.collections.non-empty]" in done.stdout
    assert "good.mcpdesc.yaml: valid (0.9.0-rc.3)" in done.stdout


# --- validate A B ... ----------------------------------------------------------------------


def test_validate_reports_each_file_and_exits_with_the_worst(tmp_path: Path):
    good, bad, legacy = tmp_path / "good.mcpdesc.yaml", tmp_path / "bad.mcpdesc.yaml", tmp_path / "l.mcpdesc.yaml"
    good.write_text(SAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    bad.write_text(INVALID, encoding="utf-8")
    legacy.write_text(WARNINGS, encoding="utf-8")
    code, out, _ = run_cli("validate", str(good), str(legacy))
    assert code == 0
    assert out.splitlines()[0] == f"{good}: valid (0.9.0-rc.3)"
    assert f"{legacy}: valid with warnings" in out
    assert run_cli("validate", str(good), str(legacy), "--strict")[0] == 1
    code, out, _ = run_cli("validate", str(bad), str(good))
    assert code == 1
    assert out.index(f"{bad}:4:1: error[") < out.index(f"{bad}: invalid") < out.index(f"{good}: valid")
    code, out, _ = run_cli("validate", str(bad), str(good), "--format", "json")
    reports = json.loads(out)
    assert [(r["file"], r["valid"]) for r in reports] == [(str(bad), False), (str(good), True)]
    code, out, _ = run_cli("validate", str(bad), str(good), "--format", "github")
    assert out.startswith(f"::error file={bad},line=4,col=1,")
    # One file: the report is as it always was (one object, not a list of one).
    assert json.loads(run_cli("validate", str(good), "--format", "json")[1])["file"] == str(good)


def test_a_project_among_the_paths_is_checked_with_its_settings(tmp_path: Path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "legacy.mcpdesc.yaml").write_text(WARNINGS, encoding="utf-8")
    (project / "mcpdesc-docs.yml").write_text("description: legacy.mcpdesc.yaml\nstrict: true\n")
    good = tmp_path / "good.mcpdesc.yaml"
    good.write_text(SAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    assert run_cli("validate", str(good), str(project))[0] == 1  # the project's strict applies to it
    assert run_cli("validate", str(good), str(project / "legacy.mcpdesc.yaml"))[0] == 0
