"""Plain one-line texts skip markdown-it: they must come out exactly as markdown-it makes them."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from mcpdesc_docs.render import markdown
from mcpdesc_docs.render.markdown import _renderer, _words, plain_line

from .shared_data import EXAMPLES_070_DIR, EXAMPLES_DIR, descriptions_in, require
from .sites import load_data

# Texts on both sides of the line: from the plain alphabet, and with the characters
# Markdown or HTML give a meaning to.
TEXTS = st.one_of(
    st.text(alphabet="aZ09 ,.;:?'()/-\n", max_size=40),
    st.text(alphabet="aZ09 ,.;:?'()/-_*`[]<>&\"#!|~\\=+\t\n", max_size=40),
)


def parsed(text: str, inline: bool) -> tuple[str, str]:
    md = _renderer()
    tokens = md.parseInline(text, {}) if inline else md.parse(text, {})
    return md.renderer.render(tokens, md.options, {}), _words(tokens)


@given(TEXTS)
@example("Tool number 1")
@example("It's a tool (really): ok? a/b-c")
@example("A  b")
@example("Use 1. first")
@example("Tool number 1\n")
@example("a \n")
@example("a ")
@example("a *b*")
@example("a `b`")
@example('a "b" & <c>')
def test_a_text_renders_as_markdown_it_renders_it(text: str) -> None:
    markdown.clear_caches()
    for inline in (False, True):
        rendered = markdown._rendered(text, inline)
        expected = parsed(text, inline)
        if "<h" not in expected[0]:  # headings are moved below the page's own
            assert (str(rendered.html), rendered.text) == expected


def test_texts_with_markdown_are_not_plain() -> None:
    for text in ("1. first", "a *b*", "a `b`", "a <b>", "a & b", 'say "a"', "a\nb", "a ", " a", "a_b", "# a", "a \\"):
        assert plain_line(text) is None, text


def test_most_descriptions_of_real_servers_are_plain() -> None:
    # A plain line has a result the parser would give, and skips it: worth having only if
    # real descriptions are such lines (most one-sentence descriptions are).
    real = [*descriptions_in(require(EXAMPLES_DIR, "upstream examples")), *descriptions_in(EXAMPLES_070_DIR)]
    texts = [text for path in real for text in descriptions(load_data(path))]
    assert len(texts) > 100
    plain = [t for t in texts if str(markdown.render_markdown(t)) == f"<p>{t.rstrip(chr(10))}</p>\n"]
    assert len(plain) > len(texts) / 2


def test_the_plain_check_is_linear_on_a_long_run_of_spaces() -> None:
    text = "a" + " " * 99_998 + "b"
    markdown.clear_caches()
    assert markdown.render_inline(text) == text  # fullmatch over 100,000 characters: one pass


def descriptions(value: object) -> list[str]:
    if isinstance(value, dict):
        own = [v for k, v in value.items() if k == "description" and isinstance(v, str)]
        return own + [text for v in value.values() for text in descriptions(v)]
    if isinstance(value, list):
        return [text for v in value for text in descriptions(v)]
    return []
