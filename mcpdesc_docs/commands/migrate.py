"""``mcpdesc-docs migrate FILE``: write the 0.9.0 (or 0.8.0) form of a 0.7.0 or 0.8.0 description.

The file is edited, not rewritten: only what the migration changes changes, and comments,
key order, quoting and block scalars stay (``source.roundtrip``).
"""

from __future__ import annotations

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
from ..source.file_write import write_user_file
from ..source.load import Format
from ..source.roundtrip import dump, edit_text
from ..spec.migration import Migration, migrate_070, migrate_080
from ..spec.versions import SPEC_0_7_0, SPEC_0_8_0, SPEC_0_9_0_RC_3, Specification
from ..validation.validator import Checked, check_document, validate_file

TARGETS = {"0.9.0": SPEC_0_9_0_RC_3, "0.8.0": SPEC_0_8_0}


class _TerminalDumper(yaml.SafeDumper):
    """For standard output, when the migrated text is not safe to print (see ``printed``)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _quoted_when_unsafe(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    # Double-quoted on one line: a multi-line or block scalar's lines are indented, and a
    # runner strips the indent before it looks for "::".
    style = '"' if "\n" in value or printable(value) != value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_TerminalDumper.add_representer(str, _quoted_when_unsafe)


def printed(text: str, data: Any, fmt: Format) -> str:
    """The migrated description for standard output: the same text as ``-o`` writes, unless
    printing it would put control or format characters or a CI command line on the
    terminal (names and values are the description's). Then it means the same but is
    written with escapes: JSON ``\\u`` escapes; YAML with every string that needs it
    double-quoted on one line and everything outside printable ASCII escaped."""
    if terminal_safe(text):
        return text
    if fmt == "json":
        return json_text(data) + "\n"
    text = yaml.dump(data, Dumper=_TerminalDumper, sort_keys=False, allow_unicode=False, width=sys.maxsize)
    # A service-message opener ("##[") is printable ASCII, left as it is by PyYAML, and can
    # only be inside one of the double-quoted strings above, where "\x23" is a "#".
    return SERVICE_MESSAGE.sub(lambda _: "#\\x23", text)


def _refuse_unless_migratable(found: Specification, spec: Specification, file: str) -> None:
    if found != SPEC_0_7_0 and not (found == SPEC_0_8_0 and spec == SPEC_0_9_0_RC_3):
        raise UsageError(
            f"{file} is already mcpdesc {found.mcpdesc}; migrate reads 0.7.0 descriptions, "
            "and 0.8.0 ones for --to 0.9.0"
        )


def _migration(checked: Checked, spec: Specification, protocol_versions: list[str] | None) -> Migration:
    if checked.specification == SPEC_0_7_0:
        return migrate_070(checked.document.data, spec, protocol_versions=protocol_versions)
    return migrate_080(checked.document.data, spec)


def _migrated_text(checked: Checked, data: dict[str, Any], fmt: Format, err: TextIO) -> str:
    if fmt != checked.source.format:
        return dump(data, fmt)
    edited = edit_text(checked.source.text, fmt, data)
    if edited is not None:
        return edited
    write_line(err, "mcpdesc-docs: the file could not be edited in place, so it is written whole (comments are lost)")
    return dump(data, fmt)


def run(
    file: str,
    *,
    output: str | None,
    target: str,
    protocol_versions: list[str] | None,
    out: TextIO,
    err: TextIO,
) -> int:
    result = validate_file(Path(file), name=file)
    spec = TARGETS[target]
    if result.checked is None:
        out.write(format_text(result.diagnostics))
        return ExitCode.INVALID
    _refuse_unless_migratable(result.checked.specification, spec, file)
    checked = result.accepted()
    if checked is None:
        out.write(format_text(result.diagnostics))
        write_line(
            err,
            f"mcpdesc-docs: {file} is not a valid {result.checked.specification.name} description; nothing was written",
        )
        return ExitCode.INVALID
    migration = _migration(checked, spec, protocol_versions)
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
    fmt: Format = "json" if (output or file).lower().endswith(".json") else "yaml"
    text = _migrated_text(checked, migration.data, fmt, err)
    if output is None:
        out.write(printed(text, migration.data, fmt))
    else:
        write_user_file(output, text)
        write_line(err, f"mcpdesc-docs: wrote {output} (mcpdesc {spec.mcpdesc})")
    for pointer, name in sorted(migration.scheme_names.items()):
        write_line(err, f"mcpdesc-docs: the inline security scheme at {pointer} is now securitySchemes.{name}")
    warnings = shown(d for d in diagnostics if not d.is_error)
    for warning in warnings.diagnostics:
        write_line(err, f"mcpdesc-docs: warning[{warning.rule}] {warning.message} at {warning.path}")
    err.write(warnings.omitted_line())
    return ExitCode.OK
