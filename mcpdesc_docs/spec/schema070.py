"""The structural schema of mcpdesc 0.7.0, written for this project from the 0.7.0 text.

0.7.0 differs from 0.8.0 in shape (digest section 6): ``transports`` required and at least
one primitive, a single ``info.protocolVersion``, one open ``capabilities`` object,
``security`` as arrays of inline schemes, optional and loose tool ``inputSchema``, ``x-*``
at the root only, empty arrays allowed.
"""

from __future__ import annotations

from functools import cache
from typing import Any

Schema = dict[str, Any]

STRING: Schema = {"type": "string"}
NON_EMPTY: Schema = {"type": "string", "minLength": 1}
URI: Schema = {"type": "string", "format": "uri"}
BOOLEAN: Schema = {"type": "boolean"}
OBJECT: Schema = {"type": "object"}
REVISIONS_070 = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")


def closed(properties: dict[str, Schema], required: tuple[str, ...] = ()) -> Schema:
    schema: Schema = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = list(required)
    return schema


ICONS: Schema = {
    "type": "array",
    "items": closed(
        {
            "src": URI,
            "mimeType": STRING,
            "sizes": {"type": "array", "items": STRING},
            "theme": {"enum": ["light", "dark"]},
        },
        ("src",),
    ),
}
TAGS: Schema = {"type": "array", "uniqueItems": True, "items": STRING}
_FLOW = closed(
    {
        "authorizationUrl": URI,
        "tokenUrl": URI,
        "refreshUrl": URI,
        "scopes": {"type": "object", "additionalProperties": STRING},
    }
)
INLINE_SCHEMES: Schema = {
    "type": "array",
    "items": closed(
        {
            "type": {"enum": ["http", "apiKey", "oauth2", "openIdConnect"]},
            "scheme": STRING,
            "bearerFormat": STRING,
            "name": STRING,
            "in": {"enum": ["header", "query", "cookie"]},
            "flows": closed(
                {"implicit": _FLOW, "password": _FLOW, "clientCredentials": _FLOW, "authorizationCode": _FLOW}
            ),
            "openIdConnectUrl": URI,
            "description": STRING,
        },
        ("type",),
    ),
}
_LOOSE_SCHEMA: Schema = {
    "type": "object",
    "properties": {
        "$schema": STRING,
        "type": STRING,
        "properties": OBJECT,
        "required": {"type": "array", "items": STRING},
    },
}
_COMMON = {"title": STRING, "description": STRING, "icons": ICONS, "tags": TAGS, "deprecated": BOOLEAN, "_meta": OBJECT}

TOOL = closed(
    {
        "name": STRING,
        **_COMMON,
        "inputSchema": _LOOSE_SCHEMA,
        "outputSchema": _LOOSE_SCHEMA,
        "annotations": {
            "type": "object",
            "properties": {
                "title": STRING,
                "readOnlyHint": BOOLEAN,
                "destructiveHint": BOOLEAN,
                "idempotentHint": BOOLEAN,
                "openWorldHint": BOOLEAN,
            },
        },
        "execution": closed({"taskSupport": {"enum": ["forbidden", "optional", "required"]}}),
    },
    ("name",),
)
RESOURCE = closed(
    {"uri": STRING, "name": STRING, **_COMMON, "mimeType": STRING, "size": {"type": "number"}, "annotations": OBJECT},
    ("uri", "name"),
)
RESOURCE_TEMPLATE = closed(
    {"uriTemplate": STRING, "name": STRING, **_COMMON, "mimeType": STRING, "annotations": OBJECT},
    ("uriTemplate", "name"),
)
PROMPT = closed(
    {
        "name": STRING,
        **_COMMON,
        "arguments": {
            "type": "array",
            "items": closed({"name": STRING, "title": STRING, "description": STRING, "required": BOOLEAN}, ("name",)),
        },
    },
    ("name",),
)
_TRANSPORT_SECURITY = {"security": INLINE_SCHEMES}
TRANSPORT: Schema = {
    "type": "object",
    "required": ["type"],
    "properties": {"type": {"enum": ["streamable-http", "stdio", "sse"]}},
    "allOf": [
        {
            "if": {"properties": {"type": {"const": kind}}, "required": ["type"]},
            "then": closed({"type": STRING, **fields, **_TRANSPORT_SECURITY}, required),
        }
        for kind, fields, required in (
            ("streamable-http", {"url": URI}, ("url",)),
            ("sse", {"url": URI}, ("url",)),
            (
                "stdio",
                {
                    "command": STRING,
                    "args": {"type": "array", "items": STRING},
                    "env": {"type": "object", "additionalProperties": STRING},
                },
                ("command",),
            ),
        )
    ],
}
CAPABILITIES: Schema = {
    "type": "object",
    "properties": {
        "tools": {"type": "object", "properties": {"listChanged": BOOLEAN}},
        "resources": {"type": "object", "properties": {"subscribe": BOOLEAN, "listChanged": BOOLEAN}},
        "prompts": {"type": "object", "properties": {"listChanged": BOOLEAN}},
        "completions": OBJECT,
        "logging": OBJECT,
        "tasks": OBJECT,
        "experimental": OBJECT,
    },
}
INFO = closed(
    {
        "name": NON_EMPTY,
        "title": STRING,
        "description": STRING,
        "version": NON_EMPTY,
        "protocolVersion": {"enum": list(REVISIONS_070)},
        "id": STRING,
        "icons": ICONS,
        "websiteUrl": URI,
        "contact": closed({"name": STRING, "url": URI, "email": {"type": "string", "format": "email"}}),
        "license": closed({"name": STRING, "url": URI}, ("name",)),
    },
    ("name", "version"),
)


@cache
def document_schema_070() -> Schema:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "required": ["mcpdesc", "info", "transports"],
        "properties": {
            "$schema": STRING,
            "mcpdesc": {"const": "0.7.0"},
            "info": INFO,
            "transports": {"type": "array", "minItems": 1, "items": TRANSPORT},
            "security": INLINE_SCHEMES,
            "capabilities": CAPABILITIES,
            "tools": {"type": "array", "items": TOOL},
            "resources": {"type": "array", "items": RESOURCE},
            "resourceTemplates": {"type": "array", "items": RESOURCE_TEMPLATE},
            "prompts": {"type": "array", "items": PROMPT},
            "tags": {
                "type": "array",
                "uniqueItems": True,
                "items": closed({"name": NON_EMPTY, "description": STRING}, ("name",)),
            },
        },
        "patternProperties": {"^x-": {}},
        "additionalProperties": False,
        "anyOf": [{"required": [member]} for member in ("tools", "resources", "resourceTemplates", "prompts")],
    }
