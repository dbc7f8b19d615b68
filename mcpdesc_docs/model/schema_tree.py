"""A JSON Schema (tool input/output) -> rows of a readable parameter table.

Nested properties, array items, additional properties and composition branches become
indented rows; constraints are spelled out in words; local ``$ref``s into ``$defs`` are
followed, each definition expanded once per table (later uses link to it, so shared and
recursive definitions cost their size, once) and external ones are named, never fetched.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Any

from ..records import record
from ..source import pointer as jp
from .urls import UniqueNames

MAX_DEPTH = 12
"""Deeper levels are summarised; the JSON view beside the table still shows everything."""
ROW_WEIGHT = 600
"""Bytes a table row costs on a page, in its twin and in the search index, about."""
MAX_ROWS = 2000
"""Rows shown per table; the rest are counted in a last row (a schema this wide is read
in its JSON view anyway, and the page stays a bounded size)."""

_COMBINATORS = (("oneOf", "exactly one of"), ("anyOf", "any of"), ("allOf", "all of"))


@record
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
    default_outside_type: bool = False
    """The default is ``null`` but the type does not admit null (in effect, no default)."""
    examples: tuple[str, ...] = ()
    reference: str | None = None
    """The ``$ref`` this row's schema came through."""
    flags: tuple[str, ...] = ()
    """deprecated, read-only, write-only, nullable ..."""
    listed_at: str | None = None
    """When this subschema's members are listed elsewhere in the table (a definition used
    before, or recursively): the anchor of the row that lists them."""
    listed_as: str | None = None
    """What the link to ``listed_at`` says: the definition's name."""


OPEN_DEPTH = 2
"""Nested groups of rows shown open: those under the first two levels of rows (a top-level
array's items and their properties); deeper ones start folded."""
MAX_NESTED = 6
"""Levels of rows folded into groups of their own; deeper rows stay in their group, indented."""


@record
class RowGroup:
    """A row and the rows nested under it (its properties, items or options), which a
    table folds (``<details>``), so a deep schema reads as an outline."""

    row: SchemaRow
    children: tuple[RowGroup, ...]

    @property
    def open(self) -> bool:
        return self.row.depth < OPEN_DEPTH

    @property
    def all_properties(self) -> bool:
        """Whether every nested row is a property (then the fold can say "N properties")."""
        return all(child.row.is_property for child in self.children)


def group_rows(rows: tuple[SchemaRow, ...] | list[SchemaRow]) -> tuple[RowGroup, ...]:
    """The table's flat rows (each with its depth) as an outline: a row owns the rows after
    it that are deeper, up to ``MAX_NESTED`` levels (past that, rows are leaves). Linear:
    each row is pushed on and popped off the stack of open groups once."""
    top: list[RowGroup] = []
    stack: list[tuple[int, SchemaRow, list[RowGroup]]] = []

    def close() -> None:
        _, row, children = stack.pop()
        group = RowGroup(row, tuple(children))
        (stack[-1][2] if stack else top).append(group)

    for row in rows:
        level = min(row.depth, MAX_NESTED)
        while stack and stack[-1][0] >= level:
            close()
        stack.append((level, row, []))
    while stack:
        close()
    return tuple(top)


@record
class ShownElsewhere:
    """A component used again where showing it in full once more would outgrow the site's
    budget for repeats (``components.Repeats``): this use links to the first one."""

    component: str
    """``#/components/<namespace>/<name>``."""
    path: str
    """Where it is shown in full: a site path with the anchor of that section or card."""
    page: str
    """The name of the page it is shown on."""


@record
class SchemaTree:
    rows: tuple[SchemaRow, ...]
    root_types: tuple[str, ...]
    root_description: str | None
    root_constraints: tuple[str, ...]
    json: str
    """The schema as written, pretty-printed."""
    component: str | None = None
    """``#/components/schemas/<name>`` when the schema came from a component."""
    omitted_rows: int = 0
    """Rows past ``MAX_ROWS``, left out of the table (the JSON view has them all)."""
    shown_elsewhere: ShownElsewhere | None = None
    """Set (and nothing else shown) when the component is shown in full on another page."""

    @property
    def top_properties(self) -> tuple[SchemaRow, ...]:
        """The properties at the schema's top level (what "On this page" lists)."""
        return tuple(row for row in self.rows if row.depth == 0 and row.is_property)

    @property
    def weight(self) -> int:
        """About what the table costs a page (its JSON view, rows, their twin lines and
        search entries), in bytes: what a repeat is charged."""
        return len(self.json) + ROW_WEIGHT * len(self.rows)


