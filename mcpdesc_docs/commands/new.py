"""``mcpdesc-docs new DIR``: scaffold a documentation project with a Pages workflow."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from ..diagnostics import write_line
from ..errors import ExitCode
from ..publish.scaffold import create_project


def run(directory: str, *, err: TextIO) -> int:
    target = Path(directory)
    created = create_project(target)
    write_line(err, f"mcpdesc-docs: created {target} with {', '.join(created)}")
    write_line(err, f"mcpdesc-docs: next: mcpdesc-docs serve {target}")
    return ExitCode.OK
