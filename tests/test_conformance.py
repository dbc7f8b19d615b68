"""Upstream conformance fixtures: the folder a file sits in is its verdict.

The corpus is read in place from ``../shared/corpus/conformance-0.8.0`` (or
``$MCPDESC_CORPUS/conformance-0.8.0``): folders whose name contains ``invalid`` expect at
least one error, ``warning`` at least one warning and no error, ``valid`` no diagnostic.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mcpdesc_docs.validation.validator import validate_file

from .helpers import describe
from .shared_data import CONFORMANCE


def verdict_of(path: Path) -> str | None:
    for folder in reversed(path.relative_to(CONFORMANCE).parts[:-1]):
        name = folder.lower()
        for verdict in ("invalid", "warning", "valid"):
            if verdict in name:
                return verdict
    return None


def fixtures() -> list[tuple[Path, str]]:
    if not CONFORMANCE.is_dir():
        return []
    found = []
    for path in sorted(CONFORMANCE.rglob("*")):
        verdict = verdict_of(path) if path.suffix in {".json", ".yaml", ".yml"} else None
        if path.is_file() and verdict:
            found.append((path, verdict))
    return found


FIXTURES = fixtures()

# The rules that make each fixture invalid or a warning, read from the specification (the
# digest's rule tables, sections 4.1-4.10) and the fixture's content, not from this
# validator's output. Every listed rule must be reported at the fixture's severity.
EXPECTED_RULES: dict[str, tuple[str, ...]] = {
    # expected-invalid
    "closed-protocol-enum.json": ("mcpdesc.protocol-versions.supported",),
    "component-extension-boundaries.json": ("mcpdesc.components.members",),  # x-* in a namespace is a name
    "component-protocol-scope.json": ("mcp.resource-example.protocol-shape",),  # judged at each use site
    "component-reference-resolution.json": ("mcpdesc.components.references",),
    "duplicate-mcp-header.json": ("mcp.tool.x-mcp-header",),
    "duplicate-security-scope.json": ("mcpdesc.security.scope-unique",),
    "duplicate-tag-reference.json": ("mcpdesc.tags.references",),
    "elicitation-branch-mixing.json": ("mcpdesc.elicitation.members",),
    "elicitation-form-semantics.json": (
        "mcpdesc.elicitation.form-schema.consistency",
        "mcpdesc.elicitation.name-unique",
    ),
    "elicitation-scope-outside-parent.json": ("mcpdesc.protocol-scope.consistency",),
    "elicitation-version-mismatch.json": ("mcp.elicitation.protocol-version",),
    "empty-client-capability-requirements.json": ("mcpdesc.client-requirements.members",),
    "empty-ordinary-nested-collections.json": ("mcpdesc.collections.non-empty", "mcpdesc.tool.members"),
    "empty-ordinary-root-collections.json": ("mcpdesc.collections.non-empty",),
    "empty-tag-catalog-reference.json": ("mcpdesc.collections.non-empty",),
    "invalid-completion-example-semantics.json": (
        "mcp.completion-example.protocol-version",
        "mcpdesc.completion-example.target",
    ),
    "invalid-mcp-header-placement.json": ("mcp.tool.x-mcp-header",),
    "invalid-mcp-header-value.json": ("mcp.tool.x-mcp-header",),
    "invalid-prompt-example-semantics.json": (
        "mcpdesc.prompt-example.arguments",
        "mcpdesc.prompt-example.result",
        "mcp.prompt-example.protocol-shape",
    ),
    "invalid-resource-annotations.json": (
        "mcp.resource.annotations.protocol-version",
        "mcpdesc.resource-template.members",
    ),
    "invalid-security-scheme-name.json": ("mcpdesc.security.scheme-name",),
    "invalid-tool-example-result-semantics.json": (
        "mcpdesc.tool-example.result-consistency",
        "mcpdesc.tool-example.completed",
    ),
    "invalid-tool-interaction-example-semantics.json": (
        "mcpdesc.interaction-example.steps",
        "mcp.interaction-example.protocol-version",
        "mcpdesc.tool-example.result-consistency",
    ),
    "malformed-completion-examples.json": ("mcpdesc.collections.non-empty", "mcpdesc.examples.members"),
    "malformed-extension-identifier.json": ("mcp.extensions.identifier-grammar",),
    "malformed-pre-dialect-tool-schema-shape.json": ("mcp.tool.legacy-schema-shape",),
    "malformed-prompt-examples.json": (
        "mcpdesc.examples.names",
        "mcpdesc.examples.members",
        "mcpdesc.collections.non-empty",
    ),
    "malformed-resource-examples.json": (
        "mcpdesc.examples.names",
        "mcpdesc.examples.members",  # read results' contents are MCP's shape: structural
        "mcpdesc.resource-template-example.uri",
    ),
    "malformed-resource-template-example.json": ("mcpdesc.resource-template-example.uri",),
    "malformed-tool-examples.json": (
        "mcpdesc.examples.names",
        "mcpdesc.examples.members",
        "mcpdesc.collections.non-empty",
    ),
    "malformed-tool-interaction-examples.json": ("mcpdesc.examples.members", "mcpdesc.collections.non-empty"),
    "malformed-tool-schema.json": ("mcp.tool.schema-valid",),
    "meta-invalid-key.json": ("mcp.meta.key-grammar",),
    "meta-reserved-key-misuse.json": ("mcp.meta.reserved-key-context", "mcp.meta.reserved-key-value"),
    "missing-tool-input-schema.json": ("mcp.tool.input-schema.members",),
    "non-oauth-scopes.json": ("mcpdesc.security.non-oauth-scopes",),
    "non-object-output-schema-before-2026.json": ("mcp.tool.output-schema.root",),
    "oauth-flow-missing-required-url.json": ("mcpdesc.security.oauth-flows",),
    # an extension cannot make inputSchema optional: the core rule still applies
    "object-level-extension-cannot-weaken-core.json": ("mcp.tool.input-schema.members",),
    "object-level-extension-in-capability-map.json": ("mcpdesc.extensions.placement",),
    "object-level-extension-in-domain-map.json": ("mcpdesc.extensions.placement",),
    "object-level-extension-in-native-content.json": ("mcpdesc.extensions.placement",),
    "object-level-extension-in-security-requirement.json": ("mcpdesc.extensions.placement",),
    "object-level-unknown-property.json": ("mcpdesc.tool.members",),
    "overlapping-capabilities.json": ("mcpdesc.capabilities.scope-unique",),
    "overlapping-tool-scope.json": ("mcpdesc.primitives.scope-unique",),
    "resource-example-cache-fields.json": ("mcp.resource-example.protocol-shape", "mcpdesc.examples.members"),
    "resource-example-result-semantics.json": (
        "mcpdesc.resource-example.result",
        "mcpdesc.resource-example.content",
        "mcp.resource-example.protocol-shape",
        "mcpdesc.resource-template-example.uri",
    ),
    "revision-inapplicable-execution.json": ("mcp.tool.protocol-version",),
    "revision-inapplicable-mcp-header.json": ("mcp.tool.x-mcp-header",),
    "revision-inapplicable-streamable-http.json": ("mcp.transport.protocol-version",),
    "revision-inapplicable-tool-schema-dialect.json": ("mcp.tool.schema-dialect.protocol-version",),
    "revision-incompatible-client-capability-requirements.json": ("mcp.client-requirements.protocol-version",),
    "revision-incompatible-tool-example.json": (
        "mcp.tool-example.result.protocol-shape",
        "mcp.tool-example.content.protocol-shape",
    ),
    "root-version-without-transport.json": ("mcpdesc.transports.coverage",),
    "scoped-version-not-in-root.json": ("mcpdesc.protocol-scope.consistency",),
    "tool-example-schema-mismatches.json": ("mcpdesc.tool-example.schema-compatibility",),
    "unknown-security-reference.json": ("mcpdesc.security.scheme-references",),
    "unresolved-local-tool-ref.json": ("mcp.tool.schema-valid",),
    # expected-warning
    "deprecated-client-capability-requirements.json": (
        "mcp.client-requirements.deprecated",
        "mcp.extensions.identifier-authority",
    ),
    "legacy-completion-examples.json": ("mcpdesc.legacy-protocol.validation-scope",),
    "legacy-sse-modern-revision.json": ("mcp.transport.legacy-sse",),
    "logging-deprecated-2026.json": ("mcp.capabilities.logging-deprecated",),
    "pre-dialect-tool-example.json": ("mcpdesc.tool-example.schema-compatibility",),
    "pre-dialect-tool-schema-shape.json": ("mcpdesc.legacy-protocol.validation-scope",),
    "pre-standard-extension-capabilities.json": ("mcp.capabilities.extensions-pre-standard",),
    "resource-example-consistency.json": ("mcpdesc.resource-example.content",),
    "tool-interaction-client-requirements-contradictions.json": ("mcpdesc.interaction-example.client-requirements",),
    "uncatalogued-oauth-scope.json": ("mcpdesc.security.scope-catalogue",),
    "uncatalogued-openid-scope.json": ("mcpdesc.security.scope-catalogue",),
    "unknown-reserved-extension-identifier.json": ("mcp.extensions.identifier-authority",),
    "unknown-reserved-meta-key.json": ("mcp.meta.unknown-reserved-key",),
    "unresolved-external-tool-example-ref.json": (
        "mcpdesc.tool-example.schema-compatibility",
        "mcp.tool.schema.external-ref",
    ),
    "unresolved-external-tool-ref.json": ("mcp.tool.schema.external-ref",),
}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    # No corpus, no cases; test_corpus.py fails in CI (skips elsewhere) and says where it looked.
    if "fixture_path" in metafunc.fixturenames and FIXTURES:
        metafunc.parametrize(
            ("fixture_path", "verdict"), FIXTURES, ids=[str(p.relative_to(CONFORMANCE)) for p, _ in FIXTURES]
        )


if FIXTURES:

    def test_fixture_verdict(fixture_path: Path, verdict: str) -> None:
        result = validate_file(fixture_path)
        errors = [d for d in result.diagnostics if d.is_error]
        warnings = [d for d in result.diagnostics if not d.is_error]
        if verdict != "valid":
            # Every invalid or warning fixture must name the rules that make it so.
            assert fixture_path.name in EXPECTED_RULES, f"no expected rule written for {fixture_path.name}"
            reported = {d.rule for d in (errors if verdict == "invalid" else warnings)}
            missing = set(EXPECTED_RULES[fixture_path.name]) - reported
            assert not missing, f"expected {sorted(missing)}:\n{describe(result.diagnostics)}"
        if verdict == "invalid":
            assert errors, "expected at least one error"
        elif verdict == "warning":
            assert not errors, describe(errors)
            assert warnings, "expected at least one warning"
        else:
            assert not result.diagnostics, describe(result.diagnostics)
