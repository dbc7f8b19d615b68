"""Protocol scopes: subsets of the parent scope, identity overlaps, coverage."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from ...diagnostics import Severity
from ...kinds import BY_NAME
from ...rule_docs import RuleDoc, fragment
from ...source import pointer as jp
from ...spec.revisions import LEGACY, REVISIONS, describe
from ..document import Document, as_list, as_object, explicit_scope
from ..findings import Finding
from ..registry import rule
from ..rule_ids import PROTOCOL_SCOPE_CONSISTENCY

KNOWN_REVISIONS = frozenset(REVISIONS)


def _outside_parent(
    declaration_pointer: str,
    scope: object,
    parent: tuple[str, ...],
    label: str,
    requirement: str | None = None,
) -> list[Finding]:
    """This runs for every declaration: most have no scope of their own or one within their
    parent's, and return at once."""
    if not isinstance(scope, list) or not scope:
        return []
    allowed = frozenset(parent)
    outside = [
        (index, revision)
        for index, revision in enumerate(scope)
        if isinstance(revision, str) and revision not in allowed
    ]
    if not outside:
        return []
    # The parent described by its known versions only (unknown ones are the schema's to
    # report): a long parent scope must not make every finding as long as it.
    described = describe(allowed & KNOWN_REVISIONS)
    return [
        Finding.error(
            "protocol-scope-outside-parent",
            f"{label} lists protocol version {revision}, which is not in its parent scope ({described})",
            jp.join(declaration_pointer, "protocolVersions", index),
            requirement,
        )
        for index, revision in outside
    ]


@rule(
    PROTOCOL_SCOPE_CONSISTENCY,
    doc=RuleDoc(
        summary=(
            "A declaration's own `protocolVersions` lists only revisions of its parent's scope (the root's, or an "
            "elicitation's primitive's)."
        ),
        rationale=(
            "A scope narrows its parent's; a revision outside it claims support the server as a whole does not declare."
        ),
        bad=fragment(
            """
            protocolVersions: ["2025-11-25"]
            tools:
              - name: search
                inputSchema: {type: object}
                protocolVersions: ["2025-06-18"]
            """
        ),
        good=fragment(
            """
            protocolVersions: ["2025-06-18", "2025-11-25"]
            tools:
              - name: search
                inputSchema: {type: object}
                protocolVersions: ["2025-06-18"]
            """
        ),
        requirements=("digest §4.2", "digest §3", "req-elicitation-scope"),
        codes=("protocol-scope-outside-parent", "invalid-value", "pattern-mismatch", "duplicate-items"),
    ),
    local=True,
)
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


class _FirstClaims:
    """Which declaration first claimed each protocol version, so that a declaration's first
    overlap is found by looking up its own versions: linear work, where comparing every
    pair of declarations sharing a name (or every pair of capabilities objects) was
    quadratic in their number, and so was the report, one finding per overlapping pair."""

    def __init__(self) -> None:
        self._first: dict[str, int] = {}
        """Protocol version -> position of the first declaration listing it."""
        self._scopes: list[frozenset[str]] = []

    def claim(self, scope: frozenset[str]) -> tuple[int, frozenset[str]] | None:
        """Record a declaration's scope; return the position and the shared versions of the
        first earlier declaration it overlaps (the earliest of the first claimants of its
        versions: any earlier overlapping declaration shares a version whose first claimant
        is no later than it), or None."""
        claimants = [self._first[revision] for revision in scope if revision in self._first]
        position = len(self._scopes)
        self._scopes.append(scope)
        for revision in scope:
            self._first.setdefault(revision, position)
        if not claimants:
            return None
        other = min(claimants)
        return other, scope & self._scopes[other]


