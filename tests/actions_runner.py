"""Run one job of a GitHub Actions workflow locally, the way a runner would, for the kinds
of step a documentation workflow has: ``run:`` steps in bash from the workspace (the
repository root), with ``working-directory`` (the step's, else the job's, else the
workflow's ``defaults.run``) and ``env`` (the workflow's, the job's, the step's) honoured;
the actions the test stands in for (it must already have done what they do: check out,
set up Python) are passed over, and the upload step's ``path`` is collected: the
directory GitHub Pages would publish, resolved against the workspace like every ``with:``."""

from __future__ import annotations

import subprocess
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

# What the tests provide in place of these actions, so their steps are taken as done.
PROVIDED_BY_THE_TEST = {"actions/checkout", "actions/setup-python"}
UPLOAD = "actions/upload-pages-artifact"
# The runner's default on Linux when a step names no `shell`.
DEFAULT_SHELL = ["bash", "-e"]


@dataclass
class JobRun:
    uploaded: list[Path] = field(default_factory=list)
    """Each upload step's ``path``, resolved against the workspace."""
    outputs: list[str] = field(default_factory=list)
    """What each ``run:`` step printed (stdout and stderr)."""


def load_workflow(path: Path) -> dict[str, Any]:
    workflow = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(workflow, dict)
    # PyYAML reads YAML 1.1, where the key `on` is the boolean true; GitHub reads it as "on".
    if True in workflow:
        workflow["on"] = workflow.pop(True)
    return workflow


def action_name(step: Mapping[str, Any]) -> str:
    return str(step.get("uses", "")).split("@")[0]


def working_directory(workflow: Mapping[str, Any], job: Mapping[str, Any], step: Mapping[str, Any]) -> str:
    for defaults in (step, job.get("defaults", {}).get("run", {}), workflow.get("defaults", {}).get("run", {})):
        if "working-directory" in defaults:
            return str(defaults["working-directory"])
    return "."


def step_environment(workflow: Mapping[str, Any], job: Mapping[str, Any], step: Mapping[str, Any]) -> dict[str, str]:
    """The variables the workflow sets for a step, the innermost winning."""
    merged: dict[str, str] = {}
    for level in (workflow, job, step):
        for name, value in level.get("env", {}).items():
            text = str(value)
            assert "${{" not in text, f"env {name}: expressions are not evaluated here"
            merged[str(name)] = text
    return merged


def run_job(workflow: Mapping[str, Any], job_name: str, workspace: Path, env: Mapping[str, str]) -> JobRun:
    """Run the job's steps in order; an unknown action or a failing step fails the test."""
    job = workflow["jobs"][job_name]
    result = JobRun()
    for step in job["steps"]:
        name = step.get("name", step.get("uses", step.get("run")))
        if "run" in step:
            script = str(step["run"])
            assert "${{" not in script, f"step {name!r}: expressions are not evaluated here"
            assert "shell" not in step, f"step {name!r}: only the default shell is run here"
            directory = workspace / working_directory(workflow, job, step)
            assert directory.is_dir(), f"step {name!r}: working-directory {directory} does not exist"
            done = subprocess.run(
                [*DEFAULT_SHELL, "-c", script],
                cwd=directory,
                env={**env, "GITHUB_WORKSPACE": str(workspace), **step_environment(workflow, job, step)},
                capture_output=True,
                text=True,
                timeout=300,
                check=False,
            )
            result.outputs.append(done.stdout + done.stderr)
            assert done.returncode == 0, f"step {name!r} exited {done.returncode}:\n{done.stdout}{done.stderr}"
        elif action_name(step) == UPLOAD:
            result.uploaded.append(workspace / str(step["with"]["path"]))
        else:
            assert action_name(step) in PROVIDED_BY_THE_TEST, f"step {name!r}: no stand-in for {step.get('uses')}"
    return result
