"""``mcpdesc-docs validate [PATH ...]``: report every problem in one description or several."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from ..config import find_config, load_config
from ..diagnostics import RuleHelp, format_sarif, json_report, write_json, write_report
from ..errors import ExitCode
from ..validation.validator import ValidationResult, validate_file


def rule_help(rule_id: str) -> RuleHelp | None:
    """A rule's explanation, for SARIF. Imported when asked: the rule reference reaches the
    theme's rule (and so Jinja and Markdown), which a plain ``validate`` never loads."""
    from .rules import rule_help as explained

    return explained(rule_id)


def report(result: ValidationResult, output_format: str, out: TextIO) -> None:
    spec = result.specification.name if result.specification else None
    write_report(out, result.diagnostics, result.file, spec, output_format, text=result.text, help_for=rule_help)


def check(path: str, *, strict: bool) -> list[tuple[ValidationResult, bool]]:
    """A path's results (a portal's, one per description), and whether warnings fail
    each (a project's own setting decides)."""
    target = Path(path)
    if target.is_dir() or (target.exists() and find_config(target) is not None):
        # A project: its descriptions, checked with its settings, exactly as build would.
        config = load_config(target, strict=strict)
        files = [server.path for server in config.descriptions] if config.is_portal else [config.description]
        return [
            (validate_file(file, name=str(file), limits=config.limits, suppress=config.suppress), config.strict)
            for file in files
        ]
    return [(validate_file(target, name=path), strict)]


def run(paths: Sequence[str], *, strict: bool, output_format: str, out: TextIO) -> int:
    checked = [found for path in paths for found in check(path, strict=strict)]
    results = [result for result, _ in checked]
    if len(results) > 1 and output_format == "sarif":
        # One log of one run: a viewer lists every file's results together.
        out.write(format_sarif([d for result in results for d in result.diagnostics], rule_help))
    elif len(results) > 1 and output_format == "json":
        write_json(out, [_json(result) for result in results])
    else:
        for result in results:
            report(result, output_format, out)
    passed = all(result.passes(strict=strict_here) for result, strict_here in checked)
    return ExitCode.OK if passed else ExitCode.INVALID


def _json(result: ValidationResult) -> dict[str, object]:
    spec = result.specification.name if result.specification else None
    return json_report(result.diagnostics, result.file, spec)
