"""The content key of a server's pages: what they are made from, hashed. A portal build
reuses the previous site's ``<slug>/`` when its entry carries the same key."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from .. import __version__
from ..config import Config, PortalServer
from ..render.theme import Theme

_PACKAGE = Path(__file__).resolve().parents[1]


@lru_cache(maxsize=1)
def tool_digest() -> str:
    """The tool's version and its code: a checkout between releases renders differently
    from one commit to the next, so the version alone would keep stale pages."""
    digest = hashlib.sha256(f"mcpdesc-docs {__version__}\n".encode())
    for file in sorted(_PACKAGE.rglob("*.py")):
        digest.update(file.relative_to(_PACKAGE).as_posix().encode() + b"\0")
        digest.update(file.read_bytes())
    return digest.hexdigest()


def theme_files_digest(theme: Theme) -> str:
    """Every template and asset the pages are made with."""
    digest = hashlib.sha256(theme.name.encode())
    for root in theme.watch_paths:
        for file in sorted(root.rglob("*")):
            if file.is_file():
                digest.update(file.relative_to(root).as_posix().encode() + b"\0")
                digest.update(file.read_bytes())
    return digest.hexdigest()


def theme_digest(theme: Theme, config: Config) -> str:
    """The theme's files, and the project's extra CSS (copied into each server's site)."""
    digest = hashlib.sha256(theme_files_digest(theme).encode())
    for css in config.extra_css:
        digest.update(css.encode() + b"\0" + (config.project_dir / css).read_bytes())
    return digest.hexdigest()


def settings_text(config: Config) -> str:
    """The settings that change a server's pages (not where the site goes, nor how many
    workers render it)."""
    return repr(
        (
            config.site_name,  # the portal's title, in each page's header
            config.site_url,
            config.repo_url,
            config.copyright,
            config.strict,
            config.limits,
            config.suppress,
        )
    )


def server_key(server: PortalServer, content: bytes, *, theme: str, settings: str) -> str:
    digest = hashlib.sha256()
    for part in (tool_digest(), theme, settings, server.slug, server.name, server.group or "\0"):
        digest.update(part.encode("utf-8") + b"\0")
    digest.update(content)
    return digest.hexdigest()
