"""A listing -> a 0.9.0 description, holding what the server listed and nothing else.

Some members exist only from some protocol version on (a tool's ``title`` from 2025-06-18,
``icons`` from 2025-11-25). When the server accepts versions on both sides, the declaration
is split into variants with disjoint ``protocolVersions``, each holding what its versions
define: what the validator says a version does not define is left out of that variant.
"""

from __future__ import annotations

from typing import Any

from ..kinds import KINDS
from ..source import pointer as jp
from ..source.roundtrip import canonical
from ..spec.versions import SPEC_0_9_0_RC_3
from ..validation.rules.applicability import FIELD_CODE
from ..validation.validator import check_document
from .connect import Listing, Target

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
IDENTITY = {"tools": "name", "resources": "uri", "resourceTemplates": "uriTemplate", "prompts": "name"}
INFO_MEMBERS = ("name", "title", "version", "description", "websiteUrl", "icons")
CAPABILITY_MEMBERS = ("tools", "resources", "prompts", "completions", "logging", "tasks", "extensions", "experimental")
_ARGUMENT_MEMBERS = ("name", "title", "description", "required")
_COLLECTIONS = tuple(kind.collection for kind in KINDS)
assert set(_COLLECTIONS) == set(SERVER_OWNED)


def _owned(collection: str, item: dict[str, Any]) -> dict[str, Any]:
    owned = {member: item[member] for member in SERVER_OWNED[collection] if item.get(member) not in (None, [], "")}
    if "arguments" in owned:
        owned["arguments"] = [{m: a[m] for m in _ARGUMENT_MEMBERS if m in a} for a in owned["arguments"]]
    return owned


def _capabilities(wire: dict[str, Any]) -> dict[str, Any]:
    return {member: wire[member] for member in CAPABILITY_MEMBERS if wire.get(member) is not None}


def listed(listing: Listing) -> dict[str, list[dict[str, Any]]]:
    """The listing's primitives, as description members, before any projection."""
    wire = {
        "tools": listing.tools,
        "resources": listing.resources,
        "resourceTemplates": listing.resource_templates,
        "prompts": listing.prompts,
    }
    return {collection: [_owned(collection, item) for item in wire[collection]] for collection in _COLLECTIONS}


def projected(document: dict[str, Any], scope: list[str]) -> dict[str, Any]:
    """``document``'s collections and capabilities without what a version in ``scope`` does not define."""
    probe = {"mcpdesc": SPEC_0_9_0_RC_3.mcpdesc, "info": {"name": "-", "version": "-"}, "protocolVersions": scope}
    probe.update(document)
    found = [
        d.path
        for d in check_document(probe).diagnostics
        if d.code == FIELD_CODE and d.path and jp.split(d.path)[0] in (*_COLLECTIONS, "capabilities")
    ]
    data = {key: value for key, value in probe.items() if key in document}
    for pointer in sorted(set(found), key=lambda p: len(jp.split(p)), reverse=True):
        parent = jp.lookup(data, jp.parent(pointer))
        if isinstance(parent, dict):
            parent.pop(jp.split(pointer)[-1], None)
    return data


def _scoped(item: dict[str, Any], scope: list[str]) -> dict[str, Any]:
    # Right after the name, where a reader looks for it.
    head = {key: item[key] for key in list(item)[: list(item).index("name") + 1]} if "name" in item else {}
    return {**head, "protocolVersions": scope, **{k: v for k, v in item.items() if k not in head}}


def _variants(per_version: dict[str, Any]) -> list[tuple[list[str], Any]]:
    """Versions grouped by what they hold (every version in the order given)."""
    groups: dict[str, tuple[list[str], Any]] = {}
    for version, value in per_version.items():
        groups.setdefault(canonical(value), ([], value))[0].append(version)
    return list(groups.values())


def declarations(items: dict[str, list[dict[str, Any]]], versions: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Each listed primitive as one declaration, or as variants when versions differ in what they define."""
    copies = {v: projected({c: [dict(i) for i in items[c]] for c in _COLLECTIONS}, [v]) for v in versions}
    result: dict[str, list[dict[str, Any]]] = {}
    for collection in _COLLECTIONS:
        result[collection] = []
        for index in range(len(items[collection])):
            groups = _variants({v: copies[v][collection][index] for v in versions})
            if len(groups) == 1:
                result[collection].append(groups[0][1])
            else:
                result[collection].extend(_scoped(item, scope) for scope, item in groups)
    return result


def _capability_declarations(listing: Listing) -> list[dict[str, Any]]:
    per_version = {
        v: projected({"capabilities": [_capabilities(listing.capabilities.get(v, {}))]}, [v])["capabilities"][0]
        for v in listing.versions
    }
    groups = [(scope, value) for scope, value in _variants(per_version)]
    if len(groups) == 1:
        return [groups[0][1]] if groups[0][1] else []
    return [{"protocolVersions": scope, **value} for scope, value in groups]


def description(listing: Listing, target: Target) -> dict[str, Any]:
    """The 0.9.0 description of what the server listed: invented members, none."""
    info = {m: listing.server_info[m] for m in INFO_MEMBERS if listing.server_info.get(m) not in (None, "", [])}
    document: dict[str, Any] = {
        "$schema": SPEC_0_9_0_RC_3.schema_uri,
        "mcpdesc": SPEC_0_9_0_RC_3.mcpdesc,
        "info": info,
        "protocolVersions": list(listing.versions),
    }
    if listing.instructions:
        document["instructions"] = listing.instructions
    document["transports"] = [target.transport()]
    capabilities = _capability_declarations(listing)
    if capabilities:
        document["capabilities"] = capabilities
    for collection, items in declarations(listed(listing), listing.versions).items():
        if items:
            document[collection] = items
    return document
