"""YAML in the spec's restricted profile, read from libyaml's event stream.

The walk is iterative, so a 100k-deep document cannot exhaust the Python stack, and
every profile rule (one document, no aliases or anchors, no custom tags, no duplicate or
non-string keys, JSON-like scalars) is checked on the event that breaks it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import yaml

from ..errors import DescriptionError
from . import pointer as jp
from .limits import LIMITS_RULE, Limits, integer_out_of_range, integer_out_of_range_message
from .positions import PROFILE_RULE, SYNTAX_RULE, SourceMap, fatal, offset_position
from .yaml_hints import yaml_hint

# JSON-like scalar resolution (the YAML 1.2 JSON schema): only these plain scalars are
# not strings, so `2026-07-28`, `yes`, `on` and `0x1F` stay strings.
_INT = re.compile(r"-?(?:0|[1-9][0-9]*)")
_FLOAT = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?")
_STR_TAG = "tag:yaml.org,2002:str"


class _NonFinite(Exception):
    pass


class _IntegerOutOfRange(Exception):
    pass


def _resolve_plain(value: str) -> object:
    if value == "null" or value == "":
        return None
    if value == "true":
        return True
    if value == "false":
        return False
    if _INT.fullmatch(value):
        if integer_out_of_range(value):
            raise _IntegerOutOfRange(value)
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


class _Walk:
    """One pass over the events of one text: builds the data and the source map."""

    def __init__(self, text: str, limits: Limits, name: str) -> None:
        self.text = text
        self.limits = limits
        self.name = name
        self.source_map = SourceMap()
        self.stack: list[_MappingFrame | _SequenceFrame] = []
        self.root: object = None
        self.documents = 0
        self.nodes = 0

    def fail(self, message: str, position: tuple[int, int], code: str, rule: str = PROFILE_RULE) -> DescriptionError:
        return fatal(self.name, message, *position, code=code, rule=rule)

    def too_deep(self, position: tuple[int, int]) -> DescriptionError:
        return self.fail(f"nesting deeper than {self.limits.max_depth} levels", position, "input-too-deep", LIMITS_RULE)

    def run(self) -> tuple[object, SourceMap]:
        parser = yaml.CSafeLoader(self.text)
        try:
            while True:
                event = self.next_event(parser)
                if event is None or isinstance(event, yaml.StreamEndEvent):
                    break
                self.handle(event)
        finally:
            parser.dispose()
        if self.documents == 0:
            raise fatal(self.name, "the file holds no YAML document", 1, 1, code="empty-document")
        return self.root, self.source_map

    def next_event(self, parser: yaml.CSafeLoader) -> yaml.Event | None:
        try:
            return parser.get_event()
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            position = _mark(mark) if mark is not None else (1, 1)
            problem = exc.problem or exc.context or "syntax error"
            if "nesting depth" in problem:  # libyaml's own bound (1000), met while scanning ahead
                raise self.too_deep(position) from None
            opened = _mark(exc.context_mark)[0] if exc.context_mark is not None else None
            hint = yaml_hint(problem, exc.context, self.text, *position, context_line=opened)
            raise fatal(
                self.name, f"invalid YAML: {problem}", *position, code="yaml-syntax", rule=SYNTAX_RULE, hint=hint
            ) from None
        except yaml.reader.ReaderError as exc:
            position = offset_position(self.text, exc.position)
            raise self.fail(f"invalid YAML: {exc.reason}", position, "yaml-syntax", SYNTAX_RULE) from None

    def handle(self, event: yaml.Event) -> None:
        if isinstance(event, yaml.StreamStartEvent | yaml.DocumentEndEvent):
            return
        if isinstance(event, yaml.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                raise self.fail(
                    "a description holds exactly one YAML document", _mark(event.start_mark), "multiple-documents"
                )
            return
        if isinstance(event, yaml.AliasEvent):
            raise self.fail(f"YAML aliases are not allowed (*{event.anchor})", _mark(event.start_mark), "yaml-alias")
        if isinstance(event, yaml.MappingEndEvent | yaml.SequenceEndEvent):
            self.stack.pop()
            return
        assert isinstance(event, yaml.NodeEvent)
        position = _mark(event.start_mark)
        if event.anchor is not None:
            raise self.fail(f"YAML anchors are not allowed (&{event.anchor})", position, "yaml-anchor")
        self.nodes += 1
        if self.nodes > self.limits.max_nodes:
            raise self.fail(f"more than {self.limits.max_nodes} values", position, "input-too-many-nodes", LIMITS_RULE)
        if isinstance(event, yaml.ScalarEvent):
            value = self.scalar(event, position)
        else:
            assert isinstance(event, yaml.CollectionStartEvent)
            value = self.collection(event, position)
        self.attach(event, value, position)

    def scalar(self, event: yaml.ScalarEvent, position: tuple[int, int]) -> object:
        if len(event.value) > self.limits.max_string_length:
            raise self.fail(
                f"a string of {len(event.value)} characters; the limit is {self.limits.max_string_length}",
                position,
                "input-string-too-long",
                LIMITS_RULE,
            )
        if event.tag not in (None, "!", _STR_TAG):
            raise self.fail(f"YAML tags are not allowed ({event.tag})", position, "yaml-tag")
        plain = event.tag is None and event.implicit[0]
        try:
            return _resolve_plain(event.value) if plain else event.value
        except _NonFinite:
            raise self.fail(f"non-finite number {event.value} is not allowed", position, "non-finite-number") from None
        except _IntegerOutOfRange:
            message = integer_out_of_range_message(event.value)
            raise self.fail(message, position, "input-number-too-large", LIMITS_RULE) from None

    def collection(self, event: yaml.CollectionStartEvent, position: tuple[int, int]) -> object:
        if event.tag not in (None, "!"):
            raise self.fail(f"YAML tags are not allowed ({event.tag})", position, "yaml-tag")
        if len(self.stack) >= self.limits.max_depth:
            raise self.too_deep(position)
        return {} if isinstance(event, yaml.MappingStartEvent) else []

    def attach(self, event: yaml.NodeEvent, value: object, position: tuple[int, int]) -> None:
        """Put a new value where it belongs: the root, a mapping's key or value, or a sequence."""
        if not self.stack:
            self.root = value
            current = ""
        else:
            frame = self.stack[-1]
            if isinstance(frame, _MappingFrame):
                if frame.key is None:
                    self.take_key(frame, event, value, position)
                    return
                current = jp.join(frame.pointer, frame.key)
                frame.container[frame.key] = value
                self.source_map.keys[current] = frame.key_position
                frame.key = None
            else:
                current = jp.join(frame.pointer, len(frame.container))
                frame.container.append(value)
        self.source_map.values[current] = position
        if isinstance(value, dict):
            self.stack.append(_MappingFrame(value, current))
        elif isinstance(value, list):
            self.stack.append(_SequenceFrame(value, current))

    def take_key(self, frame: _MappingFrame, event: yaml.NodeEvent, key: object, position: tuple[int, int]) -> None:
        if not isinstance(key, str):
            shown = event.value if isinstance(event, yaml.ScalarEvent) else "a collection"
            raise self.fail(f"mapping keys must be strings (found {shown})", position, "non-string-key")
        first = frame.first_seen.get(key)
        if first is not None:
            raise self.fail(
                f"duplicate key {key!r} (first at line {first[0]}, column {first[1]})", position, "duplicate-key"
            )
        frame.first_seen[key] = position
        frame.key = key
        frame.key_position = position


