"""Revision applicability: fields and features that only some MCP protocol versions define."""

from __future__ import annotations

from collections.abc import Iterator

from ...diagnostics import Severity
from ...rule_docs import RuleDoc, fragment
from ...source import pointer as jp
from ...spec.revisions import REVISIONS, before, describe, outside
from ..document import Document, Primitive, as_list, as_object, client_requirement_extensions, explicit_scope
from ..findings import Finding
from ..registry import rule
from ..rule_ids import INPUT_SCHEMA_MEMBERS

FIELD_CODE = "field-not-supported-by-version"

# member -> (first revision that defines it, last revision that defines it)
_PRIMITIVE_FIELDS: dict[str, dict[str, tuple[str, str]]] = {
    "tool": {
        "title": ("2025-06-18", REVISIONS[-1]),
        "outputSchema": ("2025-06-18", REVISIONS[-1]),
        "annotations": ("2025-03-26", REVISIONS[-1]),
        "icons": ("2025-11-25", REVISIONS[-1]),
        "execution": ("2025-11-25", "2025-11-25"),
    },
    "resource": {
        "title": ("2025-06-18", REVISIONS[-1]),
        "icons": ("2025-11-25", REVISIONS[-1]),
    },
}
# `_meta` on declarations is checked by mcp.meta.protocol-version.
_PRIMITIVE_FIELDS["resource-template"] = _PRIMITIVE_FIELDS["resource"]
_PRIMITIVE_FIELDS["prompt"] = _PRIMITIVE_FIELDS["resource"]


def _unsupported(scope: tuple[str, ...], first: str, last: str) -> list[str]:
    return sorted(r for r in scope if r < first or r > last)


def _field_message(what: str, member: str, unsupported: list[str], first: str, last: str) -> str:
    span = f"only {first}" if first == last else f"{first} and later"
    return (
        f"{what} uses {member!r}, which protocol version(s) {describe(unsupported)} do not define "
        f"({span}); narrow protocolVersions or split the declaration"
    )


def _primitive_fields(primitive: Primitive) -> Iterator[Finding]:
    for member, (first, last) in _PRIMITIVE_FIELDS[primitive.kind].items():
        if member in primitive.data:
            unsupported = _unsupported(primitive.scope, first, last)
            if unsupported:
                yield Finding.error(
                    FIELD_CODE,
                    _field_message(primitive.label, member, unsupported, first, last),
                    jp.join(primitive.pointer, member),
                )
    if primitive.kind == "prompt":
        early = before(primitive.scope, "2025-06-18")
        for index, argument in enumerate(as_list(primitive.data.get("arguments"))):
            if early and "title" in as_object(argument):
                yield Finding.error(
                    FIELD_CODE,
                    _field_message(
                        f"argument {index} of {primitive.label}", "title", early, "2025-06-18", REVISIONS[-1]
                    ),
                    jp.join(primitive.pointer, "arguments", index, "title"),
                )


def _field_doc(kind: str, fields: str, bad: str, good: str) -> RuleDoc:
    return RuleDoc(
        summary=f"A {kind} uses {fields} only where every protocol version in its scope defines them.",
        rationale=(
            "Fields appeared in MCP over time; a field a protocol version lacks is never seen by clients speaking "
            "it. Narrow the declaration's protocolVersions, or split it into one declaration per range."
        ),
        bad=bad,
        good=good,
        requirements=("digest §4.3", "digest §3"),
        codes=(FIELD_CODE,),
    )


