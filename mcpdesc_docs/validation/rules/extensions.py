"""Where specification extensions (``x-*``) may not appear, and the closed member sets of the
MCP-native objects that examples embed (content blocks, resource contents)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ...source import pointer as jp
from ..document import Document, as_list, as_object
from ..registry import Finding, rule
from .results import example_results
from .security import requirement_arrays

_BLOCK_MEMBERS: dict[str, frozenset[str]] = {
    "text": frozenset({"type", "text", "annotations", "_meta"}),
    "image": frozenset({"type", "data", "mimeType", "annotations", "_meta"}),
    "audio": frozenset({"type", "data", "mimeType", "annotations", "_meta"}),
    "resource": frozenset({"type", "resource", "annotations", "_meta"}),
    "resource_link": frozenset(
        {"type", "uri", "name", "title", "description", "mimeType", "size", "icons", "annotations", "_meta"}
    ),
}
_CONTENTS_MEMBERS = frozenset({"uri", "mimeType", "text", "blob", "_meta"})


def native_objects(document: Document) -> Iterator[tuple[str, Mapping[str, Any], frozenset[str], str]]:
    """(pointer, object, allowed members, what) for MCP-native objects inside example results."""
    for _, result, at in example_results(document):
        blocks: list[tuple[str, Any]] = [
            (jp.join(at, "content", i), b) for i, b in enumerate(as_list(result.get("content")))
        ]
        for index, raw in enumerate(as_list(result.get("messages"))):
            blocks.append((jp.join(at, "messages", index, "content"), as_object(raw).get("content")))
        for pointer, raw in blocks:
            block = as_object(raw)
            allowed = _BLOCK_MEMBERS.get(str(block.get("type")))
            if allowed is not None:
                yield pointer, block, allowed, f"{block.get('type')} content"
                if block.get("type") == "resource":
                    embedded = as_object(block.get("resource"))
                    yield jp.join(pointer, "resource"), embedded, _CONTENTS_MEMBERS, "resource contents"
        for index, raw in enumerate(as_list(result.get("contents"))):
            yield jp.join(at, "contents", index), as_object(raw), _CONTENTS_MEMBERS, "resource contents"


@rule("mcpdesc.extensions.placement")
def ineligible_extensions(document: Document) -> Iterator[Finding]:
    # securitySchemes and Security Requirement objects are keyed by scheme names: an x-* key
    # there is a specification extension where none is allowed, never a scheme.
    for name in as_object(document.data.get("securitySchemes")):
        if name.startswith("x-"):
            yield Finding.error(
                "extension-not-allowed",
                f"'securitySchemes' maps scheme names to schemes; the specification extension {name!r} "
                "is not allowed there",
                jp.join("", "securitySchemes", name),
            )
    for array_pointer, array in requirement_arrays(document):
        for index, requirement in enumerate(array):
            for key in as_object(requirement):
                if key.startswith("x-"):
                    yield Finding.error(
                        "extension-not-allowed",
                        f"security requirements name schemes only; the specification extension {key!r} is not "
                        "allowed there",
                        jp.join(array_pointer, index, key),
                    )
    maps = [
        jp.join("", "capabilities", i, "extensions") for i in range(len(as_list(document.data.get("capabilities"))))
    ]
    maps += [jp.join(p.pointer, "clientRequirements", "extensions") for p in document.primitives]
    for at in maps:
        for key in as_object(jp.lookup(document.data, at)):
            if key.startswith("x-"):
                yield Finding.error(
                    "extension-not-allowed",
                    f"'extensions' maps extension identifiers to settings; the specification extension {key!r} "
                    "is not allowed there",
                    jp.join(at, key),
                )
    for pointer, value, _, what in native_objects(document):
        for key in value:
            if key.startswith("x-"):
                yield Finding.error(
                    "extension-not-allowed",
                    f"{what} is an MCP object, where specification extensions such as {key!r} are not allowed "
                    "(use _meta for metadata)",
                    jp.join(pointer, key),
                )


@rule("mcpdesc.examples.native-members")
def native_members(document: Document) -> Iterator[Finding]:
    for pointer, value, allowed, what in native_objects(document):
        for key in value:
            if key not in allowed and not key.startswith("x-"):
                yield Finding.error(
                    "unknown-member",
                    f"{what} has unknown member {key!r} (allowed: {', '.join(sorted(allowed))})",
                    jp.join(pointer, key),
                )
