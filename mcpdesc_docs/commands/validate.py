"""``mcpdesc-docs validate FILE``: report every problem in a description."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from ..diagnostics import format_github, format_json, format_text
from ..validate import ValidationResult, validate_file

EXIT_OK = 0
EXIT_INVALID = 1


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def summary(result: ValidationResult) -> str:
    spec = result.specification.name if result.specification else "unknown specification"
    if result.errors == 0 and result.warnings == 0:
        return f"{result.file}: valid ({spec})\n"
    verdict = "invalid" if result.errors else "valid with warnings"
    return (
        f"{result.file}: {verdict} ({spec}): {_plural(result.errors, 'error')}, {_plural(result.warnings, 'warning')}\n"
    )


def report(result: ValidationResult, output_format: str, out: TextIO) -> None:
    if output_format == "json":
        spec = result.specification.name if result.specification else None
        out.write(format_json(result.diagnostics, result.file, spec))
    elif output_format == "github":
        out.write(format_github(result.diagnostics))
    else:
        out.write(format_text(result.diagnostics))
        out.write(summary(result))


def run(file: str, *, strict: bool, output_format: str, out: TextIO) -> int:
    result = validate_file(Path(file), name=file)
    report(result, output_format, out)
    return EXIT_OK if result.passes(strict=strict) else EXIT_INVALID
