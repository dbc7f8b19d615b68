"""Connecting to the server and listing what it serves, version by version.

Each protocol version gets a session of its own (a started command, or an HTTP session
ended with ``DELETE``): ``initialize`` for the handshake versions, ``server/discover`` for
2026-07-28. Where the server accepts the version, everything is listed in that session,
as a client declaring every capability the version defines would see it. Then, where a
client declaring nothing sees less, the same listing is made once without each
capability: a primitive that disappears without one is listed only to clients that have
it, which its declaration records as an observed ``clientRequirements``.
"""

from __future__ import annotations

import copy
import os
import shlex
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from .. import __version__
from ..errors import UsageError
from ..records import record
from ..spec.revisions import COMPLETE_VALIDATION_FLOOR, REVISIONS
from .budget import Budget, DescribeError
from .session import ServerError, Session
from .tolerant import COLLECTIONS, IDENTITY, readable
from .transport import HttpRefusal, HttpTransport, StdioTransport, Transport

CLIENT = {"name": "mcpdesc-docs", "version": __version__}
DISCOVER_ERA = "2026-07-28"
STREAMABLE_HTTP_FLOOR = "2025-03-26"
# A listing longer than this many pages is a server that never stops paginating.
_MAX_PAGES = 1000
INHERITED_ENVIRONMENT = ("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LC_ALL", "TMPDIR")
_PARALLEL_SESSIONS = 3
_METHODS = {
    "tools": "tools/list",
    "resources": "resources/list",
    "resourceTemplates": "resources/templates/list",
    "prompts": "prompts/list",
}
_CAPABILITY_OF = {"tools": "tools", "resources": "resources", "resourceTemplates": "resources", "prompts": "prompts"}
_PROTOCOL_META = "io.modelcontextprotocol/protocolVersion"
_CLIENT_INFO_META = "io.modelcontextprotocol/clientInfo"
_CLIENT_CAPABILITIES_META = "io.modelcontextprotocol/clientCapabilities"
_SERVER_INFO_META = "io.modelcontextprotocol/serverInfo"

Path_ = tuple[str, ...]


def client_capabilities(version: str) -> dict[str, Any]:
    """Every client capability ``version`` defines, as describe declares them."""
    capabilities: dict[str, Any] = {"roots": {}, "sampling": {}}
    if version >= "2025-06-18":
        capabilities["elicitation"] = {}
    if version >= "2025-11-25":
        capabilities["elicitation"] = {"form": {}, "url": {}}
    if version == "2025-11-25":
        capabilities["tasks"] = {
            "list": {},
            "cancel": {},
            "requests": {"sampling": {"createMessage": {}}, "elicitation": {"create": {}}},
        }
    return capabilities


def capability_units(version: str) -> list[Path_]:
    """The capabilities (or parts of one) whose absence is tried, one at a time."""
    units: list[Path_] = [("roots",), ("sampling",)]
    if version >= "2025-06-18":
        units.append(("elicitation",))
    if version >= "2025-11-25":
        units.append(("elicitation", "url"))
    if version == "2025-11-25":
        units += [
            ("tasks",),
            ("tasks", "requests", "sampling", "createMessage"),
            ("tasks", "requests", "elicitation", "create"),
        ]
    return units


def without(capabilities: dict[str, Any], unit: Path_) -> dict[str, Any]:
    reduced = copy.deepcopy(capabilities)
    parent = reduced
    for member in unit[:-1]:
        parent = parent[member]
    del parent[unit[-1]]
    return reduced


def requirement(units: list[Path_]) -> dict[str, Any]:
    """The client capabilities whose absence each hid a primitive, as one object (a part of
    a capability stands for it: ``elicitation.url`` says more than ``elicitation``)."""
    deepest = [u for u in units if not any(len(o) > len(u) and o[: len(u)] == u for o in units)]
    result: dict[str, Any] = {}
    for unit in sorted(deepest):
        node = result
        for member in unit:
            node = node.setdefault(member, {})
    return result


