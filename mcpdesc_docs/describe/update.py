"""Refreshing a description from the server: what the server owns is replaced, what only
the description has (elicitations, security, examples, tags, ``x-*``, hand-written
protocol scopes) is kept.

A declaration whose server-owned members still equal what the server lists, at every
version it covers, is kept exactly as the author wrote it (only its scope narrowed where
the server no longer speaks a version). Any other is replaced by the server's variants,
each carrying the author's additions from the old declaration it best matches.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..source.roundtrip import canonical
from .compare import at_version, label, owned, root_versions
from .tolerant import IDENTITY
from .write import OBSERVED, SERVER_OWNED, resolved

_REFERENCE = "$componentRef"
_SCHEMAS = "#/components/schemas/"


@dataclass(slots=True)
class Refresh:
    data: dict[str, Any]
    removed: list[str] = field(default_factory=list)
    """Labels of the declarations dropped because the server no longer lists them."""
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    """``tool 'x': description, inputSchema`` for each declaration the server changed."""
    notes: list[str] = field(default_factory=list)
    """What the refresh had to adjust in the author's part (a narrowed scope, say)."""


def _owned_members(collection: str) -> tuple[str, ...]:
    return (*SERVER_OWNED[collection], *OBSERVED, "protocolVersions")


def _merged(kept: dict[str, Any], listed: dict[str, Any], owned: tuple[str, ...]) -> dict[str, Any]:
    """``kept``'s members in its order, server-owned ones from ``listed``; new ones after."""
    merged = {m: (listed[m] if m in owned else v) for m, v in kept.items() if m not in owned or m in listed}
    merged.update({m: v for m, v in listed.items() if m not in merged})
    return merged


def _scope(item: dict[str, Any], root: list[str]) -> list[str]:
    scope = item.get("protocolVersions")
    return [v for v in scope if isinstance(v, str)] if isinstance(scope, list) else list(root)


class _Views:
    """Both descriptions as a client at each of the server's versions sees one collection
    (references resolved), worked out once for all the collection's declarations."""

    def __init__(self, collection: str, described: dict[str, Any], served: dict[str, Any]) -> None:
        self.collection = collection
        self.old_root = root_versions(described)
        self.new_root = root_versions(served)
        old, new = resolved(described), resolved(served)
        self.old_at = {v: at_version(old, collection, v) for v in self.new_root}
        self.new_at = {v: at_version(new, collection, v) for v in self.new_root}

    def unchanged(self, identity: str) -> bool:
        """Whether every old declaration says what the server lists at each version it covers."""
        for version in self.new_root:
            mine = self.old_at[version].get(identity)
            if mine is None:
                if version in self.old_root:
                    continue  # the author left this version out on purpose
                return False
            theirs = self.new_at[version].get(identity)
            if theirs is None or canonical(owned(self.collection, mine[1])) != canonical(
                owned(self.collection, theirs[1])
            ):
                return False
        return True


def _rescoped(item: dict[str, Any], root: list[str], refresh: Refresh, label: str) -> dict[str, Any] | None:
    """``item`` with an explicit scope narrowed to ``root``; None when nothing of it is left."""
    scope = item.get("protocolVersions")
    if not isinstance(scope, list):
        return item
    kept = [v for v in scope if v in root]
    if kept == scope:
        return item
    if not kept:
        refresh.notes.append(f"dropped {label} scoped to {', '.join(map(str, scope))}: the server speaks none of them")
        return None
    refresh.notes.append(f"narrowed {label} to {', '.join(kept)}: the server no longer speaks the others")
    return {**item, "protocolVersions": kept}


def _fit_elicitations(item: dict[str, Any], root: list[str], refresh: Refresh, label: str) -> dict[str, Any]:
    """Elicitations scoped beyond their (new) declaration's scope narrowed to it."""
    elicitations = item.get("elicitations")
    if not isinstance(elicitations, list):
        return item
    scope = _scope(item, root)
    fitted = []
    for elicitation in elicitations:
        if isinstance(elicitation, dict):
            narrowed = _rescoped(elicitation, scope, refresh, f"elicitation {elicitation.get('name')!r} of {label}")
            if narrowed is None:
                continue
            elicitation = narrowed
        fitted.append(elicitation)
    result = {**item, "elicitations": fitted}
    if not fitted:
        del result["elicitations"]
    return result


def _best_match(old: list[dict[str, Any]], variant: dict[str, Any], root: list[str]) -> dict[str, Any]:
    newest = max(_scope(variant, root))
    return next((item for item in old if newest in _scope(item, root)), old[0])


