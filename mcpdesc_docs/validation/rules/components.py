"""Component references: every ``$componentRef`` resolves, in the right namespace, acyclically."""

from __future__ import annotations

from collections.abc import Iterator

from ...kinds import BY_NAME
from ...rule_docs import RuleDoc, fragment
from ...source import pointer as jp
from ...spec.schema import NAMESPACES
from ..document import Document, as_object, is_reference
from ..findings import Finding
from ..registry import rule
from ..rule_ids import COMPONENT_REFERENCES


def reference_sites(document: Document) -> Iterator[tuple[object, str, str]]:
    """(value, pointer, namespace needed) for every Reference Object that stands outside
    ``components``. The pointer is made only for a reference: most sites hold none, and
    the rule runs on every rebuild in serve."""
    for primitive in document.primitives:
        if primitive.kind == "tool":
            for member in ("inputSchema", "outputSchema"):
                if is_reference(value := primitive.data.get(member)):
                    yield value, jp.join(primitive.pointer, member), "schemas"
        for name, example in as_object(primitive.data.get("examples")).items():
            if is_reference(example):
                yield example, jp.join(primitive.pointer, "examples", name), BY_NAME[primitive.kind].examples_namespace
    for elicitation in document.elicitations:
        if is_reference(value := elicitation.data.get("requestedSchema")):
            yield value, jp.join(elicitation.pointer, "requestedSchema"), "schemas"


@rule(
    COMPONENT_REFERENCES,
    doc=RuleDoc(
        summary=(
            "Every `$componentRef` is a Reference Object alone and names a component that exists, in the namespace "
            "its place allows."
        ),
        rationale=(
            "A reference stands for the value it names; a missing target leaves a schema or an example undefined."
        ),
        bad=fragment(
            """
            components:
              schemas:
                Query: {type: object}
            tools:
              - name: search
                inputSchema:
                  $componentRef: "#/components/schemas/Querry"
            """
        ),
        good=fragment(
            """
            components:
              schemas:
                Query: {type: object}
            tools:
              - name: search
                inputSchema:
                  $componentRef: "#/components/schemas/Query"
            """
        ),
        requirements=("digest §4.5", "digest §2.17", "req-elicitation-schema-references-resolved"),
        codes=(
            "missing-component-reference-target",
            "unknown-member",
            "missing-member",
            "wrong-type",
            "pattern-mismatch",
            "schema-validation",
        ),
    ),
)
def references_resolve(document: Document) -> Iterator[Finding]:
    for value, pointer, namespace in reference_sites(document):
        document.resolve(value, pointer, namespace)
    # Every component too, used or not: each is followed once, so this costs one step per
    # component, and a broken chain or a cycle is found even where nothing uses it.
    for namespace in NAMESPACES:
        for name in as_object(document.components.get(namespace)):
            document.resolve_component(namespace, name)
    # Each problem is reported once, where it is, however many rules and use sites met it.
    yield from document.resolution_problems
