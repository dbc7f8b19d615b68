"""The portal's search page in Debian Chromium: the index loads on first use, a tool of
each server is found, and the filters narrow the results (by server loading one chunk)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from .browser import chromium, serious_axe_violations
from .listening import serving_directory


@pytest.fixture(scope="module")
def site(example_portal_site: Path) -> Path:
    return example_portal_site


@pytest.fixture(scope="module")
def http_root(site: Path) -> Iterator[str]:
    with serving_directory(site) as root:
        yield root


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as instance:
        yield instance


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    problems: list[str] = []
    tab.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    tab.on("pageerror", lambda error: problems.append(str(error)))
    requested: list[str] = []
    tab.on("request", lambda request: requested.append(request.url))
    tab.requested = requested  # type: ignore[attr-defined]
    yield tab
    context.close()
    assert problems == []


def test_the_index_is_loaded_on_first_use_and_finds_each_servers_tools(page: Page, http_root: str, site: Path) -> None:
    page.goto(http_root + "index.html")
    page.goto(http_root + "search.html")
    requested: list[str] = page.requested  # type: ignore[attr-defined]
    assert not [url for url in requested if "/search/chunk-" in url]
    query = page.locator("[data-portal-query]")
    for entry_file in sorted(site.glob("*/portal-entry.json")):
        entry = json.loads(entry_file.read_text(encoding="utf-8"))
        tools = [p for p in entry["pages"] if p["kind"] == "tool"]
        if not tools:
            continue
        query.fill(tools[0]["name"])
        link = page.locator(f"[data-portal-results] a[href$='{entry['slug']}/{tools[0]['path']}']")
        link.first.wait_for()
    assert [url for url in requested if "/search/chunk-" in url]


def test_a_servers_own_search_loads_the_portals_assets(page: Page, http_root: str) -> None:
    page.goto(http_root + "filesystem/tools/read_file.html")
    page.fill("[data-search]", "directory_tree")
    page.locator("[data-search-results] a[href$='tools/directory_tree.html']").first.wait_for()
    requested: list[str] = page.requested  # type: ignore[attr-defined]
    assert http_root + "assets/vendor/minisearch/minisearch.js" in requested


def test_filters_narrow_by_server_kind_and_tag(page: Page, http_root: str) -> None:
    page.goto(http_root + "search.html")
    page.select_option("[data-portal-filter=server]", "filesystem")
    page.locator("[data-portal-results] li").first.wait_for()
    hrefs = page.locator("[data-portal-results] a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    assert hrefs
    assert all(href.startswith("filesystem/") for href in hrefs)
    page.select_option("[data-portal-filter=kind]", "server")
    page.wait_for_function("document.querySelectorAll('[data-portal-results] li').length === 1")
    page.select_option("[data-portal-filter=server]", "")
    page.select_option("[data-portal-filter=kind]", "tool")
    page.select_option("[data-portal-filter=tag]", "analysis")
    page.locator("[data-portal-results] li").first.wait_for()
    servers = page.locator("[data-portal-results] li .muted").all_inner_texts()
    assert len(set(servers)) >= 2
    assert all(text.strip().startswith("Tool") for text in servers)


def test_without_javascript_the_page_points_to_the_catalogue(browser: Browser, http_root: str) -> None:
    context = browser.new_context(java_script_enabled=False)
    tab = context.new_page()
    tab.goto(http_root + "search.html")
    assert tab.locator("[data-no-js]").is_visible()
    assert not tab.locator("[data-portal-search]").is_visible()
    tab.goto(http_root + "index.html")
    assert tab.locator("li[data-server]").count() == 11
    context.close()


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("path", ["index.html", "search.html", "tags/analysis.html", "capabilities/tools.html"])
def test_axe_finds_no_serious_or_critical_violation(browser: Browser, http_root: str, path: str, theme: str) -> None:
    # axe is injected as an inline script, which the pages' Content-Security-Policy rightly refuses.
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=theme, bypass_csp=True)
    tab = context.new_page()
    tab.goto(http_root + path)
    violations = serious_axe_violations(tab)
    context.close()
    assert violations == []


@pytest.mark.parametrize("width", [390, 1280])
def test_the_catalogue_uses_the_page_width_without_overflowing(browser: Browser, http_root: str, width: int) -> None:
    # The home has no sidebar: its cards once sat in the sidebar's 16rem track at 1280 px,
    # breaking "2 tools" into one letter a line.
    context = browser.new_context(viewport={"width": width, "height": 900})
    tab = context.new_page()
    tab.goto(http_root + "index.html")
    cards = tab.eval_on_selector_all("[data-server]", "cards => cards.map(c => c.getBoundingClientRect().width)")
    main = tab.eval_on_selector("main", "m => m.getBoundingClientRect().width")
    overflow = tab.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    context.close()
    assert cards
    assert min(cards) >= (330 if width == 390 else 320)
    assert main >= width * 0.8
    assert overflow == 0
    if width == 1280:  # cards side by side, not one long column
        assert main / min(cards) >= 2.5
