"""Bounds on checks whose cost the description itself controls.

Checking examples runs code shaped by untrusted input: JSON Schemas (whose ``$ref`` graph
can make evaluation exponential), regular expressions and URI templates. Each of these
checks spends from one :class:`Budget` per document, sized by the document, so the total
work is proportional to the input; a check that cannot be paid for is skipped and
reported as incomplete instead of running for hours.

The JSON Schema evaluator (jsonschema) is recursive; :func:`stack_headroom` gives it a
fixed number of frames beyond the caller's, so that every schema within the input depth
limit is checked whatever the depth of the caller, and a self-referential one fails the
same way everywhere.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from types import FrameType

# A unit is about 10 ns of work; the costs were measured on the checks they price (within a
# factor of two: what matters is that the total stays proportional to the input).
KEYWORD_COST = 300
"""One JSON Schema keyword evaluated against one value (about 3 us in jsonschema)."""
REFERENCE_COST = 1_000
"""More for ``$ref`` and ``$dynamicRef``, which look their target up and descend into it."""
BRANCH_COST = 2_000
"""More for each subschema of ``allOf``, ``anyOf`` and ``oneOf``, evaluated separately."""
ITEM_COST = 10
"""More for each entry a keyword walks through: the names of ``properties`` and
``required``, the values of ``enum``, the items ``uniqueItems`` compares."""
TEMPLATE_STEP_COST = 60
"""One state of the URI-template matcher advanced by one character."""
REGEX_STEP_COST = 1
"""One RE2 instruction times one character: the worst case of a linear-time match."""

BASE_UNITS = 20_000_000
"""What any document may spend (about 0.2 s)."""
UNITS_PER_VALUE = 500
"""And per value (object, array, string, number...) it holds,"""
UNITS_PER_CHARACTER = 100
"""and per character of its strings and keys: a 1 MB description may spend 1 to 1.5 s in
all on its examples, whatever its shape."""


OVER_BUDGET = "checking it would take more work than a description of this size may use"
"""Why a check was skipped for want of budget (the reason in its diagnostic)."""
TOO_DEEP = "the schema is too deeply nested or self-referential to check"
"""Why a schema check was skipped for want of stack."""


class OutOfWork(Exception):
    """Raised inside a check when the document's budget is spent."""


@dataclass(slots=True)
class Budget:
    """Work units the expensive checks of one document may still spend."""

    remaining: int

    @classmethod
    def for_document(cls, data: object) -> Budget:
        values, characters = measure(data)
        return cls(BASE_UNITS + UNITS_PER_VALUE * values + UNITS_PER_CHARACTER * characters)

    def afford(self, units: int) -> bool:
        """Spend ``units`` if there are that many left; False (spending nothing) if not."""
        if units > self.remaining:
            return False
        self.remaining -= units
        return True

    def spend(self, units: int) -> None:
        """Spend ``units``, raising OutOfWork when the budget cannot pay for them (what is
        left stays for cheaper checks)."""
        if not self.afford(units):
            raise OutOfWork


def measure(data: object) -> tuple[int, int]:
    """(values, characters of strings and keys) in a JSON value, iteratively: it may be deep."""
    values = characters = 0
    stack = [data]
    while stack:
        value = stack.pop()
        values += 1
        if isinstance(value, str):
            characters += len(value)
        elif isinstance(value, dict):
            characters += sum(len(key) for key in value)
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return values, characters


SCHEMA_FRAMES = 4_000
"""Python frames the JSON Schema evaluator may use beyond its caller's: room for 30 per
level of a 128-deep schema (checking one against the meta-schema takes about ten). A frame
costs at most about 500 bytes of C stack, so 4,000 fit easily in the 8 MiB a Linux thread
gets."""


class _Headroom:
    """Raises the interpreter's recursion limit while any thread needs headroom, and
    restores it when the last one is done (the limit is process-wide)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._users = 0
        self._restore = 0

    @contextmanager
    def frames(self, frames: int) -> Iterator[None]:
        needed = _depth() + frames
        with self._lock:
            if self._users == 0:
                self._restore = sys.getrecursionlimit()
            self._users += 1
            if needed > sys.getrecursionlimit():
                sys.setrecursionlimit(needed)
        try:
            yield
        finally:
            with self._lock:
                self._users -= 1
                if self._users == 0:
                    sys.setrecursionlimit(self._restore)


def _depth() -> int:
    depth = 0
    frame: FrameType | None = sys._getframe()
    while frame is not None:
        depth += 1
        frame = frame.f_back
    return depth


_HEADROOM = _Headroom()


def stack_headroom(frames: int = SCHEMA_FRAMES) -> AbstractContextManager[None]:
    """Run a block with ``frames`` Python frames available beyond the caller's depth."""
    return _HEADROOM.frames(frames)


__all__ = [
    "BRANCH_COST",
    "ITEM_COST",
    "KEYWORD_COST",
    "OVER_BUDGET",
    "REFERENCE_COST",
    "REGEX_STEP_COST",
    "SCHEMA_FRAMES",
    "TEMPLATE_STEP_COST",
    "TOO_DEEP",
    "Budget",
    "OutOfWork",
    "measure",
    "stack_headroom",
]
