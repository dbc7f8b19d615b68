"""What a YAML syntax error usually means, in plain words, and how to fix it.

libyaml names the symptom ("mapping values are not allowed in this context"), not the
cause. The common causes can be told apart from the offending line itself: a ``: `` inside
an unquoted value, a line indented differently from its siblings, a tab, an unclosed quote.
"""

from __future__ import annotations

import re

_KEY = re.compile(r"\s*(?:-\s+)?([^\s:#][^:#]*?):(?:\s|$)")
"""A block mapping key at the start of a line (``  name: ...`` or ``- name: ...``)."""


def source_line(text: str, line: int) -> str:
    """Line ``line`` (1-based) of ``text``, without its line break; "" past the end."""
    lines = text.split("\n")
    return lines[line - 1].rstrip("\r") if 0 < line <= len(lines) else ""


def _indent(row: str) -> int:
    return len(row) - len(row.lstrip(" "))


def _previous_content_line(text: str, line: int) -> str | None:
    for number in range(line - 1, 0, -1):
        row = source_line(text, number)
        if row.strip() and not row.lstrip().startswith("#"):
            return row
    return None


def _indentation_hint(text: str, line: int) -> str | None:
    row = source_line(text, line)
    previous = _previous_content_line(text, line)
    if previous is None or not row.strip():
        return None
    here, before = _indent(row), _indent(previous)
    if here == before:
        return None
    return (
        f"line {line} is indented {here} spaces and the line before it {before}: members of one mapping "
        "must line up exactly, and a member's own members go one level deeper (indent with spaces only)"
    )


def _colon_in_value_hint(text: str, line: int, column: int) -> str | None:
    row = source_line(text, line)
    key = _KEY.match(row)
    if key is None or key.end() > column - 1:
        return None
    value = row[key.end() :].strip()
    return (
        f"the value of {key.group(1)!r} contains ': ', which YAML reads as the start of another key; "
        f"quote the whole value: {key.group(1)}: {_quoted(value)}"
    )


def _quoted(value: str) -> str:
    if len(value) > 60:
        value = value[:57] + "..."
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def yaml_hint(
    problem: str, context: str | None, text: str, line: int, column: int, *, context_line: int | None = None
) -> str | None:
    """A plain-words cause and fix for a libyaml error at (line, column), when one is likely;
    ``context_line`` is where libyaml's context starts (the opening quote, say)."""
    row = source_line(text, line)
    if "\t" in row[: max(column, _indent(row) + 1)] or "tab" in problem:
        return "YAML does not allow tabs for indentation: indent with spaces"
    if "mapping values are not allowed" in problem:
        return _colon_in_value_hint(text, line, column) or _indentation_hint(text, line)
    if context is not None and "quoted scalar" in context and "end of stream" in problem:
        where = f" on line {context_line}" if context_line is not None else ""
        return f"the quoted value that starts{where} is not closed: add the closing quote (or escape a quote inside it)"
    if "expected" in problem and ("indicator" in problem or "key" in problem or "block end" in problem):
        return _indentation_hint(text, line) or (
            "this line does not fit the structure above it: check its indentation and the '-' of list items"
        )
    return None
