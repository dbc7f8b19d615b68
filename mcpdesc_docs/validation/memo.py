"""Results worked out from parts of a description, kept by the part's identity.

A description's data is never changed in place once read, so a result computed from a
value holds for as long as that very object is around. ``serve`` gives unchanged values
the objects of the previous read (``source.incremental``), so results kept this way carry
over from one rebuild to the next without comparing or re-serialising anything.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Result = TypeVar("Result")

DEFAULT_LIMIT = 65_536
"""Entries kept before the memo starts afresh (a bound on what it holds alive)."""


class ByObject(Generic[Result]):
    """``compute(value)``, once per value object. Each entry keeps its object, so that the
    object's id cannot be given to another while the entry exists."""

    def __init__(self, compute: Callable[[object], Result], limit: int = DEFAULT_LIMIT) -> None:
        self._compute = compute
        self._limit = limit
        self._entries: dict[int, tuple[object, Result]] = {}

    def __call__(self, value: object) -> Result:
        entry = self._entries.get(id(value))
        if entry is not None and entry[0] is value:
            return entry[1]
        result = self._compute(value)
        if len(self._entries) >= self._limit:
            self._entries.clear()
        self._entries[id(value)] = (value, result)
        return result

    def __len__(self) -> int:
        return len(self._entries)


class ByObjectAt(Generic[Result]):
    """Like ``ByObject``, for a result that also depends on where the value is shown
    (``at``: its pointer, the label findings name it by ...): one entry per value object
    and ``at``."""

    def __init__(self, limit: int = DEFAULT_LIMIT) -> None:
        self._limit = limit
        self._entries: dict[tuple[int, Hashable], tuple[object, Result]] = {}

    def get(self, value: object, at: Hashable, compute: Callable[[], Result]) -> Result:
        key = (id(value), at)
        entry = self._entries.get(key)
        if entry is not None and entry[0] is value:
            return entry[1]
        result = compute()
        if len(self._entries) >= self._limit:
            self._entries.clear()
        self._entries[key] = (value, result)
        return result

    def __len__(self) -> int:
        return len(self._entries)


__all__ = ["ByObject", "ByObjectAt"]
