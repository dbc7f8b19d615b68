"""Regular expressions from descriptions, matched in linear time (RE2).

JSON Schema's ``pattern`` and ``patternProperties`` come from the untrusted description
and are matched against its own examples. Python's ``re`` backtracks: ``^(a+)+$`` against
thirty ``a`` and a ``!`` takes a minute. RE2 matches in time linear in the text (times the
size of the pattern) and refuses what it cannot match that way: backreferences and
lookaround (ECMA-262 features it lacks) and repetition counts above 1,000. A pattern RE2
refuses is never run by ``re`` on untrusted text: the check that needed it is reported as
incomplete instead.

Whether a pattern is a valid regular expression at all (JSON Schema's ``regex`` format,
checked when a schema is compiled) is still Python's verdict, as before: compiling is not
matching, and costs time proportional to the pattern.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import re2  # type: ignore[import-untyped]

from .budget import REGEX_STEP_COST

MAX_MEMORY = 2 << 20
"""Bytes one compiled pattern may use, program and match cache (RE2's default is 8 MiB):
with at most CACHED patterns kept, matching holds at most 128 MiB, however many patterns
a description has."""
CACHED = 64


def _options() -> re2.Options:
    options = re2.Options()
    options.never_capture = True  # only "does it match?" is asked: no submatches to track
    options.log_errors = False  # RE2 would print refused patterns on stderr
    options.max_mem = MAX_MEMORY
    return options


_OPTIONS = _options()
_HEX = frozenset("0123456789abcdefABCDEF")


def ecma_to_re2(pattern: str) -> str:
    """Rewrite the ECMA-262 escapes RE2 spells differently: ``\\uXXXX`` and ``\\u{X...}``
    become ``\\x{...}``. Everything else is common syntax, or refused by RE2."""
    out: list[str] = []
    index = 0
    length = len(pattern)
    while index < length:
        char = pattern[index]
        if char != "\\" or index + 1 >= length:
            out.append(char)
            index += 1
            continue
        escaped = pattern[index + 1]
        if escaped == "u" and set(pattern[index + 2 : index + 6]) <= _HEX and index + 6 <= length:
            out.append("\\x{" + pattern[index + 2 : index + 6] + "}")
            index += 6
        elif escaped == "u" and pattern[index + 2 : index + 3] == "{":
            out.append("\\x")
            index += 2
        else:
            out.append(pattern[index : index + 2])
            index += 2
    return "".join(out)


@dataclass(frozen=True, slots=True)
class LinearRegex:
    pattern: str
    _compiled: re2._Regexp
    program_size: int

    def cost(self, text: str) -> int:
        """Budget units of the worst case of searching ``text``."""
        return REGEX_STEP_COST * self.program_size * (len(text) + 1)

    def search(self, text: str) -> bool:
        """Whether the pattern matches anywhere in ``text`` (JSON Schema patterns are not anchored)."""
        return self._compiled.search(text) is not None


def _shown(pattern: str) -> str:
    return repr(pattern if len(pattern) <= 40 else pattern[:37] + "...")


@lru_cache(maxsize=CACHED)
def compile_linear(pattern: str) -> LinearRegex | str:
    """The compiled pattern, or why it cannot be matched in linear time."""
    try:
        compiled = re2.compile(ecma_to_re2(pattern), _OPTIONS)
    except re2.error as exc:
        detail = str(exc)
        if "repetition size" in detail or "too large" in detail or "too deep" in detail:
            return f"pattern {_shown(pattern)} is too large to be matched in linear time"
        return f"pattern {_shown(pattern)} uses features that cannot be matched in linear time"
    except UnicodeError:
        return f"pattern {_shown(pattern)} is not valid Unicode text"
    return LinearRegex(pattern, compiled, int(compiled.programsize))


def is_regex(instance: object) -> bool:
    """JSON Schema's ``regex`` format as jsonschema checks it (Python's syntax), made safe on
    untrusted patterns: what Python cannot compile for want of stack or range (5,000 nested
    groups, a repetition count beyond 2**32) is not proven invalid, so it passes here and
    RE2 decides, when matching, whether it can be used."""
    return not isinstance(instance, str) or _python_compiles(instance)


@lru_cache(maxsize=1024)
def _python_compiles(pattern: str) -> bool:
    try:
        re.compile(pattern)
    except re.error:
        return False
    except (RecursionError, OverflowError):
        return True
    return True


__all__ = ["LinearRegex", "compile_linear", "ecma_to_re2", "is_regex"]
