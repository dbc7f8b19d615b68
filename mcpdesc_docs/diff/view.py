"""A description as a client sees it: what ``diff`` compares instead of the text.

Primitives are keyed by kind and identity (a tool's name, a resource's URI ...), so their
order in the file does not matter; each keeps its declarations per protocol-version scope.
Component references are followed (``$componentRef`` at the sites the format allows), so
moving a schema into ``components`` and referring to it is no change; the pointer of a
followed value is where it lives, in the component.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..kinds import BY_NAME
from ..records import record
from ..source import pointer as jp
from ..validation.document import Document, Primitive, as_list, as_object

PrimitiveKey = tuple[str, str]
"""(kind name, identity)."""


@record
class Declared:
    """One declaration of a primitive (one variant), with its references followed."""

    pointer: str
    data: Mapping[str, Any]
    scope: tuple[str, ...]
    """Its effective protocol versions."""
    places: Mapping[str, str]
    """Member -> where its value lives, for members whose value came from a component."""

    def place(self, member: str) -> str:
        return self.places.get(member, jp.join(self.pointer, member))


@record
class View:
    data: Mapping[str, Any]
    root_scope: tuple[str, ...]
    primitives: Mapping[PrimitiveKey, tuple[Declared, ...]]
    """In the order of the description (the report lists changes in a stable order)."""


def _followed(document: Document, primitive: Primitive) -> Declared:
    data = dict(primitive.data)
    places: dict[str, str] = {}
    if primitive.kind == "tool":
        for member in ("inputSchema", "outputSchema"):
            if member in data:
                resolved = document.resolve(data[member], jp.join(primitive.pointer, member), "schemas")
                if resolved is not None and resolved.via is not None:
                    data[member], places[member] = resolved.value, resolved.pointer
    examples = as_object(data.get("examples"))
    if examples:
        namespace = BY_NAME[primitive.kind].examples_namespace
        followed = {}
        for name, example in examples.items():
            resolved = document.resolve(example, jp.join(primitive.pointer, "examples", name), namespace)
            followed[name] = resolved.value if resolved is not None else example
        data["examples"] = followed
    elicitations = as_list(data.get("elicitations"))
    if elicitations:
        data["elicitations"] = [
            _followed_elicitation(document, primitive.pointer, i, e) for i, e in enumerate(elicitations)
        ]
    return Declared(primitive.pointer, data, primitive.scope, places)


def _followed_elicitation(document: Document, pointer: str, index: int, elicitation: object) -> object:
    declaration = as_object(elicitation)
    if "requestedSchema" not in declaration:
        return elicitation
    at = jp.join(pointer, "elicitations", index, "requestedSchema")
    resolved = document.resolve(declaration["requestedSchema"], at, "schemas")
    if resolved is None or resolved.via is None:
        return elicitation
    return {**declaration, "requestedSchema": resolved.value}


def view_of(document: Document) -> View:
    primitives: dict[PrimitiveKey, list[Declared]] = {}
    for primitive in document.primitives:
        if primitive.identity is None:
            continue  # a validated description names every primitive
        primitives.setdefault((primitive.kind, primitive.identity), []).append(_followed(document, primitive))
    return View(
        document.data,
        document.root_scope,
        {key: tuple(declared) for key, declared in primitives.items()},
    )


__all__ = ["Declared", "PrimitiveKey", "View", "view_of"]
