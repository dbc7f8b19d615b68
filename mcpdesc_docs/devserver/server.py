"""The preview server: rebuild on change, serve the last good site, reload browsers.

One ``DevServer`` owns all state. ``_lock`` (a Condition) guards ``_site_root``,
``_epoch``, ``_failures`` and ``_problems``; everything else is set once in ``__init__``.
Each rebuild renders into a fresh directory; only a successful one becomes the served
root (a pointer swap under the lock), so a broken edit never replaces the last good site.
Browsers learn about changes through Server-Sent Events and reload themselves.
"""

from __future__ import annotations

import errno
import logging
import mimetypes
import posixpath
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TextIO
from urllib.parse import unquote, urlsplit

import jinja2
from watchfiles import Change, DefaultFilter, watch

from ..config import Config, load_config
from ..diagnostics import Diagnostic, format_text, write_report
from ..errors import ExitCode, ProjectError, UsageError
from ..output import write_site
from ..pipeline import BuildOutcome, render_description
from ..render.pages import RenderCache
from ..resources import builtin_dir

log = logging.getLogger(__name__)

EVENTS_PATH = "/__mcpdesc__/events"
ASSETS_PATH = "/__mcpdesc__/"
"""Serve-time files (the reload script, the banner's stylesheet), from templates/serve/."""
_SERVE_ASSETS = {"livereload.js": "text/javascript; charset=utf-8", "overlay.css": "text/css; charset=utf-8"}
_HEARTBEAT_SECONDS = 15.0
_POLL_SECONDS = 0.2
"""How often a waiting event stream checks for shutdown: bounds how long Ctrl-C takes."""

ChangeBatch = set[tuple[Change, str]]


@dataclass(frozen=True, slots=True)
class Problems:
    """Why the last rebuild failed: located diagnostics, or one message (config, template, I/O)."""

    diagnostics: tuple[Diagnostic, ...]
    message: str | None = None


