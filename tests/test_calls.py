"""Calls from templates: macros and ``called_directly`` types skip Jinja's ``Context.call``;
everything else, and what each call gives, is as Jinja has it."""

from __future__ import annotations

from typing import Any

import jinja2
import pytest

from mcpdesc_docs.config import ThemeConfig
from mcpdesc_docs.render.calls import DirectCallContext, called_directly
from mcpdesc_docs.render.pages import RelativeLinks
from mcpdesc_docs.render.theme import create_environment, load_theme

TEMPLATE = """\
{%- macro shout(text, caller=none) -%}{{ text|upper }}{% if caller %}[{{ caller() }}]{% endif %}{%- endmacro -%}
{%- for item in items -%}{{ shout(item) }},{{ link('x.html') }},{{ whoami() }};{% endfor -%}
{%- call shout('c') %}inner {{ items|length }}{% endcall -%}"""


@jinja2.pass_context
def whoami(context: jinja2.runtime.Context) -> str:
    return str(context["name"])


class Link:
    def __call__(self, target: str) -> str:
        return "../" + target


@pytest.fixture
def environment() -> jinja2.Environment:
    return create_environment(load_theme(ThemeConfig()))


def render(environment: jinja2.Environment, **values: Any) -> str:
    return environment.from_string(TEMPLATE).render(items=["a", "b"], link=Link(), whoami=whoami, **values)


def test_pages_render_as_with_jinjas_own_call(environment: jinja2.Environment) -> None:
    ours = render(environment, name="page")
    plain = jinja2.Environment(autoescape=True).from_string(TEMPLATE)
    assert ours == plain.render(items=["a", "b"], link=Link(), whoami=whoami, name="page")
    assert ours == "A,../x.html,page;B,../x.html,page;C[inner 2]"


def test_a_macro_called_where_autoescape_is_off_returns_plain_text(environment: jinja2.Environment) -> None:
    # Jinja passes macros the eval context: under {% autoescape false %} a macro's result is
    # a plain string, which |e escapes; elsewhere it is markup, which |e leaves alone.
    source = "{% macro bold() %}<b>{% endmacro %}{% autoescape false %}{{ bold()|e }}{% endautoescape %}|{{ bold()|e }}"
    assert environment.from_string(source).render() == "&lt;b&gt;|<b>"
    assert jinja2.Environment(autoescape=True).from_string(source).render() == "&lt;b&gt;|<b>"


def test_only_macros_and_declared_types_skip_jinjas_call(
    environment: jinja2.Environment, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert environment.context_class is DirectCallContext
    asked: list[object] = []
    jinjas = jinja2.runtime.Context.call

    def counted(self: jinja2.runtime.Context, obj: Any, *args: Any, **kwargs: Any) -> Any:
        asked.append(obj)
        return jinjas(self, obj, *args, **kwargs)

    monkeypatch.setattr(jinja2.runtime.Context, "call", counted)
    render(environment, name="page")
    # The pass_context function (twice) and the Link instances (twice) went through
    # Jinja's call; the macro, called three times, did not.
    assert [type(obj).__name__ for obj in asked] == ["Link", "function", "Link", "function"]
    asked.clear()
    environment.from_string("{{ url('a/b.html') }}").render(url=RelativeLinks())
    assert asked == []  # declared with called_directly


def test_a_subclass_of_a_direct_type_is_asked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    @called_directly
    class Plain:
        def __call__(self) -> str:
            return "plain"

    class Wanting(Plain):
        @jinja2.pass_context
        def __call__(self, context: jinja2.runtime.Context) -> str:  # type: ignore[override]
            return f"wanting {context['name']}"

    environment = create_environment(load_theme(ThemeConfig()))
    template = environment.from_string("{{ a() }} {{ b() }}")
    assert template.render(a=Plain(), b=Wanting(), name="n") == "plain wanting n"


def boom(value: object) -> str:
    raise StopIteration  # a filter is called directly, so this leaves the macro


def test_a_stop_iteration_out_of_a_macro_leaves_its_value_undefined(environment: jinja2.Environment) -> None:
    source = "{% macro m() %}{{ 1|boom }}{% endmacro %}[{{ m() }}]"
    jinjas = jinja2.Environment(autoescape=True)
    ours = jinja2.Environment(autoescape=True)
    ours.context_class = DirectCallContext
    for env in (jinjas, ours, environment):
        env.filters["boom"] = boom
    # Jinja's call turns it into an undefined value (in the page's generator it would end
    # the page); so does ours. Our environment's StrictUndefined refuses to show it.
    assert ours.from_string(source).render() == jinjas.from_string(source).render() == "[]"
    with pytest.raises(jinja2.UndefinedError):
        environment.from_string(source).render()
