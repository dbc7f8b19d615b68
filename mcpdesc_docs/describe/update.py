"""Refreshing a description from the server: what the server owns is replaced, what only
the description has (elicitations, security, examples, tags, ``x-*``, client requirements,
hand-written protocol scopes) is kept."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .compare import SINGULAR, key
from .write import IDENTITY, SERVER_OWNED, projected


@dataclass(slots=True)
class Refresh:
    data: dict[str, Any]
    removed: list[str] = field(default_factory=list)
    """Labels of the declarations dropped because the server no longer lists them."""
    added: list[str] = field(default_factory=list)


def _label(collection: str, identity: object) -> str:
    return f"{SINGULAR[collection]} {identity!r}"


def _merged(kept: dict[str, Any], listed: dict[str, Any], owned: tuple[str, ...]) -> dict[str, Any]:
    """``kept``'s members in its order, server-owned ones from ``listed``; new ones after."""
    merged = {m: (listed[m] if m in owned else v) for m, v in kept.items() if m not in owned or m in listed}
    merged.update({m: v for m, v in listed.items() if m not in merged})
    return merged


def _refreshed_collection(
    collection: str, old: list[Any], served: list[dict[str, Any]], listed: list[dict[str, Any]], refresh: Refresh
) -> list[Any]:
    owned = (*SERVER_OWNED[collection], "protocolVersions")
    identity = IDENTITY[collection]
    served_by_key = {key(collection, item): item for item in served}
    served_ids = {item.get(identity) for item in served}
    listed_by_id = {item.get(identity): item for item in listed}
    result: list[Any] = []
    replaced: set[object] = set()
    for item in old:
        if not isinstance(item, dict) or item.get(identity) not in served_ids:
            label = _label(collection, item.get(identity) if isinstance(item, dict) else item)
            if label not in refresh.removed:
                refresh.removed.append(label)
            continue
        if key(collection, item) in served_by_key:
            result.append(_merged(item, served_by_key[key(collection, item)], owned))
        elif isinstance(item.get("protocolVersions"), list):
            # Scoped by hand: kept so, holding what the server lists that those versions define.
            scope = item["protocolVersions"]
            fresh = projected({collection: [dict(listed_by_id[item[identity]])]}, scope)[collection][0]
            result.append(_merged(item, {**fresh, "protocolVersions": scope}, owned))
        elif item.get(identity) not in replaced:
            # One declaration the server's versions now split: each variant keeps what the
            # description alone said about it.
            replaced.add(item.get(identity))
            for variant in (s for s in served if s.get(identity) == item.get(identity)):
                result.append(_merged(item, variant, owned))
    present = {entry.get(identity) for entry in old if isinstance(entry, dict)}
    for item in served:
        if item.get(identity) not in present:
            if _label(collection, item.get(identity)) not in refresh.added:
                refresh.added.append(_label(collection, item.get(identity)))
            result.append(item)
    return result


def refreshed(described: dict[str, Any], served: dict[str, Any], listed: dict[str, list[dict[str, Any]]]) -> Refresh:
    """``described`` brought up to date with ``served`` (the server's own description) and
    ``listed`` (its primitives before projection, for declarations scoped by hand)."""
    refresh = Refresh({})
    data = refresh.data
    for member, value in described.items():
        if member == "info" and isinstance(value, dict):
            data[member] = {**value, **served["info"]}  # an author's description or contact stays
        elif member in SERVER_OWNED:
            items = _refreshed_collection(member, list(value or []), served.get(member, []), listed[member], refresh)
            if items:
                data[member] = items
        elif member in ("protocolVersions", "instructions", "capabilities"):
            if member in served:
                data[member] = served[member]
        else:
            data[member] = value
    for member, value in served.items():
        if member not in data and member not in described:
            data[member] = value
    return refresh
