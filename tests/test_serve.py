"""``mcpdesc-docs serve``: rebuilds, last good site, problems banner, reload events, safety."""

from __future__ import annotations

import http.client
import io
import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from watchfiles import Change

from mcpdesc_docs.devserver.handler import safe_request_path
from mcpdesc_docs.devserver.overlay import EVENTS_PATH
from mcpdesc_docs.devserver.project import ProjectBuilder
from mcpdesc_docs.devserver.server import DevServer, serve

from .helpers import PATIENCE
from .sites import SAMPLE_DIR

TITLE = "    title: Search tickets\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    for name in ("mcpdesc-docs.yml", "helpdesk.mcpdesc.yaml"):
        shutil.copy(SAMPLE_DIR / name, root / name)
    return root


def edit(description: Path, old: str, new: str) -> None:
    text = description.read_text()
    assert old in text
    description.write_text(text.replace(old, new, 1))


def get(server: DevServer, path: str) -> tuple[int, dict[str, str], bytes]:
    """A raw request: the path is sent exactly as given (no client-side normalisation)."""
    connection = http.client.HTTPConnection(server.host, server.port, timeout=PATIENCE)
    try:
        connection.putrequest("GET", path, skip_accept_encoding=True)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


class FakeChanges:
    """A change source the test drives: each put() is one debounced batch."""

    def __init__(self) -> None:
        self.batches: queue.Queue[set[tuple[Change, str]] | None] = queue.Queue()
        self.done = threading.Event()

    def put(self, *paths: Path) -> None:
        self.batches.put({(Change.modified, str(p)) for p in paths})

    def __call__(self, server: DevServer) -> Iterator[set[tuple[Change, str]]]:
        while not server.stop_event.is_set():
            try:
                batch = self.batches.get(timeout=0.05)
            except queue.Empty:
                continue
            if batch is None:
                return
            yield batch
            self.done.set()

    def put_and_wait(self, *paths: Path) -> None:
        self.done.clear()
        self.put(*paths)
        assert self.done.wait(PATIENCE)


@pytest.fixture
def running(project: Path):
    """A real server on a free port, driven by a fake change source."""
    changes = FakeChanges()
    out, err = io.StringIO(), io.StringIO()
    holder: dict[str, DevServer] = {}

    def source(server: DevServer):
        holder["server"] = server
        return changes(server)

    thread = threading.Thread(
        target=serve,
        args=(ProjectBuilder(project, out=out, err=err),),
        kwargs={"host": "127.0.0.1", "port": 0, "open_browser": False, "err": err, "changes": source},
        daemon=True,
    )
    thread.start()
    deadline = time.monotonic() + PATIENCE
    while "serving on" not in err.getvalue():
        assert time.monotonic() < deadline, err.getvalue()
        time.sleep(0.02)
    server = holder["server"]
    yield server, changes, out, err
    server.stop_event.set()
    changes.batches.put(None)
    thread.join(timeout=PATIENCE)
    assert not thread.is_alive()


def h1(body: bytes) -> str:
    return BeautifulSoup(body, "html.parser").select_one("h1").get_text(strip=True)


def test_an_edit_changes_the_served_page(running, project):
    server, changes, _, _ = running
    status, headers, body = get(server, "/tools/search_tickets.html")
    assert status == 200
    assert headers["Cache-Control"] == "no-cache"
    assert h1(body) == "Search tickets"
    edit(project / "helpdesk.mcpdesc.yaml", TITLE, "    title: Find tickets\n")
    changes.put_and_wait(project / "helpdesk.mcpdesc.yaml")
    assert h1(get(server, "/tools/search_tickets.html")[2]) == "Find tickets"


def test_broken_edit_keeps_the_last_good_page_and_shows_the_problems(running, project):
    server, changes, out, _ = running
    description = project / "helpdesk.mcpdesc.yaml"
    edit(
        description,
        "        mode: url\n        protocolVersions: [2025-11-25]\n",
        "        mode: sms\n        protocolVersions: [2025-11-25]\n",
    )
    changes.put_and_wait(description)
    status, _, body = get(server, "/tools/search_tickets.html")
    assert status == 200
    assert h1(body) == "Search tickets"  # the last good site
    problems = BeautifulSoup(body, "html.parser").select("[data-serve-problems] [data-diagnostic]")
    assert problems
    assert f"{description}:" in problems[0].get_text()
    assert "/tools/1/elicitations/1/mode" in body.decode()
    assert f"{description}:" in out.getvalue()  # the terminal gets the same diagnostics, build's format
    assert "error[" in out.getvalue()
    # Fixing it recovers: the banner goes.
    edit(description, "        mode: sms\n", "        mode: url\n")
    changes.put_and_wait(description)
    _, _, body = get(server, "/tools/create_ticket.html")
    assert BeautifulSoup(body, "html.parser").select("[data-serve-problems]") == []


