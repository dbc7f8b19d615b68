"""``suppress:``: warnings silenced by rule id or dotted prefix; errors never; unknown ids refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcpdesc_docs.config import ConfigError, load_config
from mcpdesc_docs.validation.validator import known_rule_ids, suppresses, validate_file

from .helpers import base_document
from .sites import description_files, run


def mixed() -> dict[str, Any]:
    """Two warnings (mcp.transport.legacy-sse, mcpdesc.legacy-protocol.validation-scope) and
    one error (mcp.meta.protocol-version)."""
    document = base_document(
        protocolVersions=["2025-03-26", "2025-06-18"],
        transports=[{"type": "sse", "url": "https://example.com/sse"}],
    )
    document["tools"][0]["_meta"] = {"note": "on a tool of 2025-03-26"}
    return document


def reported(tmp_path: Path, document: dict[str, Any], suppress: tuple[str, ...]) -> list[tuple[str, str]]:
    path = tmp_path / "d.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return [(d.severity.value, d.rule) for d in validate_file(path, suppress=suppress).diagnostics]


def test_nothing_is_suppressed_by_default(tmp_path: Path) -> None:
    assert sorted(reported(tmp_path, mixed(), ())) == [
        ("error", "mcp.meta.protocol-version"),
        ("warning", "mcp.transport.legacy-sse"),
        ("warning", "mcpdesc.legacy-protocol.validation-scope"),
    ]


@pytest.mark.parametrize(
    ("suppress", "left"),
    [
        # a rule id
        (("mcpdesc.legacy-protocol.validation-scope",), {"mcp.meta.protocol-version", "mcp.transport.legacy-sse"}),
        # a dotted prefix: every mcp.* warning, but never the mcp.* error
        (("mcp",), {"mcp.meta.protocol-version", "mcpdesc.legacy-protocol.validation-scope"}),
        (("mcp.transport",), {"mcp.meta.protocol-version", "mcpdesc.legacy-protocol.validation-scope"}),
        # a prefix of the text but not of the dotted name silences nothing
        (
            ("mcp.transport.legacy",),
            {"mcp.meta.protocol-version", "mcp.transport.legacy-sse", "mcpdesc.legacy-protocol.validation-scope"},
        ),
        # an error is never silenced
        (
            ("mcp.meta.protocol-version", "mcp.meta"),
            {"mcp.meta.protocol-version", "mcp.transport.legacy-sse", "mcpdesc.legacy-protocol.validation-scope"},
        ),
        (("mcpdesc", "mcp"), {"mcp.meta.protocol-version"}),
    ],
)
def test_suppress_drops_only_the_warnings_it_names(tmp_path: Path, suppress: tuple[str, ...], left: set[str]) -> None:
    assert {rule for _, rule in reported(tmp_path, mixed(), suppress)} == left


def test_an_entry_is_a_rule_id_or_a_dotted_prefix() -> None:
    assert suppresses("mcp.meta", "mcp.meta")
    assert suppresses("mcp.meta", "mcp.meta.key-grammar")
    assert not suppresses("mcp.meta", "mcp.metadata")
    assert not suppresses("mcp.meta.key-grammar", "mcp.meta")


def test_every_rule_id_validation_reports_is_one_suppress_accepts() -> None:
    descriptions = description_files()
    reported_ids = {d.rule for path in descriptions for d in validate_file(path).diagnostics}
    assert len(reported_ids) > 20
    assert reported_ids - known_rule_ids() == set()


def project(tmp_path: Path, settings: str) -> Path:
    (tmp_path / "d.json").write_text(json.dumps(base_document(transports=[{"type": "sse", "url": "https://e.com/s"}])))
    (tmp_path / "mcpdesc-docs.yml").write_text(f"description: d.json\n{settings}", encoding="utf-8")
    return tmp_path


def test_the_setting_is_read_in_order(tmp_path: Path) -> None:
    # Registered ids, structural ids of both formats, load-stage ids and prefixes are all known.
    entries = [
        "mcpdesc.security.scope-catalogue",
        "mcp.meta",
        "mcpdesc.tool.members",
        "mcpdesc07.tags.members",
        "mcpdesc07",
        "mcpdesc.input.limits",
        "mcpdesc.serialization",
    ]
    config = load_config(project(tmp_path, f"suppress: [{', '.join(entries)}]\n"))
    assert config.suppress == tuple(entries)


@pytest.mark.parametrize(
    ("settings", "problem"),
    [
        (
            "suppress: [mcp.meta, mcp.mta]\n",
            "mcpdesc-docs.yml:2:22: unknown rule id 'mcp.mta': no rule is named so or starts with 'mcp.mta.' "
            "(did you mean 'mcp.meta'?)",
        ),
        ("suppress: [mcp.transport.legacy]\n", "mcpdesc-docs.yml:2:12: unknown rule id 'mcp.transport.legacy'"),
        ("suppress:\n  - 3\n", "mcpdesc-docs.yml:3:5: each 'suppress' entry must be a rule id"),
        ("suppress: mcp.meta\n", "mcpdesc-docs.yml:2:1: 'suppress' must be a list of rule ids"),
    ],
)
def test_a_bad_entry_is_a_located_config_problem(tmp_path: Path, settings: str, problem: str) -> None:
    with pytest.raises(ConfigError) as raised:
        load_config(project(tmp_path, settings))
    shown = [f"{Path(d.file or '').name}:{d.line}:{d.column}: {d.message}" for d in raised.value.diagnostics]
    assert any(problem in line for line in shown), shown
    assert {d.rule for d in raised.value.diagnostics} == {"mcpdesc-docs.config"}


def test_build_leaves_suppressed_warnings_out_even_under_strict(tmp_path: Path) -> None:
    code, out, _ = run("build", str(project(tmp_path, "strict: true\n")))
    assert code == 1
    assert "warning[mcp.transport.legacy-sse]" in out
    code, out, err = run("build", str(project(tmp_path, "strict: true\nsuppress: [mcp.transport.legacy-sse]\n")))
    assert code == 0, out + err
    assert "legacy-sse" not in out
