"""Tool examples and the input and result of tool interaction examples (digest 2.8, 4.8).

Both show a complete ``tools/call``: arguments that the Tool's ``inputSchema`` accepts
under every protocol version in scope, and a completed result whose shape each of those
versions defines. Interaction examples share these rules; their steps are checked in
``interaction_examples``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ...rule_docs import RuleDoc, fragment
from ...source import pointer as jp
from ...spec.revisions import before, describe
from ..document import Document, Primitive, as_object
from ..findings import Finding
from ..registry import rule
from .results import Example, completed, content_blocks, examples_of, meta_floor, result_type

DIALECT_FLOOR = "2025-11-25"
STRUCTURED_FLOOR = "2025-06-18"


def tool_examples(document: Document) -> Iterator[Example]:
    yield from examples_of(document, "tool", "examples")
    yield from examples_of(document, "tool", "interactionExamples")


def _tool_schema(document: Document, tool: Primitive, member: str) -> Any | None:
    if member not in tool.data:
        return None
    resolved = document.resolve(tool.data[member], jp.join(tool.pointer, member), "schemas")
    return None if resolved is None else resolved.value


def _legacy_problems(schema: Any, value: Any) -> list[tuple[tuple[str | int, ...], str]]:
    """The constraints interpretable without a dialect: object-ness, required, closed properties."""
    if not isinstance(schema, Mapping):
        return []
    if schema.get("type") == "object" and not isinstance(value, dict):
        return [((), "is not an object")]
    if not isinstance(value, dict):
        return []
    problems: list[tuple[tuple[str | int, ...], str]] = []
    required = schema.get("required")
    for name in required if isinstance(required, list) else []:
        if isinstance(name, str) and name not in value:
            problems.append(((), f"{name!r} is a required property"))
    properties = schema.get("properties")
    if schema.get("additionalProperties") is False and isinstance(properties, Mapping):
        for name in value:
            if name not in properties:
                problems.append(((name,), f"{name!r} is not a declared property (additionalProperties is false)"))
    return problems


def _check_against(
    document: Document,
    example: Example,
    member: str,
    value: Any,
    at: str,
    what: str,
) -> Iterator[Finding]:
    tool = example.primitive
    schema = _tool_schema(document, tool, member)
    if schema is None:
        return
    compiled = document.compiled_schema(schema)
    incomplete = False
    unchecked: list[str] = []
    modern = any(revision >= DIALECT_FLOOR for revision in tool.scope)
    if modern:
        check = document.check_instance(schema, value)
        incomplete = check.unresolvable
        unchecked = [*([compiled.unchecked] if compiled.unchecked else []), *check.unchecked]
        for problem in check.errors:
            yield Finding.error(
                "tool-example-schema-mismatch",
                f"{example.label}: {what} does not match the tool's {member}: {problem.message}",
                jp.join(at, *problem.path),
            )
    else:
        for path, message in _legacy_problems(schema, value):
            yield Finding.error(
                "tool-example-schema-mismatch",
                f"{example.label}: {what} does not match the tool's {member}: {message}",
                jp.join(at, *path),
            )
    early = before(tool.scope, DIALECT_FLOOR)
    reasons = unchecked
    if early or compiled.external_refs or incomplete:
        reasons.insert(
            0, f"protocol version(s) {describe(early)} define no schema dialect" if early else "it uses external $refs"
        )
    if reasons:
        # Also where a pattern cannot be matched in linear time or the budget ran out: the
        # example is not refused, only its check is partial, so it is this rule's warning.
        yield Finding.warning(
            "incomplete-tool-example-validation",
            f"{example.label}: {what} could only be partly checked against {member} ({'; '.join(reasons)})",
            at,
        )


@rule(
    "mcpdesc.tool-example.schema-compatibility",
    doc=RuleDoc(
        summary=(
            "A tool example's `input` (and a successful result's `structuredContent`) validate against the tool's "
            "input (and output) schema."
        ),
        rationale=(
            "Examples are what readers copy; an input the schema refuses documents a call that fails. Before "
            "2025-11-25 only part can be checked, with a warning."
        ),
        bad=fragment(
            """
            tools:
              - name: search
                inputSchema:
                  type: object
                  properties:
                    query: {type: string}
                examples:
                  weather:
                    input: {query: 42}
                    result:
                      content:
                        - type: text
                          text: 3 documents found.
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
                examples:
                  weather:
                    input: {query: weather}
                    result:
                      content:
                        - type: text
                          text: 3 documents found.
            """
        ),
        requirements=("digest §4.8", "digest §2.8"),
        codes=("tool-example-schema-mismatch", "incomplete-tool-example-validation"),
    ),
)
def schema_compatibility(document: Document) -> Iterator[Finding]:
    for example in tool_examples(document):
        if "input" in example.data:
            yield from _check_against(
                document, example, "inputSchema", example.data["input"], jp.join(example.pointer, "input"), "input"
            )
        result = as_object(example.data.get("result"))
        if result.get("isError") is not True and "structuredContent" in result:
            yield from _check_against(
                document,
                example,
                "outputSchema",
                result["structuredContent"],
                jp.join(example.pointer, "result", "structuredContent"),
                "structuredContent",
            )


@rule(
    "mcp.tool-example.result.protocol-shape",
    doc=RuleDoc(
        summary=(
            "A tool example's result has the shape its protocol versions define: `resultType: complete` for "
            "2026-07-28 only, `structuredContent` from 2025-06-18 (an object before 2026)."
        ),
        rationale=(
            "A result of another version's shape is not one a client of the declared versions receives; split the "
            "declaration by scope if needed."
        ),
        bad=fragment(
            """
            tools:
              - name: search
                inputSchema:
                  type: object
                  properties:
                    query: {type: string}
                examples:
                  weather:
                    input: {query: weather}
                    result:
                      content:
                        - type: text
                          text: 3 documents found.
                      resultType: complete
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
                examples:
                  weather:
                    input: {query: weather}
                    result:
                      content:
                        - type: text
                          text: 3 documents found.
            """
        ),
        requirements=("digest §4.8", "digest §2.8"),
        codes=("tool-example-result-version-mismatch",),
    ),
)
def result_shape(document: Document) -> Iterator[Finding]:
    code = "tool-example-result-version-mismatch"
    for example in tool_examples(document):
        result = as_object(example.data.get("result"))
        at = jp.join(example.pointer, "result")
        scope = example.primitive.scope
        yield from result_type(result, at, scope, example.label, code)
        yield from meta_floor(result, at, scope, example.label, code)
        if "structuredContent" in result:
            early = before(scope, STRUCTURED_FLOOR)
            if early:
                yield Finding.error(
                    code,
                    f"{example.label}: structuredContent is not defined by protocol version(s) {describe(early)}",
                    jp.join(at, "structuredContent"),
                )
            pre_2026 = before(scope, "2026-07-28")
            if pre_2026 and not isinstance(result["structuredContent"], dict):
                yield Finding.error(
                    code,
                    f"{example.label}: structuredContent must be an object under {describe(pre_2026)}",
                    jp.join(at, "structuredContent"),
                )


@rule(
    "mcp.tool-example.content.protocol-shape",
    doc=RuleDoc(
        summary=(
            "Content blocks in a tool example use only what the protocol versions in scope define (audio, resource "
            "links, `_meta`, icons, `lastModified`)."
        ),
        rationale=(
            "Content types and fields arrived with particular versions; a block a version lacks is one its clients "
            "cannot show."
        ),
        bad=fragment(
            """
            protocolVersions: ["2025-03-26"]
            tools:
              - name: search
                inputSchema:
                  type: object
                  properties:
                    query: {type: string}
                examples:
                  weather:
                    input: {query: weather}
                    result:
                      content:
                        - type: resource_link
                          uri: file:///README.md
                          name: readme
            """
        ),
        good=fragment(
            """
            protocolVersions: ["2025-03-26"]
            tools:
              - name: search
                inputSchema:
                  type: object
                  properties:
                    query: {type: string}
                examples:
                  weather:
                    input: {query: weather}
                    result:
                      content:
                        - type: text
                          text: See file:///README.md
            """
        ),
        requirements=("digest §4.8", "digest §2.8"),
        codes=("tool-example-content-version-mismatch",),
    ),
)
def content_shape(document: Document) -> Iterator[Finding]:
    for example in tool_examples(document):
        result = as_object(example.data.get("result"))
        if "content" in result:
            yield from content_blocks(
                result["content"],
                jp.join(example.pointer, "result", "content"),
                example.primitive.scope,
                example.label,
                "tool-example-content-version-mismatch",
            )


@rule(
    "mcpdesc.tool-example.completed",
    doc=RuleDoc(
        summary=(
            "A tool example's result is a completed tool result with `content`: no JSON-RPC envelope and no fields "
            "of an unfinished request."
        ),
        rationale="Examples show the result itself, as a client receives it once the call is done.",
        bad=fragment(
            """
            tools:
              - name: search
                inputSchema:
                  type: object
                  properties:
                    query: {type: string}
                examples:
                  weather:
                    input: {query: weather}
                    result:
                      content:
                        - type: text
                          text: 3 documents found.
                      jsonrpc: "2.0"
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
                examples:
                  weather:
                    input: {query: weather}
                    result:
                      content:
                        - type: text
                          text: 3 documents found.
            """
        ),
        requirements=("digest §4.8", "digest §2.8"),
        codes=("tool-example-json-rpc-envelope", "incomplete-tool-example-result", "tool-example-content-missing"),
    ),
)
def completed_result(document: Document) -> Iterator[Finding]:
    for example in tool_examples(document):
        result = as_object(example.data.get("result"))
        at = jp.join(example.pointer, "result")
        yield from completed(
            result, at, example.label, "tool-example-json-rpc-envelope", "incomplete-tool-example-result"
        )
        if not isinstance(result.get("content"), list):
            yield Finding.error(
                "tool-example-content-missing",
                f"{example.label}: a completed tool result has a 'content' array (empty is allowed)",
                jp.join(at, "content") if "content" in result else at,
            )


@rule(
    "mcpdesc.tool-example.result-consistency",
    doc=RuleDoc(
        summary=(
            "An error result (`isError: true`) carries no `structuredContent`, and a successful one has it when the "
            "tool declares an `outputSchema`."
        ),
        rationale=(
            "Structured content is the typed success value the output schema describes; an error has none, and a "
            "success without it contradicts the schema."
        ),
        bad=fragment(
            """
            tools:
              - name: search
                inputSchema: {type: object}
                outputSchema:
                  type: object
                  properties:
                    hits: {type: integer}
                examples:
                  weather:
                    input: {}
                    result:
                      content:
                        - type: text
                          text: 3 documents found.
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
                    hits: {type: integer}
                examples:
                  weather:
                    input: {}
                    result:
                      content:
                        - type: text
                          text: 3 documents found.
                      structuredContent:
                        hits: 3
            """
        ),
        requirements=("digest §4.8", "digest §2.8"),
        codes=("structured-tool-error-example", "missing-tool-example-structured-content"),
    ),
)
def result_consistency(document: Document) -> Iterator[Finding]:
    for example in tool_examples(document):
        result = as_object(example.data.get("result"))
        at = jp.join(example.pointer, "result")
        if result.get("isError") is True:
            if "structuredContent" in result:
                yield Finding.error(
                    "structured-tool-error-example",
                    f"{example.label}: an error result (isError: true) must not carry structuredContent",
                    jp.join(at, "structuredContent"),
                )
        elif "outputSchema" in example.primitive.data and "structuredContent" not in result:
            yield Finding.error(
                "missing-tool-example-structured-content",
                f"{example.label}: the tool declares an outputSchema, so a successful result needs structuredContent",
                at,
            )
