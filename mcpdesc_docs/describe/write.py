"""A listing -> a 0.9.0 description, holding what the server listed and nothing else.

What the server sent at a version is what the description declares for that version,
member for member, wherever the specification defines the member at that version (a
tool's ``title`` from 2025-06-18, ``icons`` and a schema's ``$schema`` from 2025-11-25).
Each version's copy is projected on its own deep copy, so nothing is shared between
versions. Versions that agree share one declaration; where they differ, the declaration
is split into variants with disjoint ``protocolVersions``, newest first, and a schema the
variants hold alike is written once, in ``components.schemas``, and referenced from each.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from ..source import pointer as jp
from ..source.roundtrip import canonical
from ..spec.versions import SPEC_0_9_0_RC_3
from ..validation.rules.applicability import FIELD_CODE
from ..validation.validator import check_document
from .connect import Listing, Target, VersionListing
from .tolerant import COLLECTIONS, IDENTITY

SERVER_OWNED: dict[str, tuple[str, ...]] = {
    "tools": (
        "name",
        "title",
        "description",
        "inputSchema",
        "outputSchema",
        "annotations",
        "execution",
        "icons",
        "_meta",
    ),
    "resources": ("name", "title", "uri", "description", "mimeType", "size", "annotations", "icons", "_meta"),
    "resourceTemplates": ("name", "title", "uriTemplate", "description", "mimeType", "annotations", "icons", "_meta"),
    "prompts": ("name", "title", "description", "arguments", "icons", "_meta"),
}
"""What a listing says about each primitive: the members ``--update`` refreshes."""
OBSERVED = ("clientRequirements",)
"""Members describe records from what it observed rather than read (refreshed as well)."""
INFO_MEMBERS = ("name", "title", "version", "description", "websiteUrl", "icons")
CAPABILITY_MEMBERS = ("tools", "resources", "prompts", "completions", "logging", "tasks", "extensions", "experimental")
_ARGUMENT_MEMBERS = ("name", "title", "description", "required")
_SCHEMA_MEMBERS = ("inputSchema", "outputSchema")
_COMPONENT_NAME = re.compile(r"[^A-Za-z0-9._-]+")
assert set(COLLECTIONS) == set(SERVER_OWNED)


def _owned(collection: str, item: dict[str, Any]) -> dict[str, Any]:
    owned = {m: copy.deepcopy(item[m]) for m in SERVER_OWNED[collection] if item.get(m) not in (None, [], "")}
    if isinstance(owned.get("arguments"), list):
        owned["arguments"] = [
            {m: a[m] for m in _ARGUMENT_MEMBERS if m in a} if isinstance(a, dict) else a for a in owned["arguments"]
        ]
    return owned


def declared(collection: str, item: dict[str, Any], at: VersionListing) -> dict[str, Any]:
    """One listed item as a declaration at ``at``'s version, before projection."""
    owned = _owned(collection, item)
    needs = at.requirements.get((collection, str(item.get(IDENTITY[collection]))))
    if needs:
        owned["clientRequirements"] = copy.deepcopy(needs)
    return owned


def projected(document: dict[str, Any], scope: list[str]) -> dict[str, Any]:
    """``document``'s collections and capabilities without what a version in ``scope`` does
    not define. Works on (and returns) a deep copy: ``document`` is left as it was."""
    probe: dict[str, Any] = {
        "mcpdesc": SPEC_0_9_0_RC_3.mcpdesc,
        "info": {"name": "-", "version": "-"},
        "protocolVersions": scope,
    }
    probe.update(copy.deepcopy(document))
    found = [
        d.path
        for d in check_document(probe).diagnostics
        if d.code == FIELD_CODE and d.path and jp.split(d.path)[0] in (*COLLECTIONS, "capabilities")
    ]
    data = {key: value for key, value in probe.items() if key in document}
    for pointer in sorted(set(found), key=lambda p: len(jp.split(p)), reverse=True):
        parent = jp.lookup(data, jp.parent(pointer))
        if isinstance(parent, dict):
            parent.pop(jp.split(pointer)[-1], None)
    return data


def _scoped(item: dict[str, Any], scope: list[str]) -> dict[str, Any]:
    # Right after the identity, where a reader looks for it.
    keys = list(item)
    head_end = next((keys.index(k) + 1 for k in ("name", "uri", "uriTemplate") if k in item), 0)
    head = {key: item[key] for key in keys[:head_end]}
    return {**head, "protocolVersions": scope, **{k: v for k, v in item.items() if k not in head}}


def _variants(per_version: dict[str, Any]) -> list[tuple[list[str], Any]]:
    """Versions grouped by what they hold, newest group first."""
    groups: dict[str, tuple[list[str], Any]] = {}
    for version, value in per_version.items():
        groups.setdefault(canonical(value), ([], value))[0].append(version)
    return sorted(groups.values(), key=lambda group: max(group[0]), reverse=True)


def per_version_items(listing: Listing) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """Version -> collection -> the declarations at that version, projected to it."""
    result: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for version, at in listing.by_version.items():
        document = {c: [declared(c, item, at) for item in at.items[c]] for c in COLLECTIONS}
        result[version] = projected(document, [version])
    return result


