"""The first look, in Debian Chromium at phone, tablet and desktop widths, light and dark:
the index in the first viewport, install tabs without scripts, coloured behaviour marks,
a header that stays, no sideways scrolling, search and the 404 page.

The sites: the sample, the upstream examples and three described real servers, each
built with a ``site_url`` and served under its own prefix the way GitHub Pages serves a
project (a missing path gets the site's 404.html)."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from playwright.sync_api import Browser, Page

from .browser import chromium, serious_axe_violations, tab_at
from .helpers import base_document
from .listening import serving_in_thread
from .shared_data import ROOT
from .sites import EXAMPLES, SAMPLE, build

REAL = {
    name: ROOT / "tests" / "fixtures" / "real" / f"{name}.mcpdesc.yaml"
    for name in ("everything", "filesystem", "memory")
}
SITES = {"sample": SAMPLE, **REAL, **{f"example-{path.stem}": path for path in EXAMPLES}}
SHOWN = ["sample", "everything", "filesystem", "memory"]
"""Sites whose overview each width and theme is checked on (every page of all of them is
checked for sideways scrolling)."""
WIDTHS = [360, 390, 768, 1280]
THEMES = ["light", "dark"]
FOLD = 800
"""The viewport's height in tests/browser.py."""


def long_strings(directory: Path) -> Path:
    """Names, titles, URLs, defaults and enum values with nowhere to break a line."""
    word = "x" * 120
    url = "https://mcp.example.com/" + "a" * 200
    tool = {
        "name": "t_" + word,
        "title": "T" + word,
        "description": "D" + word,
        "inputSchema": {
            "type": "object",
            "properties": {
                "p" + word: {"type": "string", "default": url, "enum": [url, "v" + word]},
                "q": {"type": "string", "default": "d" + word, "description": f"See {url}"},
            },
        },
    }
    document = base_document(
        info={"name": "n" + word, "title": "S" + word, "version": "1." + "9" * 80, "websiteUrl": url},
        transports=[
            {"type": "streamable-http", "url": url},
            {"type": "stdio", "command": "c" + word, "args": ["--" + word], "env": {"E" + word: url}},
        ],
        tags=[{"name": "g" + word}],
        tools=[{**tool, "tags": ["g" + word]}, {**tool, "name": "u_" + word}],
    )
    path = directory / "long.mcpdesc.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("first-look")
    for name, description in {**SITES, "long": long_strings(root)}.items():
        project = root / "projects" / name
        project.mkdir(parents=True)
        (project / "mcpdesc-docs.yml").write_text(
            f"description: {description}\nsite_url: https://docs.example.com/{name}/\n", encoding="utf-8"
        )
        code, out, err = build(project, root / "sites" / name)
        assert code == 0, out + err
    return root / "sites"


