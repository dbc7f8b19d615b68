"""Where specification extensions (``x-*``) may not appear: in maps keyed by names, where an
``x-`` key would be taken for a name. (On closed objects that allow none, including the MCP
objects examples embed, the structural check reports them under the same rule.)"""

from __future__ import annotations

from collections.abc import Iterator

from ...rule_docs import RuleDoc, fragment
from ...source import pointer as jp
from ..document import Document, as_list, as_object, client_requirement_extensions
from ..findings import Finding
from ..registry import rule
from ..rule_ids import EXTENSION_PLACEMENT
from .security import requirement_arrays


@rule(
    EXTENSION_PLACEMENT,
    doc=RuleDoc(
        summary=(
            "Specification extensions (`x-*`) appear only on objects that allow them: not in security requirements, "
            "scheme maps, extension maps, Reference Objects or MCP objects."
        ),
        rationale=(
            "In maps keyed by names an `x-` key would be read as a name (a scheme, an extension); MCP objects carry "
            "metadata in `_meta` instead."
        ),
        bad=fragment(
            """
            tools:
              - name: search
                inputSchema: {type: object}
                execution:
                  taskSupport: optional
                  x-note: runs as a task when asked
            """
        ),
        good=fragment(
            """
            tools:
              - name: search
                inputSchema: {type: object}
                x-note: runs as a task when asked
                execution:
                  taskSupport: optional
            """
        ),
        requirements=("digest §2.19", "digest §4.1"),
        codes=("extension-not-allowed",),
    ),
    local=True,
)
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
        (jp.join("", "capabilities", i, "extensions"), as_object(as_object(item).get("extensions")))
        for i, item in enumerate(as_list(document.data.get("capabilities")))
    ]
    maps += client_requirement_extensions(document)
    for at, extensions in maps:
        for key in extensions:
            if key.startswith("x-"):
                yield Finding.error(
                    "extension-not-allowed",
                    f"'extensions' maps extension identifiers to settings; the specification extension {key!r} "
                    "is not allowed there",
                    jp.join(at, key),
                )
