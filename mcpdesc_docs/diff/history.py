"""A file as it was in a git repository's history (``git:REF:PATH``), read with dulwich, a
git implementation in Python: ``build`` may read a previous description this way, and it
runs no external program.

REF is what ``git`` takes for a commit: a branch, a tag, ``HEAD``, a full or abbreviated
commit id, each optionally followed by ``~N`` or ``^`` steps (first parents). PATH is from
the repository's root, as in ``git show REF:PATH``, or from the current directory when it
starts with ``./`` or ``../``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath

from dulwich.errors import NotGitRepository
from dulwich.object_store import tree_lookup_path
from dulwich.objects import Blob, Commit
from dulwich.objectspec import parse_commit
from dulwich.repo import Repo

from ..errors import UsageError
from ..source.git_spec import split_git_spec

_STEPS = re.compile(r"(~\d*|\^1?)+$")
MAX_STEPS = 10_000
"""Parents walked for ``~N`` (a bound on a mistyped number)."""


def split_spec(spec: str) -> tuple[str, str]:
    """(REF, PATH) of ``git:REF:PATH``; UsageError when it is not written so."""
    parts = split_git_spec(spec)
    if parts is None:
        raise UsageError(f"{spec}: write git:REF:PATH (for example git:main:server.mcpdesc.yaml)")
    return parts


def _steps(text: str) -> int:
    count = 0
    for step in re.findall(r"~\d*|\^1?", text):
        count += int(step[1:]) if step.startswith("~") and len(step) > 1 else 1
    return count


def _commit(repo: Repo, ref: str, spec: str) -> Commit:
    match = _STEPS.search(ref)
    base, steps = (ref[: match.start()], _steps(match.group())) if match else (ref, 0)
    if steps > MAX_STEPS:
        raise UsageError(f"{spec}: more than {MAX_STEPS} steps back")
    try:
        commit = parse_commit(repo, base.encode("utf-8"))
        for _ in range(steps):
            if not commit.parents:
                raise UsageError(f"{spec}: {ref!r} goes back past the first commit")
            found = repo[commit.parents[0]]
            if not isinstance(found, Commit):
                raise UsageError(f"{spec}: {ref!r} is not a commit")
            commit = found
    except (KeyError, ValueError):
        raise UsageError(f"{spec}: no commit {base!r} in the repository") from None
    return commit


def _path_in_repository(path: str, root: Path, cwd: Path) -> str:
    if path.startswith(("./", "../")):
        absolute = os.path.normpath(cwd / path)
        relative = os.path.relpath(absolute, root)
        if relative.startswith(".."):
            raise UsageError(f"{path}: outside the repository")
        return PurePosixPath(Path(relative)).as_posix()
    return path.strip("/")


def read_from_history(spec: str, limit: int, cwd: Path | None = None) -> tuple[bytes, str]:
    """The bytes of ``git:REF:PATH``, at most ``limit + 1`` of them (enough to tell a file
    past the limit), and PATH from the repository's root."""
    ref, path = split_spec(spec)
    here = cwd or Path.cwd()
    try:
        repo = Repo.discover(str(here))
    except NotGitRepository:
        raise UsageError(f"{spec}: {here} is not in a git repository") from None
    with repo:
        commit = _commit(repo, ref, spec)
        inside = _path_in_repository(path, Path(repo.path).resolve(), here.resolve())
        try:
            _, sha = tree_lookup_path(repo.__getitem__, commit.tree, inside.encode("utf-8"))
            blob = repo[sha]
        except (KeyError, NotADirectoryError):
            raise UsageError(f"{spec}: no file {inside!r} at {ref!r}") from None
        if not isinstance(blob, Blob):
            raise UsageError(f"{spec}: {inside!r} is not a file at {ref!r}")
        return blob.as_raw_string()[: limit + 1], inside


__all__ = ["read_from_history", "split_spec"]
