"""Diagnostics: the one problem type every stage reports, and its output formats."""

from __future__ import annotations

import enum
import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import PurePath
from typing import TextIO
from urllib.parse import quote

from . import __version__
from .records import record

MAX_SHOWN_PER_RULE = 100
"""Diagnostics of one rule id that a report shows (text, github) or lists (json)."""
MAX_SHOWN = 1000
"""Diagnostics a report shows in all; the rest are counted in one line (json: ``omitted``).
The exit code and the error and warning counts always cover every diagnostic."""


class Severity(enum.Enum):
    ERROR = "error"
    WARNING = "warning"


@record
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
    hint: str | None = None
    """How to fix it, where that can be said (``did you mean 'inputSchema'?``)."""

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def located(self, file: str, line: int, column: int) -> Diagnostic:
        return replace(self, file=file, line=line, column=column)

    def sort_key(self) -> tuple[str, int, int, str, str, str]:
        return (self.file or "", self.line or 0, self.column or 0, self.path or "", self.rule, self.message)

    def to_json(self) -> dict[str, object]:
        fields: dict[str, object] = {
            "severity": self.severity.value,
            "rule": self.rule,
            "requirement": self.requirement,
            "code": self.code,
            "message": self.message,
            "path": self.path,
            "line": self.line,
            "column": self.column,
        }
        if self.hint is not None:  # present only when there is one, like a report's `omitted`
            fields["hint"] = self.hint
        fields["see"] = see(self.rule)
        return fields


def see(rule_id: str) -> str:
    """Where a rule is explained: the command that explains it (every id a diagnostic
    carries has an explanation; tests/test_rule_docs.py holds them to it)."""
    return f"mcpdesc-docs rules {rule_id}"


def error(
    rule: str, code: str, message: str, path: str, requirement: str | None = None, *, hint: str | None = None
) -> Diagnostic:
    return Diagnostic(Severity.ERROR, rule, code, message, path, requirement, hint=hint)


def warning(
    rule: str, code: str, message: str, path: str, requirement: str | None = None, *, hint: str | None = None
) -> Diagnostic:
    return Diagnostic(Severity.WARNING, rule, code, message, path, requirement, hint=hint)


def count(diagnostics: Iterable[Diagnostic]) -> tuple[int, int]:
    """Return (errors, warnings)."""
    errors = warnings = 0
    for diagnostic in diagnostics:
        if diagnostic.is_error:
            errors += 1
        else:
            warnings += 1
    return errors, warnings


# --- printing untrusted text ------------------------------------------------------------
#
# Everything printed may quote the description (member names, values, pointers) or name
# files. Terminals act on control characters (ESC sequences, C1 CSI \x9b), bidi and other
# format characters reorder or hide text, and CI runners execute lines: GitHub Actions runs
# a line that starts with ``::`` after leading whitespace (``::error ...``,
# ``::add-mask::``, ``::stop-commands::``) and a ``##[command]`` anywhere in a line, Azure
# Pipelines a ``##vso[...]`` anywhere. So every printer passes its text through
# ``printable`` (plain text) or ``json_text`` (JSON), here and nowhere else.

_ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""Control (C0 including newline and tab, DEL, C1), format (bidi embeddings, overrides and
isolates, U+061C, U+200B-U+200F, U+2060-U+2064, U+FEFF, tag characters ...), lone
surrogates (which cannot even be encoded) and the Unicode line and paragraph separators."""
_SHORT_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_CANDIDATE = re.compile(r"[^\x20-\x7e]")
"""Everything outside printable ASCII is looked at; most of it (letters of any script) stays."""
_JSON_CANDIDATE = re.compile(r"[^\n\x20-\x7e]")
SERVICE_MESSAGE = re.compile(r"##(?=[A-Za-z]*\[)")
"""``##[`` (GitHub's legacy commands), ``##vso[`` (Azure Pipelines), ``##teamcity[``: runners
act on these anywhere in a line; escaping the second ``#`` breaks them."""