_VERSIONS = 'protocolVersions: ["2025-03-26", "2025-11-25"]\n'
_SCOPED = '    protocolVersions: ["2025-11-25"]\n'
_FIELD_DOCS: dict[str, RuleDoc] = {
    "tool": _field_doc(
        "tool",
        "`title`, `outputSchema` and `_meta` (2025-06-18), `annotations` (2025-03-26), `icons` (2025-11-25) and "
        "`execution` (2025-11-25 only)",
        _VERSIONS + "tools:\n  - name: search\n    title: Search\n    inputSchema: {type: object}\n",
        _VERSIONS + "tools:\n  - name: search\n" + _SCOPED + "    title: Search\n    inputSchema: {type: object}\n",
    ),
    "resource": _field_doc(
        "resource",
        "`title` (2025-06-18) and `icons` (2025-11-25)",
        _VERSIONS + "resources:\n  - uri: file:///README.md\n    name: readme\n    title: Read me\n",
        _VERSIONS + "resources:\n  - uri: file:///README.md\n    name: readme\n" + _SCOPED + "    title: Read me\n",
    ),
    "resource-template": _field_doc(
        "resource template",
        "`title` (2025-06-18) and `icons` (2025-11-25)",
        _VERSIONS + "resourceTemplates:\n  - uriTemplate: file:///{path}\n    name: file\n    title: File\n",
        _VERSIONS
        + "resourceTemplates:\n  - uriTemplate: file:///{path}\n    name: file\n"
        + _SCOPED
        + "    title: File\n",
    ),
    "prompt": _field_doc(
        "prompt",
        "`title` (on the prompt or an argument, 2025-06-18) and `icons` (2025-11-25)",
        _VERSIONS + "prompts:\n  - name: summarize\n    title: Summarize\n",
        _VERSIONS + "prompts:\n  - name: summarize\n" + _SCOPED + "    title: Summarize\n",
    ),
}


def _register_field_rule(kind: str) -> None:
    """One rule per primitive kind (mcp.tool.protocol-version, ...), same check."""

    @rule(f"mcp.{kind}.protocol-version", doc=_FIELD_DOCS[kind], local=True)
    def check(document: Document) -> Iterator[Finding]:
        for primitive in document.primitives_of(kind):
            yield from _primitive_fields(primitive)


for _kind in _PRIMITIVE_FIELDS:
    _register_field_rule(_kind)


@rule(
    "mcp.resource.annotations.protocol-version",
    doc=RuleDoc(
        summary=(
            "A resource or resource template has `annotations.lastModified` only when its whole scope is 2025-06-18 "
            "or later."
        ),
        rationale=(
            "Earlier protocol versions define no `lastModified` annotation; clients speaking them would not know it."
        ),
        bad=fragment(
            """
            protocolVersions: ["2025-03-26", "2025-06-18"]
            resources:
              - uri: file:///README.md
                name: readme
                annotations:
                  lastModified: "2025-01-12T15:00:58Z"
            """
        ),
        good=fragment(
            """
            protocolVersions: ["2025-03-26", "2025-06-18"]
            resources:
              - uri: file:///README.md
                name: readme
                protocolVersions: ["2025-06-18"]
                annotations:
                  lastModified: "2025-01-12T15:00:58Z"
            """
        ),
        requirements=("digest §4.3", "digest §2.10"),
        codes=("resource-annotation-not-supported-by-version",),
    ),
    local=True,
)
def resource_annotation_fields(document: Document) -> Iterator[Finding]:
    for primitive in document.primitives:
        if primitive.kind not in ("resource", "resource-template"):
            continue
        annotations = as_object(primitive.data.get("annotations"))
        early = before(primitive.scope, "2025-06-18")
        if "lastModified" in annotations and early:
            yield Finding.error(
                "resource-annotation-not-supported-by-version",
                _field_message(primitive.label, "annotations.lastModified", early, "2025-06-18", REVISIONS[-1]),
                jp.join(primitive.pointer, "annotations", "lastModified"),
            )


