"""servers.json: the map of servers MCP clients read (``mcpServers`` in Claude Desktop's and
Cursor's configurations, ``servers`` in VS Code's), as the servers ``describe --servers``
describes, each with the stem of its description file.

The file is untrusted: it is read with a size bound, every mistake in its shape is a
located diagnostic (and nothing is started), and no value of ``env`` or ``headers`` is ever
shown, since those are where clients' configurations keep secrets.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from ..config import hyphenated
from ..diagnostics import Diagnostic, error
from ..errors import DescriptionError, ProjectError
from ..records import record
from ..rule_docs import RuleDoc
from ..source import pointer as jp
from ..source.limits import Limits
from ..source.load import Source, read_source
from .connect import Target

SERVERS_RULE = "mcpdesc-docs.servers-file"
SERVERS_DOC = RuleDoc(
    summary="A servers file maps names to servers as MCP clients read them: a command to start, or a URL.",
    rationale=(
        "describe --servers starts or connects to every server the file names; an entry it cannot read "
        "would be started wrongly or not at all, so every problem stops the command (exit 2) before any "
        "server is started."
    ),
    bad='{"mcpServers": {"files": {"command": ["npx", "server-files"]}}}\n',
    good='{"mcpServers": {"files": {"command": "npx", "args": ["server-files"]}}}\n',
    requirements=("mcpdesc-docs servers file (the mcpServers map of MCP clients' configurations)",),
    codes=("invalid-servers-file", "no-servers", "invalid-server"),
)
"""The rule id of every problem in a servers file (ours: the file is not part of the spec)."""

SERVERS_LIMITS = Limits(max_bytes=1024 * 1024, max_depth=16, max_nodes=100_000)
"""A client's configuration is small: far tighter bounds than a description's."""

DESCRIPTION_SUFFIX = ".mcpdesc.yaml"
_LONGEST_STEM = 60
_TRANSPORT_TYPES = ("stdio", "http", "streamable-http", "sse")
_ENV_REFERENCE = re.compile(r"\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}")
_INPUT_REFERENCE = re.compile(r"\$\{input:[^}]*\}")
_SHOWN_NAME = 60
# What a header may be named (RFC 9110's token) and may not hold: a value that breaks the
# request's lines would be refused by http.client with the value in its message.
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_LINE_BREAKING = re.compile(r"[\r\n\x00]")


@record
class NamedServer:
    """One server of the file, and where it is written there."""

    name: str
    """Its name, as the file gives it."""
    stem: str
    """The stem of its description's file name: [a-z0-9-], unique within the file."""
    where: str
    """``FILE:LINE:COLUMN``, the position of its name in the file."""
    pointer: str
    target: Target | None
    problem: str | None = None
    """Why it cannot be described, though the file is well formed (said at its turn)."""

    @property
    def file_name(self) -> str:
        return self.stem + DESCRIPTION_SUFFIX

    @property
    def shown_name(self) -> str:
        """The name as messages quote it: clipped, since a name may be any string."""
        name = self.name if len(self.name) <= _SHOWN_NAME else self.name[:_SHOWN_NAME] + "..."
        return repr(name)


@dataclass(slots=True)
class ServersFile:
    servers: list[NamedServer] = field(default_factory=list)
    disabled: list[NamedServer] = field(default_factory=list)
    """Servers the file marks ``"disabled": true``: left out, and said."""


def file_stem(name: str) -> str:
    """A server's name as a file name stem: lower-case ASCII letters and digits, runs of
    anything else one hyphen (so no name can lead out of the folder)."""
    return hyphenated(name, _LONGEST_STEM)


def _unique(stem: str, taken: set[str]) -> str:
    candidate, number = stem, 1
    while candidate in taken:
        number += 1
        candidate = f"{stem}-{number}"
    taken.add(candidate)
    return candidate


