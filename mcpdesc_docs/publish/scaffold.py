"""``new DIR``: the starter project (config, description) in DIR, and its GitHub Pages
workflow where GitHub reads workflows: at the root of the git repository holding DIR, or
in DIR itself when DIR is not inside one (it then becomes the repository's root).
``new --portal DIR`` does the same for a portal: a config naming a folder of
descriptions, two examples there, a servers file for ``describe --servers``, and a
workflow that builds the portal in shards and merges them."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path, PurePosixPath

from .. import __version__
from ..diagnostics import printable
from ..errors import UsageError
from ..records import record
from ..spec.schema_export import (
    CONFIG_SCHEMA_FILE,
    DESCRIPTION_SCHEMA_FILE,
    config_schema,
    exported_schema,
    schema_file_text,
)
from ..spec.versions import SPEC_0_9_0_RC_3

STARTER = Path(__file__).resolve().parent / "starter"
WORKFLOW = PurePosixPath(".github/workflows/mcpdesc-docs.yml")
"""Where the workflow is written, relative to the repository root (GitHub reads workflows
from the root's ``.github/workflows/`` only), and where its template is in ``starter/``."""
PORTAL_STARTER = Path(__file__).resolve().parent / "portal_starter"
PORTAL_WORKFLOW = PurePosixPath(".github/workflows/docs.yml")
PORTAL_DESCRIPTIONS = "servers"
"""The portal starter's folder of descriptions, where ``describe --servers`` writes them."""
# Stored as "gitignore": a file named .gitignore inside the package would be read as
# the package's own ignore rules by tools that build the wheel.
RENAMES = {"gitignore": ".gitignore"}
SITE_DIR = "site"
"""The starter config leaves ``site_dir`` at its default, ``site/`` beside the config."""
DEFAULT_BRANCH = "main"
# A branch name the workflow's `branches:` filter takes literally (no glob characters such
# as `+` or a leading `!`, nothing to quote); any other publishes on pushes to main.
_PLAIN_BRANCH = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/-]*")


@record
class Starter:
    """One kind of starter project: its files, its workflow's path (in the folder and at the
    repository's root), and where the schemas its modelines name are written."""

    folder: Path
    workflow: PurePosixPath
    description_schema: str
    """Beside the descriptions: the folder holding them, relative to DIR."""


SITE = Starter(STARTER, WORKFLOW, DESCRIPTION_SCHEMA_FILE)
PORTAL = Starter(PORTAL_STARTER, PORTAL_WORKFLOW, f"{PORTAL_DESCRIPTIONS}/{DESCRIPTION_SCHEMA_FILE}")


@record
class Scaffold:
    """What ``new`` wrote."""

    project: Path
    """DIR, as given."""
    files: list[str]
    """The files written into DIR, relative to it (the workflow too when DIR is the root)."""
    repository: Path
    """The repository's root: the git work tree holding DIR, or DIR itself."""
    in_repository: bool
    """Whether DIR was inside an existing git work tree (so the workflow went to its root)."""
    project_dir: str
    """DIR relative to the repository root, as the workflow names it (``.`` for the root)."""
    branch: str
    """The branch whose pushes build and publish the site."""
    starter: Starter = SITE

    @property
    def workflow(self) -> Path:
        return self.repository / self.starter.workflow


