"""``migrate`` (and ``describe --update``) edit the author's file: only the lines the change
reaches differ, and every other byte stays, line endings, trailing spaces and comments
included; the work grows linearly with the file."""

from __future__ import annotations

import difflib
import json
from pathlib import Path

import pytest
import yaml

from mcpdesc_docs.source import roundtrip
from mcpdesc_docs.source.roundtrip import edit_text

from .shared_data import EXAMPLES_070_DIR, descriptions_in
from .sites import load_data, run
from .test_describe import describe_to, stdio
from .work_counts import lines


def load_yaml(text: str) -> dict:
    data = yaml.safe_load(text)
    assert isinstance(data, dict)
    return data


HAND_WRITTEN_080 = """\
# The billing server's description; kept by hand.
$schema: https://mcpdesc.org/schema/mcp-description/0.8.0.json
mcpdesc: '0.8.0'   # quoted on purpose
info:
    name: billing
    version: "1.2.0"
    description: >
        Invoices and refunds, folded the
        way the author wrapped it.
protocolVersions: ["2025-06-18", "2025-11-25"]
tools:
    # Listed first: the one everybody uses.
    -   name: refund
        description: |
            Refund an invoice.

            Partial refunds are allowed.
        inputSchema:
            type: object
            properties:
                invoice: {type: string}   # the invoice number
            required: [invoice]
x-owner: payments team
"""

HAND_WRITTEN_070 = """\
# A 0.7.0 description kept by hand.
mcpdesc: "0.7.0"
info:
  name: recipes
  version: 0.9.2
  # The one version this server speaks.
  protocolVersion: "2025-06-18"
transports:
  - type: stdio
    command: recipes-mcp   # on PATH
capabilities:
  tools: {listChanged: true}
security:
  - type: http
    scheme: bearer
tools:
  - name: find_recipe
    description: >-
      Find recipes by ingredient, the long way round, with
      a description folded over lines.
    inputSchema:
      type: object
      properties:
        ingredient: {type: string}
"""


def changed_lines(before: str, after: str) -> tuple[list[str], list[str]]:
    removed, added = [], []
    for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0):
        if line.startswith("-") and not line.startswith("---"):
            removed.append(line[1:])
        elif line.startswith("+") and not line.startswith("+++"):
            added.append(line[1:])
    return removed, added


def migrate(tmp_path: Path, text: str, *extra: str) -> str:
    source = tmp_path / "server.mcpdesc.yaml"
    source.write_text(text, encoding="utf-8")
    target = tmp_path / "migrated.mcpdesc.yaml"
    code, out, err = run("migrate", str(source), "-o", str(target), *extra)
    assert code == 0, out + err
    assert "written whole" not in err
    return target.read_text(encoding="utf-8")


def test_0_8_0_to_0_9_0_changes_the_version_and_schema_lines_only(tmp_path):
    migrated = migrate(tmp_path, HAND_WRITTEN_080)
    removed, added = changed_lines(HAND_WRITTEN_080, migrated)
    assert removed == [
        "$schema: https://mcpdesc.org/schema/mcp-description/0.8.0.json",
        "mcpdesc: '0.8.0'   # quoted on purpose",
    ]
    assert added == [
        "$schema: https://mcpdesc.org/schema/mcp-description/0.9.0-rc.3.json",
        "mcpdesc: '0.9.0'   # quoted on purpose",
    ]
    assert run("validate", str(tmp_path / "migrated.mcpdesc.yaml"))[0] == 0


