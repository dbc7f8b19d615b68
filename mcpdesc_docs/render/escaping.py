"""The escaping of every ``{{ value }}`` the templates write, without MarkupSafe 3's detours.

``markupsafe.escape`` builds its result through ``Markup.__new__``, a Python function that
asks the text again whether it is markup, and copies a value that already is markup. A page
escapes some three hundred values, so those detours were a tenth of rendering. ``escape``
here gives the same result (the same characters, as ``Markup``) for the two common cases
and hands every other value to MarkupSafe; ``tests/test_escaping.py`` holds it to
MarkupSafe's on any text. The templates call it through the code generator below, which imports it after
Jinja's own runtime names.
"""

from __future__ import annotations

from typing import Any

import markupsafe
from jinja2.compiler import CodeGenerator
from jinja2.nodes import Node
from markupsafe import Markup

# MarkupSafe's C (or pure Python) replacement of the five characters. It is not public, so
# without it every value goes through markupsafe.escape, which is only slower.
_replace = getattr(markupsafe, "_escape_inner", None)
_as_markup = str.__new__


def escape(value: Any, /) -> Markup:
    """``markupsafe.escape(value)``: the text with ``& < > ' "`` replaced, as Markup."""
    kind = type(value)
    if kind is str and _replace is not None:
        return _as_markup(Markup, _replace(value))
    if kind is Markup:
        markup: Markup = value  # Markup is immutable: the copy markupsafe makes is the same text
        return markup
    return markupsafe.escape(value)


_RUNTIME_IMPORT = "from jinja2.runtime import "


class EscapingCodeGenerator(CodeGenerator):
    """Jinja's code generator, with ``escape`` taken from this module instead of Jinja's
    runtime (Environment.code_generator_class is the hook Jinja gives for this)."""

    def writeline(self, x: str, node: Node | None = None, extra: int = 0) -> None:
        super().writeline(x, node, extra)
        if x.startswith(_RUNTIME_IMPORT):
            super().writeline(f"from {__name__} import escape")


CODE_GENERATION = "escape=mcpdesc_docs.render.escaping"
"""Part of the compiled-template cache key: templates compiled otherwise must not be reused."""
