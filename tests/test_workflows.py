"""The repository's own GitHub Actions workflows: CI checks every push and pull request
(lint, format, types, the suite on every supported Python, the browser tests once) and the
release reuses it before publishing a tag with trusted publishing."""

from __future__ import annotations

import re
from typing import Any

from .actions_runner import load_workflow
from .shared_data import ROOT

WORKFLOWS = ROOT / ".github" / "workflows"
PYTHONS = ["3.11", "3.12", "3.13"]


def runs(job: dict[str, Any]) -> list[str]:
    return [str(step["run"]) for step in job["steps"] if "run" in step]


def test_ci_runs_on_every_push_and_pull_request_and_for_the_release():
    workflow = load_workflow(WORKFLOWS / "ci.yml")
    assert set(workflow["on"]) == {"push", "pull_request", "workflow_call"}
    # Branches only: a tag is checked through the release, not twice.
    assert workflow["on"]["push"] == {"branches": ["**"]}
    assert workflow["on"]["pull_request"] is None
    assert workflow["permissions"] == {"contents": "read"}
    assert all("permissions" not in job for job in workflow["jobs"].values())


def test_ci_lints_checks_formatting_and_types_once():
    lint = runs(load_workflow(WORKFLOWS / "ci.yml")["jobs"]["lint"])
    assert {"ruff check .", "ruff format --check .", "mypy"} <= set(lint)


def test_ci_runs_the_suite_on_every_python_and_the_browser_tests_once():
    jobs = load_workflow(WORKFLOWS / "ci.yml")["jobs"]
    test, browser = jobs["test"], jobs["browser"]
    assert test["strategy"]["matrix"]["python"] == PYTHONS
    assert test["container"] == "python:${{ matrix.python }}-bookworm"
    # .ci/run installs and runs the README's test command; its arguments go to pytest.
    assert runs(test)[-1] == '.ci/run -m "not browser"'
    assert runs(browser)[-1] == ".ci/run -m browser"
    assert "strategy" not in browser
    ci_run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert '.venv/bin/pytest "$@"' in ci_run


def test_every_python_ci_tests_is_one_the_package_declares():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for version in PYTHONS:
        assert f'"Programming Language :: Python :: {version}"' in pyproject


def test_the_release_workflow_publishes_a_tested_tag_with_trusted_publishing():
    workflow = load_workflow(WORKFLOWS / "release.yml")
    assert workflow["on"] == {"push": {"tags": ["v*"]}}
    assert workflow["permissions"] == {"contents": "read"}
    jobs = workflow["jobs"]
    build_runs = [step.get("run", "") for step in jobs["build"]["steps"]]
    assert any("release_check.py" in r for r in build_runs)
    assert any("python -m build" in r for r in build_runs)
    assert "twine check --strict dist/*" in build_runs
    # The release is checked by the very workflow that checks pull requests.
    assert jobs["test"]["uses"] == "./.github/workflows/ci.yml"
    publish = jobs["publish"]
    assert sorted(publish["needs"]) == ["build", "test"]
    assert publish["environment"]["name"] == "pypi"
    assert publish["permissions"] == {"id-token": "write"}
    assert [s["uses"].split("@")[0] for s in publish["steps"]] == [
        "actions/download-artifact",
        "pypa/gh-action-pypi-publish",
    ]
    # No token: trusted publishing is the action's default when it gets none.
    assert all("password" not in step.get("with", {}) for step in publish["steps"])
    writers = {name for name, job in jobs.items() if "write" in job.get("permissions", {}).values()}
    assert writers == {"publish"}


def test_only_the_browser_modules_drive_a_browser():
    # CI's Python matrix runs `-m "not browser"` without Chromium, and conftest marks
    # `browser` by module name: a browser test anywhere else would fail there.
    drivers = sorted(
        path.name
        for path in (ROOT / "tests").glob("test_*.py")
        if re.search(r"^from (playwright|\.browser)\b", path.read_text(encoding="utf-8"), re.MULTILINE)
    )
    assert drivers
    assert [name for name in drivers if not name.startswith("test_browser_")] == []
