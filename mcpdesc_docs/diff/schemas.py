"""Two JSON Schemas compared for a client: an input schema (what the client sends) or an
output schema (what it receives).

The rule behind every verdict: a change is breaking when some message that was fine
before is not fine now. For an input, that is the schema accepting less (a parameter
required, a type or a bound narrowed, an enum value removed); for an output, the server
sending what the old schema ruled out (a field removed or no longer required, a type or
an enum widened). Bounds, patterns and formats of outputs describe the server and are
reported as non-breaking either way. The walk follows local ``$ref``s, is a loop over
nodes with a budget, and stops at a cycle.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..records import record
from ..source import pointer as jp
from ..validation.document import as_object
from .change import ABSENT, Level
from .values import canonical, differs

MAX_NODES = 20_000
"""Schema nodes compared per pair of schemas (a description's schemas are bounded by its
limits; this bounds the pairs a hostile one could make)."""
MAX_REF_HOPS = 16
WORDING = ("title", "description")
UPPER_BOUNDS = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties")
LOWER_BOUNDS = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties")
SHAPE = ("pattern", "format")
ALTERNATIVES = ("anyOf", "oneOf", "allOf")
HANDLED = frozenset(
    {
        *WORDING,
        *UPPER_BOUNDS,
        *LOWER_BOUNDS,
        *SHAPE,
        *ALTERNATIVES,
        "type",
        "enum",
        "const",
        "default",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "examples",
        "$schema",
        "$defs",
        "definitions",
        "$id",
        "$comment",
    }
)


@record
class SchemaChange:
    level: Level
    code: str
    field: str
    """The parameter or field it concerns (``filters.status``; "" for the schema itself)."""
    keyword: str
    """The schema keyword that changed (``maximum``), or "" for the field as a whole."""
    message: str
    old_at: str | None
    """Pointer below the old schema's own pointer (None: absent there)."""
    new_at: str | None
    old_value: object = ABSENT
    new_value: object = ABSENT


def _types(schema: Mapping[str, Any]) -> frozenset[str] | None:
    declared = schema.get("type")
    if isinstance(declared, str):
        return frozenset({declared})
    if isinstance(declared, list):
        return frozenset(t for t in declared if isinstance(t, str))
    return None


def _within(inner: frozenset[str] | None, outer: frozenset[str] | None) -> bool:
    """Whether every value of type ``inner`` is of type ``outer`` (None: any type)."""
    if outer is None:
        return True
    if inner is None:
        return False
    return all(t in outer or (t == "integer" and "number" in outer) for t in inner)


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


