"""Fit a page body rendered by the site's templates into a host page: ids prefixed (a host
page may show several primitives, each with its own ``parameters`` section, beside its own
headings), links to other pages of the site resolved, headings ranked below the host's.

The rewriting works on text because it only ever reads HTML our templates and our Markdown
renderer wrote: every text and attribute value in it is escaped (a ``"`` in a value is
``&#34;``), so ``id="`` or ``<h2`` can only be markup, never text from a description."""

from __future__ import annotations

import re
from collections.abc import Mapping

from markupsafe import escape

from ..records import record

SITE_LINK = "mcpdesc-site:"
"""What ``url(target)`` returns while a body is rendered for a host page: a scheme no text
can carry (Markdown drops unsafe schemes), replaced here by the real link."""
_ID_ATTRIBUTES = re.compile(r'(\s(?:id|for|aria-labelledby|aria-describedby|aria-controls)=")([^"]*)"')
_FRAGMENT_LINK = re.compile(r'(\shref=")#([^"]*)"')
_SITE_LINK = re.compile(r'<a(\s[^>]*?)?\shref="' + re.escape(SITE_LINK) + r'([^"#]*)(?:#([^"]*))?"')
_HEADING = re.compile(r"<(/?)h([1-6])(?=[\s>])")


def _prefixed(prefix: str, ids: str) -> str:
    return " ".join(f"{prefix}-{i}" for i in ids.split())


def page_prefix(path: str) -> str:
    """The id prefix of a primitive's page (``tools/create_ticket.html`` ->
    ``mcpdesc-tools-create_ticket``), also the id of its section in the host page."""
    return "mcpdesc-" + path.removesuffix(".html").replace("/", "-")


@record
class Fitting:
    shown: Mapping[str, str]
    """The site pages this block shows, by site path: their prefixes."""
    site_url: str | None = None
    """The full site's address: links to pages the block does not show go there."""

    def fit(self, html: str, prefix: str, shift: int) -> str:
        """``html`` (one page's body) with ids under ``prefix`` and headings ``shift`` lower."""
        html = _ID_ATTRIBUTES.sub(
            lambda m: m.group(1) + " ".join(f"{prefix}-{i}" for i in m.group(2).split()) + '"', html
        )
        html = _FRAGMENT_LINK.sub(lambda m: f'{m.group(1)}#{prefix}-{m.group(2)}"', html)
        html = _SITE_LINK.sub(self._site_link, html)
        if shift:
            html = _HEADING.sub(lambda m: f"<{m.group(1)}h{min(6, int(m.group(2)) + shift)}", html)
        return html

    def _site_link(self, match: re.Match[str]) -> str:
        attributes, path, fragment = match.group(1) or "", match.group(2), match.group(3)
        shown = self.shown.get(path)
        if shown is not None:
            return f'<a{attributes} href="#{shown}-{fragment}"' if fragment else f'<a{attributes} href="#{shown}"'
        if self.site_url is not None:
            target = escape(self.site_url + path + (f"#{fragment}" if fragment else ""))
            return f'<a{attributes} href="{target}"'
        # Nowhere to go in this site: the text stays, as an anchor without a link.
        return f"<a{attributes}"
