"""Hostile descriptions against the diagnostics: pairwise rules report each duplicate once,
component chains are followed once, and what is printed stays bounded and inert.

Each hostile input is a few KB and goes through the real command line in a child process
with a time budget and an address-space limit (a hang or a blow-up fails the test on its
own, never the suite); linearity is shown by counting, never by timing."""

from __future__ import annotations

import ast
import io
import json
import re
import unicodedata
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import yaml
from bs4 import BeautifulSoup
from watchfiles import Change

from mcpdesc_docs.devserver.builder import Rebuild
from mcpdesc_docs.devserver.project import ProjectBuilder
from mcpdesc_docs.devserver.server import DevServer
from mcpdesc_docs.diagnostics import (
    FRAME_WIDTH,
    MAX_SHOWN,
    MAX_SHOWN_PER_RULE,
    error,
    format_github,
    format_json,
    format_text,
    json_text,
    printable,
    shown,
)
from mcpdesc_docs.validation import references as references_module
from mcpdesc_docs.validation.findings import MAX_FINDINGS, Finding
from mcpdesc_docs.validation.registry import Rule
from mcpdesc_docs.validation.rules import tool_schemas as tool_schemas_module
from mcpdesc_docs.validation.schema_keywords import all_unique
from mcpdesc_docs.validation.validator import check_document

from .bounded import Finished, run_bounded
from .helpers import base_document

PACKAGE = Path(__file__).resolve().parents[1] / "mcpdesc_docs"
MEMORY_LIMIT = 1 << 30
"""Issue 15: peak memory under 1 GB."""
BUDGET_SECONDS = 30
"""CPU seconds: ten times the target for a small file (well under a second), with start-up and a shared machine."""


def cli(*argv: str, cwd: Path | None = None) -> Finished:
    """The command line in a child process, bounded in CPU time and memory."""
    return run_bounded(*argv, seconds=BUDGET_SECONDS, cwd=cwd, address_space=MEMORY_LIMIT)


