"""Semantic rules for mcpdesc 0.7.0 documents. 0.7.0 names no rule ids; these are ours
(``mcpdesc07.*``), registered for 0.7.0 only: the 0.8/0.9 rules describe another format."""

from __future__ import annotations

from collections.abc import Iterator

from ...kinds import KINDS
from ...source import pointer as jp
from ...spec.versions import SPEC_0_7_0
from ..document import Document
from ..findings import Finding
from ..registry import rule
from .tags import repeated_tags, undeclared_tags


@rule("mcpdesc07.tags.unique", formats=(SPEC_0_7_0,))
def tag_names_unique(document: Document) -> Iterator[Finding]:
    for index, name, _ in repeated_tags(document):
        yield Finding.error(
            "duplicate-root-tag",
            f"tag {name!r} is declared twice (0.7.0: tag names MUST be unique)",
            jp.join("", "tags", index, "name"),
        )


@rule("mcpdesc07.tags.references", formats=(SPEC_0_7_0,))
def tag_references(document: Document) -> Iterator[Finding]:
    for primitive, position, tag in undeclared_tags(document):
        yield Finding.error(
            "unknown-tag-reference",
            f"tag {tag!r} is not in the root 'tags' list, which declares all valid tags",
            jp.join(primitive.pointer, "tags", position),
        )


@rule("mcpdesc07.primitives.unique", formats=(SPEC_0_7_0,))
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
