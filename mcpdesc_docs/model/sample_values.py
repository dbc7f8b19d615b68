"""Values for request samples that a server would accept: each one is meant to validate
against the schema it was made for, so a reader can copy a sample and send it.

For one schema the value is, in this order: its first example, its default (when of the
declared type), its const or first enum value, a value for its format, else a placeholder
of its type within its bounds (length, range, item count). An object holds its required
properties and those optional ones with one of the first four (a placeholder for an
optional property only invites a reader to send what the server would not miss).

Schemas are untrusted: the work is bounded (``MAX_VALUES`` values in all,
``MAX_PROPERTIES`` per object, ``MAX_DEPTH`` levels, ``MAX_ITEMS`` array items) and only
references inside the same schema (``#/...``) are followed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ..source import pointer as jp
from ..validation.document import as_list, as_object
from .pattern_sample import pattern_sample

MAX_PROPERTIES = 30
"""Properties of one object given a value."""
MAX_DEPTH = 6
"""Levels of nesting given values (and references followed in a row)."""
MAX_VALUES = 200
"""Values in one sample."""
MAX_ITEMS = 3
"""Items given to an array that needs some (``minItems``)."""
MAX_STRING = 64
"""Characters of a placeholder string stretched to a ``minLength``."""

_FORMATS: dict[str, str] = {
    "date-time": "2025-01-01T12:00:00Z",
    "date": "2025-01-01",
    "time": "12:00:00Z",
    "duration": "P1D",
    "email": "user@example.com",
    "idn-email": "user@example.com",
    "hostname": "example.com",
    "idn-hostname": "example.com",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "uri": "https://example.com/",
    "iri": "https://example.com/",
    "uri-reference": "https://example.com/",
    "iri-reference": "https://example.com/",
    "url": "https://example.com/",
    "uri-template": "https://example.com/{id}",
    "uuid": "123e4567-e89b-12d3-a456-426614174000",
    "json-pointer": "/path",
    "relative-json-pointer": "0",
    "regex": ".*",
}
_TYPE_OF = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array", dict: "object"}


class _Unset:
    """No value: an optional property that gets none is left out."""


UNSET = _Unset()


def _type_matches(value: object, kind: str) -> bool:
    if value is None:
        return kind == "null"
    actual = _TYPE_OF.get(type(value))
    if actual == "integer" and kind == "number":
        return True
    if actual == "number" and kind == "integer":
        return isinstance(value, float) and value.is_integer()
    return actual == kind or (actual == "object" and kind == "object" and isinstance(value, Mapping))


def _types(schema: Mapping[str, Any]) -> list[str]:
    declared = schema.get("type")
    if isinstance(declared, str):
        return [declared]
    return [t for t in as_list(declared) if isinstance(t, str)]


def _of_declared_type(value: object, schema: Mapping[str, Any]) -> bool:
    kinds = _types(schema)
    return not kinds or any(_type_matches(value, kind) for kind in kinds)


def _number(schema: Mapping[str, Any], integer: bool) -> int | float:
    """A number within the schema's bounds: the lower one, else 0 or the upper one."""
    low, high = _bound(schema, "minimum"), _bound(schema, "maximum")
    low_open, high_open = _bound(schema, "exclusiveMinimum"), _bound(schema, "exclusiveMaximum")
    value: float = 0
    if low is not None:
        value = low
    elif low_open is not None:
        value = math.floor(low_open) + 1 if integer else low_open + 1
    if high is not None and value > high:
        value = high
    if high_open is not None and value >= high_open:
        value = math.ceil(high_open) - 1 if integer else high_open - 1
    step = _bound(schema, "multipleOf")
    if step is not None and step > 0 and value % step:
        value = math.ceil(value / step) * step
    if integer or (isinstance(value, float) and value.is_integer() and abs(value) < 2**53):
        return int(value)
    return value


