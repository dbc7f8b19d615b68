"""The rule reference: every id validation can report is explained, each explanation's
examples do what it says (the bad one is reported under the rule, the good one is clean),
and docs/rules.md is the reference as ``mcpdesc-docs rules --markdown`` writes it."""

from __future__ import annotations

import ast
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import mcpdesc_docs
from mcpdesc_docs.cli import main
from mcpdesc_docs.diagnostics import Diagnostic, Severity, format_github, format_json, format_text
from mcpdesc_docs.validation.registry import load_rules
from mcpdesc_docs.validation.rule_reference import RuleEntry, example_description, reference
from mcpdesc_docs.validation.validator import known_rule_ids, validate_file

PACKAGE = Path(mcpdesc_docs.__file__).parent
RULES_MD = PACKAGE.parent / "docs" / "rules.md"
EXAMPLED = [entry for entry in reference().values() if entry.counterpart is None]


def test_the_reference_covers_every_rule_id_validation_can_report() -> None:
    assert set(reference()) == set(known_rule_ids())


def test_every_registered_rule_declares_its_explanation() -> None:
    for registered in load_rules().values():
        doc = registered.doc
        assert doc is not None, registered.id
        assert all((doc.summary, doc.rationale, doc.bad, doc.good, doc.requirements, doc.codes)), registered.id


@pytest.mark.parametrize("entry", list(reference().values()), ids=list(reference()))
def test_each_explanation_is_complete(entry: RuleEntry) -> None:
    doc = entry.doc
    assert all(text.strip() for text in (doc.summary, doc.rationale, doc.bad, doc.good)), entry.id
    assert doc.bad.endswith("\n"), entry.id
    assert doc.good.endswith("\n"), entry.id
    assert "\n" not in doc.summary, entry.id
    assert doc.summary.endswith("."), entry.id
    assert all((doc.requirements, doc.codes)), entry.id
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", code) for code in doc.codes), entry.id


LEGACY_SCOPE = "mcpdesc.legacy-protocol.validation-scope"
PARTLY_CHECKED = "incomplete-tool-example-validation"


def _found(fragment: str, entry: RuleEntry, tmp_path: Path) -> list[Diagnostic]:
    """What validation reports about the description the example stands for. A rule about
    what early protocol versions lack can only be shown with one of them in scope, which
    always brings the warnings that they are checked in part (the root's before 2025-06-18,
    a tool example's before 2025-11-25): left out here, except for their own rule's examples."""
    path = tmp_path / "example.mcpdesc.yaml"
    path.write_text(example_description(fragment, entry.example_format), encoding="utf-8")
    found = validate_file(path).diagnostics
    return [d for d in found if not _incidental(d, entry)]


def _incidental(diagnostic: Diagnostic, entry: RuleEntry) -> bool:
    if diagnostic.rule == LEGACY_SCOPE or diagnostic.code == PARTLY_CHECKED:
        return diagnostic.rule != entry.id
    return False


def _shown(diagnostics: list[Diagnostic]) -> str:
    return "\n".join(f"{d.severity.value} {d.rule} {d.code} {d.path}: {d.message}" for d in diagnostics)


@pytest.mark.parametrize("entry", EXAMPLED, ids=[entry.id for entry in EXAMPLED])
def test_the_bad_example_breaks_exactly_its_rule(entry: RuleEntry, tmp_path: Path) -> None:
    found = _found(entry.doc.bad, entry, tmp_path)
    assert found, f"{entry.id}: the bad example is valid"
    assert {d.rule for d in found} == {entry.id, *entry.doc.also}, _shown(found)
    own = [d for d in found if d.rule == entry.id]
    assert {d.code for d in own} <= set(entry.doc.codes), _shown(found)
    assert {d.severity for d in own} == {entry.doc.severity}, _shown(found)


@pytest.mark.parametrize("entry", EXAMPLED, ids=[entry.id for entry in EXAMPLED])
def test_the_good_example_is_clean(entry: RuleEntry, tmp_path: Path) -> None:
    found = _found(entry.doc.good, entry, tmp_path)
    assert found == [], _shown(found)


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_docs_rules_md_is_the_generated_reference() -> None:
    code, out, _ = _run("rules", "--markdown")
    assert code == 0
    assert RULES_MD.read_text(encoding="utf-8") == out, "regenerate: mcpdesc-docs rules --markdown > docs/rules.md"
    for rule_id in reference():
        assert f"## `{rule_id}`" in out


