"""Embedded JSON Schemas (tool input/output, elicitation requests): dialects, compilation
and instance validation, offline. Compiled validators are cached, so validating a
description many times compiles each distinct schema once.

The schemas and the examples checked against them are untrusted: patterns are matched by
RE2 and evaluation is paid for from the document's budget (:mod:`.schema_keywords`), and
the recursive evaluator runs with fixed stack headroom, so a schema too deep or
self-referential to evaluate makes the check incomplete instead of crashing it.

Two engines share the work. jsonschema-rs (compiled) checks schemas against their
meta-schema and, for schemas whose evaluation is provably bounded and means the same in
both engines, examples against them: its "valid" is final. Anything else, and every
"invalid", goes to jsonschema (:mod:`.schema_evaluation`), which words the problems: so
a valid description is checked without importing jsonschema, and the diagnostics of an
invalid one are jsonschema's, as before."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from ..records import record
from ..source import pointer as jp
from . import formats
from .budget import TOO_DEEP, Budget, stack_headroom
from .compiled_schema import Untranslatable, translated

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

DRAFT_2020_12 = "2020-12"
DRAFT_07 = "draft-07"

DIALECTS: dict[str, str] = {
    "https://json-schema.org/draft/2020-12/schema": DRAFT_2020_12,
    "https://json-schema.org/draft/2020-12/schema#": DRAFT_2020_12,
    "http://json-schema.org/draft-07/schema": DRAFT_07,
    "http://json-schema.org/draft-07/schema#": DRAFT_07,
}
"""The dialects Tool schemas may declare (MCP 2025-11-25 and later default to 2020-12)."""

_META_SCHEMA_URIS = {
    DRAFT_2020_12: "https://json-schema.org/draft/2020-12/schema",
    DRAFT_07: "http://json-schema.org/draft-07/schema#",
}

MAX_ERRORS = 5
MAX_REASONS = 3
"""Reasons for skipping parts of a check that are named; the others are counted."""

COMPILED_META_NESTING = 1000
"""Nesting of a schema up to which the compiled meta-schema checks it: jsonschema-rs
recurses on the machine stack (20,000 levels crashed the process; 6,000 did not), and a
description is never deeper than 1,000 (``limits.max_depth``'s ceiling)."""

COMPILED_CHECK_NESTING = 64
"""Nesting of a schema, and of a value, up to which the compiled copy checks values:
within it jsonschema evaluates every schema too (beyond, it may run out of stack and call
the check incomplete, which the compiled copy must not contradict)."""

COMPILED_PAIR_COST = 10
"""What the compiled copy's check of a value is charged per (schema value, value) pair: a
bound on its work (each part of a schema without references is applied at most once to
each part of the value), priced at about 100 ns a pair."""

NOT_COMPILED = frozenset(
    {
        "$ref",
        "$dynamicRef",
        "$recursiveRef",
        "unevaluatedProperties",
        "unevaluatedItems",
        "multipleOf",
        "contentEncoding",
        "contentMediaType",
        "contentSchema",
    }
)
"""Keywords with which values are checked by jsonschema only: references, through which
evaluation is not bounded by the schema's size; ``unevaluated*``, which re-evaluate their
siblings; ``multipleOf``, whose floating-point arithmetic differs between the engines; the
content keywords, which jsonschema-rs asserts in draft-07 and jsonschema does not."""


@cache
def _compiled_meta_schema(dialect: str) -> Callable[[Any], bool] | None:
    """``is_valid`` of the dialect's meta-schema compiled by jsonschema-rs (the copy it
    carries), or None if it cannot be compiled. jsonschema checks a schema of 20,000
    properties against the meta-schema in 12 s (a descent per keyword, a URL join per
    ``$dynamicRef``); jsonschema-rs in 0.04 s. Its formats are checked as jsonschema
    checks them (:mod:`.formats`), so that its "valid" means what jsonschema's does."""
    import jsonschema_rs

    uri = _META_SCHEMA_URIS[dialect]
    try:
        # Offline: the meta-schemas' own references are to meta-schemas it carries.
        validator = jsonschema_rs.validator_for(
            {"$schema": uri, "$ref": uri}, validate_formats=True, formats=formats.checkers(), offline=True
        )
    except (ValueError, jsonschema_rs.ValidationError, jsonschema_rs.ReferencingError):
        return None
    return validator.is_valid


def _meta_schema_accepts(dialect: str, schema: object, deepest: int) -> bool:
    """True only when the schema (``deepest`` levels deep) is valid under the dialect's
    meta-schema (False: ask jsonschema, which then words the problem)."""
    is_valid = _compiled_meta_schema(dialect)
    if is_valid is None or deepest > COMPILED_META_NESTING:
        return False
    try:
        return bool(is_valid(schema))
    except Exception:  # noqa: BLE001 - a value it cannot convert, a checker that raised: ask jsonschema
        return False


@record
class Compiled:
    dialect: str | None
    """None when the schema cannot be used (unsupported dialect or invalid)."""
    text: str = ""
    """The schema's canonical JSON text (what jsonschema's evaluator is built from)."""
    compiled_check: Callable[[Any], bool] | None = None
    """jsonschema-rs's ``is_valid`` where its verdict is final (see NOT_COMPILED)."""
    size: int = 0
    """Values in the schema: what bounds the compiled check's work."""
    unsupported_dialect: str | None = None
    invalid: str | None = None
    """Why the schema is not a valid schema of its dialect."""
    external_refs: tuple[tuple[str, str], ...] = ()
    """(pointer inside the schema, $ref) for references that would need a download."""
    unchecked: str | None = None
    """Why the schema itself could not be checked (then it is not used either)."""

    @property
    def validator(self) -> Validator | None:
        """jsonschema's budgeted evaluator of the schema (imports jsonschema), or None."""
        if self.dialect is None:
            return None
        from .schema_evaluation import evaluator

        return evaluator(self.text, self.dialect)


@record
class InstanceError:
    path: tuple[str | int, ...]
    message: str


@record
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


def _compiled_check(schema: object, dialect: str, deepest: int, keys: set[str]) -> Callable[[Any], bool] | None:
    """jsonschema-rs's ``is_valid`` for values of ``schema`` (``deepest`` levels deep, its
    objects holding ``keys``) where its verdict is final; None elsewhere."""
    if deepest > COMPILED_CHECK_NESTING or keys & NOT_COMPILED:
        return None
    import jsonschema_rs

    try:
        # Patterns only in the subset RE2 (which jsonschema's side matches with) and Rust's
        # linear regex crate read alike.
        rust_schema = translated(schema, set(), ecma_properties=True)
        engine = jsonschema_rs.Draft7Validator if dialect == DRAFT_07 else jsonschema_rs.Draft202012Validator
        validator = engine(
            rust_schema, validate_formats=False, offline=True, pattern_options=jsonschema_rs.RegexOptions()
        )
    except (
        Untranslatable,
        ValueError,
        TypeError,
        OverflowError,
        jsonschema_rs.ValidationError,
        jsonschema_rs.ReferencingError,
    ):
        return None
    return validator.is_valid


def _measure(value: object, keys: set[str] | None = None) -> tuple[int, int]:
    """(values, deepest nesting) of a JSON value, iteratively; every object key is added
    to ``keys`` when given."""
    size = deepest = 0
    stack = [(value, 0)]
    while stack:
        current, depth = stack.pop()
        size += 1
        deepest = max(deepest, depth)
        if isinstance(current, Mapping):
            if keys is not None:
                keys.update(current)
            stack.extend((item, depth + 1) for item in current.values())
        elif isinstance(current, list):
            stack.extend((item, depth + 1) for item in current)
    return size, deepest


@lru_cache(maxsize=512)
def _compile(text: str) -> Compiled:
    schema = json.loads(text)
    refs = tuple(sorted(external_refs(schema)))
    declared = schema.get("$schema") if isinstance(schema, dict) else None
    if declared is None:
        dialect = DRAFT_2020_12
    elif isinstance(declared, str) and declared in DIALECTS:
        dialect = DIALECTS[declared]
    else:
        return Compiled(None, unsupported_dialect=str(declared), external_refs=refs)
    keys: set[str] = set()
    size, deepest = _measure(schema, keys)  # once, for both compiled checks
    if not _meta_schema_accepts(dialect, schema, deepest):
        from .schema_evaluation import meta_schema_problem

        problem = meta_schema_problem(dialect, schema)
        if problem is not None:
            return Compiled(None, invalid=problem, external_refs=refs)
    anchors = _anchors(schema)  # once: walking the schema per "#name" reference is quadratic
    for at, ref in _local_refs(schema):
        if not _resolves(schema, ref, anchors):
            return Compiled(
                None, invalid=f"$ref {ref!r} at {at or '/'} points at nothing in the schema", external_refs=refs
            )
    return Compiled(dialect, text, _compiled_check(schema, dialect, deepest, keys), size, external_refs=refs)


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


def _compiled_verdict(compiled: Compiled, instance: Any, budget: Budget) -> bool:
    """True when the compiled copy finds ``instance`` valid, paying its bound from
    ``budget``; False for "ask jsonschema" (invalid, unaffordable, too deep, unconvertible)."""
    if compiled.compiled_check is None:
        return False
    values, deepest = _measure(instance)
    if deepest > COMPILED_CHECK_NESTING:
        return False
    # uniqueItems too: jsonschema-rs hashes the items (80,000 objects in 0.02 s).
    cost = COMPILED_PAIR_COST * compiled.size * values
    if cost > budget.remaining:
        return False  # jsonschema's side checks what it can and says what it could not
    try:
        valid = bool(compiled.compiled_check(instance))
    except (ValueError, TypeError, OverflowError):  # a number or string it cannot convert
        return False
    if valid:
        budget.spend(cost)
    return valid


def check_instance(compiled: Compiled, instance: Any, budget: Budget) -> InstanceCheck:
    """Check ``instance`` against the schema, spending from ``budget``."""
    if compiled.dialect is None:
        return InstanceCheck([])
    if _compiled_verdict(compiled, instance, budget):
        return InstanceCheck([])
    from .schema_evaluation import evaluator, problems

    found, reasons, unresolvable = problems(evaluator(compiled.text, compiled.dialect), instance, budget, MAX_ERRORS)
    if unresolvable:
        return InstanceCheck([], unresolvable=True)
    if len(reasons) > MAX_REASONS:  # a schema may hold thousands of unmatchable patterns
        reasons[MAX_REASONS:] = [f"{len(reasons) - MAX_REASONS} more parts could not be checked"]
    return InstanceCheck([InstanceError(path, message) for path, message in found], tuple(reasons))


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
