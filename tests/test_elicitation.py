"""The 0.9.0-rc.3 elicitation chapter: one failing and one passing case per req-* anchor,
under both mcpdesc 0.9.0 (0.9.0-rc.3 rules) and 0.8.0."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from mcpdesc_docs.diagnostics import Severity

from .helpers import VERSIONS, base_document, describe, diagnostics_of, elicitation
from .shared_data import SPEC, require

Mutation = Callable[[dict[str, Any]], None]


def form(document: dict[str, Any]) -> dict[str, Any]:
    schema: dict[str, Any] = elicitation(document)["requestedSchema"]
    return schema


def prop(document: dict[str, Any], name: str = "assignee") -> dict[str, Any]:
    value: dict[str, Any] = form(document)["properties"][name]
    return value


def set_scope(*revisions: str) -> Mutation:
    def mutate(document: dict[str, Any]) -> None:
        elicitation(document)["protocolVersions"] = list(revisions)

    return mutate


def url_mode(document: dict[str, Any], *, url: str | None = "https://auth.example.com/authorize") -> None:
    declaration = elicitation(document)
    declaration["mode"] = "url"
    del declaration["requestedSchema"]
    declaration["protocolVersions"] = ["2025-11-25", "2026-07-28"]
    if url is not None:
        declaration["url"] = url


def both(*mutations: Mutation) -> Mutation:
    def mutate(document: dict[str, Any]) -> None:
        for mutation in mutations:
            mutation(document)

    return mutate


def modern_only(document: dict[str, Any]) -> None:
    set_scope("2025-11-25", "2026-07-28")(document)


@dataclass(frozen=True)
class Case:
    requirement: str
    rule: str
    failing: Mutation
    passing: Mutation
    severity: Severity = Severity.ERROR


def _second_declaration(name: str) -> Mutation:
    def mutate(document: dict[str, Any]) -> None:
        copy = dict(elicitation(document))
        copy["name"] = name
        document["tools"][0]["elicitations"].append(copy)

    return mutate


def _legacy_root(document: dict[str, Any]) -> None:
    document["protocolVersions"] = ["2025-03-26", "2025-06-18"]


def _legacy_elicitation_absent(document: dict[str, Any]) -> None:
    _legacy_root(document)
    elicitation(document)["protocolVersions"] = ["2025-06-18"]


CASES = [
    Case(
        "req-elicitations-non-empty",
        "mcpdesc.tool.members",
        lambda d: d["tools"][0].update(elicitations=[]),
        lambda d: None,
    ),
    Case(
        "req-elicitation-declaration-fields",
        "mcpdesc.elicitation.members",
        lambda d: elicitation(d).pop("message"),
        lambda d: elicitation(d).update({"x-internal-id": 7}),
    ),
    Case(
        "req-elicitation-name-format",
        "mcpdesc.elicitation.members",
        lambda d: elicitation(d).update(name="choose assignee"),
        lambda d: elicitation(d).update(name="choose.assignee-v2_1"),
    ),
    Case(
        "req-elicitation-name-unique",
        "mcpdesc.elicitation.name-unique",
        _second_declaration("choose_assignee"),
        _second_declaration("Choose_Assignee"),  # names are case-sensitive
    ),
    Case(
        "req-elicitation-message",
        "mcpdesc.elicitation.members",
        lambda d: elicitation(d).update(message=""),
        lambda d: elicitation(d).update(message="?"),
    ),
    Case(
        "req-elicitation-documentation-fields",
        "mcpdesc.elicitation.members",
        lambda d: elicitation(d).update(when="", onDecline="Leave it."),
        lambda d: elicitation(d).update(when="No assignee.", onDecline="Leave it.", onCancel="Abort."),
    ),
    Case(
        "req-elicitation-form-schema-required",
        "mcpdesc.elicitation.members",
        lambda d: elicitation(d).pop("requestedSchema"),
        lambda d: None,
    ),
    Case(
        "req-elicitation-form-no-url",
        "mcpdesc.elicitation.members",
        lambda d: elicitation(d).update(url="https://example.com/form"),
        lambda d: None,
    ),
    Case(
        "req-elicitation-form-shape",
        "mcp.elicitation.form-schema.members",
        lambda d: form(d)["properties"].update(address={"type": "object", "properties": {}}),
        lambda d: form(d)["properties"].update(age={"type": "integer", "minimum": 0}),
    ),
    Case(
        "req-elicitation-schema-references-resolved",
        "mcpdesc.components.references",
        lambda d: elicitation(d).update(requestedSchema={"$componentRef": "#/components/schemas/Missing"}),
        lambda d: (
            d.update(components={"schemas": {"Assignee": form(d)}}),
            elicitation(d).update(requestedSchema={"$componentRef": "#/components/schemas/Assignee"}),
        ),
    ),
    Case(
        "req-elicitation-form-vocabulary",
        "mcp.elicitation.form-schema.protocol-shape",
        lambda d: prop(d).update(default="alice"),  # string defaults need 2025-11-25
        both(modern_only, lambda d: prop(d).update(default="alice")),
    ),
    Case(
        "req-elicitation-form-required",
        "mcpdesc.elicitation.form-schema.consistency",
        lambda d: form(d).update(required=["assignee", "reviewer"]),
        lambda d: form(d).update(required=[]),
    ),
    Case(
        "req-elicitation-form-enum-names",
        "mcpdesc.elicitation.form-schema.consistency",
        lambda d: prop(d).update(enum=["alice", "bob"], enumNames=["Alice"]),
        lambda d: prop(d).update(enum=["alice", "bob"], enumNames=["Alice", "Bob"]),
    ),
    Case(
        "req-elicitation-form-defaults",
        "mcpdesc.elicitation.form-schema.consistency",
        both(modern_only, lambda d: prop(d).update(enum=["alice", "bob"], default="carol")),
        both(modern_only, lambda d: prop(d).update(enum=["alice", "bob"], default="bob")),
    ),
    Case(
        "req-elicitation-form-ranges",
        "mcpdesc.elicitation.form-schema.consistency",
        lambda d: prop(d).update(minLength=5, maxLength=2),
        lambda d: prop(d).update(minLength=2, maxLength=2),
    ),
    Case(
        "req-elicitation-url-no-schema",
        "mcpdesc.elicitation.members",
        lambda d: (url_mode(d), elicitation(d).update(requestedSchema={"type": "object", "properties": {}})),
        url_mode,
    ),
    Case(
        "req-elicitation-url-syntax",
        "mcpdesc.elicitation.members",
        lambda d: url_mode(d, url="not a valid URI"),
        lambda d: url_mode(d, url=None),  # omitted: chosen at run time
    ),
    Case(
        "req-elicitation-scope",
        "mcpdesc.protocol-scope.consistency",
        lambda d: (d["tools"][0].update(protocolVersions=["2025-11-25"]), set_scope("2025-11-25", "2026-07-28")(d)),
        lambda d: (d["tools"][0].update(protocolVersions=["2025-11-25"]), set_scope("2025-11-25")(d)),
    ),
    Case(
        "req-elicitation-protocol-versions",
        "mcp.elicitation.protocol-version",
        lambda d: (url_mode(d), set_scope("2025-06-18", "2025-11-25")(d)),
        url_mode,
    ),
    Case(
        "req-elicitation-legacy-incomplete",
        "mcpdesc.legacy-protocol.validation-scope",
        _legacy_root,
        _legacy_elicitation_absent,
        Severity.WARNING,
    ),
]


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("case", CASES, ids=[case.requirement for case in CASES])
def test_requirement_fails_and_passes(case: Case, version: str) -> None:
    failing = base_document(version)
    case.failing(failing)
    found = diagnostics_of(failing)
    matching = [d for d in found if d.requirement == case.requirement]
    assert matching, f"no diagnostic for {case.requirement}:\n{describe(found)}"
    assert all(d.rule == case.rule and d.severity is case.severity for d in matching), describe(matching)

    passing = base_document(version)
    case.passing(passing)
    found = diagnostics_of(passing)
    assert not [d for d in found if d.requirement == case.requirement], describe(found)
    if case.severity is Severity.ERROR:
        assert not [d for d in found if d.is_error], describe(found)


def test_every_anchor_of_the_chapter_has_a_case() -> None:
    chapter = require(SPEC / "elicitation-0.9.0-rc.3.md", "the 0.9.0-rc.3 elicitation chapter", "MCPDESC_SPEC")
    anchors = set(re.findall(r"<(req-[a-z0-9-]+)>", chapter.read_text(encoding="utf-8")))
    assert anchors, "the chapter lists requirement anchors"
    assert anchors == {case.requirement for case in CASES}