def linked_tree(link: ShownElsewhere) -> SchemaTree:
    """The stand-in for a table shown on another page."""
    return SchemaTree((), (), None, (), "", component=link.component, shown_elsewhere=link)


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


_SENTINELS = frozenset({2**31 - 1, 2**32 - 1, 2**53 - 1, 2**53, 2**63 - 1, 2**64 - 1, 1.7976931348623157e308})
"""Bounds that say "as large as the language allows" (``Number.MAX_SAFE_INTEGER``,
``INT_MAX`` ...): no bound a reader needs to know as a number."""


def _bound(schema: Mapping[str, Any], key: str) -> str | None:
    """A numeric bound as text; None when absent or a sentinel (see ``_SENTINELS``)."""
    value = schema.get(key)
    if isinstance(value, int | float) and not isinstance(value, bool) and abs(value) in _SENTINELS:
        return None
    return number_text(value)


def _sentinel(schema: Mapping[str, Any], *keys: str) -> bool:
    return any(number_text(schema.get(key)) is not None and _bound(schema, key) is None for key in keys)


def describe_constraints(schema: Mapping[str, Any]) -> tuple[str, ...]:
    """Constraints in plain words, in a stable order."""
    words: list[str] = []
    low, high = _bound(schema, "minimum"), _bound(schema, "maximum")
    xlow, xhigh = _bound(schema, "exclusiveMinimum"), _bound(schema, "exclusiveMaximum")
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
    if _sentinel(schema, "maximum", "exclusiveMaximum") and high is None and xhigh is None:
        words.append("no upper bound")
    if _sentinel(schema, "minimum", "exclusiveMinimum") and low is None and xlow is None:
        words.append("no lower bound")
    if (step := number_text(schema.get("multipleOf"))) is not None:
        words.append(f"multiple of {step}")
    for low_key, high_key, unit in (
        ("minLength", "maxLength", "characters"),
        ("minItems", "maxItems", "items"),
        ("minProperties", "maxProperties", "properties"),
    ):
        lo, hi = _bound(schema, low_key), _bound(schema, high_key)
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


_JSON_TYPES: tuple[tuple[type, str], ...] = ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"))


def _value_type(value: object) -> str:
    """The JSON type of a literal (an enum value or const)."""
    if value is None:
        return "null"
    for python, name in _JSON_TYPES:
        if isinstance(value, python):
            return name
    return "array" if isinstance(value, list) else "object"


def _declared_types(schema: Mapping[str, Any]) -> tuple[str, ...]:
    kind = schema.get("type")
    if isinstance(kind, str):
        return (kind,)
    if isinstance(kind, list):
        return tuple(str(k) for k in kind)
    return ()


def _branch_types(schema: Mapping[str, Any]) -> tuple[str, ...]:
    """The types a ``oneOf``/``anyOf`` admits when every inline branch says (``oneOf:
    [{type: string}, {type: integer}]`` is "string or integer", not "any")."""
    found: dict[str, None] = {}
    for keyword in ("oneOf", "anyOf"):
        branches = schema.get(keyword)
        if not isinstance(branches, list) or not branches:
            continue
        for branch in branches:
            types = _declared_types(branch) if isinstance(branch, Mapping) else ()
            if not types and isinstance(branch, Mapping) and "const" in branch:
                types = (_value_type(branch["const"]),)
            if not types:
                return ()  # a branch of unknown type: the union is not known either
            found.update(dict.fromkeys(types))
    return tuple(found)


def _item_type(schema: Mapping[str, Any]) -> str | None:
    """What an array holds, when its items say in one word (``object`` for ``object[]``)."""
    items = schema.get("items")
    if not isinstance(items, Mapping):
        return None
    declared = _declared_types(items)
    if len(declared) == 1 and declared[0] != "array":
        return declared[0]
    if not declared and isinstance(items.get("properties"), Mapping):
        return "object"
    ref = items.get("$ref")
    if not declared and isinstance(ref, str):
        return _definition_name(ref)
    return None


def _types(schema: Mapping[str, Any]) -> tuple[str, ...]:
    declared = _declared_types(schema)
    if "array" in declared and (held := _item_type(schema)) is not None:
        return tuple(f"{held}[]" if kind == "array" else kind for kind in declared)
    if declared:
        return declared
    if "const" in schema:
        return ("const",)
    if "enum" in schema:
        return ("enum",)
    if isinstance(schema.get("properties"), Mapping):
        return ("object",)
    return _branch_types(schema)


def _default_outside_type(schema: Mapping[str, Any], types: tuple[str, ...]) -> bool:
    """``default: null`` on a parameter whose type does not admit null: a validator would
    refuse the value, so in effect the parameter has no default (worth saying)."""
    if "default" not in schema or schema["default"] is not None:
        return False
    real = [t for t in types if t not in ("const", "enum")]
    return bool(real) and "null" not in real and schema.get("nullable") is not True


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


