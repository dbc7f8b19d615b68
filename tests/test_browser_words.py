"""What a reader sees of the words issue 17 set right, in Debian Chromium at phone, tablet
and desktop widths, light and dark: hints that agree, the annotation title as the title,
description headings below the page's sections, security that says what applies, types
and null defaults in words, a form preview that says it is one, one version without a
picker, tag pages headed by the tag and identifiers that fit the screen.

tests/test_reading.py checks the same pages' HTML; this checks what the styles make of it
(what is visible, sizes, overflow), which HTML alone cannot show."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from .browser import chromium, tab_at
from .helpers import base_document
from .sites import build

WIDTHS = [360, 390, 768, 1280]
THEMES = ["light", "dark"]
LONG_NAME = "look_up_customerRecordByExternalIdentifier"


def description() -> dict[str, Any]:
    document = base_document(
        protocolVersions=["2025-11-25"],
        tags=[{"name": "customers", "description": "Who the tickets are for."}],
        securitySchemes={"key": {"type": "apiKey", "name": "X-Key", "in": "header"}},
        security=[{"key": []}],
        transports=[
            {"type": "streamable-http", "url": "https://mcp.example.com/"},
            {"type": "stdio", "command": "example-mcp", "security": []},
        ],
    )
    tool = document["tools"][0]
    tool.update(
        name=LONG_NAME,
        tags=["customers"],
        description="Finds one customer.\n\n## Details\n\nIdentifiers come from the CRM.",
        annotations={"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "title": "Look up"},
        inputSchema={
            "type": "object",
            "properties": {
                "id": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
                "region": {"type": "string", "default": None},
            },
        },
    )
    return document


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("words")
    source = root / "d.json"
    source.write_text(json.dumps(description()))
    code, stdout, stderr = build(source, root / "site")
    assert code == 0, stdout + stderr
    return root / "site"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as instance:
        yield instance


@pytest.fixture(params=[(w, t) for w in WIDTHS for t in THEMES], ids=lambda p: f"{p[0]}px-{p[1]}")
def tab(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    width, theme = request.param
    # bypass_csp: the measurements below are scripts of the test's, not the page's.
    with tab_at(browser, width, theme, bypass_csp=True) as page:
        yield page


def font_size(page: Page, selector: str) -> float:
    return float(page.locator(selector).first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))


def fits_the_screen(page: Page) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"))


def test_a_tool_page_says_what_is_true_where_a_reader_sees_it(tab: Page, site: Path) -> None:
    tab.goto((site / "tools" / f"{LONG_NAME.lower()}.html").as_uri())
    # Hints that agree: a read-only tool has no write hints; annotations.title heads the page.
    assert tab.locator(".variant .hints").inner_text().split("\n") == ["Read-only"]
    assert tab.locator("h1").inner_text() == "Look up"
    # A description's "##" is smaller than the page's own section headings.
    assert tab.locator(".variant .prose h3").is_visible()
    assert font_size(tab, ".variant .prose h3") < font_size(tab, "#parameters h2")
    # Types and null defaults in words.
    assert tab.locator("#parameters tr[id=input-id] .param-type").inner_text() == "string or integer"
    assert "in effect the parameter has no default" in tab.locator("#parameters tr[id=input-region]").inner_text()
    # Security says the default applies rather than "no requirement".
    security = tab.locator("#security").inner_text()
    assert "Via Streamable HTTP: the server's default (above) applies" in security
    assert "no requirement declared" not in security
    # The form preview says what it is, names each property and cannot be sent.
    form = tab.locator("form[data-form-preview]")
    caption = form.locator(".form-preview-caption")
    assert caption.is_visible()
    assert caption.text_content() == "Preview of the form the client shows"  # shown in capitals
    assert form.locator(".field-name").first.is_visible()
    assert form.locator("button, input[type=submit]").count() == 0
    # One protocol version: no picker; the long identifier fits without breaking mid-word.
    assert tab.locator(".version-picker").is_hidden()
    link = tab.locator('#site-nav a[aria-current="page"]')
    if link.is_visible():  # on phones the sidebar is behind the Menu button
        assert link.inner_text().replace("\n", "") == LONG_NAME
        assert link.evaluate("e => e.scrollWidth <= e.clientWidth")
    assert fits_the_screen(tab)


def test_the_tag_page_is_headed_by_the_tag_and_fits_the_screen(tab: Page, site: Path) -> None:
    tab.goto((site / "tags" / "customers.html").as_uri())
    assert tab.locator("h1").inner_text() == "customers"
    assert tab.locator(".version-picker").is_hidden()
    assert fits_the_screen(tab)


def test_the_overview_shows_no_authentication_words_without_schemes(tab: Page, tmp_path: Path) -> None:
    source = tmp_path / "plain.json"
    source.write_text(json.dumps(base_document(protocolVersions=["2025-11-25"])))
    code, stdout, stderr = build(source, tmp_path / "site")
    assert code == 0, stdout + stderr
    tab.goto((tmp_path / "site" / "index.html").as_uri())
    assert "Alternatives are listed" not in tab.locator("main").inner_text()
    assert "migrate" not in tab.locator("main").inner_text()
    assert fits_the_screen(tab)