@rule(
    "mcp.tool.output-schema.root",
    doc=RuleDoc(
        summary="A tool's `outputSchema` has an object root (`type: object`) unless its scope is 2026-07-28 only.",
        rationale=(
            "Before 2026-07-28, MCP requires structured content to be an object, so an output schema of another "
            "root describes results no client accepts."
        ),
        bad=fragment(
            """
            tools:
              - name: search
                inputSchema: {type: object}
                outputSchema: {type: array}
            """
        ),
        good=fragment(
            """
            tools:
              - name: search
                inputSchema: {type: object}
                outputSchema:
                  type: object
                  properties:
                    hits: {type: array}
            """
        ),
        requirements=("digest §4.7", "digest §2.7"),
        codes=("field-not-supported-by-version",),
    ),
    local=True,
)
def output_schema_object_root(document: Document) -> Iterator[Finding]:
    for tool in document.primitives_of("tool"):
        if "outputSchema" not in tool.data:
            continue
        pre_2026 = before(tool.scope, "2026-07-28")
        pointer = jp.join(tool.pointer, "outputSchema")
        resolved = document.resolve(tool.data["outputSchema"], pointer, "schemas")
        if resolved is None or not pre_2026:
            continue
        schema = resolved.value
        if not (isinstance(schema, dict) and schema.get("type") == "object"):
            yield Finding.error(
                FIELD_CODE,
                f"{tool.label} has an outputSchema whose root is not type 'object', which protocol "
                f"version(s) {describe(pre_2026)} require (only 2026-07-28 allows other roots)",
                pointer,
            )


@rule(
    INPUT_SCHEMA_MEMBERS,
    doc=RuleDoc(
        summary=(
            "Every tool has an `inputSchema` whose root is `type: object` (also when it is a reference to a component)."
        ),
        rationale="MCP passes tool arguments as an object; a schema of any other root cannot describe them.",
        bad=fragment(
            """
            tools:
              - name: search
                inputSchema: {type: string}
            """
        ),
        good=fragment(
            """
            tools:
              - name: search
                inputSchema:
                  type: object
                  properties:
                    query: {type: string}
            """
        ),
        requirements=("digest §4.7", "digest §2.7"),
        codes=("schema-validation", "missing-member", "wrong-type", "invalid-value"),
    ),
    local=True,
)
def input_schema_object_root(document: Document) -> Iterator[Finding]:
    # Inline schemas are checked structurally; this covers schemas reached by reference.
    for tool in document.primitives_of("tool"):
        pointer = jp.join(tool.pointer, "inputSchema")
        if "inputSchema" not in tool.data:
            continue
        resolved = document.resolve(tool.data["inputSchema"], pointer, "schemas")
        if resolved is None or resolved.via is None:
            continue
        if not (isinstance(resolved.value, dict) and resolved.value.get("type") == "object"):
            yield Finding.error(
                "schema-validation",
                f"{tool.label}: the inputSchema component {resolved.pointer} must have root type 'object'",
                pointer,
            )


def _transports(document: Document) -> Iterator[tuple[str, dict[str, object], tuple[str, ...]]]:
    for index, item in enumerate(as_list(document.data.get("transports"))):
        transport = dict(as_object(item))
        yield jp.join("", "transports", index), transport, explicit_scope(transport) or document.root_scope


@rule(
    "mcp.transport.protocol-version",
    doc=RuleDoc(
        summary="A streamable-http transport applies only to protocol versions 2025-03-26 and later.",
        rationale="Streamable HTTP did not exist before 2025-03-26; clients of older versions connect over SSE.",
        bad=fragment(
            """
            protocolVersions: ["2024-11-05"]
            transports:
              - type: streamable-http
                url: https://example.com/mcp
            """
        ),
        good=fragment(
            """
            protocolVersions: ["2025-11-25"]
            transports:
              - type: streamable-http
                url: https://example.com/mcp
            """
        ),
        requirements=("digest §4.3", "digest §2.4"),
        codes=("transport-not-supported-by-version",),
    ),
)
def streamable_http_revisions(document: Document) -> Iterator[Finding]:
    for pointer, transport, scope in _transports(document):
        early = before(scope, "2025-03-26")
        if transport.get("type") == "streamable-http" and early:
            yield Finding.error(
                "transport-not-supported-by-version",
                f"streamable-http transport applies to {describe(early)}, which predate streamable HTTP "
                "(2025-03-26); use sse there or narrow protocolVersions",
                jp.join(pointer, "type"),
            )


