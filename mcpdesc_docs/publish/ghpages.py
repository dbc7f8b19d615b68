"""Publish a built site as the whole tree of a branch (gh-pages), for ``gh-deploy``.

Everything goes through git plumbing with a temporary index file and a temporary work
tree outside the repository: the user's working tree, index and current branch are never
touched. The commit is made on top of the branch as the remote has it, keeps an existing
CNAME (``mkdocs gh-deploy`` is often blamed for wiping custom domains), and is pushed
before the local branch ref moves, so a rejected push leaves nothing half-done.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from .. import __version__
from ..config import Config, is_domain_name
from ..errors import UsageError
from ..output import write_site
from ..records import record

_GITHUB_REMOTE = re.compile(r"github\.com[:/](?P<owner>[^/]+)/(?P<repo>[^/]+?)(?:\.git)?/?$")


@record
class Git:
    repository: Path

    def run(
        self, *args: str, env: dict[str, str] | None = None, cwd: Path | None = None, check: bool = True
    ) -> subprocess.CompletedProcess[str]:
        try:
            done = subprocess.run(
                ["git", *args],
                cwd=cwd or self.repository,
                capture_output=True,
                text=True,
                env={**os.environ, **(env or {})},
                check=False,
            )
        except FileNotFoundError:
            raise UsageError("git is not installed (gh-deploy needs it)") from None
        if check and done.returncode != 0:
            detail = (done.stderr or done.stdout).strip().splitlines()
            raise UsageError(f"git {args[0]} failed: {' '.join(detail[-3:]) or 'no output'}")
        return done

    def output(self, *args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> str:
        return self.run(*args, env=env, cwd=cwd).stdout.strip()

    def resolve(self, ref: str) -> str | None:
        done = self.run("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", check=False)
        return done.stdout.strip() if done.returncode == 0 else None


def find_repository(start: Path) -> Git:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"], cwd=start, capture_output=True, text=True, check=False
        )
    except FileNotFoundError:
        raise UsageError("git is not installed (gh-deploy needs it)") from None
    if done.returncode != 0:
        raise UsageError(f"{start} is not inside a git repository; gh-deploy publishes to a branch of one")
    return Git(Path(done.stdout.strip()))


def github_pages_base(remote_url: str, cname: str | None) -> str | None:
    """The site's address on GitHub Pages, when the remote says (project or user site)."""
    if cname:
        return f"https://{cname}/"
    match = _GITHUB_REMOTE.search(remote_url)
    if match is None:
        return None
    owner, repo = match["owner"], match["repo"]
    if repo.lower() == f"{owner.lower()}.github.io":
        return f"https://{owner.lower()}.github.io/"
    return f"https://{owner.lower()}.github.io/{repo}/"


@record
class Target:
    """Where and on top of what a deploy commits, worked out before anything is built."""

    git: Git
    remote: str
    branch: str
    push: bool
    parent: str | None
    """The branch's commit as the remote (or, without a push, the local branch) has it."""
    cname: str | None
    config: Config
    """The project's config, with ``site_url`` inferred from the CNAME or the remote."""


@record
class Published:
    commit: str
    changed: bool
    """False when the site's tree equals the branch's: no commit was made."""
    where: str


def branch_name(branch: str) -> str:
    """The short branch name: ``refs/heads/gh-pages`` means ``gh-pages`` (without this it
    would become ``refs/heads/refs/heads/gh-pages``); any other ``refs/`` is refused."""
    short = branch.removeprefix("refs/heads/")
    if short.startswith("refs/") or not short:
        raise UsageError(f"{branch!r} is not a branch: give a branch name such as gh-pages")
    return short


def prepare(config: Config, *, remote: str, branch: str, push: bool) -> Target:
    """Check the repository, remote and branch, and fetch the branch (UsageError if unfit)."""
    branch = branch_name(branch)
    git = find_repository(config.project_dir)
    remote_url = git.run("remote", "get-url", remote, check=False)
    if push and remote_url.returncode != 0:
        raise UsageError(f"no remote named {remote!r}; add one, or deploy locally with --no-push")
    current = git.run("symbolic-ref", "--quiet", "--short", "HEAD", check=False).stdout.strip()
    if current == branch:
        raise UsageError(f"{branch!r} is the checked-out branch; switch to your source branch first")
    if (
        not re.fullmatch(r"[A-Za-z0-9._/-]+", branch)
        or git.run("check-ref-format", "--branch", branch, check=False).returncode
    ):
        raise UsageError(f"{branch!r} is not a valid branch name")

    # Build on top of what the remote has, so the push is a fast-forward.
    tracking = f"refs/remotes/{remote}/{branch}"
    if push:
        fetched = git.run("fetch", "--quiet", remote, f"+refs/heads/{branch}:{tracking}", check=False)
        if fetched.returncode != 0 and "couldn't find remote ref" not in fetched.stderr:
            raise UsageError(f"cannot fetch {branch!r} from {remote!r}: {fetched.stderr.strip()}")
    parent = (git.resolve(tracking) if push else None) or git.resolve(f"refs/heads/{branch}")

    cname = config.cname
    if cname is None and parent is not None:
        existing = git.run("show", f"{parent}:CNAME", check=False)
        cname = existing.stdout.strip() or None if existing.returncode == 0 else None
        if cname is not None and not is_domain_name(cname):
            # It becomes the site's address (links, <base>) and is published again: the
            # branch is no more trusted than the config, which checks `cname:` the same way.
            raise UsageError(
                f"the CNAME on {branch!r} is not a domain name ({cname[:80]!r}); fix it there, "
                "or set cname: in mcpdesc-docs.yml"
            )
    if config.site_url is None:
        inferred = github_pages_base(remote_url.stdout.strip(), cname) if remote_url.returncode == 0 else None
        if inferred is not None:
            config = replace(config, site_url=inferred)
    return Target(git, remote, branch, push, parent, cname, config)


