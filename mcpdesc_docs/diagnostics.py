"""Diagnostics: the one problem type every stage reports, and its output formats."""

from __future__ import annotations

import enum
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TextIO


class Severity(enum.Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem found in a description, located by JSON Pointer and source position."""

    severity: Severity
    rule: str
    """The spec's rule id, e.g. ``mcpdesc.elicitation.members``."""
    code: str
    """A specific, stable kebab-case check name (the upstream 0.8.0 code where one exists)."""
    message: str
    path: str | None
    """RFC 6901 JSON Pointer to the offending member or value ("" is the document); None
    where no pointer applies (a template error)."""
    requirement: str | None = None
    """The 0.9.0-rc.3 chapter's ``req-*`` anchor where one applies."""
    line: int | None = None
    column: int | None = None
    file: str | None = None

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def located(self, file: str, line: int, column: int) -> Diagnostic:
        return replace(self, file=file, line=line, column=column)

    def sort_key(self) -> tuple[str, int, int, str, str, str]:
        return (self.file or "", self.line or 0, self.column or 0, self.path or "", self.rule, self.message)

    def to_json(self) -> dict[str, object]:
        return {
            "severity": self.severity.value,
            "rule": self.rule,
            "requirement": self.requirement,
            "code": self.code,
            "message": self.message,
            "path": self.path,
            "line": self.line,
            "column": self.column,
        }


def error(rule: str, code: str, message: str, path: str, requirement: str | None = None) -> Diagnostic:
    return Diagnostic(Severity.ERROR, rule, code, message, path, requirement)


def warning(rule: str, code: str, message: str, path: str, requirement: str | None = None) -> Diagnostic:
    return Diagnostic(Severity.WARNING, rule, code, message, path, requirement)


def count(diagnostics: Iterable[Diagnostic]) -> tuple[int, int]:
    """Return (errors, warnings)."""
    errors = warnings = 0
    for diagnostic in diagnostics:
        if diagnostic.is_error:
            errors += 1
        else:
            warnings += 1
    return errors, warnings


def _position(diagnostic: Diagnostic) -> str:
    file = diagnostic.file or "<input>"
    if diagnostic.line is None:
        return file
    if diagnostic.column is None:  # a template error knows its line only
        return f"{file}:{diagnostic.line}"
    return f"{file}:{diagnostic.line}:{diagnostic.column}"


def format_text(diagnostics: Sequence[Diagnostic]) -> str:
    """``FILE:LINE:COL: severity[rule] message`` lines, each followed by the JSON Pointer."""
    lines: list[str] = []
    for diagnostic in sorted(diagnostics, key=Diagnostic.sort_key):
        lines.append(f"{_position(diagnostic)}: {diagnostic.severity.value}[{diagnostic.rule}] {diagnostic.message}")
        details = [f"at {diagnostic.path or '/'}"] if diagnostic.path is not None else []
        if diagnostic.requirement:
            details.append(f"requirement {diagnostic.requirement}")
        details.append(f"code {diagnostic.code}")
        lines.append("    " + "; ".join(details))
    return "\n".join(lines) + ("\n" if lines else "")


def format_json(diagnostics: Sequence[Diagnostic], file: str, specification: str | None) -> str:
    errors, warnings = count(diagnostics)
    document = {
        "file": file,
        "specification": specification,
        "valid": errors == 0,
        "errors": errors,
        "warnings": warnings,
        "diagnostics": [d.to_json() for d in sorted(diagnostics, key=Diagnostic.sort_key)],
    }
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def _github_escape(value: str, *, property_value: bool) -> str:
    # Workflow-command escaping, as GitHub's toolkit does it (core/src/command.ts).
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if property_value:
        value = value.replace(":", "%3A").replace(",", "%2C")
    return value


def format_github(diagnostics: Sequence[Diagnostic]) -> str:
    """GitHub Actions workflow commands, so problems are annotated on the pull request."""
    lines: list[str] = []
    for diagnostic in sorted(diagnostics, key=Diagnostic.sort_key):
        command = "error" if diagnostic.is_error else "warning"
        props = [f"file={_github_escape(diagnostic.file or '', property_value=True)}"]
        if diagnostic.line is not None:
            props.append(f"line={diagnostic.line}")
            if diagnostic.column is not None:
                props.append(f"col={diagnostic.column}")
        props.append(f"title={_github_escape(diagnostic.rule, property_value=True)}")
        message = (
            diagnostic.message if diagnostic.path is None else f"{diagnostic.message} (at {diagnostic.path or '/'})"
        )
        lines.append(f"::{command} {','.join(props)}::{_github_escape(message, property_value=False)}")
    return "\n".join(lines) + ("\n" if lines else "")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def summary_line(diagnostics: Sequence[Diagnostic], file: str, specification: str | None) -> str:
    """``FILE: valid (0.9.0-rc.3)``, or the verdict with the counts."""
    spec = specification or "unknown specification"
    errors, warnings = count(diagnostics)
    if errors == 0 and warnings == 0:
        return f"{file}: valid ({spec})\n"
    verdict = "invalid" if errors else "valid with warnings"
    return f"{file}: {verdict} ({spec}): {_plural(errors, 'error')}, {_plural(warnings, 'warning')}\n"


def write_report(
    out: TextIO, diagnostics: Sequence[Diagnostic], file: str, specification: str | None, output_format: str
) -> None:
    """Everything a command prints about one file, in the chosen format (text, json, github)."""
    if output_format == "json":
        out.write(format_json(diagnostics, file, specification))
    elif output_format == "github":
        out.write(format_github(diagnostics))
    else:
        out.write(format_text(diagnostics))
        out.write(summary_line(diagnostics, file, specification))
