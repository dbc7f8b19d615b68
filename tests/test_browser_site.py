"""The built sample site in Debian Chromium, over loopback HTTP and from file://:
navigation, search, the protocol-version view, the theme toggle, console errors, axe-core."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from .browser import chromium, serious_axe_violations
from .listening import serving_directory


@pytest.fixture(scope="module")
def http_root(sample_site: Path) -> Iterator[str]:
    with serving_directory(sample_site) as root:
        yield root


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as instance:
        yield instance


@pytest.fixture(params=["http", "file"])
def root(request: pytest.FixtureRequest, sample_site: Path, http_root: str) -> str:
    return http_root if request.param == "http" else sample_site.as_uri() + "/"


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="light")
    tab = context.new_page()
    problems: list[str] = []
    tab.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    tab.on("pageerror", lambda error: problems.append(str(error)))
    # A request cut short by the test navigating on is not a broken page.
    tab.on(
        "requestfailed",
        lambda request: None if request.failure == "net::ERR_ABORTED" else problems.append(f"failed: {request.url}"),
    )
    yield tab
    context.close()
    assert problems == []  # no console error, script error or failed request on any page


def test_navigation_reaches_every_primitive_page(page: Page, root: str, sample_site: Path) -> None:
    expected = {
        p.relative_to(sample_site).as_posix()
        for d in ("tools", "resources", "resource-templates", "prompts")
        for p in (sample_site / d).glob("*.html")
    }
    page.goto(root + "index.html")
    hrefs = page.eval_on_selector_all("#site-nav a", "links => links.map(a => a.getAttribute('href'))")
    reached = set()
    for href in hrefs:
        page.goto(root + "index.html")
        page.click(f'#site-nav a[href="{href}"]')
        page.wait_for_load_state("load")
        main = page.locator("main")
        if main.get_attribute("data-primitive"):
            path = page.url.removeprefix(root)
            reached.add(path)
            assert page.locator("h1").count() == 1
            assert page.locator('#site-nav a[aria-current="page"]').get_attribute("href").endswith(path.split("/")[-1])
    assert reached == expected
    # previous/next links walk the same order
    page.goto(root + "tools/search_tickets.html")
    page.click("a[rel=next]")
    assert page.url.endswith("tools/create_ticket.html")


def test_search_for_an_elicitation_message_lands_on_its_card(page: Page, root: str) -> None:
    page.goto(root + "resources/sla_policy.html")
    page.keyboard.press("/")
    page.keyboard.type("Which team should take over")
    first = page.locator("[data-search-results] a").first
    first.wait_for()
    assert "choose_team" in first.inner_text()
    page.keyboard.press("Enter")
    page.wait_for_url("**/tools/escalate_ticket.html#elicitation-choose_team")
    card = page.locator("#elicitation-choose_team")
    assert card.is_visible()
    assert card.evaluate("e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; }")


def test_protocol_version_view_hides_and_shows_a_url_card_and_is_remembered(page: Page, root: str) -> None:
    page.goto(root + "tools/escalate_ticket.html")
    card = page.locator("#elicitation-sign_in_pager")
    assert card.is_visible()
    page.select_option("[data-protocol-version]", "2025-06-18")
    assert card.is_hidden()
    assert page.locator("#elicitation-confirm_escalation").is_visible()
    page.select_option("[data-protocol-version]", "2025-11-25")
    assert card.is_visible()
    page.select_option("[data-protocol-version]", "2025-06-18")
    # remembered on the next page: 2026-only release notes are gone from the sidebar
    page.goto(root + "index.html")
    assert page.locator("[data-protocol-version]").input_value() == "2025-06-18"
    assert page.locator('#site-nav a[href="resources/release_notes.html"]').is_hidden()
    page.goto(root + "resources/release_notes.html")
    assert "Not offered under MCP 2025-06-18" in page.locator("[data-version-note]").inner_text()
    page.click("[data-version-note] button")
    assert page.locator("main .variant").first.is_visible()


def test_search_leaves_out_what_the_chosen_protocol_version_does_not_offer(page: Page, root: str) -> None:
    page.goto(root + "index.html")
    page.fill("[data-search]", "sign_in_pager")
    results = page.locator("[data-search-results]")
    results.locator("a").first.wait_for()
    assert "sign_in_pager" in results.inner_text()
    page.select_option("[data-protocol-version]", "2025-06-18")  # the URL card needs 2025-11-25
    page.fill("[data-search]", "sign_in_pager")
    results.locator(".search-empty").wait_for()
    assert results.locator("a").count() == 0
    assert results.inner_text() == "Nothing matches “sign_in_pager” under MCP 2025-06-18."
    page.select_option("[data-protocol-version]", "2025-11-25")  # results follow the picker
    results.locator("a").first.wait_for()
    assert "sign_in_pager" in results.inner_text()


def test_dark_theme_toggle_persists_across_pages(page: Page, root: str) -> None:
    page.goto(root + "index.html")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)"
    page.click("[data-theme-toggle]")
    assert page.locator("html").get_attribute("data-theme") == "dark"
    page.goto(root + "tools/create_ticket.html")
    assert page.locator("html").get_attribute("data-theme") == "dark"
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != "rgb(255, 255, 255)"


def test_narrow_screens_get_a_menu(browser: Browser, root: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    tab = context.new_page()
    tab.goto(root + "tools/create_ticket.html")
    assert tab.locator("#site-nav").is_hidden()
    tab.click("[data-nav-toggle]")
    assert tab.locator("#site-nav").is_visible()
    assert tab.locator("[data-nav-toggle]").get_attribute("aria-expanded") == "true"
    context.close()


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("path", ["index.html", "tools/escalate_ticket.html", "tools/create_ticket.html"])
def test_axe_finds_no_serious_or_critical_violation(browser: Browser, http_root: str, path: str, theme: str) -> None:
    # axe is injected as an inline script, which the pages' Content-Security-Policy rightly refuses.
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=theme, bypass_csp=True)
    tab = context.new_page()
    tab.goto(http_root + path)
    violations = serious_axe_violations(tab)
    context.close()
    assert violations == []


@pytest.mark.parametrize("fragment", ["#%", "#%E0%A4%A", "#tools%"])
def test_a_malformed_fragment_is_ignored_and_search_still_works(page: Page, root: str, fragment: str) -> None:
    # decodeURIComponent threw URIError on "#%" before search was wired: it then found nothing.
    page.goto(root + "tools/search_tickets.html" + fragment)
    page.fill("[data-search]", "Which team should take over")
    first = page.locator("[data-search-results] a").first
    first.wait_for()
    assert "choose_team" in first.inner_text()
    page.evaluate("location.hash = '%25zz'")  # a malformed fragment later (hashchange) too
    page.evaluate("location.hash = 'elicitation%'")
    assert page.locator("[data-search]").is_visible()
