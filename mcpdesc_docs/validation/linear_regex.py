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
import threading
from collections import OrderedDict
from functools import lru_cache

import re2  # type: ignore[import-untyped]

from ..records import record
from .budget import REGEX_STEP_COST, Budget

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


@record
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


MAX_NESTING = 1_000
"""Groups inside groups RE2 is given: its parser is quadratic in the nesting (200,000
nested groups took 70 s to refuse), though matching stays linear."""
MAX_WEIGHT = 100_000
"""What RE2's parser may be asked to build, estimated by :func:`_shape`. RE2 refuses large
programs only after building them: 20,000 copies of ``\\p{L}`` took 1.5 s to refuse."""
COMPILE_COST = 40
"""Budget units per unit of weight for compiling a pattern not compiled before."""
_PROPERTY_WEIGHT = 1_000
"""A Unicode property class such as ``\\p{L}``: about 1,200 RE2 instructions."""
_COUNT = re.compile(r"\{([0-9]{1,9})(,([0-9]{0,9}))?\}")


def _escape(pattern: str, index: int) -> tuple[int, int]:
    """(weight, index after) of the escape at ``index``."""
    kind = pattern[index + 1 : index + 2]
    if kind in ("p", "P", "x") and pattern[index + 2 : index + 3] == "{":
        closing = pattern.find("}", index)
        after = len(pattern) if closing < 0 else closing + 1
        return (1 if kind == "x" else _PROPERTY_WEIGHT), after
    if kind in ("p", "P"):
        return _PROPERTY_WEIGHT, index + 3
    return (10 if kind in ("D", "W", "S") else 1), index + 2


def _class(pattern: str, index: int) -> tuple[int, int]:
    """(weight, index after) of the character class opening at ``index``."""
    weight = 1
    index += 1
    if pattern[index : index + 1] == "^":
        weight, index = 10, index + 1
    if pattern[index : index + 1] == "]":
        index += 1
    while index < len(pattern) and pattern[index] != "]":
        if pattern[index] == "\\":
            escaped, index = _escape(pattern, index)
            weight += escaped
        else:
            weight, index = weight + 1, index + 1
    return weight, index + 1


def _shape(pattern: str) -> tuple[int, int]:
    """(weight, deepest nesting of groups) of a pattern, in one pass. The weight estimates
    what RE2 would build: a character 1, ``.`` 10, a property class 1,000, a group the sum
    of its contents, a counted repetition its count times what it repeats."""
    frames = [[0, 0]]  # for each open group: [weight so far, weight of the last atom]
    deepest = index = 0
    while index < len(pattern) and frames[-1][0] <= MAX_WEIGHT and deepest <= MAX_NESTING:
        char = pattern[index]
        frame = frames[-1]
        atom = 0
        if char == "\\":
            atom, index = _escape(pattern, index)
        elif char == "[":
            atom, index = _class(pattern, index)
        elif char == "(":
            frames.append([0, 0])
            deepest = max(deepest, len(frames) - 1)
            index += 1
            continue
        elif char == ")" and len(frames) > 1:
            atom = frames.pop()[0] + 1
            frame = frames[-1]
            index += 1
        elif char == "{" and (count := _COUNT.match(pattern, index)) is not None:
            times = max(int(count.group(1)), int(count.group(3) or 0)) + (1 if count.group(2) == "," else 0)
            repeated = min(frame[1] * times, MAX_WEIGHT + 1)
            frame[0] = min(frame[0] + repeated - frame[1], MAX_WEIGHT + 1)
            frame[1] = repeated
            index = count.end()
            continue
        elif char in "|*+?":
            frame[1] = 0 if char == "|" else frame[1]
            index += 1
            continue
        else:
            atom = 10 if char == "." else 1
            index += 1
        frame[0] = min(frame[0] + atom, MAX_WEIGHT + 1)
        frame[1] = atom
    return sum(frame[0] for frame in frames), deepest


def _compile(pattern: str, weight: int, nesting: int) -> LinearRegex | str:
    if nesting > MAX_NESTING:
        return f"pattern {_shown(pattern)} nests groups too deeply to be matched in linear time"
    if weight > MAX_WEIGHT:
        return f"pattern {_shown(pattern)} is too large to be matched in linear time"
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


_CACHE: OrderedDict[str, LinearRegex | str] = OrderedDict()
_CACHE_LOCK = threading.Lock()


def compile_linear(pattern: str, budget: Budget | None = None) -> LinearRegex | str | None:
    """The compiled pattern, or why it cannot be matched in linear time; None when
    ``budget`` cannot pay for compiling it (compiling is not free: its cost grows with the
    pattern's weight). The last CACHED patterns are kept, and cost nothing again."""
    with _CACHE_LOCK:
        cached = _CACHE.get(pattern)
        if cached is not None:
            _CACHE.move_to_end(pattern)
            return cached
    weight, nesting = _shape(pattern)
    if budget is not None and not budget.afford(COMPILE_COST * min(weight, MAX_WEIGHT)):
        return None
    result = _compile(pattern, weight, nesting)
    with _CACHE_LOCK:
        _CACHE[pattern] = result
        while len(_CACHE) > CACHED:
            _CACHE.popitem(last=False)
    return result


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
