"""A compiled (Rust) copy of our structural schema that only says "valid".

jsonschema takes a quarter of a second to check 1,000 tools, and a tenth of a second to
import; jsonschema-rs loads and compiles the schema in about 15 ms and checks 1,000 tools
in a few more. Its "valid" is trusted only where it provably means jsonschema's "valid":
formats are checked as jsonschema's checkers check them (:mod:`.formats`, called back),
and every pattern is
translated to a regular expression that matches exactly the strings the structural
validator's own matching accepts (RE2 with ECMA-262's ``$`` for ``pattern``, Python's
``re.search`` for ``patternProperties``), or the compiled copy is not used at all. Any
other answer (invalid, an error, no compiled copy) sends the document to jsonschema, which
words today's diagnostics.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

from ..spec.schema import document_schema
from ..spec.schema070 import document_schema_070
from ..spec.versions import SPEC_0_7_0, Specification
from . import formats as format_checks

# Patterns whose meaning is the same in Python's re and the Rust regex crate: ASCII
# literals and classes, groups, alternation and the quantifiers * + ?; `^` only first and
# an end anchor only last. No `.`, flags, escapes of letters, look-arounds or repetition
# counts, whose meanings differ between the two (or across Unicode).
_SAFE_ATOM = (
    r"(?:[A-Za-z0-9_/#:=,@!~-]|\\[.\-/#]|\[\^?(?:[A-Za-z0-9._/#:=,@!~-]|\\[.\-/])+\]|\(\?:|\((?!\?)|\)|\||[*+?])"
)
_SAFE_PATTERN = re.compile(rf"\^?{_SAFE_ATOM}*(?P<end>\$|\\Z)?")


def rust_pattern(pattern: str, *, ecma_end: bool = False) -> str | None:
    """The Rust regex that matches where ``pattern`` does in the structural validator, or None.

    ``pattern`` keywords run on RE2 with ECMA-262 semantics (``ecma_end``): ``$`` is the
    end of the text, as in Rust. ``patternProperties`` run on Python's ``re.search``, whose
    ``$`` also matches before a final newline: as the last token it becomes ``\\n?$`` (a
    match exists in one exactly when it does in the other), and ``\\Z`` is Rust's ``$``.
    RE2 has no ``\\Z``, so an ECMA-262 pattern holding it is not translated."""
    shape = _SAFE_PATTERN.fullmatch(pattern)
    if shape is None:
        return None
    end = shape.group("end")
    body = pattern[: len(pattern) - len(end)] if end else pattern
    if ecma_end:
        return None if end == "\\Z" else pattern
    if end == "$":
        return body + "\\n?$"
    if end == "\\Z":
        return body + "$"
    return body


class Untranslatable(Exception):
    """A pattern outside the subset Python, RE2 and Rust read alike."""


def translated(schema: Any, formats: set[str], *, ecma_properties: bool = False) -> Any:
    """The schema with every pattern in Rust's terms; the formats it names collected.
    ``patternProperties`` keys are read as Python's ``re.search`` reads them, or, with
    ``ecma_properties``, as RE2 with ECMA-262's ``$`` (how examples are checked).
    Raises _Untranslatable for a pattern outside the subset both engines read alike."""

    def inner(value: Any) -> Any:
        return translated(value, formats, ecma_properties=ecma_properties)

    if isinstance(schema, list):
        return [inner(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    result: dict[str, Any] = {}
    for keyword, value in schema.items():
        if keyword == "pattern" and isinstance(value, str):
            result[keyword] = _rust_or_refuse(value, ecma_end=True)
        elif keyword == "patternProperties" and isinstance(value, dict):
            result[keyword] = {_rust_or_refuse(key, ecma_end=ecma_properties): inner(sub) for key, sub in value.items()}
        elif keyword in ("properties", "$defs", "dependentSchemas") and isinstance(value, dict):
            result[keyword] = {name: inner(sub) for name, sub in value.items()}
        elif keyword in ("enum", "const", "default", "examples") or keyword.startswith("x-"):
            result[keyword] = value  # data, not schemas
        else:
            if keyword == "format" and isinstance(value, str):
                formats.add(value)
            result[keyword] = inner(value)
    return result


def _rust_or_refuse(pattern: str, *, ecma_end: bool = False) -> str:
    translated = rust_pattern(pattern, ecma_end=ecma_end)
    if translated is None:
        raise Untranslatable(pattern)
    return translated


@cache
def compiled_validity(spec: Specification) -> Callable[[Any], bool] | None:
    """``is_valid`` of the compiled copy of the spec's schema, or None when it cannot be
    proven to agree with jsonschema (an untranslatable pattern, a schema it refuses)."""
    import jsonschema_rs

    schema = document_schema_070() if spec == SPEC_0_7_0 else document_schema(spec)
    formats: set[str] = set()
    try:
        rust_schema = translated(schema, formats)
        if not formats <= set(format_checks.FORMATS):
            return None  # a format we cannot check as jsonschema does
        validator = jsonschema_rs.Draft202012Validator(
            rust_schema,
            validate_formats=True,
            formats=format_checks.checkers(),
            offline=True,  # nothing is fetched: the schema has no remote references
        )
    except (Untranslatable, ValueError, jsonschema_rs.ValidationError, jsonschema_rs.ReferencingError):
        return None
    return validator.is_valid


def structure_is_valid(data: object, spec: Specification) -> bool:
    """True only when the document is valid under the spec's structural schema (False means
    "ask jsonschema", not "invalid")."""
    is_valid = compiled_validity(spec)
    if is_valid is None:
        return False
    try:
        return bool(is_valid(data))
    except (ValueError, TypeError, OverflowError, RecursionError):  # data it cannot convert: ask jsonschema
        return False
