"""The one rule registry: ids written once, findings stamped by the runner, every format
in one registry, and a crashing rule reported, never silent."""

from __future__ import annotations

import ast
import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

import mcpdesc_docs
from mcpdesc_docs.diagnostics import Diagnostic, Severity
from mcpdesc_docs.rule_docs import RuleDoc
from mcpdesc_docs.spec.versions import SPEC_0_7_0, SPEC_0_8_0, SPEC_0_9_0_RC_3
from mcpdesc_docs.validation import registry
from mcpdesc_docs.validation.document import Document
from mcpdesc_docs.validation.findings import INTERNAL_ERROR, Finding
from mcpdesc_docs.validation.registry import Rule, findings_of, load_rules, rule, rules_for
from mcpdesc_docs.validation.structural import validate_structure
from mcpdesc_docs.validation.validator import check_document, validate_file

from .helpers import base_document, describe, diagnostics_of
from .sites import description_files, run

PACKAGE = Path(mcpdesc_docs.__file__).parent
TEST_DOC = RuleDoc("A test rule.", "Tests register it.", "x-a: 1\n", "x-b: 1\n", ("none",), ("test-code",))


def _trees() -> list[ast.AST]:
    return [ast.parse(path.read_text(encoding="utf-8")) for path in sorted(PACKAGE.rglob("*.py"))]


def _string_literals(trees: list[ast.AST]) -> Counter[str]:
    return Counter(
        node.value
        for tree in trees
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    )


def _generated_registrations(trees: list[ast.AST]) -> list[re.Pattern[str]]:
    """Ids registered from f-strings (``@rule(f"mcp.{kind}.protocol-version")``), as patterns."""
    patterns = []
    for tree in trees:
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "rule"):
                continue
            if node.args and isinstance(node.args[0], ast.JoinedStr):
                parts = [
                    re.escape(part.value) if isinstance(part, ast.Constant) else "[^.]+" for part in node.args[0].values
                ]
                patterns.append(re.compile("".join(parts)))
    return patterns


@pytest.mark.slow
def test_each_registered_rule_id_is_written_exactly_once() -> None:
    trees = _trees()
    literals = _string_literals(trees)
    generated = _generated_registrations(trees)
    assert generated, "the per-kind protocol-version rules are registered from an f-string"
    wrong = {}
    for rule_id in load_rules():
        # An id that no literal spells was written once, by the f-string that registered it.
        written_by_registration = literals[rule_id] == 0 and any(pattern.fullmatch(rule_id) for pattern in generated)
        if literals[rule_id] != 1 and not written_by_registration:
            wrong[rule_id] = literals[rule_id]
    assert wrong == {}, "rule ids written as a literal other than once (id: count)"


@pytest.fixture
def scratch_registry(monkeypatch: pytest.MonkeyPatch) -> dict[str, Rule]:
    """The real rules in a copy the test may register more in; the copy goes afterwards."""
    scratch = dict(load_rules())
    monkeypatch.setattr(registry, "REGISTRY", scratch)
    return scratch


def test_findings_carry_the_id_their_rule_is_registered_under(scratch_registry: dict[str, Rule]) -> None:
    @rule("mcpdesc.test.stamped", doc=TEST_DOC)
    def stamped(document: Document) -> Iterator[Finding]:
        yield Finding.warning("test-code", "a finding of the test rule", "/info", "req-test")

    found = [d for d in diagnostics_of(base_document()) if d.code == "test-code"]
    assert found == [
        Diagnostic(
            Severity.WARNING, "mcpdesc.test.stamped", "test-code", "a finding of the test rule", "/info", "req-test"
        )
    ]


def test_an_id_is_registered_once_whatever_its_formats(scratch_registry: dict[str, Rule]) -> None:
    with pytest.raises(RuntimeError, match=r"rule mcpdesc\.tags\.unique registered twice"):
        rule("mcpdesc.tags.unique", doc=TEST_DOC)(lambda document: ())
    with pytest.raises(RuntimeError, match=r"rule mcpdesc07\.tags\.unique registered twice"):
        rule("mcpdesc07.tags.unique", doc=TEST_DOC, formats=(SPEC_0_7_0,))(lambda document: ())


