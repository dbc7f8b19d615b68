"""One server of a portal: validated and rendered exactly as its own site would be, under
``<slug>/``, with its entry beside the pages. Runs in the build's process or in a forked
worker; what it returns is plain data (picklable), never the model."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..config import Config, PortalServer
from ..diagnostics import Diagnostic
from ..pipeline import render_description, validate_description
from ..records import record
from ..render.pages import Sink
from .assemble import DEFAULT_TITLE
from .entry import ENTRY_FILE, ServerEntry, server_entry


@record
class ServerResult:
    server: PortalServer
    entry: ServerEntry | None
    """None: the description was rejected (nothing of it was written)."""
    diagnostics: tuple[Diagnostic, ...] = ()
    specification: str | None = None
    text: str | None = None
    """The lines of the description a text report quotes (``quoted_lines``)."""
    pages: int = 0
    legacy_format: str | None = None
    rendered: bool = True
    """False: its pages were reused from the previous site (their key matched)."""

    @property
    def report_name(self) -> str:
        return str(self.server.path)


def quoted_lines(text: str | None, diagnostics: Sequence[Diagnostic]) -> str | None:
    """The lines of ``text`` a text report quotes (each diagnostic's line and the one
    before), the others emptied: the same line numbers, without sending (and holding)
    every description's whole text back from the workers."""
    if text is None or not diagnostics:
        return None
    wanted = {d.line - offset for d in diagnostics if d.line is not None for offset in (0, 1)}
    return "\n".join(line if number in wanted else "" for number, line in enumerate(text.split("\n"), start=1))


def server_config(portal: Config, server: PortalServer) -> Config:
    """The config the server's own site would be built with: the portal's settings, its
    own description, and its own address under the portal's."""
    return replace(
        portal,
        description=server.path,
        descriptions=(),
        site_name=None,
        portal_title=portal.site_name or DEFAULT_TITLE,
        site_url=f"{portal.site_url}{server.slug}/" if portal.site_url else None,
        cname=None,
        jobs=1,
    )


def render_server(portal: Config, server: PortalServer, key: str, sink: Sink) -> ServerResult:
    """Validate and, when accepted, render the server's pages into ``sink`` under its slug."""
    config = server_config(portal, server)
    validation = validate_description(config)
    spec = validation.specification.name if validation.specification else None
    text = quoted_lines(validation.text, validation.diagnostics)
    if validation.accepted(strict=config.strict) is None:
        return ServerResult(server, None, tuple(validation.diagnostics), spec, text)
    prefix = server.slug + "/"
    outcome = render_description(config, validation, sink=lambda name, content: sink(prefix + name, content))
    assert outcome.site is not None  # accepted, so rendered
    entry = server_entry(
        outcome.site, slug=server.slug, key=key, source=server.name, group=server.group, html_pages=outcome.pages
    )
    sink(prefix + ENTRY_FILE, entry.to_json())
    return ServerResult(server, entry, tuple(validation.diagnostics), spec, text, outcome.pages, outcome.legacy_format)
