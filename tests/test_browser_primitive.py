"""Primitive pages in Debian Chromium at phone, tablet and desktop widths, light and dark:
variants as tabs, request samples in tabs, two columns from 1200 px, results for people
and schema tables that fit; on the sample site, the upstream examples and described real
servers (tests/fixtures/real)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from .browser import chromium, serious_axe_violations, tab_at
from .sites import EXAMPLES, build
from .test_request_samples import REAL

pytestmark = pytest.mark.slow

WIDTHS = (360, 390, 768, 1280)
THEMES = ("light", "dark")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as instance:
        yield instance


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory, sample_site: Path) -> dict[str, Path]:
    built = {"sample": sample_site}
    for path in [*REAL, *EXAMPLES]:
        out = tmp_path_factory.mktemp("site") / "site"
        code, stdout, stderr = build(path, out)
        assert code == 0, stdout + stderr
        built[site_name(path)] = out
    return built


def site_name(path: Path) -> str:
    return path.name.removesuffix(".yaml").removesuffix(".mcpdesc")


def url(sites: dict[str, Path], site: str, page: str) -> str:
    return (sites[site] / page).as_uri()


def no_page_overflow(page: Page, width: int) -> None:
    wide = page.evaluate(
        """() => [...document.querySelectorAll("body *")]
            .filter(e => !e.closest("pre") && e.getBoundingClientRect().right > innerWidth + 0.5)
            .map(e => e.tagName + "." + e.className + ": " + (e.textContent || "").slice(0, 40))
            .slice(0, 5)"""
    )
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width, (page.url, wide)


VARIANT_PAGE = ("everything", "tools/get-structured-content.html")


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("width", WIDTHS)
def test_variants_are_tabs_newest_first_and_each_parameter_once_in_the_toc(
    browser: Browser, sites: dict[str, Path], width: int, theme: str
) -> None:
    with tab_at(browser, width, theme) as page:
        page.goto(url(sites, *VARIANT_PAGE))
        tabs = page.locator("[data-tabs='variants'] > [role=tablist] > [role=tab]")
        assert tabs.count() == 4
        assert tabs.first.get_attribute("aria-selected") == "true"
        assert tabs.first.inner_text() == "MCP 2025-11-25"
        visible = page.locator("section.variant:visible")
        assert visible.count() == 1
        assert visible.first.get_attribute("data-protocol-versions") == "2025-11-25"
        # The notes say what was added, and the section carries since when.
        assert "Task support (execution): added" in visible.first.locator("[data-variant-changes]").inner_text()
        assert visible.first.locator("[data-changed-in='2025-11-25']").first.is_visible()
        # Each parameter once in the contents, and those of the selected variant.
        shown = page.eval_on_selector_all(
            "[data-toc] a", "links => links.filter(a => !a.closest('.toc-other-variant')).map(a => a.hash)"
        )
        everywhere = page.eval_on_selector_all("[data-toc] a", "links => links.map(a => a.hash)")
        rows = page.eval_on_selector_all(
            "section.variant:visible [id$='parameters'] table.params > tbody > tr[id]",
            "rows => rows.map(r => '#' + r.id)",
        )
        assert rows
        assert [h for h in shown if h in rows] == rows
        parameter_links = [h for h in everywhere if "-input-" in h]
        assert len(parameter_links) == len(set(parameter_links)) == len(rows)
        tabs.nth(3).click()
        assert page.locator("section.variant:visible").first.get_attribute("data-protocol-versions") == "2024-11-05"
        no_page_overflow(page, width)


def test_the_version_picker_selects_the_matching_tab(browser: Browser, sites: dict[str, Path]) -> None:
    with tab_at(browser, 1280, "light") as page:
        page.goto(url(sites, *VARIANT_PAGE))
        page.select_option("[data-protocol-version]", "2025-03-26")
        shown = page.locator("section.variant:visible")
        assert shown.count() == 1
        assert shown.first.get_attribute("data-protocol-versions") == "2025-03-26"
        selected = page.locator("[role=tab][aria-selected=true]:visible").first
        assert selected.inner_text() == "MCP 2025-03-26"
        # Remembered: another page opens on the same version's tab.
        page.goto(url(sites, "everything", "tools/echo.html"))
        assert page.locator("section.variant:visible").first.get_attribute("data-protocol-versions") == "2025-03-26"


def test_without_a_script_every_variant_and_sample_shows_stacked(browser: Browser, sites: dict[str, Path]) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 800}, java_script_enabled=False)
    page = context.new_page()
    page.goto(url(sites, *VARIANT_PAGE))
    variants = page.locator("section.variant")
    assert variants.count() == 4
    versions = [variants.nth(i).get_attribute("data-protocol-versions") for i in range(4)]
    assert versions == ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    assert all(variants.nth(i).is_visible() for i in range(4))
    samples = variants.first.locator("[data-tabs='sample'] > [data-tab-panel]")
    assert [samples.nth(i).locator(".tab-label").inner_text() for i in range(samples.count())] == [
        "JSON-RPC",
        "Python SDK",
        "TypeScript SDK",
    ]
    assert all(samples.nth(i).is_visible() for i in range(samples.count()))
    context.close()


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("width", WIDTHS)
def test_request_samples_in_tabs_that_copy_as_valid_json(
    browser: Browser, sites: dict[str, Path], width: int, theme: str
) -> None:
    with tab_at(browser, width, theme) as page:
        page.goto(url(sites, "sample", "tools/create_ticket.html"))
        request = page.locator("section.variant:visible [data-tabs='sample']")
        tabs = request.locator("[role=tab]")
        assert [tabs.nth(i).inner_text() for i in range(tabs.count())] == [
            "JSON-RPC",
            "Python SDK",
            "TypeScript SDK",
            "curl",
        ]
        message = json.loads(request.locator("[data-tab-key=jsonrpc] pre code").inner_text())
        assert message["method"] == "tools/call"
        tabs.nth(1).click()
        python = request.locator("[data-tab-key=python]")
        assert python.is_visible()
        assert "session.call_tool(" in python.inner_text()
        assert request.locator("[data-tab-key=jsonrpc]").is_hidden()
        # The language is remembered on the next page.
        page.goto(url(sites, "sample", "tools/search_tickets.html"))
        assert page.locator("section.variant:visible [data-tab-key=python]").is_visible()
        no_page_overflow(page, width)


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("width", WIDTHS)
def test_two_columns_from_1200_px_with_the_samples_in_view(
    browser: Browser, sites: dict[str, Path], width: int, theme: str
) -> None:
    with tab_at(browser, width, theme) as page:
        page.goto(url(sites, "sample", "tools/search_tickets.html"))
        main = page.locator("section.variant:visible .variant-main").bounding_box()
        aside = page.locator("section.variant:visible .variant-aside").bounding_box()
        assert main is not None
        assert aside is not None
        if width >= 1200:
            assert aside["x"] >= main["x"] + main["width"]  # beside
            page.evaluate("window.scrollTo(0, 1200)")  # scrolls at once (no smooth scrolling)
            assert page.evaluate("window.scrollY") > 1000
            top = page.locator("section.variant:visible .variant-aside").bounding_box()
            assert top is not None
            assert 0 <= top["y"] < 200  # still in view: sticky
        else:
            assert aside["y"] >= main["y"] + main["height"]  # below
        no_page_overflow(page, width)


@pytest.mark.parametrize("width", [1280, 1600])
def test_the_contents_fold_above_until_there_is_room_for_three_columns(
    browser: Browser, sites: dict[str, Path], width: int
) -> None:
    with tab_at(browser, width, "light") as page:
        page.goto(url(sites, "sample", "tools/escalate_ticket.html"))
        toc = page.locator("nav[data-toc]")
        body = page.locator(".page-body").bounding_box()
        box = toc.bounding_box()
        assert body is not None
        assert box is not None
        if width >= 1600:
            assert toc.locator("details").evaluate("d => d.open")
            assert box["x"] >= body["x"] + body["width"]  # beside the page and its two columns
        else:
            assert not toc.locator("details").evaluate("d => d.open")
            assert box["y"] < body["y"]
            toc.locator("summary").click()
            assert toc.locator('a[href="#elicitation-choose_team"]').is_visible()
        no_page_overflow(page, width)


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("width", WIDTHS)
def test_results_read_as_messages_and_text_with_json_a_tab_away(
    browser: Browser, sites: dict[str, Path], width: int, theme: str
) -> None:
    with tab_at(browser, width, theme) as page:
        page.goto(url(sites, "sample", "prompts/weekly_summary.html"))
        card = page.locator("article.example").first
        message = card.locator("[data-role=user]").first
        assert message.locator(".result-role").inner_text().lower() == "user"
        text = message.locator(".result-text")
        assert text.is_visible()
        # Nothing clipped: the whole text is laid out inside its box.
        assert text.evaluate("e => e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight + 1")
        assert card.locator("[data-result-json]").is_hidden()
        card.locator("[role=tab]", has_text="JSON").click()
        assert card.locator("[data-result-json]").is_visible()
        page.goto(url(sites, "sample", "tools/create_ticket.html"))
        fields = page.locator("section.variant:visible .result-fields").first
        assert fields.locator("th", has_text="ticket_id").is_visible()
        no_page_overflow(page, width)


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("width", WIDTHS)
def test_schema_tables_keep_one_grid_at_every_depth(
    browser: Browser, sites: dict[str, Path], width: int, theme: str
) -> None:
    with tab_at(browser, width, theme) as page:
        page.goto(url(sites, "sample", "tools/search_tickets.html"))
        table = page.locator("#output table.params").first
        header = table.locator("thead")
        if width >= 700:
            assert header.is_visible()
            type_x = table.locator("thead th").nth(1).bounding_box()
            nested = table.locator(".params-nested .param-type")
            assert nested.count() >= 4
            for i in range(nested.count()):
                box = nested.nth(i).bounding_box()
                assert box is not None
                assert type_x is not None
                assert abs(box["x"] - type_x["x"]) <= 2, i  # the type column lines up at every depth
                assert box["width"] >= 80
        else:
            assert header.is_hidden()
            rows = table.locator("tr[id]")
            widths = [rows.nth(i).bounding_box()["width"] for i in range(rows.count())]  # type: ignore[index]
            assert min(widths) >= 0.8 * max(widths) - 30  # nested rows stack like top-level ones
        assert page.locator("#output .param-type", has_text="object[]").first.is_visible()
        no_page_overflow(page, width)


@pytest.mark.parametrize("site", ["sample", "everything", "filesystem", "memory", *[site_name(p) for p in EXAMPLES]])
def test_every_primitive_page_fits_a_phone_and_a_desktop(browser: Browser, sites: dict[str, Path], site: str) -> None:
    pages = sorted(
        p
        for folder in ("tools", "resources", "resource-templates", "prompts")
        for p in (sites[site] / folder).glob("*.html")
    )
    for width in (360, 1280):
        with tab_at(browser, width, "light") as page:
            for path in pages:
                page.goto(path.as_uri())
                no_page_overflow(page, width)
                assert page.locator("section.variant:visible").count() == 1, path


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize(
    "target",
    [VARIANT_PAGE, ("sample", "prompts/weekly_summary.html"), ("sample", "tools/search_tickets.html")],
    ids=lambda t: t[1],
)
def test_axe_finds_no_serious_or_critical_violation(
    browser: Browser, sites: dict[str, Path], target: tuple[str, str], theme: str
) -> None:
    # axe is injected as an inline script, which the pages' Content-Security-Policy rightly refuses.
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=theme, bypass_csp=True)
    page = context.new_page()
    page.goto(url(sites, *target))
    violations = serious_axe_violations(page)
    context.close()
    assert violations == []
