"""Reading the sample site in Debian Chromium at phone, tablet and desktop widths, light and
dark (issue 17): search opens where it can be read, the table of contents, copy buttons on
code blocks, request samples, and axe-core at a phone's width."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from .browser import chromium, serious_axe_violations, tab_at
from .helpers import base_document
from .sites import build
from .test_code_and_toc import nested_schema

WIDTHS = [360, 390, 768, 1280]
THEMES = ["light", "dark"]
WIDE_PRIMITIVE = 1600
"""On a primitive page the request samples take that column up to this width; the
contents fold above the page until then (tests/test_browser_primitive.py checks both)."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as instance:
        yield instance


@pytest.fixture(params=[(w, t) for w in WIDTHS for t in THEMES], ids=lambda p: f"{p[0]}px-{p[1]}")
def tab(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    width, theme = request.param
    with tab_at(browser, width, theme) as page:
        yield page


def width_of(page: Page) -> int:
    size = page.viewport_size
    assert size is not None
    return int(size["width"])


def test_search_results_are_on_screen(tab: Page, sample_site: Path) -> None:
    tab.goto((sample_site / "tools" / "create_ticket.html").as_uri())
    opener = tab.locator("[data-search-open]")
    if width_of(tab) <= 860:
        # Narrow: a button in the header opens search over the whole screen.
        assert tab.locator("[data-search]").is_hidden()
        opener.click()
        assert opener.get_attribute("aria-expanded") == "true"
    else:
        assert opener.is_hidden()
        tab.click("[data-search]")
    tab.keyboard.type("ticket")
    results = tab.locator("[data-search-results]")
    results.locator("a").first.wait_for()
    box = results.bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= width_of(tab)
    if width_of(tab) <= 860:
        # The layer covers the page, and Escape gives the page back.
        layer = tab.locator(".search").bounding_box()
        assert layer is not None
        assert (layer["x"], layer["y"], layer["width"]) == (0, 0, width_of(tab))
        tab.keyboard.press("Escape")
        assert tab.locator(".search").is_hidden()
        assert opener.get_attribute("aria-expanded") == "false"


def test_the_table_of_contents_stands_beside_the_page_or_folds_into_it(tab: Page, sample_site: Path) -> None:
    tab.goto((sample_site / "tools" / "escalate_ticket.html").as_uri())
    toc = tab.locator("nav[data-toc]")
    fold = toc.locator("details")
    link = toc.locator('a[href="#elicitation-choose_team"]')
    body = tab.locator(".page-body").bounding_box()
    assert body is not None
    if width_of(tab) >= WIDE_PRIMITIVE:
        assert fold.evaluate("d => d.open")
        box = toc.bounding_box()
        assert box is not None
        assert box["x"] >= body["x"] + body["width"]  # to the right of the page
        assert box["x"] + box["width"] <= width_of(tab)
    else:
        assert not fold.evaluate("d => d.open")  # folded: the page starts right away
        box = toc.bounding_box()
        assert box is not None
        assert box["y"] < body["y"]  # under the page header, above the sections
        toc.locator("summary").click()
    link.click()
    assert tab.url.endswith("#elicitation-choose_team")
    card = tab.locator("#elicitation-choose_team")
    assert card.evaluate("e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; }")
    if width_of(tab) >= WIDE_PRIMITIVE:
        # The sticky column is still on screen, and marks the card being read.
        assert link.is_visible()
        expect(toc.locator("a[aria-current]")).to_have_attribute("href", "#elicitation-choose_team")


def test_every_code_block_has_a_copy_button_that_copies_it(tab: Page, sample_site: Path) -> None:
    tab.context.grant_permissions(["clipboard-read", "clipboard-write"])
    tab.goto((sample_site / "tools" / "create_ticket.html").as_uri())
    blocks = tab.locator("main pre")
    assert blocks.count() > 5
    assert tab.locator("main .code-block > button[data-copy]").count() == blocks.count()
    # The request of the variant shown (the newest's tab), its JSON-RPC tab.
    request = tab.locator("section.variant:visible [data-tab-key=jsonrpc]")
    request.scroll_into_view_if_needed()
    button = request.locator("button[data-copy]")
    box, block = button.bounding_box(), request.locator("pre").bounding_box()
    assert box is not None
    assert block is not None
    assert block["x"] <= box["x"]  # in the block's corner
    assert box["x"] + box["width"] <= block["x"] + block["width"]
    button.click()
    expect(button).to_have_text("Copied")
    copied = json.loads(tab.evaluate("navigator.clipboard.readText()"))
    assert copied["method"] == "tools/call"
    assert copied["params"]["name"] == "create_ticket"


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("path", ["index.html", "tools/create_ticket.html", "tags/tickets.html"])
def test_axe_is_clean_on_a_phone(browser: Browser, sample_site: Path, path: str, theme: str) -> None:
    # axe is injected as an inline script, which the pages' Content-Security-Policy refuses.
    context = browser.new_context(viewport={"width": 360, "height": 800}, color_scheme=theme, bypass_csp=True)
    page = context.new_page()
    page.goto((sample_site / path).as_uri())
    page.click("[data-search-open]")
    page.keyboard.type("ticket")
    page.locator("[data-search-results] a").first.wait_for()
    violations = serious_axe_violations(page)
    context.close()
    assert violations == []


def test_a_link_to_a_folded_schema_row_unfolds_it(tab: Page, tmp_path: Path) -> None:
    document = base_document()
    document["tools"][0]["inputSchema"] = nested_schema()
    (tmp_path / "d.json").write_text(json.dumps(document))
    code, out, err = build(tmp_path / "d.json", tmp_path / "site")
    assert code == 0, out + err
    url = (tmp_path / "site" / "tools" / "assign_issue.html").as_uri()
    tab.goto(url)
    row = tab.locator("[id='input-customer.home.address.street']")
    assert row.is_hidden()  # folded (third level)
    tab.goto(url + "#input-customer.home.address.street")
    assert row.is_visible()
    assert row.evaluate("e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; }")


def results_of(page: Page, query: str) -> list[str]:
    """The titles of the results for ``query``, best first."""
    opener = page.locator("[data-search-open]")
    if opener.is_visible() and opener.get_attribute("aria-expanded") != "true":
        opener.click()
    page.fill("[data-search]", query)
    page.locator("[data-search-results] a, [data-search-results] .search-empty").first.wait_for()
    return page.locator("[data-search-results] a .search-title").all_inner_texts()


def test_search_forgives_typos_completes_prefixes_and_puts_a_name_first(tab: Page, sample_site: Path) -> None:
    tab.goto((sample_site / "index.html").as_uri())
    assert results_of(tab, "escalte tiket")[0] == "Escalate ticket"  # two typos
    completed = results_of(tab, "escal")  # a prefix: names that start so come first
    assert completed[0].lower().startswith("escal")
    assert "Escalate ticket" in completed[:3]
    # A parameter named exactly so outranks the pages that only mention the word.
    assert results_of(tab, "customer")[0] == "customer"


def test_search_finds_form_fields_and_scopes_and_marks_the_match(tab: Page, sample_site: Path) -> None:
    tab.goto((sample_site / "index.html").as_uri())
    assert "team" in results_of(tab, "team")
    kinds = tab.locator("[data-search-results] a .search-kind").all_inner_texts()
    assert any(k.startswith("Form field of elicitation choose_team") for k in kinds)
    assert "tickets.write" in results_of(tab, "tickets.write")
    kinds = tab.locator("[data-search-results] .search-kind").all_inner_texts()
    assert any(k.startswith("OAuth scope of") for k in kinds)
    # Matches are marked in the results, and on the page the result leads to.
    titles = results_of(tab, "Which team should take over")
    assert titles[0] == "choose_team"
    first = tab.locator("[data-search-results] a").first
    assert first.locator("mark").count() >= 3
    first.click()
    tab.wait_for_url("**/tools/escalate_ticket.html#elicitation-choose_team")
    marks = tab.locator("#elicitation-choose_team mark")
    marks.first.wait_for()
    assert {m.lower() for m in marks.all_inner_texts()} >= {"which", "team", "should", "take", "over"}
    assert tab.locator("main mark").count() == marks.count()  # only inside the card


def test_pages_fit_the_screen_and_the_form_preview_never_submits(tab: Page, sample_site: Path) -> None:
    # Identifiers break between words (sidebar, phone tables) instead of widening the page.
    for path in ("index.html", "tools/search_tickets.html", "prompts/triage.html", "tools/escalate_ticket.html"):
        tab.goto((sample_site / path).as_uri())
        assert tab.evaluate("document.documentElement.scrollWidth") <= width_of(tab), path
    url = tab.url
    form = tab.locator("#elicitation-choose_team form[data-form-preview]")
    expect(form.locator(".form-preview-caption")).to_have_text("Preview of the form the client shows")
    field = form.locator("input[name=reason]")
    field.fill("x")
    field.press("Enter")
    assert tab.url == url  # nothing was sent, nowhere was left
    assert field.input_value() == "x"


CLIPBOARD = """window.copied = [];
const writeText = (text) => { window.copied.push(text); return Promise.resolve(); };
Object.defineProperty(navigator, "clipboard", {value: {writeText}});"""
"""Copy buttons write here (headless Chromium grants no clipboard to file: pages)."""


@pytest.mark.parametrize("width", [390, 1280])
def test_copy_gives_what_a_hostile_command_shows(browser: Browser, tmp_path: Path, width: int) -> None:
    # Issue 30, item 20: hidden characters in command, args and env are shown as escapes,
    # so the text a reader sees is the text Copy gives.
    from .test_hidden_characters import HIDDEN, hostile_description

    code, stdout, stderr = build(hostile_description(tmp_path / "hidden.mcpdesc.yaml"), tmp_path / "site")
    assert code == 0, stdout + stderr
    with tab_at(browser, width, "light", bypass_csp=True) as page:
        page.add_init_script(CLIPBOARD)
        page.goto((tmp_path / "site" / "index.html").as_uri())
        card = page.locator("article.transport").first
        expect(card.locator("[data-hidden-characters]")).to_be_visible()
        sources = [card.locator("pre.command code"), card.locator("details.client-config pre code")]
        shown = [source.inner_text() for source in sources]
        card.locator("pre.command + button.copy-button, pre.command ~ button.copy-button").first.click()
        card.locator("details.client-config button.copy-button").click()
        copied = page.evaluate("window.copied")
        assert copied == shown
        assert "\\u202e" in copied[0]
        assert not any(HIDDEN.search(text) for text in copied)
