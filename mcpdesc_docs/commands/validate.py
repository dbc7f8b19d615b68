"""``mcpdesc-docs validate [PATH]``: report every problem in a description."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from ..config import find_config, load_config
from ..diagnostics import write_report
from ..errors import ExitCode
from ..validation.validator import ValidationResult, validate_file


def report(result: ValidationResult, output_format: str, out: TextIO) -> None:
    spec = result.specification.name if result.specification else None
    write_report(out, result.diagnostics, result.file, spec, output_format, text=result.text)


def run(path: str, *, strict: bool, output_format: str, out: TextIO) -> int:
    target = Path(path)
    if target.is_dir() or (target.exists() and find_config(target) is not None):
        # A project: its description, checked with its settings, exactly as build would.
        config = load_config(target, strict=strict)
        result = validate_file(
            config.description, name=str(config.description), limits=config.limits, suppress=config.suppress
        )
        strict = config.strict
    else:
        result = validate_file(target, name=path)
    report(result, output_format, out)
    return ExitCode.OK if result.passes(strict=strict) else ExitCode.INVALID
