"""Re-reading a YAML description after an edit, parsing only the item the edit touched.

``serve`` rebuilds on every save, and most saves change one tool, resource or prompt: an
item of a sequence under the root mapping, written in block style. When the changed text
lies inside one such item, and the item's new text is indented so that it cannot reach
outside it, parsing that text alone yields exactly the data a full parse would put there;
the item is parsed alone and put back in place. Anything else (an edit across items, a
line that is not indented past the item's start, a limit crossed, anything the item's
parse refuses) falls back to a full parse, which also gives any diagnostic its usual
position and wording. The data is then the same as a full parse's, byte for byte.

After a full parse (of JSON, or of YAML edited outside one item) every value is a new
object; ``SameObjects`` gives back the earlier objects of values that did not change, so
that what later stages cache by object is reused either way.
"""

from __future__ import annotations

import json
import operator
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from ..records import record
from .json_text import decode_json_item, parse_json, values_within_limits
from .limits import Limits
from .yaml_events import Refused, RootLayout, SequenceLayout, fast_data, read_yaml_data

_INDICATOR = re.compile(r" *- +")
"""What precedes an item on its first line: the block sequence's ``-``, spaces only."""
_OTHER_LINE_BREAKS = re.compile("[\r\x85\u2028\u2029]")
"""Line breaks YAML 1.1 knows besides ``\\n``: an item holding one is parsed in full (the
indentation check below reads lines split at ``\\n`` only)."""
_ITEM_DEPTH = 2
"""Containers around an item: the root mapping and its sequence."""
_CHUNK = 4096


@record
class _Read:
    text: str
    limits: Limits
    """What the text was read within: the rest of the text is not checked again."""
    data: dict[str, object]
    nodes: int
    layout: RootLayout


@record
class _JsonRead:
    text: str
    limits: Limits
    data: dict[str, object]
    nodes: int
    """Values in the document (as ``json_text`` counts them for ``max_nodes``)."""
    spans: dict[str, list[tuple[int, int]]]
    """By root member whose value is an array: where each item's text starts and ends."""
    item_nodes: dict[str, list[int]]


