"""The portal's own pages, made from the servers' entries alone: the catalogue home, the
pages by tag and by capability, the search page and its index chunks, the rejected
descriptions, and 404.html. The same entries give the same bytes, whichever process or
shard rendered each server."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .. import __version__
from ..config import Config, ThemeConfig
from ..kinds import BY_NAME, KIND_NAMES, KINDS
from ..model.urls import slugify
from ..records import record
from ..render.pages import (
    RelativeLinks,
    Sink,
    asset_files,
    located_template_errors,
    page_environment,
    sitemap_xml,
)
from ..render.theme import Theme, load_theme
from ..resources import builtin_dir
from .entry import PagePoint, ServerEntry
from .keys import theme_files_digest, tool_digest

SERVERS_PER_CHUNK = 64
"""Servers whose search entries share one chunk file: a search over every server loads
``servers / 64`` scripts, one filtered to a server loads one."""
DEFAULT_TITLE = "MCP servers"
RISK_TONES = {"read-only": "ok", "destructive": "danger", "non-destructive": "neutral", "idempotent": "neutral"}
RISK_TONES["open-world"] = "warn"


@record
class PortalSettings:
    """What the portal's own pages are made with (a shard records it for ``merge``)."""

    title: str
    site_url: str | None
    repo_url: str | None
    copyright: str | None
    extra_css: tuple[str, ...]
    theme: str
    custom_dir: str | None

    @classmethod
    def of(cls, config: Config) -> PortalSettings:
        custom = config.theme.custom_dir
        return cls(
            config.site_name or DEFAULT_TITLE,
            config.site_url,
            config.repo_url,
            config.copyright,
            config.extra_css,
            config.theme.name,
            str(custom.resolve()) if custom is not None else None,
        )

    def to_json(self) -> dict[str, Any]:
        return {item.name: getattr(self, item.name) for item in fields(self)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PortalSettings:
        return cls(**{**data, "extra_css": tuple(data["extra_css"])})

    def load_theme(self) -> Theme:
        return load_theme(ThemeConfig(self.theme, Path(self.custom_dir) if self.custom_dir else None))


@record
class Rejected:
    """A description left out of the portal, and why (its diagnostics as JSON values)."""

    slug: str
    source: str
    diagnostics: tuple[dict[str, Any], ...]

    def to_json(self) -> dict[str, Any]:
        return {"slug": self.slug, "source": self.source, "diagnostics": list(self.diagnostics)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Rejected:
        diagnostics = data["diagnostics"]
        if not isinstance(diagnostics, list) or not all(isinstance(d, dict) for d in diagnostics):
            raise TypeError("diagnostics must be a list of objects")
        return cls(str(data["slug"]), str(data["source"]), tuple(dict(sorted(d.items())) for d in diagnostics))


@dataclass(slots=True)
class Grouping:
    """Servers (and pages) under one tag or capability, with its page."""

    name: str
    path: str
    servers: list[ServerEntry] = field(default_factory=list)
    by_server: list[tuple[ServerEntry, list[PagePoint]]] = field(default_factory=list)

    @property
    def pages(self) -> list[PagePoint]:
        return [page for _, pages in self.by_server for page in pages]


def catalogue_order(entries: Iterable[ServerEntry]) -> list[ServerEntry]:
    """Grouped servers by group name, the others last; by title within."""
    return sorted(entries, key=lambda e: (e.group is None, e.group or "", e.title.casefold(), e.title, e.slug))


def file_names(names: Iterable[str], directory: str) -> dict[str, str]:
    """A page path for each name, unique even where two names slug alike (``index`` is
    the directory's own list)."""
    taken = {"index"}
    paths: dict[str, str] = {}
    for name in sorted(set(names)):
        slug = slugify(name)
        if slug in taken:
            slug = f"{slug}-{len(taken)}"
        taken.add(slug)
        paths[name] = f"{directory}/{slug}.html"
    return paths


def _tag_groups(servers: Sequence[ServerEntry], paths: dict[str, str]) -> list[Grouping]:
    groups = {name: Grouping(name, path) for name, path in paths.items()}
    for server in servers:
        for tag in server.tags:
            group = groups[tag]
            group.servers.append(server)
            group.by_server.append((server, [p for p in server.pages if tag in p.tags]))
    return [groups[name] for name in sorted(groups, key=lambda n: (n.casefold(), n))]


def _capability_groups(servers: Sequence[ServerEntry], paths: dict[str, str]) -> list[Grouping]:
    groups = {name: Grouping(name, path) for name, path in paths.items()}
    for server in servers:
        for capability in server.capabilities:
            groups[capability].servers.append(server)
    return [groups[name] for name in sorted(groups)]


def search_entries(server: ServerEntry) -> list[dict[str, Any]]:
    """The server's overview and each primitive page, with what the filters look at."""
    base = {"server": server.slug, "serverTitle": server.title}
    found = [
        base
        | {
            "title": server.title,
            "kind": "server",
            "label": "Server",
            "url": f"{server.slug}/index.html",
            "text": server.summary,
            "names": server.name,
            "tags": list(server.tags),
        }
    ]
    for page in server.pages:
        found.append(
            base
            | {
                "title": page.title,
                "kind": page.kind,
                "label": BY_NAME[page.kind].singular,
                "url": f"{server.slug}/{page.path}",
                "text": page.summary,
                "names": page.name,
                "tags": list(page.tags),
            }
        )
    return found


def search_chunks(servers: Sequence[ServerEntry]) -> tuple[dict[str, int], dict[str, bytes]]:
    """Each server's chunk number, and the chunk files (servers in slug order)."""
    ordered = sorted(servers, key=lambda s: s.slug)
    chunk_of = {server.slug: position // SERVERS_PER_CHUNK for position, server in enumerate(ordered)}
    files: dict[str, bytes] = {}
    for start in range(0, len(ordered), SERVERS_PER_CHUNK):
        number = start // SERVERS_PER_CHUNK
        entries = [entry for server in ordered[start : start + SERVERS_PER_CHUNK] for entry in search_entries(server)]
        text = json.dumps(entries, ensure_ascii=False, separators=(",", ":"))
        files[f"search/chunk-{number}.js"] = f"window.mcpdescPortalChunk({number}, {text});\n".encode()
    return chunk_of, files


def static_files(theme: Theme, config: Config) -> dict[str, bytes]:
    """The theme's assets, the portal's script and the project's extra CSS, once at the root."""
    portal_scripts = builtin_dir("themes") / theme.name / "portal"
    return asset_files((*reversed(theme.asset_dirs), portal_scripts), config)


PAGES_FILE = "portal-pages.json"
"""The key of each of the portal's own pages (what it was made from, hashed), so that the
next build keeps those whose key is unchanged instead of rendering them again."""

Reuse = Callable[[str, str], bool]
"""``reuse(path, key)``: True when the caller kept the previous page of that key itself
(``build`` moves the previous site's file across; ``serve`` keeps it in memory)."""


class _Pages:
    """Renders the portal's pages into a sink, each unless ``reuse`` keeps it, and notes
    the key of each."""

    def __init__(self, settings: PortalSettings, common: dict[str, Any], sink: Sink, reuse: Reuse | None) -> None:
        theme = settings.load_theme()
        self.env = page_environment(theme)
        self.links = self.env.globals["url"] = RelativeLinks()
        self.settings, self.common, self.sink, self.reuse = settings, common, sink, reuse
        counts = (len(common["servers"]), len(common["rejected"]))
        # Where the custom_dir is does not change the pages (its files are in the theme's digest).
        shown = sorted((name, value) for name, value in settings.to_json().items() if name != "custom_dir")
        self.base = _digest(tool_digest(), theme_files_digest(theme), shown, counts)
        self.keys: dict[str, str] = {}
        self.rendered = 0

    def page(self, template: str, path: str, inputs: object, **extra: Any) -> None:
        """``inputs``: what of the portal the page shows (beyond the counts in its header
        and footer), as plain data whose ``repr`` is its content."""
        key = self.keys[path] = _digest(self.base, template, path, inputs)
        if self.reuse is not None and self.reuse(path, key):
            return
        self.links.shown_on = path
        canonical = self.settings.site_url + path if self.settings.site_url and path != "404.html" else None
        context = self.common | {"root": "../" * path.count("/"), "canonical_url": canonical} | extra
        with located_template_errors(template):
            self.sink(path, self.env.get_template(template).render(**context).encode("utf-8"))
        self.rendered += 1


def _digest(*parts: object) -> str:
    return hashlib.sha256(repr(parts).encode("utf-8")).hexdigest()


def assemble(
    settings: PortalSettings,
    entries: Iterable[ServerEntry],
    rejected: Sequence[Rejected],
    sink: Sink,
    reuse: Reuse | None = None,
) -> int:
    """Write the portal's own pages into ``sink`` (those ``reuse`` does not keep); the HTML
    pages the portal has."""
    servers = catalogue_order(entries)
    tag_paths = file_names((t for s in servers for t in s.tags), "tags")
    capability_paths = file_names((c for s in servers for c in s.capabilities), "capabilities")
    tags, capabilities = _tag_groups(servers, tag_paths), _capability_groups(servers, capability_paths)
    chunk_of, chunks = search_chunks(servers)
    ordered_rejected = sorted(rejected, key=lambda r: (r.source, r.slug))
    common: dict[str, Any] = {
        "portal_title": settings.title,
        "servers": servers,
        "rejected": ordered_rejected,
        "repo_url": settings.repo_url,
        "copyright": settings.copyright,
        "extra_css": settings.extra_css,
        "generator_version": __version__,
        "kinds": KIND_NAMES,
        "kind_titles": {kind.name: kind.title for kind in KINDS},
        "kind_singular": {kind.name: kind.singular for kind in KINDS},
        "risk_tones": RISK_TONES,
        "tag_paths": tag_paths,
        "capability_paths": capability_paths,
        "base_href": None,
    }
    pages = _Pages(settings, common, sink, reuse)
    groups: dict[str | None, list[ServerEntry]] = {}
    for server in servers:
        groups.setdefault(server.group, []).append(server)
    everything = (servers, ordered_rejected, tag_paths, capability_paths)
    pages.page("portal/index.html", "index.html", everything, groups=list(groups.items()))
    pages.page("portal/tags.html", "tags/index.html", [(t.name, t.path, len(t.servers)) for t in tags], tags=tags)
    for tag in tags:
        shown = [(s.slug, s.title, listed) for s, listed in tag.by_server]
        pages.page("portal/tag.html", tag.path, (tag.name, shown), tag=tag)
    listed_capabilities = [(c.name, c.path, len(c.servers)) for c in capabilities]
    pages.page("portal/capabilities.html", "capabilities/index.html", listed_capabilities, capabilities=capabilities)
    for capability in capabilities:
        links = {t: tag_paths[t] for s in capability.servers for t in s.tags}
        shown_servers = (capability.name, capability.servers, links, capability_paths)
        pages.page("portal/capability.html", capability.path, shown_servers, capability=capability)
    searched = ([(s.slug, s.title) for s in servers], chunk_of, [t.name for t in tags], len(chunks))
    pages.page("portal/search.html", "search.html", searched, tags=tags, chunk_of=chunk_of, chunks=len(chunks))
    for path, content in chunks.items():
        sink(path, content)
    if rejected:
        pages.page("portal/rejected.html", "rejected.html", ordered_rejected)
    base_href = urlsplit(settings.site_url).path if settings.site_url else None
    pages.page("portal/404.html", "404.html", None, base_href=base_href)
    if settings.site_url:
        listed = ["index.html", *(f"{s.slug}/index.html" for s in servers), "search.html"]
        sink("sitemap.xml", sitemap_xml(settings.site_url, listed))
    sink(PAGES_FILE, (json.dumps(pages.keys, sort_keys=True, indent=0) + "\n").encode("utf-8"))
    sink(".nojekyll", b"")
    return len(pages.keys)
