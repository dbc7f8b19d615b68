"""The repository's GitHub Action (``action.yml``), run the way Actions runs a composite
action (see tests/actions_runner.py) from a copy of the repository as a clone holds it.

One substitution: nothing is installed. The install step (checked here to install the
action's own checkout, ``github.action_path``) is stood in for by this checkout's
environment on PATH, with PYTHONPATH naming the action's copy, so the code that runs is
the code of the copy the action was taken from."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .actions_runner import ACTION_FILE, JobRun, load_workflow, run_action, run_job
from .shared_data import ROOT

WORKFLOWS = Path(".github") / "workflows"
VALID = """\
mcpdesc: "0.9.0"
info: {name: demo, version: "1.0.0"}
protocolVersions: ["2025-11-25"]
tools:
  - name: greet
    description: Say hello.
    inputSchema: {type: object}
"""
# A tool without its required input schema, on line 5.
BROKEN = VALID.replace("    inputSchema: {type: object}\n", "")
# Valid, with a warning: 2025-03-26 gets structural checks only.
WARNS = 'mcpdesc: "0.8.0"\ninfo: {name: x, version: "1"}\nprotocolVersions: [2025-03-26, 2025-06-18]\n'


def action() -> dict:
    return load_workflow(ROOT / ACTION_FILE)


def repository_copy(workspace: Path) -> Path:
    """The repository's files as a clone of the current work would hold them (tracked and
    new files, nothing git ignores: no built site, no virtual environment)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (workspace / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, workspace / name)
    return workspace


def runner_environment(action_path: Path) -> dict[str, str]:
    venv_bin = Path(sys.executable).parent
    return {
        "PATH": f"{venv_bin}{os.pathsep}{os.environ['PATH']}",
        "HOME": os.environ.get("HOME", "/tmp"),
        "CI": "true",
        "GITHUB_ACTIONS": "true",
        "PYTHONPATH": str(action_path),
        "PIP_NO_INDEX": "1",
    }


@pytest.fixture(scope="module")
def action_checkout(tmp_path_factory) -> Path:
    """The action as Actions keeps a used one: a checkout of its own (one for the module:
    no test writes into it)."""
    return repository_copy(tmp_path_factory.mktemp("_actions") / "mcpdesc-docs")


@pytest.fixture
def run_on(action_checkout):
    return lambda workspace, **inputs: run_action_on(action_checkout, workspace, **inputs)


def run_action_on(action_path: Path, workspace: Path, **inputs: str) -> JobRun:
    return run_action(
        load_workflow(action_path / ACTION_FILE),
        inputs,
        workspace,
        action_path,
        runner_environment(action_path),
        stand_ins={"install"},
    )


def project(workspace: Path, description: str, config: str = "") -> Path:
    docs = workspace / "docs"
    docs.mkdir(parents=True)
    (docs / "server.mcpdesc.yaml").write_text(description)
    (docs / "mcpdesc-docs.yml").write_text(f"description: server.mcpdesc.yaml\n{config}")
    return docs


def test_the_action_is_composite_with_the_documented_inputs():
    spec = action()
    assert spec["name"]
    assert spec["description"]
    assert spec["runs"]["using"] == "composite"
    assert {"path", "strict", "check-server", "upload-pages"} <= set(spec["inputs"])
    assert spec["inputs"]["strict"]["default"] == "false"
    steps = spec["runs"]["steps"]
    for step in steps:
        if "run" in step:
            assert step["shell"] == "bash", step["name"]
            # Inputs reach scripts as variables: text pasted into a script would run as code.
            assert "${{" not in step["run"], step["name"]


def test_the_action_installs_its_own_checkout_never_the_latest_release():
    (install,) = (step for step in action()["runs"]["steps"] if step.get("id") == "install")
    assert install["env"]["MCPDESC_ACTION_PATH"] == "${{ github.action_path }}"
    assert 'pip install --quiet --disable-pip-version-check "$MCPDESC_ACTION_PATH"' in install["run"]
    assert "mcpdesc-docs" not in install["run"].split("pip install", 1)[1].split("\n")[0]