class _Problems:
    def __init__(self, source: Source) -> None:
        self.source = source
        self.diagnostics: list[Diagnostic] = []

    def add(self, pointer: str, message: str, code: str = "invalid-server") -> None:
        self.diagnostics.append(self.source.place(error(SERVERS_RULE, code, message, pointer)))

    def where(self, pointer: str) -> str:
        line, column = self.source.source_map.locate(pointer)
        return f"{self.source.name}:{line}:{column}"


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _string_map(value: object) -> bool:
    return isinstance(value, dict) and all(isinstance(item, str) for item in value.values())


def _values(entry: dict[str, object], at: str, problems: _Problems) -> None:
    """What a well-typed entry may still not hold: what no process can be started with (a
    NUL character, a variable named with ``=``) and headers that would break the request."""
    strings: list[tuple[str, object]] = [(jp.join(at, "command"), entry.get("command"))]
    strings.append((jp.join(at, "cwd"), entry.get("cwd")))
    strings += [(jp.join(at, "args", i), arg) for i, arg in enumerate(_list(entry.get("args")))]
    for pointer, value in strings:
        if isinstance(value, str) and "\x00" in value:
            problems.add(pointer, "a NUL character, which no command can be started with")
    for name, value in _as_map(entry.get("env")).items():
        if not name or "=" in name or "\x00" in name + value:
            says = "an environment variable has a name without '=' and holds no NUL character"
            problems.add(jp.join(at, "env", name), says)
    for name, value in _as_map(entry.get("headers")).items():
        if not _HEADER_NAME.fullmatch(name) or _LINE_BREAKING.search(value):
            says = "a header has a name of letters, digits and -, and a value of one line"
            problems.add(jp.join(at, "headers", name), says)


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _shape(entry: dict[str, object], at: str, problems: _Problems) -> bool:
    """Whether the entry has a server's shape; each mistake said (never with a value of
    ``env`` or ``headers``)."""
    before = len(problems.diagnostics)
    kind = entry.get("type")
    if kind is not None and kind not in _TRANSPORT_TYPES:
        problems.add(jp.join(at, "type"), f"'type' must be one of {', '.join(_TRANSPORT_TYPES)}")
    has_command, has_url = "command" in entry, "url" in entry
    if has_command == has_url:
        problems.add(at, "a server has either a 'command' to start or a 'url' to connect to")
    if has_command and (not isinstance(entry["command"], str) or not entry["command"].strip()):
        problems.add(jp.join(at, "command"), "'command' must be a non-empty string (arguments go in 'args')")
    if has_url and not _http_url(entry["url"]):
        problems.add(jp.join(at, "url"), "'url' must be an http:// or https:// URL")
    if has_command and kind in _TRANSPORT_TYPES and kind != "stdio":
        problems.add(jp.join(at, "type"), f"a server with a 'command' is a stdio server, not {kind!r}")
    if has_url and kind == "stdio":
        problems.add(jp.join(at, "type"), "a stdio server has a 'command', not a 'url'")
    for member, check, says in (
        ("args", _strings, "a list of strings"),
        ("env", _string_map, "an object whose values are strings"),
        ("headers", _string_map, "an object whose values are strings"),
        ("cwd", lambda v: isinstance(v, str) and bool(v), "a non-empty string"),
        ("disabled", lambda v: isinstance(v, bool), "true or false"),
    ):
        if member in entry and not check(entry[member]):
            problems.add(jp.join(at, member), f"{member!r} must be {says}")
    for member, owner in (("args", "command"), ("env", "command"), ("cwd", "command"), ("headers", "url")):
        if member in entry and owner not in entry:
            problems.add(jp.join(at, member), f"{member!r} belongs to a server with a {owner!r}")
    if len(problems.diagnostics) == before:
        _values(entry, at, problems)
    return len(problems.diagnostics) == before


def _http_url(value: object) -> bool:
    if not isinstance(value, str):
        return False
    try:
        parts = urlsplit(value)
        return parts.scheme in ("http", "https") and bool(parts.hostname)
    except ValueError:
        return False