def write(tmp_path: Path, data: dict[str, Any], name: str = "d.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def tool(name: str, **members: Any) -> dict[str, Any]:
    return {"name": name, "inputSchema": {"type": "object"}, **members}


def codes(diagnostics: list[Any], code: str) -> list[Any]:
    return [d for d in diagnostics if d.code == code]


# --- class 4: pairwise rules report each duplicate once -------------------------------------


def same_named_tools(n: int) -> dict[str, Any]:
    return base_document(tools=[tool("same") for _ in range(n)])


def capabilities_objects(n: int) -> dict[str, Any]:
    return base_document(capabilities=[{"tools": {}} for _ in range(n)])


@pytest.mark.parametrize("n", [50, 100])
def test_each_duplicate_identity_is_reported_once_against_the_first(n):
    found = codes(check_document(same_named_tools(n)).diagnostics, "primitive-scope-overlap")
    # One per duplicate (all pairs were n(n-1)/2: 4,950 at n = 100).
    assert len(found) == n - 1
    assert [d.path for d in found] == [f"/tools/{i}/name" for i in range(1, n)]
    assert all("(also at /tools/0)" in d.message for d in found)


def test_a_duplicate_is_reported_against_the_first_declaration_it_overlaps():
    document = base_document(
        tools=[
            tool("t", protocolVersions=["2025-06-18"]),
            tool("t", protocolVersions=["2025-11-25"]),
            tool("t", protocolVersions=["2026-07-28", "2025-11-25"]),
            tool("t", protocolVersions=["2026-07-28"]),
        ]
    )
    found = {d.path: d.message for d in codes(check_document(document).diagnostics, "primitive-scope-overlap")}
    assert set(found) == {"/tools/2/name", "/tools/3/name"}
    # /tools/2 overlaps /tools/1 (first) on 2025-11-25 only; /tools/3 overlaps /tools/2.
    assert "for protocol version(s) 2025-11-25 (also at /tools/1)" in found["/tools/2/name"]
    assert "for protocol version(s) 2026-07-28 (also at /tools/2)" in found["/tools/3/name"]


@pytest.mark.parametrize("n", [50, 100])
def test_each_overlapping_capabilities_object_is_reported_once(n):
    found = codes(check_document(capabilities_objects(n)).diagnostics, "capability-scope-overlap")
    assert len(found) == n - 1
    assert found[0].message.startswith("capabilities objects 0 and 1 both apply to 2025-06-18, 2025-11-25, 2026-07-28")
    assert all(d.message.startswith("capabilities objects 0 and ") for d in found)


def test_a_long_parent_scope_does_not_lengthen_every_finding():
    bogus = [f"1999-01-{i:04d}" for i in range(2000)]
    document = base_document()
    document["tools"][0]["protocolVersions"] = bogus
    document["tools"][0]["elicitations"][0]["protocolVersions"] = [*bogus[:1], "2026-07-28"]
    found = codes(check_document(document).diagnostics, "protocol-scope-outside-parent")
    elicitation = [d for d in found if "/elicitations/" in d.path]
    assert len(elicitation) == 1
    assert "which is not in its parent scope ()" in elicitation[0].message


@pytest.mark.parametrize(
    ("build", "n", "errors"),
    # 29,999 overlaps: the rule stops collecting at MAX_FINDINGS and says so in one more error.
    [(same_named_tools, 2000, 1999), (capabilities_objects, 30000, MAX_FINDINGS + 1)],
)
def test_thousands_of_duplicates_validate_within_budget(tmp_path, build, n, errors):
    result = cli("validate", str(write(tmp_path, build(n))), "--format", "json")
    assert result.returncode == 1, result.stderr
    report = json.loads(result.stdout)
    assert report["errors"] == errors
    assert report["omitted"] == errors - len(report["diagnostics"])
    # Before: 2,000 same-named tools printed 2 million errors (600 MB of text, 2.9 GB of memory).
    assert len(result.stdout) < 100_000


# --- class 5: component chains are followed once -------------------------------------------


def chained(n: int, *, cycle: bool = False) -> dict[str, Any]:
    """n schemas s0 -> s1 -> ... each referring to the next (the last back to s0 for a cycle,
    else to an object schema), and one tool using each."""
    schemas: dict[str, Any] = {
        f"s{i}": {"$componentRef": f"#/components/schemas/s{(i + 1) % n if cycle else i + 1}"} for i in range(n)
    }
    if not cycle:
        schemas[f"s{n}"] = {"type": "object"}
    tools = [tool(f"t{i}", inputSchema={"$componentRef": f"#/components/schemas/s{i}"}) for i in range(n)]
    document = base_document(tools=tools, components={"schemas": schemas})
    return document


def count_steps(monkeypatch: pytest.MonkeyPatch, data: dict[str, Any]) -> tuple[int, list[Any]]:
    """How many references were followed to validate a document, and its diagnostics."""
    calls = 0
    original = references_module.References._target

    def counting(self: Any, value: object, at: str, namespace: str) -> Any:
        nonlocal calls
        calls += 1
        return original(self, value, at, namespace)

    monkeypatch.setattr(references_module.References, "_target", counting)
    diagnostics = check_document(data).diagnostics
    return calls, diagnostics


@pytest.mark.parametrize("cycle", [False, True])
def test_each_reference_is_followed_once(monkeypatch, cycle):
    small, _ = count_steps(monkeypatch, chained(100, cycle=cycle))
    large, diagnostics = count_steps(monkeypatch, chained(200, cycle=cycle))
    # One step per component and one per use site: 2N. Following each use site's chain
    # was N^2/2 steps (20,000 at N = 200).
    assert small <= 2 * 100 + 1
    assert large <= 2 * 200 + 1
    assert large <= 2 * small + 1
    assert len(codes(diagnostics, "component-reference-cycle")) == (1 if cycle else 0)


def test_a_cycle_is_reported_once_where_it_is_entered():
    schemas = {
        "tail": {"$componentRef": "#/components/schemas/a"},
        "a": {"$componentRef": "#/components/schemas/b"},
        "b": {"$componentRef": "#/components/schemas/c"},
        "c": {"$componentRef": "#/components/schemas/a"},
    }
    tools = [tool(f"t{i}", inputSchema={"$componentRef": "#/components/schemas/tail"}) for i in range(20)]
    diagnostics = check_document(base_document(tools=tools, components={"schemas": schemas})).diagnostics
    found = codes(diagnostics, "component-reference-cycle")
    assert [(d.path, d.message) for d in found] == [
        (
            "/components/schemas/a/$componentRef",
            "component references form a cycle: #/components/schemas/b -> #/components/schemas/c -> "
            "#/components/schemas/a -> #/components/schemas/b",
        )
    ]
    # The use sites leading into it add nothing: the one edit that fixes the cycle fixes them.
    assert not [d for d in diagnostics if d.path.startswith("/tools/") and d.rule == "mcpdesc.components.references"]


def test_a_broken_chain_is_reported_once_at_the_break():
    schemas = {"a": {"$componentRef": "#/components/schemas/b"}, "b": {"$componentRef": "#/components/schemas/gone"}}
    tools = [tool(f"t{i}", inputSchema={"$componentRef": "#/components/schemas/a"}) for i in range(20)]
    diagnostics = check_document(base_document(tools=tools, components={"schemas": schemas})).diagnostics
    found = [d for d in diagnostics if d.rule == "mcpdesc.components.references"]
    assert [(d.code, d.path) for d in found] == [
        ("missing-component-reference-target", "/components/schemas/b/$componentRef")
    ]


def test_a_long_cycle_is_named_in_one_short_line():
    diagnostics = check_document(chained(2000, cycle=True)).diagnostics
    (found,) = codes(diagnostics, "component-reference-cycle")
    assert found.path == "/components/schemas/s0/$componentRef"
    assert "-> ... 1989 more ... ->" in found.message
    assert len(found.message) < 500


@pytest.mark.parametrize("cycle", [False, True])
def test_two_thousand_chained_references_validate_and_build_within_budget(tmp_path, cycle):
    description = write(tmp_path, chained(2000, cycle=cycle))
    validated = cli("validate", str(description))
    assert validated.returncode == (1 if cycle else 0), validated.stderr
    # Before: 20 s for the chain; the cycle printed its chain at every use (118 MB at 2,000).
    assert len(validated.stdout) < 2_000
    if not cycle:
        built = cli("build", str(description), "-o", str(tmp_path / "site"))
        assert built.returncode == 0, built.stderr


# --- class 8: nothing printed can drive a terminal or a CI runner ---------------------------

ESC_CLEAR = "\x1b[2J"
FORGED = "x\n::error file=x::forged"
MASK = "::add-mask::secret"
RLO = "\u202e"
CSI = "\x9b"
LEGACY_COMMAND = "##[error]v1"
HOSTILE = (ESC_CLEAR, FORGED, MASK, RLO, CSI, LEGACY_COMMAND)
ESCAPED_CATEGORIES = {"Cc", "Cf", "Cs", "Zl", "Zp"}
OUR_COMMAND = re.compile(r"::(error|warning) file=[^,:]*(,line=\d+(,col=\d+)?)?,title=[^,:]*::[^\r\n]*")


def assert_inert(text: str, *, github: bool = False) -> None:
    """No control, format or separator character anywhere; no line a CI runner acts on,
    except (github format) our own annotations."""
    for line in text.split("\n"):
        assert not [c for c in line if unicodedata.category(c) in ESCAPED_CATEGORIES], repr(line)
        assert not re.search(r"##[A-Za-z]*\[", line), repr(line)
        if line.lstrip().startswith("::"):
            assert github, repr(line)
            assert OUR_COMMAND.fullmatch(line), repr(line)


def hostile_invalid() -> dict[str, Any]:
    """Errors whose messages and pointers quote member names and values raw."""
    names = [f"n{i}{h}" for i, h in enumerate(HOSTILE)]
    schemas = {
        name: {"$componentRef": f"#/components/schemas/{names[(i + 1) % len(names)]}"} for i, name in enumerate(names)
    }
    properties = {name: {"type": "object", "x-mcp-header": name} for name in names}
    document = base_document(
        tags=[{"name": name} for name in names] * 2,
        components={"schemas": schemas},
    )
    document["tools"][0][MASK] = FORGED
    document["tools"][0]["inputSchema"]["properties"] = properties
    document["tools"].append(dict(document["tools"][0], name="assign_issue"))
    return document


def hostile_with_warnings() -> dict[str, Any]:
    """Valid, with warnings quoting hostile names, and hostile names everywhere the site shows them."""
    names = [f"n{i}{h}" for i, h in enumerate(HOSTILE)]
    document = base_document(
        securitySchemes={
            "oauth": {
                "type": "oauth2",
                "flows": {"clientCredentials": {"tokenUrl": "https://example.com/t", "scopes": {"read": "Read"}}},
            }
        },
        security=[{"oauth": names}],
        tags=[{"name": name, "description": FORGED} for name in names],
    )
    document["tools"][0]["tags"] = names
    document["tools"][0]["description"] = " ".join(HOSTILE)
    return document


def outputs(result: Finished) -> tuple[str, str]:
    assert "Traceback" not in result.stderr
    assert "internal error" not in result.stdout + result.stderr
    return result.stdout, result.stderr


@pytest.mark.parametrize("output_format", ["text", "json", "github", "sarif"])
@pytest.mark.parametrize("command", ["validate", "build"])
def test_hostile_names_print_inert_in_every_format(tmp_path, command, output_format):
    # The file name is hostile too: text lines start with it.
    for data, code in ((hostile_invalid(), 1), (hostile_with_warnings(), 0)):
        name = f"{MASK}{ESC_CLEAR}.json"
        write(tmp_path, data, name)
        extra = ["-o", "site"] if command == "build" else []
        result = cli(command, name, "--format", output_format, *extra, cwd=tmp_path)
        assert result.returncode == code, result.stderr
        out, err = outputs(result)
        assert_inert(out, github=output_format == "github")
        assert_inert(err)
        if output_format == "json":
            report = json.loads(out)
            assert report["file"] == name  # JSON escapes, but means exactly the same
            if code:
                assert any(RLO in d["path"] for d in report["diagnostics"])
                assert any(FORGED in d["message"] for d in report["diagnostics"])
        if output_format == "github":
            assert [line for line in out.splitlines() if line.startswith("::")], out
        if output_format == "sarif":
            results = json.loads(out)["runs"][0]["results"]
            uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
            assert uris == {"%3A%3Aadd-mask%3A%3Asecret%1B%5B2J.json"}  # the name, percent-encoded
            if code:
                assert any(FORGED in r["message"]["text"] for r in results)


def test_hostile_names_in_text_are_escaped_visibly(tmp_path):
    result = cli("validate", str(write(tmp_path, hostile_invalid())))
    out, _ = outputs(result)
    assert "\\x1b[2J" in out
    assert "\\u202e" in out
    assert "\\x9b" in out
    assert "x\\n::error file=x::forged" in out  # one line: the newline is shown, not printed
    assert "#\\x23[error]v1" in out


def v070(**changes: Any) -> dict[str, Any]:
    data = json.loads((Path(__file__).parent / "fixtures" / "v070" / "stdio-server.json").read_text(encoding="utf-8"))
    data.update(changes)
    return data


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_migrate_prints_a_hostile_description_inert_and_faithful(tmp_path, suffix):
    data = v070()
    data["info"]["description"] = " ".join(HOSTILE) + "\n" + MASK + "\n  " + FORGED
    data["tools"][0]["description"] = "\n".join(HOSTILE)
    data[f"x-{MASK}"] = {MASK: [FORGED, LEGACY_COMMAND]}
    source = tmp_path / f"old{suffix}"
    source.write_text(json.dumps(data), encoding="utf-8")  # JSON is YAML too
    printed = cli("migrate", str(source))
    assert printed.returncode == 0, printed.stderr
    out, err = outputs(printed)
    assert_inert(out)
    assert_inert(err)
    written = cli("migrate", str(source), "-o", str(tmp_path / f"new{suffix}"))
    assert written.returncode == 0, written.stderr
    load = json.loads if suffix == ".json" else yaml.safe_load
    loaded = load(out)
    assert loaded == load((tmp_path / f"new{suffix}").read_text(encoding="utf-8"))
    assert loaded["x-" + MASK] == {MASK: [FORGED, LEGACY_COMMAND]}


def test_migrate_prints_hostile_diagnostics_inert(tmp_path):
    data = v070(tags=[{"name": name} for name in HOSTILE] * 2)
    source = tmp_path / "old.json"
    source.write_text(json.dumps(data), encoding="utf-8")
    result = cli("migrate", str(source))
    assert result.returncode == 1
    out, err = outputs(result)
    assert "duplicate-root-tag" in out
    assert_inert(out)
    assert_inert(err)


def test_serve_prints_hostile_paths_and_messages_inert(tmp_path):
    class Crashing:
        def build(self, changed: Sequence[str] = ()) -> Rebuild:
            if changed:
                raise RuntimeError(FORGED + ESC_CLEAR)
            return Rebuild({"index.html": b"<html><body></body></html>"}, pages=1)

        def watch_paths(self) -> list[Path]:
            return [tmp_path]

        def ignore_paths(self) -> list[Path]:
            return []

    err = io.StringIO()
    server = DevServer(Crashing(), err=err)
    try:
        assert server.rebuild()
        server.watch_loop([{(Change.modified, str(tmp_path / f"{MASK}{RLO}.yaml"))}])
    finally:
        server.close()
    assert "changed: " in err.getvalue()
    assert "internal error" in err.getvalue()
    assert_inert(err.getvalue())


def test_the_project_builder_prints_hostile_reports_inert(tmp_path):
    write(tmp_path, hostile_invalid(), "d.json")
    (tmp_path / "mcpdesc-docs.yml").write_text("description: d.json\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    rebuild = ProjectBuilder(tmp_path, out=out, err=err).build()
    assert rebuild.files is None
    assert rebuild.diagnostics
    assert "error[" in out.getvalue()
    assert_inert(out.getvalue())
    assert_inert(err.getvalue())


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain text, é, 中文", "plain text, é, 中文"),
        ("a\tb\r\nc", "a\\tb\\r\\nc"),
        ("\x00\x7f\x85\u2028\u200b\ufeff\U000e0041", "\\x00\\x7f\\x85\\u2028\\u200b\\ufeff\\U000e0041"),
        ("lone \ud800", "lone \\ud800"),
        ("  \u00a0::stop-commands::t", "  \u00a0\\x3a:stop-commands::t"),
        ("a ::b", "a ::b"),
        ("x ##vso[task.setvariable] ##teamcity[m] ## [", "x #\\x23vso[task.setvariable] #\\x23teamcity[m] ## ["),
    ],
)
def test_printable_escapes_what_terminals_and_runners_act_on(text, shown):
    assert printable(text) == shown


