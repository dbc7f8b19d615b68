"""Building blocks of our structural schemas: closed objects, non-empty collections,
``type``-discriminated unions and the small shapes several objects share."""

from __future__ import annotations

from typing import Any

from .revisions import REVISIONS

Schema = dict[str, Any]

NAME_PATTERN = "^[A-Za-z0-9._-]+$"
"""Written as ECMA-262 reads it (``$`` is the end of the text); the structural validator
matches with RE2, which agrees, rather than Python's ``re``, which does not."""
EXTENSIONS: Schema = {"^x-": {}}


def closed(
    properties: dict[str, Schema],
    required: tuple[str, ...] = (),
    *,
    extensions: bool = True,
    **extra: object,
) -> Schema:
    """An object with exactly these members (plus ``x-*`` where the spec allows them)."""
    schema: Schema = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = list(required)
    if extensions:
        schema["patternProperties"] = EXTENSIONS
    schema.update(extra)
    return schema


def non_empty_array(items: Schema, **extra: Any) -> Schema:
    return {"type": "array", "minItems": 1, "items": items, **extra}


def non_empty_map(values: Schema, *, names: str | None = NAME_PATTERN, **extra: Any) -> Schema:
    schema: Schema = {"type": "object", "minProperties": 1, "additionalProperties": values}
    if names is not None:
        schema["propertyNames"] = {"pattern": names}
    schema.update(extra)
    return schema


def by_type(variants: dict[str, Schema], **extra: Any) -> Schema:
    """A ``type``-discriminated union, as if/then pairs so a failure names one variant."""
    return {
        "type": "object",
        "required": ["type"],
        "properties": {"type": {"enum": list(variants)}},
        "allOf": [
            {"if": {"properties": {"type": {"const": name}}, "required": ["type"]}, "then": variant}
            for name, variant in variants.items()
        ],
        **extra,
    }


def one_or_more(item: Schema) -> Schema:
    """One item, or a non-empty array of them (as if/else, so a failure names the item)."""
    return {"if": {"type": "array"}, "then": non_empty_array(item), "else": item}


STRING: Schema = {"type": "string"}
NON_EMPTY_STRING: Schema = {"type": "string", "minLength": 1}
NUMBER: Schema = {"type": "number"}
URI: Schema = {"type": "string", "format": "uri"}
BOOLEAN: Schema = {"type": "boolean"}
OBJECT: Schema = {"type": "object"}
SCOPE: Schema = {
    "type": "array",
    "minItems": 1,
    "uniqueItems": True,
    "items": {"enum": list(REVISIONS)},
}

ICON = closed(
    {
        "src": URI,
        "mimeType": STRING,
        "sizes": {"type": "array", "items": STRING},
        "theme": {"enum": ["light", "dark"]},
    },
    ("src",),
)
ICONS = non_empty_array(ICON)

TOOL_ANNOTATIONS: Schema = {
    # Open, as in MCP: unknown hints are kept (a misspelt known one is a warning of ours).
    "type": "object",
    "properties": {
        "title": STRING,
        "readOnlyHint": BOOLEAN,
        "destructiveHint": BOOLEAN,
        "idempotentHint": BOOLEAN,
        "openWorldHint": BOOLEAN,
    },
}

RESOURCE_ANNOTATIONS: Schema = {
    "type": "object",
    "properties": {
        "audience": {"type": "array", "items": {"enum": ["user", "assistant"]}},
        "priority": {"type": "number", "minimum": 0, "maximum": 1},
        "lastModified": STRING,
    },
}

OBJECT_ROOT_SCHEMA: Schema = {"type": "object", "required": ["type"], "properties": {"type": {"const": "object"}}}
"""A JSON Schema whose root is ``type: object`` (tool input schemas)."""
