"""What the portal knows of one server: ``<slug>/portal-entry.json``, written beside its
pages. The catalogue, the tag and capability pages and the search are assembled from
these entries only, never from a description, so shards can be merged without one."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from ..config import RESERVED_SLUGS, valid_slug
from ..kinds import BY_NAME, KIND_NAMES
from ..model.site import Site, first_sentence
from ..output import safe_relative_path
from ..records import record
from ..render.markdown import plain_text
from ..render.search import MAX_TEXT

ENTRY_FILE = "portal-entry.json"
RISK_KEYS = ("read-only", "destructive", "non-destructive", "idempotent", "open-world")


@record
class PagePoint:
    """One primitive page, as the cross-server tag pages and the search list it."""

    kind: str
    name: str
    title: str
    path: str
    """Relative to the server's directory."""
    summary: str
    tags: tuple[str, ...]


@record
class ServerEntry:
    slug: str
    key: str
    """The content key its pages were rendered for (``portal.keys``)."""
    source: str
    """The description file, relative to the config's directory."""
    group: str | None
    title: str
    name: str
    version: str
    summary: str
    transports: tuple[str, ...]
    counts: tuple[tuple[str, int], ...]
    """Pages of each kind, in ``KINDS`` order."""
    tags: tuple[str, ...]
    protocol_versions: tuple[str, ...]
    risk: tuple[tuple[str, int], ...]
    """Tools carrying each behaviour mark (declared or implied), marks that occur only."""
    capabilities: tuple[str, ...]
    pages: tuple[PagePoint, ...]
    html_pages: int
    """HTML pages of its site (``pipeline.html_pages``)."""

    def count(self, kind: str) -> int:
        return dict(self.counts).get(kind, 0)

    def to_json(self) -> bytes:
        return (json.dumps(asdict(self), ensure_ascii=False, sort_keys=True, indent=1) + "\n").encode("utf-8")

    @classmethod
    def from_json(cls, data: bytes) -> ServerEntry:
        """The entry a build wrote; ValueError, TypeError or KeyError for anything else
        (a shard's entries are read by ``merge``: none may name a path leaving its
        server's directory)."""
        raw: dict[str, Any] = json.loads(data)
        raw["pages"] = tuple(PagePoint(**{**p, "tags": tuple(p["tags"])}) for p in raw["pages"])
        for name in ("transports", "tags", "protocol_versions", "capabilities"):
            raw[name] = tuple(raw[name])
        for name in ("counts", "risk"):
            raw[name] = tuple((str(k), int(v)) for k, v in raw[name])
        entry = cls(**raw)
        if not valid_slug(entry.slug) or entry.slug in RESERVED_SLUGS:
            raise ValueError(f"not a server's slug: {entry.slug!r}")
        for page in entry.pages:
            safe_relative_path(page.path)  # ValueError
        return entry


def server_entry(site: Site, *, slug: str, key: str, source: str, group: str | None, html_pages: int) -> ServerEntry:
    server = site.server
    tags: dict[str, None] = {tag.name: None for tag in site.tags}
    for page in site.pages:
        tags.update(dict.fromkeys(page.tag_names))
    marks: dict[str, int] = {}
    for page in site.pages_of("tool"):
        for mark in page.risk:
            marks[mark.key] = marks.get(mark.key, 0) + 1
    capabilities = sorted({entry.name for capability in site.capabilities for entry in capability.entries})
    return ServerEntry(
        slug=slug,
        key=key,
        source=source,
        group=group,
        title=server.title,
        name=server.name,
        version=server.version,
        summary=first_sentence(plain_text(server.description), MAX_TEXT) if server.description else "",
        transports=tuple(dict.fromkeys(t.type for t in site.transports)),
        counts=tuple((kind, len(site.pages_of(kind))) for kind in KIND_NAMES),
        tags=tuple(tags),
        protocol_versions=site.protocol_versions,
        risk=tuple((mark, marks[mark]) for mark in RISK_KEYS if mark in marks),
        capabilities=tuple(capabilities),
        pages=tuple(
            PagePoint(
                page.kind,
                page.name,
                page.title,
                page.path,
                plain_text(page.summary, inline=True)[:MAX_TEXT] if page.summary else "",
                page.tag_names,
            )
            for page in site.pages
        ),
        html_pages=html_pages,
    )


def kind_singular(kind: str) -> str:
    return BY_NAME[kind].singular