def test_json_text_escapes_the_same_and_means_the_same():
    value = {RLO: [ESC_CLEAR, CSI, "\x7f", "\U000e0041", "lone \ud800", LEGACY_COMMAND, "é"]}
    text = json_text(value)
    assert text.isascii() is False  # é stays as it is
    assert_inert(text)
    assert json.loads(text) == value


def test_every_printed_line_goes_through_the_one_escaper():
    """No command writes a formatted string to a stream itself (write_line does)."""
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "diagnostics.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "write"
                and node.args
                and isinstance(node.args[0], ast.JoinedStr | ast.BinOp)
            ):
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert offenders == []


# --- caps on what is printed and collected ----------------------------------------------------


def test_reports_show_at_most_so_many_per_rule_and_in_all():
    diagnostics = [
        error(f"rule.r{r:02d}", "c", f"problem {i}", f"/x/{r}/{i}").located("f", r * 1000 + i + 1, 1)
        for r in range(15)
        for i in range(150)
    ]
    report = shown(diagnostics)
    assert len(report.diagnostics) == MAX_SHOWN
    assert max(Counter(d.rule for d in report.diagnostics).values()) == MAX_SHOWN_PER_RULE
    assert report.omitted == 15 * 150 - MAX_SHOWN
    text = format_text(diagnostics)
    assert text.count("\n") == 3 * MAX_SHOWN + 1  # the line, its pointer and code, where it is explained
    assert text.endswith(f"... and {15 * 150 - MAX_SHOWN} more ({15 * 150 - MAX_SHOWN} errors, 0 warnings) not shown\n")
    github = format_github(diagnostics)
    assert github.count("\n::error ") == MAX_SHOWN - 1
    assert github.splitlines()[-1].startswith("... and 1250 more")
    listed = json.loads(format_json(diagnostics, "f", None))
    assert (listed["errors"], listed["omitted"], len(listed["diagnostics"])) == (2250, 1250, MAX_SHOWN)


