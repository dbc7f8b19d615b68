"""Semantic rules for mcpdesc 0.7.0 documents. 0.7.0 names no rule ids; these are ours
(``mcpdesc07.*``), registered for 0.7.0 only: the 0.8/0.9 rules describe another format."""

from __future__ import annotations

from collections.abc import Iterator

from ...kinds import KINDS
from ...rule_docs import RuleDoc, fragment
from ...source import pointer as jp
from ...spec.versions import SPEC_0_7_0
from ..document import Document
from ..findings import Finding
from ..registry import rule
from .tags import repeated_tags, undeclared_tags


@rule(
    "mcpdesc07.tags.unique",
    doc=RuleDoc(
        summary="In a 0.7.0 description, root tag names are unique.",
        rationale="0.7.0 requires it: primitives refer to tags by name, and each tag becomes one page.",
        bad=fragment(
            """
            tags:
              - name: search
              - name: search
                description: Search tools
            """
        ),
        good=fragment(
            """
            tags:
              - name: search
              - name: admin
            """
        ),
        requirements=("digest §6 (0.7.0)",),
        codes=("duplicate-root-tag",),
    ),
    formats=(SPEC_0_7_0,),
)
def tag_names_unique(document: Document) -> Iterator[Finding]:
    for index, name, _ in repeated_tags(document):
        yield Finding.error(
            "duplicate-root-tag",
            f"tag {name!r} is declared twice (0.7.0: tag names MUST be unique)",
            jp.join("", "tags", index, "name"),
        )


@rule(
    "mcpdesc07.tags.references",
    doc=RuleDoc(
        summary="In a 0.7.0 description with root `tags`, every tag a primitive lists is declared there.",
        rationale="0.7.0's root list declares all valid tags; an undeclared one is usually misspelt.",
        bad=fragment(
            """
            tags:
              - name: search
            tools:
              - name: search
                inputSchema: {type: object}
                tags: [serach]
            """
        ),
        good=fragment(
            """
            tags:
              - name: search
            tools:
              - name: search
                inputSchema: {type: object}
                tags: [search]
            """
        ),
        requirements=("digest §6 (0.7.0)",),
        codes=("unknown-tag-reference",),
    ),
    formats=(SPEC_0_7_0,),
)
def tag_references(document: Document) -> Iterator[Finding]:
    for primitive, position, tag in undeclared_tags(document):
        yield Finding.error(
            "unknown-tag-reference",
            f"tag {tag!r} is not in the root 'tags' list, which declares all valid tags",
            jp.join(primitive.pointer, "tags", position),
        )


@rule(
    "mcpdesc07.primitives.unique",
    doc=RuleDoc(
        summary=(
            "In a 0.7.0 description, tools and prompts have distinct names, resources distinct URIs and templates "
            "distinct URI templates."
        ),
        rationale="0.7.0 has no protocol scopes to tell two declarations apart, so one identity may be declared once.",
        bad=fragment(
            """
            tools:
              - name: search
                inputSchema: {type: object}
              - name: search
                inputSchema: {type: object}
            """
        ),
        good=fragment(
            """
            tools:
              - name: search
                inputSchema: {type: object}
              - name: search_all
                inputSchema: {type: object}
            """
        ),
        requirements=("digest §6 (0.7.0)",),
        codes=("duplicate-primitive",),
    ),
    formats=(SPEC_0_7_0,),
)
def primitives_unique(document: Document) -> Iterator[Finding]:
    for kind in KINDS:
        seen: set[str] = set()
        for primitive in document.primitives_of(kind.name):
            identity = primitive.identity
            if identity is None:
                continue
            if identity in seen:
                yield Finding.error(
                    "duplicate-primitive",
                    f"{kind.collection} declares {kind.identity} {identity!r} twice",
                    jp.join(primitive.pointer, kind.identity),
                )
            seen.add(identity)
