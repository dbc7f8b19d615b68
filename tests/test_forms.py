"""requestedSchema -> form preview fields, and JSON Schema -> parameter rows."""

from __future__ import annotations

import pytest

from mcpdesc_docs.model.forms import build_form_field, build_form_preview
from mcpdesc_docs.model.schema_tree import build_schema_tree, describe_constraints


@pytest.mark.parametrize(
    ("schema", "control"),
    [
        ({"type": "string"}, "text"),
        ({"type": "string", "format": "email"}, "email"),
        ({"type": "string", "format": "uri"}, "url"),
        ({"type": "string", "format": "date"}, "date"),
        ({"type": "string", "format": "date-time"}, "datetime-local"),
        ({"type": "number"}, "number"),
        ({"type": "boolean"}, "checkbox"),
        ({"type": "string", "enum": ["a"]}, "select"),
        ({"type": "string", "oneOf": [{"const": "a", "title": "A"}]}, "select"),
        ({"type": "array", "items": {"type": "string", "enum": ["a"]}}, "select-multiple"),
        ({"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}]}}, "select-multiple"),
    ],
)
def test_controls_follow_the_schema(schema, control):
    assert build_form_field("f", schema, required=False).control == control


def test_labels_defaults_and_bounds():
    field = build_form_field(
        "hours", {"type": "integer", "title": "Hours", "minimum": 0, "maximum": 40.0, "default": 8}, True
    )
    assert (field.label, field.required, field.minimum, field.maximum, field.step, field.value) == (
        "Hours",
        True,
        "0",
        "40",
        "1",
        "8",
    )
    assert field.constraint == "0–40"
    assert build_form_field("n", {"type": "number", "minimum": 0.5}, False).constraint == "at least 0.5"
    assert build_form_field("s", {"type": "string", "maxLength": 3}, False).constraint == "at most 3 characters"
    untitled = build_form_field("plain_name", {"type": "boolean", "default": True}, False)
    assert (untitled.label, untitled.checked) == ("plain_name", True)


def test_enum_names_become_option_labels_and_default_is_selected():
    field = build_form_field(
        "p", {"type": "string", "enum": ["lo", "hi"], "enumNames": ["Low", "High"], "default": "hi"}, False
    )
    assert [(o.value, o.label, o.selected) for o in field.options] == [("lo", "Low", False), ("hi", "High", True)]


def test_multi_select_defaults_and_item_counts():
    field = build_form_field(
        "tags",
        {
            "type": "array",
            "items": {"type": "string", "enum": ["a", "b", "c"]},
            "minItems": 1,
            "maxItems": 2,
            "default": ["c"],
        },
        False,
    )
    assert [o.value for o in field.options if o.selected] == ["c"]
    assert field.constraint == "1–2 choices"


def test_unknown_shapes_still_get_exactly_one_control():
    preview = build_form_preview(
        {"type": "object", "properties": {"odd": {"type": "object"}, "bare": {}}, "required": ["odd"]}
    )
    assert [(f.name, f.control, f.required) for f in preview.fields] == [("odd", "text", True), ("bare", "text", False)]


def test_constraints_in_words():
    assert describe_constraints({"exclusiveMinimum": 0, "maximum": 10}) == ("more than 0 and at most 10",)
    assert describe_constraints({"minItems": 2, "maxItems": 2, "uniqueItems": True}) == (
        "exactly 2 items",
        "unique items",
    )
    assert describe_constraints({"pattern": "^a$", "format": "email"}) == ("format: email", "matches ^a$")


def test_schema_rows_follow_refs_once_and_stop_on_recursion():
    schema = {
        "type": "object",
        "properties": {"node": {"$ref": "#/$defs/Node"}},
        "$defs": {
            "Node": {"type": "object", "properties": {"child": {"$ref": "#/$defs/Node"}, "label": {"type": "string"}}}
        },
    }
    rows = build_schema_tree(schema, "input").rows
    assert [(r.anchor, r.depth) for r in rows] == [
        ("input-node", 0),
        ("input-node.child", 1),
        ("input-node.label", 1),
    ]
    assert "recursive: see above" in rows[1].constraints


def test_external_refs_are_named_not_fetched():
    rows = build_schema_tree({"type": "object", "properties": {"a": {"$ref": "https://example.com/s.json"}}}, "in").rows
    assert rows[0].reference == "https://example.com/s.json"


def test_defaults_false_and_zero_are_shown():
    rows = build_schema_tree(
        {
            "type": "object",
            "properties": {"f": {"type": "boolean", "default": False}, "z": {"type": "integer", "default": 0}},
        },
        "in",
    ).rows
    assert [r.default for r in rows] == ["false", "0"]


def test_cached_schema_trees_still_depend_on_everything_they_show() -> None:
    schema = {"type": "object", "properties": {"n": {"type": "number", "default": 1}}}
    first, again = build_schema_tree(schema, "input"), build_schema_tree(dict(schema), "input")
    assert first is again  # equal text: the cached tree
    assert build_schema_tree(schema, "output").rows[0].anchor == "output-n"
    as_float = {"type": "object", "properties": {"n": {"type": "number", "default": 1.0}}}
    assert build_schema_tree(as_float, "input").json != first.json
    reordered = {"properties": {"n": {"default": 1, "type": "number"}}, "type": "object"}
    assert build_schema_tree(reordered, "input").json.index('"properties"') < first.json.index('"properties"')
    assert build_schema_tree(schema, "input", component="#/components/schemas/S").component is not None
