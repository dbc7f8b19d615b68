"""In a real browser: a page served by ``serve`` reloads by itself after an edit on disk."""

from __future__ import annotations

import io
import shutil
import threading
from pathlib import Path

from playwright.sync_api import expect

from mcpdesc_docs.devserver.project import ProjectBuilder
from mcpdesc_docs.devserver.server import DevServer

from .browser import chromium
from .helpers import PATIENCE
from .sites import SAMPLE_DIR


def wait_until_watching(server: DevServer, project: Path) -> None:
    """Touch a file until the real watcher reports it: from then on, edits are seen."""
    for attempt in range(40):
        token = server.state_token
        config = project / "mcpdesc-docs.yml"
        config.write_text(config.read_text().rstrip("\n") + "\n" * (1 + attempt % 2))  # same settings
        if server.wait_for_change(token, 0.5) != token:
            return
    raise AssertionError("the file watcher never reported a change")


def test_tool_page_reloads_with_the_new_title_without_a_click(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    for name in ("mcpdesc-docs.yml", "helpdesk.mcpdesc.yaml"):
        shutil.copy(SAMPLE_DIR / name, project / name)
    server = DevServer(ProjectBuilder(project, out=io.StringIO(), err=io.StringIO()), port=0, err=io.StringIO())
    watcher = None
    try:
        assert server.rebuild()
        url = server.start_http()
        watcher = threading.Thread(target=server.watch_loop, args=(server.file_changes(),), daemon=True)
        watcher.start()
        wait_until_watching(server, project)
        with chromium() as browser:
            page = browser.new_page()
            page.goto(url + "tools/search_tickets.html")
            assert page.locator("h1").inner_text() == "Search tickets"
            page.evaluate("window.__beforeReload = true")
            description = project / "helpdesk.mcpdesc.yaml"
            description.write_text(
                description.read_text().replace("    title: Search tickets\n", "    title: Find tickets fast\n", 1)
            )
            expect(page.locator("h1")).to_have_text("Find tickets fast", timeout=PATIENCE * 1000)
            assert page.evaluate("window.__beforeReload === undefined")  # a reload, not a patch
    finally:
        server.close()
        if watcher is not None:
            watcher.join(timeout=PATIENCE)
            assert not watcher.is_alive()
