"""The project's own structural JSON Schema (Draft 2020-12) for mcpdesc 0.8.0 / 0.9.0-rc.3.

Written from the specification digest; built in code so that the closed-object and
extension rules are stated once. Subschemas carry annotation keywords of ours that JSON
Schema ignores: ``x-requirement`` (the 0.9.0-rc.3 ``req-*`` anchor a failure there
violates) and ``x-message`` / ``x-member`` / ``x-code`` (a precise message, the member it
is about and the diagnostic code, for conditional requirements whose raw jsonschema text
would say little).
Everything that depends on protocol revisions, references or cross-object consistency is
left to the semantic rules.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from .revisions import REVISIONS
from .versions import Specification

Schema = dict[str, Any]

NAME_PATTERN = "^[A-Za-z0-9._-]+$"
_LABEL = "[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
EXTENSION_ID_PATTERN = f"^{_LABEL}(?:\\.{_LABEL})*/[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$"
EXTENSIONS: Schema = {"^x-": {}}
NAMESPACES = ("schemas", "toolExamples", "resourceExamples", "resourceTemplateExamples", "promptExamples")


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


STRING: Schema = {"type": "string"}
NON_EMPTY_STRING: Schema = {"type": "string", "minLength": 1}
URI: Schema = {"type": "string", "format": "uri"}
BOOLEAN: Schema = {"type": "boolean"}
OBJECT: Schema = {"type": "object"}
SCOPE: Schema = {
    "type": "array",
    "minItems": 1,
    "uniqueItems": True,
    "items": {"enum": list(REVISIONS)},
}


def reference() -> Schema:
    return {
        "type": "object",
        "required": ["$componentRef"],
        "properties": {
            "$componentRef": {
                "type": "string",
                # Any namespace: pointing at the wrong one is a semantic error with its
                # own code (wrong-component-reference-namespace).
                "pattern": f"^#/components/({'|'.join(NAMESPACES)})/[A-Za-z0-9._-]+$",
            }
        },
        "additionalProperties": False,
    }


def reference_or(inline: Schema) -> Schema:
    """A Reference Object when ``$componentRef`` is present, else the inline shape. Which
    namespace a use site needs is checked by the components rule."""
    return {
        "if": {"type": "object", "required": ["$componentRef"]},
        "then": reference(),
        "else": inline,
    }


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

SECURITY_REQUIREMENTS: Schema = {
    "type": "array",
    "items": {
        "type": "object",
        "propertyNames": {"pattern": NAME_PATTERN},
        "additionalProperties": {"type": "array", "items": STRING},
    },
}

CLIENT_REQUIREMENTS: Schema = {
    "type": "object",
    "minProperties": 1,
    "properties": {"protocolVersions": {}},  # refused once, by the allOf below
    "patternProperties": EXTENSIONS,
    "additionalProperties": OBJECT,
    "allOf": [
        {
            # Written as `not required` rather than a `false` subschema: jsonschema
            # loses the instance path of a `false` failure.
            "not": {"required": ["protocolVersions"]},
            "x-message": "'clientRequirements' has no protocol scope of its own; remove 'protocolVersions'",
            "x-member": "protocolVersions",
            "x-code": "invalid-client-requirement-value",
        }
    ],
}

TAG_REFERENCES: Schema = {"type": "array", "minItems": 1, "uniqueItems": True, "items": NON_EMPTY_STRING}

FORM_SCHEMA: Schema = {
    # The property-level vocabulary is checked by the elicitation rules after component
    # references are resolved (req-elicitation-schema-references-resolved).
    "type": "object",
    "x-requirement": "req-elicitation-form-shape",
}


def _elicitation() -> Schema:
    def when_mode(mode: str, then: Schema) -> Schema:
        return {"if": {"properties": {"mode": {"const": mode}}, "required": ["mode"]}, "then": then}

    declaration = closed(
        {
            "name": {"type": "string", "pattern": NAME_PATTERN, "x-requirement": "req-elicitation-name-format"},
            "mode": {"enum": ["form", "url"], "x-requirement": "req-elicitation-declaration-fields"},
            "message": {"type": "string", "minLength": 1, "x-requirement": "req-elicitation-message"},
            "when": {"type": "string", "minLength": 1, "x-requirement": "req-elicitation-documentation-fields"},
            "requestedSchema": reference_or(FORM_SCHEMA),
            "url": {"type": "string", "format": "uri", "x-requirement": "req-elicitation-url-syntax"},
            "onDecline": {"type": "string", "minLength": 1, "x-requirement": "req-elicitation-documentation-fields"},
            "onCancel": {"type": "string", "minLength": 1, "x-requirement": "req-elicitation-documentation-fields"},
            "protocolVersions": {**SCOPE, "x-requirement": "req-elicitation-scope"},
        },
        ("name", "mode", "message"),
    )
    declaration.update(
        {
            "x-requirement": "req-elicitation-declaration-fields",
            "allOf": [
                when_mode(
                    "form",
                    {
                        "required": ["requestedSchema"],
                        "x-requirement": "req-elicitation-form-schema-required",
                        "x-message": "form-mode declaration {name} needs 'requestedSchema'",
                        "x-code": "elicitation-form-schema-missing",
                    },
                ),
                when_mode(
                    "form",
                    {
                        "not": {"required": ["url"]},
                        "x-requirement": "req-elicitation-form-no-url",
                        "x-message": "form-mode declaration {name} must not have 'url'",
                        "x-code": "elicitation-form-url",
                        "x-member": "url",
                    },
                ),
                when_mode(
                    "url",
                    {
                        "not": {"required": ["requestedSchema"]},
                        "x-requirement": "req-elicitation-url-no-schema",
                        "x-message": "url-mode declaration {name} must not have 'requestedSchema'",
                        "x-code": "elicitation-url-schema",
                        "x-member": "requestedSchema",
                    },
                ),
            ],
        }
    )
    return declaration


ELICITATIONS = non_empty_array(_elicitation(), **{"x-requirement": "req-elicitations-non-empty"})

TOOL_ANNOTATIONS: Schema = {
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

INPUT_SCHEMA = reference_or(
    {"type": "object", "required": ["type"], "properties": {"type": {"const": "object"}}},
)
OUTPUT_SCHEMA = reference_or({"type": ["object", "boolean"]})

TOOL_EXAMPLE = closed({"input": OBJECT, "result": OBJECT}, ("input", "result"))
RESOURCE_EXAMPLE = closed({"result": OBJECT}, ("result",))
TEMPLATE_EXAMPLE = closed({"uri": URI, "result": OBJECT}, ("uri", "result"))
PROMPT_EXAMPLE = closed(
    {"arguments": {"type": "object", "additionalProperties": STRING}, "result": OBJECT}, ("result",)
)


def _mode(mode: str, then: Schema) -> Schema:
    return {"if": {"properties": {"mode": {"const": mode}}, "required": ["mode"]}, "then": then}


# Steps show what the server asks of the client and the answer (native MCP shapes, so no
# x-* inside request and response; the step wrapper itself allows x-*).
_STEP_COMMON = {"type": STRING, "request": OBJECT, "response": OBJECT}
STEP = by_type(
    {
        "elicitation": closed(
            {
                **_STEP_COMMON,
                "declaration": STRING,
                "request": {
                    "type": "object",
                    "required": ["mode", "message"],
                    "properties": {"mode": {"enum": ["form", "url"]}, "message": NON_EMPTY_STRING},
                    "allOf": [
                        _mode(
                            "form",
                            closed(
                                {"mode": STRING, "message": STRING, "requestedSchema": OBJECT},
                                ("requestedSchema",),
                                extensions=False,
                            ),
                        ),
                        _mode(
                            "url",
                            closed(
                                {"mode": STRING, "message": STRING, "url": URI, "elicitationId": STRING},
                                ("url",),
                                extensions=False,
                            ),
                        ),
                    ],
                },
                "response": closed(
                    {"action": {"enum": ["accept", "decline", "cancel"]}, "content": OBJECT, "_meta": OBJECT},
                    ("action",),
                    extensions=False,
                ),
            },
            ("request", "response"),
        ),
        "sampling": closed(
            {
                **_STEP_COMMON,
                "request": {
                    "type": "object",
                    "required": ["messages", "maxTokens"],
                    "properties": {
                        "messages": non_empty_array(
                            {
                                "type": "object",
                                "required": ["role", "content"],
                                "properties": {"role": {"enum": ["user", "assistant"]}},
                            }
                        ),
                        "maxTokens": {"type": "integer", "minimum": 1},
                        "includeContext": {"enum": ["none", "thisServer", "allServers"]},
                        "toolChoice": {
                            "type": "object",
                            "properties": {"mode": {"enum": ["auto", "required", "none"]}},
                        },
                    },
                },
                "response": {
                    "type": "object",
                    "required": ["role", "content", "model"],
                    "properties": {"role": {"const": "assistant"}, "model": STRING},
                },
            },
            ("request", "response"),
        ),
        "roots": closed(
            {
                **_STEP_COMMON,
                "request": closed({}, extensions=False),  # roots/list takes no parameters
                "response": {
                    "type": "object",
                    "required": ["roots"],
                    "properties": {
                        "roots": {
                            "type": "array",
                            "items": closed({"uri": URI, "name": STRING, "_meta": OBJECT}, ("uri",), extensions=False),
                        }
                    },
                },
            },
            ("request", "response"),
        ),
    }
)
INTERACTION_EXAMPLE = closed(
    {"input": OBJECT, "steps": non_empty_array(STEP), "result": OBJECT},
    ("input", "steps", "result"),
)
COMPLETION_EXAMPLE = closed(
    {
        "argument": closed({"name": STRING, "value": STRING}, ("name", "value")),
        "context": closed({"arguments": {"type": "object", "minProperties": 1, "additionalProperties": STRING}}),
        "result": OBJECT,
    },
    ("argument", "result"),
)


def examples(example: Schema) -> Schema:
    return non_empty_map(reference_or(example))


def _primitive_common() -> dict[str, Schema]:
    return {
        "protocolVersions": SCOPE,
        "name": NON_EMPTY_STRING,
        "title": STRING,
        "description": STRING,
        "icons": ICONS,
        "tags": TAG_REFERENCES,
        "elicitations": ELICITATIONS,
        "deprecated": BOOLEAN,
        "_meta": OBJECT,
        "security": SECURITY_REQUIREMENTS,
        "clientRequirements": CLIENT_REQUIREMENTS,
    }


TOOL = closed(
    {
        **_primitive_common(),
        "inputSchema": INPUT_SCHEMA,
        "outputSchema": OUTPUT_SCHEMA,
        "annotations": TOOL_ANNOTATIONS,
        "execution": closed({"taskSupport": {"enum": ["forbidden", "optional", "required"]}}, extensions=False),
        "examples": examples(TOOL_EXAMPLE),
        "interactionExamples": non_empty_map(INTERACTION_EXAMPLE),
    },
    ("name", "inputSchema"),
)

RESOURCE = closed(
    {
        **_primitive_common(),
        "uri": STRING,
        "mimeType": STRING,
        "size": {"type": "number", "minimum": 0},
        "annotations": RESOURCE_ANNOTATIONS,
        "examples": examples(RESOURCE_EXAMPLE),
    },
    ("uri", "name"),
)

RESOURCE_TEMPLATE = closed(
    {
        **_primitive_common(),
        "uriTemplate": NON_EMPTY_STRING,
        "mimeType": STRING,
        "annotations": RESOURCE_ANNOTATIONS,
        "examples": examples(TEMPLATE_EXAMPLE),
        "completionExamples": non_empty_map(COMPLETION_EXAMPLE),
    },
    ("uriTemplate", "name"),
)

PROMPT = closed(
    {
        **_primitive_common(),
        "arguments": non_empty_array(
            closed(
                {"name": NON_EMPTY_STRING, "title": STRING, "description": STRING, "required": BOOLEAN},
                ("name",),
            )
        ),
        "examples": examples(PROMPT_EXAMPLE),
        "completionExamples": non_empty_map(COMPLETION_EXAMPLE),
    },
    ("name",),
)

_TRANSPORT_COMMON = {"type": STRING, "protocolVersions": SCOPE, "security": SECURITY_REQUIREMENTS}
TRANSPORT = by_type(
    {
        "streamable-http": closed({**_TRANSPORT_COMMON, "url": URI}, ("url",)),
        "sse": closed({**_TRANSPORT_COMMON, "url": URI}, ("url",)),
        "stdio": closed(
            {
                **_TRANSPORT_COMMON,
                "command": NON_EMPTY_STRING,
                "args": {"type": "array", "items": STRING},
                "env": {"type": "object", "additionalProperties": STRING},
            },
            ("command",),
        ),
    }
)


def _oauth_flow(*urls: str) -> Schema:
    properties: dict[str, Schema] = {
        "authorizationUrl": URI,
        "tokenUrl": URI,
        "refreshUrl": URI,
        "scopes": {"type": "object", "additionalProperties": STRING},
    }
    return closed(properties, (*urls, "scopes"))


_SCHEME_COMMON = {"type": STRING, "description": STRING}
SECURITY_SCHEME = by_type(
    {
        "http": closed({**_SCHEME_COMMON, "scheme": NON_EMPTY_STRING, "bearerFormat": STRING}, ("scheme",)),
        "apiKey": closed(
            {**_SCHEME_COMMON, "name": NON_EMPTY_STRING, "in": {"enum": ["header", "query", "cookie"]}},
            ("name", "in"),
        ),
        "oauth2": closed(
            {
                **_SCHEME_COMMON,
                "flows": closed(
                    {
                        "implicit": _oauth_flow("authorizationUrl"),
                        "password": _oauth_flow("tokenUrl"),
                        "clientCredentials": _oauth_flow("tokenUrl"),
                        "authorizationCode": _oauth_flow("authorizationUrl", "tokenUrl"),
                    },
                    minProperties=1,
                    anyOf=[
                        {"required": [flow]}
                        for flow in ("implicit", "password", "clientCredentials", "authorizationCode")
                    ],
                ),
            },
            ("flows",),
        ),
        "openIdConnect": closed({**_SCHEME_COMMON, "openIdConnectUrl": URI}, ("openIdConnectUrl",)),
    }
)

_LIST_CHANGED = closed({"listChanged": BOOLEAN})
CAPABILITIES = closed(
    {
        "protocolVersions": SCOPE,
        "tools": _LIST_CHANGED,
        "resources": closed({"subscribe": BOOLEAN, "listChanged": BOOLEAN}),
        "prompts": _LIST_CHANGED,
        "completions": OBJECT,
        "logging": OBJECT,
        "tasks": {
            "type": "object",
            "properties": {
                "list": OBJECT,
                "cancel": OBJECT,
                "requests": {
                    "type": "object",
                    "properties": {"tools": {"type": "object", "properties": {"call": OBJECT}}},
                },
            },
        },
        "extensions": non_empty_map(OBJECT, names=EXTENSION_ID_PATTERN),
        "experimental": OBJECT,
    }
)

INFO = closed(
    {
        "name": NON_EMPTY_STRING,
        "version": NON_EMPTY_STRING,
        "title": STRING,
        "description": STRING,
        "id": STRING,
        "icons": ICONS,
        "websiteUrl": URI,
        "contact": closed({"name": STRING, "url": URI, "email": {"type": "string", "format": "email"}}),
        "license": closed({"name": NON_EMPTY_STRING, "url": URI}, ("name",)),
    },
    ("name", "version"),
)

JSON_SCHEMA_VALUE: Schema = {"type": ["object", "boolean"]}

COMPONENTS = closed(
    {
        "schemas": non_empty_map(JSON_SCHEMA_VALUE),
        "toolExamples": non_empty_map(reference_or(TOOL_EXAMPLE)),
        "resourceExamples": non_empty_map(reference_or(RESOURCE_EXAMPLE)),
        "resourceTemplateExamples": non_empty_map(reference_or(TEMPLATE_EXAMPLE)),
        "promptExamples": non_empty_map(reference_or(PROMPT_EXAMPLE)),
    },
    minProperties=1,
)


@cache
def document_schema(spec: Specification) -> Schema:
    """The structural schema for documents of ``spec`` (built once per process)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": spec.schema_uri,
        "title": f"MCP Description {spec.name} (structural schema of mcpdesc-docs)",
        **closed(
            {
                "$schema": URI,
                "mcpdesc": {"const": spec.mcpdesc},
                "info": INFO,
                "protocolVersions": SCOPE,
                "instructions": STRING,
                "transports": non_empty_array(TRANSPORT),
                "securitySchemes": non_empty_map(SECURITY_SCHEME),
                "security": SECURITY_REQUIREMENTS,
                "components": COMPONENTS,
                "capabilities": non_empty_array(CAPABILITIES),
                "tools": non_empty_array(TOOL),
                "resources": non_empty_array(RESOURCE),
                "resourceTemplates": non_empty_array(RESOURCE_TEMPLATE),
                "prompts": non_empty_array(PROMPT),
                "tags": non_empty_array(closed({"name": NON_EMPTY_STRING, "description": STRING}, ("name",))),
            },
            ("mcpdesc", "info", "protocolVersions"),
        ),
    }
