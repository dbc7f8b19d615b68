"""The MCP objects that examples embed, as our structural schema checks them: tool, read,
prompt and completion results, their content blocks and resource contents, and the
requests and responses of interaction-example steps (digest 2.8-2.13).

These are MCP's own shapes, so they are closed where MCP's are and carry no ``x-*``
(``_meta`` is MCP's place for metadata). Each is the union of what the protocol versions
define; what only some versions define (audio and resource links, ``_meta``, ``icons``,
``resultType``, the read-cache fields, sampling tools) is left to the rules that know the
protocol version of each example, as is the ``_meta`` key grammar.
"""

from __future__ import annotations

from .schema_parts import (
    BOOLEAN,
    ICONS,
    NON_EMPTY_STRING,
    NUMBER,
    OBJECT,
    OBJECT_ROOT_SCHEMA,
    RESOURCE_ANNOTATIONS,
    STRING,
    TOOL_ANNOTATIONS,
    URI,
    Schema,
    by_type,
    closed,
    non_empty_array,
    one_or_more,
)

META: Schema = OBJECT
ROLE: Schema = {"enum": ["user", "assistant"]}

RESOURCE_CONTENTS = closed(
    {
        "uri": URI,
        # A MIME type is never empty (RFC 6838: type "/" subtype), and an empty one tells a
        # client nothing; omit the member instead.
        "mimeType": NON_EMPTY_STRING,
        "text": STRING,
        "blob": STRING,
        "_meta": META,
    },
    ("uri",),
    extensions=False,
    allOf=[
        {"anyOf": [{"required": ["text"]}, {"required": ["blob"]}]},
        {
            "not": {"required": ["text", "blob"]},
            "x-message": "resource contents carry either 'text' or 'blob', not both",
            "x-member": "blob",
            "x-code": "unknown-member",
        },
    ],
)

_BLOCK: dict[str, Schema] = {"type": STRING, "annotations": RESOURCE_ANNOTATIONS, "_meta": META}
_MEDIA = closed({**_BLOCK, "data": STRING, "mimeType": STRING}, ("data", "mimeType"), extensions=False)
CONTENT_BLOCKS: dict[str, Schema] = {
    "text": closed({**_BLOCK, "text": STRING}, ("text",), extensions=False),
    "image": _MEDIA,
    "audio": _MEDIA,
    "resource": closed({**_BLOCK, "resource": RESOURCE_CONTENTS}, ("resource",), extensions=False),
    "resource_link": closed(
        {
            **_BLOCK,
            "uri": URI,
            "name": STRING,
            "title": STRING,
            "description": STRING,
            "mimeType": STRING,
            "size": NUMBER,
            "icons": ICONS,
        },
        ("uri", "name"),
        extensions=False,
    ),
}
CONTENT_BLOCK = by_type(CONTENT_BLOCKS)

# Results are open objects (MCP results may carry more), with typed known members.
TOOL_RESULT: Schema = {
    "type": "object",
    "required": ["content"],
    "properties": {"content": {"type": "array", "items": CONTENT_BLOCK}, "isError": BOOLEAN, "_meta": META},
}
READ_RESULT: Schema = {
    "type": "object",
    "required": ["contents"],
    "properties": {
        "contents": non_empty_array(RESOURCE_CONTENTS),
        "ttlMs": {"type": "number", "minimum": 0},
        "cacheScope": {"enum": ["public", "private"]},
        "_meta": META,
    },
}
PROMPT_RESULT: Schema = {
    "type": "object",
    "required": ["messages"],
    "properties": {
        "messages": {
            "type": "array",
            "items": closed({"role": ROLE, "content": CONTENT_BLOCK}, ("role", "content"), extensions=False),
        },
        "description": STRING,
        "_meta": META,
    },
}
COMPLETION_RESULT: Schema = {
    "type": "object",
    "required": ["completion"],
    "properties": {
        "completion": {
            "type": "object",
            "required": ["values"],
            "properties": {
                "values": {"type": "array", "maxItems": 100, "items": STRING},
                "total": {"type": "integer", "minimum": 0},
                "hasMore": BOOLEAN,
            },
        },
        "_meta": META,
    },
}

