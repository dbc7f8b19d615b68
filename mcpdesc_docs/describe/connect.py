"""Connecting to the server with the official MCP SDK and listing what it serves.

Every protocol version the SDK knows is tried: the handshake versions newest first, by
repeating ``initialize`` with each on one connection (the SDK's servers answer every one;
the last fixes the connection's version), then 2026-07-28 with ``server/discover`` on a
connection of its own (a connection that answered one refuses the other). Listing runs on
the handshake connection at its newest accepted version, or on the discover connection
when the server speaks only that era. For stdio, that is the command started twice.
"""

from __future__ import annotations

import logging
import shlex
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, TextIO

import anyio
import httpx2
import mcp_types as types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS

from .. import __version__
from ..errors import UsageError
from ..spec.revisions import REVISIONS

CLIENT = types.Implementation(name="mcpdesc-docs", version=__version__)
_STDERR_LINES = 5
# A listing longer than this many pages is a server that never stops paginating.
_MAX_PAGES = 1000
_STREAMABLE_HTTP_FLOOR = "2025-03-26"


class DescribeError(UsageError):
    """The server could not be described (exit 2): one sentence saying why, and the last
    lines the server wrote to its standard error (stdio), which the command prints after."""

    def __init__(self, sentence: str, stderr_lines: tuple[str, ...] = ()) -> None:
        super().__init__(sentence)
        self.stderr_lines = stderr_lines


@dataclass(frozen=True, slots=True)
class Target:
    """The server the user named: a command to start, or a URL to connect to."""

    command: tuple[str, ...] = ()
    url: str | None = None
    headers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_options(cls, stdio: str | None, url: str | None, headers: list[str]) -> Target:
        if stdio is not None:
            try:
                command = tuple(shlex.split(stdio))
            except ValueError as exc:
                raise UsageError(f"--stdio: {exc}") from None
            if not command:
                raise UsageError("--stdio needs a command")
            return cls(command=command)
        assert url is not None
        parsed: dict[str, str] = {}
        for header in headers:
            name, colon, value = header.partition(":")
            if not colon or not name.strip():
                raise UsageError(f"--header {header!r} is not 'Name: value'")
            parsed[name.strip()] = value.strip()
        return cls(url=url, headers=parsed)

    def transport(self) -> dict[str, Any]:
        """The transport declaration: the command and arguments as given, or the URL."""
        if self.url is not None:
            return {"type": "streamable-http", "url": self.url}
        declaration: dict[str, Any] = {"type": "stdio", "command": self.command[0]}
        if len(self.command) > 1:
            declaration["args"] = list(self.command[1:])
        return declaration

    @property
    def label(self) -> str:
        return self.url if self.url is not None else shlex.join(self.command)


