"""Hostile descriptions against validation (issue 15): whatever they hold, within the input
limits, `validate` ends in a time proportional to the input, exits 0 or 1, and says what it
could not check instead of crashing or running for hours.

Inputs that used to hang run in a subprocess with a CPU-time and memory bound of about ten
times the target (so a regression fails by its own budget); linearity is shown by counting work
(budget units, Python calls or lines) at N and 2N, never by timing.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mcpdesc_docs.diagnostics import Diagnostic
from mcpdesc_docs.validation import document as document_module
from mcpdesc_docs.validation import json_schema
from mcpdesc_docs.validation.budget import OVER_BUDGET, Budget
from mcpdesc_docs.validation.json_schema import TOO_DEEP, check_instance, compile_schema
from mcpdesc_docs.validation.uri_templates import could_expand_to, is_valid_template, variable_names
from mcpdesc_docs.validation.validator import check_document

from .bounded import Finished, run_bounded
from .helpers import base_document
from .work_counts import calls, lines

MEMORY = 1 << 30
"""Peak address space allowed to a validating subprocess (issue 15: under 1 GB)."""


def bounded_validate(path: Path, seconds: float = 10.0) -> Finished:
    """``mcpdesc-docs validate`` in a subprocess under a CPU-time and memory bound."""
    return run_bounded("validate", str(path), "--format", "json", seconds=seconds, address_space=MEMORY)


def validated(tmp_path: Path, data: dict[str, Any], seconds: float = 10.0) -> list[dict[str, Any]]:
    """The diagnostics of a bounded ``validate``, which must end normally (exit 0 or 1)."""
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = bounded_validate(path, seconds)
    assert result.returncode in (0, 1), result.stderr[-2000:]
    assert "internal" not in result.stdout + result.stderr
    report = json.loads(result.stdout)
    diagnostics: list[dict[str, Any]] = report["diagnostics"] if isinstance(report, dict) else report[0]["diagnostics"]
    return diagnostics


def tool_with(schema: dict[str, Any], *inputs: Any) -> dict[str, Any]:
    """A valid description whose tool has ``schema`` as inputSchema and one example per input."""
    data = base_document(protocolVersions=["2025-11-25"])
    tool = data["tools"][0]
    tool["inputSchema"] = schema
    tool["examples"] = {f"e{i}": {"input": value, "result": {"content": []}} for i, value in enumerate(inputs)}
    return data


def string_property(**keywords: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {"s": {"type": "string", **keywords}}}


def found(diagnostics: list[Diagnostic], code: str) -> list[Diagnostic]:
    assert not [d for d in diagnostics if d.code == "internal-error"], diagnostics
    return [d for d in diagnostics if d.code == code]


def spent(work: Callable[[Budget], Any]) -> int:
    budget = Budget(10**15)
    work(budget)
    return 10**15 - budget.remaining


# --- 1. Regular expressions from the description are matched by RE2 -----------------------------


def test_an_exponential_pattern_is_matched_in_linear_time(tmp_path):
    # ^(a+)+$ against 30 a's and a '!' took 67 s with Python's re; 40 never ended.
    data = tool_with(string_property(pattern="^(a+)+$"), {"s": "a" * 40 + "!"}, {"s": "a" * 40})
    diagnostics = validated(tmp_path, data, seconds=10)
    mismatches = [d for d in diagnostics if d["code"] == "tool-example-schema-mismatch"]
    assert [d["path"] for d in mismatches] == ["/tools/0/examples/e0/input/s"]
    assert "does not match '^(a+)+$'" in mismatches[0]["message"]


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "patternProperties": {"^(a+)+$": {"type": "integer"}}, "additionalProperties": False},
        {"type": "object", "patternProperties": {"^(a+)+$": {"type": "integer"}}, "unevaluatedProperties": False},
        {"type": "object", "propertyNames": {"pattern": "^(a+)+$"}},
    ],
    ids=["additionalProperties", "unevaluatedProperties", "propertyNames"],
)
def test_exponential_patterns_on_property_names_are_linear(tmp_path, schema):
    diagnostics = validated(tmp_path, tool_with(schema, {"a" * 40 + "!": 1}), seconds=10)
    assert [d["path"] for d in diagnostics if d["code"] == "tool-example-schema-mismatch"] == [
        "/tools/0/examples/e0/input"
    ]


def test_matching_work_does_not_grow_in_python_with_the_text():
    # RE2 reads the text in C: the Python work of a check is the same for 1,000 and 2,000 characters.
    schema = string_property(pattern="^(a+)+$")

    def check(n: int) -> Callable[[], Any]:
        data = tool_with(schema, {"s": "a" * n + "!"})
        return lambda: check_document(data)

    check(10)()
    assert calls(check(2000)) == calls(check(1000))


@pytest.mark.parametrize(
    ("pattern", "reason"),
    [
        (r"^(a)\1$", "uses features that cannot be matched in linear time"),
        (r"^(?=a)a$", "uses features that cannot be matched in linear time"),
        (r"^a{1001}$", "is too large to be matched in linear time"),
    ],
    ids=["backreference", "lookahead", "repetition"],
)
def test_a_pattern_re2_cannot_run_is_skipped_with_a_warning(pattern, reason):
    diagnostics = check_document(tool_with(string_property(pattern=pattern), {"s": "aa"})).diagnostics
    assert found(diagnostics, "tool-example-schema-mismatch") == []
    [warning] = found(diagnostics, "incomplete-tool-example-validation")
    assert warning.rule == "mcpdesc.tool-example.schema-compatibility"
    assert warning.path == "/tools/0/examples/e0/input"
    assert f"could only be partly checked against inputSchema (pattern {pattern!r} {reason})" in warning.message


def test_thousands_of_unmatchable_patterns_make_one_short_warning():
    properties = {f"p{i}": {"type": "string", "pattern": f"(a)\\1-{i}"} for i in range(3000)}
    value = {f"p{i}": "a" for i in range(3000)}
    diagnostics = check_document(tool_with({"type": "object", "properties": properties}, value)).diagnostics
    [warning] = found(diagnostics, "incomplete-tool-example-validation")
    assert warning.message.count("cannot be matched in linear time") == 3
    assert "2997 more parts could not be checked" in warning.message


def test_deeply_nested_groups_are_matched_up_to_a_thousand_levels():
    # 5,000 nested groups were a RecursionError in Python's compiler; RE2's is quadratic in
    # the nesting (200,000 levels took 70 s to refuse), so it is given 1,000 at most.
    shallow, deep = "(" * 1000 + "a" + ")" * 1000, "(" * 5000 + "a" + ")" * 5000
    diagnostics = check_document(
        tool_with({"type": "object", "properties": {"s": {"pattern": shallow}, "t": {"pattern": deep}}}, {"s": "b"})
    ).diagnostics
    assert [d.path for d in found(diagnostics, "tool-example-schema-mismatch")] == ["/tools/0/examples/e0/input/s"]
    assert found(diagnostics, "invalid-tool-schema") == []
    deep_only = check_document(tool_with(string_property(pattern=deep), {"s": "a"})).diagnostics
    [warning] = found(deep_only, "incomplete-tool-example-validation")
    assert "nests groups too deeply to be matched in linear time" in warning.message


def test_patterns_that_are_costly_to_compile_are_paid_for(tmp_path):
    # RE2 builds a pattern before refusing it as too large: 7,692 repetitions of a{1,1000}
    # took 1.1 s. Such patterns are refused unseen; those below the limit (about 15 ms each
    # to build) spend from the budget.
    refused = {f"r{i}": {"type": "string", "pattern": "(?:a{1,1000})" * 7692 + str(i)} for i in range(8)}
    costly = {f"c{i}": {"type": "string", "pattern": "(?:a{1,1000})" * 99 + str(i)} for i in range(300)}
    value = {name: "x" for name in [*refused, *costly]}
    diagnostics = validated(tmp_path, tool_with({"type": "object", "properties": {**refused, **costly}}, value))
    [warning] = [d for d in diagnostics if d["code"] == "incomplete-tool-example-validation"]
    assert "is too large to be matched in linear time" in warning["message"]
    assert OVER_BUDGET in warning["message"]


def test_ecma_unicode_escapes_and_end_anchors_match_as_ecma_262_says():
    schema = string_property(pattern="^\\u0041B$")
    diagnostics = check_document(tool_with(schema, {"s": "AB"}, {"s": "AB\n"})).diagnostics
    assert found(diagnostics, "incomplete-tool-example-validation") == []
    # ECMA-262's $ (without the m flag) is the end of the text; Python's also matched before a final newline.
    assert [d.path for d in found(diagnostics, "tool-example-schema-mismatch")] == ["/tools/0/examples/e1/input/s"]


def test_regex_format_of_patterns_stays_pythons_verdict_but_never_crashes():
    invalid = check_document(tool_with(string_property(pattern="("), {"s": "a"})).diagnostics
    assert "'(' is not a 'regex'" in found(invalid, "invalid-tool-schema")[0].message
    # Python's re raises OverflowError here (jsonschema let it crash the rule); not proven invalid.
    huge = check_document(tool_with(string_property(pattern="a{4294967296}"), {"s": "a"})).diagnostics
    assert found(huge, "invalid-tool-schema") == []


def test_form_content_against_an_unmatchable_pattern_is_reported_partial():
    data = base_document()
    step_schema = {"type": "object", "properties": {"n": {"type": "string", "pattern": "(a)\\1"}}}
    data["tools"][0]["interactionExamples"] = {
        "ask": {
            "input": {"issue": 1},
            "steps": [
                {
                    "type": "elicitation",
                    "request": {"mode": "form", "message": "?", "requestedSchema": step_schema},
                    "response": {"action": "accept", "content": {"n": "aa"}},
                }
            ],
            "result": {"content": []},
        }
    }
    [warning] = found(check_document(data).diagnostics, "incomplete-elicitation-content-validation")
    assert warning.path == "/tools/0/interactionExamples/ask/steps/0/response/content"
    assert "cannot be matched in linear time" in warning.message


# --- 2. URI templates are matched without backtracking -----------------------------------------

RFC_6570_EXPANSIONS = [
    # Section 3.2 (level 4 examples), with the RFC's variable values.
    ("{var}", "value"),
    ("{hello}", "Hello%20World%21"),
    ("O{undef}X", "OX"),
    ("{x,y}", "1024,768"),
    ("?{x,empty}", "?1024,"),
    ("{var:3}", "val"),
    ("{list*}", "red,green,blue"),
    ("{keys*}", "semi=%3B,dot=.,comma=%2C"),
    ("{+hello}", "Hello%20World!"),
    ("{+path}/here", "/foo/bar/here"),
    ("up{+path}{var}/here", "up/foo/barvalue/here"),
    ("{+path:6}/here", "/foo/b/here"),
    ("{+keys*}", "semi=;,dot=.,comma=,"),
    ("foo{#empty}", "foo#"),
    ("{#path,x}/here", "#/foo/bar,1024/here"),
    ("X{.var:3}", "X.val"),
    ("www{.dom*}", "www.example.com"),
    ("{/var:1,var}", "/v/value"),
    ("{/list*,path:4}", "/red/green/blue/%2Ffoo"),
    ("{;v,empty,who}", ";v=6;empty;who=fred"),
    ("{;hello:5}", ";hello=Hello"),
    ("{;list*}", ";list=red;list=green;list=blue"),
    ("{;keys*}", ";semi=%3B;dot=.;comma=%2C"),
    ("{?x,y,empty}", "?x=1024&y=768&empty="),
    ("{?var:3}", "?var=val"),
    ("{?keys*}", "?semi=%3B&dot=.&comma=%2C"),
    ("?fixed=yes{&x}", "?fixed=yes&x=1024"),
    ("{&list*}", "&list=red&list=green&list=blue"),
    # A prefix counts characters: a percent-encoded UTF-8 character is one.
    ("{x:1}", "%C3%A9"),
    # Every variable may be undefined, in any subset, in order.
    ("{?q,limit}", ""),
    ("{?q,limit}", "?limit=5"),
    ("{?q,limit}", "?q=api&limit=5"),
]

NOT_EXPANSIONS = [
    ("{var:3}", "value"),  # a prefix of 3 characters at most
    ("{x:1}", "%C3%A9%C3%A9"),
    ("{/var:1,var}", "/va/value"),
    ("{?q,limit}", "?x=api"),  # query expansions name their variables (RFC 6570 3.2.8)
    ("{?q,limit}", "?limit=5&q=api"),  # in the template's order
    ("{?q,limit}", "?q=a&q=b"),
    ("{;who}", ";x=fred"),
    ("{?q}", "&q=1"),
    ("{x}", "a/b"),  # a simple expansion encodes reserved characters
    ("{#x}", "x"),
    ("a{x}", "b"),
]


@pytest.mark.parametrize(("template", "uri"), RFC_6570_EXPANSIONS)
def test_rfc_6570_expansions_match(template, uri):
    assert could_expand_to(template, uri) is True


@pytest.mark.parametrize(("template", "uri"), NOT_EXPANSIONS)
def test_what_a_template_cannot_expand_to_does_not_match(template, uri):
    assert could_expand_to(template, uri) is False


def test_templates_are_parsed_as_rfc_6570_says():
    assert variable_names("docs://{section}/{+path}{?q,limit:3,tags*}") == ["section", "path", "q", "limit", "tags"]
    for invalid in ("docs://{section", "a}b", "{}", "{=x}", "{x,}", "{x=default}", "{x:0}", "{x:10000}"):
        assert not is_valid_template(invalid), invalid


def test_a_200000_character_variable_name_is_parsed_in_linear_time():
    # The uri-template library built names a character at a time: 0.9 s for this one.
    def parse(n: int) -> Callable[[], Any]:
        template = "{" + "a" * n + "}"
        return lambda: is_valid_template(template) and variable_names(template)

    assert calls(parse(200_000)) == calls(parse(100_000))


@pytest.mark.parametrize(
    ("template", "uri"),
    [
        ("{+path}", lambda n: "a," * n + " "),  # values may contain the separator
        ("".join(f"{{v{i}}}" for i in range(30)), lambda n: "a" * n + "!"),  # many ways to split a run
        ("{+a,b,c,d}x", lambda n: ",".join(["a"] * n) + "y"),
    ],
    ids=["reserved-commas", "adjacent-variables", "reserved-list"],
)
def test_ambiguous_templates_are_matched_in_linear_work(template, uri):
    small = spent(lambda budget: could_expand_to(template, uri(1000), budget))
    large = spent(lambda budget: could_expand_to(template, uri(2000), budget))
    assert large <= 2.1 * small


def test_a_backtracking_template_is_checked_quickly_end_to_end(tmp_path):
    data = base_document()
    uri = "docs://" + "a," * 20_000 + "y"
    data["resourceTemplates"] = [
        {
            "uriTemplate": "docs://{+path}x",
            "name": "doc",
            "examples": {"e": {"uri": uri, "result": {"contents": [{"uri": "docs://a", "text": "x"}]}}},
        }
    ]
    diagnostics = validated(tmp_path, data, seconds=10)
    assert [d["code"] for d in diagnostics if d["path"] == "/resourceTemplates/0/examples/e/uri"] == [
        "resource-template-example-invalid-expansion"
    ]


def test_matching_beyond_the_budget_is_a_warning(tmp_path):
    data = base_document()
    template = "docs:" + "".join(f"{{v{i}}}" for i in range(300))
    uri = "docs:" + "a" * 200_000
    data["resourceTemplates"] = [
        {
            "uriTemplate": template,
            "name": "doc",
            "examples": {"e": {"uri": uri, "result": {"contents": [{"uri": "docs://a", "text": "x"}]}}},
        }
    ]
    diagnostics = validated(tmp_path, data, seconds=20)
    [warning] = [d for d in diagnostics if d["path"] == "/resourceTemplates/0/examples/e/uri"]
    assert warning["code"] == "incomplete-resource-template-example-check"
    assert warning["severity"] == "warning"
    assert OVER_BUDGET in warning["message"]


# --- 6. Recursion: deep and self-referential schemas -------------------------------------------


def nested_items(depth: int, leaf: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    schema: dict[str, Any] = leaf
    value: Any = "not an integer"
    for _ in range(depth):
        schema = {"type": "array", "items": schema}
        value = [value]
    return schema, value


def test_a_schema_nested_120_deep_is_checked_completely(tmp_path):
    schema, value = nested_items(120, {"type": "integer"})
    diagnostics = validated(tmp_path, tool_with({"type": "object", "properties": {"s": schema}}, {"s": value}))
    [mismatch] = [d for d in diagnostics if d["code"] == "tool-example-schema-mismatch"]
    assert mismatch["path"] == "/tools/0/examples/e0/input/s" + "/0" * 120
    assert not [d for d in diagnostics if d["severity"] == "warning"]


@pytest.mark.parametrize(
    "schema",
    [
        {"allOf": [{"$ref": "#"}]},
        {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"},
        {
            "$defs": {**{f"c{i}": {"$ref": f"#/$defs/c{i + 1}"} for i in range(5000)}, "c5000": {}},
            "$ref": "#/$defs/c0",
        },
    ],
    ids=["self", "cycle", "5000-long-chain"],
)
def test_a_self_referential_schema_makes_the_check_partial(schema):
    diagnostics = check_document(tool_with({"type": "object", **schema}, {"s": 1})).diagnostics
    [warning] = found(diagnostics, "incomplete-tool-example-validation")
    assert TOO_DEEP in warning.message
    assert warning.path == "/tools/0/examples/e0/input"


def test_a_recursive_schema_checks_a_deep_value():
    tree = {"type": "object", "properties": {"child": {"$ref": "#"}, "v": {"type": "integer"}}}
    value: dict[str, Any] = {"v": "x"}
    for _ in range(60):
        value = {"child": value}
    diagnostics = check_document(tool_with(tree, value)).diagnostics
    [mismatch] = found(diagnostics, "tool-example-schema-mismatch")
    assert mismatch.path == "/tools/0/examples/e0/input" + "/child" * 60 + "/v"


def test_a_schema_too_deep_for_the_meta_schema_check_is_a_warning():
    # Deeper than the default input limits allow (they can be raised): validated in-process.
    schema, value = nested_items(1000, {"type": "integer"})
    diagnostics = check_document(tool_with({"type": "object", "properties": {"s": schema}}, {"s": value})).diagnostics
    [warning] = found(diagnostics, "unchecked-tool-schema")
    assert warning.rule == "mcp.tool.schema-valid"
    assert TOO_DEEP in warning.message
    assert TOO_DEEP in found(diagnostics, "incomplete-tool-example-validation")[0].message


def deep_value(depth: int) -> Any:
    value: Any = 1
    for index in range(depth):
        value = [value] if index % 2 else {"k": value}
    return value


@pytest.mark.parametrize(
    "place",
    ["extension", "example-input", "const", "enum", "protocol-versions", "tool-annotations"],
)
def test_values_at_the_depth_limit_are_validated_everywhere(tmp_path, place):
    data = base_document(protocolVersions=["2025-11-25"])
    tool = data["tools"][0]
    deep = deep_value(120)
    if place == "extension":
        data["x-deep"] = deep
    elif place == "example-input":
        tool["examples"] = {"e": {"input": {"issue": deep}, "result": {"content": []}}}
    elif place == "const":
        tool["inputSchema"]["properties"]["issue"] = {"const": deep}
        tool["examples"] = {"e": {"input": {"issue": deep}, "result": {"content": []}}}
    elif place == "enum":
        tool["inputSchema"]["properties"]["issue"] = {"enum": [deep, deep_value(119)], "uniqueItems": True}
        tool["examples"] = {"e": {"input": {"issue": [deep, deep]}, "result": {"content": []}}}
    elif place == "protocol-versions":
        data["protocolVersions"] = ["2025-11-25", deep, deep]
    else:
        tool["annotations"] = {"title": deep}
    validated(tmp_path, data)


# --- 7. Numbers beyond a double ------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
@pytest.mark.parametrize("digits", [5000, 310, 900_000])
def test_a_huge_integer_is_refused_where_it_is(tmp_path, suffix, digits):
    path = tmp_path / f"d{suffix}"
    number = "9" * digits
    if suffix == ".json":
        path.write_text('{"mcpdesc": "0.9.0",\n  "x-n": [1, -' + number + "]}\n")
        expected = (2, 14)
    else:
        path.write_text(f"mcpdesc: 0.9.0\nx-n:\n  - 1\n  - -{number}\n")
        expected = (4, 5)
    result = bounded_validate(path)
    assert result.returncode == 1, result.stderr
    [diagnostic] = json.loads(result.stdout)["diagnostics"]
    assert (diagnostic["rule"], diagnostic["code"]) == ("mcpdesc.input.limits", "input-number-too-large")
    assert (diagnostic["line"], diagnostic["column"]) == expected
    assert f"({digits} digits)" in diagnostic["message"]
    assert len(result.stdout) < 2000  # the number itself is not repeated


def test_the_largest_double_is_still_a_number(tmp_path):
    path = tmp_path / "d.json"
    path.write_text('{"mcpdesc": "0.9.0", "x-n": [' + str(int(sys.float_info.max)) + ", 1.7e308]}")
    result = bounded_validate(path)
    assert "input-number-too-large" not in result.stdout


def test_a_float_overflowing_to_infinity_is_located_in_json(tmp_path):
    path = tmp_path / "d.json"
    path.write_text('{"mcpdesc": "0.9.0",\n  "x-n": [1, 1e99999]}\n')
    result = bounded_validate(path)
    [diagnostic] = json.loads(result.stdout)["diagnostics"]
    assert diagnostic["code"] == "non-finite-number"
    assert (diagnostic["line"], diagnostic["column"]) == (2, 14)


# --- 10b. One compilation per schema, not per example ----------------------------------------------


def many_examples(n: int, declared: int = 200) -> dict[str, Any]:
    properties = {f"p{i}": {"type": "string", "description": "x" * 40} for i in range(declared)}
    return tool_with({"type": "object", "properties": properties}, *({"p1": str(i)} for i in range(n)))


def test_a_tool_schema_is_serialised_once_however_many_examples(monkeypatch):
    written: list[int] = []
    real = json_schema.json

    class Counting:
        loads = staticmethod(real.loads)

        @staticmethod
        def dumps(value: Any, **options: Any) -> str:
            text = real.dumps(value, **options)
            written.append(len(text))
            return text

    monkeypatch.setattr(json_schema, "json", Counting)
    json_schema._compile.cache_clear()
    check_document(many_examples(300))
    once = sum(written)
    written.clear()
    json_schema._compile.cache_clear()
    check_document(many_examples(600))
    assert sum(written) == once  # the schema's text, once: not once per example


def test_checking_examples_grows_linearly():
    # Twice the examples and twice the declared properties: twice the work. jsonschema's
    # properties keyword walked the whole schema for each example (four times the work).
    check_document(many_examples(5, 5))
    small = lines(lambda: check_document(many_examples(400, 400)))
    large = lines(lambda: check_document(many_examples(800, 800)))
    assert large <= 2.2 * small


def test_an_example_is_checked_without_walking_every_declared_property():
    def check(declared: int) -> Callable[[], Any]:
        compiled = compile_schema({"properties": {f"p{i}": {"type": "string"} for i in range(declared)}})
        assert compiled.validator is not None  # jsonschema's evaluator, built once, as compiling did before
        return lambda: check_instance(compiled, {"p1": 1}, Budget(10**9))

    assert lines(check(2000)) == lines(check(1000))


def test_compiled_schemas_are_kept_per_object(monkeypatch):
    compiled: list[object] = []
    real = document_module.compile_schema
    monkeypatch.setattr(document_module, "compile_schema", lambda schema: compiled.append(schema) or real(schema))
    check_document(many_examples(50))
    # Five rules and fifty examples use the inputSchema: it is compiled once.
    assert len(compiled) == 1


# --- Found on the way: work that grew faster than the input ---------------------------------------


def test_anyof_over_shared_references_is_bounded(tmp_path):
    # Each level doubles the work: 16 levels took 7.7 s, 40 would take years.
    levels = 40
    definitions = {
        f"d{i}": {"anyOf": [{"$ref": f"#/$defs/d{i + 1}"}, {"$ref": f"#/$defs/d{i + 1}"}]} for i in range(levels)
    }
    definitions[f"d{levels}"] = {"type": "string"}
    schema = {"$defs": definitions, "type": "object", "properties": {"s": {"$ref": "#/$defs/d0"}}}
    diagnostics = validated(tmp_path, tool_with(schema, {"s": 1}), seconds=10)
    [warning] = [d for d in diagnostics if d["code"] == "incomplete-tool-example-validation"]
    assert OVER_BUDGET in warning["message"]


def test_the_budget_grows_with_the_document():
    small, large = Budget.for_document(many_examples(100)), Budget.for_document(many_examples(200))
    assert small.remaining < large.remaining < 2 * small.remaining


@pytest.mark.parametrize("where", ["structure", "example"])
def test_unique_items_of_objects_is_linear(where):
    # jsonschema compared unsortable items pairwise: 4,000 objects took 17 s.
    def document(n: int) -> dict[str, Any]:
        items = [{"a": i} for i in range(n)]
        if where == "structure":
            return base_document(protocolVersions=["2025-11-25", *items])
        return tool_with({"type": "object", "properties": {"xs": {"uniqueItems": True}}}, {"xs": items})

    check_document(document(10))
    assert lines(lambda: check_document(document(800))) <= 2.1 * lines(lambda: check_document(document(400)))


def test_unique_items_keeps_json_schema_equality():
    schema = {"type": "object", "properties": {"xs": {"uniqueItems": True}}}
    unique = [[1, True], [{"a": 1, "b": [1]}, {"b": [1], "a": 2}], ["1", 1], [0, False]]
    repeated = [[1, 1.0], [{"a": 1, "b": [1]}, {"b": [1.0], "a": 1}], [[True], [True]]]
    diagnostics = check_document(tool_with(schema, *({"xs": xs} for xs in unique + repeated))).diagnostics
    assert [d.path for d in found(diagnostics, "tool-example-schema-mismatch")] == [
        f"/tools/0/examples/e{i}/input/xs" for i in range(len(unique), len(unique) + len(repeated))
    ]


def test_many_anchor_references_are_resolved_in_one_walk():
    def compile_with(n: int) -> Callable[[], Any]:
        schema = {"$defs": {"a": {"$anchor": "a"}}, "properties": {f"p{i}": {"$ref": "#a"} for i in range(n)}}
        return lambda: json_schema._compile(json.dumps(schema))

    assert lines(compile_with(400)) <= 2.1 * lines(compile_with(200))


def test_check_instance_without_a_validator_is_empty():
    assert check_instance(compile_schema({"$schema": "urn:other"}), 1, Budget(1)).errors == []
