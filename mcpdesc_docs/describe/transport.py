"""The two MCP transports, as plain bounded byte streams: a started command's standard
input and output (stdio), and HTTP POSTs to one URL (streamable HTTP).

Written on the standard library rather than with the SDK's clients, because ``describe``
must see what the server sent before anything validates it (a slightly non-conformant
server is still described), and must bound what it reads: the SDK's clients buffer a
whole response, however long, and validate it into models that drop what they do not
know. Each transport yields the JSON-RPC messages the server sends back, parsed, each at
most ``limits.max_bytes`` long and all together within the same budget.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import queue
import signal
import subprocess
import threading
from collections.abc import Iterator, Mapping
from typing import IO, Any, Protocol
from urllib.parse import urlsplit

from .budget import Budget, DescribeError

_STDERR_TAIL_BYTES = 16 * 1024
_STDERR_LINES = 5
_ERROR_BODY_BYTES = 64 * 1024
_GRACE_SECONDS = 0.25
"""How long a server gets to exit on its own, and then on SIGTERM, before SIGKILL."""
_REAP_SECONDS = 2.0
_CHUNK = 64 * 1024

Message = dict[str, Any]


class HttpRefusal(DescribeError):
    """The server answered a POST with an HTTP error status and no JSON-RPC answer."""

    def __init__(self, status: int, body: str) -> None:
        shown = " ".join(body.split())[:200]
        super().__init__(f"the server answered HTTP {status}" + (f": {shown}" if shown else ""))


class Transport(Protocol):
    headers: dict[str, str]
    """Headers the session adds to every HTTP request (protocol version, method); unused by stdio."""

    def exchange(self, message: Message) -> Iterator[Message]:
        """Send a request; yield what the server sends until the caller has its answer."""
        ...

    def post(self, message: Message) -> None:
        """Send a notification or an answer to the server's own request."""
        ...

    def close(self) -> None: ...

    def stderr_lines(self) -> tuple[str, ...]: ...


def parse_messages(raw: bytes, what: str) -> list[Message]:
    """One JSON-RPC message (or a batch of them) from the server's bytes."""
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        raise DescribeError(f"the server does not speak MCP: what it wrote {what} is not JSON-RPC") from None
    values = value if isinstance(value, list) else [value]
    if not all(isinstance(v, dict) for v in values):
        raise DescribeError(f"the server does not speak MCP: what it wrote {what} is not a JSON-RPC message")
    return values


# --- stdio -------------------------------------------------------------------------------


