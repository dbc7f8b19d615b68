"""``_meta`` objects (digest 4.6): key grammar, reserved prefixes per protocol version,
the contexts and value shapes of known reserved keys, and where ``_meta`` is defined."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from ...diagnostics import Severity
from ...records import record
from ...rule_docs import RuleDoc, fragment
from ...source import pointer as jp
from ...spec.revisions import REVISIONS, before, describe
from ..document import Document, Primitive, as_list, as_object
from ..findings import Finding
from ..registry import rule
from .results import example_results

# Matched with fullmatch: a `$` would also match before a trailing newline in Python's re.
KEY = re.compile(
    r"(?:(?:[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?)(?:\.[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*/)?"
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?"
)
META_FLOOR = "2025-06-18"
"""Reserved keys are checked for this protocol version and later only (legacy: structure only)."""
_MCP_LABELS = ("modelcontextprotocol", "mcp")
LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")

# Where a _meta object sits: declarations (list results), results, content inside results.
DECLARATION, RESULT, CONTENT = "declaration", "result", "content"


def _string(value: Any) -> bool:
    return isinstance(value, str) and value != ""


def _string_or_number(value: Any) -> bool:
    return isinstance(value, str | int | float) and not isinstance(value, bool)


def _implementation(value: Any) -> bool:
    return isinstance(value, Mapping) and _string(value.get("name")) and _string(value.get("version"))


def _task(value: Any) -> bool:
    return isinstance(value, Mapping) and isinstance(value.get("taskId"), str)


@record
class KnownKey:
    revisions: tuple[str, ...]
    contexts: frozenset[str] | None
    """Where a description may carry it; None = anywhere; empty = nowhere (request/notification only)."""
    where: str
    check: Callable[[Any], bool]
    shape: str


_NOWHERE: frozenset[str] = frozenset()
_FROM_2025_06 = tuple(r for r in REVISIONS if r >= "2025-06-18")
KNOWN: dict[str, KnownKey] = {
    "progressToken": KnownKey(_FROM_2025_06, _NOWHERE, "requests", _string_or_number, "a string or number"),
    "io.modelcontextprotocol/related-task": KnownKey(
        ("2025-11-25",), frozenset({RESULT}), "results", _task, "an object with a string 'taskId'"
    ),
    "io.modelcontextprotocol/serverInfo": KnownKey(
        ("2026-07-28",), frozenset({RESULT}), "results", _implementation, "an object with string 'name' and 'version'"
    ),
    "io.modelcontextprotocol/protocolVersion": KnownKey(("2026-07-28",), _NOWHERE, "requests", _string, "a string"),
    "io.modelcontextprotocol/clientInfo": KnownKey(
        ("2026-07-28",), _NOWHERE, "requests", _implementation, "an Implementation object"
    ),
    "io.modelcontextprotocol/clientCapabilities": KnownKey(
        ("2026-07-28",), _NOWHERE, "requests", lambda v: isinstance(v, Mapping), "an object"
    ),
    "io.modelcontextprotocol/logLevel": KnownKey(
        ("2026-07-28",), _NOWHERE, "requests", lambda v: v in LOG_LEVELS, "a log level"
    ),
    "io.modelcontextprotocol/subscriptionId": KnownKey(
        ("2026-07-28",), _NOWHERE, "notifications", _string_or_number, "a string or number"
    ),
    **{
        name: KnownKey(("2026-07-28",), None, "anywhere", _string, "a non-empty string")
        for name in ("traceparent", "tracestate", "baggage")
    },
}


def is_reserved(key: str, revision: str) -> bool:
    """Whether the key's prefix is reserved for MCP under the protocol version."""
    if "/" not in key:
        return False
    labels = key.split("/", 1)[0].split(".")
    if revision >= "2025-11-25":
        return len(labels) >= 2 and labels[1] in _MCP_LABELS
    # 2025-06-18: an MCP label followed by at least one more label.
    return any(label in _MCP_LABELS for label in labels[:-1])


@record
class MetaSite:
    primitive: Primitive
    pointer: str
    """The pointer of the _meta object itself."""
    value: Mapping[str, Any]
    context: str
    label: str


