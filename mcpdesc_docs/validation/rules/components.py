"""Component references: every ``$componentRef`` resolves, in the right namespace, acyclically."""

from __future__ import annotations

from collections.abc import Iterator

from ...kinds import BY_NAME
from ...source import pointer as jp
from ...spec.schema import NAMESPACES
from ..document import Document, as_object, is_reference
from ..registry import Finding, rule
from ..rule_ids import COMPONENT_REFERENCES


def use_sites(document: Document) -> Iterator[tuple[object, str, str]]:
    """(value, pointer, namespace needed) for every place a Reference Object may stand."""
    for primitive in document.primitives:
        if primitive.kind == "tool":
            for member in ("inputSchema", "outputSchema"):
                if member in primitive.data:
                    yield primitive.data[member], jp.join(primitive.pointer, member), "schemas"
        for name, example in as_object(primitive.data.get("examples")).items():
            yield example, jp.join(primitive.pointer, "examples", name), BY_NAME[primitive.kind].examples_namespace
    for elicitation in document.elicitations:
        if "requestedSchema" in elicitation.data:
            yield elicitation.data["requestedSchema"], jp.join(elicitation.pointer, "requestedSchema"), "schemas"
    for namespace in NAMESPACES:
        for name, value in as_object(document.components.get(namespace)).items():
            yield value, jp.join("", "components", namespace, name), namespace


@rule(COMPONENT_REFERENCES)
def references_resolve(document: Document) -> Iterator[Finding]:
    for value, pointer, namespace in use_sites(document):
        if is_reference(value):
            document.resolve(value, pointer, namespace)
    # Each unresolved use site is reported once, however many rules asked about it.
    yield from document.resolution_problems