class _StderrTail(threading.Thread):
    """Reads the server's standard error as it comes, keeping only its last 16 KiB."""

    def __init__(self, stream: IO[bytes]) -> None:
        super().__init__(daemon=True, name="describe-stderr")
        self.stream = stream
        self.tail = bytearray()
        self.lock = threading.Lock()

    def run(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            read = getattr(self.stream, "read1", self.stream.read)
            while chunk := read(_CHUNK):
                with self.lock:
                    self.tail += chunk
                    del self.tail[:-_STDERR_TAIL_BYTES]

    def lines(self) -> tuple[str, ...]:
        with self.lock:
            text = bytes(self.tail).decode("utf-8", errors="replace")
        return tuple(line for line in text.splitlines() if line.strip())[-_STDERR_LINES:]


class _End:
    """The server closed its standard output."""


class _TooLong:
    def __init__(self, cap: int) -> None:
        self.cap = cap


class _LineReader(threading.Thread):
    """Reads newline-delimited messages, each at most ``cap`` bytes, at most ``total`` in all."""

    def __init__(self, stream: IO[bytes], cap: int, total: int) -> None:
        super().__init__(daemon=True, name="describe-stdout")
        self.stream = stream
        self.cap = cap
        self.total = total
        self.lines: queue.Queue[bytes | _End | _TooLong] = queue.Queue()

    def run(self) -> None:
        read = 0
        try:
            while True:
                line = self.stream.readline(self.cap + 1)
                if not line:
                    break
                read += len(line)
                if len(line) > self.cap or read > self.total:
                    self.lines.put(_TooLong(self.cap if len(line) > self.cap else self.total))
                    return  # stop reading: the pipe fills and the server blocks until it is ended
                self.lines.put(line)
        except (OSError, ValueError):
            pass
        self.lines.put(_End())


class StdioTransport:
    """A server started as a command, in a session (and process group) of its own, so that
    it and every process it starts end together when describing is done."""

    def __init__(
        self, command: tuple[str, ...], budget: Budget, env: Mapping[str, str] | None = None, *, cwd: str | None = None
    ) -> None:
        self.headers: dict[str, str] = {}
        self.budget = budget
        try:
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                env=dict(env) if env is not None else None,
                cwd=cwd,
            )
        except FileNotFoundError:
            if cwd is not None and not os.path.isdir(cwd):
                raise DescribeError("no such directory to start the command in (cwd)") from None
            raise DescribeError("no such command") from None
        except PermissionError:
            raise DescribeError("the command cannot be run (permission denied)") from None
        except OSError as exc:
            raise DescribeError(f"the command cannot be started ({exc.strerror or exc})") from None
        except ValueError:
            # A NUL character in the command, an argument or the environment.
            raise DescribeError("the command cannot be started (a NUL character in it or its environment)") from None
        assert self.process.stdout is not None
        assert self.process.stderr is not None
        self.stderr = _StderrTail(self.process.stderr)
        self.stderr.start()
        self.reader = _LineReader(self.process.stdout, budget.max_message_bytes, budget.bytes_left())
        self.reader.start()

    def _write(self, message: Message) -> None:
        assert self.process.stdin is not None
        data = json.dumps(message, separators=(",", ":")).encode() + b"\n"
        try:
            self.process.stdin.write(data)
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise DescribeError("the server closed the connection before answering (did it exit?)") from None

    def _next(self) -> list[Message]:
        while True:
            try:
                line = self.reader.lines.get(timeout=min(self.budget.remaining(), 0.5))
            except queue.Empty:
                continue
            if isinstance(line, _End):
                raise DescribeError("the server closed the connection before answering (did it exit?)")
            if isinstance(line, _TooLong):
                raise DescribeError(
                    f"the server sent more than {line.cap:,} bytes (limits.max_bytes, the most a description may hold)"
                )
            self.budget.take(len(line))
            if line.strip():
                return parse_messages(line, "on standard output")

    def exchange(self, message: Message) -> Iterator[Message]:
        self._write(message)
        while True:
            yield from self._next()

    def post(self, message: Message) -> None:
        self._write(message)

    def stderr_lines(self) -> tuple[str, ...]:
        return self.stderr.lines()

    def close(self) -> None:
        """End the server and everything it started: close its input (a well-behaved server
        exits), then end its whole process group, whether or not the server is still there
        (its children may be)."""
        process = self.process
        with contextlib.suppress(OSError, ValueError):
            if process.stdin is not None:
                process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=_GRACE_SECONDS)
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(process.pid, sig)
            except (ProcessLookupError, PermissionError):
                break
            if sig == signal.SIGTERM:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=_GRACE_SECONDS)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=_REAP_SECONDS)
        self.reader.join(timeout=_REAP_SECONDS)
        self.stderr.join(timeout=_REAP_SECONDS)
        for stream in (process.stdout, process.stderr):
            with contextlib.suppress(OSError, ValueError):
                if stream is not None:
                    stream.close()


# --- streamable HTTP ------------------------------------------------------------------------


