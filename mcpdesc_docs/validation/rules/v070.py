"""Semantic rules for mcpdesc 0.7.0 documents. 0.7.0 names no rule ids; these are ours
(``mcpdesc07.*``), kept apart from the 0.8/0.9 registry, whose rules describe another format."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ...diagnostics import Diagnostic, error
from ...kinds import KINDS
from ...source import pointer as jp
from ..document import as_list, as_object

Check070 = Callable[[dict[str, Any]], Iterator[Diagnostic]]
CHECKS_070: dict[str, Check070] = {}
_IDENTITY = {kind.collection: kind.identity for kind in KINDS}


def rule070(rule_id: str) -> Callable[[Check070], Check070]:
    def register(function: Check070) -> Check070:
        CHECKS_070[rule_id] = function
        return function

    return register


@rule070("mcpdesc07.tags.unique")
def tag_names_unique(data: dict[str, Any]) -> Iterator[Diagnostic]:
    seen: set[str] = set()
    for index, tag in enumerate(as_list(data.get("tags"))):
        name = as_object(tag).get("name")
        if isinstance(name, str):
            if name in seen:
                yield error(
                    "mcpdesc07.tags.unique",
                    "duplicate-root-tag",
                    f"tag {name!r} is declared twice (0.7.0: tag names MUST be unique)",
                    jp.join("", "tags", index, "name"),
                )
            seen.add(name)


@rule070("mcpdesc07.tags.references")
def tag_references(data: dict[str, Any]) -> Iterator[Diagnostic]:
    if "tags" not in data:
        return
    declared = {as_object(t).get("name") for t in as_list(data.get("tags"))}
    for collection in _IDENTITY:
        for index, item in enumerate(as_list(data.get(collection))):
            for position, tag in enumerate(as_list(as_object(item).get("tags"))):
                if isinstance(tag, str) and tag not in declared:
                    yield error(
                        "mcpdesc07.tags.references",
                        "unknown-tag-reference",
                        f"tag {tag!r} is not in the root 'tags' list, which declares all valid tags",
                        jp.join("", collection, index, "tags", position),
                    )


@rule070("mcpdesc07.primitives.unique")
def primitives_unique(data: dict[str, Any]) -> Iterator[Diagnostic]:
    for collection, key in _IDENTITY.items():
        seen: set[str] = set()
        for index, item in enumerate(as_list(data.get(collection))):
            identity = as_object(item).get(key)
            if isinstance(identity, str):
                if identity in seen:
                    yield error(
                        "mcpdesc07.primitives.unique",
                        "duplicate-primitive",
                        f"{collection} declares {key} {identity!r} twice",
                        jp.join("", collection, index, key),
                    )
                seen.add(identity)


def check_070(data: dict[str, Any]) -> list[Diagnostic]:
    return [diagnostic for check in CHECKS_070.values() for diagnostic in check(data)]
