"""Syntax highlighting of JSON and YAML blocks at build time, with Pygments.

Pages carry the highlighted markup (spans with Pygments' short token classes, coloured by
the theme's stylesheet), so no highlighter runs in the browser and nothing is loaded from
elsewhere. Blocks come from an untrusted description: a block longer than
``MAX_HIGHLIGHT`` characters is shown escaped but plain, which bounds the extra markup
(about ten times the text). The lexers take time linear in the block: JSON's is, and
YAML's is made so (``yaml_lexer``; Pygments' own takes the square of a line's length).
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import TYPE_CHECKING

from markupsafe import Markup, escape

if TYPE_CHECKING:  # Pygments is imported on first use only
    from pygments.formatters.html import HtmlFormatter
    from pygments.lexer import Lexer

MAX_HIGHLIGHT = 20_000
"""Characters of one block highlighted; a longer block is shown as plain text."""

LANGUAGES = {"json": "json", "yaml": "yaml", "yml": "yaml", "jsonc": "json", "json5": "json"}
"""Fenced-code info strings (lower case) that are highlighted, and the lexer each uses."""


@lru_cache(maxsize=4096)
def highlight(code: str, language: str) -> Markup:
    """``code`` as HTML safe to insert into ``<pre><code>``: highlighted when ``language``
    is one of ``LANGUAGES`` and the block is short enough, else escaped."""
    lexer_name = LANGUAGES.get(language.lower())
    if lexer_name is None or len(code) > MAX_HIGHLIGHT:
        return escape(code)
    # Imported on first use: validation never needs Pygments.
    from pygments import highlight as pygments_highlight

    lexer, formatter = _tools(lexer_name)
    html = pygments_highlight(code, lexer, formatter)
    # Pygments always ends with a newline; the block does not necessarily.
    if not code.endswith("\n") and html.endswith("\n"):
        html = html[:-1]
    return Markup(html)  # Pygments escapes every token it emits


@cache
def _tools(lexer_name: str) -> tuple[Lexer, HtmlFormatter[str]]:
    """The lexer and formatter, made once per language per process: an HtmlFormatter works out
    its whole style table when made (about 2 ms, as long as highlighting a block), and
    neither keeps state between blocks (lexing and formatting are pure in their input)."""
    from pygments.formatters.html import HtmlFormatter
    from pygments.lexers.data import JsonLexer

    from .yaml_lexer import linear_yaml_lexer

    lexer: Lexer = JsonLexer() if lexer_name == "json" else linear_yaml_lexer()[0]
    # stripnl would drop leading blank lines; the block is shown as written.
    lexer.stripnl = False
    return lexer, HtmlFormatter(nowrap=True)
