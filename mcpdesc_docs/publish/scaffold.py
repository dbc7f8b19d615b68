"""``new DIR``: copy the starter project (config, description, Pages workflow) into DIR."""

from __future__ import annotations

import shutil
from pathlib import Path

from ..errors import UsageError

STARTER = Path(__file__).resolve().parent / "starter"
# Stored as "gitignore": a file named .gitignore inside the package would be read as
# the package's own ignore rules by tools that build the wheel.
RENAMES = {"gitignore": ".gitignore"}


def create_project(target: Path) -> list[str]:
    """Copy the starter files into an empty or new directory; returns their relative paths."""
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise UsageError(f"{target} already exists and is not an empty directory; nothing was written")
    created = []
    for source in sorted(STARTER.rglob("*")):
        if not source.is_file():
            continue
        relative = source.relative_to(STARTER)
        destination = target / relative.parent / RENAMES.get(relative.name, relative.name)
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, destination)
        created.append(destination.relative_to(target).as_posix())
    return created