class DevServer:
    def __init__(self, path: Path, *, host: str = "127.0.0.1", port: int = 8000, out: TextIO, err: TextIO) -> None:
        self.path = path
        self.host = host
        self.port = port
        self.out = out
        self.err = err
        self.stop_event = threading.Event()
        self._lock = threading.Condition()
        self._workdir = Path(tempfile.mkdtemp(prefix="mcpdesc-serve-"))
        self._site_root: Path | None = None
        self._epoch = 0
        """Successful builds so far."""
        self._failures = 0
        """Failed builds so far; with the epoch it makes the state token browsers compare."""
        self._problems: Problems | None = None
        self._config: Config | None = None
        self._builds = 0
        self._render_cache = RenderCache()
        """Pages of the last good build; reset when templates or themes change."""
        self._files: dict[str, bytes] | None = None
        """The served site's files, so a rebuild only writes what changed."""
        self._httpd: ThreadingHTTPServer | None = None
        self._http_thread: threading.Thread | None = None
        self._overlay = jinja2.Environment(
            loader=jinja2.FileSystemLoader(builtin_dir("templates") / "serve"),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
        )

    # --- state ------------------------------------------------------------------------

    @property
    def state_token(self) -> str:
        with self._lock:
            return f"{self._epoch}.{self._failures}"

    @property
    def problems(self) -> Problems | None:
        with self._lock:
            return self._problems

    @property
    def site_root(self) -> Path | None:
        with self._lock:
            return self._site_root

    @property
    def config(self) -> Config | None:
        return self._config

    def rebuild(self) -> bool:
        """Build once; on success swap the served site, on failure keep it and record why."""
        started = time.perf_counter()
        try:
            # The config is re-read every time: editing it is an edit like any other.
            config = load_config(self.path)
            self._config = config
            outcome = render_description(config, cache=self._render_cache)
        except ProjectError as exc:
            self._fail(Problems(tuple(exc.diagnostics)))
            self.err.write(format_text(exc.diagnostics))
            return False
        except UsageError as exc:
            self._fail(Problems((), str(exc)))
            self.err.write(f"mcpdesc-docs: error: {exc}\n")
            return False
        if outcome.files is None:
            self._report(outcome)
            self._fail(Problems(tuple(d for d in outcome.validation.diagnostics)))
            self.err.write("mcpdesc-docs: rebuild failed; still serving the last good site\n")
            return False
        if outcome.validation.diagnostics:
            self._report(outcome)
        self._builds += 1
        target = self._workdir / f"build-{self._builds}"
        write_site(outcome.files, target, previous=self._files, previous_dir=self.site_root)
        self._files = outcome.files
        with self._lock:
            previous = self._site_root
            self._site_root = target
            self._epoch += 1
            self._problems = None
            self._lock.notify_all()
        if previous is not None:
            # Requests that already resolved a file there hold an open handle, which
            # stays readable after the directory is removed.
            shutil.rmtree(previous, ignore_errors=True)
        elapsed = time.perf_counter() - started
        self.err.write(f"mcpdesc-docs: built {outcome.pages} pages in {elapsed:.2f} s\n")
        return True

    def _report(self, outcome: BuildOutcome) -> None:
        validation = outcome.validation
        spec = validation.specification.name if validation.specification else None
        write_report(self.out, validation.diagnostics, validation.file, spec, "text")

    def _fail(self, problems: Problems) -> None:
        with self._lock:
            self._failures += 1
            self._problems = problems
            self._lock.notify_all()

    def wait_for_change(self, token: str, timeout: float) -> str:
        """Block until the state token differs from ``token``, the timeout passes, or the
        server stops. Returns the current token."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while f"{self._epoch}.{self._failures}" == token and not self.stop_event.is_set():
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                self._lock.wait(min(remaining, _POLL_SECONDS))
            return f"{self._epoch}.{self._failures}"

    # --- watching ---------------------------------------------------------------------

    def watch_paths(self) -> list[Path]:
        paths = [builtin_dir("templates"), builtin_dir("themes")]
        config = self._config
        if config is None:
            paths.append(self.path if self.path.is_dir() else self.path.parent)
            return paths
        paths.append(config.project_dir)
        if config.description.parent != config.project_dir:
            paths.append(config.description.parent)
        if config.theme.custom_dir is not None:
            paths.append(config.theme.custom_dir)
        return paths

    def is_relevant(self, change: Change, path: str) -> bool:
        config = self._config
        ignored = [self._workdir]
        if config is not None:
            ignored.append(config.site_dir)
        candidate = Path(path)
        return not any(candidate == p or p in candidate.parents for p in ignored)

    def _is_theme_file(self, path: str) -> bool:
        roots = [builtin_dir("templates"), builtin_dir("themes")]
        if self._config is not None and self._config.theme.custom_dir is not None:
            roots.append(self._config.theme.custom_dir)
        candidate = Path(path).resolve()
        return any(candidate.is_relative_to(root.resolve()) for root in roots)

    def watch_loop(self, batches: Iterable[ChangeBatch]) -> None:
        """Rebuild once per batch of relevant changes (the batches arrive debounced)."""
        for batch in batches:
            if self.stop_event.is_set():
                return
            relevant = sorted(path for change, path in batch if self.is_relevant(change, path))
            if not relevant:
                continue
            if any(self._is_theme_file(path) for path in relevant):
                self._render_cache = RenderCache()  # a template or asset changed: render everything
            shown = ", ".join(relevant[:3]) + (" ..." if len(relevant) > 3 else "")
            self.err.write(f"mcpdesc-docs: changed: {shown}\n")
            self.rebuild()

    def file_changes(self) -> Iterable[ChangeBatch]:
        config = self._config
        ignore = [str(self._workdir)] + ([str(config.site_dir)] if config is not None else [])
        existing = [str(p) for p in self.watch_paths() if p.exists()]
        return watch(
            *existing,
            watch_filter=DefaultFilter(ignore_paths=ignore),
            debounce=150,
            step=30,
            stop_event=self.stop_event,
            raise_interrupt=True,
        )

    # --- HTTP -------------------------------------------------------------------------

    def start_http(self) -> str:
        """Bind and serve in a background thread; returns the URL. A busy port is a UsageError."""
        handler = _handler_for(self)
        try:
            httpd = _LocalHTTPServer((self.host, self.port), handler)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise UsageError(
                    f"port {self.port} on {self.host} is already in use; choose another with --port"
                ) from None
            raise UsageError(f"cannot listen on {self.host}:{self.port}: {exc.strerror}") from None
        httpd.daemon_threads = True
        self._httpd = httpd
        self.port = httpd.server_address[1]
        self._http_thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
        self._http_thread.start()
        return self.url

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    def close(self) -> None:
        self.stop_event.set()
        with self._lock:
            self._lock.notify_all()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._http_thread is not None:
            self._http_thread.join(timeout=1)
        shutil.rmtree(self._workdir, ignore_errors=True)

    def resolve_request(self, raw_path: str) -> tuple[Path | None, Path | None]:
        """(file to send or None, the served root). Never a file outside the root."""
        root = self.site_root
        if root is None:
            return None, None
        relative = safe_request_path(raw_path)
        if relative is None:
            return None, root
        candidate = root / relative
        if candidate.is_dir():
            candidate = candidate / "index.html"
        try:
            resolved = candidate.resolve(strict=True)
        except (OSError, RuntimeError):
            return None, root
        if not resolved.is_relative_to(root.resolve()) or not resolved.is_file():
            return None, root
        return resolved, root

    def decorate(self, html: bytes) -> bytes:
        """Serve-time additions to a page: the reload script, and the problems banner."""
        problems = self.problems
        banner = self._overlay.get_template("overlay.html").render(**self._overlay_context(problems))
        marker = b"</body>"
        position = html.rfind(marker)
        addition = banner.encode("utf-8")
        if position < 0:
            return html + addition
        return html[:position] + addition + html[position:]

    def no_site_page(self) -> bytes:
        return self._overlay.get_template("no_site.html").render(**self._overlay_context(self.problems)).encode("utf-8")

    def _overlay_context(self, problems: Problems | None) -> dict[str, object]:
        return {
            "problems": problems,
            "token": self.state_token,
            "events_path": EVENTS_PATH,
            "assets_path": ASSETS_PATH,
            "script_path": ASSETS_PATH + "livereload.js",
        }

    def serve_asset(self, name: str) -> tuple[bytes, str] | None:
        if name not in _SERVE_ASSETS:
            return None
        return (builtin_dir("templates") / "serve" / name).read_bytes(), _SERVE_ASSETS[name]


class _LocalHTTPServer(ThreadingHTTPServer):
    def server_bind(self) -> None:
        # HTTPServer.server_bind looks up the host's fully qualified name, which can mean a
        # DNS query; the preview server never needs it and never talks to the network.
        self.socket.bind(self.server_address)
        self.server_address = self.socket.getsockname()[:2]
        self.server_name = str(self.server_address[0])
        self.server_port = int(self.server_address[1])


def safe_request_path(raw_path: str) -> str | None:
    """The site-relative path of a request, or None when it tries to leave the site."""
    path = unquote(urlsplit(raw_path).path, errors="strict")
    if "\x00" in path or "\\" in path:
        return None
    segments = [segment for segment in path.split("/") if segment not in ("", ".")]
    if any(segment == ".." for segment in segments):
        return None
    relative = posixpath.join(*segments) if segments else ""
    return relative or "index.html"


def _handler_for(server: DevServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "mcpdesc-docs"
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            log.debug("%s - %s", self.address_string(), format % args)

        def do_HEAD(self) -> None:
            self._respond(send_body=False)

        def do_GET(self) -> None:
            path = urlsplit(self.path).path
            if path == EVENTS_PATH:
                self._stream_events()
                return
            if path.startswith(ASSETS_PATH):
                asset = server.serve_asset(path.removeprefix(ASSETS_PATH))
                if asset is not None:
                    self._send(HTTPStatus.OK, asset[0], asset[1], True)
                    return
            self._respond(send_body=True)

        def _respond(self, *, send_body: bool) -> None:
            try:
                file, root = server.resolve_request(self.path)
            except UnicodeDecodeError:
                file, root = None, server.site_root
            if root is None:
                self._send(HTTPStatus.SERVICE_UNAVAILABLE, server.no_site_page(), "text/html; charset=utf-8", send_body)
                return
            if file is None:
                not_found = root / "404.html"
                body = server.decorate(not_found.read_bytes()) if not_found.is_file() else b"Not found"
                self._send(HTTPStatus.NOT_FOUND, body, "text/html; charset=utf-8", send_body)
                return
            content_type = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
            try:
                body = file.read_bytes()
            except OSError:
                self._send(HTTPStatus.NOT_FOUND, b"Not found", "text/plain; charset=utf-8", send_body)
                return
            if content_type == "text/html":
                body = server.decorate(body)
            if content_type.startswith("text/") or content_type in ("application/javascript", "application/json"):
                content_type += "; charset=utf-8"
            self._send(HTTPStatus.OK, body, content_type, send_body)

        def _send(self, status: HTTPStatus, body: bytes, content_type: str, send_body: bool) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-cache")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.end_headers()
            if send_body:
                self.wfile.write(body)

        def _stream_events(self) -> None:
            query = urlsplit(self.path).query
            token = dict(p.split("=", 1) for p in query.split("&") if "=" in p).get("state", "")
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            try:
                self.wfile.write(b"retry: 500\n\n")
                self.wfile.flush()
                while not server.stop_event.is_set():
                    current = server.wait_for_change(token, _HEARTBEAT_SECONDS)
                    if server.stop_event.is_set():
                        return
                    if current != token:
                        self.wfile.write(f"event: change\ndata: {current}\n\n".encode())
                        self.wfile.flush()
                        return
                    self.wfile.write(b": keep-alive\n\n")
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                return

    return Handler


def serve(
    path: Path,
    *,
    host: str,
    port: int,
    open_browser: bool,
    out: TextIO,
    err: TextIO,
    changes: Callable[[DevServer], Iterable[ChangeBatch]] | None = None,
) -> int:
    """Run until interrupted. ``changes`` replaces the file watcher (tests)."""
    server = DevServer(path, host=host, port=port, out=out, err=err)
    restore = _interrupt_on_signals()
    try:
        server.rebuild()
        url = server.start_http()
        err.write(f"mcpdesc-docs: serving on {url} (Ctrl-C to stop)\n")
        err.flush()
        if open_browser:
            import webbrowser

            webbrowser.open(url)
        source = changes(server) if changes is not None else server.file_changes()
        server.watch_loop(source)
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        restore()
    err.write("mcpdesc-docs: stopped\n")
    return ExitCode.OK


def _interrupt_on_signals() -> Callable[[], None]:
    """Make SIGINT and SIGTERM stop the server the same way, even when the parent process
    started it with SIGINT ignored (as shells do for background jobs). Returns an undo."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = {sig: signal.signal(sig, interrupt) for sig in (signal.SIGINT, signal.SIGTERM)}

    def restore() -> None:
        for sig, handler in previous.items():
            signal.signal(sig, handler)

    return restore


__all__ = ["EVENTS_PATH", "DevServer", "Problems", "safe_request_path", "serve"]
