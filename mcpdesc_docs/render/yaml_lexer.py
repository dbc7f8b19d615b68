"""Pygments' YAML lexer, made linear in the length of a line without changing its tokens.

Two of its rules find a mapping key: ``([^<stops>]+)(:)(?=[ ]|$)`` ("a run of characters up
to a colon that ends a key"). The lexer tries one at almost every token of a line, and each
try scans to the end of the run, so a long line of short tokens (``! ! ! ...``) costs the
square of its length: 20,000 characters took 3 s, 1 MB of such fenced blocks 93 s. Here
those two rules answer from an index of the text, made once per block: where each run of
allowed characters ends and where each colon that ends a key is. A try that fails costs a
lookup; one that succeeds is left to the rule's own expression, bounded to the text it
matches, so the match (and every token) is the lexer's own.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pygments.lexers.data import YamlLexer

_KEY_RULE = re.compile(r"\(\[\^(?P<stops>.+)\]\+\)\(:\)\(\?=\[ \]\|\$\)")
"""The shape of the key rules, as written in Pygments' source."""
_KEY_COLON = re.compile(r":(?= |\n|\Z)")
"""A colon the key rules end on: followed by a space, a line's end or the text's end."""

Match = Callable[..., "re.Match[str] | None"]


class _IndexedKeyRule:
    """Does what ``pattern.match`` does for a key rule, from an index of the text."""

    def __init__(self, pattern: re.Pattern[str], stops: str) -> None:
        self.pattern = pattern
        self._stop = re.compile(f"[{stops}]")
        # The last text indexed and its index: the lexer asks about one block many times
        # in a row. One tuple, replaced whole, so another thread at worst indexes again.
        self._indexed: tuple[str, list[int], list[int]] | None = None

    def _index(self, text: str) -> tuple[list[int], list[int]]:
        indexed = self._indexed
        if indexed is None or indexed[0] is not text:
            stops = [found.start() for found in self._stop.finditer(text)]
            colons = [found.start() for found in _KEY_COLON.finditer(text)]
            indexed = (text, stops, colons)
            self._indexed = indexed
        return indexed[1], indexed[2]

    def __call__(self, text: str, pos: int = 0, end: int | None = None) -> re.Match[str] | None:
        if end is not None and end != len(text):
            return self.pattern.match(text, pos, end)  # not how the lexer calls it; kept exact
        stops, colons = self._index(text)
        # The run of allowed characters from pos ends at the next stop (or the text's end).
        next_stop = bisect_left(stops, pos)
        run_end = stops[next_stop] if next_stop < len(stops) else len(text)
        # Backtracking from the run's end, the expression takes the last key colon after at
        # least one character of the run: one inside it, or the stop itself if that is one.
        last = bisect_right(colons, run_end) - 1
        if last < 0 or colons[last] <= pos:
            return None
        return self.pattern.match(text, pos, colons[last] + 1)


def linear_yaml_lexer() -> tuple[YamlLexer, int]:
    """A YamlLexer whose key rules use the index; and how many rules were replaced (two
    in every Pygments this project supports; none if a later one writes them otherwise,
    and the lexer is then Pygments' own)."""
    from pygments.lexers.data import YamlLexer

    lexer = YamlLexer()
    replaced = 0
    table: dict[str, list[tuple[Match, Any, Any]]] = {}
    for state, rules in lexer._tokens.items():  # type: ignore[attr-defined]
        table[state] = []
        for match, action, new_state in rules:
            pattern = getattr(match, "__self__", None)
            shape = _KEY_RULE.fullmatch(pattern.pattern) if isinstance(pattern, re.Pattern) else None
            # The index reads `$` as the end of a line: the lexer's rules are multiline.
            if isinstance(pattern, re.Pattern) and shape is not None and pattern.flags & re.MULTILINE:
                match = _IndexedKeyRule(pattern, shape["stops"])
                replaced += 1
            table[state].append((match, action, new_state))
    # The instance's own table: the class's, shared by every YamlLexer, stays as it was.
    lexer._tokens = table  # type: ignore[attr-defined]
    return lexer, replaced
