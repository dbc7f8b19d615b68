"""Component references: every ``$componentRef`` resolves, in the right namespace, acyclically."""

from __future__ import annotations

from collections.abc import Iterator

from ...rule_docs import RuleDoc, fragment
from ..document import Document
from ..findings import Finding
from ..registry import rule
from ..rule_ids import COMPONENT_REFERENCES


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
    # Every use site and every component, used or not, was followed when the document was
    # built (references.py); each problem is reported once, where it is.
    yield from document.resolution_problems
