"""Load a description (JSON or the spec's restricted YAML profile) with a source map.

Both formats end up as plain JSON data plus a map from JSON Pointer to 1-based line and
column. YAML is read from libyaml's event stream (``CParser``) rather than composed into
nodes: the walk below is iterative, so a 100k-deep document cannot exhaust the Python
stack, and every profile rule (one document, no aliases/anchors, no custom tags, no
duplicate or non-string keys, JSON-like scalars) is checked on the event that breaks it.
"""

from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml

from ..diagnostics import Diagnostic, error
from ..errors import DescriptionError, UsageError
from . import pointer as jp

Format = Literal["json", "yaml"]
RULE = "mcpdesc.serialization.yaml-profile"
SYNTAX_RULE = "mcpdesc.serialization.syntax"
LIMITS_RULE = "mcpdesc.input.limits"


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds applied to untrusted input before and while it is parsed."""

    max_bytes: int = 32 * 1024 * 1024
    max_depth: int = 128
    max_nodes: int = 2_000_000
    max_string_length: int = 1_000_000
    """Characters in one string (a key or a value)."""
    max_primitives: int = 10_000
    """Tools, resources, resource templates and prompts together (checked by the validator)."""

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return ("max_bytes", "max_depth", "max_nodes", "max_string_length", "max_primitives")


DEFAULT_LIMITS = Limits()


@dataclass(slots=True)
class SourceMap:
    """JSON Pointer -> (line, column), both 1-based."""

    keys: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Where a mapping member's key starts (the place an author looks for a member)."""
    values: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Where a value starts (array items, and the document itself)."""

    def locate(self, pointer: str) -> tuple[int, int]:
        """The position of the pointer, or of its nearest located ancestor."""
        current = pointer
        while True:
            position = self.keys.get(current) or self.values.get(current)
            if position is not None:
                return position
            if not current:
                return (1, 1)
            current = jp.parent(current)

    def locate_value(self, pointer: str) -> tuple[int, int]:
        position = self.values.get(pointer)
        return position if position is not None else self.locate(pointer)


# libyaml refuses JSON's surrogate-pair escapes (\ud83d\ude00). For the position pass
# only, each is swapped for an escape of the same length, so columns stay exact.
_SURROGATE_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


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
        # JSON is parsed by the fast ``json`` module; positions are only worked out
        # (through the same event walk YAML uses) when a diagnostic needs placing.
        if self._source_map is None:
            text = _SURROGATE_ESCAPE.sub(r"\1\\u0020", self.text) if self.format == "json" else self.text
            try:
                _, self._source_map = _walk_yaml_events(text, DEFAULT_LIMITS, self.name)
            except DescriptionError:
                self._source_map = SourceMap()
        return self._source_map

    def place(self, diagnostic: Diagnostic) -> Diagnostic:
        line, column = self.source_map.locate(diagnostic.path)
        return diagnostic.located(self.name, line, column)


def _fatal(name: str, message: str, line: int, column: int, *, code: str, rule: str = RULE) -> DescriptionError:
    return DescriptionError([error(rule, code, message, "").located(name, line, column)])


def read_source(path: Path, *, limits: Limits = DEFAULT_LIMITS, name: str | None = None) -> Source:
    """Read and parse a description file. Raises UsageError for I/O problems and
    DescriptionError for anything wrong with the content."""
    display = name or str(path)
    try:
        size = os.stat(path).st_size
        if not path.is_file():
            raise UsageError(f"{display}: not a file")
        if size > limits.max_bytes:
            raise _fatal(
                display,
                f"file is {size} bytes; the limit is {limits.max_bytes} bytes",
                1,
                1,
                code="input-too-large",
                rule=LIMITS_RULE,
            )
        with open(path, "rb") as handle:
            raw = handle.read(limits.max_bytes + 1)
    except FileNotFoundError:
        raise UsageError(f"{display}: no such file") from None
    except IsADirectoryError:
        raise UsageError(f"{display}: is a directory") from None
    except PermissionError:
        raise UsageError(f"{display}: permission denied") from None
    suffix = path.suffix.lower()
    fmt: Format | None = "json" if suffix == ".json" else "yaml" if suffix in {".yaml", ".yml"} else None
    return parse_bytes(raw, display, fmt=fmt, limits=limits)


def parse_bytes(raw: bytes, name: str, *, fmt: Format | None = None, limits: Limits = DEFAULT_LIMITS) -> Source:
    if len(raw) > limits.max_bytes:
        raise _fatal(
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
        raise _fatal(
            name,
            f"input is not valid UTF-8 (byte 0x{raw[exc.start]:02x})",
            line,
            column,
            code="invalid-utf-8",
        ) from None
    return parse_text(text, name, fmt=fmt, limits=limits)


def parse_text(text: str, name: str, *, fmt: Format | None = None, limits: Limits = DEFAULT_LIMITS) -> Source:
    if fmt is None:
        fmt = "json" if text.lstrip()[:1] in ("{", "[") else "yaml"
    if fmt == "json":
        data = _parse_json(text, name, limits)
        return Source(name, "json", text, data)
    data, source_map = _walk_yaml_events(text, limits, name)
    return Source(name, "yaml", text, data, source_map)


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


def _object_without_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
    result: dict[str, object] = {}
    for key, value in pairs:
        if key in result:
            raise _DuplicateKey(key)
        result[key] = value
    return result


def _reject_constant(token: str) -> object:
    raise ValueError(token)


_JSON_BRACKETS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


def _json_depth_exceeds(text: str, limit: int) -> tuple[int, int] | None:
    """Find the first bracket nested deeper than ``limit`` (skipping strings), so that a
    hostile file is refused before ``json`` recurses into it."""
    depth = 0
    for match in _JSON_BRACKETS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > limit:
                return _offset_position(text, match.start())
        elif token in "]}":
            depth -= 1
    return None


def _offset_position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _parse_json(text: str, name: str, limits: Limits) -> object:
    too_deep = _json_depth_exceeds(text, limits.max_depth)
    if too_deep is not None:
        raise _fatal(
            name,
            f"nesting deeper than {limits.max_depth} levels",
            *too_deep,
            code="input-too-deep",
            rule=LIMITS_RULE,
        )
    try:
        data = json.loads(text, object_pairs_hook=_object_without_duplicates, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise _fatal(
            name, f"invalid JSON: {exc.msg}", exc.lineno, exc.colno, code="json-syntax", rule=SYNTAX_RULE
        ) from None
    except _DuplicateKey as exc:
        # The event walk reports the duplicate at its exact position.
        _walk_yaml_events(text, limits, name)
        raise _fatal(name, f"duplicate key {exc.key!r}", 1, 1, code="duplicate-key") from None
    except ValueError as exc:
        position = _offset_position(text, max(text.find(str(exc)), 0))
        raise _fatal(name, f"non-finite number {exc} is not allowed", *position, code="non-finite-number") from None
    _check_json_values(data, name, text, limits)
    if _SURROGATE_ESCAPE.search(text) is not None:
        _refuse_lone_surrogates(data, name, text)
    return data


def _refuse_lone_surrogates(data: object, name: str, text: str) -> None:
    """``json`` turns an unpaired escape such as ``\\ud800`` into a lone surrogate, which is
    not a Unicode character: no page could be written with it. YAML's reader already
    refuses these; JSON must too, at the escape's position."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            strings: list[str] = list(value)
            stack.extend(value.values())
        elif isinstance(value, list):
            strings = []
            stack.extend(value)
        else:
            strings = [value] if isinstance(value, str) else []
        if any(_LONE_SURROGATE.search(string) for string in strings):
            raise _fatal(
                name,
                "a \\u escape encodes a lone UTF-16 surrogate, which is not a Unicode character",
                *_offset_position(text, _first_lone_surrogate_escape(text)),
                code="lone-surrogate",
                rule=SYNTAX_RULE,
            )


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _first_lone_surrogate_escape(text: str) -> int:
    """Offset of the first surrogate escape that is not half of a high-low pair."""
    matches = list(_SURROGATE_ESCAPE.finditer(text))
    index = 0
    while index < len(matches):
        match = matches[index]
        escape = match.start() + len(match.group(1))
        high = text[escape + 2 : escape + 6].lower() < "dc00"
        following = matches[index + 1] if index + 1 < len(matches) else None
        if high and following is not None and following.start() == match.end() and not following.group(1):
            low = text[following.end() - 4 : following.end()].lower() >= "dc00"
            if low:
                index += 2
                continue
        return escape
    return 0


