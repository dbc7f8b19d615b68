"""Digest sections 4.6-4.10: every rule accepts the rich valid document and refuses a
mutation made to break it (with the rule id and code the digest gives)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .helpers import describe, diagnostics_of
from .rich_document import FORM, rich

Doc = dict[str, Any]


def tool(doc: Doc, name: str) -> Doc:
    return next(t for t in doc["tools"] if t["name"] == name)


def interaction(doc: Doc) -> Doc:
    return tool(doc, "search")["interactionExamples"]["confirmed"]


def step(doc: Doc, index: int) -> Doc:
    return interaction(doc)["steps"][index]


def set_in(path: list[Any], value: Any) -> Callable[[Doc], None]:
    def mutate(doc: Doc) -> None:
        target: Any = doc
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = value

    return mutate


def delete(path: list[Any]) -> Callable[[Doc], None]:
    def mutate(doc: Doc) -> None:
        target: Any = doc
        for part in path[:-1]:
            target = target[part]
        del target[path[-1]]

    return mutate


def both(*mutations: Callable[[Doc], None]) -> Callable[[Doc], None]:
    def mutate(doc: Doc) -> None:
        for m in mutations:
            m(doc)

    return mutate


T0 = ["tools", 0]  # search, 2025-11-25
T1 = ["tools", 1]  # headers, 2026-07-28
T2 = ["tools", 2]  # legacy, 2025-06-18
FAILED = [*T0, "examples", "failed"]
OK26 = [*T1, "examples", "ok"]
R0 = ["resources", 0]
R1 = ["resources", 1]
P0 = ["prompts", 0]
RT0 = ["resourceTemplates", 0]

CASES: list[tuple[str, str, Callable[[Doc], None]]] = [
    # 4.6 _meta
    ("mcp.meta.key-grammar", "meta-key-invalid", set_in([*T0, "_meta", "bad key!"], 1)),
    (
        "mcp.meta.reserved-key-context",
        "meta-reserved-key-context",
        set_in([*OK26, "result", "_meta", "io.modelcontextprotocol/protocolVersion"], "2026-07-28"),
    ),
    (
        "mcp.meta.reserved-key-value",
        "meta-reserved-key-value",
        set_in([*FAILED, "result", "_meta", "io.modelcontextprotocol/related-task"], {"id": 1}),
    ),
    (
        "mcp.meta.unknown-reserved-key",
        "meta-unknown-reserved-key",
        set_in([*T0, "_meta", "io.modelcontextprotocol/made-up"], 1),
    ),
    (
        "mcp.meta.protocol-version",
        "field-not-supported-by-version",
        both(
            set_in([*T0, "protocolVersions"], ["2025-03-26", "2025-11-25"]),
            set_in(["protocolVersions"], ["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]),
        ),
    ),
    # 4.7 tool schemas
    ("mcp.tool.input-schema.members", "schema-validation", set_in(["components", "schemas", "Query", "type"], "array")),
    (
        "mcp.tool.schema-dialect",
        "unsupported-tool-schema-dialect",
        set_in([*T1, "inputSchema", "$schema"], "https://json-schema.org/draft/2019-09/schema"),
    ),
    (
        "mcp.tool.schema-valid",
        "invalid-tool-schema",
        set_in([*T0, "outputSchema", "properties", "hits", "type"], "integr"),
    ),
    (
        "mcp.tool.schema-dialect.protocol-version",
        "field-not-supported-by-version",
        set_in([*T2, "inputSchema", "$schema"], "https://json-schema.org/draft/2020-12/schema"),
    ),
    (
        "mcp.tool.legacy-schema-shape",
        "invalid-legacy-tool-schema-shape",
        set_in([*T2, "inputSchema", "required"], ["a", 1]),
    ),
    ("mcp.tool.output-schema.root", "field-not-supported-by-version", set_in([*T0, "outputSchema"], {"type": "array"})),
    (
        "mcp.tool.schema.external-ref",
        "unresolved-external-tool-schema-reference",
        set_in([*T1, "inputSchema", "properties", "extra"], {"$ref": "https://schemas.example.com/extra.json"}),
    ),
    (
        "mcp.tool.x-mcp-header",
        "invalid-x-mcp-header",
        set_in([*T1, "inputSchema", "properties", "region", "x-mcp-header"], "X Region"),
    ),
    (
        "mcp.tool.x-mcp-header",
        "invalid-x-mcp-header",
        set_in(
            [*T1, "inputSchema", "properties", "list"],
            {"type": "array", "items": {"type": "string", "x-mcp-header": "X-Item"}},
        ),
    ),
    (
        "mcp.tool.x-mcp-header",
        "duplicate-x-mcp-header",
        set_in([*T1, "inputSchema", "properties", "nested", "properties", "flag", "x-mcp-header"], "x-region"),
    ),
    (
        "mcp.tool.x-mcp-header",
        "field-not-supported-by-version",
        set_in([*T2, "inputSchema", "properties", "a", "x-mcp-header"], "X-A"),
    ),
    # 4.8 examples
    ("mcpdesc.tool-example.schema-compatibility", "tool-example-schema-mismatch", set_in([*FAILED, "input"], {"q": 5})),
    (
        "mcpdesc.tool-example.schema-compatibility",
        "tool-example-schema-mismatch",
        set_in(["components", "toolExamples", "found", "result", "structuredContent"], {"hits": "one"}),
    ),
    (
        "mcpdesc.tool-example.schema-compatibility",
        "incomplete-tool-example-validation",
        set_in([*T2, "examples"], {"e": {"input": {"a": "x"}, "result": {"content": []}}}),
    ),
    (
        "mcp.tool-example.result.protocol-shape",
        "tool-example-result-version-mismatch",
        set_in([*FAILED, "result", "resultType"], "complete"),
    ),
    (
        "mcp.tool-example.result.protocol-shape",
        "tool-example-result-version-mismatch",
        delete([*OK26, "result", "resultType"]),
    ),
    (
        "mcp.tool-example.content.protocol-shape",
        "tool-example-content-version-mismatch",
        both(
            set_in([*T0, "protocolVersions"], ["2025-06-18", "2025-11-25"]),
            delete([*T0, "elicitations", 1]),
            delete([*T0, "interactionExamples"]),
        ),
    ),
    ("mcpdesc.tool-example.completed", "tool-example-json-rpc-envelope", set_in([*FAILED, "result", "jsonrpc"], "2.0")),
    (
        "mcpdesc.tool-example.completed",
        "incomplete-tool-example-result",
        set_in([*FAILED, "result", "task"], {"taskId": "1"}),
    ),
    (
        "mcpdesc.tool-example.result-consistency",
        "structured-tool-error-example",
        set_in([*FAILED, "result", "structuredContent"], {"hits": 0}),
    ),
    (
        "mcpdesc.tool-example.result-consistency",
        "missing-tool-example-structured-content",
        delete(["components", "toolExamples", "found", "result", "structuredContent"]),
    ),
    (
        "mcp.interaction-example.protocol-version",
        "interaction-example-version-mismatch",
        both(
            set_in([*T0, "protocolVersions"], ["2025-06-18", "2025-11-25"]),
            delete([*T0, "elicitations", 1]),
            lambda d: interaction(d)["steps"].pop(3),
        ),
    ),
    (
        "mcpdesc.interaction-example.steps",
        "unknown-elicitation-declaration",
        lambda d: step(d, 2).update(declaration="nope"),
    ),
    (
        "mcpdesc.interaction-example.steps",
        "interaction-example-elicitation-declaration-mismatch",
        lambda d: step(d, 2)["request"].update(requestedSchema={**FORM, "required": []}),
    ),
    (
        "mcpdesc.interaction-example.steps",
        "interaction-example-elicitation-declaration-mismatch",
        lambda d: step(d, 3)["request"].update(url="https://example.com/other"),
    ),
    (
        "mcpdesc.interaction-example.steps",
        "interaction-example-elicitation-response-mismatch",
        lambda d: step(d, 3)["response"].update(content={"a": 1}),
    ),
    (
        "mcpdesc.interaction-example.steps",
        "interaction-example-elicitation-content-schema-mismatch",
        lambda d: step(d, 2)["response"].update(content={"confirm": "yes"}),
    ),
    (
        "mcpdesc.interaction-example.steps",
        "interaction-example-roots-uri",
        lambda d: step(d, 0)["response"]["roots"][0].update(uri="https://example.com"),
    ),
    (
        "mcpdesc.interaction-example.client-requirements",
        "interaction-example-client-requirements-contradiction",
        delete([*T0, "clientRequirements", "roots"]),
    ),
    (
        "mcpdesc.resource-example.result",
        "resource-example-json-rpc-envelope",
        set_in([*R0, "examples", "guide", "result", "id"], 1),
    ),
    (
        "mcpdesc.resource-example.result",
        "incomplete-resource-example-result",
        set_in([*R0, "examples", "guide", "result", "requestState"], "x"),
    ),
    (
        "mcp.resource-example.protocol-shape",
        "resource-example-result-version-mismatch",
        delete([*R1, "examples", "logo", "result", "resultType"]),
    ),
    (
        "mcp.resource-example.protocol-shape",
        "resource-example-cache-fields-version-mismatch",
        set_in([*R0, "examples", "guide", "result", "ttlMs"], 5),
    ),
    (
        "mcp.resource-example.protocol-shape",
        "resource-example-content-version-mismatch",
        both(
            set_in([*R0, "protocolVersions"], ["2025-03-26", "2025-11-25"]),
            set_in(["protocolVersions"], ["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]),
            set_in([*R0, "examples", "guide", "result", "contents", 0, "_meta"], {}),
        ),
    ),
    (
        "mcpdesc.resource-example.content",
        "invalid-resource-example-base64",
        set_in([*R1, "examples", "logo", "result", "contents", 0, "blob"], "aGVsbG8"),
    ),
    (
        "mcpdesc.resource-example.content",
        "resource-example-requested-uri-not-returned",
        set_in([*R0, "examples", "guide", "result", "contents", 0, "uri"], "docs://other"),
    ),
    (
        "mcpdesc.resource-example.content",
        "resource-example-mime-type-mismatch",
        set_in([*R0, "examples", "guide", "result", "contents", 0, "mimeType"], "text/html"),
    ),
    ("mcpdesc.resource-example.content", "resource-example-size-mismatch", set_in([*R0, "size"], 6)),
    (
        "mcpdesc.resource-template-example.uri",
        "resource-template-example-invalid-expansion",
        set_in([*RT0, "examples", "intro", "uri"], "files://guide/intro"),
    ),
    (
        "mcpdesc.resource-template-example.uri",
        "resource-template-example-invalid-template",
        set_in([*RT0, "uriTemplate"], "docs://{section"),
    ),
    (
        "mcpdesc.prompt-example.arguments",
        "prompt-example-unknown-argument",
        set_in([*P0, "examples", "short", "arguments", "mood"], "x"),
    ),
    (
        "mcpdesc.prompt-example.arguments",
        "prompt-example-missing-required-argument",
        delete([*P0, "examples", "short", "arguments", "topic"]),
    ),
    (
        "mcpdesc.prompt-example.result",
        "prompt-example-json-rpc-envelope",
        set_in([*P0, "examples", "short", "result", "error"], {}),
    ),
    (
        "mcpdesc.prompt-example.result",
        "incomplete-prompt-example-result",
        set_in([*P0, "examples", "short", "result", "inputRequests"], []),
    ),
    (
        "mcp.prompt-example.protocol-shape",
        "prompt-example-result-version-mismatch",
        set_in([*P0, "examples", "short", "result", "resultType"], "complete"),
    ),
    (
        "mcp.prompt-example.protocol-shape",
        "prompt-example-content-version-mismatch",
        both(
            set_in([*P0, "protocolVersions"], ["2025-06-18", "2025-11-25"]),
            set_in(
                [*P0, "examples", "short", "result", "messages", 0, "content"],
                {"type": "resource_link", "uri": "docs://x", "name": "x", "icons": [{"src": "https://e.com/i.png"}]},
            ),
        ),
    ),
    (
        "mcpdesc.completion-example.target",
        "prompt-completion-example-unknown-argument",
        set_in([*P0, "completionExamples", "topic", "argument", "name"], "subject"),
    ),
    (
        "mcpdesc.completion-example.target",
        "prompt-completion-example-context-unknown-argument",
        set_in([*P0, "completionExamples", "topic", "context", "arguments"], {"mood": "x"}),
    ),
    (
        "mcpdesc.completion-example.target",
        "resource-template-completion-example-unknown-variable",
        set_in([*RT0, "completionExamples", "section", "argument", "name"], "chapter"),
    ),
    (
        "mcpdesc.completion-example.target",
        "resource-template-completion-example-context-unknown-variable",
        set_in([*RT0, "completionExamples", "path", "context", "arguments"], {"chapter": "1"}),
    ),
    (
        "mcpdesc.completion-example.target",
        "completion-example-duplicate-target-context",
        set_in([*RT0, "completionExamples", "path", "context", "arguments"], {"path": "x"}),
    ),
    (
        "mcpdesc.completion-example.target",
        "resource-template-completion-example-invalid-template",
        both(set_in([*RT0, "uriTemplate"], "docs://{section"), delete([*RT0, "examples"])),
    ),
    (
        "mcp.completion-example.protocol-version",
        "completion-example-version-mismatch",
        both(
            set_in(["protocolVersions"], ["2024-11-05", "2025-06-18", "2025-11-25", "2026-07-28"]),
            set_in([*P0, "protocolVersions"], ["2024-11-05", "2025-11-25"]),
            delete([*P0, "completionExamples", "topic", "context"]),
        ),
    ),
    (
        "mcp.completion-example.protocol-version",
        "completion-example-context-version-mismatch",
        both(
            set_in(["protocolVersions"], ["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]),
            set_in([*P0, "protocolVersions"], ["2025-03-26", "2025-11-25"]),
        ),
    ),
    (
        "mcp.completion-example.protocol-version",
        "completion-example-result-version-mismatch",
        set_in([*RT0, "completionExamples", "section", "result", "resultType"], "complete"),
    ),
    (
        "mcp.completion-example.protocol-version",
        "completion-example-json-rpc-envelope",
        set_in([*RT0, "completionExamples", "section", "result", "jsonrpc"], "2.0"),
    ),
    (
        "mcp.completion-example.protocol-version",
        "incomplete-completion-example-result",
        set_in([*RT0, "completionExamples", "section", "result", "task"], {}),
    ),
    (
        "mcpdesc.examples.names",
        "invalid-name",
        lambda d: d["prompts"][0]["examples"].update({"bad name": d["prompts"][0]["examples"]["short"]}),
    ),
    ("mcpdesc.examples.members", "missing-member", lambda d: step(d, 1)["request"].pop("maxTokens")),
    ("mcpdesc.examples.members", "invalid-value", lambda d: step(d, 3)["response"].update(action="ignore")),
    ("mcpdesc.examples.members", "unknown-member", lambda d: step(d, 0)["request"].update(cursor="x")),
    # 4.10 client requirements
    ("mcpdesc.client-requirements.members", "wrong-type", set_in([*T0, "clientRequirements", "roots"], True)),
    ("mcpdesc.client-requirements.members", "empty-collection", set_in([*T2, "clientRequirements"], {})),
    (
        "mcp.client-requirements.protocol-version",
        "client-requirement-version-mismatch",
        set_in([*T2, "clientRequirements"], {"tasks": {}}),
    ),
    (
        "mcp.client-requirements.protocol-version",
        "client-requirement-version-mismatch",
        set_in([*T0, "clientRequirements", "elicitation", "sms"], {}),
    ),
    (
        "mcp.client-requirements.protocol-version",
        "client-requirement-version-mismatch",
        set_in([*T1, "clientRequirements", "roots"], {"listChanged": True}),
    ),
    (
        "mcp.client-requirements.deprecated",
        "deprecated-client-requirement",
        set_in([*T1, "clientRequirements", "sampling"], {}),
    ),
    (
        "mcp.client-requirements.deprecated",
        "deprecated-client-requirement",
        set_in([*T0, "clientRequirements", "sampling", "context"], {}),
    ),
    (
        "mcp.extensions.identifier-authority",
        "unknown-reserved-extension-identifier",
        set_in([*T1, "clientRequirements", "extensions", "io.modelcontextprotocol/unknown"], {}),
    ),
]


def test_the_rich_document_is_valid():
    assert diagnostics_of(rich()) == [], describe(diagnostics_of(rich()))


@pytest.mark.parametrize("rule_id", sorted({rule_id for rule_id, _, _ in CASES}))
def test_each_rule_accepts_the_rich_document(rule_id):
    assert [d for d in diagnostics_of(rich()) if d.rule == rule_id] == []


@pytest.mark.parametrize(("rule_id", "code", "mutate"), CASES, ids=[f"{r}:{c}" for r, c, _ in CASES])
def test_each_rule_refuses_its_mutation(rule_id, code, mutate):
    document = rich()
    mutate(document)
    found = diagnostics_of(document)
    assert any(d.rule == rule_id and d.code == code for d in found), describe(found)


def test_extensions_are_not_scheme_names():
    document = rich()
    document["securitySchemes"] = {
        "x-policy": {"type": "http", "scheme": "bearer"},
        "key": {"type": "http", "scheme": "bearer"},
    }
    document["security"] = [{"key": [], "x-note": []}]
    found = [(d.rule, d.code, d.path) for d in diagnostics_of(document) if d.rule == "mcpdesc.extensions.placement"]
    assert found == [
        ("mcpdesc.extensions.placement", "extension-not-allowed", "/securitySchemes/x-policy"),
        ("mcpdesc.extensions.placement", "extension-not-allowed", "/security/0/x-note"),
    ]
    document["securitySchemes"] = {"key": {"type": "http", "scheme": "bearer", "x-owner": "identity"}}
    document["security"] = [{"key": []}]
    assert [d for d in diagnostics_of(document) if d.rule == "mcpdesc.extensions.placement"] == []