@rule(
    "mcpdesc.primitives.scope-unique",
    doc=RuleDoc(
        summary=(
            "Two tools or prompts with the same name, resources with the same `uri` or templates with the same "
            "`uriTemplate` have disjoint scopes."
        ),
        rationale=(
            "A client sees one declaration per identity in each protocol version; two that overlap leave it "
            "undefined which one applies (an omitted scope overlaps every other)."
        ),
        bad=fragment(
            """
            protocolVersions: ["2025-06-18", "2025-11-25"]
            tools:
              - name: search
                inputSchema: {type: object}
              - name: search
                inputSchema: {type: object}
                description: Search, with filters
            """
        ),
        good=fragment(
            """
            protocolVersions: ["2025-06-18", "2025-11-25"]
            tools:
              - name: search
                protocolVersions: ["2025-06-18"]
                inputSchema: {type: object}
              - name: search
                protocolVersions: ["2025-11-25"]
                inputSchema: {type: object}
                description: Search, with filters
            """
        ),
        requirements=("digest §4.2",),
        codes=("primitive-scope-overlap",),
    ),
)
def identities_disjoint(document: Document) -> Iterator[Finding]:
    """Each declaration that overlaps an earlier one of the same identity is reported once,
    against the first one it overlaps."""
    declared = Counter((p.kind, p.identity) for p in document.primitives if p.identity is not None)
    claims: dict[tuple[str, str], tuple[_FirstClaims, list[str]]] = {}
    for primitive in document.primitives:
        identity = primitive.identity
        if identity is None or declared[(primitive.kind, identity)] == 1:
            continue  # declared once: nothing to overlap
        index, pointers = claims.setdefault((primitive.kind, identity), (_FirstClaims(), []))
        overlap = index.claim(frozenset(primitive.scope))
        pointers.append(primitive.pointer)
        if overlap is not None:
            other, shared = overlap
            key = BY_NAME[primitive.kind].identity
            yield Finding.error(
                "primitive-scope-overlap",
                f"{primitive.label} is declared again for protocol version(s) {describe(shared)} "
                f"(also at {pointers[other]}); declarations sharing a {key} need disjoint protocolVersions",
                jp.join(primitive.pointer, key),
            )


@rule(
    "mcpdesc.capabilities.scope-unique",
    doc=RuleDoc(
        summary="No protocol revision is covered by two Capabilities objects.",
        rationale=(
            "Capabilities are negotiated per protocol version; two objects for one version contradict or repeat "
            "each other."
        ),
        bad=fragment(
            """
            protocolVersions: ["2025-06-18", "2025-11-25"]
            capabilities:
              - tools: {}
              - tools: {listChanged: true}
            """
        ),
        good=fragment(
            """
            protocolVersions: ["2025-06-18", "2025-11-25"]
            capabilities:
              - protocolVersions: ["2025-06-18"]
                tools: {}
              - protocolVersions: ["2025-11-25"]
                tools: {listChanged: true}
            """
        ),
        requirements=("digest §4.2", "digest §2.6"),
        codes=("capability-scope-overlap",),
    ),
)
def capabilities_disjoint(document: Document) -> Iterator[Finding]:
    """Each capabilities object that overlaps an earlier one is reported once, against the
    first one it overlaps."""
    index = _FirstClaims()
    for position, item in enumerate(as_list(document.data.get("capabilities"))):
        overlap = index.claim(frozenset(explicit_scope(as_object(item)) or document.root_scope))
        if overlap is not None:
            other, shared = overlap
            yield Finding.error(
                "capability-scope-overlap",
                f"capabilities objects {other} and {position} both apply to {describe(shared)}; "
                "at most one capabilities object may apply to a protocol version",
                jp.join("", "capabilities", position),
            )


@rule(
    "mcpdesc.transports.coverage",
    doc=RuleDoc(
        summary="When `transports` is present, every root protocol revision has at least one transport.",
        rationale="A revision without a transport is one no client can connect with, though the description claims it.",
        bad=fragment(
            """
            protocolVersions: ["2025-06-18", "2025-11-25"]
            transports:
              - type: stdio
                command: example-server
                protocolVersions: ["2025-11-25"]
            """
        ),
        good=fragment(
            """
            protocolVersions: ["2025-06-18", "2025-11-25"]
            transports:
              - type: stdio
                command: example-server
            """
        ),
        requirements=("digest §4.2", "digest §2.4"),
        codes=("transport-coverage-gap",),
    ),
)
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


@rule(
    "mcpdesc.legacy-protocol.validation-scope",
    doc=RuleDoc(
        summary=(
            "A description that lists 2024-11-05 or 2025-03-26 is warned that those revisions are checked only in part."
        ),
        rationale=(
            "The format's rules are written for later revisions; for the legacy ones only structure is checked, so "
            "the warning says so rather than implying full validation."
        ),
        bad=fragment(
            """
            protocolVersions: ["2025-03-26", "2025-11-25"]
            """
        ),
        good=fragment(
            """
            protocolVersions: ["2025-06-18", "2025-11-25"]
            """
        ),
        requirements=("digest §4.2", "req-elicitation-legacy-incomplete"),
        codes=("legacy-protocol-validation-incomplete",),
        severity=Severity.WARNING,
    ),
)
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
