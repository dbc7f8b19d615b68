"""Structural checks of the rendered sample site: parsed HTML, compared with the description."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from bs4 import BeautifulSoup, Tag

from mcpdesc_docs.model.links import is_install_link
from mcpdesc_docs.model.urls import slugify

from .sites import SAMPLE_DIR, html_pages, load_data, parse

FOLDERS = {"tools": "tool", "resources": "resource", "resourceTemplates": "resource-template", "prompts": "prompt"}
INPUT_TYPES = {"email": "email", "uri": "url", "date": "date", "date-time": "datetime-local"}


@pytest.fixture(scope="module")
def description() -> dict:
    return load_data(SAMPLE_DIR / "helpdesk.mcpdesc.yaml")


def declarations(description: dict):
    """(kind, page path, declaration) for every primitive declaration."""
    for collection, kind in FOLDERS.items():
        folder = {"resourceTemplates": "resource-templates"}.get(collection, collection)
        for item in description.get(collection, []):
            yield kind, f"{folder}/{slugify(item['name'])}.html", item


def resolve(description: dict, value: dict) -> dict:
    while isinstance(value, dict) and "$componentRef" in value:
        _, _, namespace, name = value["$componentRef"].split("/")
        value = description["components"][namespace][name]
    return value


def cards_of(page: BeautifulSoup) -> list[Tag]:
    return page.select("[data-elicitation]")


def cards_with_declarations(sample_site: Path, description: dict):
    """(page path, declaration, card): a page's cards follow its declarations, the variants
    that share the page newest first (the order the page shows them in)."""
    variants: dict[str, list[tuple[str, list[dict]]]] = {}
    for _, path, item in declarations(description):
        newest = max(item.get("protocolVersions") or description.get("protocolVersions") or [""])
        variants.setdefault(path, []).append((newest, item.get("elicitations", [])))
    by_page = {
        path: [card for _, cards in sorted(found, key=lambda v: v[0], reverse=True) for card in cards]
        for path, found in variants.items()
    }
    for path, wanted in by_page.items():
        cards = cards_of(parse(sample_site / path))
        assert len(cards) == len(wanted), path
        for declaration, card in zip(wanted, cards, strict=True):
            assert card["data-elicitation"] == declaration["name"]
            yield path, declaration, card


def test_every_primitive_page_carries_its_hooks(sample_site, description):
    for kind, path, item in declarations(description):
        main = parse(sample_site / path).select_one("main")
        assert main is not None, path
        assert main["data-primitive"] == kind
        assert main["data-name"] == item["name"]


def test_every_elicitation_card_has_id_mode_and_fields(sample_site, description):
    seen = 0
    for path, declaration, card in cards_with_declarations(sample_site, description):
        assert card["id"].startswith(f"elicitation-{declaration['name']}")
        assert card["data-mode"] == declaration["mode"]
        for field in ("message", "when", "onDecline", "onCancel"):
            element = card.select_one(f'[data-field="{field}"]')
            if field in declaration:
                assert element is not None, (path, declaration["name"], field)
                assert element.get_text() == declaration[field]
            else:
                assert element is None
        seen += 1
    assert seen == sum(len(item.get("elicitations", [])) for _, _, item in declarations(description))


def test_elicitation_ids_are_unique_per_page(sample_site):
    for page_path in html_pages(sample_site):
        ids = [element["id"] for element in parse(page_path).select("[id]")]
        assert len(ids) == len(set(ids)), (page_path, sorted(i for i in ids if ids.count(i) > 1))


def test_variants_sharing_a_page_get_suffixed_card_ids(sample_site):
    page = parse(sample_site / "tools" / "create_ticket.html")
    ids = [card["id"] for card in page.select('[data-elicitation="ticket_details"]')]
    # Ids follow the document (the second declaration's is suffixed); the page shows the
    # variant for the newest versions, the second declaration, first.
    assert ids == ["elicitation-ticket_details-2", "elicitation-ticket_details"]


def controls_by_name(form: Tag) -> dict[str, list[Tag]]:
    grouped: dict[str, list[Tag]] = {}
    for control in form.select("input[name], select[name], textarea[name]"):
        grouped.setdefault(control["name"], []).append(control)
    return grouped


def check_control(name: str, schema: dict, required: bool, controls: list[Tag]) -> None:
    assert len(controls) == 1, (name, controls)
    control = controls[0]
    assert ("required" in control.attrs) == required, name
    kind = schema.get("type")
    if kind == "boolean":
        assert control.name == "input"
        assert control["type"] == "checkbox"
        assert ("checked" in control.attrs) == (schema.get("default") is True)
    elif kind in ("number", "integer"):
        assert control.name == "input"
        assert control["type"] == "number"
        for keyword, attribute in (("minimum", "min"), ("maximum", "max")):
            if keyword in schema:
                assert float(control[attribute]) == schema[keyword]
            else:
                assert attribute not in control.attrs
        assert control["step"] == ("1" if kind == "integer" else "any")
        if "default" in schema:
            assert float(control["value"]) == schema["default"]
    elif kind == "string" and ("enum" in schema or "oneOf" in schema):
        assert control.name == "select"
        assert "multiple" not in control.attrs
        options = [o for o in control.select("option") if o["value"] != ""]
        if "enum" in schema:
            assert [o["value"] for o in options] == schema["enum"]
            labels = schema.get("enumNames", schema["enum"])
        else:
            assert [o["value"] for o in options] == [choice["const"] for choice in schema["oneOf"]]
            labels = [choice["title"] for choice in schema["oneOf"]]
        assert [o.get_text() for o in options] == labels
        selected = [o["value"] for o in options if "selected" in o.attrs]
        assert selected == ([schema["default"]] if "default" in schema else [])
    elif kind == "string":
        assert control.name == "input"
        assert control["type"] == INPUT_TYPES.get(schema.get("format"), "text")
        for keyword, attribute in (("minLength", "minlength"), ("maxLength", "maxlength")):
            if keyword in schema:
                assert int(control[attribute]) == schema[keyword]
            else:
                assert attribute not in control.attrs
        assert control.get("value") == schema.get("default")
    elif kind == "array":
        assert control.name == "select"
        assert "multiple" in control.attrs
        items = schema["items"]
        values = items["enum"] if "enum" in items else [choice["const"] for choice in items["anyOf"]]
        assert [o["value"] for o in control.select("option")] == values
        chosen = [o["value"] for o in control.select("option") if "selected" in o.attrs]
        assert chosen == [v for v in values if v in schema.get("default", [])]
    else:  # pragma: no cover - the sample uses only the restricted vocabulary
        pytest.fail(f"unexpected schema for {name}: {schema}")


def test_form_previews_have_one_correct_control_per_property(sample_site, description):
    checked = 0
    for _, declaration, card in cards_with_declarations(sample_site, description):
        form = card.select_one("form[data-form-preview]")
        if declaration["mode"] == "url":
            assert form is None
            continue
        assert form is not None
        # The preview never submits anywhere.
        assert "action" not in form.attrs
        assert form["method"] == "dialog"
        assert form.select('[type="submit"], button') == []
        schema = resolve(description, declaration["requestedSchema"])
        grouped = controls_by_name(form)
        assert list(grouped) == list(schema["properties"])
        for name, property_schema in schema["properties"].items():
            check_control(name, property_schema, name in schema.get("required", []), grouped[name])
            checked += 1
    assert checked >= 19  # guards against a loop that checks nothing


def test_form_labels_come_from_titles_and_are_associated(sample_site):
    card = parse(sample_site / "tools" / "escalate_ticket.html").select_one("#elicitation-choose_team")
    form = card.select_one("form")
    reason = form.select_one('[name="reason"]')
    label = form.select_one(f'label[for="{reason["id"]}"]')
    assert label.get_text(" ", strip=True).startswith("Reason")
    assert "One or two sentences for the receiving team." in form.get_text()
    assert "10–500 characters" in form.get_text()
    assert "1–2 choices" in form.get_text()
    assert "from component #/components/schemas/EscalationForm" in card.select_one("details summary").get_text()


def url_mode_urls(description: dict) -> list[str]:
    return [
        e["url"]
        for _, _, item in declarations(description)
        for e in item.get("elicitations", [])
        if e["mode"] == "url" and "url" in e
    ]


def test_url_mode_urls_are_text_and_never_loadable(sample_site, description):
    urls = url_mode_urls(description)
    assert urls
    for page_path in html_pages(sample_site):
        raw = page_path.read_text()
        page = parse(page_path)
        assert page.select('meta[http-equiv="refresh" i]') == []
        for element in page.find_all(True):
            # Stricter than the contract's list (href, src, srcset, action, formaction, ping,
            # poster, data, style): the URL sits in no attribute at all.
            for attribute, value in element.attrs.items():
                text = " ".join(value) if isinstance(value, list) else value
                for url in urls:
                    assert url not in text, (page_path, element.name, attribute)
        for link in page.select("link"):
            assert not any(url in str(link) for url in urls)
        for style in page.select("style"):
            assert "url(" not in style.get_text()
        assert not any(f"url({url}" in raw for url in urls)
    for css in sample_site.rglob("*.css"):
        assert not any(url in css.read_text() for url in urls)
    page = parse(sample_site / "tools" / "create_ticket.html")
    shown = [element.get_text() for element in page.select('[data-field="url"]')]
    assert shown == urls[:2]
    for element in page.select('[data-field="url"]'):
        assert element.find_parent("a") is None
        assert element.find("a") is None


def test_url_mode_without_url_says_it_is_chosen_at_run_time(sample_site):
    card = parse(sample_site / "tools" / "escalate_ticket.html").select_one("#elicitation-sign_in_pager")
    assert card["data-mode"] == "url"
    assert card.select('[data-field="url"]') == []
    assert "chooses the URL at run time" in card.get_text()


def test_no_page_loads_anything_from_another_host(sample_site):
    for page_path in html_pages(sample_site):
        page = parse(page_path)
        for element in page.select("script[src], link[href], img[src], iframe, object, embed, video, audio, source"):
            reference = element.get("src") or element.get("href") or element.get("data")
            if element.name == "link" and element.get("rel") == ["canonical"]:
                continue
            assert reference, (page_path, element)
            assert not urlsplit(reference).scheme, (page_path, reference)
            assert not reference.startswith("//"), (page_path, reference)
        assert page.select("img, iframe, object, embed") == []


def test_internal_links_are_relative_and_resolve(sample_site):
    ids: dict[Path, set[str]] = {}

    def ids_of(page_path: Path) -> set[str]:
        if page_path not in ids:
            ids[page_path] = {element["id"] for element in parse(page_path).select("[id]")}
        return ids[page_path]

    for page_path in html_pages(sample_site):
        for anchor in parse(page_path).select("a[href]"):
            href = anchor["href"]
            parts = urlsplit(href)
            if parts.scheme:
                # Two custom schemes, on the install links the build makes (and marks) only.
                allowed = (
                    "http",
                    "https",
                    "mailto",
                    *(("cursor", "vscode") if anchor.has_attr("data-install-link") else ()),
                )
                assert parts.scheme in allowed, href
                assert anchor.has_attr("data-install-link") == is_install_link(href), href
                continue
            assert not href.startswith("/"), (page_path, href)
            target = (page_path.parent / parts.path).resolve() if parts.path else page_path
            assert target.is_file(), (page_path, href)
            if parts.fragment:
                assert parts.fragment in ids_of(target), (page_path, href)


def test_security_says_where_it_comes_from(sample_site):
    def security_text(path: str, section: str = "#security") -> str:
        return parse(sample_site / path).select_one(section).get_text(" ", strip=True)

    assert "Overrides the server default" in security_text("tools/create_ticket.html", "#variant-1-security")
    assert "explicitly clears" in security_text("tools/service_status.html")
    assert "anonymous access" in security_text("resources/status.html")
    inherited = security_text("resources/sla_policy.html")
    assert "Inherited" in inherited
    assert "Via stdio" in inherited  # the stdio transport clears the requirement for itself
    overview = parse(sample_site / "index.html")
    scheme = overview.select_one("#scheme-helpdeskOAuth").get_text(" ", strip=True)
    for text in ("Authorization code", "https://id.helpdesk.example.com/oauth/authorize", "tickets.write"):
        assert text in scheme


def test_hints_are_words_with_the_raw_value_in_a_tooltip(sample_site):
    hints = parse(sample_site / "tools" / "delete_ticket.html").select(".hint")
    assert [(h.get_text(), h["title"]) for h in hints] == [
        ("May change data", "readOnlyHint: false"),
        ("May delete or overwrite data", "destructiveHint: true"),
        ("Idempotent: repeating a call has no further effect", "idempotentHint: true"),
    ]


def test_parameter_table_shows_nesting_defaults_and_constraints(sample_site):
    page = parse(sample_site / "tools" / "search_tickets.html")
    rows = {row["id"]: row for row in page.select("#parameters tr[id]")}
    assert "input-created.from" in rows  # through $ref into $defs
    assert "depth-1" in rows["input-created.from"]["class"]
    assert "via #/$defs/DateRange" in rows["input-created"].get_text(" ", strip=True)
    assert "Default false" in rows["input-include_archived"].get_text(" ", strip=True)
    assert "Default 0" in rows["input-offset"].get_text(" ", strip=True)
    assert "1–100" in rows["input-limit"].get_text()
    assert "required" in rows["input-query"].get_text()
    assert "required" not in rows["input-limit"].get_text()
    option_rows = [r for r in rows if r.startswith("input-requester.oneOf")]
    assert len(option_rows) == 2


def test_pages_have_no_inline_event_handlers_and_only_our_script(sample_site):
    for page_path in html_pages(sample_site):
        page = parse(page_path)
        scripts = page.select("script")
        assert [s.get("src", "").rsplit("/", 1)[-1] for s in scripts] == ["mcpdesc-early.js", "mcpdesc.js"]
        for element in page.find_all(True):
            assert not [a for a in element.attrs if a.lower().startswith("on")], (page_path, element.name)


def test_pages_read_without_javascript(sample_site):
    # Everything is in the markup: only controls that need a script (search, version picker,
    # theme and menu buttons, the version note, the 404 page's guesses) start hidden, and
    # scripts reveal them.
    for page_path in html_pages(sample_site):
        page = parse(page_path)
        hidden = page.select("[hidden]")
        assert hidden
        for element in hidden:
            assert element.name in ("div", "label", "button", "p"), element
            assert (
                element.has_attr("data-js-only")
                or element.find_parent(attrs={"data-js-only": True})
                or any(
                    element.has_attr(hook)
                    for hook in ("data-nav-toggle", "data-search-results", "data-version-note", "data-did-you-mean")
                )
            ), element
            assert not element.select("main *, [data-elicitation], [data-primitive]")
        assert page.select("noscript") == []
        assert not re.search(r"display:\s*none", page_path.read_text())


def test_search_index_points_at_existing_anchors(sample_site, description):
    import json

    entries = json.loads((sample_site / "search-index.json").read_text())
    script = (sample_site / "search-index.js").read_text()
    assert script.startswith("window.MCPDESC_SEARCH_INDEX = ")
    assert json.loads(script.removeprefix("window.MCPDESC_SEARCH_INDEX = ").rstrip().rstrip(";")) == entries
    ids: dict[str, set[str]] = {}
    for entry in entries:
        path, _, anchor = entry["url"].partition("#")
        assert (sample_site / path).is_file(), entry
        if anchor:
            if path not in ids:
                ids[path] = {e["id"] for e in parse(sample_site / path).select("[id]")}
            assert anchor in ids[path], entry
    texts = " ".join(e["text"] for e in entries)
    for _, _, item in declarations(description):
        for declaration in item.get("elicitations", []):
            assert declaration["message"] in texts
    names = {e["names"] for e in entries}
    assert "include_archived" in names  # parameters are searchable by name
    # create_ticket has one variant per protocol version: their entries say which is which.
    kinds = sorted(e["kind"] for e in entries if e["title"] == "ticket_details")
    assert kinds == [
        "Form elicitation of tool create_ticket for MCP 2025-11-25",
        "Form elicitation of tool create_ticket for MCP 2026-07-28",
    ]
    assert len({(e["title"], e["kind"]) for e in entries}) == len(entries)
    # What only some of the server's protocol versions offer says which.
    by_title = {e["title"]: e for e in entries}
    assert by_title["sign_in_pager"]["versions"] == "2025-11-25 2026-07-28"
    assert "versions" not in by_title["Search tickets"]  # offered under every version


def test_markdown_twins_and_llms_txt(sample_site, description):
    llms = (sample_site / "llms.txt").read_text()
    assert llms.startswith("# Acme Helpdesk\n")
    for _, path, item in declarations(description):
        twin = sample_site / path.replace(".html", ".md")
        assert twin.is_file()
        assert item["name"] in twin.read_text()
        assert f"]({path.replace('.html', '.md')})" in llms
    page = parse(sample_site / "tools" / "search_tickets.html")
    assert page.select_one('link[rel=alternate][type="text/markdown"]')["href"] == "search_tickets.md"


def test_description_downloads(sample_site):
    import json

    original = (SAMPLE_DIR / "helpdesk.mcpdesc.yaml").read_bytes()
    assert (sample_site / "description" / "helpdesk.mcpdesc.yaml").read_bytes() == original
    converted = json.loads((sample_site / "description" / "helpdesk.mcpdesc.json").read_text())
    assert converted == load_data(SAMPLE_DIR / "helpdesk.mcpdesc.yaml")
    links = [a["href"] for a in parse(sample_site / "tools" / "create_ticket.html").select("footer a[download]")]
    assert links == ["../description/helpdesk.mcpdesc.yaml", "../description/helpdesk.mcpdesc.json"]


def test_tag_pages_and_sidebar_groups(sample_site, description):
    for tag in description["tags"]:
        page = parse(sample_site / "tags" / f"{slugify(tag['name'])}.html")
        listed = {a.get_text() for a in page.select("main .catalogue a code")}
        tagged = {item["name"] for _, _, item in declarations(description) if tag["name"] in item.get("tags", [])}
        assert listed == tagged
    nav = parse(sample_site / "index.html").select_one("#site-nav")
    tickets = [a.get_text() for a in nav.select(".nav-kind")[0].select(".nav-group")[0].select("li > a")]
    assert tickets[-1] == "delete_ticket"  # deprecated last within its group
    assert [h.get_text(strip=True) for h in nav.select(".nav-kind")[0].select(".nav-tag")] == ["tickets", "knowledge"]


def test_one_h1_and_landmarks_on_every_page(sample_site):
    for page_path in html_pages(sample_site):
        page = parse(page_path)
        assert len(page.select("h1")) == 1, page_path
        assert page.select("header.site-header")
        assert page.select("main#content")
        assert page.select("footer")
        assert page.select_one("nav#site-nav")
