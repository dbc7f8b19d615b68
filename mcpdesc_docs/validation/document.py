"""A read-only view of a structurally checked description that the semantic rules share:
primitives with their effective protocol scopes, elicitation declarations, and resolved
component references."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..kinds import BY_NAME, KINDS
from ..source import pointer as jp
from ..spec.revisions import REVISIONS
from ..spec.versions import Specification
from .budget import Budget
from .json_schema import Compiled, InstanceCheck, check_instance, compile_schema
from .registry import Finding

JsonObject = Mapping[str, Any]

COMPONENT_REF = "$componentRef"


def as_object(value: object) -> JsonObject:
    return value if isinstance(value, dict) else {}


def as_list(value: object) -> Sequence[Any]:
    return value if isinstance(value, list) else []


def strings(value: object) -> list[str]:
    return [item for item in as_list(value) if isinstance(item, str)]


def explicit_scope(declaration: JsonObject) -> tuple[str, ...] | None:
    scope = declaration.get("protocolVersions")
    if isinstance(scope, list):
        return tuple(item for item in scope if isinstance(item, str))
    return None


def has_explicit_scope(declaration: JsonObject) -> bool:
    """Whether a declaration names its own protocol scope (else it inherits its parent's)."""
    return explicit_scope(declaration) is not None


def is_reference(value: object) -> bool:
    return isinstance(value, dict) and COMPONENT_REF in value


@dataclass(frozen=True, slots=True)
class Resolved:
    """A use site's value after following ``$componentRef`` chains."""

    value: Any
    pointer: str
    """Where the value itself lives (the component, when the use site is a reference)."""
    via: str | None
    """The use site's pointer when the value came from a component, else None."""


@dataclass(frozen=True, slots=True)
class Primitive:
    kind: str
    """tool, resource, resource-template or prompt."""
    pointer: str
    data: JsonObject
    scope: tuple[str, ...]
    """The effective protocol scope (explicit, else the root's)."""

    @property
    def scope_is_explicit(self) -> bool:
        """Whether ``scope`` is the declaration's own (else it is inherited)."""
        return has_explicit_scope(self.data)

    @property
    def identity(self) -> str | None:
        value = self.data.get(BY_NAME[self.kind].identity)
        return value if isinstance(value, str) else None

    @property
    def label(self) -> str:
        return f"{self.kind.replace('-', ' ')} {self.identity!r}"


@dataclass(frozen=True, slots=True)
class Elicitation:
    primitive: Primitive
    pointer: str
    data: JsonObject
    scope: tuple[str, ...]
    """Explicit scope, or the primitive's effective scope."""

    @property
    def scope_is_explicit(self) -> bool:
        """Whether ``scope`` is the declaration's own (else it is the primitive's)."""
        return has_explicit_scope(self.data)

    @property
    def name(self) -> str:
        value = self.data.get("name")
        return value if isinstance(value, str) else "?"

    @property
    def label(self) -> str:
        return f"elicitation declaration {self.name!r} of {self.primitive.label}"


@dataclass(slots=True)
class Document:
    """The description as the semantic rules see it."""

    data: JsonObject
    specification: Specification
    root_scope: tuple[str, ...]
    primitives: list[Primitive] = field(default_factory=list)
    elicitations: list[Elicitation] = field(default_factory=list)
    resolution_problems: list[Finding] = field(default_factory=list)
    """Why use sites do not resolve, one finding per use site, whichever rule asked first;
    the component references rule reports them."""
    _resolved: dict[str, Resolved | None] = field(default_factory=dict)
    _compiled: dict[int, tuple[object, Compiled]] = field(default_factory=dict)
    _budget: Budget | None = None

    @classmethod
    def build(cls, data: JsonObject, specification: Specification) -> Document:
        root_scope = tuple(s for s in strings(data.get("protocolVersions")) if s in REVISIONS)
        document = cls(data, specification, root_scope)
        for kind in KINDS:
            for index, item in enumerate(as_list(data.get(kind.collection))):
                declaration = as_object(item)
                pointer = jp.join("", kind.collection, index)
                primitive = Primitive(kind.name, pointer, declaration, explicit_scope(declaration) or root_scope)
                document.primitives.append(primitive)
                for position, raw in enumerate(as_list(declaration.get("elicitations"))):
                    elicitation = as_object(raw)
                    document.elicitations.append(
                        Elicitation(
                            primitive,
                            jp.join(pointer, "elicitations", position),
                            elicitation,
                            explicit_scope(elicitation) or primitive.scope,
                        )
                    )
        return document

    def scope_of(self, declaration: JsonObject) -> tuple[str, ...]:
        """The effective scope of a declaration directly under the root (a transport, a
        capability set): its own, else the root's."""
        return explicit_scope(declaration) or self.root_scope

    def primitives_of(self, kind: str) -> Iterator[Primitive]:
        return (p for p in self.primitives if p.kind == kind)

    @property
    def components(self) -> JsonObject:
        return as_object(self.data.get("components"))

    def resolve(self, value: object, pointer: str, namespace: str) -> Resolved | None:
        """Follow ``$componentRef`` chains from a use site. Returns None (and records one
        finding, once per use site) when the reference cannot be resolved."""
        if not is_reference(value):
            return Resolved(value, pointer, None)
        if pointer in self._resolved:
            return self._resolved[pointer]
        result = self._follow(value, pointer, namespace)
        self._resolved[pointer] = result
        return result

    def _follow(self, value: object, use_site: str, namespace: str) -> Resolved | None:
        seen: list[str] = []
        current = value
        at = use_site
        while is_reference(current):
            target = as_object(current).get(COMPONENT_REF)
            ref_pointer = jp.join(at, COMPONENT_REF)
            if not isinstance(target, str):
                return self._fail(ref_pointer, "schema-validation", "'$componentRef' must be a string")
            parts = target.split("/")
            if len(parts) != 4 or parts[:2] != ["#", "components"]:
                return self._fail(ref_pointer, "schema-validation", f"malformed component reference {target!r}")
            _, _, target_namespace, name = parts
            if target_namespace != namespace:
                return self._fail(
                    ref_pointer,
                    "wrong-component-reference-namespace",
                    f"{target!r} points into '{target_namespace}', but this use site needs a '{namespace}' component",
                )
            if target in seen:
                chain = " -> ".join([*seen, target])
                return self._fail(
                    ref_pointer, "component-reference-cycle", f"component references form a cycle: {chain}"
                )
            seen.append(target)
            namespace_map = as_object(self.components.get(target_namespace))
            if name not in namespace_map:
                return self._fail(
                    ref_pointer,
                    "missing-component-reference-target",
                    f"{target!r} does not exist (no component {name!r} in '{target_namespace}')",
                )
            current = namespace_map[name]
            at = jp.join("", "components", target_namespace, name)
        return Resolved(current, at, use_site)

    def _fail(self, pointer: str, code: str, message: str) -> Resolved | None:
        """Record why a reference does not resolve; always returns None."""
        requirement = "req-elicitation-schema-references-resolved" if "/elicitations/" in pointer else None
        self.resolution_problems.append(Finding.error(code, message, pointer, requirement))
        return None

    @property
    def budget(self) -> Budget:
        """What checking this document's examples may spend, in all (see budget.py)."""
        if self._budget is None:
            self._budget = Budget.for_document(self.data)
        return self._budget

    def compiled_schema(self, schema: object) -> Compiled:
        """A schema of this document, compiled once per object: one tool's schema checks
        every example of the tool, and compiling is keyed by the schema's text, which would
        otherwise be written out again for each example. The object is kept with the
        result, so its id cannot be reused by another while the entry exists."""
        entry = self._compiled.get(id(schema))
        if entry is None or entry[0] is not schema:
            entry = (schema, compile_schema(schema))
            self._compiled[id(schema)] = entry
        return entry[1]

    def check_instance(self, schema: object, instance: object) -> InstanceCheck:
        """``instance`` checked against ``schema`` (a schema of this document), within the budget."""
        return check_instance(self.compiled_schema(schema), instance, self.budget)

    def resolved_form_schema(self, elicitation: Elicitation) -> Resolved | None:
        value = elicitation.data.get("requestedSchema")
        if value is None:
            return None
        return self.resolve(value, jp.join(elicitation.pointer, "requestedSchema"), "schemas")
