"""Starting an HTTP server the tests talk to: a free loopback port, and ready once it accepts."""

from __future__ import annotations

import functools
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from http.server import BaseHTTPRequestHandler, SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def http_server(
    command: Callable[[int], list[str]], env: Callable[[int], Mapping[str, str]] | None = None
) -> Iterator[str]:
    """``command(port)`` (with ``env(port)``) started and listening on 127.0.0.1; yields its
    ``/mcp`` URL, and ends it."""
    port = free_port()
    process = subprocess.Popen(
        command(port),
        env=dict(env(port)) if env is not None else None,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        # Ready once it accepts a connection (each try is refused at once until then).
        for _ in range(3000):
            with socket.socket() as client:
                if client.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert process.poll() is None, "the HTTP server exited"
            time.sleep(0.02)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.kill()
        process.wait(timeout=30)


@contextmanager
def serving_in_thread(handler: Callable[..., BaseHTTPRequestHandler]) -> Iterator[str]:
    """An HTTP server on a free loopback port, answering with ``handler`` from a thread of
    this process until the block ends: its root URL (``http://127.0.0.1:PORT/``)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class QuietDirectoryHandler(SimpleHTTPRequestHandler):
    """Serves a directory (``functools.partial(QuietDirectoryHandler, directory=...)``),
    logging nothing."""

    def log_message(self, format: str, *args: object) -> None:
        pass


def serving_directory(directory: Path) -> AbstractContextManager[str]:
    """``directory`` served over loopback HTTP (``serving_in_thread``)."""
    return serving_in_thread(functools.partial(QuietDirectoryHandler, directory=str(directory)))