@dataclass(slots=True)
class Listing:
    """What the server said, as JSON data (camelCase, as on the wire)."""

    versions: list[str] = field(default_factory=list)
    """Every protocol version the server accepted, oldest first."""
    capabilities: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Protocol version -> the capabilities the server declared at it."""
    server_info: dict[str, Any] = field(default_factory=dict)
    instructions: str | None = None
    tools: list[dict[str, Any]] = field(default_factory=list)
    resources: list[dict[str, Any]] = field(default_factory=list)
    resource_templates: list[dict[str, Any]] = field(default_factory=list)
    prompts: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    """Versions the server accepted that the transport cannot carry (said, not recorded)."""


def _wire(model: Any) -> dict[str, Any]:
    data: dict[str, Any] = model.model_dump(by_alias=True, mode="json", exclude_none=True)
    return data


class _Watch:
    """Notices a transport fault (output that is not JSON-RPC, a refused connection) and
    ends the wait for an answer that will never come."""

    def __init__(self) -> None:
        self.scope = anyio.CancelScope()
        self.fault: Exception | None = None

    async def handler(self, message: object) -> None:
        if isinstance(message, Exception) and self.fault is None:
            self.fault = message
            self.scope.cancel()


async def _pages(fetch: Callable[[str | None], Awaitable[Any]], member: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    cursor: str | None = None
    for _ in range(_MAX_PAGES):
        page = await fetch(cursor)
        items.extend(_wire(item) for item in getattr(page, member))
        cursor = page.next_cursor
        if not cursor:
            return items
    raise DescribeError(f"the server kept paginating {member} past {_MAX_PAGES} pages")


async def _list_all(session: ClientSession, capabilities: dict[str, Any], listing: Listing) -> None:
    def params(cursor: str | None) -> types.PaginatedRequestParams | None:
        return types.PaginatedRequestParams(cursor=cursor) if cursor else None

    if "tools" in capabilities:
        listing.tools = await _pages(lambda c: session.list_tools(params=params(c)), "tools")
    if "resources" in capabilities:
        listing.resources = await _pages(lambda c: session.list_resources(params=params(c)), "resources")
        listing.resource_templates = await _pages(
            lambda c: session.list_resource_templates(params=params(c)), "resource_templates"
        )
    if "prompts" in capabilities:
        listing.prompts = await _pages(lambda c: session.list_prompts(params=params(c)), "prompts")


async def _initialize(session: ClientSession, version: str) -> types.InitializeResult:
    request = types.InitializeRequest(
        params=types.InitializeRequestParams(
            protocol_version=version, capabilities=types.ClientCapabilities(), client_info=CLIENT
        )
    )
    return await session.send_request(request, types.InitializeResult)


async def _handshake(session: ClientSession, listing: Listing) -> bool:
    """Try each handshake version; list at the newest accepted. False when none was."""
    accepted: list[types.InitializeResult] = []
    for version in reversed(HANDSHAKE_PROTOCOL_VERSIONS):
        try:
            result = await _initialize(session, version)
        except MCPError:
            if not accepted:
                raise
            break  # a server that takes one initialize per connection: what it took stands
        if result.protocol_version == version:
            accepted.append(result)
            listing.capabilities[version] = _wire(result.capabilities)
        if result.protocol_version not in HANDSHAKE_PROTOCOL_VERSIONS:
            break  # it counter-offers a version of its own: none of ours will do
    if not accepted:
        return False
    newest = accepted[0]
    if result is not newest:
        newest = await _initialize(session, newest.protocol_version)
    session.adopt(newest)
    await session.send_notification(types.InitializedNotification())
    listing.versions.extend(r.protocol_version for r in accepted)
    listing.server_info = _wire(newest.server_info)
    listing.instructions = newest.instructions
    await _list_all(session, listing.capabilities[newest.protocol_version], listing)
    return True


async def _discover(session: ClientSession, listing: Listing, *, list_here: bool) -> None:
    try:
        result = await session.discover()
    except (MCPError, RuntimeError):
        return  # not a 2026-07-28 server
    for version in MODERN_PROTOCOL_VERSIONS:
        if version in result.supported_versions:
            listing.versions.append(version)
            listing.capabilities[version] = _wire(result.capabilities)
    if list_here:
        listing.server_info = _wire(session.server_info) if session.server_info else {}
        listing.instructions = result.instructions
        await _list_all(session, listing.capabilities[session.protocol_version or ""], listing)


@asynccontextmanager
async def _connection(target: Target, errlog: TextIO, timeout: float) -> AsyncIterator[tuple[Any, Any]]:
    if target.url is not None:
        async with (
            httpx2.AsyncClient(headers=target.headers, timeout=httpx2.Timeout(timeout)) as client,
            streamable_http_client(target.url, http_client=client) as streams,
        ):
            yield streams
    else:
        server = StdioServerParameters(command=target.command[0], args=list(target.command[1:]))
        async with stdio_client(server, errlog=errlog) as streams:
            yield streams


async def _session(
    target: Target, errlog: TextIO, timeout: float, work: Callable[[ClientSession], Awaitable[Any]]
) -> Any:
    watch = _Watch()
    with watch.scope:
        async with (
            _connection(target, errlog, timeout) as (read, write),
            ClientSession(read, write, client_info=CLIENT, message_handler=watch.handler) as session,
        ):
            return await work(session)
    raise _fault(watch.fault)


def _fault(fault: Exception | None) -> DescribeError:
    if isinstance(fault, httpx2.ConnectError | OSError):
        return DescribeError("nothing answered at that address (the connection was refused)")
    if isinstance(fault, ValueError):
        return DescribeError("the server does not speak MCP: what it wrote is not JSON-RPC")
    return DescribeError(f"the connection failed: {type(fault).__name__}: {fault}")


async def _describe(target: Target, errlog: TextIO, timeout: float) -> Listing:
    listing = Listing()
    handshake = Listing()

    async def on_handshake(session: ClientSession) -> bool:
        return await _handshake(session, handshake)

    spoke_handshake = await _session(target, errlog, timeout, on_handshake)

    async def on_discover(session: ClientSession) -> None:
        await _discover(session, listing, list_here=not spoke_handshake)

    await _session(target, errlog, timeout, on_discover)
    if spoke_handshake:
        listing.versions.extend(handshake.versions)
        listing.capabilities.update(handshake.capabilities)
        for name in ("server_info", "instructions", "tools", "resources", "resource_templates", "prompts"):
            setattr(listing, name, getattr(handshake, name))
    if target.url is not None:
        listing.skipped = [v for v in listing.versions if v < _STREAMABLE_HTTP_FLOOR]
    listing.versions = sorted((v for v in set(listing.versions) if v not in listing.skipped), key=REVISIONS.index)
    if not listing.versions:
        raise DescribeError("the server accepted none of the MCP protocol versions " + ", ".join(REVISIONS))
    return listing


def _last_lines(errlog: TextIO) -> tuple[str, ...]:
    errlog.seek(0)
    return tuple(line for line in errlog.read().splitlines() if line.strip())[-_STDERR_LINES:]


def _leaf(exc: BaseException) -> BaseException:
    """The exception that started it: the SDK's task groups wrap what they raise."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = next((e for e in exc.exceptions if isinstance(e, DescribeError)), exc.exceptions[0])
    return exc


