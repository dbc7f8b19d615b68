"""Run one job of a GitHub Actions workflow locally, the way a runner would, for the kinds
of step a documentation workflow has: ``run:`` steps in bash from the workspace (the
repository root), with ``working-directory`` (the step's, else the job's, else the
workflow's ``defaults.run``) and ``env`` (the workflow's, the job's, the step's) honoured;
the actions the test stands in for (it must already have done what they do: check out,
set up Python) are passed over, and the upload step's ``path`` is collected: the
directory GitHub Pages would publish, resolved against the workspace like every ``with:``.

A step that ``uses:`` a composite action of the workspace (``./``, this repository's
``action.yml``) is run as Actions runs one: its inputs are the step's ``with:`` over the
action's defaults, ``${{ inputs.* }}``, ``${{ github.action_path }}`` and
``${{ steps.*.outputs.* }}`` are substituted (any other expression fails the test), ``if:``
is evaluated (the comparisons of an input with a string literal), and each ``run:`` is a
bash script (``shell: bash``, as composite steps must name one) run from the workspace, with
``GITHUB_OUTPUT``, ``GITHUB_PATH``, ``GITHUB_ACTION_PATH`` and ``RUNNER_TEMP`` as the runner
gives them."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

# What the tests provide in place of these actions, so their steps are taken as done.
PROVIDED_BY_THE_TEST = {"actions/checkout", "actions/setup-python"}
UPLOAD = "actions/upload-pages-artifact"
# The runner's default on Linux when a step names no `shell`.
DEFAULT_SHELL = ["bash", "-e"]
# What the runner runs for `shell: bash`.
BASH = ["bash", "--noprofile", "--norc", "-eo", "pipefail"]
ACTION_FILE = "action.yml"
_EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
_CONDITION = re.compile(r"inputs\.([A-Za-z0-9_-]+) (==|!=) '([^']*)'")


@dataclass
class JobRun:
    uploaded: list[Path] = field(default_factory=list)
    """Each upload step's ``path``, resolved against the workspace."""
    outputs: list[str] = field(default_factory=list)
    """What each ``run:`` step printed (stdout and stderr)."""
    failed: str | None = None
    """The name of the step that failed, when one did (the job stops there)."""
    skipped: list[str] = field(default_factory=list)
    """The action steps whose ``if:`` was false."""


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


def run_job(
    workflow: Mapping[str, Any],
    job_name: str,
    workspace: Path,
    env: Mapping[str, str],
    *,
    stand_ins: Collection[str] = (),
) -> JobRun:
    """Run the job's steps in order; an unknown action or a failing step fails the test.
    ``stand_ins``: ids of steps of a workspace action that the test has done in their place."""
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
        elif action_name(step).startswith("./"):
            action_path = workspace / action_name(step)
            inputs = {str(k): _input_text(v) for k, v in step.get("with", {}).items()}
            run = run_action(load_workflow(action_path / ACTION_FILE), inputs, workspace, action_path, env, stand_ins)
            result.uploaded += run.uploaded
            result.outputs += run.outputs
            assert run.failed is None, f"step {name!r}: the action's step {run.failed!r} failed:\n{run.outputs[-1]}"
        else:
            assert action_name(step) in PROVIDED_BY_THE_TEST, f"step {name!r}: no stand-in for {step.get('uses')}"
    return result


def _input_text(value: object) -> str:
    """A ``with:`` value as the action receives it: always a string, YAML booleans in lower case."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def run_action(
    action: Mapping[str, Any],
    given: Mapping[str, str],
    workspace: Path,
    action_path: Path,
    env: Mapping[str, str],
    stand_ins: Collection[str] = (),
) -> JobRun:
    """Run a composite action's steps with the inputs ``given``; stops at the first failure."""
    assert action["runs"]["using"] == "composite"
    declared = action.get("inputs", {})
    unknown = set(given) - set(declared)
    assert not unknown, f"inputs the action does not declare: {sorted(unknown)}"
    inputs = {name: given.get(name, _input_text(spec.get("default", ""))) for name, spec in declared.items()}
    steps: dict[str, dict[str, str]] = {}
    temp = workspace.parent / "runner-temp"
    temp.mkdir(exist_ok=True)
    path = env.get("PATH", "")
    result = JobRun()

    def evaluate(text: str) -> str:
        def value(match: re.Match[str]) -> str:
            expression = match.group(1)
            if expression == "github.action_path":
                return str(action_path)
            if expression.startswith("inputs."):
                return inputs[expression.removeprefix("inputs.")]
            parts = expression.split(".")
            assert parts[::2] == ["steps", "outputs"], f"not evaluated: {expression}"
            assert len(parts) == 4, f"not evaluated: {expression}"
            return steps.get(parts[1], {}).get(parts[3], "")

        return _EXPRESSION.sub(value, text)

    for number, step in enumerate(action["runs"]["steps"]):
        name = str(step.get("name", number))
        if "if" in step and not _condition(str(step["if"]), inputs):
            result.skipped.append(name)
            continue
        if "run" in step:
            assert step.get("shell") == "bash", f"step {name!r}: a composite run step must name its shell"
            if step.get("id") in stand_ins:
                continue
            outputs, added_path = temp / f"output-{number}", temp / f"path-{number}"
            outputs.write_text("")
            added_path.write_text("")
            script = temp / f"step-{number}.sh"
            script.write_text(evaluate(str(step["run"])))
            done = subprocess.run(
                [*BASH, str(script)],
                cwd=workspace,
                env={
                    **env,
                    "PATH": path,
                    "GITHUB_WORKSPACE": str(workspace),
                    "GITHUB_ACTION_PATH": str(action_path),
                    "GITHUB_OUTPUT": str(outputs),
                    "GITHUB_PATH": str(added_path),
                    "RUNNER_TEMP": str(temp),
                    **{str(k): evaluate(str(v)) for k, v in step.get("env", {}).items()},
                },
                capture_output=True,
                text=True,
                timeout=300,
                check=False,
            )
            result.outputs.append(done.stdout + done.stderr)
            if done.returncode != 0:
                result.failed = name
                return result
            if "id" in step:
                steps[str(step["id"])] = _step_outputs(outputs.read_text())
            for directory in added_path.read_text().splitlines()[::-1]:
                path = f"{directory}:{path}"
        elif action_name(step) == UPLOAD:
            result.uploaded.append(workspace / evaluate(str(step["with"]["path"])))
        else:
            raise AssertionError(f"step {name!r}: no stand-in for {step.get('uses')}")
    return result


def _condition(text: str, inputs: Mapping[str, str]) -> bool:
    match = _CONDITION.fullmatch(text.strip())
    assert match, f"if: {text!r} is not a comparison evaluated here"
    name, operator, literal = match.groups()
    return (inputs[name] == literal) == (operator == "==")


def _step_outputs(text: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for line in text.splitlines():
        name, equals, value = line.partition("=")
        assert equals, f"an output line read here is name=value: {line!r}"
        assert "<<" not in name, f"multi-line outputs are not read here: {line!r}"
        found[name] = value
    return found