def test_rules_lists_every_id_with_its_severity_and_formats() -> None:
    code, out, _ = _run("rules")
    assert code == 0
    rows = {line.split()[0]: line.split()[1:3] for line in out.splitlines()}
    own = {"mcpdesc-docs.config", "mcpdesc-docs.servers-file", "mcpdesc-docs.template", "mcpdesc07.migrate"}
    assert set(rows) == set(known_rule_ids()) | own
    assert rows["mcpdesc.tags.unique"] == ["error", "0.9.0-rc.3,"]
    assert rows["mcp.transport.legacy-sse"][0] == "warning"
    assert rows["mcpdesc07.tags.unique"] == ["error", "0.7.0"]


def test_rules_id_explains_one_rule() -> None:
    code, out, _ = _run("rules", "mcpdesc.security.scope-unique")
    assert code == 0
    assert out.startswith("mcpdesc.security.scope-unique (error; formats 0.9.0-rc.3, 0.8.0)\n")
    assert "Codes: duplicate-security-scope" in out
    assert "  - oauth: [read, read]" in out
    code, out, _ = _run("rules", "mcpdesc07.tool.members")
    assert code == 0
    assert "mcpdesc-docs rules mcpdesc.tool.members" in out


def test_an_unknown_rule_id_is_a_usage_error_with_a_suggestion() -> None:
    code, out, err = _run("rules", "mcpdesc.tags.uniqe\x1b[2J")
    assert code == 2
    assert out == ""
    assert "\x1b" not in err
    code, _, err = _run("rules", "mcpdesc.tags.uniqe")
    assert "did you mean 'mcpdesc.tags.unique'?" in err


def _diagnostic(rule_id: str) -> Diagnostic:
    return Diagnostic(Severity.ERROR, rule_id, "code-x", "broken", "/tools/0", line=3, column=5, file="d.yaml")


def test_every_format_points_to_the_rule_explanation() -> None:
    diagnostic = _diagnostic("mcpdesc.tags.unique")
    text = format_text([diagnostic])
    assert text.splitlines()[-1] == "    see: mcpdesc-docs rules mcpdesc.tags.unique"
    document = json.loads(format_json([diagnostic], "d.yaml", None))
    assert document["diagnostics"][0]["see"] == "mcpdesc-docs rules mcpdesc.tags.unique"
    assert format_github([diagnostic]).rstrip("\n").endswith("; see: mcpdesc-docs rules mcpdesc.tags.unique")


def test_each_pointer_names_a_rule_the_reference_explains(tmp_path: Path) -> None:
    # The pointer is written for every diagnostic; every id validation reports is explained.
    path = tmp_path / "d.mcpdesc.yaml"
    path.write_text('mcpdesc: "0.9.0"\ninfo: {name: x}\nprotocolVersions: [2025-11-25]\ntools: []\n', encoding="utf-8")
    found = validate_file(path).diagnostics
    assert found
    for diagnostic in found:
        assert diagnostic.to_json()["see"] == f"mcpdesc-docs rules {diagnostic.rule}"
        assert diagnostic.rule in reference()


def _module_codes(tree: ast.Module) -> Iterator[str]:
    """Codes a rule module reports: the first argument of Finding.error/warning when written
    there, and strings bound to a name ``code`` or ``mismatch`` (passed on to helpers)."""
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "Finding"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            yield node.args[0].value
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
            and any(isinstance(t, ast.Name) and t.id in ("code", "mismatch", "FIELD_CODE") for t in node.targets)
        ):
            yield node.value.value


def test_every_code_a_rule_module_reports_is_declared_by_one_of_its_rules() -> None:
    rules_dir = PACKAGE / "validation" / "rules"
    declared_by_module: dict[str, set[str]] = {}
    for registered in load_rules().values():
        module = registered.check.__module__.rsplit(".", 1)[-1]
        assert registered.doc is not None
        declared_by_module.setdefault(module, set()).update(registered.doc.codes)
    undeclared = {}
    for path in sorted(rules_dir.glob("*.py")):
        codes = set(_module_codes(ast.parse(path.read_text(encoding="utf-8"))))
        missing = codes - declared_by_module.get(path.stem, set())
        if missing:
            undeclared[path.stem] = sorted(missing)
    assert undeclared == {}
