"""Time ``migrate`` and a ``describe --update``-like edit on a hand-kept description.

    .venv/bin/python bench/migrate.py [KB ...]          (default: 700)

The description is 0.7.0, written the way people keep one by hand: comments between
members, plain scalars folded over lines, flow mappings, quoted strings. ``migrate`` runs
as the command (a child process, ``-o`` to a second file); the update is ``edit_text``
given the migrated document with every 50th tool's description changed and one tool in a
hundred added, as a server that moved on would have it. Both report the child's CPU time
(its rusage) and how many lines of the file changed.
"""

from __future__ import annotations

import difflib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HEADER = """\
# The inventory server's description, kept by hand.
mcpdesc: "0.7.0"
info:
  name: inventory
  version: 2.4.1
  # The one version this server speaks.
  protocolVersion: "2025-06-18"
transports:
  - type: stdio
    command: inventory-mcp   # on PATH
capabilities:
  tools: {listChanged: true}
tools:
"""

TOOL = """\
  # Tool {index}: one of the many.
  - name: tool_{index:05d}
    title: 'Tool number {index}'
    description: Reads the inventory for task {index}, checks the quota and writes a
      report that the next run of the same task reads back.
    inputSchema:
      type: object
      properties:
        query: {{type: string, minLength: 1}}   # what to look for
        limit:
          type: integer
          minimum: 1
          maximum: 100
          default: 20
        sort:
          type: string
          enum: [newest, oldest, "relevance"]
      required: [query]
    annotations: {{readOnlyHint: true}}
"""


def hand_kept(kilobytes: int) -> str:
    parts = [HEADER]
    size, index = len(HEADER), 0
    while size < kilobytes * 1000:
        part = TOOL.format(index=index)
        parts.append(part)
        size += len(part)
        index += 1
    return "".join(parts)


def child_cpu(command: list[str]) -> float:
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    assert process.stderr is not None
    errors = process.stderr.read().decode()
    process.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(errors)
    return usage.ru_utime + usage.ru_stime


def changed_lines(before: str, after: str) -> int:
    # difflib with its junk heuristic: a count for the report, not part of what is timed.
    return sum(
        1
        for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
        if line[:1] in "+-" and line[:3] not in ("+++", "---")
    )


UPDATE = """\
import copy, sys
from pathlib import Path
from mcpdesc_docs.source.load import parse_text
from mcpdesc_docs.source.roundtrip import edit_text
text = Path(sys.argv[1]).read_text(encoding="utf-8")
data = copy.deepcopy(parse_text(text, "bench", fmt="yaml").data)
tools = data["tools"]
for index in range(0, len(tools), 50):
    tools[index]["description"] = f"Changed on the server: {index}."
for index in range(len(tools) // 100):
    tools.insert(index * 100 + 7, {"name": f"added_{index:05d}", "inputSchema": {"type": "object"}})
edited = edit_text(text, "yaml", data)
Path(sys.argv[2]).write_text(edited if edited is not None else "", encoding="utf-8")
"""


def main(sizes: list[int]) -> None:
    python = sys.executable
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        for kilobytes in sizes:
            source, migrated, updated = folder / "in.yaml", folder / "out.yaml", folder / "updated.yaml"
            source.write_text(hand_kept(kilobytes), encoding="utf-8")
            cpu = child_cpu([python, "-m", "mcpdesc_docs", "migrate", str(source), "-o", str(migrated)])
            text = migrated.read_text(encoding="utf-8")
            changed = changed_lines(source.read_text(encoding="utf-8"), text)
            print(f"migrate  {kilobytes:6d} KB: {cpu:7.2f} s CPU, {changed} lines changed")
            script = folder / "update.py"
            script.write_text(UPDATE, encoding="utf-8")
            cpu = child_cpu([python, str(script), str(migrated), str(updated)])
            edited = updated.read_text(encoding="utf-8")
            what = f"{changed_lines(text, edited)} lines changed" if edited else "written whole"
            print(f"update   {kilobytes:6d} KB: {cpu:7.2f} s CPU, {what}")


if __name__ == "__main__":
    main([int(arg) for arg in sys.argv[1:]] or [700])
