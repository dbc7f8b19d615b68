"""``mcpdesc-docs describe``: a description from a running server, a drift check, a refresh."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TextIO

from ..describe.budget import Budget, DescribeError
from ..describe.compare import differences, summary
from ..describe.connect import Listing, Target, list_server
from ..describe.layout import written
from ..describe.update import refreshed
from ..describe.write import description
from ..diagnostics import Diagnostic, format_text, write_line
from ..errors import DescriptionError, ExitCode, UsageError
from ..source.file_write import FileWriteError, write_user_file
from ..source.limits import DEFAULT_LIMITS
from ..source.load import Format, Source, parse_text, read_source
from ..source.roundtrip import canonical, dump, edit_text
from ..spec.revisions import REVISIONS
from ..spec.schema_export import (
    DESCRIPTION_SCHEMA_FILE,
    exported_schema,
    is_exported_schema,
    modelines,
    schema_file_text,
)
from ..spec.versions import SPEC_0_9_0_RC_3, detect
from ..validation.validator import validate_source
from .migrate import printed

_SHOWN_DIFFERENCES = 100
_SHOWN_DEVIATIONS = 50
_SHOWN_PROBLEMS = 20
README_SECTION = "docs/from-a-server.md"


def existing_description(file: str) -> Source:
    """The description ``--check`` or ``--update`` names, of the current format."""
    try:
        source = read_source(Path(file), name=file)
    except DescriptionError as exc:
        raise UsageError(f"{file} cannot be read as a description: {exc}") from None
    found = detect(source.data).specification
    if found != SPEC_0_9_0_RC_3:
        version = found.mcpdesc if found else "of no supported version"
        raise UsageError(f"{file} is mcpdesc {version}; run `mcpdesc-docs migrate` on it first")
    return source


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _summary(listing: Listing) -> str:
    newest = listing.newest.items
    counts = (
        (len(newest["tools"]), "tool"),
        (len(newest["resources"]), "resource"),
        (len(newest["resourceTemplates"]), "resource template"),
        (len(newest["prompts"]), "prompt"),
    )
    listed_parts = ", ".join(_plural(n, word) for n, word in counts)
    return f"{listed_parts}; protocol versions {', '.join(listing.versions)}"


def _notes(listing: Listing, err: TextIO) -> None:
    if listing.not_tried:
        write_line(
            err,
            f"mcpdesc-docs: {', '.join(listing.not_tried)} not tried: legacy versions get structural checks only "
            "(--all-versions or --protocol-version records them)",
        )
    if listing.legacy_only:
        write_line(
            err,
            f"mcpdesc-docs: the server accepts no version from 2025-06-18 on, so its legacy versions "
            f"{', '.join(listing.versions)} are recorded (they get structural checks only)",
        )
    if listing.cannot_carry:
        write_line(
            err,
            f"mcpdesc-docs: {', '.join(listing.cannot_carry)} not recorded: it predates streamable HTTP",
        )
    if listing.newest.server_info.get("version") == "":
        write_line(err, "mcpdesc-docs: warning: the server gives an empty version; it is recorded as it is")
    gated = sorted({f"{c} {i!r}" for at in listing.by_version.values() for (c, i) in at.requirements})
    if gated:
        write_line(
            err,
            f"mcpdesc-docs: listed only to clients with a capability (recorded as clientRequirements): "
            f"{', '.join(gated)}",
        )
    for line in listing.deviations[:_SHOWN_DEVIATIONS]:
        write_line(err, f"mcpdesc-docs: deviation: {line}")
    if len(listing.deviations) > _SHOWN_DEVIATIONS:
        write_line(err, f"mcpdesc-docs: ... and {len(listing.deviations) - _SHOWN_DEVIATIONS} more deviations")


def _problems(text: str, fmt: Format, name: str) -> list[Diagnostic]:
    """Errors ``validate`` would report on ``text``, under the same limits."""
    try:
        source = parse_text(text, name, fmt=fmt, limits=DEFAULT_LIMITS)
    except DescriptionError as exc:
        return list(exc.diagnostics)
    result = validate_source(source, DEFAULT_LIMITS)
    return [d for d in result.diagnostics if d.is_error]


def _brief(problems: list[Diagnostic], err: TextIO) -> None:
    """The errors of a written description, a line each (``validate`` shows them in full)."""
    for problem in problems[:_SHOWN_PROBLEMS]:
        where = ":".join(str(p) for p in (problem.file, problem.line, problem.column) if p is not None)
        write_line(err, f"{where}: error[{problem.rule}] {problem.message} (at {problem.path or '/'})")
    if len(problems) > _SHOWN_PROBLEMS:
        write_line(
            err, f"... and {len(problems) - _SHOWN_PROBLEMS} more errors (`mcpdesc-docs validate` lists them all)"
        )


def _check(file: str, source: Source, served: dict[str, Any], out: TextIO, err: TextIO) -> int:
    assert isinstance(source.data, dict)
    # Against what --update would make of the file, so that the two always agree: a
    # declaration scoped by hand is compared with what the server lists for its versions.
    found = differences(source.data, refreshed(source.data, served).data)
    versions = [v for v in REVISIONS if v in (served.get("protocolVersions") or [])]
    for difference in found[:_SHOWN_DIFFERENCES]:
        for line in difference.lines(versions):
            write_line(out, line if line.startswith("    ") else f"{file}: {line}")
    if len(found) > _SHOWN_DIFFERENCES:
        write_line(out, f"{file}: ... and {len(found) - _SHOWN_DIFFERENCES} more differences")
    if found:
        write_line(
            err,
            f"mcpdesc-docs: {file} differs from the server: {summary(found)}; `describe --update {file}` refreshes it",
        )
        return ExitCode.INVALID
    write_line(err, f"mcpdesc-docs: {file} matches the server")
    return ExitCode.OK


def _update(file: str, source: Source, served: dict[str, Any], out: TextIO, err: TextIO) -> int:
    assert isinstance(source.data, dict)
    refresh = refreshed(source.data, served)
    text = edit_text(source.text, source.format, refresh.data)
    rewritten = text is None
    if text is None:
        text = dump(refresh.data, source.format)
    problems = _problems(text, source.format, file)
    if problems:
        out.write(format_text(problems, text, file))
        write_line(
            err,
            f"mcpdesc-docs: the refreshed description would not be valid (above); {file} was left as it was. "
            "Where what you added by hand does not hold at the server's versions now, narrow it with protocolVersions, "
            "or record fewer versions with --protocol-version",
        )
        return ExitCode.INVALID
    for label in refresh.removed:
        write_line(err, f"mcpdesc-docs: dropped {label}: the server no longer lists it")
    for label in refresh.added:
        write_line(err, f"mcpdesc-docs: added {label}")
    for label in refresh.changed:
        write_line(err, f"mcpdesc-docs: refreshed {label}")
    for note in refresh.notes:
        write_line(err, f"mcpdesc-docs: {note}")
    if canonical(refresh.data) == canonical(source.data):
        write_line(err, f"mcpdesc-docs: {file} is up to date")
        return ExitCode.OK
    if rewritten:
        write_line(
            err, f"mcpdesc-docs: {file} could not be edited in place, so it is written whole (comments are lost)"
        )
    write_user_file(Path(file), text)
    write_line(err, f"mcpdesc-docs: refreshed {file}")
    return ExitCode.OK


def _write_schema_beside(output: Path, err: TextIO) -> None:
    """The schema the modeline names, beside the description: written when absent, and
    refreshed when it is one this tool wrote (a file of the user's by that name is kept)."""
    schema_file = output.parent / DESCRIPTION_SCHEMA_FILE
    if schema_file.exists() and not is_exported_schema(schema_file):
        write_line(err, f"mcpdesc-docs: note: {schema_file} is not a schema mcpdesc-docs wrote; left as it is")
        return
    try:
        write_user_file(schema_file, schema_file_text(exported_schema(SPEC_0_9_0_RC_3)))
    except FileWriteError as exc:
        # The description is written; the schema only helps an editor complete it.
        write_line(err, f"mcpdesc-docs: note: {exc} (editors will not find the schema the modeline names)")


def check_options(timeout: float, protocol_versions: list[str] | None) -> None:
    if timeout <= 0:
        raise UsageError("--timeout must be a positive number of seconds")
    unknown = [v for v in protocol_versions or [] if v not in REVISIONS]
    if unknown:
        raise UsageError(f"--protocol-version {unknown[0]!r} is not one of {', '.join(REVISIONS)}")


def served_description(
    target: Target, timeout: float, protocol_versions: list[str] | None, all_versions: bool, err: TextIO
) -> dict[str, Any]:
    """What the server serves, as a description, with what was listed said on ``err``;
    raises DescribeError when the server cannot be described."""
    listing = list_server(target, Budget(timeout), versions=protocol_versions, all_versions=all_versions)
    served = description(listing, target)
    write_line(err, f"mcpdesc-docs: {target.label}: {_summary(listing)}")
    _notes(listing, err)
    return served


def server_stderr(exc: DescribeError, err: TextIO) -> None:
    """The last lines the server wrote to its standard error, indented, where it wrote any."""
    if exc.stderr_lines:
        write_line(err, "mcpdesc-docs: the server's last lines on standard error:")
    for line in exc.stderr_lines:
        write_line(err, f"    {line}")


def settle(
    served: dict[str, Any],
    existing: Source | None,
    *,
    output: str | None,
    check: str | None,
    update: str | None,
    out: TextIO,
    err: TextIO,
) -> int:
    """Check ``existing`` against what is served, refresh it, or write what is served."""
    if existing is not None and check is not None:
        return _check(check, existing, served, out, err)
    if existing is not None and update is not None:
        return _update(update, existing, served, out, err)
    return _write(served, output, out, err)


def _write(served: dict[str, Any], output: str | None, out: TextIO, err: TextIO) -> int:
    fmt: Format = "json" if (output or "").lower().endswith(".json") else "yaml"
    text = written(served, fmt)
    if output is not None and fmt == "yaml":
        # Editors complete and check the file with the schema written beside it.
        text = modelines(DESCRIPTION_SCHEMA_FILE) + text
    problems = _problems(text, fmt, output or "-")
    if output is None:
        out.write(printed(text, served, fmt))
    else:
        write_user_file(Path(output), text)
        write_line(err, f"mcpdesc-docs: wrote {output}")
        if fmt == "yaml":
            _write_schema_beside(Path(output), err)
    if problems:
        _brief(problems, err)
        write_line(
            err,
            f"mcpdesc-docs: the description holds what the server sent, which is not valid as it is "
            f"({_plural(len(problems), 'error')}, above): fix it by hand before publishing",
        )
        return ExitCode.INVALID
    write_line(
        err,
        "mcpdesc-docs: nothing a listing cannot show was invented; add by hand where they apply: elicitation "
        "declarations for tools that ask the user, securitySchemes and security, examples, tags "
        f"(see {README_SECTION})",
    )
    return ExitCode.OK


def run(
    *,
    stdio: str | None,
    url: str | None,
    headers: list[str],
    output: str | None,
    check: str | None,
    update: str | None,
    timeout: float,
    out: TextIO,
    err: TextIO,
    protocol_versions: list[str] | None = None,
    all_versions: bool = False,
) -> int:
    check_options(timeout, protocol_versions)
    target = Target.from_options(stdio, url, headers)
    existing = existing_description(check or update or "") if (check or update) else None
    try:
        served = served_description(target, timeout, protocol_versions, all_versions, err)
    except DescribeError as exc:
        write_line(err, f"mcpdesc-docs: error: {exc}")
        server_stderr(exc, err)
        return ExitCode.USAGE
    return settle(served, existing, output=output, check=check, update=update, out=out, err=err)
