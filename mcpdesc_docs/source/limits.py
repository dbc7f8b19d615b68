"""Bounds on untrusted input, applied before and while it is parsed."""

from __future__ import annotations

import sys

from ..records import record

LIMITS_RULE = "mcpdesc.input.limits"

_LARGEST_DOUBLE = int(sys.float_info.max)
_LARGEST_DIGITS = len(str(_LARGEST_DOUBLE))


def integer_out_of_range(literal: str) -> bool:
    """Whether an integer literal lies beyond an IEEE 754 double (about 1.8e308). RFC 8259
    section 6 warns that readers may hold numbers as doubles, so such a number does not
    mean the same everywhere; here it would break arithmetic that mixes it with floats,
    and Python refuses to even read integers of more than 4,300 digits. Decided on the
    literal's length where it can be, so a million digits cost nothing to refuse."""
    digits = literal.lstrip("-")
    if len(digits) != _LARGEST_DIGITS:
        return len(digits) > _LARGEST_DIGITS
    return int(digits) > _LARGEST_DOUBLE


def integer_out_of_range_message(literal: str) -> str:
    digits = literal.lstrip("-")
    shown = literal if len(literal) <= 24 else literal[:20] + "..."
    return (
        f"the integer {shown} ({len(digits)} digits) is beyond the range of JSON numbers every reader "
        "can hold (an IEEE 754 double, about 1.8e308)"
    )


@record
class Limits:
    """Bounds applied to untrusted input before and while it is parsed."""

    max_bytes: int = 32 * 1024 * 1024
    max_depth: int = 128
    max_nodes: int = 2_000_000
    max_string_length: int = 1_000_000
    """Characters in one string (a key or a value)."""
    max_primitives: int = 10_000
    """Tools, resources, resource templates and prompts together (checked by the validator)."""

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return ("max_bytes", "max_depth", "max_nodes", "max_string_length", "max_primitives")


YAML_PARSER_DEPTH = 1000
"""Nesting libyaml refuses whatever we allow: a deeper ``max_depth`` would be a promise the
parser breaks, its refusal then worded with our larger number."""

LIMIT_CEILINGS = {
    "max_bytes": sys.maxsize,
    "max_depth": YAML_PARSER_DEPTH,
    "max_nodes": sys.maxsize,
    "max_string_length": sys.maxsize,
    "max_primitives": sys.maxsize,
}
"""The largest value a configuration may give each limit. Sizes and counts stop at the
largest size Python can hold (beyond it a size cannot even be asked for: OverflowError)."""


def ceiling_reason(name: str) -> str:
    """Why a limit's ceiling is where it is (said with a configuration's refusal)."""
    return "the YAML parser's own bound" if name == "max_depth" else "the largest size Python can hold"


DEFAULT_LIMITS = Limits()
