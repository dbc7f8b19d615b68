"""One change between two descriptions, and how much it matters to a client."""

from __future__ import annotations

from dataclasses import field
from enum import Enum

from ..records import record


class Level(Enum):
    """How a change affects a client written against the old description (oasdiff's
    levels, named for MCP): ordered from the most to the least serious."""

    BREAKING = "breaking"
    """A client that worked may now fail: something it calls is gone, or asks for more."""
    NON_BREAKING = "non-breaking"
    """A client that worked still works; there is more, or less is asked of it."""
    DOCUMENTATION = "documentation"
    """Only the words changed."""

    @property
    def rank(self) -> int:
        return _RANKS[self]


_RANKS = {Level.BREAKING: 0, Level.NON_BREAKING: 1, Level.DOCUMENTATION: 2}

ABSENT: object = type("Absent", (), {"__repr__": lambda self: "absent"})()
"""The value of a member on the side where it does not exist."""


@record
class Change:
    level: Level
    code: str
    """What kind of change, for machines (``input-parameter-required``)."""
    primitive: str
    """The primitive it belongs to (``tool create_ticket``), or "" for the server itself."""
    member: str
    """Where in it, as a reader would say it (``inputSchema.properties.priority``)."""
    message: str
    old_pointer: str | None
    """JSON Pointer in the old description (None: it is not there)."""
    new_pointer: str | None
    old_value: object = ABSENT
    new_value: object = ABSENT
    versions: tuple[str, ...] = field(default=())
    """The protocol versions it applies to, where the declaration is split by version
    (empty: every version of both)."""

    def sort_key(self) -> tuple[int, str, str, str]:
        return (self.level.rank, self.primitive, self.member, self.code)


def verdict(changes: list[Change]) -> str:
    """The most serious level among the changes, or ``none``."""
    if not changes:
        return "none"
    return min(changes, key=lambda change: change.level.rank).level.value


__all__ = ["ABSENT", "Change", "Level", "verdict"]
