"""Tool input and output schemas (digest 4.7): dialects, validity, the pre-2025-11-25 shape
checks, external references, and ``x-mcp-header``."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ...diagnostics import Severity
from ...rule_docs import RuleDoc, fragment
from ...source import pointer as jp
from ...spec.revisions import before, describe, outside
from ..document import Document, Primitive
from ..findings import Finding
from ..registry import rule
from ..rule_ids import TOOL_SCHEMA_VALID

DIALECT_FLOOR = "2025-11-25"
"""Tool schemas have a dialect (default 2020-12) from this protocol version on."""
HEADER_REVISION = "2026-07-28"
# Matched with fullmatch: a `$` would also match before a trailing newline in Python's re.
_HEADER_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_HEADER_TYPES = ("string", "integer", "boolean")


def tool_schemas(document: Document) -> Iterable[tuple[Primitive, str, str, Any]]:
    """(tool, member, pointer where the schema lives, resolved schema) for inputSchema/outputSchema."""
    return document.walked_once(_tool_schemas)


def _tool_schemas(document: Document) -> Iterator[tuple[Primitive, str, str, Any]]:
    for tool in document.primitives_of("tool"):
        for member in ("inputSchema", "outputSchema"):
            if member not in tool.data:
                continue
            resolved = document.resolve(tool.data[member], jp.join(tool.pointer, member), "schemas")
            if resolved is not None:
                yield tool, member, resolved.pointer, resolved.value


def _modern(tool: Primitive) -> bool:
    return any(revision >= DIALECT_FLOOR for revision in tool.scope)


@rule(
    "mcp.tool.schema-dialect",
    doc=RuleDoc(
        summary=(
            "A tool schema's `$schema`, where protocol versions from 2025-11-25 read it, names a supported dialect "
            "(JSON Schema 2020-12 or draft-07)."
        ),
        rationale="The dialect decides how the schema is read; one no client knows leaves the arguments undefined.",
        bad=fragment(
            """
            tools:
              - name: search
                inputSchema:
                  $schema: https://json-schema.org/draft/2019-09/schema
                  type: object
            """
        ),
        good=fragment(
            """
            tools:
              - name: search
                inputSchema:
                  $schema: https://json-schema.org/draft/2020-12/schema
                  type: object
            """
        ),
        requirements=("digest §4.7", "digest §2.7"),
        codes=("unsupported-tool-schema-dialect",),
    ),
    local=True,
)
def schema_dialect(document: Document) -> Iterator[Finding]:
    for tool, member, pointer, schema in tool_schemas(document):
        if not _modern(tool) or not isinstance(schema, Mapping) or "$schema" not in schema:
            continue
        compiled = document.compiled_schema(schema)
        if compiled.unsupported_dialect is not None:
            yield Finding.error(
                "unsupported-tool-schema-dialect",
                f"{tool.label}: {member} declares the dialect {compiled.unsupported_dialect}; supported are "
                "JSON Schema 2020-12 (the default) and draft-07",
                jp.join(pointer, "$schema"),
            )


@rule(
    TOOL_SCHEMA_VALID,
    doc=RuleDoc(
        summary="A tool's input and output schemas are valid JSON Schemas in their dialect.",
        rationale=(
            "Clients validate arguments and results against these schemas; an invalid one fails there, or validates "
            "nothing."
        ),
        bad=fragment(
            """
            tools:
              - name: search
                inputSchema:
                  type: object
                  properties:
                    limit: {type: count}
            """
        ),
        good=fragment(
            """
            tools:
              - name: search
                inputSchema:
                  type: object
                  properties:
                    limit: {type: integer}
            """
        ),
        requirements=("digest §4.7", "digest §2.7"),
        codes=("invalid-tool-schema", "unchecked-tool-schema"),
    ),
    local=True,
)
def schema_valid(document: Document) -> Iterator[Finding]:
    for tool, member, pointer, schema in tool_schemas(document):
        if not _modern(tool):
            continue
        compiled = document.compiled_schema(schema)
        if compiled.invalid is not None:
            yield Finding.error(
                "invalid-tool-schema",
                f"{tool.label}: {member} is not a valid JSON Schema: {compiled.invalid}",
                pointer,
            )
        elif compiled.unchecked is not None:
            yield Finding.warning(
                "unchecked-tool-schema",
                f"{tool.label}: {member} could not be checked: {compiled.unchecked}",
                pointer,
            )


@rule(
    "mcp.tool.schema-dialect.protocol-version",
    doc=RuleDoc(
        summary="A tool schema carries `$schema` only when every protocol version in scope is 2025-11-25 or later.",
        rationale="Before 2025-11-25 tool schemas have no declared dialect; a `$schema` there is read by no client.",
        bad=fragment(
            """
            protocolVersions: ["2025-06-18"]
            tools:
              - name: search
                inputSchema:
                  $schema: https://json-schema.org/draft/2020-12/schema
                  type: object
            """
        ),
        good=fragment(
            """
            protocolVersions: ["2025-06-18"]
            tools:
              - name: search
                inputSchema:
                  type: object
            """
        ),
        requirements=("digest §4.7", "digest §2.7"),
        codes=("field-not-supported-by-version",),
    ),
    local=True,
)
def dialect_before_floor(document: Document) -> Iterator[Finding]:
    for tool, member, pointer, schema in tool_schemas(document):
        early = before(tool.scope, DIALECT_FLOOR)
        if early and isinstance(schema, Mapping) and "$schema" in schema:
            yield Finding.error(
                "field-not-supported-by-version",
                f"{tool.label}: {member} declares '$schema', which protocol version(s) {describe(early)} do not "
                f"define for tool schemas ({DIALECT_FLOOR} and later); remove it or narrow protocolVersions",
                jp.join(pointer, "$schema"),
            )


@rule(
    "mcp.tool.legacy-schema-shape",
    doc=RuleDoc(
        summary=(
            "Before 2025-11-25, a tool schema's `properties` is an object of objects and `required` an array of "
            "strings."
        ),
        rationale=(
            "Those versions define no schema dialect, so only this shape is checked; clients rely on it to read the "
            "arguments."
        ),
        bad=fragment(
            """
            protocolVersions: ["2025-06-18"]
            tools:
              - name: search
                inputSchema:
                  type: object
                  required: query
            """
        ),
        good=fragment(
            """
            protocolVersions: ["2025-06-18"]
            tools:
              - name: search
                inputSchema:
                  type: object
                  required: [query]
            """
        ),
        requirements=("digest §4.7", "digest §2.7"),
        codes=("invalid-legacy-tool-schema-shape",),
    ),
    local=True,
)
def legacy_shape(document: Document) -> Iterator[Finding]:
    for tool, member, pointer, schema in tool_schemas(document):
        early = before(tool.scope, DIALECT_FLOOR)
        if not early or not isinstance(schema, Mapping):
            continue
        properties = schema.get("properties")
        if "properties" in schema and not (isinstance(properties, Mapping) and _all_mappings(properties.values())):
            yield Finding.error(
                "invalid-legacy-tool-schema-shape",
                f"{tool.label}: {member}.properties must be an object of schema objects under {describe(early)}",
                jp.join(pointer, "properties"),
            )
        required = schema.get("required")
        if "required" in schema and not (isinstance(required, list) and all(isinstance(r, str) for r in required)):
            yield Finding.error(
                "invalid-legacy-tool-schema-shape",
                f"{tool.label}: {member}.required must be an array of strings under {describe(early)}",
                jp.join(pointer, "required"),
            )


def _all_mappings(values: Iterable[object]) -> bool:
    # Read data is plain dicts: a type test first spares most values the ABC's
    # isinstance, a third of this rule's time in a serve rebuild at 5,000 tools.
    return all(type(value) is dict or isinstance(value, Mapping) for value in values)


@rule(
    "mcp.tool.schema.external-ref",
    doc=RuleDoc(
        summary=(
            "A tool schema's `$ref` points inside the schema (`#...`); an external one is kept but cannot be checked."
        ),
        rationale=(
            "Validation never fetches anything, so an external reference leaves part of the schema unchecked; "
            "prefer local `$defs`."
        ),
        bad=fragment(
            """
            tools:
              - name: search
                inputSchema:
                  type: object
                  properties:
                    query:
                      $ref: https://example.com/schemas/query.json
            """
        ),
        good=fragment(
            """
            tools:
              - name: search
                inputSchema:
                  type: object
                  $defs:
                    query: {type: string}
                  properties:
                    query:
                      $ref: "#/$defs/query"
            """
        ),
        requirements=("digest §4.7",),
        codes=("unresolved-external-tool-schema-reference",),
        severity=Severity.WARNING,
    ),
    local=True,
)
def external_references(document: Document) -> Iterator[Finding]:
    for tool, member, pointer, schema in tool_schemas(document):
        for at, ref in document.compiled_schema(schema).external_refs:
            yield Finding.warning(
                "unresolved-external-tool-schema-reference",
                f"{tool.label}: {member} refers to {ref}, which is never downloaded; it is kept, but values "
                "cannot be completely validated against it (prefer local $defs)",
                pointer + at,
            )


_Path = tuple["_Path", str | int] | None
"""Where a value sits below the schema, as (parent, key or index) links: a pointer is made
only for the few values that carry x-mcp-header, not for every value walked."""


def _pointer(root: str, path: _Path) -> str:
    parts: list[str | int] = []
    while path is not None:
        path, part = path
        parts.append(part)
    return jp.join(root, *reversed(parts))


def _header_paths(schema: object) -> list[tuple[_Path, Mapping[str, Any], bool]]:
    """(path below the schema, schema object, reachable through properties only) for every
    object carrying x-mcp-header, in the order the rule reports them."""
    found: list[tuple[_Path, Mapping[str, Any], bool]] = []
    stack: list[tuple[_Path, object, bool]] = [(None, schema, True)]
    while stack:
        at, value, reachable = stack.pop()
        if isinstance(value, Mapping):
            if "x-mcp-header" in value:
                found.append((at, value, reachable))
            for key, item in value.items():
                if key == "properties" and isinstance(item, Mapping):
                    below = (at, "properties")
                    for name, sub in item.items():
                        stack.append(((below, name), sub, reachable))
                elif key not in ("const", "enum", "default", "examples", "x-mcp-header"):
                    stack.append(((at, key), item, False))
        elif isinstance(value, list):
            stack.extend(((at, i), item, False) for i, item in enumerate(value))
    return found


def _header_sites(document: Document, schema: object, pointer: str) -> list[tuple[str, Mapping[str, Any], bool]]:
    """(pointer, schema object, reachable through properties only) for every object carrying
    x-mcp-header. Walking every node of every tool schema is most of the rule's work; a
    schema object is walked once (in the document's memos: ``serve`` rebuilds hand
    unchanged schemas over as the same objects)."""
    paths = document.memos.by_object(_header_paths)(schema)
    return [(_pointer(pointer, at), holder, reachable) for at, holder, reachable in paths]


@rule(
    "mcp.tool.x-mcp-header",
    doc=RuleDoc(
        summary=(
            "`x-mcp-header` (2026-07-28 only) is a unique HTTP field-name token on a string, integer or boolean "
            "property reached from the root through `properties` only."
        ),
        rationale=(
            "The header mirrors an argument into an HTTP header; an invalid token, a duplicate or an unreachable "
            "property cannot be mirrored."
        ),
        bad=fragment(
            """
            protocolVersions: ["2026-07-28"]
            tools:
              - name: search
                inputSchema:
                  type: object
                  properties:
                    region:
                      type: string
                      x-mcp-header: "Region Name"
            """
        ),
        good=fragment(
            """
            protocolVersions: ["2026-07-28"]
            tools:
              - name: search
                inputSchema:
                  type: object
                  properties:
                    region:
                      type: string
                      x-mcp-header: Region-Name
            """
        ),
        requirements=("digest §4.7", "digest §2.7"),
        codes=("invalid-x-mcp-header", "duplicate-x-mcp-header", "field-not-supported-by-version"),
    ),
    local=True,
)
def mcp_header(document: Document) -> Iterator[Finding]:
    # A schema is walked once, however many tools refer to it (by where it lives): walking a
    # shared component once per tool was its size times the tools (2,000 tools and one
    # 5,500-node component: 38 s).
    walked: dict[str, list[tuple[str, Mapping[str, Any], bool]]] = {}
    for tool, member, pointer, schema in tool_schemas(document):
        if pointer not in walked:
            walked[pointer] = _header_sites(document, schema, pointer)
        seen: dict[str, str] = {}
        for at, holder, reachable in walked[pointer]:
            value = holder["x-mcp-header"]
            where = jp.join(at, "x-mcp-header")
            other = outside(tool.scope, (HEADER_REVISION,))
            if other:
                yield Finding.error(
                    "field-not-supported-by-version",
                    f"{tool.label}: x-mcp-header is defined only by {HEADER_REVISION}, not by {describe(other)}",
                    where,
                )
            if member != "inputSchema" or not reachable or at == pointer:
                yield Finding.error(
                    "invalid-x-mcp-header",
                    f"{tool.label}: x-mcp-header must sit on a property of inputSchema reached through "
                    "'properties' only (not the root, arrays, composition, conditionals or $defs)",
                    where,
                )
                continue
            if holder.get("type") not in _HEADER_TYPES:
                yield Finding.error(
                    "invalid-x-mcp-header",
                    f"{tool.label}: x-mcp-header is allowed only on string, integer or boolean properties",
                    where,
                )
            if not isinstance(value, str) or not _HEADER_TOKEN.fullmatch(value):
                yield Finding.error(
                    "invalid-x-mcp-header",
                    f"{tool.label}: x-mcp-header {value!r} is not an HTTP field name (a non-empty token)",
                    where,
                )
                continue
            folded = value.lower()
            if folded in seen:
                yield Finding.error(
                    "duplicate-x-mcp-header",
                    f"{tool.label}: x-mcp-header {value!r} repeats {seen[folded]!r} (field names ignore case)",
                    where,
                )
            else:
                seen[folded] = value
