"""Git for the tests that make repositories: one command runner, and an environment with
no user or system configuration and a fixed commit identity."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest


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