class SchemaComparison:
    """One pair of schemas compared (``input`` says which way is breaking)."""

    def __init__(self, old_root: object, new_root: object, *, input: bool) -> None:
        self._roots = (old_root, new_root)
        self._input = input
        self._nodes = 0
        self.truncated = False
        self.membership: list[SchemaChange] = []
        """Properties added, removed, made required or optional (found as the walk passes)."""

    def _level(self, accepts_less: bool) -> Level:
        """Breaking when the schema accepts less (input) or more (output)."""
        return Level.BREAKING if accepts_less == self._input else Level.NON_BREAKING

    def _deref(self, side: int, node: object, at: str) -> tuple[object, str]:
        for _ in range(MAX_REF_HOPS):
            ref = node.get("$ref") if isinstance(node, dict) else None
            if not (isinstance(ref, str) and ref.startswith("#")):
                break
            target = jp.lookup(self._roots[side], ref[1:]) if ref != "#" else self._roots[side]
            if target is None:
                break
            node, at = target, ref[1:]
        return node, at

    def changes(self) -> Iterator[SchemaChange]:
        stack: list[tuple[object, object, str, str, str]] = [(self._roots[0], self._roots[1], "", "", "")]
        seen: set[tuple[str, str]] = set()
        while stack:
            old, new, old_at, new_at, field = stack.pop()
            old, old_at = self._deref(0, old, old_at)
            new, new_at = self._deref(1, new, new_at)
            if (old_at, new_at) in seen:
                continue  # a cycle through $ref, or a definition reached twice
            seen.add((old_at, new_at))
            self._nodes += 1
            if self._nodes > MAX_NODES:
                self.truncated = True
                return
            if not isinstance(old, dict) or not isinstance(new, dict):
                if canonical(old) != canonical(new):
                    yield SchemaChange(
                        self._level(True), "schema-changed", field, "", "the schema changed", old_at, new_at, old, new
                    )
                continue
            yield from self._node(old, new, old_at, new_at, field)
            stack.extend(self._children(old, new, old_at, new_at, field))

    def _node(
        self, old: Mapping[str, Any], new: Mapping[str, Any], old_at: str, new_at: str, field: str
    ) -> Iterator[SchemaChange]:
        def change(level: Level, code: str, keyword: str, message: str) -> SchemaChange:
            return SchemaChange(
                level,
                code,
                field,
                keyword,
                message,
                jp.join(old_at, keyword) if keyword in old else None,
                jp.join(new_at, keyword) if keyword in new else None,
                old.get(keyword, ABSENT),
                new.get(keyword, ABSENT),
            )

        for keyword in WORDING:
            if differs(old, new, keyword):
                yield change(Level.DOCUMENTATION, f"{keyword}-changed", keyword, f"the {keyword} changed")
        old_types, new_types = _types(old), _types(new)
        if old_types != new_types:
            widened = _within(old_types, new_types)
            narrowed = _within(new_types, old_types)
            how = "widened" if widened and not narrowed else "narrowed" if narrowed and not widened else "changed"
            yield change(self._level(not widened), f"type-{how}", "type", f"the type {how}")
        yield from self._enum(old, new, change)
        if differs(old, new, "const"):
            yield change(self._level("const" in new), "const-changed", "const", "the constant value changed")
        for keyword in UPPER_BOUNDS + LOWER_BOUNDS:
            yield from self._bound(keyword, old, new, change)
        for keyword in SHAPE:
            if differs(old, new, keyword):
                level = self._level(keyword in new) if self._input else Level.NON_BREAKING
                yield change(level, f"{keyword}-changed", keyword, f"the {keyword} changed")
        if differs(old, new, "default"):
            yield change(Level.NON_BREAKING, "default-changed", "default", "the default changed")
        yield from self._closed(old, new, change)
        for keyword in ALTERNATIVES:
            yield from self._alternatives(keyword, old, new, change)
        for keyword in sorted((old.keys() | new.keys()) - HANDLED):
            if differs(old, new, keyword):
                yield change(Level.NON_BREAKING, "keyword-changed", keyword, f"{keyword!r} changed")

    def _enum(self, old: Mapping[str, Any], new: Mapping[str, Any], change: Any) -> Iterator[SchemaChange]:
        if "enum" not in old and "enum" not in new:
            return
        if "enum" not in new:
            yield change(self._level(False), "enum-removed", "enum", "the list of allowed values was removed")
            return
        if "enum" not in old:
            yield change(self._level(True), "enum-added", "enum", "the values are now limited to a list")
            return
        old_values = {canonical(v) for v in old["enum"]} if isinstance(old["enum"], list) else set()
        new_values = {canonical(v) for v in new["enum"]} if isinstance(new["enum"], list) else set()
        if old_values - new_values:
            gone = ", ".join(sorted(old_values - new_values))
            yield change(self._level(True), "enum-value-removed", "enum", f"value(s) {gone} no longer allowed")
        if new_values - old_values:
            added = ", ".join(sorted(new_values - old_values))
            yield change(self._level(False), "enum-value-added", "enum", f"value(s) {added} now allowed")

    def _bound(
        self, keyword: str, old: Mapping[str, Any], new: Mapping[str, Any], change: Any
    ) -> Iterator[SchemaChange]:
        if not differs(old, new, keyword):
            return
        before, after = old.get(keyword, ABSENT), new.get(keyword, ABSENT)
        upper = keyword in UPPER_BOUNDS
        old_number, new_number = _number(before), _number(after)
        if after is ABSENT:
            tighter = False
        elif before is ABSENT or old_number is None or new_number is None:
            tighter = True
        else:
            tighter = new_number < old_number if upper else new_number > old_number
        verb = ("lowered" if upper else "raised") if tighter else ("raised" if upper else "lowered")
        if before is ABSENT:
            verb = "added"
        elif after is ABSENT:
            verb = "removed"
        level = self._level(tighter) if self._input else Level.NON_BREAKING
        yield change(level, f"{keyword}-{verb}", keyword, f"{keyword} {verb}")

    def _closed(self, old: Mapping[str, Any], new: Mapping[str, Any], change: Any) -> Iterator[SchemaChange]:
        before, after = old.get("additionalProperties", True), new.get("additionalProperties", True)
        if (before is False) == (after is False):
            return
        closed = after is False
        level = self._level(True) if (closed and self._input) else Level.NON_BREAKING
        message = "other properties are no longer accepted" if closed else "other properties are now accepted"
        yield change(level, "additional-properties-changed", "additionalProperties", message)

    def _alternatives(
        self, keyword: str, old: Mapping[str, Any], new: Mapping[str, Any], change: Any
    ) -> Iterator[SchemaChange]:
        before = {canonical(v) for v in old.get(keyword) or []} if isinstance(old.get(keyword, []), list) else set()
        after = {canonical(v) for v in new.get(keyword) or []} if isinstance(new.get(keyword, []), list) else set()
        if before == after:
            return
        if keyword == "allOf":
            yield change(self._level(bool(after - before)), "all-of-changed", keyword, "the combined schemas changed")
            return
        yield change(
            self._level(bool(before - after)), f"{keyword}-changed", keyword, f"the {keyword} alternatives changed"
        )

    def _children(
        self, old: Mapping[str, Any], new: Mapping[str, Any], old_at: str, new_at: str, field: str
    ) -> Iterator[tuple[object, object, str, str, str]]:
        old_items, new_items = old.get("items"), new.get("items")
        if isinstance(old_items, dict) and isinstance(new_items, dict):
            yield old_items, new_items, jp.join(old_at, "items"), jp.join(new_at, "items"), f"{field}[]"
        yield from self._properties(old, new, old_at, new_at, field)

    def _properties(
        self, old: Mapping[str, Any], new: Mapping[str, Any], old_at: str, new_at: str, field: str
    ) -> Iterator[tuple[object, object, str, str, str]]:
        old_props, new_props = as_object(old.get("properties")), as_object(new.get("properties"))
        old_required, new_required = _names(old.get("required")), _names(new.get("required"))
        for name in old_props:
            if name in new_props:
                yield (
                    old_props[name],
                    new_props[name],
                    jp.join(old_at, "properties", name),
                    jp.join(new_at, "properties", name),
                    f"{field}.{name}" if field else name,
                )
        self.membership.extend(
            _membership(old_props, new_props, old_required, new_required, old_at, new_at, field, self._input)
        )


