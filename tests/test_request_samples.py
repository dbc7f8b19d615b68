"""Request samples that a server would accept: every tool sample's arguments validate
against the tool's effective input schema (the sample site, the upstream examples and the
described real servers), templates are expanded, and each client gets its tab."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from mcpdesc_docs.model.sample_values import MAX_VALUES, sample_arguments
from mcpdesc_docs.validation.uri_templates import could_expand_to

from .helpers import base_document
from .request_samples import tool_samples
from .shared_data import ROOT
from .sites import EXAMPLES, SAMPLE, build, parse

REAL = sorted((ROOT / "tests" / "fixtures" / "real").glob("*.mcpdesc.yaml"))


def errors(schema: dict[str, Any], value: Any) -> list[str]:
    validator = jsonschema.validators.validator_for(schema)
    checker = validator(schema, format_checker=validator.FORMAT_CHECKER)
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in checker.iter_errors(value)]


@pytest.mark.parametrize("path", [SAMPLE, *EXAMPLES, *REAL], ids=lambda p: p.name)
def test_every_tool_sample_validates_against_its_input_schema(path: Path) -> None:
    samples = list(tool_samples(path))
    assert samples or path in EXAMPLES, path  # the sample site and the real servers have tools
    for where, arguments, schema in samples:
        assert errors(schema, arguments) == [], f"{path.name} {where}: {arguments}"


def test_real_servers_and_the_sample_are_all_checked() -> None:
    assert len(REAL) == 3
    counted = sum(1 for path in [SAMPLE, *REAL] for _ in tool_samples(path))
    assert counted > 60  # every variant of every tool (the real servers declare four versions)


SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "url": {"type": "string", "format": "uri"},
        "query": {"type": "string", "default": None},
        "thoughtNumber": {"type": "integer", "minimum": 1},
        "ratio": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
        "ticket": {"type": "string", "pattern": "^HD-[0-9]{4}$"},
        "code": {"type": "string", "minLength": 10, "maxLength": 12},
        "tags": {"type": "array", "items": {"type": "string"}, "minItems": 2, "uniqueItems": True},
        "mode": {"enum": ["fast", "slow"]},
        "when": {"type": "string", "format": "date-time"},
        "limit": {"type": "integer", "default": 10},
        "note": {"type": "string"},
        "nested": {"$ref": "#/$defs/nested"},
    },
    "required": ["url", "thoughtNumber", "ratio", "ticket", "code", "tags", "nested"],
    "$defs": {
        "nested": {"type": "object", "properties": {"id": {"type": "string", "format": "uuid"}}, "required": ["id"]}
    },
}


def test_values_come_from_the_schema_and_satisfy_it() -> None:
    arguments = sample_arguments(SCHEMA)
    assert errors(SCHEMA, arguments) == []
    assert arguments["url"].startswith("https://")  # a value for the format, not "string"
    assert arguments["thoughtNumber"] == 1  # the lower bound, not 0
    assert arguments["ticket"] == "HD-0000"  # a string the pattern accepts
    assert arguments["limit"] == 10  # the default
    assert arguments["mode"] == "fast"  # the first enum value
    # Optional and with nothing to give: left out. A null default outside the type is no default.
    assert "query" not in arguments
    assert "note" not in arguments
    assert arguments["tags"] == ["string", "string1"]  # minItems, told apart for uniqueItems


def test_a_required_array_shows_what_an_item_looks_like() -> None:
    item = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    schema = {"type": "object", "properties": {"entities": {"type": "array", "items": item}}, "required": ["entities"]}
    assert sample_arguments(schema) == {"entities": [{"name": "string"}]}
    schema["properties"]["entities"]["maxItems"] = 0
    assert sample_arguments(schema) == {"entities": []}


def test_bounded_on_deep_wide_and_huge_schemas() -> None:
    deep: dict[str, Any] = {"type": "string"}
    for _ in range(500):
        deep = {"type": "object", "properties": {"a": deep}, "required": ["a"]}
    assert len(json.dumps(sample_arguments(deep))) < 200
    huge_enum = {"type": "object", "properties": {"x": {"enum": list(range(100_000))}}, "required": ["x"]}
    assert sample_arguments(huge_enum) == {"x": 0}
    names = [f"p{i}" for i in range(10_000)]
    wide = {"type": "object", "properties": {n: {"type": "string"} for n in names}, "required": names}
    assert len(sample_arguments(wide)) <= MAX_VALUES
    evil = {"type": "object", "properties": {"x": {"type": "string", "pattern": "(a+)+$" * 200}}, "required": ["x"]}
    assert isinstance(sample_arguments(evil)["x"], str)


def built(tmp_path: Path, document: dict[str, Any]) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "d.json").write_text(json.dumps(document))
    code, out, err = build(tmp_path / "d.json", tmp_path / "site")
    assert code == 0, out + err
    return tmp_path / "site"


def test_each_client_gets_a_tab_and_curl_only_over_http(tmp_path: Path) -> None:
    document = base_document(transports=[{"type": "stdio", "command": "server"}])
    schema = {"type": "object", "properties": {"on": {"type": "boolean"}}, "required": ["on"]}
    document["tools"][0]["inputSchema"] = schema
    page = parse(built(tmp_path / "stdio", document) / "tools" / "assign_issue.html")
    panels = page.select("#request [data-tab-panel]")
    assert [p["data-tab-key"] for p in panels] == ["jsonrpc", "python", "typescript"]
    assert [p["data-tab-label"] for p in panels] == ["JSON-RPC", "Python SDK", "TypeScript SDK"]
    python = page.select_one("#request-python pre").get_text()
    assert 'session.call_tool(\n    "assign_issue",\n    arguments={\n        "on": True\n    },\n)' in python
    typescript = page.select_one("#request-typescript pre").get_text()
    assert 'client.callTool({\n  name: "assign_issue",\n  arguments: {\n    "on": true\n  },\n});' in typescript
    assert page.select_one("#request-curl") is None
    document["transports"] = [{"type": "streamable-http", "url": "https://example.com/mcp?a=b'c"}]
    page = parse(built(tmp_path / "http", document) / "tools" / "assign_issue.html")
    curl = page.select_one("#request-curl pre").get_text()
    assert "curl -X POST 'https://example.com/mcp?a=b'\"'\"'c'" in curl  # quoted for the shell
    assert "MCP-Protocol-Version: 2026-07-28" in curl
    message = curl.split(" -d ", 1)[1].strip().strip("'")
    assert json.loads(message)["params"] == {"name": "assign_issue", "arguments": {"on": True}}


def test_a_template_is_expanded_with_what_its_completions_suggest(tmp_path: Path) -> None:
    template = {
        "uriTemplate": "helpdesk://tickets/{ticket_id}{?view}",
        "name": "ticket",
        "completionExamples": {
            "by-id": {
                "argument": {"name": "ticket_id", "value": "HD-1"},
                "result": {"completion": {"values": ["HD-1042"]}},
            }
        },
    }
    document = base_document(resourceTemplates=[template], protocolVersions=["2025-06-18", "2025-11-25"])
    page = parse(built(tmp_path, document) / "resource-templates" / "ticket.html")
    request = json.loads(page.select_one("#request-jsonrpc pre").get_text())
    uri = request["params"]["uri"]
    assert uri == "helpdesk://tickets/HD-1042?view=view"
    assert could_expand_to(template["uriTemplate"], uri)
    assert 'AnyUrl("helpdesk://tickets/HD-1042?view=view")' in page.select_one("#request-python pre").get_text()
