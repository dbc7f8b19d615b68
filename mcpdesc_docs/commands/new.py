"""``mcpdesc-docs new DIR``: scaffold a documentation project with a Pages workflow."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TextIO

from ..errors import UsageError

SCAFFOLD = Path(__file__).resolve().parent.parent / "scaffold"
# Stored as "gitignore": a file named .gitignore inside the package would be read as
# the package's own ignore rules by tools that build the wheel.
RENAMES = {"gitignore": ".gitignore"}


def run(directory: str, *, err: TextIO) -> int:
    target = Path(directory)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise UsageError(f"{target} already exists and is not an empty directory; nothing was written")
    created = []
    for source in sorted(SCAFFOLD.rglob("*")):
        if not source.is_file():
            continue
        relative = source.relative_to(SCAFFOLD)
        destination = target / relative.parent / RENAMES.get(relative.name, relative.name)
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, destination)
        created.append(destination.relative_to(target).as_posix())
    err.write(f"mcpdesc-docs: created {target} with {', '.join(created)}\n")
    err.write(f"mcpdesc-docs: next: mcpdesc-docs serve {target}\n")
    return 0
