"""Strict JSON with the same limits and refusals as the YAML profile.

``json`` does the parsing (fast); positions are only worked out, through the YAML event
walk over the same text, when a failure needs locating.
"""

from __future__ import annotations

import json
import math
import re

from .limits import LIMITS_RULE, Limits, integer_out_of_range, integer_out_of_range_message
from .positions import PROFILE_RULE, SYNTAX_RULE, fatal, offset_position
from .yaml_events import walk_yaml_events

# libyaml refuses JSON's surrogate-pair escapes (\ud83d\ude00). For the position pass
# only, each is swapped for an escape of the same length, so columns stay exact.
SURROGATE_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def positions_text(text: str) -> str:
    """The JSON text as the event walk can read it (same length, same positions)."""
    return SURROGATE_ESCAPE.sub(r"\1\\u0020", text)


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


class _NumberRefused(Exception):
    """A number literal the YAML profile refuses too, so the event walk can locate it."""

    def __init__(self, literal: str, message: str, code: str, rule: str) -> None:
        self.literal = literal
        self.message = message
        self.code = code
        self.rule = rule


def _integer(literal: str) -> int:
    # Checked before int(): Python refuses integers of more than 4,300 digits with a
    # ValueError that would be taken for a non-finite constant.
    if integer_out_of_range(literal):
        raise _NumberRefused(literal, integer_out_of_range_message(literal), "input-number-too-large", LIMITS_RULE)
    return int(literal)


def _float(literal: str) -> float:
    number = float(literal)
    if not math.isfinite(number):  # 1e999 overflows to infinity without reaching parse_constant
        raise _NumberRefused(literal, f"non-finite number {literal} is not allowed", "non-finite-number", PROFILE_RULE)
    return number


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
                return offset_position(text, match.start())
        elif token in "]}":
            depth -= 1
    return None


def parse_json(text: str, name: str, limits: Limits) -> object:
    """JSON data, strictly: no duplicate keys, no NaN or infinity, no lone surrogates, within the limits."""
    try:
        data = json.loads(
            text,
            object_pairs_hook=_object_without_duplicates,
            parse_constant=_reject_constant,
            parse_int=_integer,
            parse_float=_float,
        )
    except RecursionError:
        # Nested deeper than Python's recursion limit: refused at the first bracket past
        # ours (json stops itself, at a bounded depth, before the stack could run out).
        _refuse_too_deep(text, name, limits)
        data = walk_yaml_events(positions_text(text), limits, name)[0]  # a limit raised past Python's
    except json.JSONDecodeError as exc:
        _refuse_too_deep(text, name, limits)  # nesting is reported first, as before parsing
        raise fatal(
            name, f"invalid JSON: {exc.msg}", exc.lineno, exc.colno, code="json-syntax", rule=SYNTAX_RULE
        ) from None
    except _DuplicateKey as exc:
        _refuse_too_deep(text, name, limits)
        # The event walk reports the duplicate at its exact position.
        walk_yaml_events(text, limits, name)
        raise fatal(name, f"duplicate key {exc.key!r}", 1, 1, code="duplicate-key") from None
    except _NumberRefused as exc:
        _refuse_too_deep(text, name, limits)
        # The event walk refuses the same literal, at its position.
        walk_yaml_events(positions_text(text), limits, name)
        position = offset_position(text, max(text.find(exc.literal), 0))
        raise fatal(name, exc.message, *position, code=exc.code, rule=exc.rule) from None
    except ValueError as exc:
        _refuse_too_deep(text, name, limits)
        position = offset_position(text, max(text.find(str(exc)), 0))
        raise fatal(name, f"non-finite number {exc} is not allowed", *position, code="non-finite-number") from None
    _check_json_values(data, name, text, limits)
    if has_surrogate_escape(text):
        _refuse_lone_surrogates(data, name, text)
    return data


def _refuse_too_deep(text: str, name: str, limits: Limits) -> None:
    too_deep = _json_depth_exceeds(text, limits.max_depth)
    if too_deep is not None:
        raise fatal(
            name,
            f"nesting deeper than {limits.max_depth} levels",
            *too_deep,
            code="input-too-deep",
            rule=LIMITS_RULE,
        )


