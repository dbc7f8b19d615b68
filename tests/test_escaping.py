"""The templates' escape: MarkupSafe's result, and what every compiled template calls."""

from __future__ import annotations

import markupsafe
from hypothesis import given
from hypothesis import strategies as st

from mcpdesc_docs.config import ThemeConfig
from mcpdesc_docs.render import escaping
from mcpdesc_docs.render.theme import create_environment, load_theme


class Html:
    def __html__(self) -> str:
        return "<i>safe</i>"


@given(st.text())
def test_text_and_markup_escape_as_markupsafe_does(text: str) -> None:
    for value in (text, markupsafe.Markup(text)):
        ours, theirs = escaping.escape(value), markupsafe.escape(value)
        assert type(ours) is markupsafe.Markup
        assert str(ours) == str(theirs)


def test_other_values_escape_as_markupsafe_does() -> None:
    class Text(str):
        pass

    for value in (None, 3, 2.5, True, Html(), Text("<a & b>"), ["<x>"]):
        ours = escaping.escape(value)
        assert type(ours) is markupsafe.Markup
        assert str(ours) == str(markupsafe.escape(value))


def test_compiled_templates_call_this_escape() -> None:
    env = create_environment(load_theme(ThemeConfig()))
    template = env.from_string("{{ value }}")
    assert template.root_render_func.__globals__["escape"] is escaping.escape
    assert template.render(value="<'\"&>") == "&lt;&#39;&#34;&amp;&gt;"
