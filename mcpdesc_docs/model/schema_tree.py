"""A JSON Schema (tool input/output) -> rows of a readable parameter table.

Nested properties, array items, additional properties and composition branches become
indented rows; constraints are spelled out in words; local ``$ref``s into ``$defs`` are
followed (once per branch, so recursive schemas terminate) and external ones are named,
never fetched.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..source import pointer as jp
from .urls import UniqueNames

MAX_DEPTH = 12
"""Deeper levels are summarised; the JSON view beside the table still shows everything."""

_COMBINATORS = (("oneOf", "exactly one of"), ("anyOf", "any of"), ("allOf", "all of"))


@dataclass(frozen=True, slots=True)
class SchemaRow:
    name: str
    """Property name, or a structural label ("items", "additional properties", "option 1")."""
    anchor: str
    """A page-unique id, e.g. ``input-accuracy.white``."""
    depth: int
    is_property: bool
    types: tuple[str, ...]
    required: bool
    title: str | None = None
    description: str | None = None
    constraints: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()
    """Enum values and consts, JSON-encoded (so "0" and 0 differ visibly)."""
    default: str | None = None
    """JSON-encoded default; present even when it is ``false`` or ``0``."""
    examples: tuple[str, ...] = ()
    reference: str | None = None
    """The ``$ref`` this row's schema came through."""
    flags: tuple[str, ...] = ()
    """deprecated, read-only, write-only, nullable ..."""


@dataclass(frozen=True, slots=True)
class SchemaTree:
    rows: tuple[SchemaRow, ...]
    root_types: tuple[str, ...]
    root_description: str | None
    root_constraints: tuple[str, ...]
    json: str
    """The schema as written, pretty-printed."""
    component: str | None = None
    """``#/components/schemas/<name>`` when the schema came from a component."""


