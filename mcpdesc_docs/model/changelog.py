"""The "Changes" page: what ``diff`` finds between the previous description the config
names and this one, as the site shows it (``changes.html``, a line on the overview, and a
mark on each changed primitive's page)."""

from __future__ import annotations

from collections.abc import Iterable

from ..diff.change import ABSENT, Change, verdict
from ..diff.values import clipped_json
from .site import CHANGES_PATH, ChangeEntry, ChangeGroup, ChangeLog, Page

SHOWN_VALUE = 240
"""Characters of a value the page shows (a description's values are bounded, but a whole
removed tool is long to read in a table)."""


def _shown(value: object) -> str | None:
    return None if value is ABSENT else clipped_json(value, SHOWN_VALUE)


def _primitive_pointer(pointer: str | None) -> str | None:
    """``/tools/3`` for ``/tools/3/inputSchema/...``."""
    if pointer is None:
        return None
    parts = pointer.split("/")
    return "/".join(parts[:3]) if len(parts) >= 3 else None


def build_changelog(changes: Iterable[Change], pages: Iterable[Page], since: str, previous: str) -> ChangeLog:
    listed = list(changes)
    page_at = {variant.pointer: page for page in pages for variant in page.variants}
    grouped: dict[str, list[Change]] = {}
    for change in listed:
        grouped.setdefault(change.primitive, []).append(change)
    groups = []
    for index, (label, members) in enumerate(sorted(grouped.items(), key=lambda item: (item[0] != "", item[0]))):
        page = next(
            (found for c in members if (found := page_at.get(_primitive_pointer(c.new_pointer) or "")) is not None),
            None,
        )
        entries = tuple(
            ChangeEntry(
                c.level.value,
                c.message,
                c.member,
                c.versions,
                c.old_pointer,
                c.new_pointer,
                _shown(c.old_value),
                _shown(c.new_value),
            )
            for c in sorted(members, key=Change.sort_key)
        )
        groups.append(ChangeGroup(label, f"change-{index}", page, verdict(members), entries))
    levels = ("breaking", "non-breaking", "documentation")
    counts = tuple((level, sum(1 for c in listed if c.level.value == level)) for level in levels)
    by_page = {group.page.path: group for group in groups if group.page is not None}
    return ChangeLog(since, previous, verdict(listed), counts, tuple(groups), by_page=by_page)


__all__ = ["CHANGES_PATH", "ChangeEntry", "ChangeGroup", "ChangeLog", "build_changelog"]
