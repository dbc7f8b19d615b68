"""The one configured Markdown renderer: raw HTML off, only safe link targets, no remote images.

Each text is parsed once per build: the tokens give both the HTML the pages show and the
plain words the search index keeps, and both are cached by text (a summary shown in the
catalogue, a tag page and a sidebar is rendered once, and ``serve`` re-renders unchanged
text for free).

Descriptions are untrusted and markdown-it-py is pure Python, so its cost is bounded
three times: nesting stops at ``MAX_NESTING`` levels (the work on a run of ``[`` or of
nested emphasis grows with that limit, 100 in markdown-it's default preset); a text whose
link labels make markdown-it look ahead more than ``LOOK_AHEADS_PER_CHARACTER`` times a
character is shown as escaped paragraphs; and so is a field longer than ``MAX_MARKDOWN``
characters, without being parsed at all.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import NamedTuple

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from markupsafe import Markup, escape

from ..model.links import is_safe_link
from .highlight import LANGUAGES, highlight

MAX_NESTING = 20
"""Block and inline nesting markdown-it follows (its CommonMark preset's value): prose
never nests this deep, and a run of brackets costs this many steps per character."""
MAX_MARKDOWN = 100_000
"""Characters of one field parsed as Markdown; a longer field is shown as plain text."""
DESCRIPTION_HEADING = 3
"""The level a description's top heading gets by default: below the page's sections (h2),
so "## Usage" in a tool's description never outranks "Parameters"."""
KEPT_TEXTS = 65_536
"""Texts whose parse and HTML are kept. A site shows each text on its page and again in
the overview, a tag page and the search index, pages apart: a bound below the texts of a
large description (12,000 at 5,000 tools) had its least recently used ones parsed a second
time. The bound still caps what ``serve`` keeps over many edits."""

LOOK_AHEADS_PER_CHARACTER = 4
LOOK_AHEADS_FLOOR = 1_000
"""To find where a link's label ends, markdown-it steps over the tokens after its ``[``
one by one ("skipToken"), each ``[`` among them a label of its own, down to MAX_NESTING
levels: a run of ``![`` made it step 20 times per character (20 µs of CPU a character,
1 MB of it built in 23 s). Prose steps far less: at most 0.53 times a character in the
corpus's texts, 186 steps in all. A text is allowed this many steps a character, and this
many more; past them it is shown as plain paragraphs, as an over-long text is."""


class _LookAheadsSpent(Exception):
    """A text used up its look-ahead budget (``LOOK_AHEADS_PER_CHARACTER``)."""


class _LookAheadBudget(threading.local):
    left: int | None = None
    """Steps the text being parsed may still take; None outside a parse that counts them."""


_look_aheads = _LookAheadBudget()


def _counted(skip_token: Callable[[StateInline], None]) -> Callable[[StateInline], None]:
    def counted_skip_token(state: StateInline) -> None:
        left = _look_aheads.left
        if left is not None:
            if left <= 0:
                raise _LookAheadsSpent
            _look_aheads.left = left - 1
        skip_token(state)

    return counted_skip_token


_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9,.;:?'() /-]*")
"""One line of words that Markdown leaves as they are: a letter first (no list marker, no
indent), none of the characters with a meaning in Markdown or HTML, no trailing space (a
final newline is allowed). Most descriptions of real servers are such lines (209 of the
corpus's 245); they skip the parser, which would make of them one paragraph of the same
text (tests/test_markdown_plain.py holds the two to the same HTML and words)."""


def plain_line(text: str) -> str | None:
    """The line of a text that Markdown leaves as it is (``_PLAIN``), without its final
    newline (as a YAML block scalar ends); None for any other text."""
    line = text[:-1] if text.endswith("\n") else text
    return line if _PLAIN.fullmatch(line) and not line.endswith(" ") else None


class Rendered(NamedTuple):
    html: Markup
    text: str
    """The words without the syntax, whitespace collapsed (for the search index)."""


def _highlight_fence(code: str, language: str, _attributes: str) -> str:
    # markdown-it wraps what this returns in <pre><code class="language-…">, and escapes
    # the block itself when it gets "" (a language that is not highlighted).
    return str(highlight(code, language)) if language.lower() in LANGUAGES else ""


@lru_cache(maxsize=1)
def _renderer() -> MarkdownIt:
    # "js-default" is markdown-it's safe preset: raw HTML is off, so "<script>" in a
    # description stays text. Images are turned off because nothing on a page may load
    # from another host; "![alt](url)" then reads as "!" and a link.
    options = {"linkify": False, "typographer": False, "maxNesting": MAX_NESTING, "highlight": _highlight_fence}
    md = MarkdownIt("js-default", options)
    md.disable("image")
    md.validateLink = is_safe_link  # type: ignore[method-assign]
    # Link labels look ahead through this instance attribute (parseLinkLabel calls
    # state.md.inline.skipToken): each step is counted against the text's budget.
    md.inline.skipToken = _counted(md.inline.skipToken)  # type: ignore[method-assign,assignment]
    return md


def _words(tokens: Sequence[Token]) -> str:
    blocks: list[str] = []
    for token in tokens:
        words = []
        for child in token.children or ():
            if child.type in ("text", "code_inline"):
                words.append(child.content)
            elif child.type in ("softbreak", "hardbreak"):
                words.append(" ")
        if words:
            blocks.append("".join(words))
    return " ".join(" ".join(blocks).split())


def _unparsed(text: str, inline: bool) -> Rendered:
    # Too long to parse within the build's budget: the same words, escaped, one paragraph
    # per blank-line-separated block as Markdown would have them.
    if inline:
        html = Markup(escape(text))
    else:
        paragraphs = (part.strip() for part in _BLANK_LINE.split(text))
        html = Markup("".join(f"<p>{escape(part)}</p>\n" for part in paragraphs if part))
    return Rendered(html, " ".join(text.split()))


def _shifted_headings(tokens: Sequence[Token], top: int) -> Sequence[Token]:
    """The tokens with the text's highest heading at level ``top`` and the others at the
    same offset (at most h6): the outline of a description keeps its shape under the
    page's own. The parsed tokens stay as they are (the same text is shown at other levels)."""
    levels = [int(token.tag[1]) for token in tokens if token.type == "heading_open"]
    if not levels or min(levels) == top:
        return tokens
    offset = top - min(levels)
    return [
        token.copy(tag=f"h{min(6, int(token.tag[1]) + offset)}")
        if token.type in ("heading_open", "heading_close")
        else token
        for token in tokens
    ]


class _Parsed(NamedTuple):
    tokens: Sequence[Token]
    env: dict[str, object]
    rendered: Rendered
    """At the default heading level."""


@lru_cache(maxsize=KEPT_TEXTS)
def _parsed(text: str, inline: bool) -> _Parsed | Rendered:
    """Each text is parsed once, whatever heading levels it is shown at. Only a text with
    headings keeps its tokens (to be shown at other levels); any other is its ``Rendered``,
    as is a text too long to parse (its fallback)."""
    if len(text) > MAX_MARKDOWN:
        return _unparsed(text, inline)
    line = plain_line(text)
    if line is not None:
        return Rendered(Markup(text if inline else f"<p>{line}</p>\n"), " ".join(line.split()))
    md = _renderer()
    env: dict[str, object] = {}
    _look_aheads.left = LOOK_AHEADS_PER_CHARACTER * len(text) + LOOK_AHEADS_FLOOR
    try:
        tokens = md.parseInline(text, env) if inline else md.parse(text, env)
    except _LookAheadsSpent:
        return _unparsed(text, inline)
    finally:
        _look_aheads.left = None
    shown = tokens if inline else _shifted_headings(tokens, DESCRIPTION_HEADING)
    rendered = Rendered(Markup(md.renderer.render(shown, md.options, env)), _words(tokens))
    if inline or not any(token.type == "heading_open" for token in tokens):
        # Shown the same at every heading level: the tokens are not kept (they take
        # several times the memory of the HTML, for thousands of texts).
        return rendered
    return _Parsed(tokens, env, rendered)


@lru_cache(maxsize=KEPT_TEXTS)
def _rendered(text: str, inline: bool, top_heading: int = DESCRIPTION_HEADING) -> Rendered:
    parsed = _parsed(text, inline)
    if isinstance(parsed, Rendered):
        return parsed
    if inline or top_heading == DESCRIPTION_HEADING:
        return parsed.rendered
    md = _renderer()
    shown = _shifted_headings(parsed.tokens, top_heading)
    return Rendered(Markup(md.renderer.render(shown, md.options, dict(parsed.env))), parsed.rendered.text)


def render_markdown(text: str, top_heading: int = DESCRIPTION_HEADING) -> Markup:
    """Block Markdown -> HTML that is safe to insert unescaped; its headings start at
    ``top_heading`` (the level below the section it sits in)."""
    return _rendered(text, False, top_heading).html


def render_inline(text: str) -> Markup:
    """One line of Markdown (no paragraphs), for summaries and table cells."""
    return _rendered(text, True).html


def plain_text(markdown: str | None, *, inline: bool = False) -> str:
    """The words of a Markdown string as the page shows it (block or ``inline``), without
    its syntax: from the same parse as the page's HTML."""
    if not markdown:
        return ""
    return _rendered(markdown, inline).text


def clear_caches() -> None:
    """Forget rendered text (tests that count work must not reuse another size's)."""
    _parsed.cache_clear()
    _rendered.cache_clear()
    highlight.cache_clear()  # code blocks, of descriptions and of the pages' JSON
