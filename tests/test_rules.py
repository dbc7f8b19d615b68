"""Structural and semantic rules outside the elicitation chapter."""

from __future__ import annotations

from typing import Any

import pytest

from mcpdesc_docs.spec.versions import SPEC_0_9_0_RC_3
from mcpdesc_docs.validation.registry import rules_for

from .helpers import VERSIONS, base_document, describe, diagnostics_of, errors_of


def codes(document: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {(d.rule, d.code, d.path) for d in diagnostics_of(document)}


@pytest.mark.parametrize("version", VERSIONS)
def test_base_document_is_valid(version: str) -> None:
    assert diagnostics_of(base_document(version)) == []


def test_minimal_zero_primitive_document_is_valid() -> None:
    document = {"mcpdesc": "0.8.0", "info": {"name": "x", "version": "1"}, "protocolVersions": ["2025-11-25"]}
    assert diagnostics_of(document) == []


def test_unknown_member_points_at_the_member() -> None:
    document = base_document()
    document["tools"][0]["colour"] = "red"
    document["tools"][0]["x-colour"] = "red"  # extensions are fine
    assert codes(document) == {("mcpdesc.tool.members", "unknown-member", "/tools/0/colour")}


def test_empty_root_collection() -> None:
    document = base_document(prompts=[])
    assert codes(document) == {("mcpdesc.collections.non-empty", "empty-collection", "/prompts")}


def test_unknown_protocol_version() -> None:
    document = base_document(protocolVersions=["2025-06-18", "2099-01-01"])
    assert ("mcpdesc.protocol-versions.supported", "invalid-value", "/protocolVersions/1") in codes(document)


def test_primitive_scope_outside_root() -> None:
    document = base_document(protocolVersions=["2025-11-25"])
    document["tools"][0]["protocolVersions"] = ["2025-11-25", "2026-07-28"]
    assert codes(document) == {
        ("mcpdesc.protocol-scope.consistency", "protocol-scope-outside-parent", "/tools/0/protocolVersions/1")
    }


def test_overlapping_tool_scopes_and_disjoint_variants() -> None:
    document = base_document()
    variant = {"name": "assign_issue", "inputSchema": {"type": "object"}, "protocolVersions": ["2026-07-28"]}
    document["tools"].append(variant)
    assert ("mcpdesc.primitives.scope-unique", "primitive-scope-overlap", "/tools/1/name") in codes(document)
    document["tools"][0]["protocolVersions"] = ["2025-06-18", "2025-11-25"]
    assert errors_of(document) == []


def test_capabilities_overlap_and_transport_coverage() -> None:
    document = base_document(
        capabilities=[{"tools": {}}, {"protocolVersions": ["2026-07-28"], "prompts": {}}],
        transports=[{"type": "stdio", "command": "srv", "protocolVersions": ["2025-06-18"]}],
    )
    found = codes(document)
    assert ("mcpdesc.capabilities.scope-unique", "capability-scope-overlap", "/capabilities/1") in found
    assert ("mcpdesc.transports.coverage", "transport-coverage-gap", "/transports") in found


def test_security_references_and_scopes() -> None:
    document = base_document(
        securitySchemes={
            "key": {"type": "apiKey", "name": "X-Key", "in": "header"},
            "oauth": {
                "type": "oauth2",
                "flows": {"clientCredentials": {"tokenUrl": "https://id.example.com/token", "scopes": {"read": "r"}}},
            },
        },
        security=[{"key": ["admin"]}, {"oauth": ["read", "read", "write"]}, {"nope": []}],
    )
    found = codes(document)
    assert ("mcpdesc.security.non-oauth-scopes", "non-oauth-scope-misuse", "/security/0/key") in found
    assert ("mcpdesc.security.scope-unique", "duplicate-security-scope", "/security/1/oauth/1") in found
    assert ("mcpdesc.security.scope-catalogue", "uncatalogued-oauth-scope", "/security/1/oauth/2") in found
    assert ("mcpdesc.security.scheme-references", "unknown-security-scheme", "/security/2/nope") in found


def test_oauth_flow_needs_its_urls() -> None:
    document = base_document(
        securitySchemes={
            "oauth": {"type": "oauth2", "flows": {"authorizationCode": {"tokenUrl": "https://t.example", "scopes": {}}}}
        }
    )
    assert (
        "mcpdesc.security.oauth-flows",
        "missing-member",
        "/securitySchemes/oauth/flows/authorizationCode",
    ) in codes(document)


def test_tags() -> None:
    document = base_document(tags=[{"name": "a"}, {"name": "a"}])
    document["tools"][0]["tags"] = ["a", "b"]
    found = codes(document)
    assert ("mcpdesc.tags.unique", "duplicate-root-tag", "/tags/1/name") in found
    assert ("mcpdesc.tags.references", "unknown-tag-reference", "/tools/0/tags/1") in found
    del document["tags"]  # without a catalogue tags are free strings
    assert errors_of(document) == []


def test_component_reference_problems() -> None:
    document = base_document(
        components={
            "schemas": {
                "A": {"$componentRef": "#/components/schemas/B"},
                "B": {"$componentRef": "#/components/schemas/A"},
            },
            "toolExamples": {"ok": {"input": {}, "result": {"content": []}}},
        }
    )
    document["tools"][0]["inputSchema"] = {"$componentRef": "#/components/toolExamples/ok"}
    document["tools"][0]["outputSchema"] = {"$componentRef": "#/components/schemas/A"}
    found = {code for _, code, _ in codes(document)}
    assert {"wrong-component-reference-namespace", "component-reference-cycle"} <= found
    document["tools"][0]["inputSchema"] = {"$componentRef": "#/components/schemas/Nope"}
    assert (
        "mcpdesc.components.references",
        "missing-component-reference-target",
        "/tools/0/inputSchema/$componentRef",
    ) in codes(document)


def test_revision_applicability() -> None:
    document = base_document(protocolVersions=["2025-03-26", "2025-06-18", "2025-11-25"])
    tool = document["tools"][0]
    tool.update(title="Assign", execution={"taskSupport": "optional"}, protocolVersions=["2025-06-18", "2025-11-25"])
    tool["elicitations"][0]["protocolVersions"] = ["2025-06-18"]
    found = codes(document)
    assert ("mcp.tool.protocol-version", "field-not-supported-by-version", "/tools/0/execution") in found
    assert not any(path == "/tools/0/title" for _, _, path in found)
    tool["protocolVersions"] = ["2025-03-26", "2025-06-18"]
    tool.pop("execution")
    assert ("mcp.tool.protocol-version", "field-not-supported-by-version", "/tools/0/title") in codes(document)


def test_transport_and_capability_revisions() -> None:
    document = base_document(
        protocolVersions=["2024-11-05", "2025-11-25", "2026-07-28"],
        transports=[
            {"type": "streamable-http", "url": "https://x.example/mcp"},
            {"type": "sse", "url": "https://x.example/sse"},
        ],
        capabilities=[{"tasks": {}, "logging": {}, "extensions": {"io.modelcontextprotocol/unknown": {}}}],
    )
    document["tools"][0]["elicitations"][0]["protocolVersions"] = ["2025-11-25"]
    found = {(rule, code) for rule, code, _ in codes(document)}
    assert ("mcp.transport.protocol-version", "transport-not-supported-by-version") in found
    assert ("mcp.transport.legacy-sse", "legacy-sse-for-modern-version") in found
    assert ("mcp.capabilities.protocol-version", "field-not-supported-by-version") in found
    assert ("mcp.capabilities.tasks-2026", "tasks-core-not-valid-in-2026") in found
    assert ("mcp.capabilities.logging-deprecated", "logging-deprecated-in-2026") in found
    assert ("mcp.capabilities.extensions-pre-standard", "extensions-not-supported-by-version") in found
    assert ("mcp.extensions.identifier-authority", "unknown-reserved-extension-identifier") in found


def test_bad_uri_fails_format_check() -> None:
    document = base_document(transports=[{"type": "streamable-http", "url": "http://exa mple.com/mcp"}])
    assert ("mcpdesc.transport.members", "invalid-uri", "/transports/0/url") in codes(document)


def test_all_problems_are_collected() -> None:
    document = base_document(tags=[{"name": "a"}, {"name": "a"}])
    document["tools"][0]["elicitations"][0]["requestedSchema"]["required"] = ["nobody"]
    document["tools"][0]["colour"] = "red"
    rules = {d.rule for d in errors_of(document)}
    assert {"mcpdesc.tags.unique", "mcpdesc.elicitation.form-schema.consistency", "mcpdesc.tool.members"} <= rules, (
        describe(errors_of(document))
    )


def test_rules_never_crash_on_malformed_shapes() -> None:
    # Wrong types everywhere: structural errors, and no exception from any rule.
    document: dict[str, Any] = {
        "mcpdesc": "0.9.0",
        "info": [],
        "protocolVersions": "2025-06-18",
        "tools": [
            {"name": 3, "elicitations": [{"name": None, "mode": "form", "requestedSchema": {"properties": []}}]},
            5,
        ],
        "transports": {"type": "stdio"},
        "security": [{"x": "y"}],
        "tags": [3],
        "capabilities": [[]],
        "components": {"schemas": {"A": {"$componentRef": 5}}},
    }
    assert errors_of(document)
    assert [d for d in errors_of(document) if d.code == "internal-error"] == []


def _object_scopes(document: dict[str, Any]) -> None:
    document["securitySchemes"] = {"bearer": {"type": "http", "scheme": "bearer"}}
    document["security"] = [{"bearer": [{"not": "a scope"}, ["nor", "this"]]}]


def _unhashable_elicitation_name(document: dict[str, Any]) -> None:
    tool = document["tools"][0]
    schema = {"type": "object", "properties": {}}
    tool["elicitations"].append({"name": ["choose"], "mode": "form", "message": "m", "requestedSchema": schema})
    step = {
        "type": "elicitation",
        "declaration": "choose",
        "request": {"mode": "form", "message": "m", "requestedSchema": schema},
        "response": {"action": "decline"},
    }
    tool["interactionExamples"] = {"ask": {"input": {"issue": 1}, "steps": [step], "result": {"content": []}}}


def _unknown_revision_in_scope(document: dict[str, Any]) -> None:
    document["tools"][0]["protocolVersions"] = ["2025-06-18", "2099-01-01"]
    document["tools"][0]["clientRequirements"] = {"elicitation": {}}


@pytest.mark.parametrize(
    ("malform", "reported"),
    [
        (_object_scopes, ("mcpdesc.security.requirement-members", "wrong-type", "/security/0/bearer/0")),
        (
            _unhashable_elicitation_name,
            (
                "mcpdesc.interaction-example.steps",
                "unknown-elicitation-declaration",
                "/tools/0/interactionExamples/ask/steps/0/declaration",
            ),
        ),
        (
            _unknown_revision_in_scope,
            ("mcpdesc.protocol-versions.supported", "invalid-value", "/tools/0/protocolVersions/1"),
        ),
    ],
)
def test_shapes_that_crashed_a_rule_are_reported_not_crashed_on(malform: Any, reported: tuple[str, str, str]) -> None:
    # Each used to crash a rule (unhashable values, an unknown revision as a table key), which
    # went unnoticed only because the document also had a structural error.
    document = base_document()
    malform(document)
    assert reported in codes(document)
    assert [d for d in diagnostics_of(document) if d.code == "internal-error"] == []


def test_registry_is_keyed_by_rule_id() -> None:
    registry = rules_for(SPEC_0_9_0_RC_3)
    assert "mcpdesc.elicitation.name-unique" in registry
    # The spec's ids, and ours (mcpdesc-docs.*, like mcpdesc-docs.config) for what it does not name.
    assert all(rule_id.startswith(("mcpdesc.", "mcp.", "mcpdesc-docs.")) for rule_id in registry)


def test_client_requirements_have_no_scope() -> None:
    document = base_document()
    document["tools"][0]["clientRequirements"] = {"protocolVersions": ["2025-06-18"], "elicitation": {}}
    assert codes(document) == {
        (
            "mcpdesc.client-requirements.members",
            "invalid-client-requirement-value",
            "/tools/0/clientRequirements/protocolVersions",
        )
    }
    document["tools"][0]["clientRequirements"] = {"elicitation": True}
    assert codes(document) == {
        ("mcpdesc.client-requirements.members", "wrong-type", "/tools/0/clientRequirements/elicitation")
    }


def test_reference_object_allows_no_siblings() -> None:
    document = base_document(components={"schemas": {"Form": {"type": "object", "properties": {}}}})
    document["tools"][0]["elicitations"][0]["requestedSchema"] = {
        "$componentRef": "#/components/schemas/Form",
        "x-note": "siblings are not allowed, not even extensions",
    }
    assert codes(document) == {
        ("mcpdesc.components.references", "unknown-member", "/tools/0/elicitations/0/requestedSchema/x-note")
    }
