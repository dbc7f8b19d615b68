"""Fixed data for fuzzing the edits of ``migrate`` and ``describe --update``: hand-kept
sources, the places a comment line can go in each, and the changes made to them."""

from __future__ import annotations

import copy
import difflib
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from mcpdesc_docs.errors import DescriptionError
from mcpdesc_docs.source.load import Format, parse_text
from mcpdesc_docs.source.roundtrip import edit_text
from mcpdesc_docs.spec.migration import migrate_070, migrate_080
from mcpdesc_docs.spec.versions import SPEC_0_9_0_RC_3

from .test_migrate_edits import HAND_WRITTEN_070, HAND_WRITTEN_080, TWO_TOOLS
from .work_counts import lines


def data_of(text: str, fmt: Format) -> Any:
    return copy.deepcopy(parse_text(text, "<case>", fmt=fmt).data)


def _migrated(data: dict[str, Any]) -> dict[str, Any]:
    if data["mcpdesc"] == "0.7.0":
        return migrate_070(data, SPEC_0_9_0_RC_3, protocol_versions=["2025-06-18"]).data
    return migrate_080(data, SPEC_0_9_0_RC_3).data


def _drop_first_tool(data: dict[str, Any]) -> dict[str, Any]:
    del data["tools"][0]
    return data


def _describe_last_tool(data: dict[str, Any]) -> dict[str, Any]:
    data["tools"][-1]["description"] = "Changed on the server."
    return data


def _add_a_tool(data: dict[str, Any]) -> dict[str, Any]:
    data["tools"].insert(len(data["tools"]) // 2, {"name": "added", "inputSchema": {"type": "object"}})
    return data


def _drop_the_last_member(data: dict[str, Any]) -> dict[str, Any]:
    del data[list(data)[-1]]
    return data


CHANGES: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "migrate": _migrated,
    "drop the first tool": _drop_first_tool,
    "describe the last tool": _describe_last_tool,
    "add a tool": _add_a_tool,
    "drop the last member": _drop_the_last_member,
}


def _as_json(text: str) -> str:
    return json.dumps(data_of(text, "yaml"), indent=2) + "\n"


SOURCES: dict[str, tuple[str, Format]] = {
    "0.7.0": (HAND_WRITTEN_070, "yaml"),
    "0.8.0": (HAND_WRITTEN_080, "yaml"),
    "0.9.0": (TWO_TOOLS, "yaml"),
    "0.7.0 json": (_as_json(HAND_WRITTEN_070), "json"),
    "0.9.0 json": (_as_json(TWO_TOOLS), "json"),
}
EDITS = [(source, change) for source in SOURCES for change in CHANGES if change != "migrate" or "0.9" not in source]


def line_key(content: str) -> str:
    return content.rstrip(" \t\r\n")


def comment_places(source: str) -> list[int]:
    """The lines a comment line can be put before without changing what the file means
    (not inside a block scalar, a folded one or a JSON file)."""
    text, fmt = SOURCES[source]
    if fmt == "json":
        return []
    lines = text.splitlines(keepends=True)
    meaning = data_of(text, fmt)
    return [index for index in range(len(lines) + 1) if _means(meaning, [*lines[:index], "# probe\n", *lines[index:]])]


def _means(meaning: Any, lines: list[str]) -> bool:
    try:
        return bool(data_of("".join(lines), "yaml") == meaning)
    except DescriptionError:
        return False


comment_places = cache(comment_places)


@dataclass(frozen=True)
class Baseline:
    """The edit of the source as written: the lines it touches, and the Python lines it runs."""

    touched: frozenset[str]
    characters: int
    work: int


@cache
def baseline(source: str, change: str) -> Baseline:
    text, fmt = SOURCES[source]
    new = CHANGES[change](data_of(text, fmt))
    results: list[str | None] = []
    work = lines(lambda: results.append(edit_text(text, fmt, new)))
    edited = results[0]
    assert edited is not None, (source, change)
    before, after = text.splitlines(), edited.splitlines()
    # Lines the edit replaced, moved or removed, as a diff of the two texts aligns them.
    touched = [
        line
        for tag, i1, i2, _, _ in difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes()
        if tag != "equal"
        for line in before[i1:i2]
    ]
    return Baseline(frozenset(line_key(line) for line in touched), len(text), work)
