"""``new --portal``: a portal project (config naming a folder of descriptions, two example
descriptions, a servers file for ``describe --servers``) and a workflow that builds it in
shards, merges them and publishes the site. The portal build itself is ``build``'s; here the
files are held to what they say."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from mcpdesc_docs import __version__
from mcpdesc_docs.describe.servers_file import read_servers

from .actions_runner import action_name, load_workflow
from .git_repos import git, isolate_git
from .sites import load_data, run

WORKFLOW = Path(".github") / "workflows" / "docs.yml"


@pytest.fixture(autouse=True)
def isolated_git(monkeypatch, tmp_path):
    isolate_git(monkeypatch, tmp_path)


@pytest.fixture
def portal(tmp_path) -> Path:
    project = tmp_path / "portal"
    code, _, err = run("new", "--portal", str(project))
    assert code == 0, err
    assert "describe --servers" in err
    return project


def test_the_portal_has_its_config_examples_servers_file_and_workflow(portal):
    files = sorted(p.relative_to(portal).as_posix() for p in portal.rglob("*") if p.is_file())
    assert files == [
        ".github/workflows/docs.yml",
        ".gitignore",
        "mcpdesc-docs.schema.json",
        "mcpdesc-docs.yml",
        "servers.json",
        "servers/mcpdesc.schema.json",
        "servers/notes.mcpdesc.yaml",
        "servers/weather.mcpdesc.yaml",
    ]
    assert (portal / ".gitignore").read_text(encoding="utf-8").split() == ["site/", "shard-*/"]


def test_the_config_names_the_folder_of_descriptions(portal):
    config = yaml.safe_load((portal / "mcpdesc-docs.yml").read_text(encoding="utf-8"))
    assert config["descriptions"] == ["servers/*.mcpdesc.yaml"]
    assert config["site_name"]
    assert "description" not in config
    matched = sorted(p.name for pattern in config["descriptions"] for p in portal.glob(pattern))
    assert matched == ["notes.mcpdesc.yaml", "weather.mcpdesc.yaml"]


@pytest.mark.parametrize("name", ["weather", "notes"])
def test_each_example_description_is_valid_and_its_modeline_names_a_schema_beside_it(portal, name):
    path = portal / "servers" / f"{name}.mcpdesc.yaml"
    code, out, _ = run("validate", "--strict", str(path))
    assert code == 0, out
    first = path.read_text(encoding="utf-8").splitlines()[0]
    schema = first.removeprefix("# yaml-language-server: $schema=")
    assert (path.parent / schema).is_file()


def test_the_servers_file_names_the_examples_servers_as_they_declare_them(portal):
    found = read_servers(portal / "servers.json", {"NOTES_TOKEN": "t"})
    # describe --servers would write (and --check compare) exactly the example files.
    assert sorted(server.file_name for server in found.servers) == sorted(
        p.name for p in (portal / "servers").glob("*.mcpdesc.yaml")
    )
    for server in found.servers:
        assert server.target is not None
        declared = load_data(portal / "servers" / server.file_name)["transports"]
        assert declared == [server.target.transport()]
    assert {server.name: server.target.headers for server in found.servers if server.target}["notes"] == {
        "Authorization": "Bearer t"
    }


def steps_of(job: dict[str, Any], action: str) -> list[dict[str, Any]]:
    return [step for step in job["steps"] if action_name(step) == action]


def test_the_workflow_builds_shards_merges_them_and_only_deploy_publishes(portal):
    workflow = load_workflow(portal / WORKFLOW)
    assert workflow["permissions"] == {"contents": "read"}
    jobs = workflow["jobs"]
    assert set(jobs) == {"build", "merge", "deploy"}
    build, merge, deploy = jobs["build"], jobs["merge"], jobs["deploy"]
    assert "needs" not in build
    assert merge["needs"] == "build"
    assert deploy["needs"] == "merge"
    shards = build["strategy"]["matrix"]["shard"]
    assert shards == list(range(1, len(shards) + 1))
    assert len(shards) > 1
    # The number of shards is the matrix's length, said once.
    assert build["env"]["MCPDESC_SHARD"] == "${{ matrix.shard }}/${{ strategy.job-total }}"
    assert build["env"]["MCPDESC_SHARD_DIR"] == "shard-${{ matrix.shard }}"
    assert build["env"]["MCPDESC_PROJECT"] == "."
    (upload,) = steps_of(build, "actions/upload-artifact")
    assert upload["with"]["name"] == upload["with"]["path"] == "shard-${{ matrix.shard }}"
    assert upload["with"]["include-hidden-files"] is True
    (download,) = steps_of(merge, "actions/download-artifact")
    assert download["with"] == {"pattern": "shard-*"}
    assert [step["run"] for step in merge["steps"] if "run" in step] == [
        f"pip install mcpdesc-docs=={__version__}",
        "mcpdesc-docs merge shard-* -o site",
    ]
    (pages,) = steps_of(merge, "actions/upload-pages-artifact")
    assert pages["with"]["path"] == "site"
    assert [action_name(step) for step in deploy["steps"]] == ["actions/deploy-pages"]
    assert deploy["environment"]["name"] == "github-pages"
    writers = {name for name, job in jobs.items() if "write" in job.get("permissions", {}).values()}
    assert writers == {"deploy"}
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert build["permissions"] == merge["permissions"] == {"contents": "read"}
    (checkout,) = steps_of(build, "actions/checkout")
    assert checkout["with"]["persist-credentials"] is False
    assert "actions/checkout" not in [action_name(step) for step in merge["steps"]]
    for job in jobs.values():
        for step in job["steps"]:
            if "uses" in step:
                assert re.fullmatch(r"actions/[a-z-]+@v\d+", step["uses"]), step["uses"]
    assert f"pip install mcpdesc-docs=={__version__}" in [s.get("run") for s in build["steps"]]


def test_each_shard_runs_build_with_its_share_and_folder(portal, tmp_path):
    """The build step's command line, run by bash as the runner would (with the expressions
    GitHub fills in), calls ``build --shard K/N -o shard-K`` on the project."""
    workflow = load_workflow(portal / WORKFLOW)
    build = workflow["jobs"]["build"]
    (step,) = [s for s in build["steps"] if "mcpdesc-docs build" in s.get("run", "")]
    fake = tmp_path / "bin"
    fake.mkdir()
    argv = tmp_path / "argv"
    (fake / "mcpdesc-docs").write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > {argv}\n', encoding="utf-8")
    (fake / "mcpdesc-docs").chmod(0o755)
    filled = {"${{ matrix.shard }}": "2", "${{ strategy.job-total }}": "4"}
    env = {"PATH": f"{fake}{os.pathsep}{os.environ['PATH']}"}
    for name, value in build["env"].items():
        for expression, result in filled.items():
            value = value.replace(expression, result)
        env[name] = value
    subprocess.run(["bash", "-e", "-c", step["run"]], env=env, check=True, cwd=tmp_path)
    assert argv.read_text(encoding="utf-8").splitlines() == [
        "build",
        ".",
        "--shard",
        "2/4",
        "-o",
        "shard-2",
        "--format",
        "github",
    ]


def test_inside_a_repository_the_workflow_goes_to_its_root_and_builds_the_portal_s_folder(tmp_path, monkeypatch):
    repository = tmp_path / "servers-repo"
    git(tmp_path, "init", "--quiet", "-b", "trunk", str(repository))
    monkeypatch.chdir(repository)
    code, _, err = run("new", "--portal", "mcp portal")
    assert code == 0, err
    workflow = load_workflow(repository / WORKFLOW)
    assert workflow["on"]["push"]["branches"] == ["trunk"]
    assert workflow["jobs"]["build"]["env"]["MCPDESC_PROJECT"] == "mcp portal"
    assert not (repository / "mcp portal" / ".github").exists()
    # A second portal in the same repository would overwrite the workflow: refused.
    code, _, err = run("new", "--portal", "other")
    assert code == 2
    assert "already exists" in err
    assert not (repository / "other").exists()


def test_the_scaffold_builds_as_the_workflow_builds_it(portal, tmp_path):
    # What the workflow's jobs run, in order: each shard, then merge; the merged site is
    # the single build's, and the config's own schema knows `descriptions:`.
    config_schema = json.loads((portal / "mcpdesc-docs.schema.json").read_text(encoding="utf-8"))
    assert "descriptions" in config_schema["properties"]
    code, _, err = run("build", str(portal), "-o", str(tmp_path / "whole"))
    assert code == 0, err
    shards = []
    for number in (1, 2):
        shard = tmp_path / f"shard-{number}"
        code, _, err = run("build", str(portal), "--shard", f"{number}/2", "-o", str(shard), "--format", "github")
        assert code == 0, err
        shards.append(str(shard))
    code, _, err = run("merge", *shards, "-o", str(tmp_path / "site"))
    assert code == 0, err
    whole = {p.relative_to(tmp_path / "whole"): p.read_bytes() for p in (tmp_path / "whole").rglob("*") if p.is_file()}
    merged = {p.relative_to(tmp_path / "site"): p.read_bytes() for p in (tmp_path / "site").rglob("*") if p.is_file()}
    assert merged == whole
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    for example in sorted((portal / "servers").glob("*.mcpdesc.yaml")):
        assert load_data(example)["info"]["title"] in home
