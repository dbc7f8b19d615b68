"""Shared checks for the completed results that examples show (tool, read, prompt and
completion results): no JSON-RPC envelope, no incomplete-workflow fields, the
``resultType`` rule of 2026-07-28, and the protocol versions that define each piece."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ...kinds import BY_NAME, KIND_NAMES
from ...records import record
from ...source import pointer as jp
from ...spec.revisions import before, describe
from ..document import Document, Primitive, as_list, as_object
from ..findings import Finding
from ..references import Resolved

ENVELOPE = ("jsonrpc", "id", "error")
INCOMPLETE = ("task", "inputRequests", "requestState")
RESULT_TYPE_REVISION = "2026-07-28"
META_FLOOR = "2025-06-18"

# content block feature -> the first protocol version that defines it
CONTENT_FLOORS = {
    "audio": "2025-03-26",
    "resource_link": "2025-06-18",
    "_meta": "2025-06-18",
    "icons": "2025-11-25",
    "lastModified": "2025-06-18",
}


@record
class Example:
    """One named example after component resolution."""

    primitive: Primitive
    kind: str
    """examples, interactionExamples or completionExamples."""
    name: str
    pointer: str
    """Where the example's value lives (inside the component when referenced)."""
    data: Mapping[str, Any]
    via: str | None

    @property
    def label(self) -> str:
        where = f" (component used by {self.via})" if self.via else ""
        noun = {"examples": "example", "interactionExamples": "interaction example"}.get(
            self.kind, "completion example"
        )
        return f"{noun} {self.name!r} of {self.primitive.label}{where}"


def examples_of(document: Document, kind: str, member: str = "examples") -> Iterable[Example]:
    """The examples of one kind of primitive under ``member``, resolved (several rules
    check each, so they are walked once per document)."""
    return document.walked_once(_walk_examples, kind, member)


def _walk_examples(document: Document, kind: str, member: str) -> Iterator[Example]:
    for primitive in document.primitives_of(kind):
        for name, raw in as_object(primitive.data.get(member)).items():
            use_site = jp.join(primitive.pointer, member, name)
            if member == "examples":
                resolved: Resolved | None = document.resolve(raw, use_site, BY_NAME[kind].examples_namespace)
            else:
                resolved = Resolved(raw, use_site, None)
            if resolved is not None and isinstance(resolved.value, Mapping):
                yield Example(primitive, member, name, resolved.pointer, resolved.value, resolved.via)


def example_results(document: Document) -> Iterator[tuple[Example, Mapping[str, Any], str]]:
    """(example, its result object, the result's pointer) for every example of every kind,
    tools' interaction examples included."""
    for kind in KIND_NAMES:
        members = ("examples", "interactionExamples") if kind == "tool" else ("examples",)
        for member in members:
            for example in examples_of(document, kind, member):
                yield example, as_object(example.data.get("result")), jp.join(example.pointer, "result")


def completed(
    result: Mapping[str, Any], at: str, label: str, envelope_code: str, incomplete_code: str
) -> Iterator[Finding]:
    for member in ENVELOPE:
        if member in result:
            yield Finding.error(
                envelope_code,
                f"{label}: the result must be the completed result itself, without the JSON-RPC envelope ({member!r})",
                jp.join(at, member),
            )
    for member in INCOMPLETE:
        if member in result:
            yield Finding.error(
                incomplete_code,
                f"{label}: {member!r} belongs to an incomplete workflow; examples show completed results only",
                jp.join(at, member),
            )


def result_type(result: Mapping[str, Any], at: str, scope: tuple[str, ...], label: str, code: str) -> Iterator[Finding]:
    if RESULT_TYPE_REVISION in scope and result.get("resultType") != "complete":
        yield Finding.error(
            code,
            f'{label}: protocol version {RESULT_TYPE_REVISION} requires resultType: "complete" in the result',
            jp.join(at, "resultType") if "resultType" in result else at,
        )
    early = before(scope, RESULT_TYPE_REVISION)
    if early and "resultType" in result:
        yield Finding.error(
            code,
            f"{label}: resultType is not defined by protocol version(s) {describe(early)}; split the declaration "
            f"so that only its {RESULT_TYPE_REVISION} variant carries it",
            jp.join(at, "resultType"),
        )


def meta_floor(value: Mapping[str, Any], at: str, scope: tuple[str, ...], label: str, code: str) -> Iterator[Finding]:
    early = before(scope, META_FLOOR)
    if "_meta" in value and early:
        yield Finding.error(
            code,
            f"{label}: '_meta' is not defined by protocol version(s) {describe(early)} ({META_FLOOR} and later)",
            jp.join(at, "_meta"),
        )


def content_blocks(blocks: object, at: str, scope: tuple[str, ...], label: str, code: str) -> Iterator[Finding]:
    """Content blocks (tool results, prompt messages) against the versions that define their parts."""
    items = blocks if isinstance(blocks, list) else [blocks]
    for index, raw in enumerate(items):
        block = as_object(raw)
        where = jp.join(at, index) if isinstance(blocks, list) else at
        checks: list[tuple[str, str, str]] = []  # (feature, member pointer, words)
        kind = block.get("type")
        if kind in ("audio", "resource_link"):
            checks.append((str(kind), jp.join(where, "type"), f"{kind} content"))
        if "_meta" in block:
            checks.append(("_meta", jp.join(where, "_meta"), "'_meta' on content"))
        if kind == "resource" and "_meta" in as_object(block.get("resource")):
            checks.append(("_meta", jp.join(where, "resource", "_meta"), "'_meta' on embedded resources"))
        if kind == "resource_link" and "icons" in block:
            checks.append(("icons", jp.join(where, "icons"), "icons on resource links"))
        if "lastModified" in as_object(block.get("annotations")):
            checks.append(("lastModified", jp.join(where, "annotations", "lastModified"), "annotations.lastModified"))
        for feature, pointer, words in checks:
            early = before(scope, CONTENT_FLOORS[feature])
            if early:
                yield Finding.error(
                    code,
                    f"{label}: {words} is not defined by protocol version(s) {describe(early)} "
                    f"({CONTENT_FLOORS[feature]} and later)",
                    pointer,
                )


def strings_of(value: object) -> list[str]:
    return [item for item in as_list(value) if isinstance(item, str)]
