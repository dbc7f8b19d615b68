"""Which link targets from a description may become hyperlinks (in Markdown and elsewhere)."""

from __future__ import annotations

from urllib.parse import urlsplit

SAFE_SCHEMES = frozenset({"http", "https", "mailto"})


def is_safe_link(url: str) -> bool:
    """http, https, mailto and relative targets only: never javascript:, data:, file:, ..."""
    # Browsers ignore ASCII whitespace and control characters inside a scheme
    # ("java\tscript:"), so judge the URL the way a browser would read it.
    cleaned = "".join(ch for ch in url if ord(ch) > 0x20 and ch != "\x7f")
    try:
        scheme = urlsplit(cleaned).scheme.lower()
    except ValueError:
        return False
    if scheme:
        return scheme in SAFE_SCHEMES
    # "//host/path" is relative in syntax only: it leaves the site like an absolute URL.
    return not cleaned.startswith(("//", "\\\\", "/\\", "\\/"))


# The two custom schemes a page links to: one-click install links the build makes from a
# transport (model/install.py), never a URL a description gives (is_safe_link refuses them).
CURSOR_INSTALL = "cursor://anysphere.cursor-deeplink/mcp/install?"
VSCODE_INSTALL = "vscode:mcp/install?"


def is_install_link(url: str) -> bool:
    """Whether ``url`` has the shape of a generated install link (tests check pages with it)."""
    return url.startswith((CURSOR_INSTALL, VSCODE_INSTALL))
