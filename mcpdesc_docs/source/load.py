"""Load a description (JSON or the spec's restricted YAML profile) with a source map.

Both formats end up as plain JSON data plus a map from JSON Pointer to 1-based line and
column (``positions``). YAML is read from libyaml's event stream (``yaml_events``), JSON
by ``json`` with the same refusals (``json_text``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import BinaryIO, Literal, NamedTuple

from ..diagnostics import Diagnostic
from ..errors import DescriptionError, UsageError
from .json_text import parse_json, positions_text
from .limits import DEFAULT_LIMITS, LIMITS_RULE, Limits
from .positions import SourceMap, fatal
from .yaml_events import read_yaml_data, walk_yaml_events, yaml_source_map

Format = Literal["json", "yaml"]


class Readers(NamedTuple):
    """What turns a description's text into data, per format: ``read_yaml_data`` and
    ``parse_json``, or the incremental readers ``serve`` passes (``source.incremental``)."""

    yaml: Callable[[str, Limits, str], object] = read_yaml_data
    json: Callable[[str, str, Limits], object] = parse_json


FULL_READERS = Readers()


@dataclass(slots=True)
class Source:
    """A loaded description: its data, its text and where every value came from."""

    name: str
    """The file name used in diagnostics."""
    format: Format
    text: str
    data: object
    _source_map: SourceMap | None = None

    @property
    def source_map(self) -> SourceMap:
        # Positions cost more to record than the data (a pointer per value), and most
        # loads place no diagnostic, so they are only worked out when one needs placing.
        if self._source_map is None:
            if self.format == "yaml":
                self._source_map = yaml_source_map(self.text)  # the text kept to the profile
            else:
                try:
                    _, self._source_map = walk_yaml_events(positions_text(self.text), DEFAULT_LIMITS, self.name)
                except DescriptionError:
                    self._source_map = SourceMap()
        return self._source_map

    def place(self, diagnostic: Diagnostic) -> Diagnostic:
        line, column = self.source_map.locate(diagnostic.path or "")
        return diagnostic.located(self.name, line, column)


def read_source(
    path: Path,
    *,
    limits: Limits = DEFAULT_LIMITS,
    name: str | None = None,
    readers: Readers = FULL_READERS,
) -> Source:
    """Read and parse a description file. Raises UsageError for I/O problems and
    DescriptionError for anything wrong with the content."""
    display = name or str(path)
    try:
        size = os.stat(path).st_size
        if not path.is_file():
            raise UsageError(f"{display}: not a file")
        if size > limits.max_bytes:
            raise fatal(
                display,
                f"file is {size} bytes; the limit is {limits.max_bytes} bytes",
                1,
                1,
                code="input-too-large",
                rule=LIMITS_RULE,
            )
        with open(path, "rb") as handle:
            raw = read_at_most(handle, limits.max_bytes + 1)
    except FileNotFoundError:
        raise UsageError(f"{display}: no such file") from None
    except IsADirectoryError:
        raise UsageError(f"{display}: is a directory") from None
    except PermissionError:
        raise UsageError(f"{display}: permission denied") from None
    return parse_bytes(raw, display, fmt=format_of(path.name), limits=limits, readers=readers)


def format_of(name: str) -> Format | None:
    """The format a file name's extension says (None: none; the text decides)."""
    suffix = PurePosixPath(name).suffix.lower()
    return "json" if suffix == ".json" else "yaml" if suffix in {".yaml", ".yml"} else None


READ_CHUNK = 1 << 20
"""Bytes asked for at a time: ``read(n)`` sets aside n bytes before it reads one, so a
large limit read at once failed on a small file (MemoryError, or OverflowError past
Python's largest size)."""


def read_at_most(handle: BinaryIO, size: int) -> bytes:
    """The file's bytes up to ``size`` of them (one more than the limit: enough to tell a
    file that grew past it since it was measured)."""
    chunks: list[bytes] = []
    left = size
    while left > 0:
        chunk = handle.read(min(left, READ_CHUNK))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def parse_bytes(
    raw: bytes,
    name: str,
    *,
    fmt: Format | None = None,
    limits: Limits = DEFAULT_LIMITS,
    readers: Readers = FULL_READERS,
) -> Source:
    if len(raw) > limits.max_bytes:
        raise fatal(
            name,
            f"input is larger than the limit of {limits.max_bytes} bytes",
            1,
            1,
            code="input-too-large",
            rule=LIMITS_RULE,
        )
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        column = len(before) - (before.rfind(b"\n") + 1) + 1
        raise fatal(
            name,
            f"input is not valid UTF-8 (byte 0x{raw[exc.start]:02x})",
            line,
            column,
            code="invalid-utf-8",
        ) from None
    return parse_text(text, name, fmt=fmt, limits=limits, readers=readers)


def parse_text(
    text: str,
    name: str,
    *,
    fmt: Format | None = None,
    limits: Limits = DEFAULT_LIMITS,
    readers: Readers = FULL_READERS,
) -> Source:
    if fmt is None:
        fmt = "json" if text.lstrip()[:1] in ("{", "[") else "yaml"
    try:
        if fmt == "json":
            data = readers.json(text, name, limits)
            return Source(name, "json", text, data)
        return Source(name, "yaml", text, readers.yaml(text, limits, name))
    except DescriptionError as exc:
        # The text travels with the error so a report can quote the offending line.
        exc.text = text
        raise
