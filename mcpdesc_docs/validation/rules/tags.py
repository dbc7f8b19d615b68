"""Tag catalogue: unique names, declared references."""

from __future__ import annotations

from collections.abc import Iterator

from ...rule_docs import RuleDoc, fragment
from ...source import pointer as jp
from ..document import Document, Primitive, as_list, as_object
from ..findings import Finding
from ..registry import rule


def catalogue(document: Document) -> list[tuple[int, str]]:
    """(index, name) of each root tag whose name is a string (the schema reports the others)."""
    names = []
    for index, item in enumerate(as_list(document.data.get("tags"))):
        name = as_object(item).get("name")
        if isinstance(name, str):
            names.append((index, name))
    return names


def repeated_tags(document: Document) -> Iterator[tuple[int, str, int]]:
    """(index, name, index of the first declaration) of each repeated root tag name."""
    first: dict[str, int] = {}
    for index, name in catalogue(document):
        if name in first:
            yield index, name, first[name]
        first.setdefault(name, index)


def undeclared_tags(document: Document) -> Iterator[tuple[Primitive, int, str]]:
    """(primitive, position, tag) of each primitive tag the root catalogue lacks; none
    without a catalogue, where primitive tags are free strings."""
    if "tags" not in document.data:
        return
    declared = {name for _, name in catalogue(document)}
    for primitive in document.primitives:
        for position, tag in enumerate(as_list(primitive.data.get("tags"))):
            if isinstance(tag, str) and tag not in declared:
                yield primitive, position, tag


@rule(
    "mcpdesc.tags.unique",
    doc=RuleDoc(
        summary="Root tag names are unique.",
        rationale=(
            "Primitives refer to tags by name, and each tag becomes one page; two of one name cannot be told apart."
        ),
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
                description: Search tools
            """
        ),
        requirements=("digest §4.4", "digest §2.16"),
        codes=("duplicate-root-tag",),
    ),
)
def root_tags_unique(document: Document) -> Iterator[Finding]:
    for index, name, first in repeated_tags(document):
        yield Finding.error(
            "duplicate-root-tag",
            f"tag {name!r} is declared twice (first at /tags/{first})",
            jp.join("", "tags", index, "name"),
        )


@rule(
    "mcpdesc.tags.references",
    doc=RuleDoc(
        summary="When root `tags` is present, every tag a primitive lists is declared there.",
        rationale=(
            "The root list is the catalogue of tags; a primitive's undeclared tag is usually misspelt and would "
            "make a page of its own."
        ),
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
        requirements=("digest §4.4", "digest §2.16"),
        codes=("unknown-tag-reference",),
    ),
    local=True,
)
def tag_references_declared(document: Document) -> Iterator[Finding]:
    for primitive, position, tag in undeclared_tags(document):
        yield Finding.error(
            "unknown-tag-reference",
            f"{primitive.label} uses tag {tag!r}, which the root 'tags' catalogue does not declare",
            jp.join(primitive.pointer, "tags", position),
        )
