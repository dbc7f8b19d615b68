"""``serve`` on a portal: the servers' files kept in memory by content key between
rebuilds, so an edit re-renders the edited server (and the portal's own pages) only."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from ..config import Config
from ..records import record
from .assemble import PAGES_FILE, PortalSettings, Rejected, assemble, static_files
from .build import plan, rejected_record
from .entry import ServerEntry
from .server import ServerResult, render_server


@record
class _Kept:
    key: str
    result: ServerResult
    files: dict[str, bytes]


@dataclass(slots=True)
class PortalSession:
    """What outlives one of serve's rebuilds of a portal."""

    _servers: dict[str, _Kept] = field(default_factory=dict)
    _pages: dict[str, tuple[str, bytes]] = field(default_factory=dict)
    """The portal's own pages of the last rebuild, by path: key and content."""
    rendered: list[str] = field(default_factory=list)
    """The slugs the last rebuild rendered (for tests: the work done)."""

    def build(self, config: Config) -> tuple[dict[str, bytes], list[ServerResult]]:
        """The whole site in memory (rejected descriptions left out and listed, as with
        ``--keep-going``), and each server's result in the config's order."""
        kept: dict[str, _Kept] = {}
        self.rendered = []
        for item in plan(config, config.descriptions):
            slug = item.server.slug
            previous = self._servers.get(slug)
            if previous is None or previous.key != item.key:
                files: dict[str, bytes] = {}
                result = render_server(config, item.server, item.key, files.__setitem__)
                previous = _Kept(item.key, result, files)
                self.rendered.append(slug)
            kept[slug] = previous
        self._servers = kept
        site: dict[str, bytes] = {}
        for server in kept.values():
            site.update(server.files)
        settings = PortalSettings.of(config)
        site.update(static_files(settings.load_theme(), config))
        results = [server.result for server in kept.values()]
        entries = [r.entry for r in results if r.entry is not None]
        rejected = [rejected_record(r) for r in results if r.entry is None]
        self._assemble(settings, entries, rejected, site)
        return site, results

    def _assemble(
        self, settings: PortalSettings, entries: list[ServerEntry], rejected: list[Rejected], site: dict[str, bytes]
    ) -> None:
        """The portal's own pages into ``site``: those whose key is unchanged as they were."""
        fresh: dict[str, bytes] = {}
        pages: dict[str, tuple[str, bytes]] = {}

        def reuse(path: str, key: str) -> bool:
            previous = self._pages.get(path)
            if previous is None or previous[0] != key:
                return False
            site[path] = previous[1]
            pages[path] = previous
            return True

        assemble(settings, entries, rejected, fresh.__setitem__, reuse)
        site.update(fresh)
        keys = json.loads(fresh[PAGES_FILE])
        pages.update((path, (keys[path], fresh[path])) for path in keys if path in fresh)
        self._pages = pages
