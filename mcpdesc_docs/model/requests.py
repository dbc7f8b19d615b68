"""Request samples: the JSON-RPC message a client sends to use a primitive (``tools/call``,
``resources/read``, ``prompts/get``), and the same call written with the Python and
TypeScript SDKs and, where the server has an HTTP transport, with curl.

The arguments come from the primitive's first example, else from its schema
(``sample_values``: values meant to validate against it); a resource template's URI from
an example, else its template expanded with values from its completion examples. An
example too long to repeat (``MAX_EXAMPLE``) gives way to the schema.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Mapping
from typing import Any

import uritemplate

from ..validation.document import Primitive, as_list, as_object
from ..validation.uri_templates import is_valid_template, variable_names
from .components import example_sites, resolve, schema_site
from .context import BuildContext
from .sample_values import sample_arguments
from .schema_tree import dump_json
from .site import CodeSample, RequestSample, Transport
from .values import string

MAX_EXAMPLE = 4_000
"""Characters of an example's arguments repeated in a request sample."""

_METHODS = {
    "tool": "tools/call",
    "resource": "resources/read",
    "resource-template": "resources/read",
    "prompt": "prompts/get",
}
_JSON_WORDS = re.compile(r'"(?:[^"\\]|\\.)*"|\b(true|false|null)\b')
_PYTHON_WORDS = {"true": "True", "false": "False", "null": "None"}


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
    return None, sample_arguments(as_object(resolve(context.document, site)[0]))


def _prompt_arguments(context: BuildContext, primitive: Primitive) -> tuple[str | None, Any]:
    found = _first_example(context, primitive, "arguments")
    if found is not None:
        return found
    declared = [as_object(a) for a in as_list(primitive.data.get("arguments"))]
    # Optional arguments are left out, as a client would; required ones get a placeholder.
    return None, {name: "value" for a in declared if a.get("required") is True and (name := string(a, "name"))}


def _completed_values(primitive: Primitive) -> dict[str, str]:
    """A value for each variable a completion example suggests one for."""
    values: dict[str, str] = {}
    for raw in as_object(primitive.data.get("completionExamples")).values():
        data = as_object(raw)
        name = string(as_object(data.get("argument")), "name")
        suggested = [v for v in as_list(as_object(as_object(data.get("result")).get("completion")).get("values"))]
        if name and name not in values and suggested and isinstance(suggested[0], str):
            values[name] = suggested[0]
    return values


def expanded_uri(primitive: Primitive) -> str:
    """A resource template's URI template expanded: each variable with the value a
    completion example suggests for it, else its name (a template that does not parse is
    returned as it is)."""
    template = string(primitive.data, "uriTemplate") or ""
    if not is_valid_template(template):
        return template
    suggested = _completed_values(primitive)
    values: dict[str, Any] = {name: suggested.get(name, name) for name in variable_names(template)}
    return str(uritemplate.expand(template, values))


def _python(value: Any, indent: int) -> str:
    """A JSON value as a Python literal (JSON strings are Python strings too)."""
    text = json.dumps(value, indent=4, ensure_ascii=False)
    text = _JSON_WORDS.sub(lambda m: _PYTHON_WORDS[m.group(1)] if m.group(1) else m.group(0), text)
    return text.replace("\n", "\n" + " " * indent)


def _typescript(value: Any, indent: int) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n" + " " * indent)


def _sdk_samples(kind: str, name: str, params: Mapping[str, Any]) -> tuple[CodeSample, CodeSample]:
    if kind == "tool" or kind == "prompt":
        method, ts_method = ("call_tool", "callTool") if kind == "tool" else ("get_prompt", "getPrompt")
        python = (
            f"result = await session.{method}(\n"
            f"    {_python(name, 4)},\n"
            f"    arguments={_python(params['arguments'], 4)},\n"
            ")"
        )
        typescript = (
            f"const result = await client.{ts_method}({{\n"
            f"  name: {_typescript(name, 2)},\n"
            f"  arguments: {_typescript(params['arguments'], 2)},\n"
            "});"
        )
    else:
        python = (
            f"from pydantic import AnyUrl\n\nresult = await session.read_resource(AnyUrl({_python(params['uri'], 0)}))"
        )
        typescript = f"const result = await client.readResource({{ uri: {_typescript(params['uri'], 0)} }});"
    return (
        CodeSample("python", "# session: an initialized mcp.ClientSession\n" + python, "python"),
        CodeSample(
            "typescript", "// client: a connected Client of @modelcontextprotocol/sdk\n" + typescript, "typescript"
        ),
    )


def _curl(transport: Transport, message: Mapping[str, Any], version: str | None) -> CodeSample:
    lines = [
        "# After initialize; send the Mcp-Session-Id the server gave, if it gave one.",
        f"curl -X POST {shlex.quote(transport.url or '')} \\",
        "  -H 'Content-Type: application/json' \\",
        "  -H 'Accept: application/json, text/event-stream' \\",
    ]
    if version:
        lines.append(f"  -H {shlex.quote('MCP-Protocol-Version: ' + version)} \\")
    lines.append("  -H 'Mcp-Session-Id: <session id>' \\")
    lines.append(f"  -d {shlex.quote(json.dumps(message, ensure_ascii=False))}")
    return CodeSample("curl", "\n".join(lines), "shell")


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
        if found is not None:
            example, uri = found
        elif primitive.kind == "resource-template":
            example, uri = None, expanded_uri(primitive)
        else:
            example, uri = None, string(data, "uri")
        params = {"uri": uri}
    message = {"jsonrpc": "2.0", "id": 1, "method": _METHODS[primitive.kind], "params": params}
    rpc = dump_json(message)
    samples = [CodeSample("jsonrpc", rpc, "json"), *_sdk_samples(primitive.kind, name, params)]
    http = next((t for t in context.transports if t.type == "streamable-http" and t.url), None)
    if http is not None:
        versions = primitive.scope
        samples.append(_curl(http, message, versions[-1] if versions else None))
    return RequestSample(_METHODS[primitive.kind], rpc, example, tuple(samples))
