"""Editing a description file in place: only what changes changes.

``edit_text`` turns the text of a description holding one document into the text of the
next, through ruamel.yaml's round-trip mode: entries and items whose values are equal stay
exactly as written (comments, key order, quoting, block scalars), changed values are
replaced where they stand, new members are inserted after the member that precedes them
in the new document, and sequence items are matched by identity (``name``, ``uri``,
``uriTemplate``, ``type``) so a new tool is an insertion, not a rewrite of every tool after
it. A JSON file is written by ``json.dumps`` at its own indentation. Either way the change
between the writer's renderings of the file before and after is then made to the file's
own text (``text_patch``), so lines the change does not reach keep every byte.

The work is linear in the file (``line_diff``; each mapping and sequence rebuilt once);
past ``EDITED_AT_MOST`` characters the caller writes the file whole.
"""

from __future__ import annotations

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
from .line_diff import opcodes
from .load import Format, parse_text
from .text_patch import BOM, joined_with_newlines, patched, split_lines

_IDENTITY_MEMBERS = ("name", "uri", "uriTemplate", "type")
# Wide enough that ruamel.yaml folds no value it writes: a changed value stays one line.
_WIDTH = 1 << 16
EDITED_AT_MOST = 2_000_000
"""Characters: a larger file is written whole. ruamel.yaml's round trip is pure Python, about
25 seconds of CPU a megabyte, so this bounds an edit to under a minute."""


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
    # A member new to the mapping goes right after the member before it in ``new``; members
    # already there stay where they are. Inserting one at a time would move every member
    # after it, each time (ruamel.yaml rebuilds the mapping): the order is worked out first.
    following: dict[str | None, str] = {}
    previous: str | None = None
    for key, value in new.items():
        if key in old:
            old[key] = _merge(old[key], value)
        else:
            following[previous] = key
            old[key] = value
        previous = key
    if not following:
        return
    for key in _order(list(old), following):
        old.move_to_end(key)


def _order(kept: list[str], following: dict[str | None, str]) -> list[str]:
    order: list[str] = []
    added = set(following.values())
    for key in [None, *(k for k in kept if k not in added)]:
        if key is not None:
            order.append(key)
        while key in following:
            key = following[key]
            order.append(key)
    return order


def _merge_sequence(old: CommentedSeq, new: list[Any]) -> None:
    items: list[Any] = []
    comments: dict[int, Any] = {}
    for tag, i1, i2, j1, j2 in opcodes([_identity(v) for v in old], [_identity(v) for v in new]):
        paired = min(i2 - i1, j2 - j1) if tag in ("equal", "replace") else 0
        for offset in range(paired):
            # Assigned, not just collected: ruamel.yaml keeps a replaced scalar's style.
            old[i1 + offset] = _merge(old[i1 + offset], new[j1 + offset])
            if i1 + offset in old.ca.items:
                comments[len(items)] = old.ca.items[i1 + offset]
            items.append(old[i1 + offset])
        items.extend(new[j1 + paired : j2])
    # All at once, with the comments (kept by item index) moved with their items: ruamel.yaml
    # renumbers every comment after an item on each single insertion or deletion.
    list.__setitem__(old, slice(None), items)
    old.ca.items.clear()
    old.ca.items.update(comments)


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


def _yaml_renderings(text: str, new: object) -> tuple[str, str] | None:
    """ruamel.yaml's writing of the file as it is, and as it is once it holds ``new``."""
    yaml = yaml_writer(*_layout(text))
    before, after = io.StringIO(), io.StringIO()
    try:
        # Loaded once (the round-trip reader is most of the cost): written as it is, then
        # merged in place and written again.
        root = yaml.load(text)
        yaml.dump(root, before)
        yaml.dump(_merge(root, new), after)
    except YAMLError:
        return None
    return before.getvalue(), after.getvalue()


def _json_renderings(text: str, new: object) -> tuple[str, str]:
    indent = json_indent(text)
    try:
        before = dump_json(json.loads(text), indent)
    except ValueError:
        before = ""  # nothing to hold on to: the file is written whole
    return before, dump_json(new, indent)


def _reads_as(text: str, fmt: Format, new: object) -> bool:
    try:
        reread = parse_text(text, "<edited>", fmt=fmt).data
    except DescriptionError:
        return False
    return canonical(reread) == canonical(new)


def edit_text(text: str, fmt: Format, new: object) -> str | None:
    """``text`` (a description file's content) changed to hold ``new``, changing only what
    differs; None when no such edit reads back as exactly ``new``, or when the file is over
    ``EDITED_AT_MOST`` characters (the caller then writes the whole document, or nothing)."""
    if len(text) > EDITED_AT_MOST:
        return None
    bom = BOM if text.startswith(BOM) else ""
    lines = split_lines(text[len(bom) :])
    plain = joined_with_newlines(lines)
    renderings = _json_renderings(plain, new) if fmt == "json" else _yaml_renderings(plain, new)
    if renderings is None:
        return None
    # In a rare layout, a comment written back or a line's own trailing blanks fall into a
    # block scalar; the renderer's own lines are then the next best.
    for faithful in (True, False):
        edited = bom + patched(lines, *renderings, faithful=faithful)
        if _reads_as(edited, fmt, new):
            return edited
    return None
