"""The one configured Markdown renderer: raw HTML off, only safe link targets, no remote images.

Results are cached by text: a summary shown in the catalogue, a tag page and a sidebar is
rendered once, and ``serve`` re-renders unchanged text for free."""

from __future__ import annotations

from functools import lru_cache

from markdown_it import MarkdownIt
from markupsafe import Markup

from ..model.links import is_safe_link


@lru_cache(maxsize=1)
def _renderer() -> MarkdownIt:
    # "js-default" is markdown-it's safe preset: raw HTML is off, so "<script>" in a
    # description stays text. Images are turned off because nothing on a page may load
    # from another host; "![alt](url)" then reads as "!" and a link.
    md = MarkdownIt("js-default", {"linkify": False, "typographer": False})
    md.disable("image")
    md.validateLink = is_safe_link  # type: ignore[method-assign]
    return md


@lru_cache(maxsize=8192)
def render_markdown(text: str) -> Markup:
    """Block Markdown -> HTML that is safe to insert unescaped."""
    return Markup(_renderer().render(text))


@lru_cache(maxsize=8192)
def render_inline(text: str) -> Markup:
    """One line of Markdown (no paragraphs), for summaries and table cells."""
    return Markup(_renderer().renderInline(text))
