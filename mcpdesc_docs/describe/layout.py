"""A fresh description as a file a person reviews: long texts folded, multi-line texts as
literal blocks, lines of about 100 characters (a single unbreakable token may be longer).

The styles change how a value is written, never what it is: the text is read back with
the description reader and compared with the data, and a plain dump is written instead
should any style not survive the round trip.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from ruamel.yaml.comments import CommentedSeq
from ruamel.yaml.scalarstring import FoldedScalarString, LiteralScalarString

from ..errors import DescriptionError
from ..source.load import Format, parse_text
from ..source.roundtrip import canonical, dump, yaml_writer

_WIDTH = 100
_FOLD_FROM = 80
"""Single-line strings longer than this are folded."""
_FLOW_LIST = 60
"""A list of scalars written on one line (``[a, b]``) when it is this short."""


def _foldable(text: str) -> bool:
    # Folding breaks lines at single spaces; leading, trailing or doubled spaces and any
    # character a block scalar cannot hold would not read back the same.
    return (
        len(text) > _FOLD_FROM
        and " " in text[:_WIDTH]
        and text.isprintable()
        and text == text.strip()
        and "  " not in text
    )


def _literal(text: str) -> bool:
    lines = text.split("\n")
    return all(line.isprintable() and line == line.rstrip() for line in lines) and not text.startswith(" ")


def _survives(styled: str) -> bool:
    """Whether a string written in this style reads back the same."""
    stream = io.StringIO()
    yaml_writer(width=_WIDTH).dump({"k": styled}, stream)
    try:
        read = parse_text(stream.getvalue(), "-", fmt="yaml").data
    except DescriptionError:
        return False
    return isinstance(read, dict) and read.get("k") == str(styled)


def _styled(value: Any, keeps: Callable[[str], bool]) -> Any:
    """``value`` with its strings and short lists styled where ``keeps`` accepts the style."""
    if isinstance(value, dict):
        return {key: _styled(member, keeps) for key, member in value.items()}
    if isinstance(value, list):
        members = [_styled(member, keeps) for member in value]
        scalars = all(type(m) in (str, int, float, bool) for m in members)
        if members and scalars and len(", ".join(map(str, members))) <= _FLOW_LIST:
            flow = CommentedSeq(members)
            flow.fa.set_flow_style()
            return flow
        return members
    if isinstance(value, str):
        multi_line = "\n" in value.rstrip("\n")
        if multi_line and max(map(len, value.split("\n"))) > _WIDTH and keeps(FoldedScalarString(value)):
            # Folding doubles a text's blank lines on the page, not in its value.
            return FoldedScalarString(value)
        if multi_line and _literal(value):
            return LiteralScalarString(value)
        if _foldable(value) and keeps(FoldedScalarString(value)):
            return FoldedScalarString(value)
    return value


def _reads_back(text: str, data: dict[str, Any]) -> bool:
    try:
        return canonical(parse_text(text, "-", fmt="yaml").data) == canonical(data)
    except DescriptionError:
        return False


def written(data: dict[str, Any], fmt: Format) -> str:
    """``data`` as the text of a new description file."""
    if fmt == "json":
        return dump(data, fmt)
    # Styles are tried on the whole document first (one dump, one read); only when that
    # does not read back is each folded string tried on its own, and past that, no style.
    for keeps in (lambda _: True, _survives):
        stream = io.StringIO()
        yaml_writer(width=_WIDTH).dump(_styled(data, keeps), stream)
        if _reads_back(stream.getvalue(), data):
            return stream.getvalue()
    return dump(data, fmt)
