"""Headless Debian Chromium for browser tests (Playwright cannot download browsers here)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@contextmanager
def chromium() -> Iterator[Browser]:
    assert CHROMIUM.is_file(), "browser tests need Debian's chromium: apt-get install -y chromium"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def tab_at(browser: Browser, width: int, theme: str, *, bypass_csp: bool = False) -> Iterator[Page]:
    """A page at ``width`` px in the ``theme`` colour scheme that must end without a script
    error or a console error. ``bypass_csp`` only for tests that run scripts of their own
    in the page (the site's CSP refuses them)."""
    context = browser.new_context(viewport={"width": width, "height": 800}, color_scheme=theme, bypass_csp=bypass_csp)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    try:
        yield page
    finally:
        context.close()
    assert problems == []


def serious_axe_violations(page: Page) -> list[str]:
    """axe-core's serious and critical violations on ``page`` (rule id and up to three
    elements each). axe is injected as an inline script, which the pages'
    Content-Security-Policy rightly refuses: open ``page`` with ``bypass_csp``."""
    page.add_script_tag(path=str(AXE))
    found: list[str] = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
            .filter(v => v.impact === "serious" || v.impact === "critical")
            .map(v => v.id + ": " + v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(", "))"""
    )
    return found
