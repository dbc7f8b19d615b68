"""A portal build: every server rendered (or its pages reused, when its content key is
the one the previous site's entry carries) into the staging directory, in worker
processes when there are several to render, then the portal's own pages assembled from
the entries. A shard renders its share of the servers and records what ``merge`` needs
instead of assembling."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..config import Config, PortalServer
from ..diagnostics import Diagnostic
from ..output import StagedSite
from ..records import record
from ..render.parallel import map_in_workers
from .assemble import PAGES_FILE, PortalSettings, Rejected, Reuse, assemble, static_files
from .entry import ENTRY_FILE, ServerEntry
from .keys import server_key, settings_text, theme_digest
from .server import ServerResult, render_server

SHARD_FILE = "portal-shard.json"
"""What a shard directory records for ``merge``: its place, the portal's settings, its
servers and its rejected descriptions. Not part of the merged site."""


@record
class Planned:
    server: PortalServer
    key: str


@dataclass(slots=True)
class PortalOutcome:
    results: list[ServerResult] = field(default_factory=list)
    """In the config's order (a shard's servers only)."""
    pages: int = 0

    @property
    def rendered(self) -> list[str]:
        """The slugs of the servers rendered (not reused, nor rejected) by this build: the
        work done."""
        return [r.server.slug for r in self.results if r.rendered and r.entry is not None]

    @property
    def rejected(self) -> list[ServerResult]:
        return [r for r in self.results if r.entry is None]


def parse_shard(text: str) -> tuple[int, int] | None:
    """``K/N`` with 1 <= K <= N, else None."""
    head, _, tail = text.partition("/")
    if not (head.isdigit() and tail.isdigit()):
        return None
    number, count = int(head), int(tail)
    return (number, count) if 1 <= number <= count else None


def shard_servers(servers: Sequence[PortalServer], shard: tuple[int, int] | None) -> list[PortalServer]:
    """The servers of shard K of N: the K-th of every N in slug order (deterministic,
    whatever the config's order or the machine)."""
    if shard is None:
        return list(servers)
    number, count = shard
    chosen = {s.slug for i, s in enumerate(sorted(servers, key=lambda s: s.slug)) if i % count == number - 1}
    return [server for server in servers if server.slug in chosen]


def plan(config: Config, servers: Sequence[PortalServer]) -> list[Planned]:
    theme = theme_digest(PortalSettings.of(config).load_theme(), config)
    settings = settings_text(config)
    return [Planned(s, server_key(s, s.path.read_bytes(), theme=theme, settings=settings)) for s in servers]


def previous_entry(site_dir: Path, planned: Planned) -> ServerEntry | None:
    """The previous site's entry for the server, when its pages are the ones this build
    would render (same key), so its directory may be moved into the new site as it is."""
    directory = site_dir / planned.server.slug
    try:
        entry = ServerEntry.from_json((directory / ENTRY_FILE).read_bytes())
    except (OSError, ValueError, TypeError, KeyError):
        return None
    if entry.key != planned.key or entry.slug != planned.server.slug or directory.is_symlink():
        return None
    return entry


def render_servers(
    config: Config, planned: Sequence[Planned], staged: StagedSite, reuse_from: Path | None, jobs: int
) -> list[ServerResult]:
    """Each planned server's result, in order: reused from ``reuse_from`` (the site being
    replaced) where it can be, else rendered (in ``jobs`` forked workers when more than one is to be rendered)."""
    results: dict[str, ServerResult] = {}
    todo: list[Planned] = []
    for item in planned:
        entry = previous_entry(reuse_from, item) if reuse_from is not None else None
        if entry is None:
            todo.append(item)
            continue
        staged.keep(item.server.slug)
        results[item.server.slug] = ServerResult(item.server, entry, pages=entry.html_pages, rendered=False)
    workers = min(jobs, len(todo))
    if workers > 1:
        staged.settle()

        def chunk(start: int, stop: int) -> list[ServerResult]:
            return [render_server(config, p.server, p.key, staged.worker_write) for p in todo[start:stop]]

        done = [result for run in map_in_workers(len(todo), chunk, workers) for result in run]
    else:
        done = [render_server(config, p.server, p.key, staged.write) for p in todo]
    results.update((result.server.slug, result) for result in done)
    return [results[item.server.slug] for item in planned]


def _kept_pages(previous_site: Path | None, staged: StagedSite) -> Reuse | None:
    """Keeps a page of the previous site whose key is the one the page would have now."""
    if previous_site is None:
        return None
    try:
        keys = json.loads((previous_site / PAGES_FILE).read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(keys, dict):
        return None

    def reuse(path: str, key: str) -> bool:
        if keys.get(path) != key or not (previous_site / path).is_file():
            return False
        staged.keep(path)
        return True

    return reuse


def rejected_record(result: ServerResult) -> Rejected:
    """A rejected description as its page lists it: named as the config names it."""
    diagnostics = sorted(result.diagnostics, key=Diagnostic.sort_key)
    # Keys sorted as a shard's record has them, so a merge hashes the same values.
    found = tuple(dict(sorted(d.to_json().items())) for d in diagnostics)
    return Rejected(result.server.slug, result.server.name, found)


def build_portal(
    config: Config,
    staged: StagedSite,
    *,
    jobs: int,
    shard: tuple[int, int] | None = None,
    reuse_from: Path | None = None,
) -> PortalOutcome:
    """Render the servers (of ``shard``, when given) into ``staged``, and the portal's own
    pages, or a shard's record; the caller commits (or not: a rejected description without
    ``--keep-going``)."""
    servers = shard_servers(config.descriptions, shard)
    results = render_servers(config, plan(config, servers), staged, reuse_from, jobs)
    outcome = PortalOutcome(results, sum(r.pages for r in results))
    settings = PortalSettings.of(config)
    for path, content in static_files(settings.load_theme(), config).items():
        staged.write(path, content)
    rejected = [rejected_record(r) for r in outcome.rejected]
    entries = [r.entry for r in results if r.entry is not None]
    if shard is None:
        outcome.pages += assemble(settings, entries, rejected, staged.write, _kept_pages(reuse_from, staged))
    else:
        manifest = {
            "shard": shard[0],
            "of": shard[1],
            "settings": settings.to_json(),
            "servers": sorted(e.slug for e in entries),
            "rejected": [r.to_json() for r in rejected],
        }
        staged.write(SHARD_FILE, json.dumps(manifest, ensure_ascii=False, sort_keys=True, indent=1).encode("utf-8"))
    return outcome
