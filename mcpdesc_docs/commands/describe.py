"""``mcpdesc-docs describe``: a description from a running server, a drift check, a refresh."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TextIO

from ..describe.compare import differences
from ..describe.connect import DescribeError, Listing, Target, list_server
from ..describe.update import refreshed
from ..describe.write import description, listed
from ..diagnostics import format_text, write_line
from ..errors import DescriptionError, ExitCode, UsageError
from ..source.file_write import write_user_file
from ..source.load import Format, Source, read_source
from ..source.roundtrip import canonical, dump, edit_text
from ..spec.versions import SPEC_0_9_0_RC_3, detect
from ..validation.validator import check_document
from .migrate import printed

_SHOWN_DIFFERENCES = 100
README_SECTION = 'the README\'s "From a running server"'


def _existing(file: str) -> Source:
    try:
        source = read_source(Path(file), name=file)
    except DescriptionError as exc:
        raise UsageError(f"{file} cannot be read as a description: {exc}") from None
    found = detect(source.data).specification
    if found != SPEC_0_9_0_RC_3:
        version = found.mcpdesc if found else "of no supported version"
        raise UsageError(f"{file} is mcpdesc {version}; run `mcpdesc-docs migrate` on it first")
    return source


def _summary(listing: Listing) -> str:
    counts = (
        (len(listing.tools), "tool"),
        (len(listing.resources), "resource"),
        (len(listing.resource_templates), "resource template"),
        (len(listing.prompts), "prompt"),
    )
    listed_parts = ", ".join(f"{n} {word}{'' if n == 1 else 's'}" for n, word in counts)
    return f"{listed_parts}; protocol versions {', '.join(listing.versions)}"


def _notes(listing: Listing, err: TextIO) -> None:
    for version in listing.skipped:
        write_line(
            err, f"mcpdesc-docs: the server also accepts {version}, which predates streamable HTTP: not recorded"
        )


def _invalid(data: dict[str, Any], err: TextIO, out: TextIO, what: str) -> bool:
    problems = [d for d in check_document(data).diagnostics if d.is_error]
    if problems:
        out.write(format_text(problems))
        write_line(err, f"mcpdesc-docs: {what}")
    return bool(problems)


def _check(file: str, source: Source, listing: Listing, served: dict[str, Any], out: TextIO, err: TextIO) -> int:
    assert isinstance(source.data, dict)
    # Against what --update would make of the file, so that the two always agree: a
    # declaration scoped by hand is compared with what the server lists for its versions.
    found = differences(source.data, refreshed(source.data, served, listed(listing)).data)
    for difference in found[:_SHOWN_DIFFERENCES]:
        write_line(out, f"{file}: {difference.change} {difference.pointer or '/'}: {difference.what}")
    if len(found) > _SHOWN_DIFFERENCES:
        write_line(out, f"{file}: ... and {len(found) - _SHOWN_DIFFERENCES} more differences")
    if found:
        write_line(
            err,
            f"mcpdesc-docs: {file} differs from the server ({len(found)} difference{'' if len(found) == 1 else 's'}); "
            f"`describe --update {file}` refreshes it",
        )
        return ExitCode.INVALID
    write_line(err, f"mcpdesc-docs: {file} matches the server")
    return ExitCode.OK


def _update(file: str, source: Source, listing: Listing, served: dict[str, Any], out: TextIO, err: TextIO) -> int:
    assert isinstance(source.data, dict)
    refresh = refreshed(source.data, served, listed(listing))
    if _invalid(refresh.data, err, out, f"the refreshed description is not valid; {file} was left as it was"):
        return ExitCode.INVALID
    for label in refresh.removed:
        write_line(err, f"mcpdesc-docs: dropped {label}: the server no longer lists it")
    for label in refresh.added:
        write_line(err, f"mcpdesc-docs: added {label}")
    if canonical(refresh.data) == canonical(source.data):
        write_line(err, f"mcpdesc-docs: {file} is up to date")
        return ExitCode.OK
    text = edit_text(source.text, source.format, refresh.data)
    if text is None:
        write_line(
            err, f"mcpdesc-docs: {file} could not be edited in place, so it is written whole (comments are lost)"
        )
        text = dump(refresh.data, source.format)
    write_user_file(file, text)
    write_line(err, f"mcpdesc-docs: refreshed {file}")
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
) -> int:
    if timeout <= 0:
        raise UsageError("--timeout must be a positive number of seconds")
    target = Target.from_options(stdio, url, headers)
    existing = _existing(check or update or "") if (check or update) else None
    try:
        listing = list_server(target, timeout)
    except DescribeError as exc:
        write_line(err, f"mcpdesc-docs: error: {exc}")
        if exc.stderr_lines:
            write_line(err, "mcpdesc-docs: the server's last lines on standard error:")
        for line in exc.stderr_lines:
            write_line(err, f"    {line}")
        return ExitCode.USAGE
    served = description(listing, target)
    write_line(err, f"mcpdesc-docs: {target.label}: {_summary(listing)}")
    _notes(listing, err)
    if existing is not None and check is not None:
        return _check(check, existing, listing, served, out, err)
    if existing is not None and update is not None:
        return _update(update, existing, listing, served, out, err)
    if _invalid(served, err, out, "the server's description is not valid (above); nothing was written"):
        return ExitCode.INVALID
    fmt: Format = "json" if (output or "").lower().endswith(".json") else "yaml"
    text = dump(served, fmt)
    if output is None:
        out.write(printed(text, served, fmt))
    else:
        write_user_file(output, text)
        write_line(err, f"mcpdesc-docs: wrote {output}")
    write_line(
        err,
        "mcpdesc-docs: nothing a listing cannot show was invented; add by hand where they apply: elicitation "
        "declarations for tools that ask the user, securitySchemes and security, examples, tags "
        f"(see {README_SECTION})",
    )
    return ExitCode.OK
