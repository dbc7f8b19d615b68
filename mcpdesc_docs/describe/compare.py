"""A description against the server: what was added, removed and changed, by JSON Pointer."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..source import pointer as jp
from ..source.roundtrip import canonical
from .write import IDENTITY, SERVER_OWNED

ROOT_OWNED = ("info", "protocolVersions", "instructions", "capabilities")
SINGULAR = {"tools": "tool", "resources": "resource", "resourceTemplates": "resource template", "prompts": "prompt"}


@dataclass(frozen=True, slots=True)
class Difference:
    change: str
    """``added``, ``removed`` or ``changed``."""
    pointer: str
    """Where, in the description as it is (``removed``, ``changed``) or as the server has it (``added``)."""
    what: str


def key(collection: str, item: object) -> str:
    """A declaration's identity: its name (URI, URI template) and its protocol scope."""
    data = item if isinstance(item, dict) else {}
    return canonical([data.get(IDENTITY[collection]), data.get("protocolVersions")])


def _leaves(old: object, new: object, pointer: str) -> Iterator[str]:
    """Pointers to where two JSON values differ, as deep as they share a shape."""
    if canonical(old) == canonical(new):
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for member in [*old, *(m for m in new if m not in old)]:
            yield from _leaves(old.get(member), new.get(member), jp.join(pointer, member))
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for index, (left, right) in enumerate(zip(old, new, strict=True)):
            yield from _leaves(left, right, jp.join(pointer, index))
    else:
        yield pointer


def _label(collection: str, item: dict[str, Any]) -> str:
    scope = item.get("protocolVersions")
    within = f" (protocol versions {', '.join(map(str, scope))})" if isinstance(scope, list) else ""
    return f"{SINGULAR[collection]} {item.get(IDENTITY[collection])!r}{within}"


def differences(described: dict[str, Any], served: dict[str, Any]) -> list[Difference]:
    """What the server's own description (``served``) says differently from ``described``."""
    found: list[Difference] = []
    for member in ROOT_OWNED:
        for pointer in _leaves(described.get(member), served.get(member), jp.join("", member)):
            found.append(Difference("changed", pointer, "differs from what the server says"))
    for collection, owned in SERVER_OWNED.items():
        old = [i for i in described.get(collection) or [] if isinstance(i, dict)]
        new = [i for i in served.get(collection) or [] if isinstance(i, dict)]
        new_at = {key(collection, item): index for index, item in enumerate(new)}
        old_keys = {key(collection, item) for item in old}
        for index, item in enumerate(old):
            pointer = jp.join("", collection, index)
            if key(collection, item) not in new_at:
                found.append(Difference("removed", pointer, f"{_label(collection, item)} is no longer listed"))
                continue
            listed = new[new_at[key(collection, item)]]
            for member in owned:
                for leaf in _leaves(item.get(member), listed.get(member), jp.join(pointer, member)):
                    found.append(Difference("changed", leaf, f"{_label(collection, item)}: differs"))
        for index, item in enumerate(new):
            if key(collection, item) not in old_keys:
                pointer = jp.join("", collection, index)
                found.append(Difference("added", pointer, f"{_label(collection, item)} is new"))
    return found