# sampling/createMessage: what the server asks the client's model, and the answer.
_SAMPLING_BLOCK = by_type(
    {
        **CONTENT_BLOCKS,
        "tool_use": closed(
            {"type": STRING, "id": STRING, "name": STRING, "input": OBJECT}, ("id", "name", "input"), extensions=False
        ),
        "tool_result": closed(
            {"type": STRING, "toolUseId": STRING, "content": one_or_more(CONTENT_BLOCK), "isError": BOOLEAN},
            ("toolUseId", "content"),
            extensions=False,
        ),
    }
)
_PRIORITY: Schema = {"type": "number", "minimum": 0, "maximum": 1}
SAMPLING_REQUEST = closed(
    {
        "messages": non_empty_array(
            closed({"role": ROLE, "content": one_or_more(_SAMPLING_BLOCK)}, ("role", "content"), extensions=False)
        ),
        "maxTokens": {"type": "integer", "minimum": 1},
        "modelPreferences": closed(
            {
                "hints": non_empty_array(closed({"name": NON_EMPTY_STRING}, ("name",), extensions=False)),
                "costPriority": _PRIORITY,
                "speedPriority": _PRIORITY,
                "intelligencePriority": _PRIORITY,
            },
            extensions=False,
        ),
        "systemPrompt": STRING,
        "includeContext": {"enum": ["none", "thisServer", "allServers"]},
        "temperature": NUMBER,
        "stopSequences": {"type": "array", "items": STRING},
        "metadata": OBJECT,
        "tools": non_empty_array(
            # The tools offered to the client's model: described like the server's own, so
            # they may carry x-* as a Tool does.
            closed(
                {
                    "name": NON_EMPTY_STRING,
                    "title": STRING,
                    "description": STRING,
                    "inputSchema": OBJECT_ROOT_SCHEMA,
                    "annotations": TOOL_ANNOTATIONS,
                },
                ("name", "inputSchema"),
            )
        ),
        "toolChoice": closed({"mode": {"enum": ["auto", "required", "none"]}}, ("mode",), extensions=False),
    },
    ("messages", "maxTokens"),
    extensions=False,
)
SAMPLING_RESPONSE = closed(
    {"role": {"const": "assistant"}, "content": one_or_more(_SAMPLING_BLOCK), "model": STRING, "stopReason": STRING},
    ("role", "content", "model"),
    extensions=False,
)


def _mode(mode: str, then: Schema) -> Schema:
    return {"if": {"properties": {"mode": {"const": mode}}, "required": ["mode"]}, "then": then}


# elicitation/create. The form schema's vocabulary is the elicitation rules' (as for
# declarations), so that both are reported alike.
ELICITATION_REQUEST: Schema = {
    "type": "object",
    "required": ["mode", "message"],
    "properties": {"mode": {"enum": ["form", "url"]}, "message": NON_EMPTY_STRING},
    "allOf": [
        _mode(
            "form",
            closed(
                {"mode": STRING, "message": STRING, "requestedSchema": OBJECT}, ("requestedSchema",), extensions=False
            ),
        ),
        _mode("url", closed({"mode": STRING, "message": STRING, "url": URI}, ("url",), extensions=False)),
    ],
}
ELICITATION_RESPONSE = closed(
    {"action": {"enum": ["accept", "decline", "cancel"]}, "content": OBJECT}, ("action",), extensions=False
)

# roots/list takes no parameters; its result lists file roots.
ROOTS_REQUEST = closed({}, extensions=False)
ROOTS_RESPONSE = closed(
    {"roots": {"type": "array", "items": closed({"uri": URI, "name": STRING}, ("uri",), extensions=False)}},
    ("roots",),
    extensions=False,
)