def test_0_7_0_to_0_9_0_in_one_step_keeps_comments_and_untouched_lines(tmp_path):
    migrated = migrate(tmp_path, HAND_WRITTEN_070)
    removed, added = changed_lines(HAND_WRITTEN_070, migrated)
    # What the upstream guidance changes: the version, info.protocolVersion moved to the
    # root, the capabilities object wrapped in an array, the inline scheme hoisted.
    assert removed == [
        'mcpdesc: "0.7.0"',
        '  protocolVersion: "2025-06-18"',
        "  tools: {listChanged: true}",
        "  - type: http",
        "    scheme: bearer",
    ]
    assert 'mcpdesc: "0.9.0"' in added
    assert "- '2025-06-18'" in added or "  - '2025-06-18'" in added
    assert "  - bearer: []" in added
    for kept in (
        "# A 0.7.0 description kept by hand.",
        "    command: recipes-mcp   # on PATH",
        "      Find recipes by ingredient, the long way round, with",
    ):
        assert kept in migrated.splitlines()
    data = load_data(tmp_path / "migrated.mcpdesc.yaml")
    assert data["mcpdesc"] == "0.9.0"
    assert data["protocolVersions"] == ["2025-06-18"]
    assert data["securitySchemes"] == {"bearer": {"type": "http", "scheme": "bearer"}}
    assert data["capabilities"] == [{"tools": {"listChanged": True}}]
    assert run("validate", str(tmp_path / "migrated.mcpdesc.yaml"))[0] == 0


def test_0_8_0_to_0_8_0_and_current_descriptions_are_refused(tmp_path):
    source = tmp_path / "billing.mcpdesc.yaml"
    source.write_text(HAND_WRITTEN_080, encoding="utf-8")
    code, _, err = run("migrate", str(source), "--to", "0.8.0")
    assert code == 2
    assert "already mcpdesc 0.8.0" in err


REAL_DUMPS = descriptions_in(EXAMPLES_070_DIR)


@pytest.mark.parametrize("dump", REAL_DUMPS, ids=[p.name for p in REAL_DUMPS])
def test_a_changed_version_line_is_the_only_change_in_a_real_dump(dump):
    # Generated files fold long plain scalars; ruamel.yaml rejoins them when it writes a
    # file, and edit_text keeps the author's lines wherever the edit does not reach.
    text = dump.read_text(encoding="utf-8")
    data = load_data(dump)
    data["mcpdesc"] = "0.9.0"
    edited = edit_text(text, "yaml", data)
    assert edited is not None
    removed, added = changed_lines(text, edited)
    assert len(removed) == len(added) == 1
    assert "0.9.0" in added[0]


def migrate_bytes(tmp_path: Path, text: str, *extra: str) -> str:
    """``migrate`` of the exact text (``newline=""``: no ending translated either way)."""
    source = tmp_path / "server.mcpdesc.yaml"
    source.write_bytes(text.encode("utf-8"))
    target = tmp_path / "migrated.mcpdesc.yaml"
    code, out, err = run("migrate", str(source), "-o", str(target), *extra)
    assert code == 0, out + err
    assert "written whole" not in err
    return target.read_bytes().decode("utf-8")


def test_a_crlf_file_stays_crlf_throughout(tmp_path):
    lf = migrate(tmp_path, HAND_WRITTEN_070)
    crlf = migrate_bytes(tmp_path, HAND_WRITTEN_070.replace("\n", "\r\n"))
    assert crlf.count("\n") == crlf.count("\r\n")
    assert crlf == lf.replace("\n", "\r\n")


def test_trailing_spaces_stay_and_only_the_changed_lines_differ(tmp_path):
    spaced = "".join(f"{line}  \n" for line in HAND_WRITTEN_080.splitlines())
    migrated = migrate_bytes(tmp_path, spaced)
    removed, added = changed_lines(spaced, migrated)
    assert removed == [
        "$schema: https://mcpdesc.org/schema/mcp-description/0.8.0.json  ",
        "mcpdesc: '0.8.0'   # quoted on purpose  ",
    ]
    assert added == [
        "$schema: https://mcpdesc.org/schema/mcp-description/0.9.0-rc.3.json",
        "mcpdesc: '0.9.0'   # quoted on purpose  ",
    ]


TWO_TOOLS = """\
mcpdesc: '0.9.0'
info: {name: billing, version: 1.0.0}
protocolVersions: ['2025-11-25']
tools:
  - name: refund
    inputSchema: {type: object}
  # The tools below are for the support team only.
  - name: void
    inputSchema: {type: object}
x-team: payments
# Kept by the payments team; ask before editing.
x-owner: payments
"""