def declarations(listing: Listing) -> dict[str, list[dict[str, Any]]]:
    """Each primitive as one declaration, or as variants where versions differ."""
    versions = listing.versions
    copies = per_version_items(listing)
    result: dict[str, list[dict[str, Any]]] = {}
    for collection in COLLECTIONS:
        identity = IDENTITY[collection]
        order: list[str] = []
        at: dict[str, dict[str, dict[str, Any]]] = {}
        for version in reversed(versions):  # newest first: its order is the server's present one
            for item in copies[version][collection]:
                key = str(item[identity])
                if key not in at:
                    order.append(key)
                    at[key] = {}
                at[key][version] = item
        result[collection] = []
        for key in order:
            present = {v: at[key][v] for v in versions if v in at[key]}
            groups = _variants(present)
            if len(groups) == 1 and len(present) == len(versions):
                result[collection].append(groups[0][1])
            else:
                result[collection].extend(_scoped(item, scope) for scope, item in groups)
    return result


def _component_name(base: str, member: str, taken: set[str]) -> str:
    stem = _COMPONENT_NAME.sub("-", base).strip("-") or "tool"
    name = f"{stem}.{'input' if member == 'inputSchema' else 'output'}"
    candidate, number = name, 2
    while candidate in taken:
        candidate, number = f"{name}-{number}", number + 1
    taken.add(candidate)
    return candidate


def factor_schemas(tools: list[dict[str, Any]]) -> dict[str, Any]:
    """Schemas that two or more variants of one tool hold alike, moved into components
    (returned) and referenced from each variant, so each is written once."""
    schemas: dict[str, Any] = {}
    taken: set[str] = set()
    by_name: dict[str, list[dict[str, Any]]] = {}
    for tool in tools:
        by_name.setdefault(str(tool.get("name")), []).append(tool)
    for name, variants in by_name.items():
        if len(variants) < 2:
            continue
        for member in _SCHEMA_MEMBERS:
            alike: dict[str, list[dict[str, Any]]] = {}
            for variant in variants:
                if isinstance(variant.get(member), dict):
                    alike.setdefault(canonical(variant[member]), []).append(variant)
            for holders in alike.values():
                if len(holders) < 2:
                    continue
                component = _component_name(name, member, taken)
                schemas[component] = holders[0][member]
                for holder in holders:
                    holder[member] = {"$componentRef": f"#/components/schemas/{component}"}
    return schemas


def _capabilities(wire: dict[str, Any]) -> dict[str, Any]:
    return {member: copy.deepcopy(wire[member]) for member in CAPABILITY_MEMBERS if wire.get(member) is not None}


def _capability_declarations(listing: Listing) -> list[dict[str, Any]]:
    per_version = {
        v: projected({"capabilities": [_capabilities(at.capabilities)]}, [v])["capabilities"][0]
        for v, at in listing.by_version.items()
    }
    groups = _variants(per_version)
    if len(groups) == 1:
        return [groups[0][1]] if groups[0][1] else []
    return [{"protocolVersions": scope, **value} for scope, value in groups]


def info(listing: Listing) -> dict[str, Any]:
    """The newest version's server info. An empty ``version`` is kept: it is what the server says."""
    server = listing.newest.server_info
    return {
        m: copy.deepcopy(server[m])
        for m in INFO_MEMBERS
        if m in server and (server[m] not in (None, "", []) or (m == "version" and server[m] == ""))
    }


def description(listing: Listing, target: Target) -> dict[str, Any]:
    """The 0.9.0 description of what the server listed: invented members, none."""
    document: dict[str, Any] = {
        "$schema": SPEC_0_9_0_RC_3.schema_uri,
        "mcpdesc": SPEC_0_9_0_RC_3.mcpdesc,
        "info": info(listing),
        "protocolVersions": listing.versions,
    }
    if listing.newest.instructions:
        document["instructions"] = listing.newest.instructions
    document["transports"] = [target.transport()]
    capabilities = _capability_declarations(listing)
    if capabilities:
        document["capabilities"] = capabilities
    for collection, items in declarations(listing).items():
        if items:
            document[collection] = items
    schemas = factor_schemas(document.get("tools", []))
    if schemas:
        document["components"] = {"schemas": schemas}
    return document


def resolved(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with the schema references of its tools replaced by their targets (a
    copy), so that two descriptions compare by what they say, not how they spell it."""
    schemas = document.get("components", {}).get("schemas", {}) if isinstance(document.get("components"), dict) else {}
    result = dict(document)
    if not isinstance(schemas, dict) or not isinstance(document.get("tools"), list):
        return result
    tools = []
    for tool in document["tools"]:
        if isinstance(tool, dict):
            tool = dict(tool)
            for member in _SCHEMA_MEMBERS:
                tool[member] = _target(tool.get(member), schemas)
                if tool[member] is None:
                    del tool[member]
        tools.append(tool)
    result["tools"] = tools
    return result


def _target(value: object, schemas: dict[str, Any]) -> Any:
    for _ in range(32):  # a chain of references, never a cycle
        if not (
            isinstance(value, dict) and set(value) == {"$componentRef"} and isinstance(value["$componentRef"], str)
        ):
            return value
        prefix = "#/components/schemas/"
        ref = value["$componentRef"]
        if not ref.startswith(prefix) or ref[len(prefix) :] not in schemas:
            return value
        value = schemas[ref[len(prefix) :]]
    return value
