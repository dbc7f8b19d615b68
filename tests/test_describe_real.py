"""``describe`` on real, published MCP servers (pinned npm packages, tests/npm_servers.py):
the MCP project's reference servers over stdio and streamable HTTP, a release that breaks
the MCP schema, and one that speaks only 2024-11-05. What describe writes is compared with
an independent raw JSON-RPC listing (tests/raw_listing.py)."""

from __future__ import annotations

import copy
import os
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from mcpdesc_docs.describe.write import resolved

from . import listening
from .npm_servers import LOOPBACK, install
from .raw_listing import http_initialize, stdio_listing
from .sites import build, load_data, run

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

EVERY_CAPABILITY_2025_11_25 = {
    "roots": {},
    "sampling": {},
    "elicitation": {"form": {}, "url": {}},
    "tasks": {"list": {}, "cancel": {}, "requests": {"sampling": {"createMessage": {}}, "elicitation": {"create": {}}}},
}
GATED = {
    "get-roots-list": {"roots": {}},
    "trigger-sampling-request": {"sampling": {}},
    "trigger-elicitation-request": {"elicitation": {}},
    "trigger-url-elicitation": {"elicitation": {"url": {}}},
    "trigger-sampling-request-async": {"sampling": {}, "tasks": {"requests": {"sampling": {"createMessage": {}}}}},
    "trigger-elicitation-request-async": {
        "elicitation": {},
        "tasks": {"requests": {"elicitation": {"create": {}}}},
    },
}
"""server-everything's tools that it lists only to clients with these capabilities."""


def node(name: str, *args: str) -> list[str]:
    return ["node", str(install(name)), *args]


def at_version(declarations: list[dict], version: str) -> dict[str, dict]:
    return {
        d["name"]: {k: v for k, v in d.items() if k != "protocolVersions"}
        for d in declarations
        if version in d.get("protocolVersions", [version])
    }


def describe(command: list[str], target: Path, *extra: str) -> tuple[int, str, str]:
    return run("describe", "--stdio", shlex.join(command), "-o", str(target), *extra)


def assert_strictly_valid_and_builds(path: Path, site: Path) -> None:
    code, out, err = run("validate", "--strict", str(path))
    assert code == 0, out + err
    code, out, err = build(path, site, "--strict")
    assert code == 0, out + err


def test_server_everything_over_stdio(tmp_path: Path) -> None:
    command = node("everything", "stdio")
    target = tmp_path / "everything.mcpdesc.yaml"
    code, out, err = describe(command, target)
    assert code == 0, out + err
    assert "Traceback" not in err
    assert_strictly_valid_and_builds(target, tmp_path / "site")
    data = load_data(target)
    assert data["protocolVersions"] == ["2025-06-18", "2025-11-25"]
    raw = stdio_listing(command, "2025-11-25", EVERY_CAPABILITY_2025_11_25)
    described = at_version(resolved(data)["tools"], "2025-11-25")
    assert list(described) == [t["name"] for t in raw["tools"]]
    for tool in raw["tools"]:
        # The schemas as sent, $schema (draft-07) included.
        assert described[tool["name"]]["inputSchema"] == tool["inputSchema"], tool["name"]
        assert described[tool["name"]].get("outputSchema") == tool.get("outputSchema"), tool["name"]
        assert described[tool["name"]]["inputSchema"]["$schema"] == "http://json-schema.org/draft-07/schema#"
    # A client with no capabilities is not shown the gated tools; the description names them
    # with what they need, and only them.
    bare = {t["name"] for t in stdio_listing(command, "2025-11-25", {})["tools"]}
    assert set(GATED) == set(described) - bare
    for name, tool in described.items():
        assert tool.get("clientRequirements") == GATED.get(name), name
    # 2025-06-18 defines no $schema in a tool schema: that variant has the rest, unchanged.
    older = at_version(resolved(data)["tools"], "2025-06-18")["echo"]["inputSchema"]
    assert "$schema" not in older
    assert older == {k: v for k, v in described["echo"]["inputSchema"].items() if k != "$schema"}
    # A file to review: no line over about 120 characters but an unbreakable token.
    text = target.read_text(encoding="utf-8")
    breakable = [line for line in text.splitlines() if " " in line.strip().removeprefix("- ").split(": ", 1)[-1]]
    assert max(map(len, breakable)) <= 120


@pytest.fixture
def everything_over_http() -> Iterator[str]:
    entry = str(install("everything"))
    with listening.http_server(
        lambda port: ["node", "--require", str(LOOPBACK), entry, "streamableHttp"],
        env=lambda port: {**os.environ, "PORT": str(port)},
    ) as url:
        yield url


def test_server_everything_over_streamable_http(tmp_path: Path, everything_over_http: str) -> None:
    target = tmp_path / "everything.mcpdesc.yaml"
    code, out, err = run("describe", "--url", everything_over_http, "-o", str(target))
    assert code == 0, out + err
    assert_strictly_valid_and_builds(target, tmp_path / "site")
    data = load_data(target)
    # Every version from 2025-06-18 on that the server accepts, each in a session of its own
    # (it answers a second initialize on one session with 400).
    accepted = [
        version
        for version in ("2025-06-18", "2025-11-25", "2026-07-28")
        if (http_initialize(everything_over_http, version)[0] or {}).get("protocolVersion") == version
    ]
    assert accepted == ["2025-06-18", "2025-11-25"]
    assert data["protocolVersions"] == accepted
    assert data["transports"] == [{"type": "streamable-http", "url": everything_over_http}]
    assert set(GATED) <= set(at_version(data["tools"], "2025-11-25"))
    assert run("describe", "--url", everything_over_http, "--check", str(target))[0] == 0