class _Refined(Mapping[str, Any]):
    """A ``$ref``'s target with the keywords written beside the ``$ref`` taking precedence."""

    def __init__(self, siblings: Mapping[str, Any], target: Mapping[str, Any]) -> None:
        self.siblings, self.target = siblings, target

    def __getitem__(self, key: str) -> Any:
        return self.siblings[key] if key in self.siblings else self.target[key]

    def __iter__(self) -> Iterator[str]:
        yield from self.siblings
        yield from (key for key in self.target if key not in self.siblings)

    def __len__(self) -> int:
        return len(self.siblings) + sum(1 for key in self.target if key not in self.siblings)


class _TreeBuilder:
    """Walks a schema once, listing each subschema's members at most once.

    A ``$ref`` (or ``$defs`` entry) used in several places would otherwise be expanded at
    every use, and definitions that refer to each other several times per level multiply:
    a few kilobytes of schema could ask for millions of rows. So every subschema (keyed
    by identity: the tree is walked from one freshly parsed value) is expanded where it is
    first reached; later uses get a row of their own that links to that first expansion,
    and uses inside their own expansion are recursive. Each subschema is then expanded
    once, so the rows grow with the schema's size, not with the ways to reach its parts."""

    def __init__(self, root: Mapping[str, Any], prefix: str) -> None:
        self.root = root
        self.prefix = prefix
        self.rows: list[SchemaRow] = []
        self.omitted = 0
        self.anchors = UniqueNames()
        self.listed: dict[int, tuple[str, str]] = {}
        """Subschemas whose members are listed, by id: the anchor and name of that row."""

    def _anchor(self, path: str) -> str:
        return self.anchors.take(f"{self.prefix}-{path}")

    def _full(self) -> bool:
        if len(self.rows) < MAX_ROWS:
            return False
        # Past the cap the walk goes on only to count what is left out (it is linear).
        self.omitted += 1
        return True

    def _deref(self, schema: Mapping[str, Any]) -> tuple[Mapping[str, Any], str | None, Mapping[str, Any]]:
        """Follow a local ``$ref``. Returns (schema to show, ref, the subschema it lists)."""
        ref = schema.get("$ref")
        if not isinstance(ref, str):
            return schema, None, schema
        if not ref.startswith("#"):
            return schema, ref, schema  # external: shown by name, never fetched
        try:
            target: Any = self.root
            for part in jp.split(ref[1:]):
                target = target[part] if isinstance(target, Mapping) else target[int(part)]
        except (KeyError, IndexError, ValueError, TypeError):
            return schema, ref, schema
        if not isinstance(target, Mapping):
            return schema, ref, schema
        # Sibling keywords next to $ref (2020-12) refine the target: show both. A view, not
        # a copy: a definition with many members may be used many times.
        siblings = {k: v for k, v in schema.items() if k != "$ref"}
        return (_Refined(siblings, target) if siblings else target), ref, target

    def add(
        self,
        name: str,
        path: str,
        schema: object,
        depth: int,
        *,
        is_property: bool,
        required: bool,
        ancestors: tuple[int, ...] = (),
    ) -> None:
        if not isinstance(schema, Mapping):
            if not self._full():
                # Boolean schemas: true accepts anything, false nothing.
                label = "anything" if schema is True else "nothing (always invalid)"
                self.rows.append(SchemaRow(name, self._anchor(path), depth, is_property, (label,), required))
            return
        resolved, ref, target = self._deref(schema)
        recursive = id(target) in ancestors
        if recursive:
            resolved = schema  # the reference itself: its target is being listed above
        first = self.listed.get(id(target))
        anchor = ""  # rows past the cap are only counted (and everything after them is)
        if not self._full():
            row = self._row(name, path, resolved, depth, is_property, required, ref, recursive, first)
            self.rows.append(row)
            anchor = row.anchor
        if recursive:
            return
        if first is not None:
            # Listed where first used; what this use adds beside its $ref is its own.
            if ref is not None:
                self.children({k: v for k, v in schema.items() if k != "$ref"}, path, depth + 1, ancestors)
            return
        if depth + 1 <= MAX_DEPTH:  # else its members are not listed here, so a later use may
            self.listed[id(target)] = (anchor, _definition_name(ref) or name)
        self.children(resolved, path, depth + 1, (*ancestors, id(target)))

    def _row(
        self,
        name: str,
        path: str,
        resolved: Mapping[str, Any],
        depth: int,
        is_property: bool,
        required: bool,
        ref: str | None,
        recursive: bool,
        first: tuple[str, str] | None,
    ) -> SchemaRow:
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
        types = _types(resolved)
        return SchemaRow(
            name=name,
            anchor=self._anchor(path),
            depth=depth,
            is_property=is_property,
            types=types,
            required=required,
            title=title if isinstance(title, str) else None,
            description=description if isinstance(description, str) else None,
            constraints=constraints,
            choices=choices,
            default=_literal(resolved["default"]) if "default" in resolved else None,
            default_outside_type=_default_outside_type(resolved, types),
            examples=tuple(_literal(v) for v in examples) if isinstance(examples, list) else (),
            reference=ref,
            flags=_flags(resolved),
            listed_at=first[0] if first is not None else None,
            listed_as=(_definition_name(ref) or first[1]) if first is not None else None,
        )

    def children(self, schema: Mapping[str, Any], path: str, depth: int, ancestors: tuple[int, ...]) -> None:
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
                    ancestors=ancestors,
                )
        for name in sorted(n for n in required_names if isinstance(n, str)):
            if (not isinstance(properties, Mapping) or name not in properties) and not self._full():
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
                    ancestors=ancestors,
                )
        additional = schema.get("additionalProperties")
        if isinstance(additional, Mapping):
            self.add(
                "any other name",
                f"{path}.additional",
                additional,
                depth,
                is_property=False,
                required=False,
                ancestors=ancestors,
            )
        items = schema.get("items")
        if isinstance(items, Mapping):
            self.add("each item", f"{path}.items", items, depth, is_property=False, required=False, ancestors=ancestors)
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
                    ancestors=ancestors,
                )
        for keyword, words in _COMBINATORS:
            branches = schema.get(keyword)
            if isinstance(branches, list):
                for index, sub in enumerate(branches):
                    self.add(
                        f"{words}: {_alternative_name(sub, index)}",
                        f"{path}.{keyword}{index + 1}",
                        sub,
                        depth,
                        is_property=False,
                        required=False,
                        ancestors=ancestors,
                    )
        for keyword, words in (("not", "must not match"), ("if", "if"), ("then", "then"), ("else", "else")):
            sub = schema.get(keyword)
            if isinstance(sub, Mapping):
                self.add(words, f"{path}.{keyword}", sub, depth, is_property=False, required=False, ancestors=ancestors)


