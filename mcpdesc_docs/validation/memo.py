"""Results worked out from parts of a description, kept by the part's identity.

No memo lives at module level: each belongs to a ``Memos`` owned by whoever checks, one per
document for ``validate`` and ``build``, and one for all rebuilds in ``serve`` (its build
session), so that nothing a description held is kept alive by the process itself.

A description's data is never changed in place once read, so a result computed from a
value holds for as long as that very object is around. ``serve`` gives unchanged values
the objects of the previous read (``source.incremental``), so results kept this way carry
over from one rebuild to the next without comparing or re-serialising anything.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

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


class Memos:
    """The identity memos of one owner, one per computation (the function that computes the
    result, or for ``ByObjectAt`` the check that the caller runs): a rule asks its
    document's ``memos`` for its memo instead of keeping one in its module."""

    def __init__(self, limit: int = DEFAULT_LIMIT) -> None:
        self._limit = limit
        self._by_object: dict[Callable[[object], object], ByObject[object]] = {}
        self._by_object_at: dict[Hashable, ByObjectAt[Any]] = {}

    def by_object(self, compute: Callable[[object], Result]) -> ByObject[Result]:
        memo = self._by_object.get(compute)
        if memo is None:
            memo = self._by_object[compute] = ByObject(compute, self._limit)
        return memo  # type: ignore[return-value]  # keyed by ``compute``, so of its result type

    def by_object_at(self, computation: Hashable) -> ByObjectAt[Any]:
        """The memo for ``computation`` (the check whose results it keeps); the caller
        names the result type."""
        memo = self._by_object_at.get(computation)
        if memo is None:
            memo = self._by_object_at[computation] = ByObjectAt(self._limit)
        return memo

    def __len__(self) -> int:
        """Entries held in all (for tests)."""
        return sum(map(len, self._by_object.values())) + sum(map(len, self._by_object_at.values()))


__all__ = ["ByObject", "ByObjectAt", "Memos"]