def walk_yaml_events(text: str, limits: Limits, name: str) -> tuple[object, SourceMap]:
    """The data of a YAML (or JSON) text and where every value came from; any profile
    violation raises a located DescriptionError."""
    return _Walk(text, limits, name).run()


class Refused(Exception):
    """The fast walk met something the profile refuses; the full walk says what and where."""


_FIRST_CHARS_OF_NON_STRINGS = frozenset("-0123456789ntf")


class SequenceLayout:
    """Where the items of one sequence under the root mapping start in the text (offsets
    in characters) and how many nodes the document had before each: what an incremental
    re-read needs to cut one item out of the text and put its data back in place."""

    __slots__ = ("end", "nodes", "starts")

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.nodes: list[int] = []
        """Nodes before each item; one more entry, for the sequence's end."""
        self.end = 0
        """Where the sequence ends (its end event's offset)."""


RootLayout = dict[str, SequenceLayout]
"""By root key: the layout of each sequence the root mapping holds."""


def fast_data(text: str, limits: Limits, layout: RootLayout | None = None) -> tuple[object, int]:
    """The data of a text that keeps to the profile, without positions (they cost more
    than the data itself), and its number of nodes: every refusal of ``_Walk`` is
    detected, but only as ``Refused``, so that ``_Walk`` can report it with its position
    and wording. ``layout``, when given, is filled with the root sequences' layouts."""
    parser = yaml.CSafeLoader(text)
    sequence: SequenceLayout | None = None  # the root sequence being read, for ``layout``
    containers: list[dict[str, object] | list[object]] = []
    pending_keys: list[str | None] = []  # per open container; None: a key comes next (or a sequence)
    root: object = None
    documents = nodes = 0
    max_nodes, max_length, max_depth = limits.max_nodes, limits.max_string_length, limits.max_depth
    try:
        get_event: Callable[[], Any] = parser.get_event  # events differ in their attributes
        while True:
            event = get_event()
            kind = type(event)
            if kind is yaml.ScalarEvent:
                text_value: str = event.value
                tag = event.tag
                if event.anchor is not None or len(text_value) > max_length:
                    raise Refused
                if tag is None:
                    plain = event.implicit[0] and (not text_value or text_value[0] in _FIRST_CHARS_OF_NON_STRINGS)
                    value: object = _resolve_plain(text_value) if plain else text_value
                elif tag == "!" or tag == _STR_TAG:
                    value = text_value
                else:
                    raise Refused
            elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
                if event.anchor is not None or event.tag not in (None, "!") or len(containers) >= max_depth:
                    raise Refused
                value = {} if kind is yaml.MappingStartEvent else []
            elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                if sequence is not None and len(containers) == 2:
                    sequence.end = event.start_mark.index
                    sequence.nodes.append(nodes)
                    sequence = None
                containers.pop()
                pending_keys.pop()
                continue
            elif kind is yaml.StreamEndEvent:
                break
            elif kind is yaml.DocumentStartEvent:
                documents += 1
                if documents > 1:
                    raise Refused
                continue
            elif kind is yaml.StreamStartEvent or kind is yaml.DocumentEndEvent:
                continue
            else:  # an alias
                raise Refused
            if sequence is not None and len(containers) == 2:
                sequence.starts.append(event.start_mark.index)
                sequence.nodes.append(nodes)
            nodes += 1
            if nodes > max_nodes:
                raise Refused
            if not containers:
                root = value
            else:
                container = containers[-1]
                if type(container) is dict:
                    key = pending_keys[-1]
                    if key is None:
                        if type(value) is not str or value in container:
                            raise Refused
                        pending_keys[-1] = value
                        continue
                    container[key] = value
                    pending_keys[-1] = None
                    if layout is not None and type(value) is list and len(containers) == 1:
                        sequence = layout[key] = SequenceLayout()
                else:
                    container.append(value)  # type: ignore[union-attr]
            if type(value) is dict or type(value) is list:
                containers.append(value)
                pending_keys.append(None)
    except (yaml.YAMLError, _NonFinite, _IntegerOutOfRange):
        raise Refused from None
    finally:
        parser.dispose()
    if documents == 0:
        raise Refused
    return root, nodes