class _LastRead(Protocol):
    """What both readers keep of their last read (``_Read``, ``_JsonRead``)."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def limits(self) -> Limits: ...

    @property
    def data(self) -> dict[str, object]: ...


_Last = TypeVar("_Last", bound=_LastRead)


class _ItemReader(Generic[_Last]):
    """What the YAML and JSON readers share: the last successful read, which a read within
    the same limits tries to splice the edited item into before it parses in full."""

    def __init__(self, splice: Callable[[_Last, str, Limits], _Last | None]) -> None:
        self._last: _Last | None = None
        self._splice: Callable[[_Last, str, Limits], _Last | None] = splice
        self.reparsed_items = 0
        """Reads that did not parse the whole text (one item, or none for an unchanged text), for tests."""

    def adopt(self, read: object, kept: object) -> None:
        """Hold ``kept`` (the same data as the last read's ``read``, with some values swapped
        for equal objects by ``SameObjects``) as the last read's data, so the next read
        shares those objects."""
        if self._last is not None and self._last.data is read and type(kept) is dict:
            self._last = replace(self._last, data=kept)

    def _spliced(self, text: str, limits: Limits) -> dict[str, object] | None:
        """The data of ``text`` from the last read and the edited item, or None (and the
        last read is dropped) when the whole text must be parsed."""
        last = self._last
        if last is not None and last.limits == limits:
            spliced = self._splice(last, text, limits)
            if spliced is not None:
                self._last = spliced
                self.reparsed_items += 1
                return spliced.data
        self._last = None
        return None


class IncrementalYaml(_ItemReader[_Read]):
    """Reads successive versions of one YAML text, re-parsing only an edited item when it can."""

    def __init__(self) -> None:
        super().__init__(_splice)

    def read(self, text: str, limits: Limits, name: str) -> object:
        """The data of ``text``, as ``read_yaml_data`` gives it (raising its DescriptionError)."""
        spliced = self._spliced(text, limits)
        if spliced is not None:
            return spliced
        layout: RootLayout = {}
        try:
            data, nodes = fast_data(text, limits, layout)
        except Refused:
            return read_yaml_data(text, limits, name)  # raises, located
        if type(data) is dict:
            self._last = _Read(text, limits, data, nodes, layout)
        return data


def _common_prefix(a: str, b: str) -> int:
    end = min(len(a), len(b))
    at = 0
    while at < end and a[at : at + _CHUNK] == b[at : at + _CHUNK]:
        at += _CHUNK
    while at < end and a[at] == b[at]:
        at += 1
    return min(at, end)


def _common_suffix(a: str, b: str, limit: int) -> int:
    """The length of the common end of ``a`` and ``b``, at most ``limit``."""
    length = 0
    while (
        length + _CHUNK <= limit
        and a[len(a) - length - _CHUNK : len(a) - length] == b[len(b) - length - _CHUNK : len(b) - length]
    ):
        length += _CHUNK
    while length < limit and a[len(a) - length - 1] == b[len(b) - length - 1]:
        length += 1
    return length


def _changed(old: str, new: str) -> tuple[int, int]:
    """Where ``old`` differs from ``new``: ``old[start:end]`` is what the edit replaced
    (everything before and after it is the same in both)."""
    start = _common_prefix(old, new)
    return start, len(old) - _common_suffix(old, new, min(len(old), len(new)) - start)


def _line_start(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def _splice(last: _Read, text: str, limits: Limits) -> _Read | None:
    """The new read, from the last one and the edited item parsed alone; None when the edit
    does not stay inside one item (or the item cannot be shown to parse the same alone)."""
    old = last.text
    if text == old:
        return last
    prefix, changed_end = _changed(old, text)
    for key, sequence in last.layout.items():
        for index, start in enumerate(sequence.starts):
            if start > prefix:
                break
            region_end = _region_end(old, sequence, index)
            if changed_end > region_end:
                continue
            return _reparse(last, text, key, index, region_end, limits)
    return None


def _region_end(text: str, sequence: SequenceLayout, index: int) -> int:
    """Where item ``index``'s text ends: at the start of the line of what follows it (the
    next item's ``-``, or what ends the sequence)."""
    following = sequence.starts[index + 1] if index + 1 < len(sequence.starts) else sequence.end
    return following if following >= len(text) else _line_start(text, following)


def _reparse(last: _Read, text: str, key: str, index: int, region_end: int, limits: Limits) -> _Read | None:
    old = last.text
    sequence = last.layout[key]
    start = sequence.starts[index]
    line_start = _line_start(old, start)
    if not _INDICATOR.fullmatch(old, line_start, start):
        return None
    column = start - line_start
    delta = len(text) - len(old)
    item_text = text[start : region_end + delta]
    if region_end < len(old) and not item_text.endswith("\n"):
        return None  # text inserted before the next item's "-", on its line
    if not item_text.strip() or _OTHER_LINE_BREAKS.search(item_text) or not _stays_inside(item_text, column):
        return None
    depth = limits.max_depth - _ITEM_DEPTH
    if depth <= 0:
        return None
    try:
        item, nodes = fast_data(" " * column + item_text, replace(limits, max_depth=depth))
    except Refused:
        return None
    total = last.nodes - (sequence.nodes[index + 1] - sequence.nodes[index]) + nodes
    if total > limits.max_nodes:
        return None
    items = last.data[key]
    assert isinstance(items, list)
    data = dict(last.data)
    data[key] = [*items[:index], item, *items[index + 1 :]]
    return _Read(text, limits, data, total, _shifted(last.layout, key, index, start, nodes, delta))


def _stays_inside(item_text: str, column: int) -> bool:
    """Whether every line of the item after its first is blank, a comment, or indented to
    at least the item's own column: then nothing in it can end the item (or the sequence)
    early, and the item's parse alone sees the columns the full parse sees."""
    for line in item_text.split("\n")[1:]:
        content = line.lstrip(" ")
        if content and not content.startswith("#") and len(line) - len(content) < column:
            return False
    return True