@rule(
    "mcp.transport.legacy-sse",
    doc=RuleDoc(
        summary="An SSE transport is declared only for protocol versions before 2025-03-26.",
        rationale=(
            "From 2025-03-26 the SSE transport is replaced by streamable HTTP; declaring it for those versions "
            "points clients at a legacy path."
        ),
        bad=fragment(
            """
            transports:
              - type: sse
                url: https://example.com/sse
            """
        ),
        good=fragment(
            """
            transports:
              - type: streamable-http
                url: https://example.com/mcp
            """
        ),
        requirements=("digest §4.3", "digest §2.4"),
        codes=("legacy-sse-for-modern-version",),
        severity=Severity.WARNING,
    ),
)
def legacy_sse(document: Document) -> Iterator[Finding]:
    for pointer, transport, scope in _transports(document):
        modern = sorted(r for r in scope if r >= "2025-03-26")
        if transport.get("type") == "sse" and modern:
            yield Finding.warning(
                "legacy-sse-for-modern-version",
                f"the legacy sse transport is declared for {describe(modern)}, where streamable-http replaces it",
                jp.join(pointer, "type"),
            )


def _capabilities(document: Document) -> Iterator[tuple[str, dict[str, object], tuple[str, ...]]]:
    for index, item in enumerate(as_list(document.data.get("capabilities"))):
        capabilities = dict(as_object(item))
        yield jp.join("", "capabilities", index), capabilities, explicit_scope(capabilities) or document.root_scope


@rule(
    "mcp.capabilities.protocol-version",
    doc=RuleDoc(
        summary=(
            "A Capabilities object declares `completions` (2025-03-26 and later) and `tasks` (2025-11-25 and later) "
            "only where its scope defines them."
        ),
        rationale="A capability a protocol version does not define cannot be negotiated by clients speaking it.",
        bad=fragment(
            """
            protocolVersions: ["2025-06-18"]
            capabilities:
              - tasks: {}
            """
        ),
        good=fragment(
            """
            protocolVersions: ["2025-06-18"]
            capabilities:
              - completions: {}
            """
        ),
        requirements=("digest §4.3", "digest §2.6"),
        codes=("field-not-supported-by-version",),
    ),
)
def capability_revisions(document: Document) -> Iterator[Finding]:
    for pointer, capabilities, scope in _capabilities(document):
        for member, first in (("completions", "2025-03-26"), ("tasks", "2025-11-25")):
            early = before(scope, first)
            if member in capabilities and early:
                yield Finding.error(
                    FIELD_CODE,
                    _field_message("capabilities object", member, early, first, REVISIONS[-1]),
                    jp.join(pointer, member),
                )


@rule(
    "mcp.capabilities.tasks-2026",
    doc=RuleDoc(
        summary="The core `tasks` capability is not declared for 2026-07-28, where tasks are an extension.",
        rationale=(
            "2026-07-28 moved tasks to the `io.modelcontextprotocol/tasks` extension; the core capability no longer "
            "exists there."
        ),
        bad=fragment(
            """
            protocolVersions: ["2026-07-28"]
            capabilities:
              - tasks: {}
            """
        ),
        good=fragment(
            """
            protocolVersions: ["2026-07-28"]
            capabilities:
              - extensions:
                  io.modelcontextprotocol/tasks: {}
            """
        ),
        requirements=("digest §4.3", "digest §2.6"),
        codes=("tasks-core-not-valid-in-2026",),
    ),
)
def core_tasks_not_in_2026(document: Document) -> Iterator[Finding]:
    for pointer, capabilities, scope in _capabilities(document):
        if "tasks" in capabilities and "2026-07-28" in scope:
            yield Finding.error(
                "tasks-core-not-valid-in-2026",
                "core 'tasks' capability is not part of 2026-07-28; declare the Tasks extension "
                "(io.modelcontextprotocol/tasks) under 'extensions' there",
                jp.join(pointer, "tasks"),
            )


