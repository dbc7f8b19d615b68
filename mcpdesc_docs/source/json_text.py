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
    too_deep = _json_depth_exceeds(text, limits.max_depth)
    if too_deep is not None:
        raise fatal(
            name,
            f"nesting deeper than {limits.max_depth} levels",
            *too_deep,
            code="input-too-deep",
            rule=LIMITS_RULE,
        )
    try:
        data = json.loads(
            text,
            object_pairs_hook=_object_without_duplicates,
            parse_constant=_reject_constant,
            parse_int=_integer,
            parse_float=_float,
        )
    except json.JSONDecodeError as exc:
        raise fatal(
            name, f"invalid JSON: {exc.msg}", exc.lineno, exc.colno, code="json-syntax", rule=SYNTAX_RULE
        ) from None
    except _DuplicateKey as exc:
        # The event walk reports the duplicate at its exact position.
        walk_yaml_events(text, limits, name)
        raise fatal(name, f"duplicate key {exc.key!r}", 1, 1, code="duplicate-key") from None
    except _NumberRefused as exc:
        # The event walk refuses the same literal, at its position.
        walk_yaml_events(positions_text(text), limits, name)
        position = offset_position(text, max(text.find(exc.literal), 0))
        raise fatal(name, exc.message, *position, code=exc.code, rule=exc.rule) from None
    except ValueError as exc:
        position = offset_position(text, max(text.find(str(exc)), 0))
        raise fatal(name, f"non-finite number {exc} is not allowed", *position, code="non-finite-number") from None
    _check_json_values(data, name, text, limits)
    if SURROGATE_ESCAPE.search(text) is not None:
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


def _check_json_values(data: object, name: str, text: str, limits: Limits) -> None:
    """Limits and number rules ``json`` does not enforce. Failures are located by re-reading
    the text with the event walk, which checks the same limits and raises at the spot."""
    stack = [data]
    nodes = 0
    while stack:
        value = stack.pop()
        nodes += 1
        too_long = isinstance(value, str) and len(value) > limits.max_string_length
        if isinstance(value, dict):
            too_long = any(len(key) > limits.max_string_length for key in value)
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        if too_long or nodes > limits.max_nodes:
            walk_yaml_events(positions_text(text), limits, name)
            raise fatal(name, "the input exceeds a size limit", 1, 1, code="input-limits", rule=LIMITS_RULE)
