"""HTTP for the dev server: loopback only, nothing outside the served site, Server-Sent
Events for reloads. The handler asks the server for files and state; it holds none."""

from __future__ import annotations

import ipaddress
import logging
import mimetypes
import posixpath
import socket
import threading
from collections.abc import Mapping
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Protocol
from urllib.parse import unquote, urlsplit

from .overlay import ASSETS_PATH, EVENTS_PATH, serve_asset

log = logging.getLogger(__name__)

_HEARTBEAT_SECONDS = 15.0
_CONNECTION_TIMEOUT_SECONDS = 30.0
MAX_EVENT_STREAMS = 64
"""Reload streams open at once; each holds a thread. A browser opens at most six
connections to one host over HTTP/1.1, so this serves a handful of browsers with many
tabs, while a client opening thousands gets 503 instead of a thread each."""


class Served(Protocol):
    """What a request handler needs from the server."""

    host: str
    port: int

    @property
    def stopping(self) -> bool: ...

    @property
    def site_files(self) -> Mapping[str, bytes] | None: ...

    def resolve_request(self, raw_path: str) -> tuple[str | None, Mapping[str, bytes] | None]: ...

    def decorate(self, html: bytes) -> bytes: ...

    def no_site_page(self) -> bytes: ...

    def wait_for_change(self, token: str, timeout: float) -> str: ...


def rooted(page: bytes) -> bytes:
    """The 404 page as sent for any missing path, however deep: its links are relative to
    the site root, where serve serves the site (a build knows the root only from
    ``site_url``, and then the page has its ``<base>`` already)."""
    if b"<base " in page:
        return page
    return page.replace(b"<head>", b'<head>\n<base href="/">', 1)


class LocalHTTPServer(ThreadingHTTPServer):
    def server_bind(self) -> None:
        # HTTPServer.server_bind looks up the host's fully qualified name, which can mean a
        # DNS query; the preview server never needs it and never talks to the network. It
        # keeps the base class's SO_REUSEADDR, though: without it a restart on the same port
        # fails while the last run's closed connections linger in TIME_WAIT (about a minute).
        # Linux still refuses the port while another socket listens on it.
        if self.allow_reuse_address:
            self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
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


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def host_allowed(header: str | None, bound_host: str, port: int) -> bool:
    """Whether a request's Host header names this server. Bound to loopback (the default),
    only loopback names with our port pass, so a page elsewhere cannot reach the preview
    through a DNS name it rebinds to 127.0.0.1. Bound beyond loopback, the user chose to
    trust the network and any Host is served."""
    if not is_loopback(bound_host):
        return True
    if not header:
        return False
    name, port_text = header, ""
    if ":" in header and not header.endswith("]"):  # "[::1]" alone has colons but no port
        name, _, port_text = header.rpartition(":")
    if not name or (port_text and not port_text.isdigit()):
        return False
    return is_loopback(name) and int(port_text or 80) == port


def handler_for(server: Served) -> type[BaseHTTPRequestHandler]:
    stream_slots = threading.BoundedSemaphore(MAX_EVENT_STREAMS)

    class Handler(BaseHTTPRequestHandler):
        server_version = "mcpdesc-docs"
        protocol_version = "HTTP/1.1"
        timeout = _CONNECTION_TIMEOUT_SECONDS
        """A client that stops sending mid-request does not hold a thread forever."""

        def _host_refused(self) -> bool:
            if host_allowed(self.headers.get("Host"), server.host, server.port):
                return False
            self._send(HTTPStatus.FORBIDDEN, b"Host not allowed\n", "text/plain; charset=utf-8", True)
            return True

        def log_message(self, format: str, *args: object) -> None:
            log.debug("%s - %s", self.address_string(), format % args)

        def do_HEAD(self) -> None:
            if not self._host_refused():
                self._respond(send_body=False)

        def do_GET(self) -> None:
            if self._host_refused():
                return
            path = urlsplit(self.path).path
            if path == EVENTS_PATH:
                if not stream_slots.acquire(blocking=False):
                    busy = b"Too many reload streams\n"
                    self._send(HTTPStatus.SERVICE_UNAVAILABLE, busy, "text/plain; charset=utf-8", True, close=True)
                    return
                try:
                    self._stream_events()
                finally:
                    stream_slots.release()
                return
            if path.startswith(ASSETS_PATH):
                asset = serve_asset(path.removeprefix(ASSETS_PATH))
                if asset is not None:
                    self._send(HTTPStatus.OK, asset[0], asset[1], True)
                    return
            self._respond(send_body=True)

        def _respond(self, *, send_body: bool) -> None:
            try:
                path, site = server.resolve_request(self.path)
            except UnicodeDecodeError:
                path, site = None, server.site_files
            if site is None:
                self._send(HTTPStatus.SERVICE_UNAVAILABLE, server.no_site_page(), "text/html; charset=utf-8", send_body)
                return
            if path is None:
                not_found = site.get("404.html")
                body = server.decorate(rooted(not_found)) if not_found is not None else b"Not found"
                self._send(HTTPStatus.NOT_FOUND, body, "text/html; charset=utf-8", send_body)
                return
            content_type = mimetypes.guess_type(path)[0] or "application/octet-stream"
            body = site[path]
            if content_type == "text/html":
                body = server.decorate(body)
            if content_type.startswith("text/") or content_type in ("application/javascript", "application/json"):
                content_type += "; charset=utf-8"
            self._send(HTTPStatus.OK, body, content_type, send_body)

        def _send(
            self, status: HTTPStatus, body: bytes, content_type: str, send_body: bool, *, close: bool = False
        ) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-cache")
            self.send_header("X-Content-Type-Options", "nosniff")
            if close:
                self.send_header("Connection", "close")  # which also ends this connection here
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
                while not server.stopping:
                    current = server.wait_for_change(token, _HEARTBEAT_SECONDS)
                    if server.stopping:
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