_BACKSLASHES_BEFORE_SURROGATE = re.compile(r"(\\+)u[dD][89a-fA-F][0-9a-fA-F]{2}")


def has_surrogate_escape(text: str) -> bool:
    """Whether the text holds a ``\\uD800``-``\\uDFFF`` escape (``SURROGATE_ESCAPE`` finds the
    same ones: an escape is one when an odd run of backslashes precedes the ``u``), without
    that pattern's look-behind at every character (100 ms on 2.4 MB)."""
    if "\\u" not in text:  # most texts: one fast scan
        return False
    return any(len(match.group(1)) % 2 for match in _BACKSLASHES_BEFORE_SURROGATE.finditer(text))


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
            raise fatal(
                name,
                "a \\u escape encodes a lone UTF-16 surrogate, which is not a Unicode character",
                *offset_position(text, _first_lone_surrogate_escape(text)),
                code="lone-surrogate",
                rule=SYNTAX_RULE,
            )


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _first_lone_surrogate_escape(text: str) -> int:
    """Offset of the first surrogate escape that is not half of a high-low pair."""
    matches = list(SURROGATE_ESCAPE.finditer(text))
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


def values_within_limits(value: object, level: int, limits: Limits) -> tuple[bool, int]:
    """Whether ``value`` (a container at ``level``, the root being 1, as
    ``_json_depth_exceeds`` counts on the text) keeps to the nesting, node and string
    limits ``json`` does not enforce, and how many values it holds (itself included: what
    ``max_nodes`` counts). Stops at the first value past a limit."""
    stack: list[tuple[object, int]] = [(value, level)]
    nodes = 0
    max_depth, max_length = limits.max_depth, limits.max_string_length
    while stack:
        current, depth = stack.pop()
        nodes += 1
        if isinstance(current, str):
            within = len(current) <= max_length
        elif isinstance(current, dict):
            within = depth <= max_depth and all(len(key) <= max_length for key in current)
            stack.extend((child, depth + 1) for child in current.values())
        elif isinstance(current, list):
            within = depth <= max_depth
            stack.extend((child, depth + 1) for child in current)
        else:
            within = True
        if not within or nodes > limits.max_nodes:
            return False, nodes
    return True, nodes


def _check_json_values(data: object, name: str, text: str, limits: Limits) -> None:
    """The limits ``json`` does not enforce. Failures are located by re-reading the text:
    nesting first (as if checked before parsing), then the event walk, which checks the
    same limits and raises at the spot."""
    if not values_within_limits(data, 1, limits)[0]:
        _refuse_too_deep(text, name, limits)
        walk_yaml_events(positions_text(text), limits, name)
        raise fatal(name, "the input exceeds a size limit", 1, 1, code="input-limits", rule=LIMITS_RULE)


_STRICT_DECODER = json.JSONDecoder(
    object_pairs_hook=_object_without_duplicates,
    parse_constant=_reject_constant,
    parse_int=_integer,
    parse_float=_float,
)
_ITEM_LEVEL = 3
"""The level of an item of an array under the root object (the root is level 1)."""


def decode_json_item(text: str, start: int, stop: int, limits: Limits) -> tuple[object, int] | None:
    """The value whose text is ``text[start:stop]``, an item of an array under the root
    object, decoded as ``parse_json`` would decode it in place, and its number of values;
    None when that text is not exactly one value, or when anything ``parse_json`` refuses
    (or looks into further, such as a surrogate escape) is in it: the caller then parses
    the whole text, which says what and where."""
    try:
        value, end = _STRICT_DECODER.raw_decode(text, start)
    except (ValueError, _DuplicateKey, _NumberRefused, RecursionError):
        return None
    if end != stop or has_surrogate_escape(text[start:stop]):
        return None
    within, nodes = values_within_limits(value, _ITEM_LEVEL, limits)
    return (value, nodes) if within else None
