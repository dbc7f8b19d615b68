"""Our structural schema is itself a valid Draft 2020-12 schema."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from mcpdesc_docs.spec.schema import document_schema
from mcpdesc_docs.spec.versions import SUPPORTED, Specification


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