def _escaped(character: str) -> str:
    if unicodedata.category(character) not in _ESCAPED_CATEGORIES:
        return character
    if character in _SHORT_ESCAPES:
        return _SHORT_ESCAPES[character]
    code = ord(character)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible(text: str) -> str:
    """``text`` with its control, format and separator characters written as visible
    escapes (``\\x1b``, ``\\n``, ``\\u202e``): what a reader sees is then every character
    there is. Pages use it for values a reader copies (a command line, an environment
    variable), where a bidi override or a zero-width space would make what is shown differ
    from what is copied. Backslashes are left alone: this is for reading, not a reversible
    encoding."""
    if text.isascii() and text.isprintable():
        return text
    return _CANDIDATE.sub(lambda match: _escaped(match.group()), text)


def printable(text: str) -> str:
    """``text`` made safe to print as (part of) one line of a terminal or a CI log: what
    ``visible`` escapes, plus a CI service-message opener gets its second ``#`` escaped,
    and a leading ``::`` (after any whitespace) its first colon, so the line cannot be
    taken for a workflow command. Text with none of these (every normal diagnostic) is
    returned as it is."""
    safe = visible(text)
    if "##" in safe:
        safe = SERVICE_MESSAGE.sub(lambda _: "#\\x23", safe)
    stripped = safe.lstrip()
    if stripped.startswith("::"):
        start = len(safe) - len(stripped)
        safe = safe[:start] + "\\x3a" + safe[start + 1 :]
    return safe


def printable_lines(text: str) -> str:
    """Text of several lines made printable line by line: its newlines are kept, every
    other line break (``\\r``, ``\\x85``, ``\\u2028`` ...) is escaped."""
    lines = text.split("\n")
    if lines and not lines[-1]:
        lines.pop()
    return "".join(printable(line) + "\n" for line in lines)


def terminal_safe(text: str) -> bool:
    """Whether ``text`` (several lines) can be printed as it is."""
    return all(printable(line) == line for line in text.split("\n"))


def write_line(stream: TextIO, text: str) -> None:
    """Print one line of a command's own output (which may name files or quote the description)."""
    stream.write(printable(text) + "\n")


def _json_escaped(character: str) -> str:
    if unicodedata.category(character) not in _ESCAPED_CATEGORIES:
        return character
    # JSON escapes are UTF-16 code units: a character beyond the BMP is a surrogate pair.
    units = character.encode("utf-16-be", "surrogatepass")
    return "".join(f"\\u{int.from_bytes(units[i : i + 2], 'big'):04x}" for i in range(0, len(units), 2))


def visible_json(value: object) -> str:
    """``value`` as indented JSON in which the characters ``visible`` escapes are JSON
    ``\\u`` escapes (json.dumps escapes C0 only): it means exactly the same, and a reader
    sees every character of it."""
    text = json.dumps(value, ensure_ascii=False, indent=2)
    if not text.isascii() or "\x7f" in text:  # DEL is ASCII, and json.dumps leaves it
        # Raw newlines in indented JSON are its layout (json.dumps escapes those in strings).
        text = _JSON_CANDIDATE.sub(lambda match: _json_escaped(match.group()), text)
    return text


def json_text(value: object) -> str:
    """``value`` as indented JSON that is safe to print and means exactly the same: the
    characters ``printable`` escapes, and the ``#`` that would open a service message, are
    written as JSON ``\\u`` escapes (json.dumps escapes C0 only). No line of indented JSON
    can start with ``::``: every string is quoted."""
    text = visible_json(value)
    if "##" in text:
        text = SERVICE_MESSAGE.sub(lambda _: "#\\u0023", text)
    return text


def write_json(stream: TextIO, value: object) -> None:
    """Print ``value`` as JSON (``json_text``: safe to print, the same data), then a newline."""
    stream.write(json_text(value) + "\n")


# --- reports ------------------------------------------------------------------------------


@record
class Shown:
    """What a report shows of a list of diagnostics, and how many it leaves out."""

    diagnostics: list[Diagnostic]
    """Sorted by position: at most MAX_SHOWN_PER_RULE per rule id and MAX_SHOWN in all."""
    omitted_errors: int = 0
    omitted_warnings: int = 0

    @property
    def omitted(self) -> int:
        return self.omitted_errors + self.omitted_warnings

    def omitted_line(self) -> str:
        """``... and N more (K errors, W warnings) not shown``, or "" when nothing is left out."""
        if not self.omitted:
            return ""
        errors = _plural(self.omitted_errors, "error")
        warnings = _plural(self.omitted_warnings, "warning")
        return f"... and {self.omitted} more ({errors}, {warnings}) not shown\n"


