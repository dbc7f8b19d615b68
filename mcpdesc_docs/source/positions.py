"""Where things are in a description's text: the source map, and located load failures."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import error
from ..errors import DescriptionError
from . import pointer as jp

PROFILE_RULE = "mcpdesc.serialization.yaml-profile"
SYNTAX_RULE = "mcpdesc.serialization.syntax"


@dataclass(slots=True)
class SourceMap:
    """JSON Pointer -> (line, column), both 1-based."""

    keys: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Where a mapping member's key starts (the place an author looks for a member)."""
    values: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Where a value starts (array items, and the document itself)."""

    def locate(self, pointer: str) -> tuple[int, int]:
        """The position of the pointer, or of its nearest located ancestor."""
        current = pointer
        while True:
            position = self.keys.get(current) or self.values.get(current)
            if position is not None:
                return position
            if not current:
                return (1, 1)
            current = jp.parent(current)

    def locate_value(self, pointer: str) -> tuple[int, int]:
        position = self.values.get(pointer)
        return position if position is not None else self.locate(pointer)


def fatal(
    name: str, message: str, line: int, column: int, *, code: str, rule: str = PROFILE_RULE, hint: str | None = None
) -> DescriptionError:
    """A load failure at one position: the whole input is refused."""
    return DescriptionError([error(rule, code, message, "", hint=hint).located(name, line, column)])


def offset_position(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of a character offset."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1