class HttpTransport:
    """POSTs to the one URL the user named; never follows a redirect elsewhere."""

    SESSION_HEADER = "mcp-session-id"

    def __init__(self, url: str, user_headers: Mapping[str, str], budget: Budget) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise DescribeError("--url must be an http:// or https:// URL")
        self.scheme = parts.scheme
        self.host = parts.hostname
        try:
            self.port = parts.port
        except ValueError:
            raise DescribeError("--url has an invalid port") from None
        self.path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        self.user_headers = dict(user_headers)
        self.budget = budget
        self.headers: dict[str, str] = {}
        self.session_id: str | None = None

    def _connection(self) -> http.client.HTTPConnection:
        kind = http.client.HTTPSConnection if self.scheme == "https" else http.client.HTTPConnection
        return kind(self.host, self.port, timeout=self.budget.remaining())

    def _request(self, method: str, body: bytes | None) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
        headers = {**self.user_headers, **self.headers}
        headers["Accept"] = "application/json, text/event-stream"
        if body is not None:
            headers["Content-Type"] = "application/json"
        if self.session_id is not None:
            headers[self.SESSION_HEADER] = self.session_id
        connection = self._connection()
        try:
            connection.request(method, self.path, body=body, headers=headers)
            response = connection.getresponse()
        except ConnectionRefusedError:
            connection.close()
            raise DescribeError("nothing answered at that address (the connection was refused)") from None
        except TimeoutError:
            connection.close()
            self.budget.remaining()
            raise DescribeError("the HTTP exchange timed out") from None
        except (OSError, http.client.HTTPException) as exc:
            connection.close()
            raise DescribeError(f"the HTTP exchange failed ({type(exc).__name__}: {exc})"[:300]) from None
        except ValueError:
            # http.client refuses a header that would break the request, quoting it: not said,
            # since headers carry credentials.
            connection.close()
            raise DescribeError("the HTTP request cannot be sent (a header name or value it cannot carry)") from None
        session = response.getheader(self.SESSION_HEADER)
        if session and self.session_id is None:
            self.session_id = session[:1024]
        return connection, response

    def _read(self, response: http.client.HTTPResponse, size: int) -> bytes:
        """Up to ``size`` bytes of the body, the socket's timeout the time left."""
        self._set_timeout(response)
        try:
            return response.read(size)
        except TimeoutError:
            self.budget.remaining()
            raise DescribeError("the HTTP exchange timed out") from None
        except (OSError, http.client.HTTPException) as exc:
            raise DescribeError(f"the HTTP response broke off ({type(exc).__name__})") from None

    def _set_timeout(self, response: http.client.HTTPResponse) -> None:
        sock = getattr(getattr(response, "fp", None), "raw", None)
        sock = getattr(sock, "_sock", None)
        if sock is not None:
            sock.settimeout(self.budget.remaining())

    def _body(self, response: http.client.HTTPResponse, cap: int) -> bytes:
        """The whole body, refused once it grows past ``cap`` (read in chunks, never whole)."""
        length = response.getheader("content-length")
        if length is not None and length.isdigit() and int(length) > cap:
            raise self._too_long(cap)
        chunks: list[bytes] = []
        size = 0
        while chunk := self._read(response, _CHUNK):
            size += len(chunk)
            if size > cap:
                raise self._too_long(cap)
            self.budget.take(len(chunk))
            chunks.append(chunk)
        return b"".join(chunks)

    def _too_long(self, cap: int) -> DescribeError:
        return DescribeError(
            f"the server sent more than {cap:,} bytes (limits.max_bytes, the most a description may hold)"
        )

    def _events(self, response: http.client.HTTPResponse) -> Iterator[Message]:
        """Server-sent events, each ``data`` at most one message's size."""
        cap = self.budget.max_message_bytes
        data: list[bytes] = []
        size = 0
        while True:
            self._set_timeout(response)
            try:
                line = response.readline(cap + 2)
            except TimeoutError:
                self.budget.remaining()
                raise DescribeError("the HTTP exchange timed out") from None
            except (OSError, http.client.HTTPException) as exc:
                raise DescribeError(f"the HTTP event stream broke off ({type(exc).__name__})") from None
            if not line:
                return
            self.budget.take(len(line))
            stripped = line.rstrip(b"\r\n")
            if not stripped:
                event = b"\n".join(data)
                # An event with no data (a stream's priming event, for resumption) carries no message.
                if event.strip():
                    yield from parse_messages(event, "in its event stream")
                data, size = [], 0
                continue
            if len(line) > cap:
                raise self._too_long(cap)
            if stripped.startswith(b"data:"):
                value = stripped[5:]
                value = value[1:] if value.startswith(b" ") else value
                size += len(value)
                if size > cap:
                    raise self._too_long(cap)
                data.append(value)

    def _messages(self, response: http.client.HTTPResponse) -> Iterator[Message]:
        kind = (response.getheader("content-type") or "").split(";")[0].strip().lower()
        if response.status == 202:
            return
        if response.status >= 400:
            body = self._read(response, _ERROR_BODY_BYTES)
            self.budget.take(len(body))
            try:
                answer = json.loads(body)
            except (ValueError, RecursionError):
                answer = None
            if isinstance(answer, dict) and "error" in answer:
                yield answer
                return
            raise HttpRefusal(response.status, body.decode("utf-8", errors="replace"))
        if kind == "text/event-stream":
            yield from self._events(response)
        elif kind == "application/json":
            yield from parse_messages(self._body(response, self.budget.max_message_bytes), "over HTTP")
        elif 300 <= response.status < 400:
            raise DescribeError(
                f"the server answered HTTP {response.status} (a redirect, which describe does not follow)"
            )
        else:
            raise DescribeError(
                f"the server answered HTTP {response.status} with {kind or 'no content type'}, not JSON-RPC"
            )

    def exchange(self, message: Message) -> Iterator[Message]:
        connection, response = self._request("POST", json.dumps(message).encode())
        try:
            yield from self._messages(response)
        finally:
            connection.close()

    def post(self, message: Message) -> None:
        connection, response = self._request("POST", json.dumps(message).encode())
        try:
            for _ in self._messages(response):
                pass  # a server may answer a notification with a stream; what it says is not needed
        finally:
            connection.close()

    def stderr_lines(self) -> tuple[str, ...]:
        return ()

    def close(self) -> None:
        """End the server's session, where it keeps one (a server that does not let clients
        end sessions answers 405, which is fine)."""
        if self.session_id is None:
            return
        with contextlib.suppress(DescribeError):
            connection, response = self._request("DELETE", None)
            connection.close()
            del response
        self.session_id = None