def _shifted(layout: RootLayout, key: str, index: int, start: int, nodes: int, delta: int) -> RootLayout:
    """The layout after item ``index`` of ``key`` (at ``start``) became ``delta`` characters
    longer and holds ``nodes`` nodes: what follows it moves."""
    edited = layout[key]
    grown = nodes - (edited.nodes[index + 1] - edited.nodes[index])
    shifted: RootLayout = {}
    for name, sequence in layout.items():
        moved = SequenceLayout()
        moved.starts = [at + delta if at > start else at for at in sequence.starts]
        moved.end = sequence.end + delta if sequence.end > start else sequence.end
        if name == key:
            moved.nodes = [
                count + grown if position > index else count for position, count in enumerate(sequence.nodes)
            ]
        elif sequence.end > start:
            moved.nodes = [count + grown for count in sequence.nodes]
        else:
            moved.nodes = list(sequence.nodes)
        shifted[name] = moved
    return shifted


class SameObjects:
    """Gives values that did not change between two reads of a description the objects of
    the earlier read, so that what is cached by object (``model.PageCache``) is reused after
    a full parse too: a JSON description, or a YAML edit outside any one item.

    Values are compared by their compact JSON text, which tells 1, 1.0 and true apart and
    keeps key order (``==`` does neither). Each root member is compared whole, except the
    sequences under the root, whose items are matched one by one (wherever they moved)."""

    def __init__(self) -> None:
        self._last: dict[str, object] | None = None
        self._texts: dict[str, str | list[tuple[str, object]]] = {}

    def keep(self, data: object) -> object:
        """``data``, with each unchanged value replaced by the earlier read's object."""
        if type(data) is not dict:
            self._last, self._texts = None, {}
            return data
        last, texts = self._last, self._texts
        kept: dict[str, object] = {}
        new_texts: dict[str, str | list[tuple[str, object]]] = {}
        for key, value in data.items():
            old = last.get(key, _MISSING) if last is not None else _MISSING
            if old is value:  # already the earlier object (an incremental read)
                kept[key] = value
                new_texts[key] = texts[key]
            elif type(value) is list:
                earlier = texts.get(key)
                items, new_texts[key] = _kept_items(value, earlier if isinstance(earlier, list) else [])
                if type(old) is list and len(old) == len(items) and all(map(operator.is_, old, items)):
                    kept[key] = old  # every item as before, in place: the earlier list itself
                elif all(map(operator.is_, value, items)):
                    kept[key] = value  # nothing to give back: the list as read
                else:
                    kept[key] = items
            else:
                text = _text(value)
                same = old is not _MISSING and texts.get(key) == text
                kept[key] = old if same else value
                new_texts[key] = text
        self._last, self._texts = kept, new_texts
        return kept


_MISSING = object()


