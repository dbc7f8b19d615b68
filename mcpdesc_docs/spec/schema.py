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

from . import native_schema as native
from .schema_parts import (
    BOOLEAN,
    EXTENSIONS,
    ICONS,
    NAME_PATTERN,
    NON_EMPTY_STRING,
    OBJECT,
    OBJECT_ROOT_SCHEMA,
    RESOURCE_ANNOTATIONS,
    SCOPE,
    STRING,
    TOOL_ANNOTATIONS,
    URI,
    Schema,
    by_type,
    closed,
    non_empty_array,
    non_empty_map,
)
from .versions import Specification

_LABEL = "[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
EXTENSION_ID_PATTERN = f"^{_LABEL}(?:\\.{_LABEL})*/[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$"
NAMESPACES = ("schemas", "toolExamples", "resourceExamples", "resourceTemplateExamples", "promptExamples")


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


SECURITY_REQUIREMENTS: Schema = {
    "type": "array",
    "items": {
        "type": "object",
        "propertyNames": {"pattern": NAME_PATTERN},
        "additionalProperties": {"type": "array", "items": STRING},
    },
}


def _capability(members: dict[str, Schema]) -> Schema:
    """A client capability: an object whose known members have MCP's types. Which members
    each protocol version defines (and so which unknown ones are errors) is the
    client-requirements rules' to say."""
    return {"type": "object", "properties": members}


CLIENT_REQUIREMENTS: Schema = {
    "type": "object",
    "minProperties": 1,
    "properties": {
        "protocolVersions": {},  # refused once, by the allOf below
        "roots": _capability({"listChanged": BOOLEAN}),
        "sampling": _capability({"context": OBJECT, "tools": OBJECT}),
        "elicitation": _capability({"form": OBJECT, "url": OBJECT}),
        "tasks": _capability(
            {
                "list": OBJECT,
                "cancel": OBJECT,
                "requests": _capability(
                    {
                        "sampling": _capability({"createMessage": OBJECT}),
                        "elicitation": _capability({"create": OBJECT}),
                    }
                ),
            }
        ),
        "experimental": {"type": "object", "additionalProperties": OBJECT},
        "extensions": non_empty_map(OBJECT, names=EXTENSION_ID_PATTERN),
    },
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

INPUT_SCHEMA = reference_or(OBJECT_ROOT_SCHEMA)
OUTPUT_SCHEMA = reference_or({"type": ["object", "boolean"]})

TOOL_EXAMPLE = closed({"input": OBJECT, "result": native.TOOL_RESULT}, ("input", "result"))
RESOURCE_EXAMPLE = closed({"result": native.READ_RESULT}, ("result",))
TEMPLATE_EXAMPLE = closed({"uri": URI, "result": native.READ_RESULT}, ("uri", "result"))
PROMPT_EXAMPLE = closed(
    {"arguments": {"type": "object", "additionalProperties": STRING}, "result": native.PROMPT_RESULT}, ("result",)
)


# Steps show what the server asks of the client and the answer, in MCP's own shapes; the
# step wrapper itself allows x-*.
_STEP_COMMON = {"type": STRING}
STEP = by_type(
    {
        "elicitation": closed(
            {
                **_STEP_COMMON,
                "declaration": {"type": "string", "pattern": NAME_PATTERN},
                "request": native.ELICITATION_REQUEST,
                "response": native.ELICITATION_RESPONSE,
            },
            ("request", "response"),
        ),
        "sampling": closed(
            {**_STEP_COMMON, "request": native.SAMPLING_REQUEST, "response": native.SAMPLING_RESPONSE},
            ("request", "response"),
        ),
        "roots": closed(
            {**_STEP_COMMON, "request": native.ROOTS_REQUEST, "response": native.ROOTS_RESPONSE},
            ("request", "response"),
        ),
    }
)
INTERACTION_EXAMPLE = closed(
    {"input": OBJECT, "steps": non_empty_array(STEP), "result": native.TOOL_RESULT},
    ("input", "steps", "result"),
)
COMPLETION_EXAMPLE = closed(
    {
        "argument": closed({"name": STRING, "value": STRING}, ("name", "value")),
        "context": closed(
            {"arguments": {"type": "object", "minProperties": 1, "additionalProperties": STRING}}, ("arguments",)
        ),
        "result": native.COMPLETION_RESULT,
    },
    ("argument", "result"),
)


def examples(example: Schema) -> Schema:
    return non_empty_map(reference_or(example))


def _primitive_common() -> dict[str, Schema]:
    return {
        "protocolVersions": SCOPE,
        # Only a tool's name is non-empty in MCP (and in the spec); an empty name of another
        # primitive is allowed, with a warning of ours (rules/authoring.py).
        "name": STRING,
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
        "name": NON_EMPTY_STRING,
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
        "uriTemplate": STRING,
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
                {"name": STRING, "title": STRING, "description": STRING, "required": BOOLEAN},
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
                "command": STRING,
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
        "http": closed({**_SCHEME_COMMON, "scheme": STRING, "bearerFormat": STRING}, ("scheme",)),
        "apiKey": closed(
            {**_SCHEME_COMMON, "name": STRING, "in": {"enum": ["header", "query", "cookie"]}},
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
        "tasks": closed(
            {
                "list": OBJECT,
                "cancel": OBJECT,
                "requests": closed({"tools": closed({"call": OBJECT}, extensions=False)}, extensions=False),
            },
            extensions=False,
        ),
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
        "license": closed({"name": STRING, "url": URI}, ("name",)),
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
                # A string (digest 1); which schema it names, and an empty one, are for
                # detection to warn about (spec/versions.py: unknown-schema-identity).
                "$schema": STRING,
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
