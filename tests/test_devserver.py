"""The dev server driven by a fake builder that fails on demand: no project, no socket."""

from __future__ import annotations

import gc
import io
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from watchfiles import Change

from mcpdesc_docs.devserver.builder import Rebuild
from mcpdesc_docs.devserver.server import DevServer
from mcpdesc_docs.diagnostics import error

from .helpers import PATIENCE

PROBLEM = error("mcpdesc.tags.unique", "duplicate-root-tag", "tag 'x' is declared twice", "/tags/1/name").located(
    "fake.mcpdesc.yaml", 7, 9
)


class FakeBuilder:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.version = 1
        self.failure: str | None = None
        """None builds; "diagnostic" fails with PROBLEM; "crash" raises."""
        self.calls: list[tuple[str, ...]] = []

    def build(self, changed: Sequence[str] = ()) -> Rebuild:
        self.calls.append(tuple(changed))
        if self.failure == "crash":
            raise RuntimeError("the builder broke")
        if self.failure == "diagnostic":
            return Rebuild(None, (PROBLEM,))
        page = f"<html><body><h1>version {self.version}</h1></body></html>".encode()
        return Rebuild({"index.html": page, "about.html": b"<html><body>same</body></html>"}, pages=2)

    def watch_paths(self) -> list[Path]:
        return [self.root]

    def ignore_paths(self) -> list[Path]:
        return [self.root / "site"]


@pytest.fixture
def served(tmp_path: Path):
    builder = FakeBuilder(tmp_path)
    err = io.StringIO()
    server = DevServer(builder, err=err)
    yield server, builder, err
    server.close()


def page(server: DevServer, path: str = "/index.html") -> BeautifulSoup:
    found, site = server.resolve_request(path)
    assert found is not None
    assert site is not None
    return BeautifulSoup(server.decorate(site[found]), "html.parser")


def test_a_failed_build_keeps_the_last_good_site_and_shows_why(served):
    server, builder, err = served
    assert server.rebuild()
    assert server.state_token == "1.0"
    good_site = server.site_files
    builder.version, builder.failure = 2, "diagnostic"
    assert not server.rebuild()
    assert server.state_token == "1.1"  # browsers hear of the failure (the banner) ...
    assert server.site_files is good_site  # ... but keep the last good site
    shown = page(server)
    assert shown.h1.get_text() == "version 1"
    banner = shown.select_one("[data-serve-problems] [data-diagnostic]").get_text(" ")
    assert "fake.mcpdesc.yaml:7:9" in banner
    assert "error[mcpdesc.tags.unique] tag 'x' is declared twice" in banner
    assert "still serving the last good site" in err.getvalue()
    builder.failure = None
    assert server.rebuild()
    assert server.state_token == "2.1"
    shown = page(server)
    assert shown.h1.get_text() == "version 2"
    assert shown.select("[data-serve-problems]") == []


def test_a_builder_that_raises_is_a_failed_build_not_a_dead_server(served):
    server, builder, _err = served
    assert server.rebuild()
    builder.failure = "crash"
    assert not server.rebuild()
    assert server.problems is not None
    assert server.problems.message == "internal error: RuntimeError: the builder broke"
    assert "the builder broke" in page(server).select_one("[data-serve-problems]").get_text()
    assert page(server).h1.get_text() == "version 1"


def test_before_a_first_good_build_every_path_explains(served):
    server, builder, _ = served
    builder.failure = "diagnostic"
    assert not server.rebuild()
    assert server.resolve_request("/index.html") == (None, None)
    body = BeautifulSoup(server.no_site_page(), "html.parser")
    assert body.h1.get_text() == "No site yet"
    assert "tag 'x' is declared twice" in body.select_one("[data-serve-problems]").get_text()


def test_one_filter_decides_which_changes_rebuild(served, tmp_path):
    server, builder, err = served
    assert server.rebuild()
    ignored = [
        tmp_path / "site" / "index.html",  # the builder's own output
        tmp_path / ".git" / "index",
        tmp_path / "__pycache__" / "x.pyc",
        tmp_path / ".helpdesk.mcpdesc.yaml.swp",
    ]
    server.watch_loop([{(Change.modified, str(p)) for p in ignored}])
    assert builder.calls == [()]  # only the first build
    relevant = tmp_path / "site.css"  # beside the output directory, not inside it
    server.watch_loop([{(Change.modified, str(relevant)), (Change.added, str(ignored[0]))}])
    assert builder.calls == [(), (str(relevant),)]  # one build per batch, told what changed
    assert server.state_token == "2.0"
    assert f"changed: {relevant}" in err.getvalue()


def test_the_site_is_served_from_memory_and_nothing_is_written(tmp_path, monkeypatch):
    # A rebuild swaps the builder's files in as they are: no disk work per edit, no full
    # disk to fail on, and no file outside them to serve.
    import tempfile

    from mcpdesc_docs import output
    from mcpdesc_docs.devserver import server as server_module

    def refuse(*args, **kwargs):
        raise AssertionError("the dev server wrote to disk")

    for module, name in ((output, "write_site"), (server_module, "write_site"), (tempfile, "mkdtemp")):
        monkeypatch.setattr(module, name, refuse, raising=False)
    builder = FakeBuilder(tmp_path)
    server = DevServer(builder, err=io.StringIO())
    try:
        assert server.rebuild()
        builder.version = 2
        assert server.rebuild()
        assert page(server).h1.get_text() == "version 2"
        assert server.resolve_request("/about.html")[0] == "about.html"
        assert server.resolve_request("/")[0] == "index.html"
        assert server.resolve_request("/missing.html")[0] is None
    finally:
        server.close()


def wait_until(condition, seconds: float = PATIENCE) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_the_heap_is_tidied_after_a_rebuild_not_during_one(tmp_path):
    # After a rebuild the heap is collected and what survives frozen, so the collector's
    # full walks stay out of later rebuilds; close gives the objects back.
    builder = FakeBuilder(tmp_path)
    server = DevServer(builder, err=io.StringIO(), tidy_after=0.05)
    try:
        assert server.rebuild()
        assert wait_until(lambda: server.tidier.tidied == 1)
        assert gc.get_freeze_count() > 0
        with server._building:  # a rebuild under way: the tidy waits for the next one
            server.tidier.schedule()
            time.sleep(0.3)
            assert server.tidier.tidied == 1
    finally:
        server.close()
    assert gc.get_freeze_count() == 0
    server.tidier.schedule()  # after close: nothing is frozen again
    time.sleep(0.2)
    assert gc.get_freeze_count() == 0