def test_standalone_comments_after_a_removed_member_stay():
    data = load_yaml(TWO_TOOLS)
    del data["tools"][0]
    del data["x-team"]
    edited = edit_text(TWO_TOOLS, "yaml", data)
    assert edited is not None
    removed, added = changed_lines(TWO_TOOLS, edited)
    assert removed == ["  - name: refund", "    inputSchema: {type: object}", "x-team: payments"]
    assert added == []


def test_a_json_file_keeps_its_own_escapes_and_endings_where_nothing_changed():
    text = '{\r\n  "mcpdesc": "0.9.0",\r\n  "info": {"name": "caf\\u00e9", "version": "1"},\r\n  "x-n": 1\r\n}\r\n'
    data = json.loads(text)
    data["x-n"] = 2
    edited = edit_text(text, "json", data)
    assert edited == text.replace('"x-n": 1', '"x-n": 2')


def hand_kept_tools(count: int) -> str:
    parts = ["mcpdesc: '0.9.0'\ntools:\n"]
    for index in range(count):
        parts.append(
            f"  - name: t{index:05d}   # tool {index}\n"
            "    inputSchema:\n      type: object\n      properties:\n        q:\n          type: string\n"
        )
    return "".join(parts)


def edit_work(count: int) -> int:
    text = hand_kept_tools(count)
    data = load_yaml(text)
    data["mcpdesc"] = "0.9.1"
    # A server that doubled its tools: one new one after every other.
    data["tools"] = [
        item
        for index, tool in enumerate(data["tools"])
        for item in ([tool, {"name": f"new_{index}", "inputSchema": {"type": "object"}}] if index % 2 else [tool])
    ]
    edited: list[str | None] = []
    work = lines(lambda: edited.append(edit_text(text, "yaml", data)))
    assert edited[0] is not None
    assert changed_lines(text, edited[0])[0] == ["mcpdesc: '0.9.0'"]
    return work


def test_editing_does_linear_work():
    # Python lines executed, ruamel.yaml's included: quadratic matching (difflib without its
    # junk heuristic, one insertion at a time into a commented sequence) shows as a ratio
    # of 4 and more at twice the size.
    small, large = edit_work(60), edit_work(120)
    assert large < 2.2 * small, (small, large)


def test_a_file_over_the_bound_is_written_whole_and_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr(roundtrip, "EDITED_AT_MOST", len(HAND_WRITTEN_080) - 1)
    source = tmp_path / "billing.mcpdesc.yaml"
    source.write_text(HAND_WRITTEN_080, encoding="utf-8")
    code, out, err = run("migrate", str(source), "-o", str(source))
    assert code == 0, out + err
    assert "written whole (comments are lost)" in err
    assert load_data(source)["mcpdesc"] == "0.9.0"


@pytest.mark.slow  # starts a server or a whole build in a child process
def test_describe_update_keeps_crlf_trailing_blanks_and_comments(tmp_path):
    target = tmp_path / "helpdesk.mcpdesc.yaml"
    describe_to(target)
    hand_kept = []
    for line in target.read_text(encoding="utf-8").splitlines():
        if line[:1].isalpha() or line.startswith("- name:"):
            hand_kept.append("# The author's note.  \r\n")
        hand_kept.append(f"{line}  \r\n")
    original = "".join(hand_kept)
    target.write_bytes(original.encode("utf-8"))
    code, out, err = run("describe", "--stdio", stdio("--changed"), "--update", str(target))
    assert code == 0, out + err
    assert "dropped tool 'delete_ticket'" in err
    updated = target.read_bytes().decode("utf-8")
    assert updated.count("\n") == updated.count("\r\n")
    assert updated.count("# The author's note.  \r\n") == original.count("# The author's note.  \r\n")
    assert "instructions: Search before you create a ticket.  \r\n" in updated
    assert load_data(target)["info"]["version"] == "2.0.0"
