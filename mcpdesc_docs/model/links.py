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
