"""``clientRequirements`` (digest 2.15, 4.10): which client capabilities each protocol
version defines, their closed member sets, deprecations, and extension identifiers."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ...diagnostics import Severity
from ...rule_docs import RuleDoc, fragment
from ...source import pointer as jp
from ...spec.revisions import describe
from ..document import Document, Primitive, as_object
from ..findings import Finding
from ..registry import rule
from ..suggest import did_you_mean

KNOWN = ("roots", "sampling", "elicitation", "tasks", "extensions", "experimental")
DEFINED: dict[str, frozenset[str]] = {
    "2024-11-05": frozenset({"roots", "sampling", "experimental"}),
    "2025-03-26": frozenset({"roots", "sampling", "experimental"}),
    "2025-06-18": frozenset({"roots", "sampling", "elicitation", "experimental"}),
    "2025-11-25": frozenset({"roots", "sampling", "elicitation", "tasks", "experimental"}),
    "2026-07-28": frozenset({"roots", "sampling", "elicitation", "extensions", "experimental"}),
}
# Closed member trees checked for 2025-11-25 and 2026-07-28 (None: any object below).
_NESTED: dict[str, dict[str, Any]] = {
    "sampling": {"context": None, "tools": None},
    "elicitation": {"form": None, "url": None},
    "tasks": {
        "list": None,
        "cancel": None,
        "requests": {"sampling": {"createMessage": None}, "elicitation": {"create": None}},
    },
}
_CLOSED_FROM = "2025-11-25"


def _requirements(document: Document) -> Iterator[tuple[Primitive, str, Mapping[str, Any]]]:
    for primitive in document.primitives:
        value = primitive.data.get("clientRequirements")
        if isinstance(value, Mapping):
            yield primitive, jp.join(primitive.pointer, "clientRequirements"), value


def _unknown_members(value: Any, tree: dict[str, Any], at: str) -> Iterator[tuple[str, str]]:
    """(pointer, did-you-mean hint) of each member the tree of known ones lacks."""
    if not isinstance(value, Mapping):
        return
    for key, item in value.items():
        if key not in tree:
            yield jp.join(at, key), did_you_mean(key, tree)
        elif tree[key] is not None:
            yield from _unknown_members(item, tree[key], jp.join(at, key))


@rule(
    "mcp.client-requirements.protocol-version",
    doc=RuleDoc(
        summary=(
            "`clientRequirements` names only client capabilities (and their members) that every protocol version in "
            "scope defines."
        ),
        rationale=(
            "A requirement on a capability a protocol version lacks (`elicitation` before 2025-06-18, core `tasks` "
            "outside 2025-11-25) can never be met by its clients."
        ),
        bad=fragment(
            """
            protocolVersions: ["2025-06-18", "2025-11-25"]
            tools:
              - name: search
                inputSchema: {type: object}
                clientRequirements:
                  tasks: {}
            """
        ),
        good=fragment(
            """
            protocolVersions: ["2025-06-18", "2025-11-25"]
            tools:
              - name: search
                inputSchema: {type: object}
                protocolVersions: ["2025-11-25"]
                clientRequirements:
                  tasks: {}
            """
        ),
        requirements=("digest §4.10", "digest §2.15"),
        codes=("client-requirement-version-mismatch",),
    ),
    local=True,
)
def requirement_versions(document: Document) -> Iterator[Finding]:
    code = "client-requirement-version-mismatch"
    for primitive, at, requirements in _requirements(document):
        for name, value in requirements.items():
            if name not in KNOWN:
                continue  # unknown capability names are preserved
            # An unknown protocol version in an explicit scope is the schema's to report.
            missing = [r for r in primitive.scope if r in DEFINED and name not in DEFINED[r]]
            if missing:
                yield Finding.error(
                    code,
                    f"{primitive.label}: the client capability {name!r} is not defined by protocol version(s) "
                    f"{describe(missing)}; narrow protocolVersions or split the declaration",
                    jp.join(at, name),
                )
            if name == "roots":
                extra = [k for k in as_object(value) if k != "listChanged"]
                if "2026-07-28" in primitive.scope:
                    extra = list(as_object(value))
                for key in extra:
                    yield Finding.error(
                        code,
                        f"{primitive.label}: 'roots.{key}' is not a member of the roots capability"
                        + (
                            " (it must be empty in 2026-07-28)"
                            if "2026-07-28" in primitive.scope
                            else did_you_mean(key, ("listChanged",))
                        ),
                        jp.join(at, name, key),
                    )
            elif name in _NESTED and any(r >= _CLOSED_FROM for r in primitive.scope):
                for pointer, hint in _unknown_members(value, _NESTED[name], jp.join(at, name)):
                    yield Finding.error(
                        code,
                        f"{primitive.label}: {pointer.removeprefix(at + '/')!r} is not a member of the "
                        f"{name} client capability{hint}",
                        pointer,
                    )


@rule(
    "mcp.client-requirements.deprecated",
    doc=RuleDoc(
        summary=(
            "`clientRequirements` avoids what its protocol versions deprecate: `roots` and `sampling` in "
            "2026-07-28, `sampling.context` from 2025-11-25."
        ),
        rationale="Clients may drop deprecated capabilities; a call that requires them may stop working.",
        bad=fragment(
            """
            tools:
              - name: search
                inputSchema: {type: object}
                clientRequirements:
                  sampling:
                    context: {}
            """
        ),
        good=fragment(
            """
            tools:
              - name: search
                inputSchema: {type: object}
                clientRequirements:
                  sampling: {}
            """
        ),
        requirements=("digest §4.10", "digest §2.15"),
        codes=("deprecated-client-requirement",),
        severity=Severity.WARNING,
    ),
    local=True,
)
def deprecated_requirements(document: Document) -> Iterator[Finding]:
    code = "deprecated-client-requirement"
    for primitive, at, requirements in _requirements(document):
        if "2026-07-28" in primitive.scope:
            for name in ("roots", "sampling"):
                if name in requirements:
                    yield Finding.warning(
                        code,
                        f"{primitive.label}: the {name!r} capability is deprecated in 2026-07-28",
                        jp.join(at, name),
                    )
        modern = [r for r in primitive.scope if r >= "2025-11-25"]
        if modern and "context" in as_object(requirements.get("sampling")):
            yield Finding.warning(
                code,
                f"{primitive.label}: 'sampling.context' is deprecated in {describe(modern)}",
                jp.join(at, "sampling", "context"),
            )


__all__ = ["DEFINED", "KNOWN"]
