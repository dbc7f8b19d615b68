"""Editing a description file in place: only what changes changes.

``edit_text`` turns the text of a description holding one document into the text of the
next, through ruamel.yaml's round-trip mode: entries and items whose values are equal stay
exactly as written (comments, key order, quoting, block scalars), changed values are
replaced where they stand, new members are inserted after the member that precedes them
in the new document, and sequence items are matched by identity (``name``, ``uri``,
``uriTemplate``, ``type``) so a new tool is an insertion, not a rewrite of every tool after
it. JSON keeps no comments, so a JSON file is written whole, at its own indentation.
"""

from __future__ import annotations

import difflib
import io
import json
from collections import Counter
from collections.abc import Mapping
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError
from ruamel.yaml.representer import RoundTripRepresenter

from ..errors import DescriptionError
from .load import Format, parse_text

_IDENTITY_MEMBERS = ("name", "uri", "uriTemplate", "type")
# Wide enough that ruamel.yaml folds no value it writes: a changed value stays one line.
_WIDTH = 1 << 16


def canonical(value: object) -> str:
    """JSON equality as text: Python's ``==`` takes ``True`` for ``1``, JSON does not."""
    # default=str: a round-trip node may hold a date where the description profile reads the
    # same plain scalar as a string.
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)


def _represent_null(representer: RoundTripRepresenter, _: None) -> Any:
    # ruamel.yaml writes a null as nothing (``default:``); descriptions say ``null``.
    return representer.represent_scalar("tag:yaml.org,2002:null", "null")


def yaml_writer(indent: int = 2, dash_offset: int = 0, width: int = _WIDTH) -> YAML:
    """``dash_offset``: how far a block sequence's ``-`` stands right of its key."""
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = width
    yaml.allow_unicode = True
    yaml.indent(mapping=indent, sequence=indent + dash_offset, offset=dash_offset)
    yaml.representer.add_representer(type(None), _represent_null)
    # A value used twice is written twice: the description YAML profile refuses anchors.
    yaml.representer.ignore_aliases = lambda _: True
    return yaml


def dump_yaml(data: object) -> str:
    """A whole document as block YAML (for a file written afresh)."""
    stream = io.StringIO()
    yaml_writer().dump(data, stream)
    return stream.getvalue()


def json_indent(text: str) -> int:
    """The indentation step of a JSON file (2 when it has none to go by)."""
    for line in text.splitlines()[1:]:
        stripped = line.lstrip(" ")
        if stripped and len(stripped) < len(line):
            return len(line) - len(stripped)
    return 2


def dump_json(data: object, indent: int = 2) -> str:
    return json.dumps(data, indent=indent, ensure_ascii=False) + "\n"


def dump(data: object, fmt: Format) -> str:
    return dump_json(data) if fmt == "json" else dump_yaml(data)


def _identity(value: object) -> str:
    if isinstance(value, Mapping):
        members = {m: value[m] for m in _IDENTITY_MEMBERS if m in value}
        if members:
            return canonical([members, value.get("protocolVersions")])
    return canonical(value)


def _merge(old: object, new: object) -> object:
    """``new``, reusing ``old`` (a round-trip node) wherever it already holds the same."""
    if canonical(old) == canonical(new):
        return old
    if isinstance(old, CommentedMap) and isinstance(new, Mapping):
        _merge_mapping(old, new)
        return old
    if isinstance(old, CommentedSeq) and isinstance(new, list) and new:
        _merge_sequence(old, new)
        return old
    return new


def _merge_mapping(old: CommentedMap, new: Mapping[str, Any]) -> None:
    for key in [k for k in old if k not in new]:
        del old[key]
    previous: str | None = None
    for key, value in new.items():
        if key in old:
            old[key] = _merge(old[key], value)
        else:
            position = 0 if previous is None else list(old).index(previous) + 1
            old.insert(position, key, value)
        previous = key


def _merge_sequence(old: CommentedSeq, new: list[Any]) -> None:
    matcher = difflib.SequenceMatcher(None, [_identity(v) for v in old], [_identity(v) for v in new], autojunk=False)
    # Back to front, so the indices of the operations still to apply stay valid.
    for tag, i1, i2, j1, j2 in reversed(matcher.get_opcodes()):
        paired = min(i2 - i1, j2 - j1) if tag in ("equal", "replace") else 0
        for index in reversed(range(i1 + paired, i2)):
            del old[index]
        for offset, value in enumerate(new[j1 + paired : j2]):
            old.insert(i1 + paired + offset, value)
        for offset in range(paired):
            old[i1 + offset] = _merge(old[i1 + offset], new[j1 + offset])


