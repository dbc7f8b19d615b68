"""A versioned branch (``gh-deploy --version``) in Debian Chromium: the root redirect and
the version menu work without script, from file:// and over loopback HTTP."""

from __future__ import annotations

import io
import shutil
import subprocess
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from .browser import chromium, serious_axe_violations
from .git_repos import git, isolate_git
from .listening import serving_directory
from .sites import SAMPLE_DIR, run


@pytest.fixture(scope="module")
def branch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The gh-pages branch after versions 1.0 and 2.0 (alias latest), as a directory."""
    tmp_path = tmp_path_factory.mktemp("versions")
    with pytest.MonkeyPatch.context() as monkeypatch:
        isolate_git(monkeypatch, tmp_path)
        source = tmp_path / "source"
        git(tmp_path, "init", "--quiet", "-b", "main", str(source))
        for name in ("mcpdesc-docs.yml", "helpdesk.mcpdesc.yaml"):
            shutil.copy(SAMPLE_DIR / name, source / name)
        git(source, "add", ".")
        git(source, "commit", "--quiet", "-m", "docs")
        for version in ("1.0", "2.0"):
            code, out, err = run("gh-deploy", str(source), "--no-push", "--version", version, "--alias", "latest")
            assert code == 0, out + err
        archive = subprocess.run(["git", "archive", "gh-pages"], cwd=source, capture_output=True, check=True).stdout
    site = tmp_path / "site"
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(site, filter="data")
    return site


@pytest.fixture(scope="module")
def http_root(branch: Path) -> Iterator[str]:
    with serving_directory(branch) as root:
        yield root


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as instance:
        yield instance


@pytest.fixture(params=["file, no script", "http"])
def tab(request: pytest.FixtureRequest, browser: Browser, branch: Path, http_root: str) -> Iterator[tuple[Page, str]]:
    scripted = request.param == "http"
    context = browser.new_context(viewport={"width": 1280, "height": 900}, java_script_enabled=scripted)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    yield page, (http_root if scripted else branch.as_uri() + "/")
    context.close()
    assert problems == []  # no CSP refusal, script error or missing file


def test_the_root_redirects_and_the_menu_leads_to_another_version(tab):
    page, root = tab
    page.goto(root + "index.html")
    page.wait_for_url("**/latest/index.html")
    menu = page.locator("header details.version-menu")
    assert menu.locator("summary").inner_text().split() == ["Documentation", "version:", "2.0"]
    assert not menu.locator("a").first.is_visible()  # folded until opened
    menu.locator("summary").click()
    menu.get_by_role("link", name="1.0", exact=True).click()
    page.wait_for_url("**/1.0/index.html")
    assert page.locator("header details.version-menu summary").inner_text().split()[-1] == "1.0"

    page.goto(root + "2.0/tools/create_ticket.html")
    page.locator("header details.version-menu summary").click()
    page.get_by_role("link", name="All versions").click()
    page.wait_for_url("**/versions.html")
    assert page.locator("li a").all_inner_texts() == ["2.0", "1.0"]


def test_an_old_versions_menu_is_brought_up_to_date_over_http(tab):
    page, root = tab
    page.goto(root + "1.0/index.html")
    menu = page.locator("header details.version-menu")
    menu.locator("summary").click()
    links = menu.locator("li a")
    if root.startswith("http"):  # the script reads versions.json
        page.wait_for_function("document.querySelectorAll('.version-menu li a').length === 3")
        assert links.all_inner_texts() == ["2.0", "1.0", "All versions"]
        assert menu.locator('a[aria-current="true"]').all_inner_texts() == ["1.0"]
        links.first.click()
        page.wait_for_url("**/2.0/index.html")
    else:  # as built: 2.0 did not exist yet
        assert links.all_inner_texts() == ["1.0", "All versions"]


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("path", ["2.0/tools/create_ticket.html", "versions.html", "index.html"])
def test_axe_finds_no_serious_or_critical_violation_with_the_menu_open(browser, http_root, path, theme):
    # axe is injected as an inline script, which the pages' Content-Security-Policy rightly refuses.
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=theme, bypass_csp=True)
    tab = context.new_page()
    tab.goto(http_root + path)
    if path == "index.html":  # the root redirects at once: check where it lands
        tab.wait_for_url("**/latest/index.html")
        tab.wait_for_load_state()
    menu = tab.locator("header details.version-menu summary")
    if menu.count():
        menu.click()
    violations = serious_axe_violations(tab)
    context.close()
    assert violations == []
