"""What a page of a versioned site shows of the other versions (``gh-deploy --version``).

The build cannot see the branch, so ``gh-deploy`` hands it the list as it will be once this
version is published; pages of older versions keep the list they were built with, and the
branch's ``versions.html`` (rewritten by every deploy) is the list that is always current.
"""

from __future__ import annotations

from ..records import record


@record
class VersionEntry:
    """One published version, as in mike's ``versions.json``."""

    version: str
    title: str
    aliases: tuple[str, ...] = ()


@record
class VersionMenu:
    current: str
    """The version these pages are built as (a directory at the branch's root)."""
    entries: tuple[VersionEntry, ...]
    """Every version known when the pages were built, newest first; ``current`` among them."""

    @property
    def current_title(self) -> str:
        return next((e.title for e in self.entries if e.version == self.current), self.current)


__all__ = ["VersionEntry", "VersionMenu"]