def _check_json_values(data: object, name: str, text: str, limits: Limits) -> None:
    """Limits and number rules ``json`` does not enforce. Failures are located by re-reading
    the text with the event walk, which checks the same limits and raises at the spot."""
    stack = [data]
    nodes = 0
    while stack:
        value = stack.pop()
        nodes += 1
        # Literals such as 1e999 overflow to infinity without ever reaching parse_constant.
        if isinstance(value, float) and not math.isfinite(value):
            raise _fatal(name, "a number overflows to a non-finite value", 1, 1, code="non-finite-number")
        too_long = isinstance(value, str) and len(value) > limits.max_string_length
        if isinstance(value, dict):
            too_long = any(len(key) > limits.max_string_length for key in value)
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        if too_long or nodes > limits.max_nodes:
            _walk_yaml_events(_SURROGATE_ESCAPE.sub(r"\1\\u0020", text), limits, name)
            raise _fatal(name, "the input exceeds a size limit", 1, 1, code="input-limits", rule=LIMITS_RULE)


# JSON-like scalar resolution (the YAML 1.2 JSON schema): only these plain scalars are
# not strings, so `2026-07-28`, `yes`, `on` and `0x1F` stay strings.
_INT = re.compile(r"-?(?:0|[1-9][0-9]*)")
_FLOAT = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?")
_STR_TAG = "tag:yaml.org,2002:str"