def test_one_registry_serves_every_format() -> None:
    current = rules_for(SPEC_0_9_0_RC_3)
    legacy = rules_for(SPEC_0_7_0)
    assert rules_for(SPEC_0_8_0) == current  # 0.8.0 and 0.9.0-rc.3 share their rules
    assert list(legacy) == ["mcpdesc07.tags.unique", "mcpdesc07.tags.references", "mcpdesc07.primitives.unique"]
    assert not any(rule_id.startswith("mcpdesc07.") for rule_id in current)
    assert list(load_rules()) == [*current, *legacy]


def test_0_7_0_rules_run_on_the_document_view() -> None:
    document = {
        "mcpdesc": "0.7.0",
        "tags": [{"name": "a"}, {"name": "a"}],
        "tools": [{"name": "t", "tags": ["b"]}, {"name": "t"}],
    }
    semantic = rules_for(SPEC_0_7_0)
    assert {(d.rule, d.code, d.path) for d in diagnostics_of(document) if d.rule in semantic} == {
        ("mcpdesc07.tags.unique", "duplicate-root-tag", "/tags/1/name"),
        ("mcpdesc07.tags.references", "unknown-tag-reference", "/tools/0/tags/0"),
        ("mcpdesc07.primitives.unique", "duplicate-primitive", "/tools/1/name"),
    }


def test_a_0_7_0_tag_named_by_an_object_is_a_schema_error_not_a_crash() -> None:
    # It used to reach the tag reference rule as an unhashable set member (exit 2).
    document = {"mcpdesc": "0.7.0", "tags": [{"name": {"not": "a string"}}], "tools": [{"name": "t", "tags": ["x"]}]}
    found = {(d.rule, d.code, d.path) for d in diagnostics_of(document)}
    assert ("mcpdesc07.tags.references", "unknown-tag-reference", "/tools/0/tags/0") in found
    assert ("mcpdesc07.tags.members", "wrong-type", "/tags/0/name") in found


def _crashing(document: Document) -> Iterator[Finding]:
    yield Finding.warning("before-the-crash", "found before the crash", "/info")
    raise KeyError("no-such-member")


def _after(document: Document) -> Iterator[Finding]:
    yield Finding.warning("after-the-crash", "a later rule still runs", "")


CRASH_MESSAGE = (
    "internal error: the check for rule mcpdesc.test.crashing crashed with KeyError: 'no-such-member'; "
    "this is a bug in mcpdesc-docs, please report it together with the description"
)


@pytest.mark.parametrize("structurally_valid", [True, False], ids=["structurally-valid", "structurally-invalid"])
def test_a_crashing_rule_keeps_its_findings_and_becomes_an_internal_error(
    scratch_registry: dict[str, Rule], structurally_valid: bool
) -> None:
    rule("mcpdesc.test.crashing", doc=TEST_DOC)(_crashing)
    rule("mcpdesc.test.after", doc=TEST_DOC)(_after)
    document = base_document(tags=[{"name": "a"}, {"name": "a"}])
    if not structurally_valid:
        del document["info"]
    assert (validate_structure(document, SPEC_0_9_0_RC_3) == []) is structurally_valid
    found = diagnostics_of(document)
    assert [d for d in found if d.rule.startswith("mcpdesc.test.")] == [
        Diagnostic(Severity.WARNING, "mcpdesc.test.crashing", "before-the-crash", "found before the crash", "/info"),
        Diagnostic(Severity.ERROR, "mcpdesc.test.crashing", INTERNAL_ERROR, CRASH_MESSAGE, ""),
        Diagnostic(Severity.WARNING, "mcpdesc.test.after", "after-the-crash", "a later rule still runs", ""),
    ]
    assert "mcpdesc.tags.unique" in {d.rule for d in found}  # the real rules ran as well


