"""``mcpdesc-docs new DIR``: scaffold a documentation project with a Pages workflow."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from ..errors import ExitCode
from ..publish.scaffold import create_project


def run(directory: str, *, err: TextIO) -> int:
    target = Path(directory)
    created = create_project(target)
    err.write(f"mcpdesc-docs: created {target} with {', '.join(created)}\n")
    err.write(f"mcpdesc-docs: next: mcpdesc-docs serve {target}\n")
    return ExitCode.OK