class _NonFinite(Exception):
    pass


def _resolve_plain(value: str) -> object:
    if value == "null" or value == "":
        return None
    if value == "true":
        return True
    if value == "false":
        return False
    if _INT.fullmatch(value):
        return int(value)
    if _FLOAT.fullmatch(value):
        number = float(value)
        if not math.isfinite(number):
            raise _NonFinite(value)
        return number
    return value


def _mark(mark: Any) -> tuple[int, int]:
    # libyaml's marks and PyYAML's share line/column attributes but not a type.
    if mark is None:
        return (1, 1)
    return int(mark.line) + 1, int(mark.column) + 1


class _MappingFrame:
    __slots__ = ("container", "first_seen", "key", "key_position", "pointer")

    def __init__(self, container: dict[str, object], pointer: str) -> None:
        self.container = container
        self.pointer = pointer
        self.key: str | None = None
        self.key_position: tuple[int, int] = (1, 1)
        self.first_seen: dict[str, tuple[int, int]] = {}


class _SequenceFrame:
    __slots__ = ("container", "pointer")

    def __init__(self, container: list[object], pointer: str) -> None:
        self.container = container
        self.pointer = pointer


def _walk_yaml_events(text: str, limits: Limits, name: str) -> tuple[object, SourceMap]:
    source_map = SourceMap()
    parser = yaml.CSafeLoader(text)
    stack: list[_MappingFrame | _SequenceFrame] = []
    root: object = None
    documents = 0
    nodes = 0

    def fail(message: str, position: tuple[int, int], code: str, rule: str = RULE) -> DescriptionError:
        return _fatal(name, message, *position, code=code, rule=rule)

    try:
        while True:
            try:
                event = parser.get_event()
            except yaml.MarkedYAMLError as exc:
                mark = exc.problem_mark or exc.context_mark
                position = _mark(mark) if mark is not None else (1, 1)
                problem = exc.problem or exc.context or "syntax error"
                if "nesting depth" in problem:  # libyaml's own bound (1000), met while scanning ahead
                    raise fail(
                        f"nesting deeper than {limits.max_depth} levels",
                        position,
                        "input-too-deep",
                        LIMITS_RULE,
                    ) from None
                raise fail(f"invalid YAML: {problem}", position, "yaml-syntax", SYNTAX_RULE) from None
            except yaml.reader.ReaderError as exc:
                position = _offset_position(text, exc.position)
                raise fail(f"invalid YAML: {exc.reason}", position, "yaml-syntax", SYNTAX_RULE) from None
            if event is None or isinstance(event, yaml.StreamEndEvent):
                break
            if isinstance(event, yaml.StreamStartEvent | yaml.DocumentEndEvent):
                continue
            if isinstance(event, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    raise fail(
                        "a description holds exactly one YAML document", _mark(event.start_mark), "multiple-documents"
                    )
                continue
            if isinstance(event, yaml.AliasEvent):
                raise fail(f"YAML aliases are not allowed (*{event.anchor})", _mark(event.start_mark), "yaml-alias")
            if isinstance(event, yaml.MappingEndEvent | yaml.SequenceEndEvent):
                stack.pop()
                continue
            assert isinstance(event, yaml.NodeEvent)
            position = _mark(event.start_mark)
            if event.anchor is not None:
                raise fail(f"YAML anchors are not allowed (&{event.anchor})", position, "yaml-anchor")
            nodes += 1
            if nodes > limits.max_nodes:
                raise fail(f"more than {limits.max_nodes} values", position, "input-too-many-nodes", LIMITS_RULE)

            value: object
            if isinstance(event, yaml.ScalarEvent):
                if len(event.value) > limits.max_string_length:
                    raise fail(
                        f"a string of {len(event.value)} characters; the limit is {limits.max_string_length}",
                        position,
                        "input-string-too-long",
                        LIMITS_RULE,
                    )
                if event.tag not in (None, "!", _STR_TAG):
                    raise fail(f"YAML tags are not allowed ({event.tag})", position, "yaml-tag")
                plain = event.tag is None and event.implicit[0]
                try:
                    value = _resolve_plain(event.value) if plain else event.value
                except _NonFinite:
                    raise fail(
                        f"non-finite number {event.value} is not allowed", position, "non-finite-number"
                    ) from None
            else:
                assert isinstance(event, yaml.CollectionStartEvent)
                collection_tag = event.tag
                if collection_tag not in (None, "!"):
                    raise fail(f"YAML tags are not allowed ({collection_tag})", position, "yaml-tag")
                if len(stack) >= limits.max_depth:
                    raise fail(
                        f"nesting deeper than {limits.max_depth} levels",
                        position,
                        "input-too-deep",
                        LIMITS_RULE,
                    )
                value = {} if isinstance(event, yaml.MappingStartEvent) else []

            if not stack:
                root = value
                current = ""
                source_map.values[""] = position
            else:
                frame = stack[-1]
                if isinstance(frame, _MappingFrame):
                    if frame.key is None:
                        if not isinstance(value, str):
                            shown = event.value if isinstance(event, yaml.ScalarEvent) else "a collection"
                            raise fail(f"mapping keys must be strings (found {shown})", position, "non-string-key")
                        first = frame.first_seen.get(value)
                        if first is not None:
                            raise fail(
                                f"duplicate key {value!r} (first at line {first[0]}, column {first[1]})",
                                position,
                                "duplicate-key",
                            )
                        frame.first_seen[value] = position
                        frame.key = value
                        frame.key_position = position
                        continue
                    current = jp.join(frame.pointer, frame.key)
                    frame.container[frame.key] = value
                    source_map.keys[current] = frame.key_position
                    frame.key = None
                else:
                    current = jp.join(frame.pointer, len(frame.container))
                    frame.container.append(value)
                source_map.values[current] = position
            if isinstance(value, dict):
                stack.append(_MappingFrame(value, current))
            elif isinstance(value, list):
                stack.append(_SequenceFrame(value, current))
    finally:
        parser.dispose()
    if documents == 0:
        raise _fatal(name, "the file holds no YAML document", 1, 1, code="empty-document")
    return root, source_map