def _changed_members(collection: str, old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[str]:
    before = {m: canonical(o.get(m)) for o in old for m in SERVER_OWNED[collection] if m in o}
    after = {m: canonical(n.get(m)) for n in new for m in SERVER_OWNED[collection] if m in n}
    return sorted(m for m in set(before) | set(after) if before.get(m) != after.get(m))


def _refreshed_collection(
    collection: str, described: dict[str, Any], served: dict[str, Any], refresh: Refresh
) -> list[Any]:
    identity = IDENTITY[collection]
    root = root_versions(served)
    members = _owned_members(collection)
    views = _Views(collection, described, served)
    old_items = [i for i in described.get(collection) or []]
    served_items = [i for i in served.get(collection) or [] if isinstance(i, dict)]
    served_by_id: dict[object, list[dict[str, Any]]] = {}
    for item in served_items:
        served_by_id.setdefault(item.get(identity), []).append(item)
    old_by_id: dict[object, list[dict[str, Any]]] = {}
    for item in old_items:
        if isinstance(item, dict):
            old_by_id.setdefault(item.get(identity), []).append(item)
    result: list[Any] = []
    for item in old_items:
        if not isinstance(item, dict):
            result.append(item)
            continue
        key = item.get(identity)
        subject = label(collection, key)
        if key not in served_by_id:
            if subject not in refresh.removed:
                refresh.removed.append(subject)
            continue
        olds = old_by_id[key]
        if item is not olds[0]:
            continue  # handled with the first declaration of its identity
        if views.unchanged(str(key)):
            result.extend(r for o in olds if (r := _rescoped(o, root, refresh, subject)) is not None)
            continue
        variants = [
            _fit_elicitations(_merged(_best_match(olds, v, root), v, members), root, refresh, subject)
            for v in served_by_id[key]
        ]
        changed = _changed_members(collection, olds, served_by_id[key])
        refresh.changed.append(f"{subject}: {', '.join(changed) if changed else 'protocol scope'}")
        result.extend(variants)
    for key, variants in served_by_id.items():
        if key not in old_by_id:
            refresh.added.append(label(collection, key))
            result.extend(variants)
    return result


def _references(value: object) -> Iterator[str]:
    if isinstance(value, dict):
        reference = value.get(_REFERENCE)
        if isinstance(reference, str) and reference.startswith(_SCHEMAS):
            yield reference[len(_SCHEMAS) :]
        for member in value.values():
            yield from _references(member)
    elif isinstance(value, list):
        for member in value:
            yield from _references(member)


def _schemas(document: dict[str, Any]) -> dict[str, Any]:
    components = document.get("components")
    schemas = components.get("schemas") if isinstance(components, dict) else None
    return schemas if isinstance(schemas, dict) else {}


def _rename(value: object, renames: dict[str, str]) -> None:
    if isinstance(value, dict):
        reference = value.get(_REFERENCE)
        if isinstance(reference, str) and reference.startswith(_SCHEMAS) and reference[len(_SCHEMAS) :] in renames:
            value[_REFERENCE] = _SCHEMAS + renames[reference[len(_SCHEMAS) :]]
        for member in value.values():
            _rename(member, renames)
    elif isinstance(value, list):
        for member in value:
            _rename(member, renames)


def _components(data: dict[str, Any], described: dict[str, Any], served: dict[str, Any]) -> None:
    """Bring along the server's schema components the refreshed declarations reference
    (renamed where the file already uses the name for another schema), and drop the
    file's components that only replaced declarations referenced."""
    mine, theirs = dict(_schemas(described)), _schemas(served)
    renames: dict[str, str] = {}
    for name, schema in theirs.items():
        if name in mine and canonical(mine[name]) != canonical(schema):
            number = 2
            while f"{name}-{number}" in mine or f"{name}-{number}" in theirs:
                number += 1
            renames[name] = f"{name}-{number}"
    if renames:
        # The server's declarations the refresh took over are the very objects in ``data``.
        taken = {id(i) for c in SERVER_OWNED if isinstance(data.get(c), list) for i in data[c]}
        for served_item in (i for c in SERVER_OWNED for i in served.get(c) or []):
            if id(served_item) in taken:
                _rename(served_item, renames)
    used = set(_references({k: v for k, v in data.items() if k != "components"}))
    used |= set(_references(mine))
    was_used = set(_references({k: v for k, v in described.items() if k != "components"}))
    schemas = {name: schema for name, schema in mine.items() if name in used or name not in was_used}
    for name, schema in theirs.items():
        target = renames.get(name, name)
        if target in used and target not in schemas:
            schemas[target] = copy.deepcopy(schema)
    components = dict(data.get("components") or {}) if isinstance(data.get("components"), dict) else {}
    if schemas:
        components["schemas"] = schemas
    else:
        components.pop("schemas", None)
    if components:
        data["components"] = components
    else:
        data.pop("components", None)


def _transports(old: object, served: list[Any]) -> object:
    """The file's transports, with the one the server was reached by brought up to date."""
    if not isinstance(old, list) or not served or not isinstance(served[0], dict):
        return old
    reached = served[0]
    members = ("command", "args") if reached.get("type") == "stdio" else ("url",)
    same_kind = [i for i, t in enumerate(old) if isinstance(t, dict) and t.get("type") == reached.get("type")]
    for index in same_kind:
        if all(canonical(old[index].get(m)) == canonical(reached.get(m)) for m in members):
            return old
    if not same_kind:
        return [*old, reached]
    updated = list(old)
    first = dict(old[same_kind[0]])
    for member in members:
        if member in reached:
            first[member] = reached[member]
        else:
            first.pop(member, None)
    updated[same_kind[0]] = first
    return updated


def refreshed(described: dict[str, Any], served: dict[str, Any]) -> Refresh:
    """``described`` brought up to date with ``served`` (the server's own description)."""
    refresh = Refresh({})
    data = refresh.data
    for member, value in described.items():
        if member == "info" and isinstance(value, dict):
            data[member] = {**value, **served["info"]}  # an author's description or contact stays
        elif member in SERVER_OWNED:
            items = _refreshed_collection(member, described, served, refresh)
            if items:
                data[member] = items
        elif member in ("protocolVersions", "instructions", "capabilities"):
            if member in served:
                data[member] = served[member]
        elif member == "transports":
            data[member] = _transports(value, served.get("transports") or [])
        else:
            data[member] = value
    for member, value in served.items():
        if member not in data and member not in described and member != "components":
            if member in SERVER_OWNED:
                refresh.added.extend(label(member, i.get(IDENTITY[member])) for i in value if isinstance(i, dict))
            data[member] = value
    _components(data, described, served)
    return refresh
