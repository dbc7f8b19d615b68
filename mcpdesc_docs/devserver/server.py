"""The preview server: rebuild on change, serve the last good site, reload browsers.

One ``DevServer`` owns all state. ``_lock`` (a Condition) guards ``_site``, ``_epoch``,
``_failures`` and ``_failure``; everything else is set once in ``__init__``. The site is
served from memory, as the builder returned it: nothing is written, so a rebuild costs no
disk work and a request can only ever get one of the site's own files. Only a successful
build becomes the served site (a reference swap under the lock), so a broken edit never
replaces the last good one. Browsers learn about changes through Server-Sent Events and
reload themselves.
"""

from __future__ import annotations

import errno
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TextIO

from ..diagnostics import write_line
from ..errors import ExitCode, UsageError
from . import overlay
from .builder import Builder, Rebuild
from .handler import LocalHTTPServer, handler_for, safe_request_path
from .tidy import TIDY_AFTER_SECONDS, HeapTidier
from .watch import ChangeBatch, ChangeFilter, file_changes


class DevServer:
    def __init__(
        self,
        builder: Builder,
        *,
        host: str = "127.0.0.1",
        port: int = 8000,
        err: TextIO,
        tidy_after: float = TIDY_AFTER_SECONDS,
    ) -> None:
        self.builder = builder
        self.host = host
        self.port = port
        self.err = err
        self.stop_event = threading.Event()
        self._lock = threading.Condition()
        self._site: Mapping[str, bytes] | None = None
        self._epoch = 0
        """Successful builds so far."""
        self._failures = 0
        """Failed builds so far; with the epoch it makes the state token browsers compare."""
        self._failure: Rebuild | None = None
        """Why the last build failed; None after a good one."""
        self._httpd: LocalHTTPServer | None = None
        self._http_thread: threading.Thread | None = None
        self._building = threading.Lock()
        """Held by a rebuild (and by a heap tidy, which then waits for the next one)."""
        self.tidier = HeapTidier(self._building, tidy_after)

    # --- state ------------------------------------------------------------------------

    @property
    def state_token(self) -> str:
        with self._lock:
            return f"{self._epoch}.{self._failures}"

    @property
    def problems(self) -> Rebuild | None:
        """The last build, when it failed."""
        with self._lock:
            return self._failure

    @property
    def site_files(self) -> Mapping[str, bytes] | None:
        """The served site (site-relative POSIX path -> content); None before a good build."""
        with self._lock:
            return self._site

    @property
    def stopping(self) -> bool:
        return self.stop_event.is_set()

    def rebuild(self, changed: Sequence[str] = ()) -> bool:
        """Build once; on success swap the served site, on failure keep it and record why."""
        try:
            with self._building:
                return self._rebuild(changed)
        finally:
            self.tidier.schedule()

    def _rebuild(self, changed: Sequence[str]) -> bool:
        started = time.perf_counter()
        try:
            result = self.builder.build(changed)
        except Exception as exc:  # noqa: BLE001 - a builder's bug must not stop the preview
            result = Rebuild(None, message=f"internal error: {type(exc).__name__}: {exc}")
            write_line(self.err, f"mcpdesc-docs: {result.message}")
        if result.files is None:
            return self._record_failure(result)
        with self._lock:
            self._site = result.files
            self._epoch += 1
            self._failure = None
            self._lock.notify_all()
        elapsed = time.perf_counter() - started
        write_line(self.err, f"mcpdesc-docs: built {result.pages} pages in {elapsed:.2f} s")
        return True

    def _record_failure(self, result: Rebuild) -> bool:
        with self._lock:
            self._failures += 1
            self._failure = result
            self._lock.notify_all()
        write_line(self.err, "mcpdesc-docs: rebuild failed; still serving the last good site")
        return False

    def wait_for_change(self, token: str, timeout: float) -> str:
        """Block until the state token differs from ``token``, the timeout passes, or the
        server stops. Returns the current token. Waiters sleep until a rebuild or ``close``
        notifies them (both change what they wait on under the lock, so no wake-up is
        lost): an idle stream costs no CPU however many are open."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while f"{self._epoch}.{self._failures}" == token and not self.stop_event.is_set():
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                self._lock.wait(remaining)
            return f"{self._epoch}.{self._failures}"

    # --- watching ---------------------------------------------------------------------

    def change_filter(self) -> ChangeFilter:
        """What counts as a change now (the builder's output moves when its config does)."""
        return ChangeFilter(self.builder.watch_paths(), self.builder.ignore_paths())

    def watch_loop(self, batches: Iterable[ChangeBatch]) -> None:
        """Rebuild once per batch of relevant changes (the batches arrive debounced)."""
        for batch in batches:
            if self.stop_event.is_set():
                return
            relevant = self.change_filter().relevant(batch)
            if not relevant:
                continue
            shown = ", ".join(relevant[:3]) + (" ..." if len(relevant) > 3 else "")
            write_line(self.err, f"mcpdesc-docs: changed: {shown}")
            self.rebuild(relevant)

    def file_changes(self) -> Iterable[ChangeBatch]:
        return file_changes(self.builder.watch_paths(), self.stop_event)

    def until_unwatchable(self, batches: Iterable[ChangeBatch]) -> Iterator[ChangeBatch]:
        """The batches until the watcher fails (the system's limit on watches reached, a
        watched directory gone): then the site is served as it is until serve is stopped,
        rather than the preview ending with the error."""
        try:
            yield from batches
        except OSError as exc:
            write_line(self.err, f"mcpdesc-docs: cannot watch for changes: {exc}; serving the site as it is")
            self.stop_event.wait()

    # --- HTTP -------------------------------------------------------------------------

    def start_http(self) -> str:
        """Bind and serve in a background thread; returns the URL. A busy port is a UsageError."""
        try:
            httpd = LocalHTTPServer((self.host, self.port), handler_for(self))
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
        self.tidier.close()

    def resolve_request(self, raw_path: str) -> tuple[str | None, Mapping[str, bytes] | None]:
        """(the site-relative path of the file to send, or None; the served site, or None
        before a good build). A directory's path names its ``index.html``."""
        site = self.site_files
        if site is None:
            return None, None
        relative = safe_request_path(raw_path)
        if relative is None:
            return None, site
        if relative in site:
            return relative, site
        index = relative + "/index.html"
        return (index if index in site else None), site

    def decorate(self, html: bytes) -> bytes:
        return overlay.decorate(html, self.problems, self.state_token)

    def no_site_page(self) -> bytes:
        return overlay.no_site_page(self.problems, self.state_token)


def serve(
    builder: Builder,
    *,
    host: str,
    port: int,
    open_browser: bool,
    err: TextIO,
    changes: Callable[[DevServer], Iterable[ChangeBatch]] | None = None,
) -> int:
    """Build, serve and rebuild until interrupted. ``changes`` replaces the file watcher (tests)."""
    server = DevServer(builder, host=host, port=port, err=err)
    restore = _interrupt_on_signals()
    try:
        server.rebuild()
        url = server.start_http()
        write_line(err, f"mcpdesc-docs: serving on {url} (Ctrl-C to stop)")
        err.flush()
        if open_browser:
            import webbrowser

            webbrowser.open(url)
        source = changes(server) if changes is not None else server.file_changes()
        server.watch_loop(server.until_unwatchable(source))
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        restore()
    write_line(err, "mcpdesc-docs: stopped")
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


__all__ = ["DevServer", "serve"]