class CountedFlushes(io.StringIO):
    def __init__(self) -> None:
        super().__init__()
        self.flushed = ""

    def flush(self) -> None:
        self.flushed = self.getvalue()


def test_the_problems_of_each_rebuild_are_flushed_at_once(project: Path) -> None:
    # serve's output piped to a file is block-buffered: the report must not wait for exit.
    out = CountedFlushes()
    builder = ProjectBuilder(project, out=out, err=io.StringIO())
    builder.build()
    edit(project / "helpdesk.mcpdesc.yaml", "      readOnlyHint: true\n", "      readOnlyHnt: true\n")
    builder.build([str(project / "helpdesk.mcpdesc.yaml")])
    assert "readOnlyHnt" in out.getvalue()
    assert out.flushed == out.getvalue()


def test_config_errors_are_shown_too(running, project):
    server, changes, _, err = running
    (project / "mcpdesc-docs.yml").write_text("description: helpdesk.mcpdesc.yaml\nsite_nmae: x\n")
    changes.put_and_wait(project / "mcpdesc-docs.yml")
    _, _, body = get(server, "/index.html")
    shown = BeautifulSoup(body, "html.parser").select_one("[data-serve-problems] [data-diagnostic]").get_text(" ")
    # A located diagnostic like the description's own: file:line:column and the rule.
    assert "mcpdesc-docs.yml:2:1" in shown
    assert "error[mcpdesc-docs.config] unknown setting 'site_nmae'" in shown
    assert "mcpdesc-docs.yml:2:1: error[mcpdesc-docs.config] unknown setting" in err.getvalue()


def test_reload_event_follows_a_successful_rebuild(running, project):
    server, changes, _, _ = running
    token = server.state_token
    connection = http.client.HTTPConnection(server.host, server.port, timeout=PATIENCE)
    connection.request("GET", f"{EVENTS_PATH}?state={token}")
    response = connection.getresponse()
    assert response.getheader("Content-Type") == "text/event-stream"
    assert response.readline() == b"retry: 500\n"
    response.readline()
    edit(project / "helpdesk.mcpdesc.yaml", TITLE, "    title: Find tickets\n")
    changes.put(project / "helpdesk.mcpdesc.yaml")
    assert response.readline() == b"event: change\n"
    assert response.readline().startswith(b"data: ")
    connection.close()


def test_served_pages_carry_the_reload_script(running):
    server, _, _, _ = running
    page = BeautifulSoup(get(server, "/")[2], "html.parser")
    assert page.select("script:not([src])") == []  # the pages' Content-Security-Policy forbids inline script
    reload_script = page.select_one('script[src="/__mcpdesc__/livereload.js"]')
    assert reload_script["data-state"] == server.state_token
    status, headers, body = get(server, "/__mcpdesc__/livereload.js")
    assert status == 200
    assert headers["Content-Type"].startswith("text/javascript")
    assert b"EventSource" in body


@pytest.mark.parametrize(
    "path",
    [
        "/../../../../etc/passwd",
        "/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        "/%2E%2E%2f%2E%2E%2fetc%2fpasswd",
        "/tools/..%2f..%2f..%2fetc/passwd",
        "//etc/passwd",
        "/..\\..\\etc\\passwd",
        "/%00index.html",
        "/%ff%fe",
        "/outside/passwd",
    ],
)
def test_nothing_outside_the_site_is_served(running, path):
    server, _, _, _ = running
    status, _, body = get(server, path)
    assert status == 404
    assert b"root:" not in body
    assert "Page not found" in parse_bytes(body)


def parse_bytes(body: bytes) -> str:
    return BeautifulSoup(body, "html.parser").get_text()


