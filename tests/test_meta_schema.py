"""Embedded schemas are checked against their dialect's meta-schema by jsonschema-rs first
(the copy it carries, with our format callbacks), and its "valid" means jsonschema's
(issue 30, item 12; issue 35: without importing jsonschema)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft7Validator, Draft202012Validator
from jsonschema.exceptions import SchemaError

from mcpdesc_docs.validation import json_schema, schema_evaluation
from mcpdesc_docs.validation.json_schema import DRAFT_07, DRAFT_2020_12, compile_schema

from .bounded import run_bounded

KEYWORDS = [
    "type", "properties", "items", "prefixItems", "additionalItems", "additionalProperties", "pattern",
    "patternProperties", "propertyNames", "$ref", "$id", "$schema", "$anchor", "$dynamicRef", "$dynamicAnchor",
    "$defs", "definitions", "enum", "const", "minLength", "maxItems", "required", "allOf", "anyOf", "oneOf", "not",
    "if", "then", "else", "format", "contains", "minContains", "unevaluatedProperties", "dependentRequired",
    "dependentSchemas", "dependencies", "multipleOf", "minimum", "exclusiveMinimum", "uniqueItems", "default",
    "$comment", "x-extra",
]  # fmt: skip
STRINGS = [
    "string", "object", "array", "integer", "number", "boolean", "null", "strings", "", "a", "#", "#/$defs/a",
    "#meta", "x", "^a+$", "[a-", "(?<x", "\\p{L}", "a{2,1}", "http://example.com/s", "ht tp://x y", "urn:x",
    "1bad", "_ok", "date-time", "email", "uri", "regex", "%", "\u00e9",
]  # fmt: skip
SCALARS = st.one_of(
    st.sampled_from(STRINGS),
    st.integers(min_value=-3, max_value=3),
    st.sampled_from([0.5, -1.5, 1e300, 2**64, True, False, None]),
)


def schemas() -> st.SearchStrategy[Any]:
    def extend(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        return st.one_of(
            st.dictionaries(st.sampled_from(KEYWORDS), inner, max_size=4),
            st.dictionaries(st.sampled_from(STRINGS), inner, max_size=3),
            st.lists(inner, max_size=3),
        )

    return st.recursive(SCALARS | st.just({}), extend, max_leaves=12)


CLASSES = {DRAFT_2020_12: Draft202012Validator, DRAFT_07: Draft7Validator}


def jsonschema_accepts(dialect: str, schema: Any) -> bool:
    try:
        CLASSES[dialect].check_schema(schema, format_checker=schema_evaluation.META_FORMATS[dialect])
    except SchemaError:
        return False
    return True


@pytest.mark.parametrize("dialect", list(CLASSES))
def test_the_compiled_meta_schema_is_available(dialect: str):
    assert json_schema._compiled_meta_schema(dialect) is not None


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schemas(), st.sampled_from(list(CLASSES)))
def test_what_jsonschema_rs_accepts_jsonschema_accepts(schema: Any, dialect: str):
    if json_schema._meta_schema_accepts(dialect, schema, json_schema._measure(schema)[1]):
        assert jsonschema_accepts(dialect, schema), schema


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schemas(), st.sampled_from(list(CLASSES)))
def test_what_jsonschema_accepts_jsonschema_rs_accepts(schema: Any, dialect: str):
    # The other way round: a schema jsonschema accepts and the compiled check refuses would
    # load jsonschema on a valid description (correct, but slow).
    deepest = json_schema._measure(schema)[1]
    if jsonschema_accepts(dialect, schema) and deepest <= 100:
        assert json_schema._meta_schema_accepts(dialect, schema, deepest), schema


def test_an_invalid_schema_is_still_worded_by_jsonschema():
    compiled = compile_schema({"type": "object", "properties": {"a": {"type": 5}}})
    assert compiled.validator is None
    assert compiled.invalid is not None
    assert "5 is not valid under any of the given schemas (at properties/a/type)" in compiled.invalid


def test_a_schema_deeper_than_the_compiled_check_goes_is_left_to_jsonschema(monkeypatch):
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(json_schema.COMPILED_META_NESTING):
        schema = {"not": schema}
    assert not json_schema._meta_schema_accepts(DRAFT_2020_12, schema, json_schema._measure(schema)[1])
    assert json_schema._meta_schema_accepts(DRAFT_2020_12, schema["not"], json_schema._measure(schema["not"])[1])


CPU_SECONDS = 6.0
"""A tool whose input schema has 20,000 properties (1.1 MB) validated in 14 s of CPU when
jsonschema checked it against the meta-schema, 1.7 s now."""


@pytest.mark.timeout(20 * CPU_SECONDS)
def test_a_wide_schema_validates_in_bounded_cpu(tmp_path: Path):
    schema = {"type": "object", "properties": {f"f{i:05d}": {"type": "string"} for i in range(20_000)}}
    tool = {"name": "wide", "inputSchema": schema}
    document = {
        "mcpdesc": "0.9.0",
        "info": {"name": "wide", "version": "1.0.0"},
        "protocolVersions": ["2025-11-25"],
        "transports": [{"type": "stdio", "command": "wide-server"}],
        "tools": [tool],
    }
    source = tmp_path / "wide.json"
    source.write_text(json.dumps(document))
    done = run_bounded("validate", str(source), seconds=10 * CPU_SECONDS)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert done.cpu_seconds < CPU_SECONDS, f"{done.cpu_seconds:.1f} s of CPU"
