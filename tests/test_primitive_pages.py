"""The primitive pages' model: schema tables that read well (sentinel bounds, named
alternatives, arrays of objects) and example results for people."""

from __future__ import annotations

import json
from pathlib import Path

from mcpdesc_docs.model.results import MAX_BLOCKS, readable_result
from mcpdesc_docs.model.schema_tree import build_schema_tree, describe_constraints

from .helpers import base_document
from .sites import build, parse


def rows_by_name(schema: dict) -> dict:
    return {row.name: row for row in build_schema_tree(schema, "input").rows}


def test_sentinel_bounds_read_as_no_bound() -> None:
    assert describe_constraints({"minimum": 1, "maximum": 9007199254740991}) == ("at least 1", "no upper bound")
    assert describe_constraints({"maximum": 2147483647}) == ("no upper bound",)
    assert describe_constraints({"minimum": -9007199254740991, "maximum": 10}) == ("at most 10", "no lower bound")
    assert describe_constraints({"minimum": 1, "maximum": 100}) == ("1–100",)  # real bounds stay
    assert describe_constraints({"maxLength": 9007199254740991}) == ()


def test_arrays_say_what_they_hold() -> None:
    rows = rows_by_name(
        {
            "type": "object",
            "properties": {
                "entities": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}}},
                "tags": {"type": "array", "items": {"type": "string"}},
                "points": {"type": "array", "items": {"$ref": "#/$defs/Point"}},
                "anything": {"type": "array"},
            },
            "$defs": {"Point": {"type": "object"}},
        }
    )
    assert rows["entities"].types == ("object[]",)
    assert rows["tags"].types == ("string[]",)
    assert rows["points"].types == ("Point[]",)
    assert rows["anything"].types == ("array",)


def test_alternatives_are_named() -> None:
    schema = {
        "type": "object",
        "properties": {
            "target": {
                "oneOf": [
                    {"title": "By id", "type": "integer"},
                    {"type": "object", "required": ["email"], "properties": {"email": {"type": "string"}}},
                    {"const": "me"},
                    {"type": "object", "properties": {"kind": {"const": "team"}, "team": {"type": "string"}}},
                    {"$ref": "#/$defs/Team"},
                    {"type": "string"},
                    {},
                ]
            }
        },
        "$defs": {"Team": {"type": "object"}},
    }
    names = [row.name for row in build_schema_tree(schema, "input").rows if row.name.startswith("exactly")]
    assert names == [
        "exactly one of: By id",
        "exactly one of: with email",
        'exactly one of: "me"',
        'exactly one of: kind "team"',  # a tag tells the branches apart
        "exactly one of: Team",
        "exactly one of: string",
        "exactly one of: option 7",
    ]


def test_prompt_messages_by_role_with_their_full_text() -> None:
    text = "101 solved tickets this week. " * 40
    blocks = readable_result(
        "prompt",
        {
            "messages": [
                {"role": "user", "content": {"type": "text", "text": text}},
                {"role": "assistant", "content": {"type": "image", "data": "aGVsbG8=", "mimeType": "image/png"}},
            ]
        },
    )
    assert [(b.kind, b.role) for b in blocks] == [("text", "user"), ("media", "assistant")]
    assert blocks[0].text == text  # whole
    assert blocks[1].text == "5"  # bytes


def test_tool_results_read_as_text_markdown_json_and_a_table() -> None:
    blocks = readable_result(
        "tool",
        {
            "content": [
                {"type": "text", "text": "Opened HD-1"},
                {"type": "resource", "resource": {"uri": "a://b", "mimeType": "text/markdown", "text": "# Hi"}},
                {"type": "resource", "resource": {"uri": "a://c", "mimeType": "application/json", "text": '{"a":1}'}},
                {"type": "resource_link", "uri": "a://d", "name": "d"},
            ],
            "structuredContent": {"ticket_id": "HD-1", "tags": ["a"]},
        },
    )
    assert [b.kind for b in blocks] == ["text", "markdown", "json", "link", "fields"]
    assert blocks[2].text == '{\n  "a": 1\n}'
    assert blocks[4].rows == (("ticket_id", "HD-1"), ("tags", '["a"]'))


def test_resource_contents_and_bounds() -> None:
    blocks = readable_result(
        "resource", {"contents": [{"uri": "a://x", "text": "plain"}, {"uri": "a://y", "blob": "!"}]}
    )
    assert [(b.kind, b.uri) for b in blocks] == [("text", "a://x"), ("media", "a://y")]
    many = readable_result("tool", {"content": [{"type": "text", "text": "x"}] * 10_000})
    assert len(many) == MAX_BLOCKS
    assert readable_result("tool", "not an object") == ()


def test_hostile_results_and_samples_are_escaped(tmp_path: Path) -> None:
    evil = "</code></pre><script>alert(1)</script><img src=x onerror=alert(1)>\"'"
    document = base_document(protocolVersions=["2025-11-25"])
    tool = document["tools"][0]
    tool["inputSchema"] = {"type": "object", "properties": {"q": {"enum": [evil]}}, "required": ["q"]}
    tool["examples"] = {
        "x": {
            "input": {"q": evil},
            "result": {
                "content": [
                    {"type": "text", "text": evil},
                    {"type": "resource", "resource": {"uri": "a://b", "mimeType": "text/markdown", "text": evil}},
                ],
                "structuredContent": {evil: evil},
            },
        }
    }
    document["transports"] = [{"type": "streamable-http", "url": "https://example.com/mcp"}]
    (tmp_path / "d.json").write_text(json.dumps(document))
    code, out, err = build(tmp_path / "d.json", tmp_path / "site")
    assert code == 0, out + err
    page = parse(tmp_path / "site" / "tools" / "assign_issue.html")
    assert page.select("main script, main img") == []
    readable = page.select_one("[data-result-readable]")
    assert evil in readable.select_one(".result-text").get_text()
    assert evil in readable.select_one(".result-fields td").get_text()
    for key in ("python", "typescript", "curl"):
        assert page.select_one(f"#request-{key} pre") is not None