def test_unknown_pages_get_the_sites_404_page(running):
    server, _, _, _ = running
    status, headers, body = get(server, "/tools/no_such_tool.html")
    assert status == 404
    assert headers["Cache-Control"] == "no-cache"
    assert BeautifulSoup(body, "html.parser").select_one("main")["data-page"] == "not-found"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("/", "index.html"),
        ("/tools/a.html?x=1#y", "tools/a.html"),
        ("/./tools//a.html", "tools/a.html"),
        ("/%74ools/a.html", "tools/a.html"),
        ("/../x", None),
        ("/%2e%2e/x", None),
        ("/a/%2E%2E/b", None),
        ("/a\\..\\b", None),
        ("/a%00b", None),
    ],
)
def test_request_paths_are_normalised(raw, expected):
    assert safe_request_path(raw) == expected


def test_watcher_ignores_the_output_directory_and_rebuilds_once_per_batch(project):
    out, err = io.StringIO(), io.StringIO()
    server = DevServer(ProjectBuilder(project, out=out, err=err), err=err)
    try:
        assert server.rebuild()
        first = server.state_token
        site_dir = project / "site"
        server.watch_loop([{(Change.added, str(site_dir / "index.html"))}])
        assert server.state_token == first  # its own output never triggers a rebuild
        description = project / "helpdesk.mcpdesc.yaml"
        server.watch_loop([{(Change.modified, str(description)), (Change.modified, str(project / "mcpdesc-docs.yml"))}])
        assert server.state_token == "2.0"
        edit(description, 'mcpdesc: "0.9.0"', 'mcpdesc: "0.6.0"')
        good_site = server.site_files
        server.watch_loop([{(Change.modified, str(description))}])
        assert server.state_token == "2.1"
        assert server.site_files is good_site
        assert server.problems is not None
        assert "unsupported mcpdesc version" in out.getvalue()
        paths = server.builder.watch_paths()
        # What the site is made of, not the whole project: a log file beside it changes nothing.
        assert project / "mcpdesc-docs.yml" in paths
        assert description in paths
        assert project not in paths
        token = server.state_token
        server.watch_loop([{(Change.modified, str(project / "serve.log")), (Change.added, str(project / "notes.md"))}])
        assert server.state_token == token
        assert any(p.name == "templates" for p in paths)
        assert any(p.name == "themes" for p in paths)
    finally:
        server.close()


def test_a_busy_port_is_a_usage_error(project):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        from .sites import run

        code, _, err = run("serve", str(project), "--port", str(port))
    assert code == 2
    assert f"port {port} on 127.0.0.1 is already in use" in err


def test_ctrl_c_stops_serve_while_an_event_stream_is_open(project):
    # An open event stream never ends by itself: were it to hold the server, the wait
    # below would run out (generously: no test measures speed on a shared machine).
    command = [sys.executable, "-m", "mcpdesc_docs", "serve", str(project), "--port", "0"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) as process:
        try:
            line = ""
            deadline = time.monotonic() + PATIENCE
            while "serving on" not in line:
                assert time.monotonic() < deadline
                line = process.stderr.readline()
            url = line.split("serving on ")[1].split()[0]
            host, port = url.removeprefix("http://").rstrip("/").rsplit(":", 1)
            connection = http.client.HTTPConnection(host, int(port), timeout=PATIENCE)
            connection.request("GET", EVENTS_PATH + "?state=x")  # an open event stream must not delay exit
            process.send_signal(signal.SIGINT)
            code = process.wait(timeout=PATIENCE)
            stderr = process.stderr.read()
            connection.close()
        finally:
            if process.poll() is None:
                process.kill()
    assert code == 0
    assert "Traceback" not in stderr
    assert "stopped" in stderr


SERVE_PROBE = """
import sys
from mcpdesc_docs.cli import main

events = []
def hook(event, args):
    watched = ("socket.connect", "socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr",
               "socket.sendto", "urllib.Request", "http.client.connect", "subprocess.Popen", "webbrowser.open")
    if event in watched:
        events.append(event)
sys.addaudithook(hook)
try:
    main(sys.argv[1:])
finally:
    print("EVENTS", events, flush=True)
"""


def test_serve_opens_no_outgoing_connection(project):
    command = [sys.executable, "-c", SERVE_PROBE, "serve", str(project), "--port", "0"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) as process:
        try:
            line = ""
            while "serving on" not in line:
                line = process.stderr.readline()
                assert line, "the server did not start"
            host, port = line.split("serving on http://")[1].split("/")[0].rsplit(":", 1)
            connection = http.client.HTTPConnection(host, int(port), timeout=PATIENCE)
            for path in ("/", "/tools/create_ticket.html", "/__mcpdesc__/livereload.js", "/missing"):
                connection.request("GET", path)
                connection.getresponse().read()
            connection.close()
            process.send_signal(signal.SIGINT)
            out, _ = process.communicate(timeout=PATIENCE)
        finally:
            if process.poll() is None:
                process.kill()
    assert "EVENTS []" in out