def _expanded(values: Mapping[str, str], environment: Mapping[str, str]) -> tuple[dict[str, str], str | None]:
    """The values with each ``${env:NAME}`` replaced from ``environment``, or why not."""
    result: dict[str, str] = {}
    for key, value in values.items():
        if _INPUT_REFERENCE.search(value):
            return {}, "it asks for a VS Code input (${input:...}), which describe cannot ask for; use ${env:NAME}"
        missing = [name for name in _ENV_REFERENCE.findall(value) if name not in environment]
        if missing:
            return {}, f"the environment variable {missing[0]} it names (${{env:{missing[0]}}}) is not set"
        result[key] = _ENV_REFERENCE.sub(lambda match: environment[match.group(1)], value)
    return result, None


def _target(entry: dict[str, object], base: Path, environment: Mapping[str, str]) -> tuple[Target | None, str | None]:
    """The server as a Target, or why it cannot be described though well formed."""
    if entry.get("type") == "sse":
        return None, "it uses the legacy HTTP+SSE transport; describe speaks streamable HTTP only"
    if "url" in entry:
        headers, problem = _expanded(_as_map(entry.get("headers")), environment)
        return (Target(url=str(entry["url"]), headers=headers), None) if problem is None else (None, problem)
    env, problem = _expanded(_as_map(entry.get("env")), environment)
    if problem is not None:
        return None, problem
    args = entry.get("args")
    command = (str(entry["command"]), *(args if isinstance(args, list) else ()))
    cwd = entry.get("cwd")
    # A relative cwd is the file's, as the server's author wrote it beside the file.
    directory = str(base / cwd) if isinstance(cwd, str) else None
    return Target(command=command, env=env, cwd=directory), None


def _as_map(value: object) -> dict[str, str]:
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else {}


def _servers_map(source: Source, problems: _Problems) -> tuple[str, dict[str, object]] | None:
    data = source.data
    if not isinstance(data, dict):
        problems.add("", "a servers file is a JSON object with an 'mcpServers' object", "invalid-servers-file")
        return None
    keys = [key for key in ("mcpServers", "servers") if key in data]
    if len(keys) != 1:
        says = "both 'mcpServers' and 'servers'" if keys else "no 'mcpServers' (nor VS Code's 'servers')"
        problems.add("", f"the file has {says}: one map of servers, please", "invalid-servers-file")
        return None
    at = jp.join("", keys[0])
    servers = data[keys[0]]
    if not isinstance(servers, dict):
        problems.add(at, f"{keys[0]!r} must be an object mapping names to servers", "invalid-servers-file")
        return None
    if not servers:
        problems.add(at, f"{keys[0]!r} names no server", "no-servers")
        return None
    return at, servers


def read_servers(path: Path, environment: Mapping[str, str]) -> ServersFile:
    """The servers ``path`` names, in its order; ``${env:NAME}`` in ``env`` and ``headers``
    read from ``environment``. Raises ProjectError (located) for a file of the wrong shape."""
    try:
        source = read_source(path, limits=SERVERS_LIMITS, name=str(path))
    except DescriptionError as exc:
        raise ProjectError(exc.diagnostics) from None
    problems = _Problems(source)
    found = _servers_map(source, problems)
    result = ServersFile()
    if found is not None:
        at, servers = found
        taken: set[str] = set()
        for name, entry in servers.items():
            pointer = jp.join(at, name)
            if not isinstance(entry, dict):
                problems.add(pointer, "a server is an object with a 'command' or a 'url'")
                continue
            if not _shape(entry, pointer, problems):
                continue
            target, problem = _target(entry, path.parent, environment)
            stem = _unique(file_stem(name), taken)
            server = NamedServer(name, stem, problems.where(pointer), pointer, target, problem)
            (result.disabled if entry.get("disabled") is True else result.servers).append(server)
    if problems.diagnostics:
        raise ProjectError(problems.diagnostics)
    return result
