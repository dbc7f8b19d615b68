"""RFC 6570 URI templates: which are valid, their variables, and the reverse question
expanders do not answer: could a given URI be an expansion of the template?

Templates are parsed here, in one pass (the ``uri-template`` library builds variable names
a character at a time, quadratic in their length: 0.9 s for one 200,000-character name).
Expressions follow RFC 6570 sections 2.2 to 2.4 exactly; literals may hold anything but
braces, as before.

For matching, the template is compiled to a nondeterministic automaton whose paths are
its expansions (section 3.2 and appendix A: each operator's prefix, separator, named form
and allowed characters; prefix modifiers; exploded lists and pairs; undefined variables
left out). The URI is read once, every possible reading tracked at the same time, so the
time is the length of the URI times the number of readings alive at once, never
exponential as backtracking over an ambiguous template was (``{+path}`` values may
contain the separator; adjacent variables may split a run of characters anywhere). Each
step is paid for from the document's budget.

Matching is generous where the RFC leaves values open (any variable may be undefined, a
list or a set of pairs; an exploded set of pairs names its own keys) and exact where the
template fixes text: literals, operators, separators, the names of ``;``, ``?`` and ``&``
variables (``{?q,limit}`` accepts ``?q=x&limit=5`` but not ``?x=api``), and prefix
lengths (``{var:3}`` takes at most 3 characters, a percent-encoded UTF-8 character
counting as one).
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from ..records import record
from .budget import TEMPLATE_STEP_COST, Budget

_UNRESERVED = frozenset(string.ascii_letters + string.digits + "-._~")
_RESERVED = frozenset(":/?#[]@!$&'()*+,;=")
_HEX = frozenset(string.hexdigits)
_CONTINUATION = frozenset("89abAB")
"""First hex digit of a UTF-8 continuation byte (0x80-0xBF): no new character starts."""


@record
class _Operator:
    """One row of RFC 6570 appendix A."""

    first: str
    separator: str
    named: bool
    empty_equals: bool
    """An empty value expands to ``name=`` (``?``, ``&``); else to ``name`` alone (``;``)."""
    reserved: bool
    """Values keep reserved characters (``+``, ``#``)."""


_OPERATORS = {
    "": _Operator("", ",", named=False, empty_equals=False, reserved=False),
    "+": _Operator("", ",", named=False, empty_equals=False, reserved=True),
    "#": _Operator("#", ",", named=False, empty_equals=False, reserved=True),
    ".": _Operator(".", ".", named=False, empty_equals=False, reserved=False),
    "/": _Operator("/", "/", named=False, empty_equals=False, reserved=False),
    ";": _Operator(";", ";", named=True, empty_equals=False, reserved=False),
    "?": _Operator("?", "&", named=True, empty_equals=True, reserved=False),
    "&": _Operator("&", "&", named=True, empty_equals=True, reserved=False),
}

# varname [":" max-length | "*"] (RFC 6570 section 2.3 and 2.4). Linear: no two ways to match.
_VARCHAR = r"(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})"
_VARSPEC = re.compile(rf"({_VARCHAR}(?:\.?{_VARCHAR})*)(?::([1-9][0-9]{{0,3}})|(\*))?")


@record
class _Varspec:
    name: str
    prefix: int
    """The prefix modifier's length, 0 when there is none."""
    explode: bool


@record
class _Expression:
    operator: str
    variables: tuple[_Varspec, ...]


def _expression(body: str) -> _Expression | None:
    operator = body[:1] if body[:1] in _OPERATORS else ""
    variables: list[_Varspec] = []
    for text in body[len(operator) :].split(","):
        match = _VARSPEC.fullmatch(text)
        if match is None:  # also the operators RFC 6570 reserves (= , ! @ |) and empty lists
            return None
        variables.append(_Varspec(match.group(1), int(match.group(2) or 0), match.group(3) is not None))
    return _Expression(operator, tuple(variables))


@lru_cache(maxsize=256)
def _parse(template: str) -> tuple[str | _Expression, ...] | None:
    """Literals and expressions in order, or None when the template is not valid."""
    parts: list[str | _Expression] = []
    position = 0
    while position < len(template):
        opening = template.find("{", position)
        end = len(template) if opening < 0 else opening
        if template.find("}", position, end) >= 0:
            return None
        if end > position:
            parts.append(template[position:end])
        if opening < 0:
            break
        closing = template.find("}", opening)
        expression = None if closing < 0 else _expression(template[opening + 1 : closing])
        if expression is None:
            return None
        parts.append(expression)
        position = closing + 1
    return tuple(parts)


def is_valid_template(template: str) -> bool:
    return _parse(template) is not None


def variable_names(template: str) -> list[str]:
    """The variables of a template, operators and modifiers stripped ({+path} -> path, {id:3} -> id)."""
    parts = _parse(template) or ()
    return [spec.name for part in parts if isinstance(part, _Expression) for spec in part.variables]


# Node kinds of the automaton.
_CHAR, _SPLIT, _VALUE, _ACCEPT = range(4)

Config = tuple[int, int, int]
"""(node, characters taken by the value being read, position inside a %XX triplet)."""
_Piece = Callable[[int], int]
"""Builds a piece of the automaton before a given node; returns where the piece starts."""


class _Automaton:
    """Nodes in parallel lists, built backwards: each node is made knowing what follows it."""

    def __init__(self) -> None:
        self.kinds: list[int] = []
        self.args: list[Any] = []
        self.nexts: list[int] = []
        self.start = self.add(_ACCEPT, None, -1)

    def add(self, kind: int, arg: Any, following: int) -> int:
        self.kinds.append(kind)
        self.args.append(arg)
        self.nexts.append(following)
        return len(self.kinds) - 1

    def literal(self, text: str, following: int) -> int:
        for char in reversed(text):
            following = self.add(_CHAR, char, following)
        return following

    def value(self, allowed: frozenset[str], limit: int, following: int) -> int:
        """Any number of allowed characters or %XX triplets (at most ``limit`` characters
        when it is not 0)."""
        return self.add(_VALUE, (allowed, limit), following)

    def either(self, *targets: int) -> int:
        return self.add(_SPLIT, targets, -1)

    def repeated(self, item: _Piece, joiner: str, following: int) -> int:
        """item (joiner item)*"""
        loop = self.add(_SPLIT, (), -1)
        start = item(loop)
        self.args[loop] = (following, self.literal(joiner, start))
        return start


def _variable(automaton: _Automaton, operator: _Operator, spec: _Varspec, following: int) -> int:
    """The expansion of one defined variable, then ``following``."""
    name, limit, explode = spec.name, spec.prefix, spec.explode
    allowed = _UNRESERVED | _RESERVED if operator.reserved else _UNRESERVED

    def value(after: int) -> int:
        return automaton.value(allowed, 0, after)

    def values(after: int) -> int:  # a string, a list, or pairs: v(,v)*
        return automaton.repeated(value, ",", after)

    def assigned(tail: _Piece) -> _Piece:  # "=" tail, optional for ";" (where empty is the bare name)
        def piece(after: int) -> int:
            equals = automaton.literal("=", tail(after))
            return equals if operator.empty_equals else automaton.either(after, equals)

        return piece

    if explode:
        # Items are list members or key=value pairs; a named operator's pairs bring their own
        # names (the keys), so the variable's name is one key among any.
        item = (
            (lambda after: value(assigned(value)(after)))
            if operator.named
            else (lambda after: value(automaton.either(after, automaton.literal("=", value(after)))))
        )
        return automaton.repeated(item, operator.separator, following)
    if limit:

        def prefix(after: int) -> int:
            return automaton.value(allowed, limit, after)

        tail: _Piece = prefix
    else:
        tail = values
    if not operator.named:
        return tail(following)
    return automaton.literal(name, assigned(tail)(following))


def _expansions(automaton: _Automaton, expression: _Expression, following: int) -> int:
    operator = _OPERATORS[expression.operator]
    # Any variable may be undefined: each is taken or skipped, in order. The first one taken
    # follows the operator's prefix, the others its separator: two chains of choices.
    none_yet = some = following
    for spec in reversed(expression.variables):
        taken = _variable(automaton, operator, spec, some)
        some = automaton.either(some, automaton.literal(operator.separator, taken))
        none_yet = automaton.either(none_yet, automaton.literal(operator.first, taken))
    return none_yet


@lru_cache(maxsize=16)  # an automaton holds a few nodes per character of its template
def _compile(template: str) -> _Automaton | None:
    parts = _parse(template)
    if parts is None:
        return None
    automaton = _Automaton()
    following = automaton.start
    for part in reversed(parts):
        if isinstance(part, str):
            following = automaton.literal(part, following)
        else:
            following = _expansions(automaton, part, following)
    automaton.start = following
    return automaton


def _closure(automaton: _Automaton, configs: list[Config]) -> set[Config]:
    """The configurations reachable without reading a character."""
    kinds, args, nexts = automaton.kinds, automaton.args, automaton.nexts
    seen: set[Config] = set()
    stack = configs
    while stack:
        config = stack.pop()
        if config in seen:
            continue
        seen.add(config)
        node, _, phase = config
        kind = kinds[node]
        if kind == _SPLIT:
            stack.extend((target, 0, 0) for target in args[node])
        elif kind == _VALUE and phase == 0:
            stack.append((nexts[node], 0, 0))
    return seen


def _step(automaton: _Automaton, current: set[Config], char: str) -> list[Config]:
    kinds, args, nexts = automaton.kinds, automaton.args, automaton.nexts
    moved: list[Config] = []
    for node, taken, phase in current:
        kind = kinds[node]
        if kind == _CHAR:
            if char == args[node]:
                moved.append((nexts[node], 0, 0))
        elif kind == _VALUE:
            allowed, limit = args[node]
            if phase == 0:
                if char in allowed and (not limit or taken < limit):
                    moved.append((node, taken + 1 if limit else 0, 0))
                elif char == "%":
                    moved.append((node, taken, 1))
            elif char in _HEX:
                if phase == 2:
                    moved.append((node, taken, 0))
                elif not limit or char in _CONTINUATION:
                    moved.append((node, taken, 2))
                elif taken < limit:
                    moved.append((node, taken + 1, 2))
    return moved


def could_expand_to(template: str, uri: str, budget: Budget | None = None) -> bool | None:
    """True when some variable values make the template expand to ``uri`` (never for an
    invalid template); None when the budget cannot pay for finding out."""
    automaton = _compile(template)
    if automaton is None:
        return False
    current = _closure(automaton, [(automaton.start, 0, 0)])
    for char in uri:
        following = _closure(automaton, _step(automaton, current, char))
        if budget is not None and not budget.afford(TEMPLATE_STEP_COST * (len(current) + len(following))):
            return None
        if not following:
            return False
        current = following
    return any(automaton.kinds[node] == _ACCEPT for node, _, _ in current)


__all__ = ["could_expand_to", "is_valid_template", "variable_names"]