def request_with_host(server: DevServer, host: str | None) -> int:
    connection = http.client.HTTPConnection(server.host, server.port, timeout=PATIENCE)
    try:
        connection.putrequest("GET", "/index.html", skip_host=True, skip_accept_encoding=True)
        if host is not None:
            connection.putheader("Host", host)
        connection.endheaders()
        return connection.getresponse().status
    finally:
        connection.close()


def test_only_loopback_host_names_are_served(running):
    # DNS rebinding: a page on evil.example resolves its name to 127.0.0.1 and reads the
    # preview; the Host header still says evil.example, so it is refused.
    server, _, _, _ = running
    port = server.port
    assert request_with_host(server, f"127.0.0.1:{port}") == 200
    assert request_with_host(server, f"localhost:{port}") == 200
    for refused in (f"evil.example:{port}", f"127.0.0.1:{port + 1}", "127.0.0.1", None):
        assert request_with_host(server, refused) == 403, refused


def test_a_client_that_stops_mid_request_is_dropped(tmp_path, monkeypatch):
    from mcpdesc_docs.devserver import handler

    from .test_devserver import FakeBuilder

    monkeypatch.setattr(handler, "_CONNECTION_TIMEOUT_SECONDS", 0.5)
    server = DevServer(FakeBuilder(tmp_path), port=0, err=io.StringIO())
    try:
        assert server.rebuild()
        server.start_http()
        # Long enough for any load, and still shorter than the server's own 30 s: the recv
        # below ends only because the patched half second dropped the client.
        with socket.create_connection((server.host, server.port), timeout=20) as stalled:
            stalled.sendall(b"GET /index.html HTTP/1.1\r\n")  # and never the rest
            status, _, _ = get(server, "/index.html")  # others are served meanwhile
            assert status == 200
            assert stalled.recv(1024) == b""  # the server hung up on it
    finally:
        server.close()


def test_a_restart_on_the_same_port_binds_at_once(tmp_path):
    # The server hangs up first on a "Connection: close" request, so its side of that
    # connection lingers in TIME_WAIT for about a minute after it stops; a restart on the
    # same port must bind anyway (SO_REUSEADDR), as a second server beside a running one
    # still must not (test_a_busy_port_is_a_usage_error).
    from .test_devserver import FakeBuilder

    first = DevServer(FakeBuilder(tmp_path), port=0, err=io.StringIO())
    try:
        assert first.rebuild()
        first.start_http()
        port = first.port
        connection = http.client.HTTPConnection(first.host, port, timeout=5)
        connection.request("GET", "/index.html", headers={"Connection": "close"})
        response = connection.getresponse()
        assert response.status == 200
        response.read()
        connection.close()
    finally:
        first.close()
    second = DevServer(FakeBuilder(tmp_path), port=port, err=io.StringIO())
    try:
        assert second.rebuild()
        assert second.start_http().endswith(f":{port}/")
        assert get(second, "/index.html")[0] == 200
    finally:
        second.close()


def test_a_description_that_links_to_itself_is_a_banner_not_a_crash(project):
    # Path.resolve raises RuntimeError("Symlink loop") on Python 3.11, and the change filter
    # resolved the watched paths outside the rebuild's guard: serve ended.
    out, err = io.StringIO(), io.StringIO()
    server = DevServer(ProjectBuilder(project, out=out, err=err), err=err)
    try:
        assert server.rebuild()
        description = project / "helpdesk.mcpdesc.yaml"
        saved = description.read_text()
        description.unlink()
        description.symlink_to(description)
        server.watch_loop([{(Change.deleted, str(description)), (Change.added, str(description))}])
        assert server.state_token == "1.1"
        assert server.problems is not None
        _, site = server.resolve_request("/index.html")
        assert site is not None
        banner = BeautifulSoup(server.decorate(site["index.html"]), "html.parser").select_one("[data-serve-problems]")
        assert "helpdesk.mcpdesc.yaml" in banner.get_text()
        assert "internal error" not in err.getvalue()
        description.unlink()
        description.write_text(saved)
        server.watch_loop([{(Change.added, str(description))}])
        assert server.state_token == "2.1"
        assert server.problems is None
    finally:
        server.close()