def meta_sites(document: Document) -> Iterable[MetaSite]:
    return document.walked_once(_walk_meta_sites)


def _walk_meta_sites(document: Document) -> Iterator[MetaSite]:
    for primitive in document.primitives:
        if isinstance(primitive.data.get("_meta"), Mapping):
            yield MetaSite(
                primitive, jp.join(primitive.pointer, "_meta"), primitive.data["_meta"], DECLARATION, primitive.label
            )
    for example, result, at in example_results(document):
        if isinstance(result.get("_meta"), Mapping):
            yield MetaSite(example.primitive, jp.join(at, "_meta"), result["_meta"], RESULT, example.label)
        blocks = [("content", as_list(result.get("content"))), ("contents", as_list(result.get("contents")))]
        for collection, items in blocks:
            for index, raw in enumerate(items):
                block = as_object(raw)
                where = jp.join(at, collection, index)
                if isinstance(block.get("_meta"), Mapping):
                    yield MetaSite(example.primitive, jp.join(where, "_meta"), block["_meta"], CONTENT, example.label)
                embedded = as_object(block.get("resource"))
                if isinstance(embedded.get("_meta"), Mapping):
                    yield MetaSite(
                        example.primitive,
                        jp.join(where, "resource", "_meta"),
                        embedded["_meta"],
                        CONTENT,
                        example.label,
                    )


def _checked_revisions(site: MetaSite) -> list[str]:
    return [r for r in site.primitive.scope if r >= META_FLOOR]


@rule(
    "mcp.meta.key-grammar",
    doc=RuleDoc(
        summary=(
            "Every `_meta` key is an optional dotted prefix and slash, then a name of letters, digits, `-`, `_` and "
            "`.`."
        ),
        rationale="MCP defines the grammar of `_meta` keys; clients may reject or misread a key outside it.",
        bad=fragment(
            """
            tools:
              - name: search
                inputSchema: {type: object}
                _meta:
                  "com.example/cache ttl": 60
            """
        ),
        good=fragment(
            """
            tools:
              - name: search
                inputSchema: {type: object}
                _meta:
                  com.example/cache-ttl: 60
            """
        ),
        requirements=("digest §4.6",),
        codes=("meta-key-invalid",),
    ),
    local=True,
)
def key_grammar(document: Document) -> Iterator[Finding]:
    for site in meta_sites(document):
        for key in site.value:
            if not KEY.fullmatch(key):
                yield Finding.error(
                    "meta-key-invalid",
                    f"{site.label}: {key!r} is not a valid _meta key (an optional 'label.label/' prefix, then "
                    "a name of letters, digits, '-', '_' and '.', starting and ending alphanumeric)",
                    jp.join(site.pointer, key),
                )


@rule(
    "mcp.meta.reserved-key-context",
    doc=RuleDoc(
        summary=(
            "A reserved `_meta` key appears only where its protocol version defines it (a request key never in a "
            "declaration)."
        ),
        rationale=(
            "Keys such as `progressToken` belong to requests or results on the wire; in a description they claim a "
            "meaning they cannot have there."
        ),
        bad=fragment(
            """
            tools:
              - name: search
                inputSchema: {type: object}
                _meta:
                  progressToken: 1
            """
        ),
        good=fragment(
            """
            tools:
              - name: search
                inputSchema: {type: object}
                _meta:
                  com.example/progress: 1
            """
        ),
        requirements=("digest §4.6",),
        codes=("meta-reserved-key-context",),
    ),
    local=True,
)
def reserved_key_context(document: Document) -> Iterator[Finding]:
    for site in meta_sites(document):
        revisions = _checked_revisions(site)
        for key in site.value:
            known = KNOWN.get(key)
            if known is None:
                continue
            defined = [r for r in revisions if r in known.revisions]
            if defined and known.contexts is not None and site.context not in known.contexts:
                yield Finding.error(
                    "meta-reserved-key-context",
                    f"{site.label}: {key!r} belongs in {known.where} under protocol version(s) {describe(defined)}, "
                    f"not in {'a declaration' if site.context == DECLARATION else 'this ' + site.context}",
                    jp.join(site.pointer, key),
                )


