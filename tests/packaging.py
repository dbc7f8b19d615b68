"""The package as a user gets it: the sdist and wheel built the way the release workflow
builds them, and fresh virtual environments to install the wheel into, offline."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import venv
from dataclasses import dataclass
from pathlib import Path

from .sites import ROOT


@dataclass(frozen=True)
class Distributions:
    sdist: Path
    wheel: Path


def run(*command: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    # A user's environment has no checkout on its path: with PYTHONPATH pointing at one (as
    # when the suite runs from a worktree), a fresh environment would import it, not the wheel.
    environment = {name: value for name, value in (env or os.environ).items() if name != "PYTHONPATH"}
    done = subprocess.run(
        [str(c) for c in command],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,  # a hang guard: building and installing take many times longer on a loaded machine
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def build_distributions(out_dir: Path) -> Distributions:
    """``python -m build``: the sdist, then the wheel built from the sdist (so a file the sdist
    leaves out is missing from the wheel too). Without build isolation, so with this
    environment's hatchling and no download."""
    run(sys.executable, "-m", "build", "--no-isolation", "--outdir", out_dir, ROOT, cwd=out_dir.parent)
    (sdist,) = out_dir.glob("mcpdesc_docs-*.tar.gz")
    (wheel,) = out_dir.glob("mcpdesc_docs-*.whl")
    return Distributions(sdist, wheel)


def fresh_environment(env_dir: Path, *, with_pip: bool = False) -> Path:
    """A new virtual environment whose dependencies come from this test environment (no
    network) and which holds no mcpdesc-docs of its own yet; returns its bin directory. A
    path line in a .pth file adds the directory but does not run the editable install's
    hook, so ``import mcpdesc_docs`` finds only what is installed into the new environment."""
    venv.create(env_dir, with_pip=with_pip)
    python = env_dir / "bin" / "python"
    purelib = run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=env_dir).strip()
    (Path(purelib) / "test-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return env_dir / "bin"
