"""``serve`` on a portal: the servers' files kept in memory by content key between
rebuilds, so an edit re-renders the edited server (and the portal's own pages) only."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..config import Config
from .assemble import PortalSettings, assemble, static_files
from .build import plan, rejected_record
from .server import ServerResult, render_server


@dataclass(frozen=True, slots=True)
class _Kept:
    key: str
    result: ServerResult
    files: dict[str, bytes]


@dataclass(slots=True)
class PortalSession:
    """What outlives one of serve's rebuilds of a portal."""

    _servers: dict[str, _Kept] = field(default_factory=dict)
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
        assemble(settings, entries, rejected, site.__setitem__)
        return site, results