def _names(value: object) -> set[str]:
    return {name for name in value if isinstance(name, str)} if isinstance(value, list) else set()


def _membership(
    old_props: Mapping[str, Any],
    new_props: Mapping[str, Any],
    old_required: set[str],
    new_required: set[str],
    old_at: str,
    new_at: str,
    field: str,
    input: bool,
) -> Iterator[SchemaChange]:
    """Properties added, removed, made required or optional."""
    names = [*old_props, *(n for n in new_props if n not in old_props)]
    names += sorted((old_required | new_required) - set(names))
    what = "parameter" if input else "field"
    for name in names:
        path = f"{field}.{name}" if field else name
        old_place = jp.join(old_at, "properties", name) if name in old_props else None
        new_place = jp.join(new_at, "properties", name) if name in new_props else None
        old_value, new_value = old_props.get(name, ABSENT), new_props.get(name, ABSENT)
        was, now = name in old_required, name in new_required
        if name in old_props and name not in new_props:
            yield SchemaChange(
                Level.BREAKING, f"{what}-removed", path, "", f"{what} {path!r} removed", old_place, None, old_value
            )
        elif name in new_props and name not in old_props:
            if input and now:
                level, code, message = Level.BREAKING, "parameter-required-added", f"required parameter {path!r} added"
            else:
                level, code, message = (
                    Level.NON_BREAKING,
                    f"{what}-added",
                    f"{'optional ' if input else ''}{what} {path!r} added",
                )
            yield SchemaChange(level, code, path, "", message, None, new_place, ABSENT, new_value)
        elif was != now:
            breaking = now if input else was
            code = f"{what}-{'required' if now else 'optional'}"
            message = f"{what} {path!r} {'now required' if now else 'no longer required'}"
            yield SchemaChange(
                Level.BREAKING if breaking else Level.NON_BREAKING,
                code,
                path,
                "required",
                message,
                jp.join(old_at, "required"),
                jp.join(new_at, "required"),
                sorted(old_required),
                sorted(new_required),
            )


def compare_schemas(old: object, new: object, *, input: bool) -> tuple[list[SchemaChange], bool]:
    """Every change between two schemas, and whether the comparison stopped at its budget."""
    comparison = SchemaComparison(old, new, input=input)
    found = list(comparison.changes())
    return [*comparison.membership, *found], comparison.truncated


__all__ = ["SchemaChange", "compare_schemas"]
