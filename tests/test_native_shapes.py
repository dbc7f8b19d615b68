"""The MCP objects that examples embed (tool, read and prompt results and their content
blocks, interaction-example step payloads) are checked for MCP's own shapes, as the
upstream validator's structural schema does; so are capabilities' ``tasks`` and the
known members of ``clientRequirements``."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcpdesc_docs.source import pointer as jp
from mcpdesc_docs.source.load import parse_text
from mcpdesc_docs.validation.validator import validate_source

from .helpers import Path, base_document, describe, diagnostics_of, walk
from .shared_data import CONFORMANCE, descriptions_in
from .sites import EXAMPLES, load_data

Doc = dict[str, Any]

VALID = [*descriptions_in(CONFORMANCE / "expected-valid"), *EXAMPLES]
BASES: list[tuple[str, Doc]] = [(path.name, load_data(path)) for path in VALID]


def _under_result(path: Path) -> bool:
    return "result" in path and any(part in ("examples", "interactionExamples", "components") for part in path)


def native_kind(path: Path) -> str | None:
    """Which MCP object sits at ``path`` of a valid description, if any."""
    tail = path[-3:]
    if len(tail) == 3 and tail[1] == "content" and isinstance(tail[2], int) and tail[0] == "result":
        return "content-block"
    if len(tail) == 3 and tail[0] == "result" and tail[1] == "contents" and isinstance(tail[2], int):
        return "resource-contents"
    if len(tail) == 3 and tail[0] == "messages" and isinstance(tail[1], int) and tail[2] == "content":
        return "content-block" if _under_result(path) else None
    if len(path) >= 2 and path[-1] == "resource" and path[-3:-1][0:1] == ("content",):
        return "resource-contents"
    if len(path) >= 3 and path[-3] == "steps" and path[-1] in ("request", "response"):
        return "step-payload"
    return None


def native_sites(document: Doc) -> list[tuple[Path, str]]:
    return [
        (path, kind)
        for path, value in walk(document)
        if isinstance(value, dict) and (kind := native_kind(path)) is not None and _under_result_or_step(path)
    ]


def _under_result_or_step(path: Path) -> bool:
    return "steps" in path or _under_result(path)


SITES: list[tuple[int, Path, str]] = [
    (index, path, kind) for index, (_, document) in enumerate(BASES) for path, kind in native_sites(document)
]

Mutation = Callable[[dict[str, Any]], bool]
"""Changes an MCP object so that it is structurally wrong; False when it does not apply."""


def _drop_type(block: dict[str, Any]) -> bool:
    return block.pop("type", None) is not None


def _set(member: str, value: object, *, when: str | None = None) -> Mutation:
    def mutate(block: dict[str, Any]) -> bool:
        if (when or member) not in block:
            return False
        block[member] = value
        return True

    return mutate


def _add(member: str) -> Mutation:
    def mutate(block: dict[str, Any]) -> bool:
        if member in block:
            return False
        block[member] = "surprise"
        return True

    return mutate


MUTATIONS: dict[str, dict[str, Mutation]] = {
    "content-block": {
        "type missing": _drop_type,
        "type empty": _set("type", ""),
        "type a number": _set("type", 3),
        "type unknown": _set("type", "video"),
        "text a number": _set("text", 7),
        "data a number": _set("data", 7),
        "mimeType a number": _set("mimeType", 7),
        "resource.uri a number": lambda b: isinstance(b.get("resource"), dict) and _set("uri", 7)(b["resource"]),
        "unknown member": _add("bogus"),
        "extension": _add("x-note"),
    },
    "resource-contents": {
        "text a number": _set("text", 7),
        "blob a number": _set("blob", 7),
        "uri empty": _set("uri", ""),
        "uri a number": _set("uri", 7),
        "mimeType empty": _set("mimeType", ""),
        "unknown member": _add("bogus"),
        "extension": _add("x-note"),
    },
    "step-payload": {
        "unknown member": _add("bogus"),
        "extension": _add("x-note"),
        "action unknown": _set("action", "maybe"),
        "maxTokens zero": _set("maxTokens", 0),
        "messages empty": _set("messages", []),
        "toolChoice mode unknown": _set("toolChoice", {"mode": "sometimes"}),
        "tools without inputSchema": _set("tools", [{"name": "lookup"}]),
        "model a number": _set("model", 7),
        "roots not an array": _set("roots", {}),
    },
}


def _at(document: Doc, path: Path) -> Any:
    value: Any = document
    for part in path:
        value = value[part]
    return value


def test_the_valid_fixtures_embed_every_kind_of_native_object() -> None:
    # Guards the property below: without sites it would check nothing.
    kinds = {kind for _, _, kind in SITES}
    assert kinds == set(MUTATIONS), kinds
    assert len(SITES) >= 20


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_structurally_wrong_native_object_is_an_error(data: st.DataObject) -> None:
    index, path, kind = data.draw(st.sampled_from(SITES))
    name, base = BASES[index]
    document = copy.deepcopy(base)
    label, mutate = data.draw(st.sampled_from(sorted(MUTATIONS[kind].items())))
    if not mutate(_at(document, path)):
        return
    pointer = jp.from_parts(list(path))
    found = [d for d in diagnostics_of(document) if d.is_error and (d.path or "").startswith(pointer)]
    assert found, f"{name}: {label} at {pointer} was accepted"


def _tool_with_example(result: dict[str, Any], **extra: Any) -> Doc:
    document = base_document(protocolVersions=["2025-11-25"])
    document["tools"][0]["examples"] = {"basic": {"input": {}, "result": result}}
    document["tools"][0].update(extra)
    return document


def _located(document: Doc) -> list[tuple[str, str, str, int | None, int | None]]:
    """(rule, code, pointer, line, column) of every error, from the document as JSON text."""
    source = parse_text(json.dumps(document, indent=1), "doc.json")
    return [(d.rule, d.code, d.path or "", d.line, d.column) for d in validate_source(source).diagnostics if d.is_error]


@pytest.mark.parametrize(
    ("block", "code", "pointer"),
    [
        ({"text": "hi"}, "missing-member", ""),
        ({"type": "", "text": "hi"}, "invalid-value", "/type"),
        ({"type": 3, "text": "hi"}, "invalid-value", "/type"),
        ({"type": "text", "text": 7}, "wrong-type", "/text"),
        ({"type": "image", "data": 7, "mimeType": "image/png"}, "wrong-type", "/data"),
        ({"type": "resource", "resource": {"uri": 7, "text": "a"}}, "wrong-type", "/resource/uri"),
        ({"type": "text", "text": "hi", "colour": "red"}, "unknown-member", "/colour"),
    ],
)
def test_a_tool_result_content_block_is_checked_for_its_shape(block: dict[str, Any], code: str, pointer: str) -> None:
    document = _tool_with_example({"content": [block]})
    at = "/tools/0/examples/basic/result/content/0" + pointer
    found = [(rule, c, p) for rule, c, p, _, _ in _located(document)]
    assert ("mcpdesc.examples.members", code, at) in found, describe(diagnostics_of(document))


def test_native_shape_errors_are_located_at_the_member() -> None:
    document = _tool_with_example({"content": [{"type": "text", "text": 7}]})
    text = json.dumps(document, indent=1)
    line = next(n for n, row in enumerate(text.splitlines(), 1) if '"text": 7' in row)
    [(rule, code, pointer, at_line, column)] = _located(document)
    assert (rule, code, pointer, at_line) == (
        "mcpdesc.examples.members",
        "wrong-type",
        "/tools/0/examples/basic/result/content/0/text",
        line,
    )
    assert column is not None
    assert column > 1


def test_an_extension_in_an_mcp_object_is_misplaced_not_unknown() -> None:
    document = _tool_with_example({"content": [{"type": "text", "text": "hi", "x-note": "no"}]})
    assert ("mcpdesc.extensions.placement", "extension-not-allowed") in {
        (rule, code) for rule, code, *_ in _located(document)
    }


def test_an_extension_on_a_tools_execution_is_misplaced() -> None:
    document = base_document(protocolVersions=["2025-11-25"])
    document["tools"][0]["execution"] = {"taskSupport": "optional", "x-note": "no"}
    assert [(r, c, p) for r, c, p, *_ in _located(document)] == [
        ("mcpdesc.extensions.placement", "extension-not-allowed", "/tools/0/execution/x-note")
    ]


def test_prompt_messages_and_read_contents_are_checked() -> None:
    document = base_document(protocolVersions=["2025-11-25"])
    document["prompts"] = [
        {"name": "greet", "examples": {"hi": {"result": {"messages": [{"role": "user", "content": {"type": "text"}}]}}}}
    ]
    document["resources"] = [
        {"uri": "file:///a", "name": "a", "examples": {"one": {"result": {"contents": [{"uri": "", "text": 1}]}}}}
    ]
    found = {(c, p) for _, c, p, *_ in _located(document)}
    assert ("missing-member", "/prompts/0/examples/hi/result/messages/0/content") in found
    assert ("invalid-uri", "/resources/0/examples/one/result/contents/0/uri") in found
    assert ("wrong-type", "/resources/0/examples/one/result/contents/0/text") in found


def test_an_empty_mime_type_in_read_contents_is_an_error_not_a_warning() -> None:
    document = base_document(protocolVersions=["2025-11-25"])
    document["resources"] = [
        {
            "uri": "file:///a",
            "name": "a",
            "mimeType": "text/plain",
            "examples": {"one": {"result": {"contents": [{"uri": "file:///a", "mimeType": "", "text": "x"}]}}},
        }
    ]
    diagnostics = diagnostics_of(document)
    assert [(d.severity.value, d.code, d.path) for d in diagnostics] == [
        ("error", "empty-string", "/resources/0/examples/one/result/contents/0/mimeType")
    ], describe(diagnostics)


def _sampling_step(request: dict[str, Any]) -> Doc:
    document = base_document(protocolVersions=["2025-11-25"])
    step = {
        "type": "sampling",
        "request": request,
        "response": {"role": "assistant", "content": {"type": "text", "text": "ok"}, "model": "m"},
    }
    document["tools"][0]["interactionExamples"] = {
        "ask": {"input": {}, "steps": [step], "result": {"content": [{"type": "text", "text": "done"}]}}
    }
    return document


@pytest.mark.parametrize(
    ("change", "code", "pointer"),
    [
        ({"tools": [{"name": "lookup"}]}, "missing-member", "/tools/0"),
        (
            {"tools": [{"name": "lookup", "inputSchema": {"type": "string"}}]},
            "invalid-value",
            "/tools/0/inputSchema/type",
        ),
        ({"toolChoice": {"mode": "sometimes"}}, "invalid-value", "/toolChoice/mode"),
        (
            {"messages": [{"role": "user", "content": {"type": "text", "text": 1}}]},
            "wrong-type",
            "/messages/0/content/text",
        ),
        ({"temperature": "warm"}, "wrong-type", "/temperature"),
        ({"stream": True}, "unknown-member", "/stream"),
    ],
)
def test_sampling_step_requests_have_create_message_shape(change: dict[str, Any], code: str, pointer: str) -> None:
    request: dict[str, Any] = {
        "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}],
        "maxTokens": 10,
        **change,
    }
    document = _sampling_step(request)
    at = "/tools/0/interactionExamples/ask/steps/0/request" + pointer
    assert (code, at) in {(c, p) for _, c, p, *_ in _located(document)}, describe(diagnostics_of(document))


def test_elicitation_step_responses_are_closed() -> None:
    document = base_document(protocolVersions=["2025-11-25"])
    step = {
        "type": "elicitation",
        "request": {"mode": "url", "message": "Sign in", "url": "https://example.com/a"},
        "response": {"action": "decline", "reason": "busy"},
    }
    document["tools"][0]["interactionExamples"] = {
        "ask": {"input": {}, "steps": [step], "result": {"content": [{"type": "text", "text": "done"}]}}
    }
    assert ("unknown-member", "/tools/0/interactionExamples/ask/steps/0/response/reason") in {
        (c, p) for _, c, p, *_ in _located(document)
    }


def test_capability_tasks_are_closed() -> None:
    document = base_document(protocolVersions=["2025-11-25"])
    document["capabilities"] = [{"tasks": {"requests": {"tools": {"call": {}, "list": {}}}}}]
    assert [(r, c, p) for r, c, p, *_ in _located(document)] == [
        ("mcpdesc.capabilities.members", "unknown-member", "/capabilities/0/tasks/requests/tools/list")
    ]


@pytest.mark.parametrize(
    ("requirements", "code", "pointer"),
    [
        ({"roots": {"listChanged": "yes"}}, "wrong-type", "/roots/listChanged"),
        ({"experimental": {"beta": 1}}, "wrong-type", "/experimental/beta"),
        ({"experimental": []}, "wrong-type", "/experimental"),
        ({"elicitation": {"form": True}}, "wrong-type", "/elicitation/form"),
    ],
)
def test_client_requirement_members_have_mcp_types(requirements: dict[str, Any], code: str, pointer: str) -> None:
    document = base_document(protocolVersions=["2025-11-25"])
    document["tools"][0]["clientRequirements"] = requirements
    at = "/tools/0/clientRequirements" + pointer
    assert ("mcpdesc.client-requirements.members", code, at) in {(r, c, p) for r, c, p, *_ in _located(document)}, (
        describe(diagnostics_of(document))
    )


def test_messages_name_the_mcp_object_and_the_example() -> None:
    document = _tool_with_example({"content": [{"type": "text", "text": "hi", "x-note": "no"}]})
    [message] = [d.message for d in diagnostics_of(document) if (d.path or "").endswith("/x-note")]
    assert message == (
        "text content block in example 'basic' does not allow specification extensions such as 'x-note' "
        "(MCP objects carry metadata in _meta)"
    )
