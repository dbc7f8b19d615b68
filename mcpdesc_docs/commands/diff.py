"""``mcpdesc-docs diff OLD NEW``: what changed between two descriptions, for a client."""

from __future__ import annotations

from typing import TextIO

from ..diagnostics import write_line
from ..diff.changes import compare
from ..diff.load import read_side
from ..diff.report import FORMATS, Report
from ..errors import ExitCode


def run(old: str, new: str, *, output_format: str, fail_on: str | None, out: TextIO, err: TextIO) -> int:
    before, after = read_side(old), read_side(new)
    for side in (before, after):
        if side.errors:
            many = "s" if side.errors != 1 else ""
            write_line(
                err, f"mcpdesc-docs: note: {side.name} has {side.errors} validation error{many} (compared as it is)"
            )
    changes, truncated = compare(before.view, after.view)
    report = Report(before, after, changes, truncated)
    out.write(FORMATS[output_format](report))
    if (fail_on == "any" and changes) or (fail_on == "breaking" and report.verdict == "breaking"):
        return ExitCode.INVALID
    return ExitCode.OK