@record
class Target:
    """The server the user named: a command to start, or a URL to connect to."""

    command: tuple[str, ...] = ()
    url: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    """Variables the server is given besides the inherited few (a servers file's ``env``)."""
    cwd: str | None = None
    """The directory the command starts in (None: this process's)."""

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

    def carries(self, version: str) -> bool:
        """Whether the transport exists at ``version`` (streamable HTTP came with 2025-03-26)."""
        return self.url is None or version >= STREAMABLE_HTTP_FLOOR

    @property
    def label(self) -> str:
        return self.url if self.url is not None else shlex.join(self.command)

    def open(self, budget: Budget) -> Transport:
        if self.url is not None:
            return HttpTransport(self.url, self.headers, budget)
        # As MCP clients do, the server gets only the variables a program needs to run,
        # not the caller's secrets.
        env = {name: os.environ[name] for name in INHERITED_ENVIRONMENT if name in os.environ}
        return StdioTransport(self.command, budget, {**env, **self.env}, cwd=self.cwd)


@dataclass(slots=True)
class VersionListing:
    """What the server said at one protocol version, as JSON data (as on the wire)."""

    version: str
    capabilities: dict[str, Any] = field(default_factory=dict)
    server_info: dict[str, Any] = field(default_factory=dict)
    instructions: str | None = None
    items: dict[str, list[dict[str, Any]]] = field(default_factory=lambda: {c: [] for c in COLLECTIONS})
    requirements: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    """(collection, identity) -> the client capabilities without which it was not listed."""


@dataclass(slots=True)
class Listing:
    by_version: dict[str, VersionListing] = field(default_factory=dict)
    """The recorded versions, oldest first."""
    not_tried: list[str] = field(default_factory=list)
    """Legacy versions not asked for, and so not tried (said, not recorded)."""
    cannot_carry: list[str] = field(default_factory=list)
    """Versions asked for that the transport cannot carry (said, not recorded)."""
    legacy_only: bool = False
    """The server accepts no version from 2025-06-18 on: its legacy ones are recorded."""
    deviations: list[str] = field(default_factory=list)
    """Where what the server sent breaks the MCP schema, one readable line each."""

    @property
    def versions(self) -> list[str]:
        return list(self.by_version)

    @property
    def newest(self) -> VersionListing:
        return self.by_version[self.versions[-1]]


class _Conversation:
    """One session at one protocol version, with the client capabilities it declared."""

    def __init__(self, session: Session, version: str, capabilities: dict[str, Any], budget: Budget) -> None:
        self.session = session
        self.version = version
        self.capabilities = capabilities
        self.budget = budget
        self.listed = 0
        """Primitives listed so far in this session's listing, held to limits.max_primitives."""

    def _params(self, params: dict[str, Any]) -> dict[str, Any]:
        if self.version != DISCOVER_ERA:
            return params
        # 2026-07-28 is stateless: every request says who asks, at which version, with what.
        meta = {
            _PROTOCOL_META: self.version,
            _CLIENT_INFO_META: CLIENT,
            _CLIENT_CAPABILITIES_META: self.capabilities,
        }
        return {**params, "_meta": meta}

    def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        transport = self.session.transport
        if self.version == DISCOVER_ERA:
            transport.headers["mcp-method"] = method
        return self.session.request(method, self._params(params or {}))

    def pages(self, collection: str, deviations: list[str]) -> list[object]:
        items: list[object] = []
        cursor: object = None
        method = _METHODS[collection]
        for _ in range(_MAX_PAGES):
            result = self.request(method, {"cursor": cursor} if cursor is not None else {})
            page = result.get(collection)
            if not isinstance(page, list):
                deviations.append(f"{method}: the result has no {collection!r} array")
                return items
            items.extend(page)
            self.listed += len(page)
            self.budget.too_many_primitives(self.listed)
            cursor = result.get("nextCursor")
            if cursor is None or cursor == "":
                return items
            if not isinstance(cursor, str):
                deviations.append(f"{method}: nextCursor is not a string; the listing stops there")
                return items
        raise DescribeError(f"the server kept paginating {method} past {_MAX_PAGES} pages")

    def list_all(self, server_capabilities: dict[str, Any], deviations: list[str]) -> dict[str, list[dict[str, Any]]]:
        listed: dict[str, list[dict[str, Any]]] = {}
        self.listed = 0
        for collection in COLLECTIONS:
            if _CAPABILITY_OF[collection] not in server_capabilities:
                listed[collection] = []
                continue
            try:
                raw = self.pages(collection, deviations)
            except ServerError as exc:
                if collection != "resourceTemplates":
                    raise
                # Some servers with resources implement no template listing.
                deviations.append(f"{_METHODS[collection]}: {exc}")
                raw = []
            listed[collection] = readable(collection, raw, deviations)
        return listed


