"""Git for the tests that make repositories: one command runner, and an environment with
no user or system configuration and a fixed commit identity."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from .sites import SAMPLE_DIR


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def isolate_git(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No user or system git configuration leaks in; commits get a fixed identity."""
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for role in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{role}_NAME", "Docs Bot")
        monkeypatch.setenv(f"GIT_{role}_EMAIL", "docs@example.com")


def published_sample(tmp_path: Path, *, untracked: str | None = None) -> tuple[Path, Path]:
    """A bare remote whose gh-pages branch holds a CNAME and a stale page, and a clone with
    the sample project committed on main, the remote as its origin: (remote, source).
    ``untracked``: a file left in the clone, never added."""
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "--quiet", "--bare", "-b", "main", str(remote))
    seed = tmp_path / "seed"
    git(tmp_path, "init", "--quiet", "-b", "gh-pages", str(seed))
    (seed / "CNAME").write_text("docs.helpdesk.example.com\n")
    (seed / "old-page.html").write_text("stale")
    git(seed, "add", ".")
    git(seed, "commit", "--quiet", "-m", "old site")
    git(seed, "push", "--quiet", str(remote), "gh-pages")
    source = tmp_path / "source"
    git(tmp_path, "init", "--quiet", "-b", "main", str(source))
    sample = ("mcpdesc-docs.yml", "helpdesk.mcpdesc.yaml")
    for name in sample:
        shutil.copy(SAMPLE_DIR / name, source / name)
    if untracked is not None:
        (source / untracked).write_text("work in progress")
    git(source, "add", *sample)
    git(source, "commit", "--quiet", "-m", "docs")
    git(source, "remote", "add", "origin", str(remote))
    return remote, source
