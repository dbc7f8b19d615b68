"""Tag catalogue: unique names, declared references."""

from __future__ import annotations

from collections.abc import Iterator

from ...source import pointer as jp
from ..document import Document, as_list, as_object
from ..registry import Finding, rule


def catalogue(document: Document) -> list[tuple[int, str]]:
    """(index, name) of each root tag whose name is a string (the schema reports the others)."""
    names = []
    for index, item in enumerate(as_list(document.data.get("tags"))):
        name = as_object(item).get("name")
        if isinstance(name, str):
            names.append((index, name))
    return names


@rule("mcpdesc.tags.unique")
def root_tags_unique(document: Document) -> Iterator[Finding]:
    first: dict[str, int] = {}
    for index, name in catalogue(document):
        if name in first:
            yield Finding.error(
                "duplicate-root-tag",
                f"tag {name!r} is declared twice (first at /tags/{first[name]})",
                jp.join("", "tags", index, "name"),
            )
        first.setdefault(name, index)


@rule("mcpdesc.tags.references")
def tag_references_declared(document: Document) -> Iterator[Finding]:
    if "tags" not in document.data:
        return  # without a catalogue, primitive tags are free strings
    declared = {name for _, name in catalogue(document)}
    for primitive in document.primitives:
        for index, tag in enumerate(as_list(primitive.data.get("tags"))):
            if isinstance(tag, str) and tag not in declared:
                yield Finding.error(
                    "unknown-tag-reference",
                    f"{primitive.label} uses tag {tag!r}, which the root 'tags' catalogue does not declare",
                    jp.join(primitive.pointer, "tags", index),
                )
