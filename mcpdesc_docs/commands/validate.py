"""``mcpdesc-docs validate FILE``: report every problem in a description."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from ..diagnostics import write_report
from ..errors import ExitCode
from ..validation.validator import ValidationResult, validate_file


def report(result: ValidationResult, output_format: str, out: TextIO) -> None:
    spec = result.specification.name if result.specification else None
    write_report(out, result.diagnostics, result.file, spec, output_format)


def run(file: str, *, strict: bool, output_format: str, out: TextIO) -> int:
    result = validate_file(Path(file), name=file)
    report(result, output_format, out)
    return ExitCode.OK if result.passes(strict=strict) else ExitCode.INVALID
