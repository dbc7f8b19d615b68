"""Take the README screenshots of the sample site with headless Chromium (run by hand).

.venv/bin/pip install playwright && .venv/bin/mcpdesc-docs build sample-site
.venv/bin/python scripts/screenshots.py [SITE_DIR] [OUT_DIR]
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# (file name, page, element to capture or None for the viewport)
SHOTS = [
    ("overview", "index.html", None),
    ("tool-page", "tools/create_ticket.html", None),
    ("tool-elicitations", "tools/create_ticket.html", "#variant-2-elicitations"),
    ("tool-choose-team", "tools/escalate_ticket.html", "#elicitation-choose_team"),
    ("tool-request", "tools/create_ticket.html", "#variant-2-request"),
    ("tool-schema-folded", "tools/search_tickets.html", "#output"),
    ("search", "index.html", None),
]
FOLD = "document.querySelectorAll('#output details.nested-rows').forEach(d => { d.open = false; })"
"""A folded schema: the sample's nesting is shallow enough to start open."""
VIEWPORTS = {"desktop": (1280, 900), "mobile": (390, 844)}
KEEP = {
    "overview-desktop-light",
    "overview-desktop-dark",
    "overview-mobile-light",
    "tool-page-desktop-light",
    "tool-page-mobile-dark",
    "tool-elicitations-desktop-light",
    "tool-elicitations-mobile-dark",
    "tool-choose-team-desktop-dark",
    "tool-request-desktop-light",
    "tool-schema-folded-desktop-dark",
    "search-mobile-light",
}
"""The ones committed under sample-site/screenshots and shown in the README."""


def main() -> None:
    site = Path(sys.argv[1] if len(sys.argv) > 1 else "sample-site/site").resolve()
    out = Path(sys.argv[2] if len(sys.argv) > 2 else "sample-site/screenshots")
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for viewport, (width, height) in VIEWPORTS.items():
            for scheme in ("light", "dark"):
                context = browser.new_context(
                    viewport={"width": width, "height": height}, color_scheme=scheme, device_scale_factor=1
                )
                page = context.new_page()
                for name, path, selector in SHOTS:
                    page.goto((site / path).as_uri())
                    page.wait_for_load_state("load")
                    stem = f"{name}-{viewport}-{scheme}"
                    if stem not in KEEP:
                        continue
                    target = out / f"{stem}.png"
                    if name == "search":
                        # Search on a phone: the full-screen layer.
                        page.click("[data-search-open]")
                        page.keyboard.type("escalte tiket")
                        page.wait_for_selector("[data-search-results] a")
                        page.screenshot(path=str(target))
                        continue
                    if name == "tool-schema-folded":
                        page.evaluate(FOLD)
                    if selector is None:
                        if name == "overview" and viewport == "desktop" and scheme == "light":
                            # Show search at work on one of the shots.
                            page.fill("[data-search]", "ticket")
                            page.wait_for_selector("[data-search-results] a")
                        page.screenshot(path=str(target))
                    else:
                        # A sticky header would be painted over an element scrolled under it.
                        # Set through the CSSOM: the pages' CSP refuses an inline style tag.
                        page.evaluate("document.querySelector('.site-header').style.position = 'static'")
                        page.locator(selector).screenshot(path=str(target))
                context.close()
        browser.close()


if __name__ == "__main__":
    main()
