"""``mcpdesc-docs migrate FILE``: write the 0.9.0 (or 0.8.0) form of a 0.7.0 description."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO

import yaml

from ..diagnostics import Diagnostic, format_text
from ..errors import ExitCode, UsageError
from ..spec.migration import migrate_070
from ..spec.versions import SPEC_0_7_0, SPEC_0_8_0, SPEC_0_9_0_RC_3
from ..validation.validator import check_document, validate_file

TARGETS = {"0.9.0": SPEC_0_9_0_RC_3, "0.8.0": SPEC_0_8_0}


class _Dumper(yaml.SafeDumper):
    """Block style, no anchors or aliases (the description YAML profile forbids them)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def dump(data: Any, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


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
        err.write(f"mcpdesc-docs: {file} is not a valid 0.7.0 description; nothing was written\n")
        return ExitCode.INVALID
    spec = TARGETS[target]
    migration = migrate_070(checked.document.data, spec, protocol_versions=protocol_versions)
    if migration.problems:
        located = [checked.source.place(problem) for problem in migration.problems]
        out.write(format_text(sorted(located, key=Diagnostic.sort_key)))
        err.write("mcpdesc-docs: migration needs your input (above); nothing was written\n")
        return ExitCode.INVALID
    diagnostics = check_document(migration.data).diagnostics
    problems = [d for d in diagnostics if d.is_error]
    if problems:
        out.write(format_text(problems))
        err.write(f"mcpdesc-docs: the migrated description is not valid {spec.name}; nothing was written\n")
        return ExitCode.INVALID
    fmt = "json" if (output or file).lower().endswith(".json") else "yaml"
    text = dump(migration.data, fmt)
    if output is None:
        out.write(text)
    else:
        Path(output).write_text(text, encoding="utf-8")
        err.write(f"mcpdesc-docs: wrote {output} (mcpdesc {spec.mcpdesc})\n")
    for pointer, name in sorted(migration.scheme_names.items()):
        err.write(f"mcpdesc-docs: the inline security scheme at {pointer} is now securitySchemes.{name}\n")
    for warning in (d for d in diagnostics if not d.is_error):
        err.write(f"mcpdesc-docs: warning[{warning.rule}] {warning.message} at {warning.path}\n")
    return ExitCode.OK
