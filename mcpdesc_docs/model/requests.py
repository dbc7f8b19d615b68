"""Request samples: the JSON-RPC message a client sends to use a primitive (``tools/call``,
``resources/read``, ``prompts/get``), built from the primitive's first example, or from
its schema with placeholder values when it has none.

An example too long to repeat (``MAX_EXAMPLE``) gives way to the schema, and the
placeholder value is bounded (``MAX_VALUES`` in all, ``MAX_PROPERTIES`` per object,
``MAX_DEPTH`` levels), so a sample costs little whatever the description holds.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..source import pointer as jp
from ..validation.document import Primitive, as_list, as_object
from .components import example_sites, resolve, schema_site
from .context import BuildContext
from .schema_tree import dump_json
from .site import RequestSample
from .values import string

MAX_EXAMPLE = 4_000
"""Characters of an example's arguments repeated in a request sample."""
MAX_PROPERTIES = 30
"""Properties of one object given a placeholder."""
MAX_DEPTH = 4
"""Levels of nesting given placeholders."""
MAX_VALUES = 200
"""Placeholder values in one sample."""

_METHODS = {
    "tool": "tools/call",
    "resource": "resources/read",
    "resource-template": "resources/read",
    "prompt": "prompts/get",
}
_PLACEHOLDERS: dict[str, Any] = {"string": "string", "integer": 0, "number": 0, "boolean": True, "null": None}


def _local(root: Mapping[str, Any], schema: Mapping[str, Any]) -> Mapping[str, Any]:
    """``schema`` with a ``$ref`` into the same schema (``#/$defs/...``) followed once."""
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#"):
        return as_object(jp.lookup(root, ref[1:]))
    return schema


class _Placeholder:
    """Builds a placeholder value within a budget of ``MAX_VALUES`` values in all: a schema
    whose references fan out (each property the same large object) stays a short sample."""

    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root
        self.left = MAX_VALUES

    def value(self, schema: Mapping[str, Any], depth: int = 0) -> Any:
        """A value the schema accepts, for a reader to edit: the default, the first example,
        enum value or const when declared, else a value of the declared type."""
        self.left -= 1
        if depth > MAX_DEPTH or self.left < 0:
            return "value"  # also ends a chain of references that leads back to itself
        schema = _local(self.root, schema)
        for key in ("default", "const"):
            if key in schema:
                return schema[key]
        for key in ("examples", "enum"):
            values = as_list(schema.get(key))
            if values:
                return values[0]
        kind = schema.get("type")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), None)
        branches = as_list(schema.get("oneOf")) or as_list(schema.get("anyOf"))
        if kind is None and branches:
            return self.value(as_object(branches[0]), depth + 1)
        if kind == "object" or (kind is None and isinstance(schema.get("properties"), Mapping)):
            properties = list(as_object(schema.get("properties")).items())[:MAX_PROPERTIES]
            return {str(name): self.value(as_object(sub), depth + 1) for name, sub in properties if self.left > 0}
        if kind == "array":
            items = schema.get("items")
            return [self.value(items, depth + 1)] if isinstance(items, Mapping) else []
        return _PLACEHOLDERS.get(str(kind), "value")


def placeholder(schema: Mapping[str, Any]) -> Any:
    """A value of a (root) schema, for a request sample."""
    return _Placeholder(schema).value(schema)


def _first_example(context: BuildContext, primitive: Primitive, key: str) -> tuple[str, Any] | None:
    """The first example holding ``key`` (``input``, ``arguments``, ``uri``), when short enough."""
    for name, site in example_sites(primitive):
        value, _ = resolve(context.document, site)
        data = as_object(value)
        if key in data and len(json.dumps(data[key], ensure_ascii=False)) <= MAX_EXAMPLE:
            return name, data[key]
    return None


def _tool_arguments(context: BuildContext, primitive: Primitive) -> tuple[str | None, Any]:
    found = _first_example(context, primitive, "input")
    if found is not None:
        return found
    site = schema_site(primitive, "inputSchema")
    if site is None:
        return None, {}
    schema = as_object(resolve(context.document, site)[0])
    return None, placeholder(schema)


def _prompt_arguments(context: BuildContext, primitive: Primitive) -> tuple[str | None, Any]:
    found = _first_example(context, primitive, "arguments")
    if found is not None:
        return found
    declared = (as_object(a) for a in as_list(primitive.data.get("arguments")))
    return None, {name: "string" for name in (string(a, "name") for a in declared) if name}


def build_request_sample(context: BuildContext, primitive: Primitive) -> RequestSample:
    data = primitive.data
    name = string(data, "name") or ""
    example: str | None
    if primitive.kind == "tool":
        example, arguments = _tool_arguments(context, primitive)
        params: dict[str, Any] = {"name": name, "arguments": arguments}
    elif primitive.kind == "prompt":
        example, arguments = _prompt_arguments(context, primitive)
        params = {"name": name, "arguments": arguments}
    else:
        found = _first_example(context, primitive, "uri")
        example, uri = found if found is not None else (None, string(data, "uri") or string(data, "uriTemplate"))
        params = {"uri": uri}
    message = {"jsonrpc": "2.0", "id": 1, "method": _METHODS[primitive.kind], "params": params}
    return RequestSample(_METHODS[primitive.kind], dump_json(message), example)
