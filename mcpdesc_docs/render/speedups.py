"""The one place where rendering departs from stock Jinja, and the switch that turns it off.

Three changes make pages render faster than stock Jinja does, each checked by its own tests
to give the same text:

- ``calls.DirectCallContext``: calls to macros and to declared types skip Jinja's
  ``Context.call`` and its questions about what the callable wants passed.
- ``escaping.EscapingCodeGenerator``: compiled templates escape through ``escaping.escape``,
  which skips MarkupSafe's detours for the two common cases.
- ``SpedUpEnvironment.make_globals``: a template's globals are one dict, not a ChainMap.

Compiled templates are also kept in a per-user cache (``template_cache``).

All four rely on how Jinja and MarkupSafe work inside (hooks, private names, the shape of
generated code), which is why pyproject.toml bounds their versions above. With
``MCPDESC_STOCK_JINJA=1`` (or ``stock=True``) a build uses ``jinja2.Environment`` as it
comes and compiles every template afresh: the reference the speed-ups are tested against
(``tests/test_speedups.py`` holds both to the same bytes), and a way out if a new Jinja
breaks one of them.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping
from typing import Any

import jinja2

from .calls import DirectCallContext, called_directly
from .escaping import CODE_GENERATION, EscapingCodeGenerator
from .template_cache import template_cache

STOCK_JINJA_VARIABLE = "MCPDESC_STOCK_JINJA"
"""Set to anything but empty or ``0`` for stock Jinja."""


def stock_jinja_requested() -> bool:
    return os.environ.get(STOCK_JINJA_VARIABLE, "") not in ("", "0")


class SpedUpEnvironment(jinja2.Environment):
    code_generator_class = EscapingCodeGenerator
    context_class = DirectCallContext

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        """A template's globals as one dict, where Jinja makes a ChainMap over the
        environment's. Every context Jinja makes lists them (``set(globals)``) and every
        import in an included partial compares them with the page's; through a ChainMap both
        are Python loops (a twentieth of rendering). The difference, that a global set after
        a template is loaded would not reach it, does not arise: ``render_site`` sets its
        globals before it loads any template, on an environment of its own."""
        return {**self.globals, **(d or {})}


def make_environment(options: tuple[str, ...], *, stock: bool | None = None, **settings: Any) -> jinja2.Environment:
    """A Jinja environment with ``settings``, sped up unless ``stock`` (by default, unless
    ``MCPDESC_STOCK_JINJA`` asks for it). ``options`` names the settings that change the
    compiled code: with the code generator, they key the compiled-template cache."""
    if stock if stock is not None else stock_jinja_requested():
        return jinja2.Environment(**settings)
    return SpedUpEnvironment(**settings, bytecode_cache=template_cache((*options, CODE_GENERATION)))


__all__ = ["STOCK_JINJA_VARIABLE", "SpedUpEnvironment", "called_directly", "make_environment", "stock_jinja_requested"]
