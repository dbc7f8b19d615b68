"""``mcpdesc-docs migrate FILE``: write the 0.9.0 (or 0.8.0) form of a 0.7.0 description."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, TextIO

import yaml

from ..diagnostics import (
    SERVICE_MESSAGE,
    Diagnostic,
    format_text,
    json_text,
    printable,
    shown,
    terminal_safe,
    write_line,
)
from ..errors import ExitCode, UsageError
from ..spec.migration import migrate_070
from ..spec.versions import SPEC_0_7_0, SPEC_0_8_0, SPEC_0_9_0_RC_3
from ..validation.validator import check_document, validate_file

TARGETS = {"0.9.0": SPEC_0_9_0_RC_3, "0.8.0": SPEC_0_8_0}


class _Dumper(yaml.SafeDumper):
    """Block style, no anchors or aliases (the description YAML profile forbids them)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


class _TerminalDumper(_Dumper):
    """For standard output, when the plain dump is not safe to print (see ``printed``)."""


def _quoted_when_unsafe(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    # Double-quoted on one line: a multi-line or block scalar's lines are indented, and a
    # runner strips the indent before it looks for "::".
    style = '"' if "\n" in value or printable(value) != value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_TerminalDumper.add_representer(str, _quoted_when_unsafe)


def dump(data: Any, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


def printed(data: Any, fmt: str) -> str:
    """The migrated description for standard output: the same text as ``-o`` writes, unless
    printing it would put control or format characters or a CI command line on the
    terminal (names and values are the description's). Then it means the same but is
    written with escapes: JSON ``\\u`` escapes; YAML with every string that needs it
    double-quoted on one line and everything outside printable ASCII escaped."""
    if fmt == "json":
        return json_text(data) + "\n"
    text = dump(data, fmt)
    if terminal_safe(text):
        return text
    text = yaml.dump(data, Dumper=_TerminalDumper, sort_keys=False, allow_unicode=False, width=sys.maxsize)
    # A service-message opener ("##[") is printable ASCII, left as it is by PyYAML, and can
    # only be inside one of the double-quoted strings above, where "\x23" is a "#".
    return SERVICE_MESSAGE.sub(lambda _: "#\\x23", text)


def run(
    file: str,
    *,
    output: str | None,
    target: str,
    protocol_versions: list[str] | None,
    out: TextIO,
    err: TextIO,
) -> int:
    source_path = Path(file)
    result = validate_file(source_path, name=file)
    if result.specification != SPEC_0_7_0:
        if result.specification is None:
            out.write(format_text(result.diagnostics))
            return ExitCode.INVALID
        raise UsageError(f"{file} is already mcpdesc {result.specification.mcpdesc}; migrate reads 0.7.0 descriptions")
    checked = result.accepted()
    if checked is None:
        out.write(format_text(result.diagnostics))
        write_line(err, f"mcpdesc-docs: {file} is not a valid 0.7.0 description; nothing was written")
        return ExitCode.INVALID
    spec = TARGETS[target]
    migration = migrate_070(checked.document.data, spec, protocol_versions=protocol_versions)
    if migration.problems:
        located = [checked.source.place(problem) for problem in migration.problems]
        out.write(format_text(sorted(located, key=Diagnostic.sort_key)))
        write_line(err, "mcpdesc-docs: migration needs your input (above); nothing was written")
        return ExitCode.INVALID
    diagnostics = check_document(migration.data).diagnostics
    problems = [d for d in diagnostics if d.is_error]
    if problems:
        out.write(format_text(problems))
        write_line(err, f"mcpdesc-docs: the migrated description is not valid {spec.name}; nothing was written")
        return ExitCode.INVALID
    fmt = "json" if (output or file).lower().endswith(".json") else "yaml"
    if output is None:
        out.write(printed(migration.data, fmt))
    else:
        Path(output).write_text(dump(migration.data, fmt), encoding="utf-8")
        write_line(err, f"mcpdesc-docs: wrote {output} (mcpdesc {spec.mcpdesc})")
    for pointer, name in sorted(migration.scheme_names.items()):
        write_line(err, f"mcpdesc-docs: the inline security scheme at {pointer} is now securitySchemes.{name}")
    warnings = shown(d for d in diagnostics if not d.is_error)
    for warning in warnings.diagnostics:
        write_line(err, f"mcpdesc-docs: warning[{warning.rule}] {warning.message} at {warning.path}")
    err.write(warnings.omitted_line())
    return ExitCode.OK
