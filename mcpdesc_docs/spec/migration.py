"""0.7.0 -> 0.8.0/0.9.0, following the upstream migration guidance (digest section 6), and
0.8.0 -> 0.9.0.

Root ``protocolVersions`` from ``info.protocolVersion`` (never guessed when absent), the
capabilities object wrapped in an array, inline security schemes hoisted to named
``securitySchemes`` (deterministic names) and referenced, empty collections dropped,
``x-*`` kept, key order kept. A tool without ``inputSchema`` is reported, never given an
invented one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Diagnostic, error
from ..kinds import KINDS
from ..rule_docs import RuleDoc
from ..source import pointer as jp
from .versions import Specification

RULE = "mcpdesc07.migrate"
MIGRATE_DOC = RuleDoc(
    summary="`mcpdesc-docs migrate` can carry every part of a 0.7.0 description over, or says what it cannot.",
    rationale=(
        "0.8.0 needs facts 0.7.0 does not record (the protocol versions, a tool's input schema) and closes what "
        "0.7.0 left open; migration never guesses, it names what to add by hand or with --protocol-version."
    ),
    bad='mcpdesc: "0.7.0"\ninfo:\n  name: example\n  version: 1.0.0\n',
    good='mcpdesc: "0.7.0"\ninfo:\n  name: example\n  version: 1.0.0\n  protocolVersion: "2025-06-18"\n',
    requirements=("digest §6 (0.7.0 to 0.8.0)",),
    codes=("protocol-version-unknown", "capability-not-carried-over", "tool-input-schema-missing"),
)
_NAME_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_KNOWN_CAPABILITIES = ("tools", "resources", "prompts", "completions", "logging", "tasks", "experimental")
_COLLECTIONS = (*(kind.collection for kind in KINDS), "tags")


@dataclass(slots=True)
class Migration:
    data: dict[str, Any]
    problems: list[Diagnostic] = field(default_factory=list)
    scheme_names: dict[str, str] = field(default_factory=dict)
    """Pointer of each inline 0.7.0 scheme -> the name it was given."""


class _Schemes:
    """Inline schemes -> named ones: equal schemes share a name; names are deterministic."""

    def __init__(self) -> None:
        self.named: dict[str, dict[str, Any]] = {}

    def name_for(self, scheme: Mapping[str, Any]) -> str:
        for name, existing in self.named.items():
            if existing == scheme:
                return name
        kind = str(scheme.get("type", "scheme"))
        if kind == "http":
            base = str(scheme.get("scheme") or "http")
        elif kind == "apiKey":
            base = f"apiKey-{scheme.get('name', 'key')}"
        else:
            base = kind
        base = _NAME_UNSAFE.sub("-", base).strip("-") or "scheme"
        name, n = base, 2
        while name in self.named:
            name, n = f"{base}-{n}", n + 1
        self.named[name] = dict(scheme)
        return name


def _requirement(value: object, at: str, schemes: _Schemes, migration: Migration) -> list[dict[str, list[str]]]:
    """An inline 0.7.0 scheme array -> a Security Requirement Array (any one scheme suffices)."""
    requirement: list[dict[str, list[str]]] = []
    for index, scheme in enumerate(value if isinstance(value, list) else []):
        if isinstance(scheme, Mapping):
            name = schemes.name_for(scheme)
            migration.scheme_names[jp.join(at, index)] = name
            requirement.append({name: []})
    return requirement


def _drop_empty(item: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in item.items() if not (k in ("tags", "arguments", "icons") and v == [])}


def migrate_070(
    data: Mapping[str, Any],
    target: Specification,
    *,
    protocol_versions: Sequence[str] | None = None,
    for_display: bool = False,
) -> Migration:
    """``for_display`` keeps going where a real migration must stop (missing protocol
    version or input schema): the site shows the document as it is."""
    migration = Migration({})
    out = migration.data
    schemes = _Schemes()
    info = data.get("info") if isinstance(data.get("info"), Mapping) else {}
    declared = info.get("protocolVersion") if isinstance(info, Mapping) else None
    versions = [declared] if isinstance(declared, str) else list(protocol_versions or [])
    if not versions and not for_display:
        migration.problems.append(
            error(
                RULE,
                "protocol-version-unknown",
                "info.protocolVersion is absent, so the MCP protocol versions this server speaks are unknown; "
                "pass them with --protocol-version (nothing is guessed)",
                "/info",
            )
        )
    security_value: list[dict[str, list[str]]] | None = None
    for key, value in data.items():
        if key == "$schema":
            out[key] = target.schema_uri
        elif key == "mcpdesc":
            out[key] = target.mcpdesc
        elif key == "info" and isinstance(value, Mapping):
            out["info"] = {k: v for k, v in value.items() if k != "protocolVersion" and v != []}
            out["protocolVersions"] = versions
        elif key == "security":
            security_value = _requirement(value, "/security", schemes, migration)
            out["security"] = None  # placeholder: keeps the key's position
        elif key == "transports" and isinstance(value, list):
            transports = []
            for index, transport in enumerate(value):
                item = dict(transport) if isinstance(transport, Mapping) else transport
                if isinstance(item, dict) and "security" in item:
                    item["security"] = _requirement(
                        item["security"], jp.join("", "transports", index, "security"), schemes, migration
                    )
                transports.append(item)
            out["transports"] = transports
        elif key == "capabilities" and isinstance(value, Mapping):
            unknown = [k for k in value if k not in _KNOWN_CAPABILITIES and not k.startswith("x-")]
            for name in unknown:
                if not for_display:
                    migration.problems.append(
                        error(
                            RULE,
                            "capability-not-carried-over",
                            f"capability {name!r} is not an MCP capability; 0.8.0 capabilities are closed: move it "
                            "under 'experimental' or into an x-* member by hand",
                            jp.join("", "capabilities", name),
                        )
                    )
            kept = {k: v for k, v in value.items() if k not in unknown or for_display}
            if kept:
                out["capabilities"] = [kept]
        elif key in _COLLECTIONS and isinstance(value, list):
            if not value:
                continue
            items = [_drop_empty(item) if isinstance(item, Mapping) else item for item in value]
            if key == "tools" and not for_display:
                for index, tool in enumerate(items):
                    if isinstance(tool, Mapping) and "inputSchema" not in tool:
                        migration.problems.append(
                            error(
                                RULE,
                                "tool-input-schema-missing",
                                f"tool {tool.get('name')!r} has no inputSchema, which 0.8.0 requires; add the "
                                "schema its arguments really follow ({type: object, additionalProperties: false} "
                                "if it takes none) and run migrate again",
                                jp.join("", "tools", index),
                            )
                        )
            out[key] = items
        else:
            out[key] = value
    if schemes.named:
        ordered: dict[str, Any] = {}
        for key, value in out.items():
            if key in ("security", "transports") and "securitySchemes" not in ordered:
                ordered["securitySchemes"] = schemes.named
            ordered[key] = value
        if "securitySchemes" not in ordered:
            ordered["securitySchemes"] = schemes.named
        out.clear()
        out.update(ordered)
    if "security" in out:
        if security_value:
            out["security"] = security_value
        else:
            del out["security"]  # 0.7.0: empty means no authentication required; 0.8.0: say nothing
    return migration


def migrate_080(data: Mapping[str, Any], target: Specification) -> Migration:
    """0.8.0 -> 0.9.0-rc.3: the version and the ``$schema`` snapshot (kept absent when absent).
    The 0.9.0-rc.3 elicitation chapter is the 0.8.0 text with rule ids and requirement
    anchors added; no member it shows is renamed, added as required or removed, so
    everything else carries over as it is."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key == "$schema":
            out[key] = target.schema_uri
        elif key == "mcpdesc":
            out[key] = target.mcpdesc
        else:
            out[key] = value
    return Migration(out)
