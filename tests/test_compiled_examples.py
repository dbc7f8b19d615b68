"""Examples are checked against their schema by jsonschema-rs where its verdict means
jsonschema's, and by jsonschema everywhere else (issue 35): the two engines agree on
random schemas of the compiled subset, the compiled check is paid for from the
document's budget, and a valid description never imports jsonschema."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mcpdesc_docs.validation import json_schema
from mcpdesc_docs.validation.budget import Budget
from mcpdesc_docs.validation.json_schema import NOT_COMPILED, check_instance, compile_schema
from mcpdesc_docs.validation.schema_evaluation import evaluator, problems

from .sites import SAMPLE, load_data

NAMES = ["a", "b", "c-d", "é"]
PATTERNS = ["^a", "b$", "^[a-c]+$", "x|y", "^(?:ab|c)*$", r"^\d+$", "(?i)a"]  # the last two are not compiled
NUMBERS = st.one_of(
    st.integers(-3, 3), st.sampled_from([0.5, -1.5, 2.0, 10**20, 2**64, 2**64 + 1, -(2**70), 2**53 + 1, 2.0**53, 1e308])
)
VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), NUMBERS, st.sampled_from(["", "a", "ab", "b", "abc", "x", "12", "é"])),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(NAMES), inner, max_size=3),
    max_leaves=8,
)
SIZES = ["minItems", "maxItems", "minLength", "maxLength", "minProperties"]
TYPES = st.sampled_from(["string", "number", "integer", "object", "array", "boolean", "null"])


def schemas(draft7: bool) -> st.SearchStrategy[Any]:
    def extend(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        keyword = st.one_of(
            st.tuples(st.just("type"), TYPES | st.lists(TYPES, min_size=1, max_size=2, unique=True)),
            st.tuples(st.just("properties"), st.dictionaries(st.sampled_from(NAMES), inner, max_size=2)),
            st.tuples(st.just("required"), st.lists(st.sampled_from(NAMES), max_size=2, unique=True)),
            st.tuples(st.just("additionalProperties"), inner),
            st.tuples(st.just("patternProperties"), st.dictionaries(st.sampled_from(PATTERNS), inner, max_size=1)),
            st.tuples(st.just("propertyNames"), inner),
            st.tuples(st.just("items"), inner | st.lists(inner, max_size=2) if draft7 else inner),
            st.tuples(st.just("additionalItems" if draft7 else "prefixItems"), inner if draft7 else st.lists(inner)),
            st.tuples(st.sampled_from(SIZES), st.integers(0, 3)),
            st.tuples(st.sampled_from(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]), NUMBERS),
            st.tuples(st.just("enum"), st.lists(VALUES, min_size=1, max_size=3)),
            st.tuples(st.just("const"), VALUES),
            st.tuples(st.just("pattern"), st.sampled_from(PATTERNS)),
            st.tuples(st.sampled_from(["allOf", "anyOf", "oneOf"]), st.lists(inner, min_size=1, max_size=3)),
            st.tuples(st.sampled_from(["not", "if", "then", "else", "contains"]), inner),
            st.tuples(st.just("uniqueItems"), st.booleans()),
            st.tuples(st.just("format"), st.sampled_from(["email", "date-time", "uri"])),
            st.tuples(st.just("dependencies" if draft7 else "dependentRequired"), st.dictionaries(
                st.sampled_from(NAMES), st.lists(st.sampled_from(NAMES), max_size=2, unique=True), max_size=1)),
            st.tuples(st.sampled_from(sorted(NOT_COMPILED)), st.just(2)),
        )  # fmt: skip
        return st.lists(keyword, max_size=4).map(dict) | st.booleans()

    return st.recursive(st.just({}) | st.booleans(), extend, max_leaves=10)


def jsonschema_finds(compiled: json_schema.Compiled, instance: Any) -> bool:
    assert compiled.dialect is not None
    found, unchecked, unresolvable = problems(
        evaluator(compiled.text, compiled.dialect), instance, Budget(10**12), limit=1
    )
    assume(not unchecked and not unresolvable)
    return bool(found)


@pytest.mark.parametrize("draft7", [False, True], ids=["2020-12", "draft-07"])
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data())
def test_the_compiled_check_agrees_with_jsonschema(draft7: bool, data: st.DataObject) -> None:
    schema = data.draw(schemas(draft7))
    if draft7 and isinstance(schema, dict):
        schema = {**schema, "$schema": "http://json-schema.org/draft-07/schema#"}
    compiled = compile_schema(schema)
    assume(compiled.dialect is not None and compiled.compiled_check is not None)
    instance = data.draw(VALUES)
    verdict = json_schema._compiled_verdict(compiled, instance, Budget(10**12))
    assert verdict == (not jsonschema_finds(compiled, instance)), (schema, instance)


@pytest.mark.parametrize("keyword", sorted(NOT_COMPILED))
def test_schemas_with_keywords_the_engines_read_differently_are_left_to_jsonschema(keyword: str) -> None:
    values: dict[str, Any] = {"multipleOf": 2, "contentEncoding": "base64", "contentMediaType": "application/json"}
    value = "#/$defs/x" if "Ref" in keyword or keyword == "$ref" else values.get(keyword, False)
    schema = {"$defs": {"x": {}}, "properties": {"a": {keyword: value}}}
    compiled = compile_schema(schema)
    assert compiled.dialect is not None
    assert compiled.compiled_check is None


@pytest.mark.parametrize("pattern", [r"^\d+$", "(?i)a", "a{2}"])
def test_schemas_with_patterns_outside_the_common_subset_are_left_to_jsonschema(pattern: str) -> None:
    assert compile_schema({"properties": {"a": {"pattern": pattern}}}).compiled_check is None
    assert compile_schema({"patternProperties": {pattern: {}}}).compiled_check is None


def test_a_compiled_check_is_paid_for_and_refused_when_unaffordable(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = compile_schema({"type": "object", "properties": {"a": {"type": "string"}}})
    assert compiled.compiled_check is not None
    instance = {"a": "x"}
    budget = Budget(10**9)
    assert check_instance(compiled, instance, budget).errors == []
    spent = 10**9 - budget.remaining
    assert spent == json_schema.COMPILED_PAIR_COST * compiled.size * 2  # two values: the object and "x"
    # Without the money for the compiled bound the check goes to jsonschema, which pays as it goes.
    asked: list[object] = []
    real = json_schema._compiled_verdict
    monkeypatch.setattr(json_schema, "_compiled_verdict", lambda c, i, b: asked.append(b.remaining) or real(c, i, b))
    poor = Budget(spent - 1)
    assert not real(compiled, instance, Budget(spent - 1))
    assert check_instance(compiled, instance, poor).errors == []
    assert asked == [spent - 1]


@pytest.mark.parametrize(
    ("items", "value", "errors"), [(False, [1], 1), (True, [1], 0), ([{"type": "string"}], [1, 2], 2)]
)
def test_draft_07_additional_items_beside_boolean_items_is_checked(items: Any, value: list[int], errors: int) -> None:
    # jsonschema's additionalItems took len() of a boolean items schema: an internal error.
    # Found by comparing the engines on random schemas.
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", "items": items, "additionalItems": False}
    check = check_instance(compile_schema(schema), value, Budget(10**9))
    assert len(check.errors) == errors


def test_an_invalid_example_is_worded_by_jsonschema() -> None:
    compiled = compile_schema({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["b"]})
    check = check_instance(compiled, {"a": 1}, Budget(10**9))
    assert [(e.path, e.message) for e in check.errors] == [
        (("a",), "1 is not of type 'string'"),
        ((), "'b' is a required property"),
    ]


def test_a_value_too_deep_for_the_compiled_check_goes_to_jsonschema() -> None:
    compiled = compile_schema({"type": "array"})
    deep: Any = []
    for _ in range(json_schema.COMPILED_CHECK_NESTING + 1):
        deep = [deep]
    assert not json_schema._compiled_verdict(compiled, deep, Budget(10**12))
    assert json_schema._compiled_verdict(compiled, deep[0], Budget(10**12))


PROBE = """
import sys
from mcpdesc_docs.cli import main
print("exit", main(sys.argv[1:]))
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("jsonschema", "referencing"))
print("loaded", loaded)
"""


def probe(*arguments: str) -> str:
    done = subprocess.run([sys.executable, "-c", PROBE, *arguments], capture_output=True, text=True, timeout=120)
    return done.stdout


@pytest.mark.parametrize("command", ["validate", "build"])
def test_a_valid_description_never_imports_jsonschema(command: str, tmp_path: Any) -> None:
    output = probe(command, str(SAMPLE), *(["-o", str(tmp_path / "site")] if command == "build" else []))
    assert "exit 0" in output
    assert "loaded []" in output


def test_an_invalid_description_is_explained_by_jsonschema(tmp_path: Any) -> None:
    data = load_data(SAMPLE)
    data["tools"][0]["inputSchema"]["type"] = 5
    broken = tmp_path / "broken.mcpdesc.json"
    broken.write_text(json.dumps(data), encoding="utf-8")
    output = probe("validate", str(broken))
    assert "exit 1" in output
    assert "'jsonschema'" in output