def _bound(schema: Mapping[str, Any], key: str) -> float | None:
    value = schema.get(key)
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return value
    return None


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _string(schema: Mapping[str, Any]) -> str:
    low, high = schema.get("minLength"), schema.get("maxLength")
    pattern = schema.get("pattern")
    if isinstance(pattern, str):
        minimum = low if isinstance(low, int) and not isinstance(low, bool) else 0
        found = pattern_sample(pattern, minimum=minimum)
        if found is not None:
            return found
    text = "string"
    if isinstance(low, int) and not isinstance(low, bool) and low > len(text):
        text = (text * (min(low, MAX_STRING) // len(text) + 1))[: max(min(low, MAX_STRING), len(text))]
    if isinstance(high, int) and not isinstance(high, bool) and 0 <= high < len(text):
        text = text[:high]
    return text


class SampleValues:
    """Values for the schemas under one root, within a budget of ``MAX_VALUES`` values: a
    schema whose references fan out (each property the same large object) stays a short
    sample, and a chain of references back to itself ends."""

    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root
        self.left = MAX_VALUES

    def _resolved(self, schema: Mapping[str, Any]) -> Mapping[str, Any]:
        for _ in range(MAX_DEPTH):
            ref = schema.get("$ref")
            if not (isinstance(ref, str) and ref.startswith("#")):
                break
            try:
                target = jp.lookup(self.root, ref[1:])
            except (KeyError, IndexError, ValueError, TypeError):
                break
            if not isinstance(target, Mapping):
                break
            # Siblings of $ref (2019-09 and later) still apply: they win over the target's.
            schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
        return schema

    def _merged(self, schema: Mapping[str, Any]) -> Mapping[str, Any]:
        """The schema with its ``allOf`` branches' properties and requirements folded in."""
        branches = [as_object(b) for b in as_list(schema.get("allOf"))[:MAX_PROPERTIES]]
        if not branches:
            return schema
        merged: dict[str, Any] = {}
        properties: dict[str, Any] = {}
        required: list[Any] = []
        for branch in (*(self._resolved(b) for b in branches), schema):
            merged.update({k: v for k, v in branch.items() if k not in ("allOf", "properties", "required")})
            properties.update(as_object(branch.get("properties")))
            required.extend(as_list(branch.get("required")))
        if properties:
            merged["properties"] = properties
        if required:
            merged["required"] = required
        return merged

    def known(self, schema: Mapping[str, Any]) -> Any:
        """A value the schema itself gives (example, default, const, enum, format), or UNSET."""
        for example in as_list(schema.get("examples"))[:1]:
            return example
        if "default" in schema and _of_declared_type(schema["default"], schema):
            return schema["default"]
        if "const" in schema:
            return schema["const"]
        for value in as_list(schema.get("enum"))[:1]:
            return value
        fmt = schema.get("format")
        if isinstance(fmt, str) and fmt in _FORMATS and (not _types(schema) or "string" in _types(schema)):
            return _FORMATS[fmt]
        return UNSET

    def value(self, schema: object, depth: int = 0, *, required: bool = True) -> Any:
        """A value for ``schema``; for an optional one (``required=False``) UNSET unless
        the schema gives one."""
        self.left -= 1
        if not isinstance(schema, Mapping):
            return "value" if required and schema is not False else UNSET
        schema = self._merged(self._resolved(schema))
        found = self.known(schema)
        if found is not UNSET or not required:
            return found
        if depth >= MAX_DEPTH or self.left < 0:
            return "value"
        kinds = _types(schema)
        branches = as_list(schema.get("oneOf")) or as_list(schema.get("anyOf"))
        if not kinds and branches:
            return self.value(branches[0], depth + 1)
        kind = next((k for k in kinds if k != "null"), kinds[0] if kinds else None)
        if kind == "object" or (kind is None and isinstance(schema.get("properties"), Mapping)):
            return self._object(schema, depth)
        if kind == "array":
            return self._array(schema, depth)
        if kind in ("integer", "number"):
            return _number(schema, kind == "integer")
        if kind == "boolean":
            return True
        if kind == "null":
            return None
        return _string(schema)

    def _object(self, schema: Mapping[str, Any], depth: int) -> dict[str, Any]:
        required = {name for name in as_list(schema.get("required")) if isinstance(name, str)}
        result: dict[str, Any] = {}
        properties = as_object(schema.get("properties"))
        for name, sub in list(properties.items())[:MAX_PROPERTIES]:
            if self.left <= 0:
                break  # a schema too large to sample in full: what is left is left out
            value = self.value(sub, depth + 1, required=name in required)
            if value is not UNSET:
                result[str(name)] = value
        for name in sorted(required - set(properties))[: max(0, min(MAX_PROPERTIES, self.left))]:
            extra = schema.get("additionalProperties")
            result[name] = self.value(extra if isinstance(extra, Mapping) else {}, depth + 1)
        return result

    def _array(self, schema: Mapping[str, Any], depth: int) -> list[Any]:
        # One item at least, so the sample shows what an item looks like (unless none may be).
        low, high = schema.get("minItems"), schema.get("maxItems")
        count = min(low, MAX_ITEMS) if isinstance(low, int) and not isinstance(low, bool) and low > 1 else 1
        if isinstance(high, int) and not isinstance(high, bool) and high < count:
            count = max(high, 0)
        if count == 1 and not isinstance(schema.get("items"), Mapping) and not schema.get("prefixItems"):
            count = 0  # an array of anything: an empty one says as much
        prefix = as_list(schema.get("prefixItems"))
        items = schema.get("items")
        values = [self.value(sub, depth + 1) for sub in prefix[:count]]
        while len(values) < count:
            values.append(self.value(items if isinstance(items, Mapping) else {}, depth + 1))
        if schema.get("uniqueItems") is True:
            values = _distinct(values)
        return values


def _distinct(values: list[Any]) -> list[Any]:
    """Placeholders repeat: strings and numbers are told apart by their position."""
    return [f"{v}{i}" if isinstance(v, str) and i else v + i if _is_number(v) else v for i, v in enumerate(values)]


def sample_arguments(schema: Mapping[str, Any]) -> Any:
    """The arguments of a call whose input schema is ``schema``: an object."""
    value = SampleValues(schema).value(schema)
    return value if isinstance(value, Mapping) else {}


__all__ = ["MAX_VALUES", "UNSET", "SampleValues", "sample_arguments"]
