"""Embedded JSON Schemas (tool input/output, elicitation requests): dialects, compilation
and instance validation, offline. Compiled validators are cached, so validating a
description many times compiles each distinct schema once."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import unquote

import referencing.exceptions
from jsonschema import Draft7Validator, Draft202012Validator
from jsonschema.exceptions import SchemaError
from jsonschema.protocols import Validator
from referencing import Registry

from ..source import pointer as jp

DIALECTS: dict[str, type[Validator]] = {
    "https://json-schema.org/draft/2020-12/schema": Draft202012Validator,
    "https://json-schema.org/draft/2020-12/schema#": Draft202012Validator,
    "http://json-schema.org/draft-07/schema": Draft7Validator,
    "http://json-schema.org/draft-07/schema#": Draft7Validator,
}
"""The dialects Tool schemas may declare (MCP 2025-11-25 and later default to 2020-12)."""

MAX_ERRORS = 5


@dataclass(frozen=True, slots=True)
class Compiled:
    validator: Validator | None
    """None when the schema cannot be used (unsupported dialect or invalid)."""
    unsupported_dialect: str | None = None
    invalid: str | None = None
    """Why the schema is not a valid schema of its dialect."""
    external_refs: tuple[tuple[str, str], ...] = ()
    """(pointer inside the schema, $ref) for references that would need a download."""


@dataclass(frozen=True, slots=True)
class InstanceError:
    path: tuple[str | int, ...]
    message: str


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


def _resolves(schema: object, ref: str) -> bool:
    """Whether a same-document reference ("#/$defs/x" or "#anchor") names something."""
    fragment = unquote(ref[1:])
    if fragment and not fragment.startswith("/"):
        return fragment in _anchors(schema)
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
        cls: type[Validator] = Draft202012Validator
    elif isinstance(declared, str) and declared in DIALECTS:
        cls = DIALECTS[declared]
    else:
        return Compiled(None, unsupported_dialect=str(declared), external_refs=refs)
    try:
        cls.check_schema(schema)
    except SchemaError as exc:
        where = "/".join(str(p) for p in exc.absolute_path)
        return Compiled(None, invalid=f"{exc.message}" + (f" (at {where})" if where else ""), external_refs=refs)
    for at, ref in _local_refs(schema):
        if not _resolves(schema, ref):
            return Compiled(
                None, invalid=f"$ref {ref!r} at {at or '/'} points at nothing in the schema", external_refs=refs
            )
    # An empty registry: a reference outside the schema is never retrieved.
    return Compiled(cls(schema, registry=Registry()), external_refs=refs)


def compile_schema(schema: object) -> Compiled:
    return _compile(json.dumps(schema, sort_keys=True, ensure_ascii=False))


def instance_errors(compiled: Compiled, instance: Any) -> list[InstanceError] | None:
    """Up to MAX_ERRORS problems, or None when validation cannot be completed offline."""
    if compiled.validator is None:
        return []
    errors: list[InstanceError] = []
    try:
        for problem in compiled.validator.iter_errors(instance):
            errors.append(InstanceError(tuple(problem.absolute_path), problem.message))
            if len(errors) >= MAX_ERRORS:
                break
    except referencing.exceptions.Unresolvable:
        return None
    return errors


__all__ = ["DIALECTS", "Compiled", "InstanceError", "compile_schema", "external_refs", "instance_errors"]
