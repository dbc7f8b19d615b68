"""Hostile descriptions against the diagnostics: pairwise rules report each duplicate once,
component chains are followed once, and what is printed stays bounded and inert.

Each hostile input is a few KB and goes through the real command line in a child process
with a time budget and an address-space limit (a hang or a blow-up fails the test on its
own, never the suite); linearity is shown by counting, never by timing."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mcpdesc_docs.validation import document as document_module
from mcpdesc_docs.validation.validator import check_document

from .helpers import base_document

MEMORY_LIMIT = 1 << 30
"""Issue 15: peak memory under 1 GB."""
BUDGET_SECONDS = 30
"""Ten times the target for a small file (well under a second), with start-up and a shared machine."""


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def cli(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The command line in a child process, bounded in time and memory."""
    return subprocess.run(
        [sys.executable, "-m", "mcpdesc_docs", *argv],
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="surrogateescape",
        timeout=BUDGET_SECONDS,
        preexec_fn=_limit_memory,
        cwd=cwd,
        check=False,
    )


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


@pytest.mark.parametrize(("build", "n", "code"), [(same_named_tools, 2000, 1999), (capabilities_objects, 30000, 29999)])
def test_thousands_of_duplicates_validate_within_budget(tmp_path, build, n, code):
    result = cli("validate", str(write(tmp_path, build(n))), "--format", "json")
    assert result.returncode == 1, result.stderr
    report = json.loads(result.stdout)
    assert report["errors"] == code
    # Before: 2,000 same-named tools printed 2 million errors (600 MB of text, 2.9 GB of memory).
    assert len(result.stdout) < 500 * n


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
    original = document_module.Document._target

    def counting(self: Any, value: object, at: str, namespace: str) -> Any:
        nonlocal calls
        calls += 1
        return original(self, value, at, namespace)

    monkeypatch.setattr(document_module.Document, "_target", counting)
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
