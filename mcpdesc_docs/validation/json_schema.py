"""Embedded JSON Schemas (tool input/output, elicitation requests): dialects, compilation
and instance validation, offline. Compiled validators are cached, so validating a
description many times compiles each distinct schema once.

The schemas and the examples checked against them are untrusted: patterns are matched by
RE2 and evaluation is paid for from the document's budget (:mod:`.schema_keywords`), and
the recursive evaluator runs with fixed stack headroom, so a schema too deep or
self-referential to evaluate makes the check incomplete instead of crashing it."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache, partial
from typing import Any
from urllib.parse import unquote

import referencing.exceptions
from jsonschema import Draft7Validator, Draft202012Validator, FormatChecker
from jsonschema.exceptions import SchemaError
from jsonschema.protocols import Validator
from referencing import Registry

from ..source import pointer as jp
from .budget import OVER_BUDGET, Budget, OutOfWork, stack_headroom
from .linear_regex import is_regex
from .schema_keywords import evaluating, linear_dialect

Dialect = type[Draft202012Validator] | type[Draft7Validator]

DIALECTS: dict[str, Dialect] = {
    "https://json-schema.org/draft/2020-12/schema": Draft202012Validator,
    "https://json-schema.org/draft/2020-12/schema#": Draft202012Validator,
    "http://json-schema.org/draft-07/schema": Draft7Validator,
    "http://json-schema.org/draft-07/schema#": Draft7Validator,
}
"""The dialects Tool schemas may declare (MCP 2025-11-25 and later default to 2020-12)."""

MAX_ERRORS = 5
MAX_REASONS = 3
"""Reasons for skipping parts of a check that are named; the others are counted."""

TOO_DEEP = "the schema is too deeply nested or self-referential to check"

_LINEAR: dict[Dialect, type[Validator]] = {
    dialect: linear_dialect(dialect) for dialect in (Draft202012Validator, Draft7Validator)
}
"""Each dialect as examples are checked with it (see schema_keywords)."""


def _safe_formats(dialect: Dialect) -> FormatChecker:
    """The dialect's format checker, with the ``regex`` format (which schemas' patterns are
    checked against, by the meta-schema) safe on untrusted patterns."""
    checker = FormatChecker(formats=())
    checker.checkers = {**dialect.FORMAT_CHECKER.checkers, "regex": (is_regex, ())}
    return checker


_META_FORMATS = {dialect: _safe_formats(dialect) for dialect in _LINEAR}

COMPILED_META_NESTING = 1000
"""Nesting of a schema up to which the compiled meta-schema checks it: jsonschema-rs
recurses on the machine stack (20,000 levels crashed the process; 6,000 did not), and a
description is never deeper than 1,000 (``limits.max_depth``'s ceiling)."""


@cache
def _compiled_meta_schema(dialect: Dialect) -> Callable[[Any], bool] | None:
    """``is_valid`` of the dialect's meta-schema compiled by jsonschema-rs, or None if it
    cannot be compiled. jsonschema checks a schema of 20,000 properties against the
    meta-schema in 12 s (a descent per keyword, a URL join per ``$dynamicRef``);
    jsonschema-rs in 0.04 s. Its formats are jsonschema's own checkers, called back, so
    that its "valid" means what jsonschema's does."""
    import jsonschema_rs

    checker = _META_FORMATS[dialect]
    formats: dict[str, Callable[..., bool]] = {name: partial(_conforms, checker, name) for name in checker.checkers}
    try:
        # Offline: the meta-schemas' own references are to meta-schemas it carries.
        validator = jsonschema_rs.validator_for(
            dialect.META_SCHEMA, validate_formats=True, formats=formats, offline=True
        )
    except (ValueError, jsonschema_rs.ValidationError, jsonschema_rs.ReferencingError):
        return None
    return validator.is_valid


def _conforms(checker: FormatChecker, format_name: str, value: str) -> bool:
    return checker.conforms(value, format_name)


def _meta_schema_accepts(dialect: Dialect, schema: object) -> bool:
    """True only when the schema is valid under the dialect's meta-schema (False: ask
    jsonschema, which then words the problem)."""
    is_valid = _compiled_meta_schema(dialect)
    if is_valid is None or not _nesting_at_most(schema, COMPILED_META_NESTING):
        return False
    try:
        return bool(is_valid(schema))
    except Exception:  # noqa: BLE001 - a value it cannot convert, a checker that raised: ask jsonschema
        return False


def _nesting_at_most(value: object, levels: int) -> bool:
    stack = [(value, 0)]
    while stack:
        current, depth = stack.pop()
        if depth > levels:
            return False
        if isinstance(current, Mapping):
            stack.extend((item, depth + 1) for item in current.values())
        elif isinstance(current, list):
            stack.extend((item, depth + 1) for item in current)
    return True


@dataclass(frozen=True, slots=True)
class Compiled:
    validator: Validator | None
    """None when the schema cannot be used (unsupported dialect or invalid)."""
    unsupported_dialect: str | None = None
    invalid: str | None = None
    """Why the schema is not a valid schema of its dialect."""
    external_refs: tuple[tuple[str, str], ...] = ()
    """(pointer inside the schema, $ref) for references that would need a download."""
    unchecked: str | None = None
    """Why the schema itself could not be checked (then it is not used either)."""


@dataclass(frozen=True, slots=True)
class InstanceError:
    path: tuple[str | int, ...]
    message: str


@dataclass(frozen=True, slots=True)
class InstanceCheck:
    """What checking one value against a compiled schema found."""

    errors: list[InstanceError]
    """Up to MAX_ERRORS problems."""
    unchecked: tuple[str, ...] = ()
    """Why parts of the value were not checked (patterns RE2 cannot match, a schema too
    deep to evaluate, an exhausted budget); empty when the check was complete."""
    unresolvable: bool = False
    """The check needed a reference outside the schema, which is never downloaded (the
    errors are then left out: they may be artefacts of the missing part)."""


def external_refs(schema: object, at: str = "") -> Iterator[tuple[str, str]]:
    """``$ref`` values that leave the document (never fetched)."""
    stack: list[tuple[str, object]] = [(at, schema)]
    while stack:
        pointer, value = stack.pop()
        if isinstance(value, Mapping):
            ref = value.get("$ref")
            if isinstance(ref, str) and not ref.startswith("#"):
                yield jp.join(pointer, "$ref"), ref
            stack.extend((jp.join(pointer, key), item) for key, item in value.items() if key not in ("const", "enum"))
        elif isinstance(value, list):
            stack.extend((jp.join(pointer, index), item) for index, item in enumerate(value))


def _local_refs(schema: object) -> Iterator[tuple[str, str]]:
    stack: list[tuple[str, object]] = [("", schema)]
    while stack:
        pointer, value = stack.pop()
        if isinstance(value, Mapping):
            ref = value.get("$ref")
            if isinstance(ref, str) and ref.startswith("#"):
                yield pointer, ref
            stack.extend((jp.join(pointer, key), item) for key, item in value.items() if key not in ("const", "enum"))
        elif isinstance(value, list):
            stack.extend((jp.join(pointer, index), item) for index, item in enumerate(value))


def _anchors(schema: object) -> set[str]:
    found: set[str] = set()
    stack = [schema]
    while stack:
        value = stack.pop()
        if isinstance(value, Mapping):
            for key in ("$anchor", "$dynamicAnchor"):
                if isinstance(value.get(key), str):
                    found.add(value[key])
            stack.extend(item for key, item in value.items() if key not in ("const", "enum"))
        elif isinstance(value, list):
            stack.extend(value)
    return found


def _resolves(schema: object, ref: str, anchors: set[str]) -> bool:
    """Whether a same-document reference ("#/$defs/x" or "#anchor") names something."""
    fragment = unquote(ref[1:])
    if fragment and not fragment.startswith("/"):
        return fragment in anchors
    target: Any = schema
    for part in jp.split(fragment):
        if isinstance(target, Mapping) and part in target:
            target = target[part]
        elif isinstance(target, list) and part.isdigit() and int(part) < len(target):
            target = target[int(part)]
        else:
            return False
    return True


@lru_cache(maxsize=512)
def _compile(text: str) -> Compiled:
    schema = json.loads(text)
    refs = tuple(sorted(external_refs(schema)))
    declared = schema.get("$schema") if isinstance(schema, dict) else None
    if declared is None:
        cls: Dialect = Draft202012Validator
    elif isinstance(declared, str) and declared in DIALECTS:
        cls = DIALECTS[declared]
    else:
        return Compiled(None, unsupported_dialect=str(declared), external_refs=refs)
    try:
        if not _meta_schema_accepts(cls, schema):
            cls.check_schema(schema, format_checker=_META_FORMATS[cls])
    except SchemaError as exc:
        where = "/".join(str(p) for p in exc.absolute_path)
        return Compiled(None, invalid=f"{exc.message}" + (f" (at {where})" if where else ""), external_refs=refs)
    anchors = _anchors(schema)  # once: walking the schema per "#name" reference is quadratic
    for at, ref in _local_refs(schema):
        if not _resolves(schema, ref, anchors):
            return Compiled(
                None, invalid=f"$ref {ref!r} at {at or '/'} points at nothing in the schema", external_refs=refs
            )
    # An empty registry: a reference outside the schema is never retrieved.
    return Compiled(_LINEAR[cls](schema, registry=Registry()), external_refs=refs)


def compile_schema(schema: object) -> Compiled:
    """The schema compiled, once per distinct schema text. Writing out the text is most of
    the cost of finding a compiled schema, so callers keep the result by schema object
    (``Document.compiled_schema``)."""
    with stack_headroom():
        try:
            return _compile(json.dumps(schema, sort_keys=True, ensure_ascii=False))
        except RecursionError:
            # The meta-schema check recurses about ten frames per level of the schema.
            return Compiled(None, unchecked=TOO_DEEP, external_refs=tuple(sorted(external_refs(schema))))


def check_instance(compiled: Compiled, instance: Any, budget: Budget) -> InstanceCheck:
    """Check ``instance`` against the schema, spending from ``budget``."""
    if compiled.validator is None:
        return InstanceCheck([])
    errors: list[InstanceError] = []
    with evaluating(budget) as evaluation, stack_headroom():
        try:
            for problem in compiled.validator.iter_errors(instance):
                errors.append(InstanceError(tuple(problem.absolute_path), problem.message))
                if len(errors) >= MAX_ERRORS:
                    break
        except referencing.exceptions.Unresolvable:
            return InstanceCheck([], unresolvable=True)
        except RecursionError:
            evaluation.note(TOO_DEEP)
        except OutOfWork:
            evaluation.note(OVER_BUDGET)
    reasons = list(evaluation.unchecked)
    if len(reasons) > MAX_REASONS:  # a schema may hold thousands of unmatchable patterns
        reasons[MAX_REASONS:] = [f"{len(reasons) - MAX_REASONS} more parts could not be checked"]
    return InstanceCheck(errors, tuple(reasons))


__all__ = [
    "DIALECTS",
    "TOO_DEEP",
    "Compiled",
    "InstanceCheck",
    "InstanceError",
    "check_instance",
    "compile_schema",
    "external_refs",
]
