"""Reading what a server lists as it is, saying where it breaks the MCP schema.

A real server may send a tool without an input schema's ``type`` or a prompt argument
without a name. Rather than refuse the whole listing (as a client that validates into
models does), each item is kept as far as it can be read, and each deviation becomes one
located line. Only what cannot be a declaration at all (not an object, no name) is left
out, and that is said too.
"""

from __future__ import annotations

from typing import Any

from ..kinds import KINDS

COLLECTIONS = tuple(kind.collection for kind in KINDS)
IDENTITY = {kind.collection: kind.identity for kind in KINDS}
"""Collection -> the member that identifies one of its items (``name``, ``uri``, ``uriTemplate``)."""
_SHOWN_NAME = 60


def _named(collection: str, index: int, item: dict[str, Any]) -> str:
    identity = item.get(IDENTITY[collection])
    if isinstance(identity, str):
        shown = identity if len(identity) <= _SHOWN_NAME else identity[: _SHOWN_NAME - 3] + "..."
        return f"{collection}[{index}] {shown!r}"
    return f"{collection}[{index}]"


def _schema_deviations(where: str, member: str, schema: object) -> list[str]:
    if not isinstance(schema, dict):
        return [f"{where}: {member} is not an object (MCP requires a JSON Schema object)"]
    kind = schema.get("type")
    if kind is None:
        return [f'{where}: {member} has no "type" (MCP requires "object")']
    if kind != "object":
        return [f'{where}: {member} has "type" {kind!r} (MCP requires "object")']
    return []


def _item_deviations(collection: str, where: str, item: dict[str, Any]) -> list[str]:
    found: list[str] = []
    if collection == "tools":
        if "inputSchema" not in item:
            found.append(f"{where}: has no inputSchema (MCP requires one)")
        else:
            found.extend(_schema_deviations(where, "inputSchema", item["inputSchema"]))
        if "outputSchema" in item:
            found.extend(_schema_deviations(where, "outputSchema", item["outputSchema"]))
    if collection == "prompts" and "arguments" in item:
        arguments = item["arguments"]
        if not isinstance(arguments, list):
            found.append(f"{where}: arguments is not an array")
        else:
            for position, argument in enumerate(arguments):
                if not isinstance(argument, dict) or not isinstance(argument.get("name"), str):
                    found.append(f"{where}: arguments[{position}] has no name")
    for member in ("title", "description", "mimeType"):
        if member in item and not isinstance(item[member], str):
            found.append(f"{where}: {member} is not a string")
    return found


def readable(collection: str, items: list[object], deviations: list[str]) -> list[dict[str, Any]]:
    """``items`` as listed, less what cannot be a declaration; each problem added to ``deviations``."""
    kept: list[dict[str, Any]] = []
    seen: set[str] = set()
    identity = IDENTITY[collection]
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            deviations.append(f"{collection}[{index}]: not an object; left out")
            continue
        where = _named(collection, index, item)
        key = item.get(identity)
        if not isinstance(key, str) or not key:
            deviations.append(f"{where}: has no {identity}; left out")
            continue
        if key in seen:
            deviations.append(f"{where}: listed twice; the second is left out")
            continue
        seen.add(key)
        deviations.extend(_item_deviations(collection, where, item))
        kept.append(item)
    return kept
