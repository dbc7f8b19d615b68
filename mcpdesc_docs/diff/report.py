"""What ``diff`` prints: text for a terminal, JSON for programs, Markdown for a pull-request
comment, GitHub workflow commands for annotations. Everything a description holds is
untrusted: text is made printable, Markdown is escaped, values are clipped."""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..diagnostics import github_command, printable
from ..records import record
from .change import ABSENT, Change, Level, verdict
from .load import Side
from .values import clipped_json

SHOWN_VALUE = 160
"""Characters of a value the text and Markdown reports show (JSON carries it whole)."""
MAX_LISTED = 1000
"""Changes a report lists; the rest are counted (the JSON lists them all)."""
LEVELS = (Level.BREAKING, Level.NON_BREAKING, Level.DOCUMENTATION)


@record
class Report:
    old: Side
    new: Side
    changes: Sequence[Change]
    truncated: bool = False
    """A schema comparison stopped at its budget: there may be more."""

    @property
    def verdict(self) -> str:
        return verdict(list(self.changes))

    def counts(self) -> dict[str, int]:
        return {level.value: sum(1 for c in self.changes if c.level is level) for level in LEVELS}


def _value(value: object) -> str:
    return "(absent)" if value is ABSENT else clipped_json(value, SHOWN_VALUE)


def _summary(report: Report) -> str:
    counts = report.counts()
    if not report.changes:
        return "no changes"
    parts = ", ".join(f"{n} {level}" for level, n in counts.items() if n)
    total = len(report.changes)
    return f"{total} change{'s' if total != 1 else ''} ({parts})"


def _subject(change: Change) -> str:
    return f"{change.primitive}: {change.message}" if change.primitive else change.message


def format_text(report: Report) -> str:
    lines = [printable(f"{report.old.name} -> {report.new.name}: {_summary(report)}")]
    for change in report.changes[:MAX_LISTED]:
        versions = f" [{', '.join(change.versions)}]" if change.versions else ""
        lines.append(printable(f"{change.level.value}: {_subject(change)}{versions}"))
        for side, pointer, value in (
            ("old", change.old_pointer, change.old_value),
            ("new", change.new_pointer, change.new_value),
        ):
            if pointer is not None:
                shown = f": {_value(value)}" if value is not ABSENT else ""
                lines.append(printable(f"    {side} {pointer}{shown}"))
    if len(report.changes) > MAX_LISTED:
        lines.append(f"... and {len(report.changes) - MAX_LISTED} more (--format json lists them all)")
    if report.truncated:
        lines.append("note: a schema was too large to compare in full; there may be more changes")
    return "".join(line + "\n" for line in lines)


def _side_json(pointer: str | None, value: object) -> dict[str, object] | None:
    if pointer is None and value is ABSENT:
        return None
    side: dict[str, object] = {"pointer": pointer}
    if value is not ABSENT:
        side["value"] = value
    return side


def format_json(report: Report) -> str:
    document = {
        "old": report.old.name,
        "new": report.new.name,
        "verdict": report.verdict,
        "counts": report.counts(),
        "truncated": report.truncated,
        "changes": [
            {
                "level": change.level.value,
                "code": change.code,
                "primitive": change.primitive or None,
                "member": change.member or None,
                "message": change.message,
                "versions": list(change.versions),
                "old": _side_json(change.old_pointer, change.old_value),
                "new": _side_json(change.new_pointer, change.new_value),
            }
            for change in report.changes
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


_MARKDOWN_SPECIAL = str.maketrans(
    {c: f"\\{c}" for c in "\\`*_{}[]()#+-.!|~"} | {"<": "&lt;", ">": "&gt;", "&": "&amp;", "\n": " ", "\r": " "}
)


def _md(text: str) -> str:
    """Text shown as it is in GitHub Markdown: no markup, link, mention trigger or HTML."""
    return printable(text).translate(_MARKDOWN_SPECIAL).replace("@", "&#64;")


def format_markdown(report: Report) -> str:
    title = f"{report.old.name} → {report.new.name}: {_summary(report)}"
    lines = [f"### {_md(title)}", ""]
    if not report.changes:
        return "\n".join(lines)
    lines += ["| Level | Primitive | Change | Where (new) |", "| --- | --- | --- | --- |"]
    for change in report.changes[:MAX_LISTED]:
        versions = f" ({', '.join(change.versions)})" if change.versions else ""
        where = change.new_pointer or change.old_pointer or ""
        level = f"**{change.level.value}**" if change.level is Level.BREAKING else change.level.value
        lines.append(
            f"| {level} | {_md(change.primitive or 'server')} | {_md(change.message + versions)} | {_md(where)} |"
        )
    if len(report.changes) > MAX_LISTED:
        lines.append("")
        lines.append(f"… and {len(report.changes) - MAX_LISTED} more.")
    return "\n".join(lines) + "\n"


_COMMANDS = {Level.BREAKING: "error", Level.NON_BREAKING: "warning", Level.DOCUMENTATION: "notice"}


def format_github(report: Report) -> str:
    """One annotation per change, on the new file where the change is there, else on the old."""
    lines = []
    for change in report.changes[:MAX_LISTED]:
        side, pointer = (
            (report.new, change.new_pointer) if change.new_pointer is not None else (report.old, change.old_pointer)
        )
        line, column = side.source.source_map.locate(pointer or "")
        properties = [
            ("file", side.file),
            ("line", str(line)),
            ("col", str(column)),
            ("title", f"{change.level.value} change"),
        ]
        lines.append(github_command(_COMMANDS[change.level], properties, _subject(change)))
    lines.append(printable(f"{report.old.name} -> {report.new.name}: {_summary(report)}"))
    return "".join(line + "\n" for line in lines)


FORMATS = {"text": format_text, "json": format_json, "markdown": format_markdown, "github": format_github}

__all__ = ["FORMATS", "Report"]
