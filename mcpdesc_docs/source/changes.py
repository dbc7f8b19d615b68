"""What changed between two reads of a description, worked out once per rebuild.

``serve`` hands every value that did not change over as the very object of the previous
read (``source.incremental``), so a change is a matter of identity: a root member whose
value is another object, a primitive whose pointer now holds another object. ``serve``'s
build session computes one ``SourceChange`` per rebuild and hands it to every cache that
outlives a build (the rule findings, the page models, the rendered pages); each cache adds
it to what it has not caught up with (``Staleness``) and never compares sources itself, as
Sphinx's environment works out the outdated documents once for all its consumers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..kinds import BY_COLLECTION
from ..records import record

RootMembers = tuple[tuple[str, object], ...]


def root_members(data: Mapping[str, object]) -> RootMembers:
    """The root's members outside the primitive collections, in order."""
    return tuple((key, value) for key, value in data.items() if key not in BY_COLLECTION)


@record
class Snapshot:
    """A read's values, as objects: the root's members outside the primitive collections
    (in order), and each primitive by its pointer (``/tools/3``)."""

    root: RootMembers
    primitives: Mapping[str, object]

    @classmethod
    def of(cls, data: Mapping[str, object]) -> Snapshot:
        root = root_members(data)
        primitives: dict[str, object] = {}
        for collection in BY_COLLECTION:
            items = data.get(collection)
            if type(items) is list:
                for index, item in enumerate(items):
                    primitives[f"/{collection}/{index}"] = item
        return cls(root, primitives)


@record
class SourceChange:
    """What one rebuild changed, against the previous read."""

    everything: bool
    """Nothing can be kept: the first read, another config, or a read that is not a mapping."""
    root: bool = False
    """A root member outside the primitive collections was added, removed, reordered or
    replaced (the format, the root scope, the components ... may differ)."""
    primitives: frozenset[str] = frozenset()
    """Pointers that hold another object than before, or did not exist, or no longer do."""
    theme: bool = False
    """A template or theme file changed: whatever was rendered is stale."""

    @classmethod
    def between(cls, before: Snapshot | None, after: Snapshot) -> SourceChange:
        if before is None:
            return cls(everything=True)
        root = len(before.root) != len(after.root) or not all(
            key == old_key and value is old_value
            for (key, value), (old_key, old_value) in zip(after.root, before.root, strict=True)
        )
        old = before.primitives
        moved = {pointer for pointer, item in after.primitives.items() if old.get(pointer, _ABSENT) is not item}
        moved.update(pointer for pointer in old if pointer not in after.primitives)
        return cls(everything=False, root=root, primitives=frozenset(moved))


_ABSENT = object()

EVERYTHING = SourceChange(everything=True, theme=True)


@dataclass(slots=True)
class Staleness:
    """What one cache has not caught up with: the changes since it was last brought up to
    date, added together (a cache may sit out a rebuild, as the pages do while the
    description has errors)."""

    everything: bool = True
    root: bool = False
    primitives: set[str] = field(default_factory=set)
    theme: bool = False
    told: bool = False
    """Whether a change was added since the cache last caught up: a cache used without
    being told what changed would take the last build's results for anything."""

    def add(self, change: SourceChange) -> None:
        self.told = True
        self.everything |= change.everything
        self.root |= change.root
        self.primitives |= change.primitives
        self.theme |= change.theme

    def stale(self, pointer: str) -> bool:
        """Whether what was kept for the primitive at ``pointer`` may no longer hold."""
        return self.everything or self.root or pointer in self.primitives

    def check_told(self, owner: str) -> None:
        if not self.told:
            raise RuntimeError(f"{owner} was used without being told what changed since its last use")

    def caught_up(self) -> None:
        self.everything = self.root = self.theme = self.told = False
        self.primitives = set()


__all__ = ["EVERYTHING", "RootMembers", "Snapshot", "SourceChange", "Staleness", "root_members"]
