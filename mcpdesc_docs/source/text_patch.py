"""Applying the change between two renderings of a file to the file itself.

An editor that writes a whole file (ruamel.yaml, ``json.dumps``) normalizes what it does
not understand as meaning: line endings, trailing spaces, how a long plain scalar was
folded, a comment it attached to a member that was removed. The renderings of the file
before and after the edit differ only where the edit reached, so that difference, applied
as a patch to the author's text, changes those lines and keeps every other byte: its line
endings (CRLF stays CRLF; new lines take the file's most common ending), trailing spaces,
folds and comments.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from .line_diff import opcodes

# YAML's line breaks (and JSON's whitespace): CRLF, CR, LF. Python's splitlines would also
# break at U+2028 and others, which may stand inside a quoted scalar.
_LINE = re.compile(r"([^\r\n]*)(\r\n|\r|\n|$)")
BOM = "\ufeff"

Line = tuple[str, str]
"""A line's content and its ending ("" for a last line without one)."""


def split_lines(text: str) -> list[Line]:
    return [match.groups() for match in _LINE.finditer(text) if match.group()]  # type: ignore[misc]


def joined_with_newlines(lines: list[Line]) -> str:
    """The text with every line ending a ``\\n``: what the parsers and renderers are given."""
    return "".join(content + ("\n" if ending else "") for content, ending in lines)


def _rendered(text: str) -> list[str]:
    lines = text.split("\n")
    if lines and not lines[-1]:
        lines.pop()
    return lines


def _key(content: str) -> str:
    """Lines that differ only in trailing blanks are the same line to the renderers."""
    return content.rstrip(" \t")


def _is_comment(content: str) -> bool:
    return content.lstrip(" \t").startswith("#")


@dataclass
class _Output:
    newline: str
    parts: list[str] = field(default_factory=list)
    ended: bool = True

    def add(self, content: str, ending: str) -> None:
        if not self.ended:
            self.parts.append(self.newline)
        self.parts.append(content + ending)
        self.ended = bool(ending)

    def extend(self, lines: Iterable[Line]) -> None:
        for content, ending in lines:
            self.add(content, ending)


def _start(i1: int, i2: int, anchored: list[int | None]) -> int | None:
    """Where in the original the change of ``before[i1:i2]`` begins: at its own first line,
    or right after the line before it, if either is a line of the original."""
    if i1 < i2 and anchored[i1] is not None:
        return anchored[i1]
    if i1 == 0:
        return 0
    previous = anchored[i1 - 1]
    return None if previous is None else previous + 1


def _end(i1: int, i2: int, anchored: list[int | None], length: int) -> int | None:
    if i1 < i2 and anchored[i2 - 1] is not None:
        return (anchored[i2 - 1] or 0) + 1
    if i2 == len(anchored):
        return length
    return anchored[i2]


def _located(
    hunks: list[tuple[int, int, int, int]], anchored: list[int | None], length: int
) -> list[tuple[int, int, int, int]]:
    """Each hunk (``before[i1:i2]`` became ``after[j1:j2]``) as ``(start, end, j1, j2)``:
    the original lines it replaces. A hunk whose edge lies among lines the renderer wrote
    differently (a folded scalar it rejoined) grows over them to one it wrote alike; hunks
    that then overlap are merged."""
    grown: list[tuple[int, int, int, int]] = []
    for i1, i2, j1, j2 in hunks:
        while _start(i1, i2, anchored) is None:
            i1, j1 = i1 - 1, j1 - 1
        while _end(i1, i2, anchored, length) is None:
            i2, j2 = i2 + 1, j2 + 1
        if grown and i1 <= grown[-1][1]:
            i1, j1 = grown[-1][0], grown[-1][2]
            grown.pop()
        grown.append((i1, i2, j1, j2))
    return [(_start(i1, i2, anchored) or 0, _end(i1, i2, anchored, length) or 0, j1, j2) for i1, i2, j1, j2 in grown]


def _anchors(original: list[Line], old: list[str]) -> list[int | None]:
    """For each line of the rendering, the original line it stands for (None: none)."""
    anchored: list[int | None] = [None] * len(old)
    keys = [_key(content) for content, _ in original]
    for tag, a1, a2, b1, _ in opcodes([_key(line) for line in old], keys):
        if tag == "equal":
            for offset in range(a2 - a1):
                anchored[a1 + offset] = b1 + offset
    return anchored


def _dropped_comments(original: list[Line], written: list[str]) -> list[Line]:
    """Whole-line comments of a replaced stretch of the original that its replacement lacks
    (ruamel.yaml attaches a comment to the member before it, and drops it with that member)."""
    present = Counter(_key(line) for line in written if _is_comment(line))
    dropped: list[Line] = []
    for content, ending in original:
        if _is_comment(content):
            if present[_key(content)]:
                present[_key(content)] -= 1
            else:
                dropped.append((content, ending))
    return dropped


def newline_of(lines: list[Line]) -> str:
    endings = Counter(ending for _, ending in lines if ending)
    return endings.most_common(1)[0][0] if endings else "\n"


def _as_written(replaced: list[Line], written: list[str], newline: str) -> list[Line]:
    """The lines of a hunk's replacement, each one the renderer wrote as a line it replaces
    (but for trailing blanks) taken from the original, with its blanks and ending."""
    lines = [(line, newline) for line in written]
    matched = opcodes([_key(line) for line in written], [_key(content) for content, _ in replaced])
    for tag, i1, i2, j1, _ in matched:
        if tag == "equal":
            lines[i1:i2] = replaced[j1 : j1 + i2 - i1]
    return lines


def patched(original: list[Line], before: str, after: str, *, faithful: bool) -> str:
    """The change from ``before`` to ``after`` (renderings of the file as it was and as it
    will be) made to the original lines; every line the change does not reach stays.
    ``faithful``: within the change too, lines it rewrote alike keep the author's bytes,
    and comments the renderer dropped with a removed member are written back."""
    old, new = _rendered(before), _rendered(after)
    anchored = _anchors(original, old)
    hunks = [(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in opcodes(old, new) if tag != "equal"]
    output = _Output(newline_of(original))
    position = 0
    for start, end, j1, j2 in _located(hunks, anchored, len(original)):
        output.extend(original[position:start])
        if faithful:
            output.extend(_as_written(original[start:end], new[j1:j2], output.newline))
            output.extend(_dropped_comments(original[start:end], new[j1:j2]))
        else:
            output.extend((line, output.newline) for line in new[j1:j2])
        position = end
    output.extend(original[position:])
    return "".join(output.parts)