def _alternative_name(branch: object, index: int) -> str:
    """What a oneOf/anyOf/allOf branch is called: its title, its const, the definition it
    refers to, the properties it requires or has, else its type; numbered when none says."""
    if isinstance(branch, Mapping):
        if isinstance(branch.get("title"), str) and branch["title"].strip():
            return str(branch["title"])
        if "const" in branch:
            return _literal(branch["const"])
        name = _definition_name(branch.get("$ref")) if isinstance(branch.get("$ref"), str) else None
        if name:
            return name
        declared = branch.get("properties")
        properties: Mapping[str, Any] = declared if isinstance(declared, Mapping) else {}
        tag = _discriminator(properties)
        if tag:
            return tag
        keys = [k for k in branch.get("required", ()) if isinstance(k, str)] or list(properties)
        if keys:
            shown = ", ".join(keys[:3]) + (", …" if len(keys) > 3 else "")
            return f"with {shown}"
        types = _types(branch)
        if types:
            return " or ".join(types)
    return f"option {index + 1}"


def _discriminator(properties: Mapping[str, Any]) -> str | None:
    """A branch's tag: the first property with a const or a short enum (``type "image"``),
    which is how a reader tells the branches apart."""
    for key, sub in list(properties.items())[:20]:
        if not isinstance(sub, Mapping):
            continue
        if "const" in sub:
            return f"{key} {_literal(sub['const'])}"
        values = sub.get("enum")
        if isinstance(values, list) and 0 < len(values) <= 3:
            return f"{key} " + " or ".join(_literal(v) for v in values)
    return None


def _definition_name(ref: str | None) -> str | None:
    """What a local reference's target is called: the last segment of its pointer."""
    if ref is None or not ref.startswith("#/"):
        return None
    return jp.split(ref[1:])[-1] or None


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
    resolved, _, target = builder._deref(root)
    # The root has no row: a reference back to it (or to what it refers to) is recursive.
    builder.children(resolved, "", 0, (id(root), id(target)))
    description = resolved.get("description")
    return SchemaTree(
        rows=tuple(builder.rows),
        omitted_rows=builder.omitted,
        root_types=_types(resolved),
        root_description=description if isinstance(description, str) else None,
        root_constraints=describe_constraints(resolved),
        json=dump_json(schema),
        component=component,
    )