def _text(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _kept_items(
    items: list[object], earlier: list[tuple[str, object]]
) -> tuple[list[object], list[tuple[str, object]]]:
    """The items, each replaced by an earlier item of the same text (each earlier object
    given out once), and their texts. Items that are the earlier objects already (after an
    incremental read) keep their texts without being written out again."""
    by_id = {id(item): (text, item) for text, item in earlier}
    texts: list[str | None] = []
    reused: set[int] = set()
    for item in items:
        hit = by_id.get(id(item))
        if hit is not None and hit[1] is item:
            texts.append(hit[0])
            reused.add(id(item))
        else:
            texts.append(None)
    available: dict[str, list[object]] = {}
    for text, item in reversed(earlier):
        if id(item) not in reused:
            available.setdefault(text, []).append(item)
    kept: list[tuple[str, object]] = []
    for item, known in zip(items, texts, strict=True):
        if known is not None:
            kept.append((known, item))
            continue
        text = _text(item)
        matches = available.get(text)
        kept.append((text, matches.pop() if matches else item))
    return [item for _, item in kept], kept


class IncrementalJson(_ItemReader[_JsonRead]):
    """``IncrementalYaml``'s counterpart for JSON: an edit inside one item of an array under
    the root object re-decodes that item alone. JSON is context-free, so when the item's new
    text decodes as one value ending exactly where the old one ended (shifted by the edit),
    the document is the old one with that item replaced; the item is checked against the
    limits as the whole text would be. Anything else is a full ``parse_json``."""

    def __init__(self) -> None:
        super().__init__(_splice_json)

    def read(self, text: str, name: str, limits: Limits) -> object:
        """The data of ``text``, as ``parse_json`` gives it (raising its DescriptionError);
        the arguments in ``parse_json``'s order."""
        spliced = self._spliced(text, limits)
        if spliced is not None:
            return spliced
        data = parse_json(text, name, limits)
        spans = json_item_spans(text) if type(data) is dict else None
        if type(data) is dict and spans is not None:
            item_nodes = {key: [_values(item, limits) for item in as_items(data[key])] for key in spans}
            self._last = _JsonRead(text, limits, data, _values(data, limits), spans, item_nodes)
        return data


def _values(value: object, limits: Limits) -> int:
    """How many values ``value`` (data ``parse_json`` accepted within ``limits``, or a part
    of it, so the count runs to the end) holds, as ``parse_json`` counts them."""
    return values_within_limits(value, 1, limits)[1]


def as_items(value: object) -> list[object]:
    return value if isinstance(value, list) else []


_JSON_SPACE = re.compile(r"[ \t\n\r]*")
_PLAIN_DECODER = json.JSONDecoder()


def json_item_spans(text: str) -> dict[str, list[tuple[int, int]]] | None:
    """For a JSON text whose root is an object (one ``parse_json`` accepted): where the text
    of each item of each array-valued root member starts and ends. None for another root."""
    try:
        return _item_spans(text)
    except ValueError:  # not reached for a text parse_json accepted
        return None


def _item_spans(text: str) -> dict[str, list[tuple[int, int]]] | None:
    def skip(at: int) -> int:
        found = _JSON_SPACE.match(text, at)
        return found.end() if found is not None else at

    at = skip(0)
    if not text.startswith("{", at):
        return None
    spans: dict[str, list[tuple[int, int]]] = {}
    at = skip(at + 1)
    if text.startswith("}", at):
        return spans
    while True:
        key, at = json.decoder.scanstring(text, at + 1)  # type: ignore[attr-defined]
        at = skip(skip(at) + 1)  # past the colon
        if text.startswith("[", at):
            items: list[tuple[int, int]] = []
            at = skip(at + 1)
            while not text.startswith("]", at):
                _, end = _PLAIN_DECODER.raw_decode(text, at)
                items.append((at, end))
                at = skip(end)
                if text.startswith(",", at):
                    at = skip(at + 1)
            at += 1
            spans[key] = items
        else:
            _, at = _PLAIN_DECODER.raw_decode(text, at)
        at = skip(at)
        if text.startswith("}", at):
            return spans
        at = skip(at + 1)  # past the comma


def _splice_json(last: _JsonRead, text: str, limits: Limits) -> _JsonRead | None:
    old = last.text
    if text == old:
        return last
    prefix, changed_end = _changed(old, text)
    delta = len(text) - len(old)
    for key, items in last.spans.items():
        for index, (start, end) in enumerate(items):
            if start > prefix:
                break
            if changed_end > end:
                continue
            decoded = decode_json_item(text, start, end + delta, limits)
            if decoded is None:
                return None
            item, nodes = decoded
            total = last.nodes - last.item_nodes[key][index] + nodes
            if total > limits.max_nodes:
                return None
            values = last.data[key]
            assert isinstance(values, list)
            data = dict(last.data)
            data[key] = [*values[:index], item, *values[index + 1 :]]
            spans = {
                name: [
                    (begin + delta if begin > start else begin, finish + delta if finish > start else finish)
                    for begin, finish in found
                ]
                for name, found in last.spans.items()
            }
            item_nodes = {name: list(counts) for name, counts in last.item_nodes.items()}
            item_nodes[key][index] = nodes
            return _JsonRead(text, limits, data, total, spans, item_nodes)
    return None


__all__ = ["IncrementalJson", "IncrementalYaml", "SameObjects"]