def _identities_of(listed: dict[str, list[dict[str, Any]]]) -> dict[str, set[str]]:
    return {c: {str(i[IDENTITY[c]]) for i in items} for c, items in listed.items()}


def _object(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


class Prober:
    def __init__(self, target: Target, budget: Budget) -> None:
        self.target = target
        self.budget = budget
        self.stderr_lines: tuple[str, ...] = ()
        self.refusals: list[DescribeError] = []
        """How the server refused the versions it did not accept (an error, an HTTP status)."""

    @contextmanager
    def conversation(
        self, version: str, capabilities: dict[str, Any]
    ) -> Iterator[tuple[_Conversation, dict[str, Any]] | None]:
        """A fresh session at ``version``; None inside when the server does not accept it."""
        transport = self.target.open(self.budget)
        try:
            session = Session(transport)
            talk = _Conversation(session, version, capabilities, self.budget)
            opened = self._open(talk)
            yield (talk, opened) if opened is not None else None
        finally:
            transport.close()
            self.stderr_lines = transport.stderr_lines() or self.stderr_lines

    def _open(self, talk: _Conversation) -> dict[str, Any] | None:
        """The server's answer to the opening request, or None when it refused the version."""
        try:
            return self._discover(talk) if talk.version == DISCOVER_ERA else self._initialize(talk)
        except (ServerError, HttpRefusal) as exc:
            self.refusals.append(exc)
            return None

    def _discover(self, talk: _Conversation) -> dict[str, Any] | None:
        # Stateless: the version travels in every request's header and _meta.
        talk.session.transport.headers["mcp-protocol-version"] = talk.version
        result = talk.request("server/discover")
        supported = result.get("supportedVersions")
        if not isinstance(supported, list) or DISCOVER_ERA not in supported:
            return None
        meta = _object(result.get("_meta"))
        return {**result, "serverInfo": _object(meta.get(_SERVER_INFO_META))}

    def _initialize(self, talk: _Conversation) -> dict[str, Any] | None:
        params = {"protocolVersion": talk.version, "capabilities": talk.capabilities, "clientInfo": CLIENT}
        result = talk.session.request("initialize", params)
        if result.get("protocolVersion") != talk.version:
            return None  # a counter-offer: the server does not speak this version
        if talk.version >= "2025-06-18":
            # From 2025-06-18 on, every later HTTP request names the agreed version.
            talk.session.transport.headers["mcp-protocol-version"] = talk.version
        talk.session.notify("notifications/initialized")
        return result

    def listing_at(self, version: str, deviations: list[str]) -> VersionListing | None:
        capabilities = client_capabilities(version)
        with self.conversation(version, capabilities) as opened:
            if opened is None:
                return None
            talk, result = opened
            found = VersionListing(version)
            found.capabilities = _object(result.get("capabilities"))
            found.server_info = _object(result.get("serverInfo"))
            instructions = result.get("instructions")
            found.instructions = instructions if isinstance(instructions, str) and instructions else None
            found.items = talk.list_all(found.capabilities, deviations)
        self._gated(found)
        return found

    def _identities(self, version: str, capabilities: dict[str, Any], server: dict[str, Any]) -> dict[str, set[str]]:
        ignored: list[str] = []  # already said once, by the full listing
        with self.conversation(version, capabilities) as opened:
            if opened is None:
                raise DescribeError(f"the server accepted {version} once and then refused it")
            talk, _ = opened
            listed = talk.list_all(server, ignored)
        return _identities_of(listed)

    def _gated(self, found: VersionListing) -> None:
        """Record which primitives are listed only to clients with a capability."""
        full = _identities_of(found.items)
        bare = self._identities(found.version, {}, found.capabilities)
        if all(full[c] <= bare[c] for c in COLLECTIONS):
            return
        hidden_by: dict[tuple[str, str], list[Path_]] = {}
        everything = client_capabilities(found.version)
        units = capability_units(found.version)
        with ThreadPoolExecutor(max_workers=_PARALLEL_SESSIONS) as pool:
            listings = list(
                pool.map(lambda u: self._identities(found.version, without(everything, u), found.capabilities), units)
            )
        for unit, seen in zip(units, listings, strict=True):
            for collection in COLLECTIONS:
                for identity in full[collection] - seen[collection]:
                    hidden_by.setdefault((collection, identity), []).append(unit)
        found.requirements = {key: requirement(units) for key, units in hidden_by.items()}


def _wanted(selected: list[str] | None, all_versions: bool) -> list[str]:
    if selected:
        return sorted(set(selected), key=REVISIONS.index)
    if all_versions:
        return list(REVISIONS)
    return [v for v in REVISIONS if v >= COMPLETE_VALIDATION_FLOOR]


def list_server(
    target: Target,
    budget: Budget,
    *,
    versions: list[str] | None = None,
    all_versions: bool = False,
) -> Listing:
    """Connect, negotiate and list everything. Raises DescribeError (one sentence, plus the
    server's last stderr lines for stdio) for a server that cannot be described."""
    prober = Prober(target, budget)
    listing = Listing()
    wanted = _wanted(versions, all_versions)
    listing.cannot_carry = [v for v in wanted if not target.carries(v)]
    wanted = [v for v in wanted if target.carries(v)]
    try:
        found = _listings(prober, wanted, listing.deviations)
        if not found and versions is None and not all_versions:
            # Nothing modern: a server that speaks only legacy versions is described at those.
            legacy = [v for v in REVISIONS if v < COMPLETE_VALIDATION_FLOOR and target.carries(v)]
            found = _listings(prober, legacy, listing.deviations)
            listing.legacy_only = bool(found)
        elif versions is None and not all_versions:
            listing.not_tried = [v for v in REVISIONS if v < COMPLETE_VALIDATION_FLOOR]
        listing.by_version = {v: found[v] for v in REVISIONS if v in found}
    except DescribeError as exc:
        raise DescribeError(f"{target.label}: {exc}", prober.stderr_lines) from None
    if not listing.by_version:
        errors = [r for r in prober.refusals if isinstance(r, ServerError) and r.method == "initialize"]
        if errors:
            raise DescribeError(f"{target.label}: {errors[0]}", prober.stderr_lines)
        raise DescribeError(
            f"{target.label}: the server accepted none of the MCP protocol versions {', '.join(REVISIONS)}",
            prober.stderr_lines,
        )
    return listing


def _listings(prober: Prober, versions: list[str], deviations: list[str]) -> dict[str, VersionListing]:
    """Each version's listing, in sessions of their own, several at once (a started server
    spends most of its first second starting up)."""
    said: dict[str, list[str]] = {v: [] for v in versions}
    with ThreadPoolExecutor(max_workers=_PARALLEL_SESSIONS) as pool:
        futures = {v: pool.submit(prober.listing_at, v, said[v]) for v in versions}
        results = {v: future.result() for v, future in futures.items()}
    for version in versions:
        deviations.extend(line for line in said[version] if line not in deviations)
    return {v: found for v, found in results.items() if found is not None}