@rule(
    "mcp.meta.reserved-key-value",
    doc=RuleDoc(
        summary="A reserved `_meta` key holds a value of the shape its protocol version defines.",
        rationale=(
            "Clients act on reserved keys (trace context, related task, server info); a value of another shape "
            "breaks them."
        ),
        bad=fragment(
            """
            protocolVersions: ["2026-07-28"]
            tools:
              - name: search
                inputSchema: {type: object}
                _meta:
                  traceparent: 42
            """
        ),
        good=fragment(
            """
            protocolVersions: ["2026-07-28"]
            tools:
              - name: search
                inputSchema: {type: object}
                _meta:
                  traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01
            """
        ),
        requirements=("digest §4.6",),
        codes=("meta-reserved-key-value",),
    ),
    local=True,
)
def reserved_key_value(document: Document) -> Iterator[Finding]:
    for site in meta_sites(document):
        revisions = _checked_revisions(site)
        for key, value in site.value.items():
            known = KNOWN.get(key)
            if known is None or not any(r in known.revisions for r in revisions):
                continue
            if not known.check(value):
                yield Finding.error(
                    "meta-reserved-key-value",
                    f"{site.label}: {key!r} must be {known.shape}",
                    jp.join(site.pointer, key),
                )


@rule(
    "mcp.meta.unknown-reserved-key",
    doc=RuleDoc(
        summary="`_meta` keys under a prefix MCP reserves (such as `io.modelcontextprotocol/`) are keys MCP defines.",
        rationale=(
            "Reserved prefixes belong to the protocol; an unknown key there may clash with a future one. It is "
            "kept, with a warning."
        ),
        bad=fragment(
            """
            tools:
              - name: search
                inputSchema: {type: object}
                _meta:
                  io.modelcontextprotocol/colour: red
            """
        ),
        good=fragment(
            """
            tools:
              - name: search
                inputSchema: {type: object}
                _meta:
                  com.example/colour: red
            """
        ),
        requirements=("digest §4.6",),
        codes=("meta-unknown-reserved-key",),
        severity=Severity.WARNING,
    ),
    local=True,
)
def unknown_reserved_key(document: Document) -> Iterator[Finding]:
    for site in meta_sites(document):
        revisions = _checked_revisions(site)
        for key in site.value:
            known = KNOWN.get(key)
            unknown_in = [r for r in revisions if is_reserved(key, r) and (known is None or r not in known.revisions)]
            if unknown_in:
                yield Finding.warning(
                    "meta-unknown-reserved-key",
                    f"{site.label}: {key!r} uses a prefix reserved for MCP but protocol version(s) "
                    f"{describe(unknown_in)} define no such key; it is kept as it is",
                    jp.join(site.pointer, key),
                )


@rule(
    "mcp.meta.protocol-version",
    doc=RuleDoc(
        summary=(
            "A declaration carries `_meta` only when every protocol version in its scope defines it (2025-06-18 and "
            "later)."
        ),
        rationale="Older protocol versions have no `_meta` on declarations; clients speaking them would never see it.",
        bad=fragment(
            """
            protocolVersions: ["2025-03-26", "2025-06-18"]
            tools:
              - name: search
                inputSchema: {type: object}
                protocolVersions: ["2025-03-26"]
                _meta:
                  com.example/cache-ttl: 60
            """
        ),
        good=fragment(
            """
            protocolVersions: ["2025-03-26", "2025-06-18"]
            tools:
              - name: search
                inputSchema: {type: object}
                protocolVersions: ["2025-06-18"]
                _meta:
                  com.example/cache-ttl: 60
            """
        ),
        requirements=("digest §4.6", "digest §4.3"),
        codes=("field-not-supported-by-version",),
    ),
    local=True,
)
def meta_versions(document: Document) -> Iterator[Finding]:
    # Declarations only: results and content report their own _meta floor with their example rules.
    for primitive in document.primitives:
        early = before(primitive.scope, META_FLOOR)
        if "_meta" in primitive.data and early:
            yield Finding.error(
                "field-not-supported-by-version",
                f"{primitive.label} uses '_meta', which protocol version(s) {describe(early)} do not define "
                f"({META_FLOOR} and later); narrow protocolVersions or split the declaration",
                jp.join(primitive.pointer, "_meta"),
            )