def test_a_valid_project_passes_and_nothing_is_uploaded_unless_asked(tmp_path, run_on):
    workspace = tmp_path / "work"
    project(workspace, VALID)
    run = run_on(workspace, path="docs")
    assert run.failed is None, run.outputs
    assert run.uploaded == []
    assert "Check the description against the server" in run.skipped
    assert not (workspace / "docs" / "site").exists()


def test_a_broken_description_fails_with_annotations_on_its_file(tmp_path, run_on):
    workspace = tmp_path / "work"
    project(workspace, BROKEN)
    run = run_on(workspace, path="docs", **{"upload-pages": "true"})
    assert run.failed == "Validate the description (or build the site)"
    # Relative to the repository root, where GitHub looks for the annotated file.
    assert "::error file=docs/server.mcpdesc.yaml,line=5," in run.outputs[-1]
    assert run.uploaded == []
    assert not (workspace / "docs" / "site").exists()


def test_strict_makes_warnings_fail(tmp_path, run_on):
    workspace = tmp_path / "work"
    project(workspace, WARNS)
    lenient = run_on(workspace, path="docs/server.mcpdesc.yaml")
    assert lenient.failed is None
    assert "::warning file=docs/server.mcpdesc.yaml," in lenient.outputs[0]
    strict = run_on(workspace, path="docs/server.mcpdesc.yaml", strict="true")
    assert strict.failed == "Validate the description (or build the site)"


@pytest.mark.parametrize("flag", ["strict", "upload-pages"])
def test_a_flag_that_is_not_true_or_false_is_refused(tmp_path, flag, run_on):
    workspace = tmp_path / "work"
    project(workspace, VALID)
    run = run_on(workspace, path="docs", **{flag: "yes"})
    assert run.failed == "Validate the description (or build the site)"
    assert f'::error title=mcpdesc-docs::the input {flag} must be "true" or "false"' in run.outputs[-1]


def test_upload_pages_builds_and_uploads_the_projects_site_dir(tmp_path, run_on):
    workspace = tmp_path / "work"
    project(workspace, VALID, "site_dir: public\n")
    run = run_on(workspace, path="docs", **{"upload-pages": "true"})
    assert run.failed is None, run.outputs
    assert run.uploaded == [workspace / "docs" / "public"]
    assert (workspace / "docs" / "public" / "tools" / "greet.html").is_file()


def test_ci_runs_the_action_on_the_sample_site(tmp_path):
    workspace = repository_copy(tmp_path / "work")
    workflow = load_workflow(workspace / WORKFLOWS / "ci.yml")
    job = run_job(workflow, "action", workspace, runner_environment(workspace), stand_ins={"install"})
    assert job.uploaded == [workspace / "sample-site" / "site"]
    assert (workspace / "sample-site" / "site" / "index.html").is_file()


@pytest.mark.slow
def test_check_server_gates_on_drift(tmp_path, run_on):
    workspace = tmp_path / "work"
    server = ROOT / "tests" / "servers" / "helpdesk_server.py"
    command = f"{sys.executable} {server}"
    described = subprocess.run(
        [Path(sys.executable).parent / "mcpdesc-docs", "describe", "--stdio", command],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    project(workspace, described)
    matching = run_on(workspace, path="docs", **{"check-server": command})
    assert matching.failed is None, matching.outputs
    assert "docs/server.mcpdesc.yaml matches the server" in matching.outputs[-1]
    drifted = run_on(workspace, path="docs", **{"check-server": f"{command} --changed"})
    assert drifted.failed == "Check the description against the server"
    assert "docs/server.mcpdesc.yaml differs from the server" in drifted.outputs[-1]
    assert "::error file=docs/server.mcpdesc.yaml,title=mcpdesc-docs describe --check::" in drifted.outputs[-1]
    absent = run_on(workspace, path="docs", **{"check-server": f"{sys.executable} -c pass"})
    assert absent.failed == "Check the description against the server"
    assert "::error" not in absent.outputs[-1]
