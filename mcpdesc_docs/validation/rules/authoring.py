"""Warnings of our own for what the specification allows but a reader would stumble over:
empty strings where a name or a command is expected, and misspelt tool annotations.
They are warnings (``--strict`` makes them fatal), never errors: the upstream validator
accepts these documents, and so must we."""

from __future__ import annotations

from collections.abc import Iterator

from ...diagnostics import Severity
from ...rule_docs import RuleDoc, fragment
from ...source import pointer as jp
from ..document import Document, as_list, as_object
from ..findings import Finding
from ..registry import rule
from ..suggest import closest

EMPTY_VALUE = "mcpdesc-docs.empty-value"
ANNOTATION_SPELLING = "mcpdesc-docs.annotation-spelling"

TOOL_HINTS = ("title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")

# member -> what an empty one leaves the reader without
_PRIMITIVE_MEMBERS = {"name": "a name to list it by", "uriTemplate": "a URI to read"}
_SCHEME_MEMBERS = {"scheme": "an HTTP authentication scheme", "name": "the name of the key's header, query or cookie"}


def _empty(value: object) -> bool:
    return isinstance(value, str) and not value


def _empty_members(document: Document) -> Iterator[tuple[str, str, str]]:
    """(pointer, what holds it, what is missing) of each empty string a reader needs."""
    for primitive in document.primitives:
        if primitive.kind == "tool":  # MCP requires a tool's name to be non-empty: an error
            continue
        for member, missing in _PRIMITIVE_MEMBERS.items():
            if _empty(primitive.data.get(member)):
                yield jp.join(primitive.pointer, member), primitive.kind.replace("-", " "), missing
        for index, argument in enumerate(as_list(primitive.data.get("arguments"))):
            if _empty(as_object(argument).get("name")):
                yield jp.join(primitive.pointer, "arguments", index, "name"), "prompt argument", "a name"
    for index, transport in enumerate(as_list(document.data.get("transports"))):
        if _empty(as_object(transport).get("command")):
            yield jp.join("/transports", index, "command"), "stdio transport", "a command to start"
    for name, scheme in as_object(document.data.get("securitySchemes")).items():
        for member, missing in _SCHEME_MEMBERS.items():
            if _empty(as_object(scheme).get(member)):
                yield jp.join("/securitySchemes", name, member), f"security scheme {name!r}", missing
    if _empty(as_object(as_object(document.data.get("info")).get("license")).get("name")):
        yield "/info/license/name", "license", "a name"


@rule(
    EMPTY_VALUE,
    doc=RuleDoc(
        summary=(
            "Names, URI templates, commands and scheme names a reader needs are not empty strings (a warning of "
            "mcpdesc-docs)."
        ),
        rationale=(
            "The format allows them empty, but the site would show a nameless page or a blank command; `--strict` "
            "makes this fatal."
        ),
        bad=fragment(
            """
            prompts:
              - name: ""
            """
        ),
        good=fragment(
            """
            prompts:
              - name: summarize
            """
        ),
        requirements=("mcpdesc-docs authoring check (not a format rule)",),
        codes=("empty-value",),
        severity=Severity.WARNING,
    ),
    local=True,
)
def empty_values(document: Document) -> Iterator[Finding]:
    for pointer, holder, missing in _empty_members(document):
        member = pointer.rsplit("/", 1)[-1]
        yield Finding.warning(
            "empty-value",
            f"{holder} has an empty {member!r}: allowed, but it leaves readers without {missing}",
            pointer,
        )


@rule(
    ANNOTATION_SPELLING,
    doc=RuleDoc(
        summary=(
            "Tool annotations are spelt as MCP defines them (`readOnlyHint`, `destructiveHint`, ...) (a warning of "
            "mcpdesc-docs)."
        ),
        rationale=(
            "Annotations are an open object, so a misspelt hint is valid but is no hint at all: clients read the "
            "default instead."
        ),
        bad=fragment(
            """
            tools:
              - name: search
                inputSchema: {type: object}
                annotations:
                  readonlyHint: true
            """
        ),
        good=fragment(
            """
            tools:
              - name: search
                inputSchema: {type: object}
                annotations:
                  readOnlyHint: true
            """
        ),
        requirements=("mcpdesc-docs authoring check (not a format rule)", "digest §2.7"),
        codes=("misspelt-annotation",),
        severity=Severity.WARNING,
    ),
    local=True,
)
def misspelt_annotations(document: Document) -> Iterator[Finding]:
    # Tool annotations are open in MCP (unknown hints are kept and passed on), so a
    # misspelt hint is valid, but it is then no hint at all: a client reads the default.
    for tool in document.primitives_of("tool"):
        for key in as_object(tool.data.get("annotations")):
            if key in TOOL_HINTS:
                continue
            close = closest(key, TOOL_HINTS)
            if close:
                yield Finding.warning(
                    "misspelt-annotation",
                    f"{tool.label}: annotation {key!r} is not a tool annotation MCP defines, so clients ignore it "
                    f"(did you mean {close!r}?)",
                    jp.join(tool.pointer, "annotations", key),
                )