def shown(diagnostics: Iterable[Diagnostic]) -> Shown:
    """The diagnostics a report shows, in position order: a document with thousands of
    problems of one kind prints the first of them and a count, not all of them."""
    kept: list[Diagnostic] = []
    per_rule: dict[str, int] = {}
    omitted_errors = omitted_warnings = 0
    for diagnostic in sorted(diagnostics, key=Diagnostic.sort_key):
        if len(kept) < MAX_SHOWN and per_rule.get(diagnostic.rule, 0) < MAX_SHOWN_PER_RULE:
            per_rule[diagnostic.rule] = per_rule.get(diagnostic.rule, 0) + 1
            kept.append(diagnostic)
        elif diagnostic.is_error:
            omitted_errors += 1
        else:
            omitted_warnings += 1
    return Shown(kept, omitted_errors, omitted_warnings)


def _position(diagnostic: Diagnostic) -> str:
    file = diagnostic.file or "<input>"
    if diagnostic.line is None:
        return file
    if diagnostic.column is None:  # a template error knows its line only
        return f"{file}:{diagnostic.line}"
    return f"{file}:{diagnostic.line}:{diagnostic.column}"


FRAME_WIDTH = 100
"""Characters of a source line a code frame shows (around the column: a minified JSON
file is one line of megabytes)."""


