"""How ``diff`` compares and shows JSON values: by their JSON (1 and true, equal in Python,
are different values), and clipped to a length for reading."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any


def canonical(value: object) -> str:
    """The value's compact JSON with sorted keys: equal texts, equal values."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def differs(old: Mapping[str, Any], new: Mapping[str, Any], member: str) -> bool:
    """Whether ``member`` is on one side only, or holds another JSON value."""
    if (member in old) != (member in new):
        return True
    return member in old and canonical(old[member]) != canonical(new[member])


def members(old: Mapping[str, Any], new: Mapping[str, Any]) -> Iterator[str]:
    """The members of both, each once: the old side's order, then what the new one adds."""
    yield from old
    yield from (member for member in new if member not in old)


def clipped_json(value: object, limit: int) -> str:
    """The value's JSON (sorted keys), at most ``limit`` characters, ending in … when cut."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 1] + "…"


__all__ = ["canonical", "clipped_json", "differs", "members"]
