"""The words of ``templates/partials/words.html`` as plain text, for the outputs built in
Python (the Markdown twins and the search index).

They come from the theme's environment, so a ``custom_dir`` override rewords the pages,
the twins and the search index alike.
"""

from __future__ import annotations

from typing import Any

import jinja2
from markupsafe import Markup

from ..model.schema_tree import SchemaRow
from ..model.site import Example, ExamplePart, Hint, Requirement, SecurityView, TransportSecurity

WORDS_TEMPLATE = "partials/words.html"


class Words:
    def __init__(self, env: jinja2.Environment) -> None:
        # Macros are called without a page context (words.html promises to need none).
        self._macros: Any = env.get_template(WORDS_TEMPLATE).module

    @staticmethod
    def _plain(markup: object) -> str:
        # The macros escape as the pages need; text wants the words themselves: entities
        # decoded, any tags a theme added dropped, whitespace collapsed to one line.
        return Markup(markup).striptags()

    def security(self, view: SecurityView) -> str:
        return self._plain(self._macros.security(view))

    def requirement(self, requirement: Requirement) -> str:
        return self._plain(self._macros.requirement_text(requirement))

    def by_transport(self, entry: TransportSecurity) -> str:
        return self._plain(self._macros.by_transport(entry))

    def transport_fallback(self, entry: TransportSecurity) -> str:
        return self._plain(self._macros.transport_fallback(entry))

    def types(self, row: SchemaRow) -> str:
        return self._plain(self._macros.types(row))

    def default_outside_type(self) -> str:
        return self._plain(self._macros.default_outside_type())

    def hint(self, hint: Hint) -> str:
        return self._plain(self._macros.hint(hint))

    def example_part(self, part: ExamplePart, example: Example) -> str:
        return self._plain(self._macros.example_part(part, example))

    def scheme_type(self, kind: str) -> str:
        return self._plain(self._macros.scheme_type(kind))
