"""``new``: a project whose Pages workflow GitHub finds and can run on the first push.

The workflow's build job is run the way Actions would (see tests/actions_runner.py) on a
clone of what the user committed, with one substitution: nothing is installed from PyPI.
This checkout's environment comes first on PATH and pip may use no index, so the pinned
``pip install mcpdesc-docs==X.Y.Z`` step passes only if the pin names the version
installed here (this package's), and ``mcpdesc-docs`` is this checkout's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mcpdesc_docs import __version__

from .actions_runner import UPLOAD, action_name, load_workflow, run_job
from .git_repos import git, isolate_git
from .sites import run

WORKFLOW = Path(".github") / "workflows" / "mcpdesc-docs.yml"


@pytest.fixture(autouse=True)
def isolated_git(monkeypatch, tmp_path):
    isolate_git(monkeypatch, tmp_path)


def server_repository(path: Path, branch: str = "main") -> Path:
    """An existing MCP server's repository, with a commit of its own."""
    git(path.parent, "init", "--quiet", "-b", branch, str(path))
    (path / "server.py").write_text("print('an MCP server')\n")
    git(path, "add", ".")
    git(path, "commit", "--quiet", "-m", "server")
    return path


def push_and_check_out(repository: Path, workspace: Path) -> Path:
    """Commit everything and clone it, as the runner's checkout sees the pushed branch."""
    git(repository, "add", "--all")
    git(repository, "commit", "--quiet", "-m", "documentation")
    workspace.parent.mkdir(parents=True)
    git(workspace.parent, "clone", "--quiet", str(repository), str(workspace))
    return workspace


def actions_environment() -> dict[str, str]:
    """The runner's environment, with this checkout's venv standing in for the PyPI install."""
    venv_bin = Path(sys.executable).parent
    return {
        "PATH": f"{venv_bin}{os.pathsep}{os.environ['PATH']}",
        "HOME": os.environ.get("HOME", "/tmp"),
        "CI": "true",
        "GITHUB_ACTIONS": "true",
        # No download, ever: the pinned requirement must already be satisfied.
        "PIP_NO_INDEX": "1",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "MCPDESC_DOCS_CACHE_DIR": "",
    }


def published_site(workflow: dict[str, Any], workspace: Path) -> Path:
    job = run_job(workflow, "build", workspace, actions_environment())
    (uploaded,) = job.uploaded
    assert (uploaded / "index.html").is_file(), sorted(p.name for p in uploaded.iterdir())
    return uploaded


@pytest.mark.parametrize("project", ["docs", "api docs/it's #1: on"])
def test_new_inside_a_repository_puts_the_workflow_at_its_root_and_it_builds(tmp_path, monkeypatch, project):
    repository = server_repository(tmp_path / "server")
    monkeypatch.chdir(repository)
    code, _, err = run("new", project)
    assert code == 0, err
    assert (repository / WORKFLOW).is_file()
    assert not (repository / project / ".github").exists()
    assert sorted(p.name for p in (repository / project).iterdir()) == [
        ".gitignore",
        "mcpdesc-docs.schema.json",
        "mcpdesc-docs.yml",
        "mcpdesc.schema.json",
        "server.mcpdesc.yaml",
    ]
    assert "at the root of the repository" in err

    workspace = push_and_check_out(repository, tmp_path / "runner" / "work")
    workflow = load_workflow(workspace / WORKFLOW)
    assert workflow["on"]["push"]["branches"] == ["main"]
    site = published_site(workflow, workspace)
    assert site == workspace / project / "site"
    assert (site / "tools" / "greet.html").is_file()


def test_new_outside_a_repository_makes_dir_the_root_and_it_builds(tmp_path):
    project = tmp_path / "helpdesk-docs"
    code, _, err = run("new", str(project))
    assert code == 0, err
    assert (project / WORKFLOW).is_file()
    assert "as the repository's root" in err

    git(tmp_path, "init", "--quiet", "-b", "main", str(project))
    workspace = push_and_check_out(project, tmp_path / "runner" / "work")
    site = published_site(load_workflow(workspace / WORKFLOW), workspace)
    assert site == workspace / "site"


def test_a_linked_work_tree_is_a_root_of_its_own(tmp_path, monkeypatch):
    # A linked work tree (or a submodule) has a `.git` file, not a directory: GitHub checks
    # out its branch at the root all the same.
    repository = server_repository(tmp_path / "server")
    linked = tmp_path / "linked"
    git(repository, "worktree", "add", "--quiet", "-b", "docs-branch", str(linked))
    monkeypatch.chdir(linked)
    assert run("new", "docs")[0] == 0
    workflow = load_workflow(linked / WORKFLOW)
    assert workflow["on"]["push"]["branches"] == ["docs-branch"]
    assert upload_path(workflow) == "docs/site"
    assert not (repository / ".github").exists()


def test_a_fresh_git_init_directory_is_the_root(tmp_path):
    project = tmp_path / "docs"
    git(tmp_path, "init", "--quiet", "-b", "trunk", str(project))
    code, _, err = run("new", str(project))
    assert code == 0, err
    workflow = load_workflow(project / WORKFLOW)
    # The branch checked out is the one that publishes, whatever git calls its default.
    assert workflow["on"]["push"]["branches"] == ["trunk"]
    assert workflow["jobs"]["build"]["env"]["MCPDESC_PROJECT"] == "."
    assert upload_path(workflow) == "site"


