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
SHOTS = [
    ("overview", "index.html", None),
    ("tool-create-ticket", "tools/create_ticket.html", "#elicitations"),
    ("tool-escalate-ticket", "tools/escalate_ticket.html", "#elicitation-choose_team"),
]
VIEWPORTS = {"desktop": (1280, 900), "mobile": (390, 844)}


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
                for name, path, anchor in SHOTS:
                    page.goto((site / path).as_uri() + (anchor or ""))
                    page.wait_for_load_state("load")
                    page.screenshot(path=str(out / f"{name}-{viewport}-{scheme}.png"))
                context.close()
        browser.close()


if __name__ == "__main__":
    main()