def test_a_server_that_breaks_the_mcp_schema_is_described_with_its_deviations(tmp_path: Path) -> None:
    root = tmp_path / "files"
    root.mkdir()
    target = tmp_path / "filesystem.mcpdesc.yaml"
    code, out, err = describe(node("filesystem-2025.7.1", str(root)), target)
    # Written with what could be read; exit 1 says it needs a hand fix.
    assert code == 1, out + err
    assert target.is_file()
    assert "Traceback" not in err
    assert "ValidationError" not in err
    assert 'deviation: tools[0] \'read_file\': inputSchema has no "type" (MCP requires "object")' in err
    deviations = [line for line in err.splitlines() if "deviation:" in line]
    assert len(deviations) == 11
    assert "fix it by hand before publishing" in err
    names = {t["name"] for t in load_data(target)["tools"]}
    assert "read_file" in names
    assert len(names) == 12


def test_the_current_filesystem_server_matches_a_raw_listing(tmp_path: Path) -> None:
    root = tmp_path / "files"
    root.mkdir()
    command = node("filesystem", str(root))
    target = tmp_path / "filesystem.mcpdesc.yaml"
    code, out, err = describe(command, target)
    assert code == 0, out + err
    assert_strictly_valid_and_builds(target, tmp_path / "site")
    raw = stdio_listing(command, "2025-11-25", EVERY_CAPABILITY_2025_11_25)
    described = at_version(resolved(load_data(target))["tools"], "2025-11-25")
    assert list(described) == [t["name"] for t in raw["tools"]]
    assert all(described[t["name"]]["inputSchema"] == t["inputSchema"] for t in raw["tools"])


ELICITATION = {
    "name": "confirm",
    "mode": "form",
    "message": "Delete these entities for good?",
    "requestedSchema": {"type": "object", "properties": {"sure": {"type": "boolean"}}, "required": ["sure"]},
}


def test_memory_check_after_hand_edits_and_update_across_a_protocol_change(tmp_path: Path) -> None:
    current = node("memory")
    target = tmp_path / "memory.mcpdesc.yaml"
    code, out, err = describe(current, target)
    assert code == 0, out + err
    assert_strictly_valid_and_builds(target, tmp_path / "site")
    data = load_data(target)
    raw = stdio_listing(current, "2025-11-25", EVERY_CAPABILITY_2025_11_25)
    listed = at_version(resolved(data)["tools"], "2025-11-25")
    assert list(listed) == [t["name"] for t in raw["tools"]]
    assert all(listed[t["name"]]["inputSchema"] == t["inputSchema"] for t in raw["tools"])
    # What an author adds by hand (with a comment), and two edits that drift from the server.
    for tool in data["tools"]:
        if tool["name"] == "delete_entities":
            tool["elicitations"] = [copy.deepcopy(ELICITATION)]
            tool["tags"] = ["graph"]
        if tool["name"] == "read_graph":
            tool["description"] = "Read the whole graph."
        if tool["name"] == "search_nodes":
            tool["inputSchema"]["properties"]["query"]["description"] = "Words to look for"
    data["tags"] = [{"name": "graph", "description": "The knowledge graph."}]
    data["x-owner"] = "platform team"
    target.write_text("# Memory, described and kept by hand.\n" + yaml.safe_dump(data, sort_keys=False), "utf-8")
    assert run("validate", "--strict", str(target))[0] == 0

    code, out, err = run("describe", "--stdio", shlex.join(current), "--check", str(target))
    assert code == 1
    lines = out.splitlines()
    described = [line for line in lines if "changed tool 'read_graph' /description" in line]
    assert len(described) == 1, out  # once, though the tool has a variant per version
    at = lines.index(described[0])
    assert lines[at + 1] == '    - "Read the whole graph."', out
    assert lines[at + 2].startswith('    + "Read the entire knowledge graph'), out
    query = [line for line in lines if "'search_nodes' /inputSchema/properties/query/description" in line]
    assert len(query) == 1, out
    assert lines[lines.index(query[0]) + 1] == '    was: "Words to look for"', out
    assert "2 differences (2 changed)" in err

    # The server goes back to a release that speaks only 2024-11-05.
    legacy = node("memory-2025.4.25")
    code, out, err = run("describe", "--stdio", shlex.join(legacy), "--update", str(target))
    assert code == 0, out + err
    assert "refreshed tool 'read_graph'" in err
    code, out, err = run("validate", str(target))
    assert code == 0, out + err
    updated = load_data(target)
    assert updated["protocolVersions"] == ["2024-11-05"]
    assert target.read_text(encoding="utf-8").startswith("# Memory, described and kept by hand.\n")
    assert updated["x-owner"] == "platform team"
    assert updated["tags"] == data["tags"]
    (deleting,) = [t for t in updated["tools"] if t["name"] == "delete_entities"]
    assert deleting["elicitations"] == [ELICITATION]
    assert deleting["tags"] == ["graph"]
    assert updated["transports"] == [{"type": "stdio", "command": "node", "args": legacy[1:]}]
    assert run("describe", "--stdio", shlex.join(legacy), "--check", str(target))[0] == 0


def test_a_server_that_speaks_only_2024_11_05_is_described_at_it(tmp_path: Path) -> None:
    target = tmp_path / "memory.mcpdesc.yaml"
    code, out, err = describe(node("memory-2025.4.25"), target)
    assert code == 0, out + err
    assert "accepts no version from 2025-06-18 on" in err
    assert load_data(target)["protocolVersions"] == ["2024-11-05"]
    code, out, _ = run("validate", str(target), "--format", "json")
    assert code == 0
    # The one warning: 2024-11-05 gets structural checks only (why --strict fails here).
    assert {d["rule"] for d in yaml.safe_load(out)["diagnostics"]} == {"mcpdesc.legacy-protocol.validation-scope"}