def read_yaml_data(text: str, limits: Limits, name: str, layout: RootLayout | None = None) -> object:
    """The data of a YAML text in the profile, without a source map (``yaml_source_map``
    builds one when a diagnostic needs a position); a violation raises the same located
    DescriptionError as ``walk_yaml_events``. ``layout``: see ``fast_data``."""
    try:
        return fast_data(text, limits, layout)[0]
    except Refused:
        data, _ = walk_yaml_events(text, limits, name)
        return data  # not reached: the full walk refuses what the fast one did


def yaml_source_map(text: str) -> SourceMap:
    """The source map ``walk_yaml_events`` builds, for a text that already passed it: the
    same positions, without the data or the profile checks."""
    source_map = SourceMap()
    keys, values = source_map.keys, source_map.values
    # One entry per open container: its pointer, the pending key and its position (a
    # mapping) or the next index (a sequence).
    pointers: list[str] = []
    pending: list[str | int | None] = []
    key_positions: list[tuple[int, int]] = []
    parser = yaml.CSafeLoader(text)
    try:
        get_event: Callable[[], Any] = parser.get_event  # events differ in their attributes
        while True:
            event = get_event()
            kind = type(event)
            is_start = kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent
            if kind is yaml.ScalarEvent or is_start:
                mark = event.start_mark
                position = (mark.line + 1, mark.column + 1)
                if not pointers:
                    current = ""
                else:
                    slot = pending[-1]
                    if slot is None:  # a mapping's key
                        pending[-1] = event.value
                        key_positions[-1] = position
                        continue
                    if type(slot) is int:
                        current = pointers[-1] + "/" + str(slot)
                        pending[-1] = slot + 1
                    else:
                        current = pointers[-1] + "/" + jp.escape(slot)
                        keys[current] = key_positions[-1]
                        pending[-1] = None
                values[current] = position
                if is_start:
                    pointers.append(current)
                    pending.append(None if kind is yaml.MappingStartEvent else 0)
                    key_positions.append((1, 1))
            elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                pointers.pop()
                pending.pop()
                key_positions.pop()
            elif kind is yaml.StreamEndEvent:
                break
    finally:
        parser.dispose()
    return source_map