def dump_json(value: object) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def _literal(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def number_text(value: object) -> str | None:
    """A JSON number as a reader expects it (40.0 -> "40"), or None for anything else."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return str(int(value)) if isinstance(value, float) and value.is_integer() else json.dumps(value)


def _bounds(
    low: str | None, high: str | None, unit: str, *, low_strict: bool = False, high_strict: bool = False
) -> str:
    suffix = f" {unit}" if unit else ""
    if low is not None and high is not None and not (low_strict or high_strict):
        return f"{low}–{high}{suffix}" if low != high else f"exactly {low}{suffix}"
    parts = []
    if low is not None:
        parts.append(f"{'more than' if low_strict else 'at least'} {low}")
    if high is not None:
        parts.append(f"{'less than' if high_strict else 'at most'} {high}")
    return " and ".join(parts) + suffix


def describe_constraints(schema: Mapping[str, Any]) -> tuple[str, ...]:
    """Constraints in plain words, in a stable order."""
    words: list[str] = []
    low, high = number_text(schema.get("minimum")), number_text(schema.get("maximum"))
    xlow, xhigh = number_text(schema.get("exclusiveMinimum")), number_text(schema.get("exclusiveMaximum"))
    if any(v is not None for v in (low, high, xlow, xhigh)):
        words.append(
            _bounds(
                xlow if xlow is not None else low,
                xhigh if xhigh is not None else high,
                "",
                low_strict=xlow is not None,
                high_strict=xhigh is not None,
            )
        )
    if (step := number_text(schema.get("multipleOf"))) is not None:
        words.append(f"multiple of {step}")
    for low_key, high_key, unit in (
        ("minLength", "maxLength", "characters"),
        ("minItems", "maxItems", "items"),
        ("minProperties", "maxProperties", "properties"),
    ):
        lo, hi = number_text(schema.get(low_key)), number_text(schema.get(high_key))
        if lo is not None or hi is not None:
            words.append(_bounds(lo, hi, unit))
    if isinstance(schema.get("format"), str):
        words.append(f"format: {schema['format']}")
    if isinstance(schema.get("pattern"), str):
        words.append(f"matches {schema['pattern']}")
    if schema.get("uniqueItems") is True:
        words.append("unique items")
    if schema.get("additionalProperties") is False or schema.get("unevaluatedProperties") is False:
        words.append("no other properties")
    for key in ("contentMediaType", "contentEncoding"):
        if isinstance(schema.get(key), str):
            words.append(f"{key}: {schema[key]}")
    return tuple(words)


def _types(schema: Mapping[str, Any]) -> tuple[str, ...]:
    kind = schema.get("type")
    if isinstance(kind, str):
        return (kind,)
    if isinstance(kind, list):
        return tuple(str(k) for k in kind)
    if "const" in schema:
        return ("const",)
    if "enum" in schema:
        return ("enum",)
    if isinstance(schema.get("properties"), Mapping):
        return ("object",)
    return ()


def _flags(schema: Mapping[str, Any]) -> tuple[str, ...]:
    flags = []
    for key, label in (("deprecated", "deprecated"), ("readOnly", "read-only"), ("writeOnly", "write-only")):
        if schema.get(key) is True:
            flags.append(label)
    if schema.get("nullable") is True:
        flags.append("nullable")
    return tuple(flags)


_SAFE_ANCHOR = re.compile(r"[^A-Za-z0-9._-]+")


def _anchor_part(name: str) -> str:
    return _SAFE_ANCHOR.sub("-", name).strip("-") or "_"


class _TreeBuilder:
    def __init__(self, root: Mapping[str, Any], prefix: str) -> None:
        self.root = root
        self.prefix = prefix
        self.rows: list[SchemaRow] = []
        self.anchors = UniqueNames()

    def _anchor(self, path: str) -> str:
        return self.anchors.take(f"{self.prefix}-{path}")

    def _deref(self, schema: Mapping[str, Any], seen: tuple[str, ...]) -> tuple[Mapping[str, Any], str | None, bool]:
        """Follow a local ``$ref``. Returns (schema, ref, recursive)."""
        ref = schema.get("$ref")
        if not isinstance(ref, str):
            return schema, None, False
        if not ref.startswith("#"):
            return schema, ref, False  # external: shown by name, never fetched
        if ref in seen:
            return schema, ref, True
        try:
            target: Any = self.root
            for part in jp.split(ref[1:]):
                target = target[part] if isinstance(target, Mapping) else target[int(part)]
        except (KeyError, IndexError, ValueError, TypeError):
            return schema, ref, False
        if not isinstance(target, Mapping):
            return schema, ref, False
        # Sibling keywords next to $ref (2020-12) refine the target: show both.
        merged = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
        return merged, ref, False

    def add(
        self,
        name: str,
        path: str,
        schema: object,
        depth: int,
        *,
        is_property: bool,
        required: bool,
        seen: tuple[str, ...] = (),
    ) -> None:
        if not isinstance(schema, Mapping):
            # Boolean schemas: true accepts anything, false nothing.
            label = "anything" if schema is True else "nothing (always invalid)"
            self.rows.append(SchemaRow(name, self._anchor(path), depth, is_property, (label,), required))
            return
        resolved, ref, recursive = self._deref(schema, seen)
        if ref is not None and not recursive and ref.startswith("#"):
            seen = (*seen, ref)
        choices: tuple[str, ...] = ()
        if isinstance(resolved.get("enum"), list):
            choices = tuple(_literal(v) for v in resolved["enum"])
        elif "const" in resolved:
            choices = (_literal(resolved["const"]),)
        examples = resolved.get("examples")
        title, description = resolved.get("title"), resolved.get("description")
        constraints = describe_constraints(resolved)
        if recursive:
            constraints = (*constraints, "recursive: see above")
        self.rows.append(
            SchemaRow(
                name=name,
                anchor=self._anchor(path),
                depth=depth,
                is_property=is_property,
                types=_types(resolved),
                required=required,
                title=title if isinstance(title, str) else None,
                description=description if isinstance(description, str) else None,
                constraints=constraints,
                choices=choices,
                default=_literal(resolved["default"]) if "default" in resolved else None,
                examples=tuple(_literal(v) for v in examples) if isinstance(examples, list) else (),
                reference=ref,
                flags=_flags(resolved),
            )
        )
        if not recursive:
            self.children(resolved, path, depth + 1, seen)

    def children(self, schema: Mapping[str, Any], path: str, depth: int, seen: tuple[str, ...]) -> None:
        if depth > MAX_DEPTH:
            return
        required = schema.get("required")
        required_names = set(required) if isinstance(required, list) else set()
        properties = schema.get("properties")
        if isinstance(properties, Mapping):
            for name, sub in properties.items():
                self.add(
                    name,
                    f"{path}.{_anchor_part(name)}" if path else _anchor_part(name),
                    sub,
                    depth,
                    is_property=True,
                    required=name in required_names,
                    seen=seen,
                )
        for name in sorted(n for n in required_names if isinstance(n, str)):
            if not isinstance(properties, Mapping) or name not in properties:
                self.rows.append(SchemaRow(name, self._anchor(f"{path}.{_anchor_part(name)}"), depth, True, (), True))
        patterns = schema.get("patternProperties")
        if isinstance(patterns, Mapping):
            for pattern, sub in patterns.items():
                self.add(
                    f"names matching {pattern}",
                    f"{path}.pattern",
                    sub,
                    depth,
                    is_property=False,
                    required=False,
                    seen=seen,
                )
        additional = schema.get("additionalProperties")
        if isinstance(additional, Mapping):
            self.add(
                "any other name", f"{path}.additional", additional, depth, is_property=False, required=False, seen=seen
            )
        items = schema.get("items")
        if isinstance(items, Mapping):
            self.add("each item", f"{path}.items", items, depth, is_property=False, required=False, seen=seen)
        prefix_items = schema.get("prefixItems")
        if isinstance(prefix_items, list):
            for index, sub in enumerate(prefix_items):
                self.add(
                    f"item {index + 1}",
                    f"{path}.item{index + 1}",
                    sub,
                    depth,
                    is_property=False,
                    required=False,
                    seen=seen,
                )
        for keyword, words in _COMBINATORS:
            branches = schema.get(keyword)
            if isinstance(branches, list):
                for index, sub in enumerate(branches):
                    label = sub.get("title") if isinstance(sub, Mapping) and isinstance(sub.get("title"), str) else None
                    self.add(
                        f"{words}: option {index + 1}" + (f" ({label})" if label else ""),
                        f"{path}.{keyword}{index + 1}",
                        sub,
                        depth,
                        is_property=False,
                        required=False,
                        seen=seen,
                    )
        for keyword, words in (("not", "must not match"), ("if", "if"), ("then", "then"), ("else", "else")):
            sub = schema.get(keyword)
            if isinstance(sub, Mapping):
                self.add(words, f"{path}.{keyword}", sub, depth, is_property=False, required=False, seen=seen)


def build_schema_tree(schema: object, prefix: str, *, component: str | None = None) -> SchemaTree:
    """Rows for the schema's members (the root itself is summarised, not a row)."""
    # The tree is a pure function of the schema's JSON text, so it is cached by that text:
    # a `serve` rebuild redoes only the schemas that changed. Compact JSON keeps member
    # order and tells 1 from 1.0 and true, so equal text means an equal tree.
    return _tree_of_text(json.dumps(schema, ensure_ascii=False, separators=(",", ":")), prefix, component)


@lru_cache(maxsize=8192)
def _tree_of_text(text: str, prefix: str, component: str | None) -> SchemaTree:
    schema = json.loads(text)
    root = schema if isinstance(schema, Mapping) else {}
    builder = _TreeBuilder(root, prefix)
    resolved, _, _ = builder._deref(root, ())
    builder.children(resolved, "", 0, ())
    description = resolved.get("description")
    return SchemaTree(
        rows=tuple(builder.rows),
        root_types=_types(resolved),
        root_description=description if isinstance(description, str) else None,
        root_constraints=describe_constraints(resolved),
        json=dump_json(schema),
        component=component,
    )