@rule(
    "mcp.capabilities.extensions-pre-standard",
    doc=RuleDoc(
        summary="Capability `extensions` are declared for 2026-07-28, where they are standard.",
        rationale=(
            "Before 2026-07-28, `extensions` is only a convention some clients follow; the warning names each such "
            "version."
        ),
        bad=fragment(
            """
            capabilities:
              - extensions:
                  com.example/search-boost: {}
            """
        ),
        good=fragment(
            """
            protocolVersions: ["2026-07-28"]
            capabilities:
              - extensions:
                  com.example/search-boost: {}
            """
        ),
        requirements=("digest §4.3", "digest §2.6"),
        codes=("extensions-not-supported-by-version",),
        severity=Severity.WARNING,
    ),
)
def extensions_pre_standard(document: Document) -> Iterator[Finding]:
    for pointer, capabilities, scope in _capabilities(document):
        if "extensions" in capabilities:
            for revision in outside(scope, ["2026-07-28"]):
                yield Finding.warning(
                    "extensions-not-supported-by-version",
                    f"'extensions' is a pre-standard convention under {revision} (formal from 2026-07-28)",
                    jp.join(pointer, "extensions"),
                )


@rule(
    "mcp.capabilities.logging-deprecated",
    doc=RuleDoc(
        summary="The `logging` capability is not declared for 2026-07-28, which deprecates it.",
        rationale="Clients of 2026-07-28 may not support server logging; a description should not promise it there.",
        bad=fragment(
            """
            protocolVersions: ["2026-07-28"]
            capabilities:
              - logging: {}
            """
        ),
        good=fragment(
            """
            protocolVersions: ["2026-07-28"]
            capabilities:
              - tools: {}
            """
        ),
        requirements=("digest §4.3", "digest §2.6"),
        codes=("logging-deprecated-in-2026",),
        severity=Severity.WARNING,
    ),
)
def logging_deprecated(document: Document) -> Iterator[Finding]:
    for pointer, capabilities, scope in _capabilities(document):
        if "logging" in capabilities and "2026-07-28" in scope:
            yield Finding.warning(
                "logging-deprecated-in-2026",
                "the 'logging' capability is deprecated in 2026-07-28",
                jp.join(pointer, "logging"),
            )


OFFICIAL_EXTENSIONS = frozenset(
    {
        # Catalogue: modelcontextprotocol.io/extensions/overview, as of 2026-09-04 (all official).
        "io.modelcontextprotocol/enterprise-managed-authorization",
        "io.modelcontextprotocol/oauth-client-credentials",
        "io.modelcontextprotocol/tasks",
        "io.modelcontextprotocol/ui",
    }
)


def is_reserved_extension(identifier: str) -> bool:
    prefix = identifier.split("/", 1)[0].split(".")
    return len(prefix) >= 2 and prefix[1] in ("modelcontextprotocol", "mcp")


@rule(
    "mcp.extensions.identifier-authority",
    doc=RuleDoc(
        summary="Extension identifiers under a reserved MCP prefix are extensions MCP publishes.",
        rationale=(
            "Reserved prefixes (`io.modelcontextprotocol/`, ...) belong to MCP; an identifier there that MCP does "
            "not list is likely a typo or an unofficial extension."
        ),
        bad=fragment(
            """
            protocolVersions: ["2026-07-28"]
            capabilities:
              - extensions:
                  io.modelcontextprotocol/colour: {}
            """
        ),
        good=fragment(
            """
            protocolVersions: ["2026-07-28"]
            capabilities:
              - extensions:
                  com.example/colour: {}
            """
        ),
        requirements=("digest §4.3", "digest §4.10"),
        codes=("unknown-reserved-extension-identifier",),
        severity=Severity.WARNING,
    ),
    local=True,
)
def reserved_extension_identifiers(document: Document) -> Iterator[Finding]:
    maps = [
        (jp.join(pointer, "extensions"), as_object(capabilities.get("extensions")))
        for pointer, capabilities, _ in _capabilities(document)
    ]
    maps += client_requirement_extensions(document)
    for at, extensions in maps:
        for identifier in extensions:
            if is_reserved_extension(identifier) and identifier not in OFFICIAL_EXTENSIONS:
                yield Finding.warning(
                    "unknown-reserved-extension-identifier",
                    f"extension {identifier!r} uses an MCP-reserved prefix but is not in the official "
                    "extension catalogue (modelcontextprotocol.io, 2026-09-04)",
                    jp.join(at, identifier),
                )
