"""Theme search path: custom_dir overrides templates and assets; template errors are located."""

from __future__ import annotations

import json
import re
from pathlib import Path

from mcpdesc_docs.config import ThemeConfig
from mcpdesc_docs.render.theme import create_environment, load_theme

from .sites import SAMPLE, load_data, parse, run, snapshot


def project(tmp_path: Path, overrides: dict[str, str]) -> Path:
    (tmp_path / "d.json").write_text(json.dumps(load_data(SAMPLE)))
    custom = tmp_path / "overrides"
    for name, text in overrides.items():
        (custom / name).parent.mkdir(parents=True, exist_ok=True)
        (custom / name).write_text(text)
    (tmp_path / "mcpdesc-docs.yml").write_text("description: d.json\ntheme:\n  custom_dir: overrides\n")
    return tmp_path


def test_custom_dir_extends_the_template_it_replaces_and_overrides_assets(tmp_path):
    root = project(
        tmp_path,
        {
            "primitive.html": (
                '{% extends "base/primitive.html" %}{% block title %}Custom {{ page.name }}{% endblock %}'
            ),
            "assets/mcpdesc.css": "/* replaced */",
            "assets/logo.txt": "added",
        },
    )
    code, _, err = run("build", str(root))
    assert code == 0, err
    page = parse(root / "site" / "tools" / "search_tickets.html")
    assert page.title.get_text() == "Custom search_tickets"
    assert page.select_one("main")["data-name"] == "search_tickets"  # the rest of the base page is kept
    assert (root / "site" / "assets" / "mcpdesc.css").read_text() == "/* replaced */"
    assert (root / "site" / "assets" / "logo.txt").read_text() == "added"
    assert (root / "site" / "assets" / "mcpdesc.js").is_file()  # untouched theme assets stay


def test_undefined_names_in_templates_are_located_errors(tmp_path):
    root = project(tmp_path, {"index.html": "line one\n{{ no_such_thing.attribute }}\n"})
    code, _, err = run("build", str(root))
    assert code == 2
    assert "index.html:2: error[mcpdesc-docs.template] template error" in err
    assert "no_such_thing" in err
    assert "Traceback" not in err
    assert not (root / "site").exists()


def test_template_syntax_errors_are_located(tmp_path):
    root = project(tmp_path, {"404.html": "ok\n{% if %}\n"})
    code, _, err = run("build", str(root))
    assert code == 2
    assert "404.html:2: error[mcpdesc-docs.template] template syntax error" in err


def test_custom_dir_rewords_the_words_partial_on_pages_and_twins(tmp_path):
    # The documented way to change one sentence: import the shipped words, keep the rest.
    shipped = (Path(__file__).resolve().parents[1] / "templates" / "partials" / "words.html").read_text()
    kept = [name for name in re.findall(r"{% macro (\w+)\(", shipped) if name != "security"]
    assert "hint" in kept
    override = '{% import "base/partials/words.html" as base %}\n'
    override += "".join(f"{{% set {name} = base.{name} %}}\n" for name in kept)
    override += (
        "{% macro security(view) -%}\n"
        "{{ 'Same as the server, unless the transport says otherwise.' if view.origin == 'inherited'"
        " and view.by_transport else base.security(view) }}\n"
        "{%- endmacro %}\n"
    )
    root = project(tmp_path, {"partials/words.html": override})
    code, _, err = run("build", str(root))
    assert code == 0, err
    page = parse(root / "site" / "tools" / "search_tickets.html")
    reworded = "Same as the server, unless the transport says otherwise."
    assert page.select_one("#security .security-origin").get_text() == reworded
    twin = (root / "site" / "tools" / "search_tickets.md").read_text()
    assert f"Security: {reworded}" in twin
    # Untouched words stay the shipped ones.
    other = parse(root / "site" / "tools" / "create_ticket.html")
    assert "Overrides the server default." in other.select_one(".security-origin").get_text()
    assert [h.get_text() for h in page.select(".hint")] == ["Read-only", "Closed world: only the server's own data"]


def test_a_broken_words_override_is_a_located_template_error(tmp_path):
    shipped = (Path(__file__).resolve().parents[1] / "templates" / "partials" / "words.html").read_text()
    broken = shipped.replace("{% macro security(view) -%}", "{% macro security(view) -%}{{ no_such_word.text }}", 1)
    assert broken != shipped
    root = project(tmp_path, {"partials/words.html": broken})
    code, _, err = run("build", str(root))
    assert code == 2
    assert "words.html:" in err
    assert "error[mcpdesc-docs.template] template error: 'no_such_word' is undefined" in err
    assert "internal error" not in err
    assert not (root / "site").exists()


def test_a_template_failing_half_way_leaves_the_previous_site_as_it_was(tmp_path):
    # Pages are written as they are rendered: when the last tool's page fails, the ones
    # before it are already in the staging directory, which must go, not replace the site.
    root = project(tmp_path, {"primitive.html": '{% extends "base/primitive.html" %}'})
    assert run("build", str(root))[0] == 0
    before = snapshot(root / "site")
    failing = (
        '{% extends "base/primitive.html" %}{% block title %}'
        '{{ page.name if page.name != "delete_ticket" else no_such_name.x }}{% endblock %}'
    )
    (root / "overrides" / "primitive.html").write_text(failing)
    code, _, err = run("build", str(root))
    assert code == 2
    assert "no_such_name" in err
    assert snapshot(root / "site") == before
    assert sorted(p.name for p in root.iterdir()) == ["d.json", "mcpdesc-docs.yml", "overrides", "site"]


def test_templates_see_the_environments_globals_under_their_own() -> None:
    env = create_environment(load_theme(ThemeConfig()))
    env.globals.update(word="environment's", other="also the environment's")
    template = env.from_string("{{ word }}, {{ other }}, {{ range(2)|list }}", globals={"word": "its own"})
    assert template.render() == "its own, also the environment&#39;s, [0, 1]"
    # One dict (Jinja makes a ChainMap, which every context and import walks in Python).
    assert type(template.globals) is dict