def _layout(text: str) -> tuple[int, int]:
    """The file's mapping indentation and how far its sequences' dashes stand right of their
    key, as most of its nested blocks have them (2 and 0 when it has none)."""
    indents: Counter[int] = Counter()
    dash_offsets: Counter[int] = Counter()
    key_columns: set[int] = set()
    previous_opened = False
    for line in text.splitlines():
        stripped = line.lstrip(" ")
        if not stripped or stripped.startswith("#"):
            continue
        column = len(line) - len(stripped)
        dash = stripped.startswith("- ")
        if previous_opened:
            # The first line after "key:" opens that key's block.
            parent = max((c for c in key_columns if c < column or (dash and c == column)), default=None)
            if parent is not None:
                (dash_offsets if dash else indents)[column - parent] += 1
        key_columns = {c for c in key_columns if c < column or (dash and c == column)}
        previous_opened = stripped.rstrip().endswith(":")
        if previous_opened:
            key_columns.add(column + (2 if dash else 0))
    indent = next((n for n, _ in indents.most_common() if n in (2, 3, 4)), 2)
    dash_offset = next((n for n, _ in dash_offsets.most_common() if n in (0, 2, 4)), 0)
    return indent, dash_offset


def _widened(hunks: list[tuple[int, int, int, int]], anchored: list[int | None]) -> list[tuple[int, int, int, int]]:
    """Hunks (``before[i1:i2]`` became ``after[j1:j2]``) grown until the lines on either side
    are lines of the original file, and merged where they then overlap."""
    merged: list[tuple[int, int, int, int]] = []
    for i1, i2, j1, j2 in hunks:
        while i1 > 0 and anchored[i1 - 1] is None:
            i1, j1 = i1 - 1, j1 - 1
        while i2 < len(anchored) and anchored[i2] is None:
            i2, j2 = i2 + 1, j2 + 1
        if merged and i1 <= merged[-1][1]:
            i1, j1 = merged[-1][0], merged[-1][2]
            merged.pop()
        merged.append((i1, i2, j1, j2))
    return merged


def _patched(original: str, before: str, after: str) -> str:
    """The changes from ``before`` to ``after`` (ruamel.yaml's renderings of the file as it
    was and as it will be) applied to the original text. ruamel.yaml keeps comments, quoting
    and flow style but rejoins plain scalars folded over several lines; patching keeps every
    line the edit does not touch exactly as the author wrote it."""
    lines, old, new = (text.splitlines(keepends=True) for text in (original, before, after))
    anchored: list[int | None] = [None] * len(old)
    for tag, a1, a2, b1, _ in difflib.SequenceMatcher(None, old, lines, autojunk=False).get_opcodes():
        if tag == "equal":
            for offset in range(a2 - a1):
                anchored[a1 + offset] = b1 + offset
    changes = difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
    hunks = [(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in changes if tag != "equal"]
    result: list[str] = []
    position = 0
    for i1, i2, j1, j2 in _widened(hunks, anchored):
        start = 0 if i1 == 0 else (anchored[i1 - 1] or 0) + 1
        end = len(lines) if i2 == len(old) else (anchored[i2] or 0)
        result.extend(lines[position:start])
        result.extend(new[j1:j2])
        position = end
    result.extend(lines[position:])
    return "".join(result)


def edit_text(text: str, fmt: Format, new: object) -> str | None:
    """``text`` (a description file's content) changed to hold ``new``, changing only what
    differs; None when no such edit reads back as exactly ``new`` (the caller then writes
    the whole document, or nothing)."""
    if fmt == "json":
        edited = dump_json(new, json_indent(text))
    else:
        yaml = yaml_writer(*_layout(text))
        try:
            renderings = []
            for change in (False, True):
                root = yaml.load(text)
                stream = io.StringIO()
                yaml.dump(_merge(root, new) if change else root, stream)
                renderings.append(stream.getvalue())
        except YAMLError:
            return None
        edited = _patched(text, *renderings)
    try:
        reread = parse_text(edited, "<edited>", fmt=fmt).data
    except DescriptionError:
        return None
    return edited if canonical(reread) == canonical(new) else None