@pytest.fixture(scope="module")
def origin(sites: Path) -> Iterator[str]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            parts = urlsplit(self.path).path.strip("/").split("/")
            site = sites / parts[0]
            file = site.joinpath(*parts[1:]) if ".." not in parts else site / "missing"
            file = file / "index.html" if file.is_dir() else file
            found = file.is_file()
            body = (file if found else site / "404.html").read_bytes()
            self.send_response(HTTPStatus.OK if found else HTTPStatus.NOT_FOUND)
            types = {".css": "text/css", ".js": "text/javascript", ".svg": "image/svg+xml", ".json": "application/json"}
            self.send_header("Content-Type", types.get(file.suffix, "text/html") if found else "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    with serving_in_thread(Handler) as root:
        yield root


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as instance:
        yield instance


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.evaluate(
        "(s) => { const e = document.querySelector(s); return e && e.getBoundingClientRect().toJSON(); }", selector
    )
    assert found is not None, selector
    return found


def scroll_width(page: Page) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", SHOWN)
def test_the_index_is_in_the_first_viewport(browser: Browser, origin: str, name: str, width: int, theme: str) -> None:
    with tab_at(browser, width, theme) as page:
        page.goto(f"{origin}{name}/index.html")
        index = box(page, "[data-primitive-index]")
        first = box(page, "[data-primitive-index] li")
        assert index["top"] < FOLD
        assert first["bottom"] <= FOLD, first
        if width >= 1200:  # the install panel beside it
            install = box(page, "[data-install]")
            assert install["top"] < FOLD
            assert install["left"] >= index["right"]
        assert scroll_width(page) <= width


@pytest.mark.slow
@pytest.mark.parametrize("width", WIDTHS)
def test_no_page_is_wider_than_the_screen(browser: Browser, origin: str, sites: Path, width: int) -> None:
    """At 360 px every page of every site; at the other widths those of the site whose
    names, titles, URLs, defaults and enum values have nowhere to break."""
    wide = []
    with tab_at(browser, width, "light") as page:
        for site in sorted(sites.iterdir()) if width == 360 else [sites / "long"]:
            for html in sorted(site.rglob("*.html")):
                page.goto(f"{origin}{site.name}/{html.relative_to(site).as_posix()}")
                if scroll_width(page) > width:
                    wide.append((site.name, html.name, scroll_width(page)))
    assert wide == []


def decoded(href: str) -> object:
    if href.startswith("cursor:"):
        return json.loads(base64.b64decode(parse_qs(urlsplit(href).query)["config"][0]))
    return json.loads(unquote(href.split("?", 1)[1]))


@pytest.mark.parametrize("width", [390, 1280])
def test_install_tabs_work_without_scripts(browser: Browser, origin: str, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": FOLD}, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(f"{origin}sample/index.html")
        panel = page.locator("[data-install] .install-transport").nth(1)  # stdio
        desktop, vscode, cursor = (
            panel.locator(f'.install-tab-panel[data-client="{c}"]') for c in ("claude-desktop", "vscode", "cursor")
        )
        assert desktop.is_visible()
        assert not vscode.is_visible()
        panel.locator("label.install-tab", has_text="VS Code").click()
        assert vscode.is_visible()
        assert not desktop.is_visible()
        shown = json.loads(vscode.locator("pre").inner_text())
        link = decoded(vscode.locator("a[data-install-link]").get_attribute("href") or "")
        assert isinstance(link, dict)
        assert link.pop("name") == "acme-helpdesk"
        assert link == shown["servers"]["acme-helpdesk"]
        panel.locator("label.install-tab", has_text="Cursor").click()
        assert cursor.is_visible()
        entry = json.loads(cursor.locator("pre").inner_text())["mcpServers"]["acme-helpdesk"]
        assert decoded(cursor.locator("a[data-install-link]").get_attribute("href") or "") == entry
        panel.locator("label.install-tab", has_text="Claude Code").click()
        assert (
            panel.locator('.install-tab-panel[data-client="claude-code"] pre').inner_text().startswith("claude mcp add")
        )
    finally:
        context.close()


def test_install_tabs_take_the_keyboard(browser: Browser, origin: str) -> None:
    with tab_at(browser, 1280, "light") as page:
        page.goto(f"{origin}sample/index.html")
        first = page.locator("[data-install] .install-tab-radio").first
        first.focus()
        page.keyboard.press("ArrowRight")
        panel = page.locator("[data-install] .install-transport").first
        assert panel.locator('.install-tab-panel[data-client="claude-code"]').is_visible()


RED = {"light": "rgb(163, 32, 15)", "dark": "rgb(255, 138, 128)"}
"""The theme's --danger."""
COLOURS = "(e) => { const s = getComputedStyle(e); return [s.color, s.borderTopStyle]; }"


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("width", [390, 1280])
def test_behaviour_marks_are_coloured_and_implied_ones_dashed(
    browser: Browser, origin: str, width: int, theme: str
) -> None:
    with tab_at(browser, width, theme) as page:
        for path in ("sample/index.html", "sample/tags/tickets.html"):
            page.goto(origin + path)
            row = page.locator("main .catalogue li", has=page.locator("code", has_text="delete_ticket")).first
            destructive = row.locator('[data-risk="destructive"]')
            assert destructive.is_visible()
            colour, border = destructive.evaluate(COLOURS)
            assert colour == RED[theme]
            assert border != "dashed"  # declared
            read_only = page.locator("main .catalogue li", has=page.locator("code", has_text="search_tickets")).first
            assert read_only.locator('[data-risk="read-only"]').evaluate(COLOURS)[1] != "dashed"
            implied = page.locator("main .catalogue [data-risk][data-implied]").first
            assert implied.evaluate(COLOURS)[1] == "dashed"
            assert row.locator(".badge-deprecated").is_visible()


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("width", [360, 390, 768])
def test_the_header_stays_on_phones(browser: Browser, origin: str, width: int, theme: str) -> None:
    with tab_at(browser, width, theme) as page:
        page.goto(f"{origin}everything/index.html")
        header = box(page, ".site-header")
        assert header["height"] <= 64
        back = page.locator("[data-back-to-top]")
        assert not back.is_visible()
        page.mouse.wheel(0, 6000)
        page.wait_for_function("window.scrollY > 2000")
        assert box(page, ".site-header")["top"] == 0
        for control in ("[data-nav-toggle]", ".site-title", "[data-search-open]", "[data-theme-toggle]"):
            assert page.locator(control).is_visible(), control
            assert box(page, control)["bottom"] <= 64
        page.wait_for_function("document.querySelector('[data-back-to-top]').checkVisibility()")
        back.click()
        page.wait_for_function("window.scrollY === 0")
        assert scroll_width(page) <= width


@pytest.mark.parametrize("width", [390, 1280])
def test_search_finds_enum_values_and_shows_names_kinds_and_a_count(browser: Browser, origin: str, width: int) -> None:
    with tab_at(browser, width, "light") as page:
        page.goto(f"{origin}sample/index.html")
        if width < 800:
            page.locator("[data-search-open]").click()
        page.locator("[data-search]").fill("urgent")
        results = page.locator("[data-search-results]")
        results.locator("a").first.wait_for()
        assert "priority" in results.inner_text()
        assert (results.get_attribute("data-count") or "").endswith(("result", "results"))
        assert results.locator(".search-kind").first.is_visible()
        page.locator("[data-search]").fill("ticket_id")  # a URI template variable
        results.locator("a", has_text="ticket_id").first.wait_for()
        page.locator("[data-search]").fill("search tickets")
        results.locator("code.search-name", has_text="search_tickets").first.wait_for()


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("width", [360, 1280])
def test_a_deep_404_is_styled_and_guesses_from_the_address(
    browser: Browser, origin: str, width: int, theme: str
) -> None:
    context = browser.new_context(viewport={"width": width, "height": FOLD}, color_scheme=theme)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    # The page itself answers 404, which Chromium logs as an error; anything else is one.
    page.on(
        "console", lambda m: problems.append(m.text) if m.type == "error" and "status of 404" not in m.text else None
    )
    page.on("requestfailed", lambda request: problems.append(request.url))
    responses: list[tuple[str, int]] = []
    page.on("response", lambda r: responses.append((r.url, r.status)))
    try:
        response = page.goto(f"{origin}sample/tools/old/deeper/escalate_tiket.html")
        assert response is not None
        assert response.status == 404
        assert page.evaluate("getComputedStyle(document.querySelector('.site-header')).position") == "sticky"
        guess = page.locator("[data-did-you-mean] a", has_text="Escalate ticket").first
        guess.wait_for()
        assert page.locator("[data-search]").input_value() == "escalate tiket"
        guess.click()
        page.wait_for_url("**/sample/tools/escalate_ticket.html")
        assert scroll_width(page) <= width
    finally:
        context.close()
    assert problems == []
    assert [url for url, status in responses if status == 404] == [
        f"{origin}sample/tools/old/deeper/escalate_tiket.html"
    ]


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize(
    "path", ["everything/index.html", "sample/tags/tickets.html", "sample/tools/gone/escalate_tiket.html"]
)
def test_axe_finds_nothing_serious_in_the_first_look(
    browser: Browser, origin: str, path: str, width: int, theme: str
) -> None:
    # axe is injected as an inline script, which the pages' Content-Security-Policy rightly refuses.
    context = browser.new_context(viewport={"width": width, "height": FOLD}, color_scheme=theme, bypass_csp=True)
    tab = context.new_page()
    try:
        tab.goto(origin + path)
        if "gone" in path:
            tab.locator("[data-did-you-mean] a").first.wait_for()
        violations = serious_axe_violations(tab)
    finally:
        context.close()
    assert violations == []