def test_a_report_with_nothing_left_out_has_no_omitted_field():
    listed = json.loads(format_json(check_document(base_document()).diagnostics, "f", None))
    assert "omitted" not in listed


@pytest.mark.parametrize("output_format", ["text", "github"])
def test_two_thousand_duplicates_print_a_hundred_and_a_count(tmp_path, output_format):
    result = cli("validate", str(write(tmp_path, same_named_tools(2000))), "--format", output_format)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert "... and 1899 more (1899 errors, 0 warnings) not shown" in lines
    # Text shows each diagnostic in at most 7 lines (message, pointer, a code frame of 4,
    # a hint), github in one; every line of a frame is cut to FRAME_WIDTH characters.
    per_diagnostic = 7 if output_format == "text" else 2
    assert len(lines) <= per_diagnostic * MAX_SHOWN_PER_RULE + 2
    frame_rows = [line for line in lines if line.startswith("    ") and " | " in line]
    assert (output_format == "text") == bool(frame_rows)
    assert all(len(row) <= FRAME_WIDTH + 20 for row in frame_rows)  # the file is one long line
    if output_format == "text":
        assert lines[-1].endswith("invalid (0.9.0-rc.3): 1999 errors, 0 warnings")


def test_a_rule_stops_collecting_after_so_many_findings():
    pulled = 0

    def endless(document: object) -> Iterator[Finding]:
        nonlocal pulled
        while True:
            pulled += 1
            yield Finding.error("c", "again", "/x")

    found = Rule("rule.endless", endless, ()).run(check_document(base_document()).document)  # type: ignore[arg-type]
    assert len(found) == MAX_FINDINGS + 1
    assert pulled == MAX_FINDINGS + 1
    assert (found[-1].rule, found[-1].code, found[-1].path) == ("mcpdesc.input.limits", "input-too-many-findings", "")
    assert "rule rule.endless stopped after 10000 problems" in found[-1].message


