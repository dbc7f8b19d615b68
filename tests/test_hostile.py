"""Untrusted text renders inert: no markup, script, handler, dangerous link or template syntax survives."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from mcpdesc_docs.model.links import is_install_link, is_safe_link
from mcpdesc_docs.render.markdown import render_markdown

from .sites import SAMPLE, build, html_pages, load_data, parse

PAYLOAD = (
    '<script>alert("x")</script><img src=x onerror=alert(1)> "><svg onload=alert(2)> '
    "[click](javascript:alert(3)) [data](data:text/html;base64,PHNjcmlwdD4=) ![pixel](https://evil.example/p.png) "
    '<a href="javascript:alert(4)">a</a> {{ 7*7 }} {% raw %}{# c #}'
)
TEXT_KEYS = {"description", "title", "message", "when", "onDecline", "onCancel", "instructions", "text", "copyright"}
HOSTILE_PROPERTY = '"><img src=x onerror=alert(5)>'


def poison(value: object, key: str = "") -> object:
    if isinstance(value, str) and key in TEXT_KEYS:
        return value + " " + PAYLOAD
    if isinstance(value, dict):
        return {k: poison(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [poison(item, key) for item in value]
    return value


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = poison(load_data(SAMPLE))
    assert isinstance(data, dict)
    data["info"]["websiteUrl"] = "javascript:alert(6)"
    data["info"]["contact"]["url"] = "data:text/html,alert(7)"
    escalate = next(t for t in data["tools"] if t["name"] == "escalate_ticket")
    escalate["elicitations"][2]["url"] = "javascript:alert(document.cookie)"
    unlock = data["resourceTemplates"][0]["elicitations"][0]["requestedSchema"]
    unlock["properties"][HOSTILE_PROPERTY] = {
        "type": "string",
        "title": PAYLOAD,
        "enum": ['"><b>x</b>'],
        "enumNames": [PAYLOAD],
    }
    data["x-payload"] = PAYLOAD
    hostile_tag = 'tickets"><script>alert(11)</script>'
    data["tags"][0]["name"] = hostile_tag
    for collection in ("tools", "resources", "resourceTemplates", "prompts"):
        for item in data[collection]:
            if "tags" in item:
                item["tags"] = [hostile_tag if t == "tickets" else t for t in item["tags"]]
    for tool in data["tools"]:
        tool["name"] = tool["name"] + " <i>{{ 7*7 }}</i>"
    root = tmp_path_factory.mktemp("hostile")
    (root / "d.json").write_text(json.dumps(data))
    code, out, err = build(root / "d.json", root / "site")
    assert code == 0, out + err
    return root / "site"


def test_no_script_or_handler_or_dangerous_link_survives(hostile_site):
    pages = list(html_pages(hostile_site))
    assert len(pages) > 10
    for page_path in pages:
        page = parse(page_path)
        assert [s.get("src", "").rsplit("/", 1)[-1] for s in page.select("script")] == [
            "mcpdesc-early.js",
            "mcpdesc.js",
        ]
        assert page.select("img, iframe, object, embed, b, i") == []
        # The only drawings are the theme's own icons (the theme and search buttons).
        icons = ("data-theme-toggle", "data-search-open")
        assert [svg for svg in page.select("svg") if not any(svg.find_parent(attrs={a: True}) for a in icons)] == []
        for element in page.find_all(True):
            for attribute, value in element.attrs.items():
                assert not attribute.lower().startswith("on"), (page_path, element.name, attribute)
                if attribute in ("href", "src", "action", "formaction", "srcset", "poster", "data"):
                    text = value if isinstance(value, str) else " ".join(value)
                    # The build's own install links (a[data-install-link]) may use two schemes more.
                    made = element.name == "a" and element.has_attr("data-install-link") and is_install_link(text)
                    allowed = ("", "http", "https", "mailto", *(("cursor", "vscode") if made else ()))
                    assert urlsplit(text.strip()).scheme.lower() in allowed, (page_path, text)
                assert attribute != "style", (page_path, element.name)  # the theme uses no inline styles
                if attribute in ("src", "srcset", "poster", "data"):  # would load: only our own assets
                    assert "evil.example" not in str(value)


def test_template_syntax_stays_literal(hostile_site):
    index = parse(hostile_site / "index.html").get_text()
    assert "{{ 7*7 }}" in index
    assert "{% raw %}{# c #}" in index
    # Names are rendered in headings, titles and navigation: still literal everywhere.
    tool_page = parse(next((hostile_site / "tools").glob("search_tickets*.html")))
    assert "search_tickets <i>{{ 7*7 }}</i>" in tool_page.select_one("nav").get_text()
    assert "49" not in tool_page.select_one("nav").get_text()


def test_hostile_tag_names_stay_text(hostile_site):
    names = [a.get_text() for a in parse(hostile_site / "index.html").select("#site-nav .nav-tag a")]
    assert 'tickets"><script>alert(11)</script>' in names
    assert all(set(p.name) <= set("abcdefghijklmnopqrstuvwxyz0123456789._-") for p in (hostile_site / "tags").iterdir())


def test_pages_declare_a_strict_content_security_policy(hostile_site):
    for page_path in html_pages(hostile_site):
        policy = parse(page_path).select_one('meta[http-equiv="Content-Security-Policy"]')["content"]
        assert "script-src 'self'" in policy
        assert "unsafe-inline" not in policy
        assert "form-action 'none'" in policy


def test_payload_text_is_shown_not_executed(hostile_site):
    page = parse(hostile_site / "resource-templates" / "ticket.html")
    card = page.select_one("#elicitation-unlock_archived")
    assert PAYLOAD in card.select_one('[data-field="message"]').get_text()
    control = card.select_one("select")
    assert control["name"] == HOSTILE_PROPERTY
    assert [o["value"] for o in control.select("option")] == ["", '"><b>x</b>']
    url_card = parse(next((hostile_site / "tools").glob("escalate_ticket*.html"))).select_one(
        "#elicitation-sign_in_pager"
    )
    assert url_card.select_one('[data-field="url"]').get_text() == "javascript:alert(document.cookie)"


def test_unsafe_server_links_are_not_clickable(hostile_site):
    index = parse(hostile_site / "index.html")
    facts = index.select_one(".facts")
    assert "javascript:alert(6)" in facts.get_text()
    assert not [a for a in facts.select("a[href]") if "javascript" in a["href"] or "data:" in a["href"]]


def test_tool_pages_keep_hostile_names_as_text_in_safe_file_names(hostile_site):
    names = sorted(p.name for p in (hostile_site / "tools").glob("*.html"))
    assert all(set(n) <= set("abcdefghijklmnopqrstuvwxyz0123456789._-") for n in names)
    page = parse(hostile_site / "tools" / names[0])
    assert "<i>{{ 7*7 }}</i>" in page.select_one("main")["data-name"]


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        "java\tscript:alert(1)",
        " javascript:alert(1)",
        "\x01javascript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "vbscript:msgbox(1)",
        "file:///etc/passwd",
        "//evil.example/x",
    ],
)
def test_dangerous_link_targets_are_refused(url):
    assert not is_safe_link(url)
    assert "href" not in render_markdown(f"[x]({url})")


def test_backslash_network_paths_are_refused():
    # Browsers read "\\\\host\\x" as "//host/x".
    assert not is_safe_link("\\\\evil.example\\x")


@pytest.mark.parametrize("url", ["https://example.com/a", "http://x.test", "mailto:a@b.c", "other.html#x", "#top"])
def test_ordinary_link_targets_are_kept(url):
    assert is_safe_link(url)
    assert "href" in render_markdown(f"[x]({url})")


def test_markdown_raw_html_and_images_are_off():
    html = render_markdown('<b onclick="x()">bold</b>\n\n![p](https://evil.example/p.png)')
    assert "<b" not in html
    assert "&lt;b onclick" in html
    assert "<img" not in html
