"""A compiled (Rust) copy of our structural schema that only says "valid".

jsonschema takes a quarter of a second to check 1,000 tools; jsonschema-rs takes a few
milliseconds. Its "valid" is trusted only where it provably means jsonschema's "valid":
formats are checked by jsonschema's own checkers (called back), and every pattern is
translated to a regular expression that matches exactly the strings the structural
validator's own matching accepts (RE2 with ECMA-262's ``$`` for ``pattern``, Python's
``re.search`` for ``patternProperties``), or the compiled copy is not used at all. Any
other answer (invalid, an error, no compiled copy) sends the document to jsonschema, which
words today's diagnostics.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, partial
from typing import Any

from jsonschema import Draft202012Validator

from ..kinds import KINDS
from ..spec.schema import document_schema
from ..spec.schema070 import document_schema_070
from ..spec.versions import SPEC_0_7_0, Specification

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


class _Untranslatable(Exception):
    pass


def _translated(schema: Any, formats: set[str]) -> Any:
    """The schema with every pattern in Rust's terms; the formats it names collected."""
    if isinstance(schema, list):
        return [_translated(item, formats) for item in schema]
    if not isinstance(schema, dict):
        return schema
    result: dict[str, Any] = {}
    for keyword, value in schema.items():
        if keyword == "pattern" and isinstance(value, str):
            result[keyword] = _rust_or_refuse(value, ecma_end=True)
        elif keyword == "patternProperties" and isinstance(value, dict):
            result[keyword] = {_rust_or_refuse(key): _translated(sub, formats) for key, sub in value.items()}
        elif keyword in ("properties", "$defs", "dependentSchemas") and isinstance(value, dict):
            result[keyword] = {name: _translated(sub, formats) for name, sub in value.items()}
        elif keyword in ("enum", "const") or keyword.startswith("x-"):
            result[keyword] = value  # data, not schemas
        else:
            if keyword == "format" and isinstance(value, str):
                formats.add(value)
            result[keyword] = _translated(value, formats)
    return result


def _rust_or_refuse(pattern: str, *, ecma_end: bool = False) -> str:
    translated = rust_pattern(pattern, ecma_end=ecma_end)
    if translated is None:
        raise _Untranslatable(pattern)
    return translated


def _conforms(format_name: str, value: str) -> bool:
    return bool(Draft202012Validator.FORMAT_CHECKER.conforms(value, format_name))


@cache
def compiled_validity(spec: Specification) -> Callable[[Any], bool] | None:
    """``is_valid`` of the compiled copy of the spec's schema, or None when it cannot be
    proven to agree with jsonschema (an untranslatable pattern, a schema it refuses)."""
    import jsonschema_rs

    schema = document_schema_070() if spec == SPEC_0_7_0 else document_schema(spec)
    formats: set[str] = set()
    try:
        translated = _translated(schema, formats)
        validator = jsonschema_rs.Draft202012Validator(
            translated,
            validate_formats=True,
            formats={name: partial(_conforms, name) for name in formats},
            offline=True,  # nothing is fetched: the schema has no remote references
        )
    except (_Untranslatable, ValueError, jsonschema_rs.ValidationError, jsonschema_rs.ReferencingError):
        return None
    return validator.is_valid


SMALLEST_COMPILED = 100
"""Primitives from which the compiled copy pays: loading it costs about what jsonschema
takes for 100 tools."""


def structure_is_valid(data: object, spec: Specification) -> bool:
    """True only when the document is valid under the spec's structural schema (False means
    "ask jsonschema", not "invalid")."""
    return _primitive_count(data) >= SMALLEST_COMPILED and compiled_verdict(data, spec)


def compiled_verdict(data: object, spec: Specification) -> bool:
    """The compiled copy's "valid", whatever the document's size (False: "ask jsonschema")."""
    is_valid = compiled_validity(spec)
    if is_valid is None:
        return False
    try:
        return bool(is_valid(data))
    except (ValueError, TypeError, OverflowError, RecursionError):  # data it cannot convert: ask jsonschema
        return False


def _primitive_count(data: object) -> int:
    if not isinstance(data, dict):
        return 0
    return sum(len(items) for kind in KINDS if isinstance(items := data.get(kind.collection), list))