def test_a_structure_with_hundreds_of_thousands_of_errors_stops_at_the_cap(tmp_path):
    document = base_document()
    document["tools"][0]["tags"] = [1] * 200_000
    result = cli("validate", str(write(tmp_path, document)), "--format", "json")
    report = json.loads(result.stdout)
    assert result.returncode == 1
    assert report["errors"] == MAX_FINDINGS + 1  # was 200,001 diagnostics (and 2M nodes would be 2 GB)
    assert report["diagnostics"][0]["code"] == "input-too-many-findings"


# --- uniqueItems, pairwise in jsonschema -------------------------------------------------------


@pytest.mark.parametrize(
    ("items", "unique"),
    [
        ([1, 1.0], False),
        ([True, 1], True),
        ([False, 0, None], True),
        (["1", 1], True),
        ([{"a": 1, "b": [2]}, {"b": [2], "a": 1.0}], False),
        ([{"a": 1}, {"a": True}], True),
        ([[1, [2]], [1, [2]]], False),
        ([[1, 2], [2, 1]], True),
        ([None, None], False),
        ([{"a": i} for i in range(1000)], True),
    ],
)
def test_unique_items_means_json_schema_equality(items, unique):
    assert all_unique(items) is unique


def test_three_thousand_distinct_objects_check_uniqueness_within_budget(tmp_path):
    document = base_document()
    document["tools"][0]["tags"] = [{"a": i} for i in range(3000)]  # 10.7 s before, pairwise
    result = cli("validate", str(write(tmp_path, document)), "--format", "json")
    assert result.returncode == 1
    assert json.loads(result.stdout)["errors"] == 3000  # each item is no string; none repeats


