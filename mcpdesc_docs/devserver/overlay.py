"""Serve-time additions to pages: the reload script and the banner listing the last
rebuild's problems. Only pages the dev server sends get them, never those ``build`` writes."""

from __future__ import annotations

from functools import cache

import jinja2

from ..config import ThemeConfig
from ..diagnostics import shown
from ..render.theme import create_environment, load_theme
from ..resources import builtin_dir
from .builder import Rebuild

EVENTS_PATH = "/__mcpdesc__/events"
ASSETS_PATH = "/__mcpdesc__/"
"""Serve-time files (the reload script, the banner's stylesheet), from templates/serve/."""
_SERVE_ASSETS = {"livereload.js": "text/javascript; charset=utf-8", "overlay.css": "text/css; charset=utf-8"}


@cache
def _environment() -> jinja2.Environment:
    # The built-in templates through the theme's own environment factory (same escaping and
    # undefined-name rules). Not the project's theme: the banner must show even when the
    # project's config or templates are what is broken.
    return create_environment(load_theme(ThemeConfig()))


def _context(failure: Rebuild | None, token: str) -> dict[str, object]:
    return {
        "problems": failure,
        # Capped as in the terminal: the banner is added to every page served.
        "shown": shown(failure.diagnostics) if failure is not None else None,
        "token": token,
        "events_path": EVENTS_PATH,
        "assets_path": ASSETS_PATH,
        "script_path": ASSETS_PATH + "livereload.js",
    }


def decorate(html: bytes, failure: Rebuild | None, token: str) -> bytes:
    """The page with the banner (when the last rebuild failed) and the reload script added
    before ``</body>``."""
    addition = _environment().get_template("serve/overlay.html").render(**_context(failure, token)).encode("utf-8")
    position = html.rfind(b"</body>")
    if position < 0:
        return html + addition
    return html[:position] + addition + html[position:]


def no_site_page(failure: Rebuild | None, token: str) -> bytes:
    """What every path shows before a first good build."""
    return _environment().get_template("serve/no_site.html").render(**_context(failure, token)).encode("utf-8")


def serve_asset(name: str) -> tuple[bytes, str] | None:
    """A serve-time file and its content type, or None for any other name."""
    if name not in _SERVE_ASSETS:
        return None
    return (builtin_dir("templates") / "serve" / name).read_bytes(), _SERVE_ASSETS[name]