def create_project(target: Path, starter: Starter = SITE) -> Scaffold:
    """Write the starter files into DIR (new, or empty but for ``.git``) and the workflow at
    the repository root; UsageError, with nothing written, when either place is taken."""
    if target.exists() and (not target.is_dir() or any(p.name != ".git" for p in target.iterdir())):
        raise UsageError(f"{target} already exists and is not an empty directory; nothing was written")
    resolved = target.resolve()
    repository = _work_tree_root(resolved)
    in_repository = repository is not None
    if repository is None:
        repository = resolved
    project_dir = _workflow_path(resolved.relative_to(repository))
    branch = _publishing_branch(repository) if in_repository else DEFAULT_BRANCH
    workflow_text = render_workflow(project_dir=project_dir, branch=branch, starter=starter)

    workflow = repository / starter.workflow
    workflow.parent.mkdir(parents=True, exist_ok=True)
    try:
        # Exclusive creation: an existing workflow of this name (even a dangling symlink)
        # is never overwritten, and is found before DIR gets a single file.
        with workflow.open("x", encoding="utf-8", newline="\n") as stream:
            stream.write(workflow_text)
    except FileExistsError:
        raise UsageError(
            f"{workflow} already exists; nothing was written (rename it, or move it away and merge it by hand)"
        ) from None
    created = [starter.workflow.as_posix()] if repository == resolved else []
    for source in sorted(starter.folder.rglob("*")):
        relative = source.relative_to(starter.folder)
        if not source.is_file() or PurePosixPath(relative.as_posix()) == starter.workflow:
            continue
        destination = target / relative.parent / RENAMES.get(relative.name, relative.name)
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, destination)
        created.append(destination.relative_to(target).as_posix())
    # The schemas the starter files' modelines name, so editors complete and check them
    # offline (docs/integrations.md).
    for name, schema in (
        (starter.description_schema, exported_schema(SPEC_0_9_0_RC_3)),
        (CONFIG_SCHEMA_FILE, config_schema()),
    ):
        (target / name).write_text(schema_file_text(schema), encoding="utf-8")
        created.append(name)
    return Scaffold(target, sorted(created), repository, in_repository, project_dir, branch, starter)


def render_workflow(*, project_dir: str, branch: str, starter: Starter = SITE) -> str:
    """The starter workflow for a project at ``project_dir`` (relative to the repository root)
    publishing on pushes to ``branch``, pinned to this version of mcpdesc-docs."""
    site_dir = SITE_DIR if project_dir == "." else f"{project_dir}/{SITE_DIR}"
    # Paths are written as double-quoted YAML strings (JSON's are a subset of them), so a
    # directory named `on`, `1.0` or `a: b` stays that string.
    values = {
        "version": __version__,
        "branch": json.dumps(branch),
        "project_dir": json.dumps(project_dir, ensure_ascii=False),
        "site_dir": json.dumps(site_dir, ensure_ascii=False),
    }
    template = (starter.folder / starter.workflow).read_text(encoding="utf-8")
    placeholder = re.compile("@(" + "|".join(values) + ")@")
    return placeholder.sub(lambda match: values[match[1]], template)


def _work_tree_root(start: Path) -> Path | None:
    """The nearest directory at or above ``start`` holding ``.git`` (a directory, or the file
    of a linked work tree or submodule): the root GitHub checks out. Read from the file
    system, not git, so that a repository git would refuse (another user's, say) still
    counts, and no git is needed."""
    for directory in (start, *start.parents):
        if (directory / ".git").exists():
            return directory
    return None


def _workflow_path(relative: Path) -> str:
    """DIR relative to the repository root, as the workflow may name it (UsageError if not)."""
    posix = relative.as_posix()
    if ".git" in relative.parts:
        raise UsageError(f"{posix} is inside the repository's .git directory; nothing was written")
    # GitHub evaluates `${{ ... }}` in the `env` value and the `path` that name DIR: a
    # directory name must not become an expression. Nor has a control or format character
    # any business in a workflow (or in the line that reports it).
    if "${{" in posix or printable(posix) != posix:
        raise UsageError(f"the workflow cannot name the directory {posix!r}; choose a plainer name")
    return posix


def _publishing_branch(repository: Path) -> str:
    """The repository's default branch as the clone knows it (``origin/HEAD``), else the
    branch checked out; ``main`` when git cannot say, or the name is not a plain one."""
    for ref in ("refs/remotes/origin/HEAD", "HEAD"):
        try:
            done = subprocess.run(
                ["git", "symbolic-ref", "--quiet", "--short", ref],
                cwd=repository,
                capture_output=True,
                text=True,
                check=False,
            )
        except OSError:  # no git: the workflow still works on main
            return DEFAULT_BRANCH
        name = done.stdout.strip()
        if done.returncode == 0 and name:
            branch = name.removeprefix("origin/") if ref != "HEAD" else name
            return branch if _PLAIN_BRANCH.fullmatch(branch) else DEFAULT_BRANCH
    return DEFAULT_BRANCH
