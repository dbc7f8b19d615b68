"""The same build works under a project-pages prefix (/repo/), as GitHub Pages serves it."""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlsplit

from bs4 import BeautifulSoup

from .helpers import PATIENCE
from .listening import serving_in_thread
from .sites import SAMPLE, build, load_data

PREFIX = "/repo/"


@contextmanager
def pages_server(site: Path) -> Iterator[str]:
    """Serves ``site`` under /repo/ like GitHub Pages: a missing path gets 404.html."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            path = urlsplit(self.path).path
            file = None
            if path.startswith(PREFIX) and ".." not in path:
                candidate = site / path.removeprefix(PREFIX)
                candidate = candidate / "index.html" if candidate.is_dir() else candidate
                file = candidate if candidate.is_file() else None
            status = HTTPStatus.OK if file else HTTPStatus.NOT_FOUND
            body = (file or site / "404.html").read_bytes()
            self.send_response(status)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    with serving_in_thread(Handler) as root:
        yield root.rstrip("/") + PREFIX


def fetch(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=PATIENCE) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def references(base_url: str, body: bytes) -> Iterator[str]:
    page = BeautifulSoup(body, "html.parser")
    base = page.select_one("base[href]")
    start = urljoin(base_url, base["href"]) if base else base_url
    for element in page.select("a[href], link[href], script[src]"):
        if element.name == "link" and element.get("rel") == ["canonical"]:
            continue
        yield urljoin(start, element.get("href") or element.get("src"))


def crawl(start: str, origin: str) -> dict[str, int]:
    """Every same-site URL reachable from ``start``: its status; fragments must exist."""
    seen: dict[str, int] = {}
    bodies: dict[str, bytes] = {}
    queue = [start]
    pending_fragments: list[tuple[str, str, str]] = []
    while queue:
        url = queue.pop()
        if url in seen:
            continue
        status, body = fetch(url)
        seen[url] = status
        bodies[url] = body
        if status != 200 or not url.endswith(".html"):
            continue
        for target in references(url, body):
            if not target.startswith(origin):
                continue
            document, fragment = urldefrag(target)
            if fragment:
                pending_fragments.append((url, document, fragment))
            queue.append(document)
    ids: dict[str, set[str]] = {}
    for source, document, fragment in pending_fragments:
        if document not in ids:
            ids[document] = {e["id"] for e in BeautifulSoup(bodies[document], "html.parser").select("[id]")}
        assert fragment in ids[document], (source, document, fragment)
    return seen


def test_every_internal_link_works_under_a_project_prefix(tmp_path):
    assert build(SAMPLE, tmp_path / "site")[0] == 0
    with pages_server(tmp_path / "site") as root:
        origin = root.split(PREFIX)[0] + PREFIX
        seen = crawl(root + "index.html", origin)
    broken = {url: status for url, status in seen.items() if status != 200}
    assert broken == {}
    pages = {url.removeprefix(origin) for url in seen}
    assert {"index.html", "tools/create_ticket.html", "assets/mcpdesc.css", "assets/mcpdesc.js"} <= pages
    built = {p.relative_to(tmp_path / "site").as_posix() for p in (tmp_path / "site").rglob("*.html")}
    assert built - {"404.html"} <= pages  # every page is reachable by following links


def test_the_404_page_works_from_any_depth_when_the_address_is_known(tmp_path):
    import json

    (tmp_path / "d.json").write_text(json.dumps(load_data(SAMPLE)))
    (tmp_path / "mcpdesc-docs.yml").write_text("description: d.json\nsite_url: https://acme.github.io/repo/\n")
    assert build(tmp_path, tmp_path / "site")[0] == 0
    with pages_server(tmp_path / "site") as root:
        origin = root
        status, body = fetch(root + "tools/gone/deeper/missing.html")
        assert status == 404
        assert "Page not found" in BeautifulSoup(body, "html.parser").get_text()
        targets = [t for t in references(root + "tools/gone/deeper/missing.html", body) if t.startswith(origin)]
        assert urljoin(origin, "index.html") in targets
        assert urljoin(origin, "assets/mcpdesc.css") in targets
        assert {t: fetch(t)[0] for t in targets if "#" not in t} == {t: 200 for t in targets if "#" not in t}