def _message(exc: BaseException, timeout: float) -> str:
    if isinstance(exc, DescribeError):
        return str(exc)
    if isinstance(exc, TimeoutError):
        return f"no answer within {timeout:g} s"
    if isinstance(exc, FileNotFoundError):
        return "no such command"
    if isinstance(exc, PermissionError):
        return "the command cannot be run (permission denied)"
    if isinstance(exc, MCPError) and exc.error.code == types.CONNECTION_CLOSED:
        return "the server closed the connection before answering (did it exit?)"
    if isinstance(exc, MCPError):
        return f"the server answered with an error: {exc.error.message}"
    if isinstance(exc, httpx2.ConnectError | ConnectionRefusedError):
        return "nothing answered at that address (the connection was refused)"
    if isinstance(exc, httpx2.HTTPError):
        return f"the HTTP exchange failed: {exc}"
    return f"the connection failed: {type(exc).__name__}: {exc}"


async def _within(target: Target, errlog: TextIO, timeout: float) -> Listing:
    with anyio.fail_after(timeout):
        return await _describe(target, errlog, timeout)


def list_server(target: Target, timeout: float) -> Listing:
    """Connect, negotiate and list everything. Raises DescribeError (one sentence, plus the
    server's last stderr lines for stdio) for a server that cannot be described."""
    # The SDK logs what goes wrong (with tracebacks) as it happens; the one sentence below
    # says it instead, so nothing of the server's reaches the terminal unescaped.
    sdk_log = logging.getLogger("mcp")
    silence = logging.NullHandler()
    propagate, sdk_log.propagate = sdk_log.propagate, False
    sdk_log.addHandler(silence)
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog:
        try:
            return anyio.run(_within, target, errlog, timeout)
        except Exception as exc:  # noqa: BLE001 - every failure of a server becomes one sentence
            message = _message(_leaf(exc), timeout)
        finally:
            sdk_log.propagate = propagate
            sdk_log.removeHandler(silence)
        raise DescribeError(f"{target.label}: {message}", _last_lines(errlog))
