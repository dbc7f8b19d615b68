"""A short string that a JSON Schema ``pattern`` accepts, for request samples.

Built from the pattern's parse tree (Python's own regular-expression parser): the first
alternative, the fewest repetitions, the first character of each class. Python's syntax
is close to the ECMA-262 syntax schemas use, and the result is checked with RE2 (linear
time) before use: a pattern this cannot satisfy gives None and the caller a placeholder.
Bounded: ``MAX_LENGTH`` characters, ``MAX_NODES`` parse nodes visited.
"""

from __future__ import annotations

from re import _parser  # type: ignore[attr-defined]
from typing import Any

from ..validation.linear_regex import compile_linear

MAX_LENGTH = 64
"""Characters of a generated string."""
MAX_NODES = 2_000
"""Parse-tree nodes visited for one pattern."""
MAX_PATTERN = 1_000
"""Characters of a pattern worth trying."""

_CATEGORY_CHARACTERS = {
    "CATEGORY_DIGIT": "0",
    "CATEGORY_NOT_DIGIT": "a",
    "CATEGORY_SPACE": " ",
    "CATEGORY_NOT_SPACE": "a",
    "CATEGORY_WORD": "a",
    "CATEGORY_NOT_WORD": "-",
}


class _TooLong(Exception):
    pass


class _Writer:
    def __init__(self) -> None:
        self.nodes = MAX_NODES
        self.out: list[str] = []

    def put(self, text: str) -> None:
        self.out.append(text)
        if sum(map(len, self.out)) > MAX_LENGTH:
            raise _TooLong

    def sequence(self, items: Any) -> None:
        for op, arg in items:
            self.nodes -= 1
            if self.nodes < 0:
                raise _TooLong
            self.node(str(op), arg)

    def node(self, op: str, arg: Any) -> None:
        if op == "LITERAL":
            self.put(chr(arg))
        elif op == "NOT_LITERAL":
            self.put("a" if chr(arg) != "a" else "b")
        elif op == "ANY":
            self.put("a")
        elif op == "IN":
            self.put(_class_member(arg))
        elif op in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, _high, items = arg
            for _ in range(int(low)):
                self.sequence(items)
        elif op == "SUBPATTERN":
            self.sequence(arg[-1])
        elif op == "ATOMIC_GROUP":
            self.sequence(arg)
        elif op == "BRANCH":
            self.sequence(arg[1][0])
        elif op in ("AT", "ASSERT", "ASSERT_NOT"):
            pass  # anchors and lookarounds take no characters; RE2's check has the last word
        else:
            raise _TooLong  # back-references, conditionals: not worth a guess


def _class_member(items: Any) -> str:
    negated = False
    for op, arg in items:
        name = str(op)
        if name == "NEGATE":
            negated = True
        elif negated:
            continue
        elif name == "LITERAL":
            return chr(arg)
        elif name == "RANGE":
            return chr(arg[0])
        elif name == "CATEGORY":
            return _CATEGORY_CHARACTERS.get(str(arg), "a")
    if negated:
        excluded = {chr(a) for op, a in items if str(op) == "LITERAL"}
        return next(c for c in "a0-_ " if c not in excluded)
    return "a"


def pattern_sample(pattern: str, *, minimum: int = 0) -> str | None:
    """A string of at least ``minimum`` characters (when the pattern allows) that
    ``pattern`` finds a match in, or None."""
    if len(pattern) > MAX_PATTERN:
        return None
    compiled = compile_linear(pattern)
    if compiled is None or isinstance(compiled, str):
        return None  # RE2 cannot match it: the pattern is reported elsewhere
    writer = _Writer()
    try:
        writer.sequence(_parser.parse(pattern))
    except Exception:  # noqa: BLE001 - any pattern Python's parser refuses gets no sample
        return None
    text = "".join(writer.out)
    if len(text) < minimum and compiled.search(text + "a" * (minimum - len(text))):
        text += "a" * (minimum - len(text))
    return text if compiled.search(text) else None


__all__ = ["pattern_sample"]
