"""Protocol scopes: subsets of the parent scope, identity overlaps, coverage."""

from __future__ import annotations

from collections.abc import Iterator

from ...kinds import BY_NAME
from ...source import pointer as jp
from ...spec.revisions import LEGACY, describe
from ..document import Document, as_list, as_object, explicit_scope
from ..registry import Finding, rule
from ..rule_ids import PROTOCOL_SCOPE_CONSISTENCY


def _outside_parent(
    declaration_pointer: str, scope: object, parent: tuple[str, ...], what: str, requirement: str | None = None
) -> Iterator[Finding]:
    for index, revision in enumerate(as_list(scope)):
        if isinstance(revision, str) and revision not in parent:
            yield Finding.error(
                "protocol-scope-outside-parent",
                f"{what} lists protocol version {revision}, which is not in its parent scope ({describe(parent)})",
                jp.join(declaration_pointer, "protocolVersions", index),
                requirement,
            )


@rule(PROTOCOL_SCOPE_CONSISTENCY)
def scopes_within_parent(document: Document) -> Iterator[Finding]:
    root = document.root_scope
    for collection, what in (("transports", "transport"), ("capabilities", "capabilities object")):
        for index, item in enumerate(as_list(document.data.get(collection))):
            declaration = as_object(item)
            yield from _outside_parent(jp.join("", collection, index), declaration.get("protocolVersions"), root, what)
    for primitive in document.primitives:
        yield from _outside_parent(primitive.pointer, primitive.data.get("protocolVersions"), root, primitive.label)
    for elicitation in document.elicitations:
        yield from _outside_parent(
            elicitation.pointer,
            elicitation.data.get("protocolVersions"),
            elicitation.primitive.scope,
            elicitation.label,
            "req-elicitation-scope",
        )


@rule("mcpdesc.primitives.scope-unique")
def identities_disjoint(document: Document) -> Iterator[Finding]:
    seen: dict[tuple[str, str], list[tuple[str, tuple[str, ...]]]] = {}
    for primitive in document.primitives:
        identity = primitive.identity
        if identity is None:
            continue
        earlier = seen.setdefault((primitive.kind, identity), [])
        for other_pointer, other_scope in earlier:
            shared = set(primitive.scope) & set(other_scope)
            if shared:
                key = BY_NAME[primitive.kind].identity
                yield Finding.error(
                    "primitive-scope-overlap",
                    f"{primitive.label} is declared again for protocol version(s) {describe(shared)} "
                    f"(also at {other_pointer}); declarations sharing a {key} need disjoint protocolVersions",
                    jp.join(primitive.pointer, key),
                )
        earlier.append((primitive.pointer, primitive.scope))


@rule("mcpdesc.capabilities.scope-unique")
def capabilities_disjoint(document: Document) -> Iterator[Finding]:
    seen: list[tuple[int, set[str]]] = []
    for index, item in enumerate(as_list(document.data.get("capabilities"))):
        scope = set(explicit_scope(as_object(item)) or document.root_scope)
        for other_index, other_scope in seen:
            shared = scope & other_scope
            if shared:
                yield Finding.error(
                    "capability-scope-overlap",
                    f"capabilities objects {other_index} and {index} both apply to {describe(shared)}; "
                    "at most one capabilities object may apply to a protocol version",
                    jp.join("", "capabilities", index),
                )
        seen.append((index, scope))


@rule("mcpdesc.transports.coverage")
def transports_cover_root(document: Document) -> Iterator[Finding]:
    transports = document.data.get("transports")
    if not isinstance(transports, list):
        return  # no transports declared: nothing to cover (spec: no coverage check)
    covered: set[str] = set()
    for item in transports:
        covered.update(explicit_scope(as_object(item)) or document.root_scope)
    missing = [r for r in document.root_scope if r not in covered]
    if missing:
        yield Finding.error(
            "transport-coverage-gap",
            f"no transport is declared for protocol version(s) {describe(missing)}",
            "/transports",
        )


@rule("mcpdesc.legacy-protocol.validation-scope")
def legacy_versions_incomplete(document: Document) -> Iterator[Finding]:
    legacy = [r for r in document.root_scope if r in LEGACY]
    if not legacy:
        return
    elicits_in_legacy = any(LEGACY & set(e.scope) for e in document.elicitations)
    yield Finding.warning(
        "legacy-protocol-validation-incomplete",
        f"protocol version(s) {describe(legacy)} get structural and selected checks only; "
        "complete protocol-specific validation starts with 2025-06-18",
        "/protocolVersions",
        "req-elicitation-legacy-incomplete" if elicits_in_legacy else None,
    )