def _frame_row(row: str, column: int) -> tuple[str, int]:
    """The part of ``row`` a frame shows, made printable, and the caret's offset in it."""
    start = max(0, min(column - 1 - FRAME_WIDTH // 2, len(row) - FRAME_WIDTH))
    shown_text = row[start : start + FRAME_WIDTH]
    lead = "..." if start else ""
    tail = "..." if start + FRAME_WIDTH < len(row) else ""
    # The caret sits under the printable form of what precedes the column (a tab shows as \t).
    offset = len(lead) + len(printable(shown_text[: column - 1 - start]))
    return lead + printable(shown_text) + tail, offset


def code_frame(lines: Sequence[str], line: int, column: int | None) -> list[str]:
    """The offending line and the one before it, numbered, with a caret under the column
    (as rustc, Redocly and Spectral show them); [] when the line is not in the text."""
    if not 0 < line <= len(lines):
        return []
    gutter = len(str(line))
    frame: list[str] = [f"{' ' * gutter} |"]
    if line > 1:
        before, _ = _frame_row(lines[line - 2].rstrip("\r"), 1)
        frame.append(f"{line - 1:>{gutter}} | {before}".rstrip())
    row, offset = _frame_row(lines[line - 1].rstrip("\r"), column or 1)
    frame.append(f"{line:>{gutter}} | {row}".rstrip())
    if column is not None:
        frame.append(f"{' ' * gutter} | {' ' * offset}^")
    return ["    " + part for part in frame]


def format_text(diagnostics: Sequence[Diagnostic], text: str | None = None, file: str | None = None) -> str:
    """``FILE:LINE:COL: severity[rule] message`` lines, each followed by the JSON Pointer,
    then, when ``text`` (the content of ``file``) is given, the source line with a caret
    and any hint (at most MAX_SHOWN_PER_RULE per rule and MAX_SHOWN in all, then how many more)."""
    report = shown(diagnostics)
    source_lines = text.split("\n") if text is not None else []
    lines: list[str] = []
    for diagnostic in report.diagnostics:
        lines.append(f"{_position(diagnostic)}: {diagnostic.severity.value}[{diagnostic.rule}] {diagnostic.message}")
        details = [f"at {diagnostic.path or '/'}"] if diagnostic.path is not None else []
        if diagnostic.requirement:
            details.append(f"requirement {diagnostic.requirement}")
        details.append(f"code {diagnostic.code}")
        lines.append("    " + "; ".join(details))
        if source_lines and diagnostic.file == file and diagnostic.line is not None:
            lines.extend(code_frame(source_lines, diagnostic.line, diagnostic.column))
        if diagnostic.hint:
            lines.append(f"    hint: {diagnostic.hint}")
        lines.append(f"    see: {see(diagnostic.rule)}")
    # Frame rows are printable already (their caret offsets depend on it); printing them
    # again changes nothing, since printable text is returned as it is.
    return "".join(printable(line) + "\n" for line in lines) + report.omitted_line()


def format_json(diagnostics: Sequence[Diagnostic], file: str, specification: str | None) -> str:
    """One JSON object; ``errors`` and ``warnings`` count every diagnostic, ``diagnostics``
    lists what a text report would show, and ``omitted`` (present only when it is not 0)
    says how many it leaves out."""
    return json_text(json_report(diagnostics, file, specification)) + "\n"


def json_report(diagnostics: Sequence[Diagnostic], file: str, specification: str | None) -> dict[str, object]:
    """The object ``format_json`` prints (a report of several files prints a list of them)."""
    errors, warnings = count(diagnostics)
    report = shown(diagnostics)
    document: dict[str, object] = {
        "file": file,
        "specification": specification,
        "valid": errors == 0,
        "errors": errors,
        "warnings": warnings,
    }
    if report.omitted:
        document["omitted"] = report.omitted
    document["diagnostics"] = [d.to_json() for d in report.diagnostics]
    return document


def _github_escape(value: str, *, property_value: bool) -> str:
    # Workflow-command escaping, as GitHub's toolkit does it (core/src/command.ts), of text
    # already made printable (so no line break or control character is left to escape).
    value = printable(value).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if property_value:
        value = value.replace(":", "%3A").replace(",", "%2C")
    return value


def format_github(diagnostics: Sequence[Diagnostic]) -> str:
    """GitHub Actions workflow commands, so problems are annotated on the pull request: the
    only lines this tool prints that are meant to be commands."""
    report = shown(diagnostics)
    lines: list[str] = []
    for diagnostic in report.diagnostics:
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
        message += f"; see: {see(diagnostic.rule)}"
        lines.append(f"::{command} {','.join(props)}::{_github_escape(message, property_value=False)}")
    return "".join(line + "\n" for line in lines) + report.omitted_line()


@record
class RuleHelp:
    """What a SARIF log says about a rule, from the rule reference (``mcpdesc-docs rules``)."""

    summary: str
    rationale: str
    text: str
    """The explanation ``mcpdesc-docs rules ID`` prints."""
    markdown: str
    """The same as docs/rules.md has it."""
    severity: Severity


RuleHelpLookup = Callable[[str], RuleHelp | None]

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
INFORMATION_URI = "https://github.com/mcpdesc/mcpdesc-docs"


def artifact_uri(file: str) -> str:
    """A file name as a SARIF artifact URI: relative names stay relative (code scanning
    reads them from the repository root) with every character a URI may not hold
    percent-encoded; absolute ones become ``file:`` URIs."""
    path = PurePath(file)
    if path.is_absolute():
        return path.as_uri()
    return quote(path.as_posix())


def _sarif_rule(rule_id: str, help_for: RuleHelpLookup) -> dict[str, object]:
    descriptor: dict[str, object] = {"id": rule_id}
    rule_help = help_for(rule_id)
    if rule_help is None:
        return descriptor
    descriptor["shortDescription"] = {"text": rule_help.summary}
    descriptor["fullDescription"] = {"text": rule_help.rationale}
    descriptor["help"] = {"text": rule_help.text, "markdown": rule_help.markdown}
    descriptor["defaultConfiguration"] = {"level": rule_help.severity.value}
    return descriptor


def _sarif_location(diagnostic: Diagnostic) -> dict[str, object]:
    physical: dict[str, object] = {"artifactLocation": {"uri": artifact_uri(diagnostic.file or "")}}
    if diagnostic.line is not None:
        region: dict[str, int] = {"startLine": diagnostic.line}
        if diagnostic.column is not None:  # a template error knows its line only
            region["startColumn"] = diagnostic.column
        physical["region"] = region
    location: dict[str, object] = {"physicalLocation": physical}
    if diagnostic.path is not None:
        # The JSON Pointer names the value whatever the file's layout: a logical location.
        location["logicalLocations"] = [{"fullyQualifiedName": diagnostic.path or "/", "kind": "value"}]
    return location


def _sarif_result(diagnostic: Diagnostic, rule_index: int) -> dict[str, object]:
    result: dict[str, object] = {
        "ruleId": diagnostic.rule,
        "ruleIndex": rule_index,
        "level": diagnostic.severity.value,
        "message": {"text": diagnostic.message},
    }
    if diagnostic.file:
        result["locations"] = [_sarif_location(diagnostic)]
    properties: dict[str, object] = {"code": diagnostic.code, "see": see(diagnostic.rule)}
    if diagnostic.requirement is not None:
        properties["requirement"] = diagnostic.requirement
    if diagnostic.hint is not None:
        properties["hint"] = diagnostic.hint
    result["properties"] = properties
    return result


def format_sarif(diagnostics: Sequence[Diagnostic], help_for: RuleHelpLookup) -> str:
    """One SARIF 2.1.0 log (of one run) for code scanning and other SARIF viewers: a rule
    descriptor, with its help from the rule reference, for each rule reported, and a result
    for each diagnostic a text report would show, located by the same line and column
    (columns count code points, as the text format's do). What the cap leaves out is
    said in a notification of the invocation."""
    report = shown(diagnostics)
    rule_ids = sorted({diagnostic.rule for diagnostic in report.diagnostics})
    index = {rule_id: position for position, rule_id in enumerate(rule_ids)}
    invocation: dict[str, object] = {"executionSuccessful": True}
    if report.omitted:
        line = report.omitted_line().rstrip("\n")
        invocation["toolExecutionNotifications"] = [{"level": "note", "message": {"text": line}}]
    run = {
        "tool": {
            "driver": {
                "name": "mcpdesc-docs",
                "version": __version__,
                "informationUri": INFORMATION_URI,
                "rules": [_sarif_rule(rule_id, help_for) for rule_id in rule_ids],
            }
        },
        "invocations": [invocation],
        "columnKind": "unicodeCodePoints",
        "results": [_sarif_result(d, index[d.rule]) for d in report.diagnostics],
    }
    return json_text({"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}) + "\n"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def summary_line(diagnostics: Sequence[Diagnostic], file: str, specification: str | None) -> str:
    """``FILE: valid (0.9.0-rc.3)``, or the verdict with the counts."""
    spec = specification or "unknown specification"
    errors, warnings = count(diagnostics)
    if errors == 0 and warnings == 0:
        return printable(f"{file}: valid ({spec})") + "\n"
    verdict = "invalid" if errors else "valid with warnings"
    return printable(f"{file}: {verdict} ({spec}): {_plural(errors, 'error')}, {_plural(warnings, 'warning')}") + "\n"


def _no_help(rule_id: str) -> RuleHelp | None:
    return None


def write_report(
    out: TextIO,
    diagnostics: Sequence[Diagnostic],
    file: str,
    specification: str | None,
    output_format: str,
    *,
    text: str | None = None,
    help_for: RuleHelpLookup | None = None,
) -> None:
    """Everything a command prints about one file, in the chosen format (text, json, github,
    sarif); ``text``, the file's content, lets the text format quote the offending lines,
    and ``help_for`` gives SARIF's rules their help."""
    if output_format == "sarif":
        out.write(format_sarif(diagnostics, help_for or _no_help))
    elif output_format == "json":
        out.write(format_json(diagnostics, file, specification))
    elif output_format == "github":
        out.write(format_github(diagnostics))
    else:
        out.write(format_text(diagnostics, text, file))
        out.write(summary_line(diagnostics, file, specification))


def github_command(command: str, properties: Sequence[tuple[str, str]], message: str) -> str:
    """One GitHub Actions workflow command line (``::error file=...::message``), every part
    escaped: for reports other than diagnostics (``diff``)."""
    props = ",".join(f"{name}={_github_escape(value, property_value=True)}" for name, value in properties)
    return f"::{command} {props}::{_github_escape(message, property_value=False)}"