def branch_file(target: Target, path: str, limit: int) -> bytes | None:
    """A file of the branch as the deploy builds on it; None when absent (or no branch).
    UsageError when it is larger than ``limit``: the branch is read like any input."""
    if target.parent is None:
        return None
    size = target.git.run("cat-file", "-s", f"{target.parent}:{path}", check=False)
    if size.returncode != 0:
        return None
    if int(size.stdout.strip() or 0) > limit:
        raise UsageError(f"{path} on {target.branch!r} is over {limit} bytes; it is not read")
    done = subprocess.run(
        ["git", "cat-file", "blob", f"{target.parent}:{path}"],
        cwd=target.git.repository,
        capture_output=True,
        check=False,
    )
    return done.stdout if done.returncode == 0 else None


def commit_message(target: Target, message: str | None, what: str = "documentation") -> str:
    git = target.git
    source = git.resolve("HEAD")
    dirty = bool(git.output("status", "--porcelain", "--untracked-files=no"))
    described = f"{source[:12]}{' with uncommitted changes' if dirty else ''}" if source else "an unborn branch"
    return message or f"Deploy {what} built from {described} (mcpdesc-docs {__version__})"


class PrivateIndex:
    """A git index and a work tree of our own, in a scratch directory: the user's own
    index and files are never touched. Pathspecs are literal (a version may be named ``*``)."""

    def __init__(self, git: Git, scratch: Path) -> None:
        self.git = git
        self.work_tree = scratch / "site"
        self.work_tree.mkdir()
        self.env = {
            "GIT_INDEX_FILE": str(scratch / "index"),
            "GIT_DIR": git.output("rev-parse", "--absolute-git-dir"),
            "GIT_WORK_TREE": str(self.work_tree),
            "GIT_LITERAL_PATHSPECS": "1",
        }

    def run(self, *args: str) -> str:
        return self.git.output(*args, env=self.env, cwd=self.work_tree)


def publish(target: Target, site: Mapping[str, bytes], *, message: str | None, force: bool) -> Published:
    """Commit the site as the branch's whole tree and push it; the user's files are untouched."""
    files = dict(site)
    if target.cname:
        files["CNAME"] = f"{target.cname}\n".encode()
    with tempfile.TemporaryDirectory(prefix="mcpdesc-deploy-") as scratch:
        index = PrivateIndex(target.git, Path(scratch))
        write_site(files, index.work_tree, mark=False)  # the branch is replaced by git, not by a build
        index.run("add", "--all", "--force", ".")
        tree = index.run("write-tree")
    return commit_tree(target, tree, commit_message(target, message), force=force)


def commit_tree(target: Target, tree: str, message: str, *, force: bool) -> Published:
    """Commit ``tree`` on top of the branch, push it, then move the local branch; no commit
    when the tree is the branch's already."""
    git, remote, branch, parent = target.git, target.remote, target.branch, target.parent
    where = f"{remote}/{branch}" if target.push else f"local branch {branch!r} (not pushed)"
    if parent is not None and git.output("rev-parse", f"{parent}^{{tree}}") == tree:
        return Published(parent, False, where)
    commit = git.output("commit-tree", tree, *(["-p", parent] if parent else []), "-m", message)

    if target.push:
        pushed = git.run(
            "push", "--quiet", *(["--force"] if force else []), remote, f"{commit}:refs/heads/{branch}", check=False
        )
        if pushed.returncode != 0:
            raise UsageError(
                f"the push to {remote!r} was rejected; {branch!r} is unchanged there and here: "
                + " ".join(pushed.stderr.strip().splitlines()[-2:])
            )
        git.run("update-ref", f"refs/remotes/{remote}/{branch}", commit)
    old_local = git.resolve(f"refs/heads/{branch}")
    git.run("update-ref", f"refs/heads/{branch}", commit, *([old_local] if old_local else []))
    return Published(commit, True, where)


__all__ = [
    "PrivateIndex",
    "Published",
    "Target",
    "branch_file",
    "commit_message",
    "commit_tree",
    "github_pages_base",
    "prepare",
    "publish",
]