def test_a_schema_shared_by_many_tools_is_walked_for_headers_once(monkeypatch):
    walks = 0
    original = tool_schemas_module._header_sites

    def counting(*args: Any) -> Any:
        nonlocal walks
        walks += 1
        return original(*args)

    monkeypatch.setattr(tool_schemas_module, "_header_sites", counting)
    shared = {"type": "object", "properties": {"h": {"type": "string", "x-mcp-header": "X-Dup"}}}
    tools = [tool(f"t{i}", inputSchema={"$componentRef": "#/components/schemas/shared"}) for i in range(200)]
    diagnostics = check_document(base_document(tools=tools, components={"schemas": {"shared": shared}})).diagnostics
    assert walks == 1  # was one walk per tool: 200
    # Each tool is still told, by name, that its protocol scope lacks the header's revision.
    assert len([d for d in diagnostics if d.code == "field-not-supported-by-version"]) == 200


def test_the_serve_banner_shows_as_many_problems_as_the_terminal(tmp_path):
    problems = tuple(
        error("mcpdesc.tags.unique", "duplicate-root-tag", f"tag {i} again", f"/tags/{i}").located("d.yaml", i + 1, 1)
        for i in range(2000)
    )

    class Failing:
        def build(self, changed: Sequence[str] = ()) -> Rebuild:
            return Rebuild(None, problems)

        def watch_paths(self) -> list[Path]:
            return [tmp_path]

        def ignore_paths(self) -> list[Path]:
            return []

    server = DevServer(Failing(), err=io.StringIO())
    try:
        assert not server.rebuild()
        banner = BeautifulSoup(server.no_site_page(), "html.parser").select_one("[data-serve-problems]")
    finally:
        server.close()
    assert banner is not None
    assert len(banner.select("[data-diagnostic]")) == MAX_SHOWN_PER_RULE
    omitted = banner.select_one("[data-diagnostics-omitted]")
    assert omitted is not None
    assert omitted.get_text() == "... and 1900 more (1900 errors, 0 warnings) not shown"