def test_the_workflow_pins_this_version_and_only_deploy_can_publish(tmp_path):
    project = tmp_path / "docs"
    assert run("new", str(project))[0] == 0
    workflow = load_workflow(project / WORKFLOW)
    runs = [step["run"] for step in workflow["jobs"]["build"]["steps"] if "run" in step]
    assert f"pip install mcpdesc-docs=={__version__}" in runs
    assert f"mcpdesc-docs {__version__}" in (project / WORKFLOW).read_text()

    assert workflow["permissions"] == {"contents": "read"}
    build, deploy = workflow["jobs"]["build"], workflow["jobs"]["deploy"]
    assert build["permissions"] == {"contents": "read"}
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    writers = {
        name for name, job in workflow["jobs"].items() if any(v == "write" for v in job.get("permissions", {}).values())
    }
    # `version` pushes a version to gh-pages, and runs only on a tag of a repository that
    # asked for versioned docs; it may write the contents and nothing else.
    assert writers == {"deploy", "version"}
    version = workflow["jobs"]["version"]
    assert version["permissions"] == {"contents": "write"}
    assert version["if"] == "github.ref_type == 'tag' && vars.MCPDESC_VERSIONED == 'true'"
    assert build["if"] == "github.ref_type == 'branch'"
    assert deploy["if"] == "vars.MCPDESC_VERSIONED != 'true'"
    # The publishing job runs nothing from the repository, and the build job keeps no token.
    assert all("run" not in step for step in deploy["steps"])
    assert deploy["needs"] == "build"
    checkout = next(step for step in build["steps"] if action_name(step) == "actions/checkout")
    assert checkout["with"]["persist-credentials"] is False


def test_a_workflow_already_at_the_root_is_refused_and_nothing_is_written(tmp_path, monkeypatch):
    repository = server_repository(tmp_path / "server")
    (repository / WORKFLOW).parent.mkdir(parents=True)
    (repository / WORKFLOW).write_text("name: mine\n")
    monkeypatch.chdir(repository)
    code, _, err = run("new", "docs")
    assert code == 2
    assert "mcpdesc-docs.yml already exists; nothing was written" in err
    assert (repository / WORKFLOW).read_text() == "name: mine\n"
    assert not (repository / "docs").exists()


def test_new_refuses_a_non_empty_directory(tmp_path):
    (tmp_path / "keep.txt").write_text("mine")
    code, _, err = run("new", str(tmp_path))
    assert code == 2
    assert "not an empty directory" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.txt"]


@pytest.mark.parametrize("name", ["${{ github.token }}", "docs\n::error::x"])
def test_a_directory_name_the_workflow_cannot_carry_is_refused(tmp_path, monkeypatch, name):
    repository = server_repository(tmp_path / "server")
    monkeypatch.chdir(repository)
    code, _, err = run("new", name)
    assert code == 2
    assert "choose a plainer name" in err
    assert "\n::" not in err
    assert not (repository / ".github").exists()
    assert not (repository / name).exists()


def test_a_clone_publishes_from_its_default_branch_not_the_one_checked_out(tmp_path, monkeypatch):
    upstream = server_repository(tmp_path / "upstream", branch="trunk")
    git(tmp_path, "clone", "--quiet", str(upstream), str(tmp_path / "clone"))
    clone = tmp_path / "clone"
    git(clone, "switch", "--quiet", "-c", "add-docs")
    monkeypatch.chdir(clone)
    assert run("new", "docs")[0] == 0
    assert load_workflow(clone / WORKFLOW)["on"]["push"]["branches"] == ["trunk"]


def test_a_branch_name_that_is_a_pattern_publishes_on_main(tmp_path, monkeypatch):
    repository = server_repository(tmp_path / "server", branch="release+1")
    monkeypatch.chdir(repository)
    assert run("new", "docs")[0] == 0
    assert load_workflow(repository / WORKFLOW)["on"]["push"]["branches"] == ["main"]


def test_version_flag_names_the_package_version():
    done = subprocess.run(
        [Path(sys.executable).parent / "mcpdesc-docs", "--version"], capture_output=True, text=True, check=True
    )
    assert done.stdout == f"mcpdesc-docs {__version__}\n"


def upload_path(workflow: dict[str, Any]) -> str:
    (step,) = (step for step in workflow["jobs"]["build"]["steps"] if action_name(step) == UPLOAD)
    return str(step["with"]["path"])


def test_a_tag_publishes_a_version_beside_the_others(tmp_path, monkeypatch):
    """The `version` job, run for two tags in turn: versions in mike's layout on gh-pages."""
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "--quiet", "--bare", "-b", "main", str(remote))
    repository = server_repository(tmp_path / "server")
    monkeypatch.chdir(repository)
    assert run("new", "docs")[0] == 0
    git(repository, "remote", "add", "origin", str(remote))
    workspace = push_and_check_out(repository, tmp_path / "runner" / "workspace")
    git(workspace, "remote", "set-url", "origin", str(remote))
    workflow = load_workflow(workspace / WORKFLOW)
    assert workflow["on"]["push"]["tags"] == ["v*"]
    # The checkout under test stands in for the installed package, here and after a merge.
    environment = {**actions_environment(), "PYTHONPATH": os.environ.get("PYTHONPATH", "")}
    for tag in ("v1.0.0", "v1.1.0"):
        run_job(workflow, "version", workspace, {**environment, "GITHUB_REF_NAME": tag, "GITHUB_REF_TYPE": "tag"})
    listed = json.loads(git(remote, "show", "gh-pages:versions.json"))
    assert listed == [
        {"version": "1.1.0", "title": "1.1.0", "aliases": ["latest"]},
        {"version": "1.0.0", "title": "1.0.0", "aliases": []},
    ]
    assert git(remote, "rev-parse", "gh-pages:latest") == git(remote, "rev-parse", "gh-pages:1.1.0")
    assert "github-actions[bot]" in git(remote, "log", "-1", "--format=%an", "gh-pages")