def test_validate_reports_a_crashing_rule_as_invalid_not_as_an_internal_failure(
    scratch_registry: dict[str, Rule], tmp_path: Path
) -> None:
    rule("mcpdesc.test.crashing", doc=TEST_DOC)(_crashing)
    description = tmp_path / "d.json"
    description.write_text(json.dumps(base_document()), encoding="utf-8")
    code, out, err = run("validate", str(description))
    assert (code, err) == (1, "")
    assert f"error[mcpdesc.test.crashing] {CRASH_MESSAGE}\n    at /; code internal-error\n" in out


def test_no_rule_crashes_on_the_corpus_the_fixtures_or_the_sample() -> None:
    descriptions = description_files()
    assert len(descriptions) > 3
    crashes = [d for path in descriptions for d in validate_file(path).diagnostics if d.code == INTERNAL_ERROR]
    assert crashes == [], describe(crashes)


SHUFFLES = ("reversed", "seed 1", "seed 2")


def _reordered(rules: dict[str, Rule], order: str) -> dict[str, Rule]:
    ids = list(rules)
    if order == "reversed":
        ids.reverse()
    else:
        random.Random(order).shuffle(ids)
    return {rule_id: rules[rule_id] for rule_id in ids}


@pytest.mark.parametrize("order", SHUFFLES)
def test_the_order_of_the_rules_does_not_change_what_validation_reports(
    order: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every rule reads the same finished document: no rule sees what another left behind,
    # so running them in another order reports the same diagnostics, in the same order.
    descriptions = description_files()
    assert len(descriptions) > 3
    in_registration_order = {path: [d.to_json() for d in validate_file(path).diagnostics] for path in descriptions}
    monkeypatch.setattr(registry, "REGISTRY", _reordered(load_rules(), order))
    reordered = {path: [d.to_json() for d in validate_file(path).diagnostics] for path in descriptions}
    differing = [str(path) for path in descriptions if reordered[path] != in_registration_order[path]]
    assert differing == []
    assert sum(map(len, in_registration_order.values())) > 100  # the comparison saw findings


def _entered_from_two_sides() -> dict:
    """A cycle a -> b -> a that one tool's inputSchema enters at a and another's
    outputSchema at b: where it is reported depends on which use site is followed first."""
    schemas = {"a": {"$componentRef": "#/components/schemas/b"}, "b": {"$componentRef": "#/components/schemas/a"}}
    tools = [
        {"name": "first", "inputSchema": {"$componentRef": "#/components/schemas/a"}},
        {
            "name": "second",
            "inputSchema": {"type": "object"},
            "outputSchema": {"$componentRef": "#/components/schemas/b"},
        },
    ]
    return base_document(tools=tools, components={"schemas": schemas})


@pytest.mark.parametrize("order", SHUFFLES)
def test_references_are_resolved_before_any_rule_asks(order: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Resolution is a stage of its own: a rule that follows a reference (the tools'
    # schemas, the examples) does not decide where the components rule reports a cycle.
    data = _entered_from_two_sides()
    in_registration_order = check_document(data).diagnostics
    monkeypatch.setattr(registry, "REGISTRY", _reordered(load_rules(), order))
    assert check_document(data).diagnostics == in_registration_order
    cycles = [(d.path, d.message) for d in in_registration_order if d.code == "component-reference-cycle"]
    assert cycles == [
        (
            "/components/schemas/a/$componentRef",
            "component references form a cycle: #/components/schemas/b -> #/components/schemas/a -> "
            "#/components/schemas/b",
        )
    ]


def test_the_rules_leave_the_resolved_references_as_they_found_them() -> None:
    data = _entered_from_two_sides()
    document = Document.build(data, SPEC_0_9_0_RC_3)
    problems = list(document.resolution_problems)
    assert problems  # the cycle
    state = (dict(document.references._sites), dict(document.references._chains))
    findings_of(rules_for(SPEC_0_9_0_RC_3).values(), document)
    assert document.resolution_problems == problems
    assert (document.references._sites, document.references._chains) == state
