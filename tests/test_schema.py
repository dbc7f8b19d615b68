"""Our structural schema is itself a valid Draft 2020-12 schema."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from mcpdesc_docs.spec.schema import document_schema
from mcpdesc_docs.spec.versions import SUPPORTED, Specification

from .helpers import base_document, describe, diagnostics_of, errors_of


@pytest.mark.parametrize("spec", SUPPORTED, ids=lambda s: s.name)
def test_schema_is_valid_draft_2020_12(spec: Specification) -> None:
    schema = document_schema(spec)
    Draft202012Validator.check_schema(schema)
    assert schema["properties"]["mcpdesc"] == {"const": spec.mcpdesc}


def test_uri_format_is_enforced() -> None:
    checker = Draft202012Validator.FORMAT_CHECKER
    assert checker.conforms("https://example.com/a?b=c", "uri")
    assert not checker.conforms("not a uri", "uri")
    assert not checker.conforms("http://exa mple.com", "uri")


@pytest.mark.parametrize(
    ("where", "change"),
    [
        ("/securitySchemes/key\n", lambda d: d.update(securitySchemes={"key\n": {"type": "http", "scheme": "bearer"}})),
        ("/tools/0/elicitations/0/name", lambda d: d["tools"][0]["elicitations"][0].update(name="ask\n")),
        (
            "/tools/0/examples/basic\n",
            lambda d: d["tools"][0].update(examples={"basic\n": {"input": {}, "result": {"content": []}}}),
        ),
    ],
)
def test_schema_patterns_do_not_match_before_a_final_newline(where: str, change: Any) -> None:
    # `$` in our schema's patterns is ECMA-262's end of text; Python's re would let
    # `^[A-Za-z0-9._-]+$` match "tool\n".
    document = base_document()
    change(document)
    assert where in {d.path for d in errors_of(document)}, describe(diagnostics_of(document))


def test_rule_patterns_do_not_match_before_a_final_newline() -> None:
    document = base_document(protocolVersions=["2026-07-28"])
    tool = document["tools"][0]
    tool["_meta"] = {"example.com/key\n": 1}
    tool["inputSchema"]["properties"]["issue"]["x-mcp-header"] = "X-Issue\n"
    found = {(d.rule, d.path) for d in errors_of(document)}
    assert ("mcp.meta.key-grammar", "/tools/0/_meta/example.com~1key\n") in found, describe(diagnostics_of(document))
    assert ("mcp.tool.x-mcp-header", "/tools/0/inputSchema/properties/issue/x-mcp-header") in found
