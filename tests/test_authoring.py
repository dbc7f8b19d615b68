"""Empty strings the specification allows are accepted with a warning of ours where a reader
would be confused; misspelt members get a ``did you mean``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mcpdesc_docs.source.load import parse_text
from mcpdesc_docs.validation.validator import validate_source

from .helpers import base_document, describe, diagnostics_of

EMPTY = "mcpdesc-docs.empty-value"


def _located(document: dict[str, Any]) -> list[tuple[str, str, str, str, int | None]]:
    source = parse_text(json.dumps(document, indent=1), "doc.json")
    return [(d.severity.value, d.rule, d.code, d.path or "", d.line) for d in validate_source(source).diagnostics]


def _line_of(document: dict[str, Any], fragment: str) -> int:
    rows = json.dumps(document, indent=1).splitlines()
    return next(n for n, row in enumerate(rows, 1) if fragment in row)


@pytest.mark.parametrize(
    ("change", "pointer", "fragment"),
    [
        (lambda d: d.update(resources=[{"uri": "file:///a", "name": ""}]), "/resources/0/name", '"name": ""'),
        (
            lambda d: d.update(resourceTemplates=[{"uriTemplate": "", "name": "t"}]),
            "/resourceTemplates/0/uriTemplate",
            '"uriTemplate": ""',
        ),
        (lambda d: d.update(prompts=[{"name": ""}]), "/prompts/0/name", '"name": ""'),
        (
            lambda d: d.update(transports=[{"type": "stdio", "command": ""}]),
            "/transports/0/command",
            '"command": ""',
        ),
        (lambda d: d["info"].update(license={"name": ""}), "/info/license/name", '"name": ""'),
        (
            lambda d: d.update(securitySchemes={"token": {"type": "http", "scheme": ""}}),
            "/securitySchemes/token/scheme",
            '"scheme": ""',
        ),
        (
            lambda d: d.update(securitySchemes={"key": {"type": "apiKey", "name": "", "in": "header"}}),
            "/securitySchemes/key/name",
            '"name": ""',
        ),
    ],
)
def test_empty_strings_the_specification_allows_are_warnings(change: Any, pointer: str, fragment: str) -> None:
    document = base_document()
    change(document)
    found = _located(document)
    assert ("warning", EMPTY, "empty-value", pointer, _line_of(document, fragment)) in found
    assert not [f for f in found if f[0] == "error"], found


def test_an_empty_schema_uri_is_a_warning() -> None:
    document = base_document(**{"$schema": ""})
    assert [(d.severity.value, d.rule, d.code, d.path) for d in diagnostics_of(document)] == [
        ("warning", "mcpdesc.document.version", "unknown-schema-identity", "/$schema")
    ]


@pytest.mark.parametrize(
    ("change", "pointer", "code"),
    [
        (lambda d: d["info"].update(name=""), "/info/name", "empty-string"),
        (lambda d: d["tools"][0].update(name=""), "/tools/0/name", "empty-string"),
        (
            lambda d: d["tools"][0]["elicitations"][0].update(message=""),
            "/tools/0/elicitations/0/message",
            "empty-string",
        ),
    ],
)
def test_empty_strings_the_specification_forbids_stay_errors(change: Any, pointer: str, code: str) -> None:
    document = base_document()
    change(document)
    assert ("error", code, pointer) in {(d.severity.value, d.code, d.path) for d in diagnostics_of(document)}


def test_strict_promotes_the_empty_value_warning(tmp_path: Any) -> None:
    from .sites import run

    document = base_document(prompts=[{"name": ""}])
    path = tmp_path / "d.mcpdesc.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    assert run("validate", str(path))[0] == 0
    code, out, _ = run("validate", str(path), "--strict")
    assert code == 1
    assert "warning[mcpdesc-docs.empty-value]" in out


@pytest.mark.parametrize(
    ("change", "pointer", "suggestion"),
    [
        (lambda d: d["tools"][0].update(inputSchma={}), "/tools/0/inputSchma", "inputSchema"),
        (lambda d: d["info"].update(verison="1"), "/info/verison", "version"),
        (lambda d: d["tools"][0]["elicitations"][0].update(mesage="x"), "/tools/0/elicitations/0/mesage", "message"),
        (
            lambda d: d["tools"][0].update(examples={"a": {"input": {}, "result": {"content": [], "isEror": True}}}),
            None,
            None,
        ),
        (
            lambda d: d["tools"][0].update(
                examples={"a": {"input": {}, "result": {"content": [{"type": "text", "txt": "x"}]}}}
            ),
            "/tools/0/examples/a/result/content/0/txt",
            "text",
        ),
        (
            lambda d: d["tools"][0]["elicitations"][0]["requestedSchema"].update(requierd=["assignee"]),
            "/tools/0/elicitations/0/requestedSchema/requierd",
            "required",
        ),
        (
            lambda d: d["tools"][0]["elicitations"][0]["requestedSchema"]["properties"]["assignee"].update(maxLenght=3),
            "/tools/0/elicitations/0/requestedSchema/properties/assignee/maxLenght",
            "maxLength",
        ),
        (
            lambda d: d["tools"][0].update(clientRequirements={"elicitation": {"forms": {}}}),
            "/tools/0/clientRequirements/elicitation/forms",
            "form",
        ),
    ],
)
def test_unknown_members_name_the_closest_known_one(change: Any, pointer: str | None, suggestion: str | None) -> None:
    document = base_document()
    change(document)
    diagnostics = diagnostics_of(document)
    if pointer is None:  # results are open objects: an unknown member there is kept, not an error
        assert not [d for d in diagnostics if d.is_error and "isEror" in (d.path or "")], describe(diagnostics)
        return
    [message] = [d.message for d in diagnostics if d.path == pointer and d.is_error]
    assert f"(did you mean {suggestion!r}?)" in message, message


def test_an_unknown_member_far_from_every_known_one_gets_no_suggestion() -> None:
    document = base_document()
    document["tools"][0]["colour"] = "red"
    [message] = [d.message for d in diagnostics_of(document) if d.path == "/tools/0/colour"]
    assert "did you mean" not in message
    assert "(specification extensions start with 'x-')" in message


def test_a_misspelt_tool_annotation_is_a_warning_with_the_suggestion() -> None:
    document = base_document()
    document["tools"][0]["annotations"] = {"readOnlyHnt": True, "vendorHint": 1}
    assert [(d.severity.value, d.rule, d.code, d.path) for d in diagnostics_of(document)] == [
        ("warning", "mcpdesc-docs.annotation-spelling", "misspelt-annotation", "/tools/0/annotations/readOnlyHnt")
    ]
    [warning] = diagnostics_of(document)
    assert warning.message.endswith("(did you mean 'readOnlyHint'?)")
