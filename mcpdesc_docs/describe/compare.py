"""A description against the server, primitive by primitive and version by version.

Both sides are read as a client at each protocol version would see them (the declaration
whose scope holds the version, its schema references resolved), and what differs is
reported once per primitive and member, with the versions it concerns, where it stands in
the file, and both values.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..kinds import BY_COLLECTION
from ..source import pointer as jp
from ..source.roundtrip import canonical
from ..spec.revisions import REVISIONS
from .tolerant import IDENTITY
from .write import OBSERVED, SERVER_OWNED, resolved

ROOT_OWNED = ("info", "instructions")
_SHOWN_VALUE = 160
_SHOWN_DIFF_LINES = 12
_TEXT_MEMBERS = ("description", "instructions", "title")


@dataclass(slots=True)
class Difference:
    change: str
    """``added``, ``removed`` or ``changed``."""
    subject: str
    """What it concerns: ``tool 'search'``, ``info``, ``transports``, ``protocol versions``."""
    pointer: str
    """Where, in the description as it is (``removed``, ``changed``) or as the server has it (``added``)."""
    member: str = ""
    """The member within the subject, as a JSON Pointer relative to it ('' for the whole)."""
    old: object = None
    new: object = None
    versions: list[str] = field(default_factory=list)

    def lines(self, all_versions: list[str]) -> list[str]:
        within = ""
        if self.versions and sorted(self.versions) != sorted(all_versions):
            within = f" (at {', '.join(sorted(self.versions, key=REVISIONS.index))})"
        at = f" [{self.pointer or '/'}]"
        if self.change == "added":
            return [f"added {self.subject}{within}{at}"]
        if self.change == "removed":
            return [f"removed {self.subject}{within}: the server no longer lists it{at}"]
        head = f"changed {self.subject} {self.member or '/'}{within}{at}"
        if isinstance(self.old, str) and isinstance(self.new, str) and self.member.lstrip("/") in _TEXT_MEMBERS:
            return [head, *text_diff(self.old, self.new)]
        return [head, f"    was: {shown(self.old)}", f"    now: {shown(self.new)}"]


def shown(value: object) -> str:
    if value is None:
        return "(absent)"
    text = canonical(value)
    return text if len(text) <= _SHOWN_VALUE else text[: _SHOWN_VALUE - 3] + "..."


def text_diff(old: str, new: str) -> list[str]:
    """A short line diff of two texts (a reworded description)."""
    if "\n" not in old and "\n" not in new:
        return [f"    - {shown(old)}", f"    + {shown(new)}"]
    lines = [
        f"    {line}"
        for line in difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=1)
        if not line.startswith(("---", "+++"))
    ]
    if len(lines) > _SHOWN_DIFF_LINES:
        lines = [*lines[:_SHOWN_DIFF_LINES], f"    ... ({len(lines) - _SHOWN_DIFF_LINES} more lines)"]
    return lines


def _leaves(old: object, new: object, pointer: str) -> Iterator[tuple[str, object, object]]:
    """Where two JSON values differ, as deep as they share a shape."""
    if canonical(old) == canonical(new):
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for member in [*old, *(m for m in new if m not in old)]:
            yield from _leaves(old.get(member), new.get(member), jp.join(pointer, member))
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for index, (left, right) in enumerate(zip(old, new, strict=True)):
            yield from _leaves(left, right, jp.join(pointer, index))
    else:
        yield pointer, old, new


def root_versions(document: dict[str, Any]) -> list[str]:
    versions = document.get("protocolVersions")
    return [v for v in versions if isinstance(v, str)] if isinstance(versions, list) else []


def at_version(document: dict[str, Any], collection: str, version: str) -> dict[str, tuple[int, dict[str, Any]]]:
    """Identity -> (index, declaration) of the declarations that apply at ``version``."""
    found: dict[str, tuple[int, dict[str, Any]]] = {}
    items = document.get(collection)
    for index, item in enumerate(items if isinstance(items, list) else []):
        if not isinstance(item, dict):
            continue
        scope = item.get("protocolVersions")
        if isinstance(scope, list) and version not in scope:
            continue
        found.setdefault(str(item.get(IDENTITY[collection])), (index, item))
    return found


def owned(collection: str, item: dict[str, Any]) -> dict[str, Any]:
    """What the server says of ``item``: the members describe writes and refreshes."""
    return {m: item[m] for m in (*SERVER_OWNED[collection], *OBSERVED) if m in item}


def label(collection: str, identity: object) -> str:
    """``tool 'search'``, ``resource template 'files://{path}'``."""
    return f"{BY_COLLECTION[collection].singular.lower()} {identity!r}"


class _Collector:
    """Merges what differs at several versions into one difference per subject and member."""

    def __init__(self) -> None:
        self.found: dict[tuple[str, str, str, str, str], Difference] = {}

    def add(self, difference: Difference, version: str | None) -> None:
        key = (
            difference.change,
            difference.subject,
            difference.member,
            canonical(difference.old),
            canonical(difference.new),
        )
        kept = self.found.setdefault(key, difference)
        if version is not None and version not in kept.versions:
            kept.versions.append(version)


def _transport_differences(described: dict[str, Any], transport: dict[str, Any]) -> list[Difference]:
    declared = [t for t in described.get("transports") or [] if isinstance(t, dict)]
    same_kind = [(i, t) for i, t in enumerate(declared) if t.get("type") == transport.get("type")]
    members = ("command", "args") if transport.get("type") == "stdio" else ("url",)
    if not same_kind:
        return [Difference("added", f"{transport.get('type')} transport", "/transports", "", None, transport)]
    for _, candidate in same_kind:
        if all(canonical(candidate.get(m)) == canonical(transport.get(m)) for m in members):
            return []
    index, nearest = same_kind[0]
    return [
        Difference(
            "changed", "transport", jp.join("/transports", index), jp.join("", m), nearest.get(m), transport.get(m)
        )
        for m in members
        if canonical(nearest.get(m)) != canonical(transport.get(m))
    ]


def differences(described: dict[str, Any], served: dict[str, Any]) -> list[Difference]:
    """What the server's own description (``served``) says differently from ``described``."""
    described, served = resolved(described), resolved(served)
    old_versions, new_versions = root_versions(described), root_versions(served)
    found: list[Difference] = []
    gone = [v for v in old_versions if v not in new_versions]
    new = [v for v in new_versions if v not in old_versions]
    if gone or new:
        found.append(Difference("changed", "protocol versions", "/protocolVersions", "", old_versions, new_versions))
    for member in ROOT_OWNED:
        for pointer, old, now in _leaves(described.get(member), served.get(member), ""):
            found.append(Difference("changed", member, jp.join("", member) + pointer, pointer, old, now))
    transports = served.get("transports") or []
    if transports and isinstance(transports[0], dict):
        found.extend(_transport_differences(described, transports[0]))
    # Each version both speak, compared with itself; with none in common, the newest of
    # each (a server that moved to other versions still lists, and changes, its tools).
    pairs = [(v, v) for v in new_versions if v in old_versions]
    if not pairs and old_versions and new_versions:
        pairs = [(max(old_versions), max(new_versions))]
    collector = _Collector()
    for collection in SERVER_OWNED:
        for old_version, version in pairs:
            old_at = at_version(described, collection, old_version)
            new_at = at_version(served, collection, version)
            for identity, (index, item) in old_at.items():
                subject = label(collection, identity)
                pointer = jp.join("", collection, index)
                if identity not in new_at:
                    collector.add(Difference("removed", subject, pointer), version)
                    continue
                listed = owned(collection, new_at[identity][1])
                for leaf, old, now in _leaves(owned(collection, item), listed, ""):
                    collector.add(Difference("changed", subject, pointer + leaf, leaf, old, now), version)
            for identity, (index, _) in new_at.items():
                if identity not in old_at:
                    collector.add(
                        Difference("added", label(collection, identity), jp.join("", collection, index)), version
                    )
    return found + list(collector.found.values())


def summary(found: list[Difference]) -> str:
    counts = {change: sum(1 for d in found if d.change == change) for change in ("added", "removed", "changed")}
    total = len(found)
    parts = ", ".join(f"{n} {change}" for change, n in counts.items() if n)
    return f"{total} difference{'' if total == 1 else 's'} ({parts})"
