"""How each MCP client is set up to use a transport: the install panel's tabs.

Everything here is made at build time from the transport's own values. A value that
reads as a secret or as prose (``"API_TOKEN": "Your API token"``: a description, not a
value) is never pasted into a configuration: VS Code prompts for it (``${input:id}``,
with an ``inputs`` entry), every other client gets a ``<YOUR_API_TOKEN>`` placeholder.
"""

from __future__ import annotations

import base64
import json
import re
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any
from urllib.parse import quote

from ..diagnostics import visible, visible_json
from ..records import record
from .links import CURSOR_INSTALL, VSCODE_INSTALL

PANELS = 4
"""Transports the install panel shows (the first ones): a panel is a few kilobytes, and
the transports after these are under Connect."""

CLIENTS = ("claude-desktop", "claude-code", "vscode", "cursor", "json")
"""The tabs, in order; ``partials/words.html`` names them."""

_SECRET_NAME = re.compile(r"token|secret|passw|api[_-]?key|(^|[_-])key($|[_-])|credential|auth|private", re.IGNORECASE)
_PROSE = re.compile(r"[A-Za-z][\w'’()-]*(?: [\w'’(),-]+)+[.:]?")
"""Words separated by spaces: a value that describes what to put there (``Your API token``)."""
_KEY_UNSAFE = re.compile(r"[^a-z0-9]+")
_URL_TYPES = {"streamable-http": "http", "sse": "sse"}


@record
class Secret:
    """An environment variable the reader supplies."""

    name: str
    placeholder: str
    """What stands for it outside VS Code: ``<YOUR_API_TOKEN>``."""
    input_id: str
    """VS Code's input id: ``${input:api-token}``."""
    description: str | None
    """The description's value for it, when that reads as prose."""
    password: bool


@record
class ClientSetup:
    client: str
    """One of ``CLIENTS``."""
    config: str | None = None
    """The JSON to put in the client's configuration file."""
    command: str | None = None
    """A shell line that adds the server (Claude Code)."""
    link: str | None = None
    """A one-click install link, made here and nowhere else (``links.CURSOR_INSTALL``...)."""


@record
class Install:
    key: str
    """The server's name in configurations: lower case, no spaces."""
    url: str | None
    """The endpoint of a transport reached by URL."""
    clients: tuple[ClientSetup, ...]
    secrets: tuple[Secret, ...]


def config_key(name: str) -> str:
    """``Microsoft Learn MCP Server`` -> ``microsoft-learn-mcp-server``."""
    return _KEY_UNSAFE.sub("-", name.lower()).strip("-") or "server"


def _secret(name: str, value: str) -> Secret | None:
    looks_secret = bool(_SECRET_NAME.search(name))
    prose = not value.strip() or _PROSE.fullmatch(value.strip()) is not None
    if not (looks_secret or prose):
        return None
    word = re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_").upper() or "VALUE"
    return Secret(
        name=name,
        placeholder=f"<YOUR_{word}>",
        input_id=config_key(name),
        description=(value.strip() or None) if prose else None,
        password=looks_secret,
    )


def _unique_ids(secrets: Iterable[Secret]) -> tuple[Secret, ...]:
    """The secrets with input ids told apart (``API_TOKEN`` and ``api-token`` read alike)."""
    seen: set[str] = set()
    kept = []
    for secret in secrets:
        input_id, n = secret.input_id, 1
        while input_id in seen:
            n += 1
            input_id = f"{secret.input_id}-{n}"
        seen.add(input_id)
        kept.append(replace(secret, input_id=input_id))
    return tuple(kept)


def _stdio_entry(command: str, args: list[str], env: Mapping[str, str], values: Mapping[str, str]) -> dict[str, Any]:
    entry: dict[str, Any] = {"command": command}
    if args:
        entry["args"] = args
    if env:
        entry["env"] = {k: values.get(k, v) for k, v in env.items()}
    return entry


def _compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=True)


def _cursor_link(key: str, entry: dict[str, Any]) -> str:
    config = base64.b64encode(_compact(entry).encode()).decode()
    return f"{CURSOR_INSTALL}name={quote(key, safe='')}&config={quote(config, safe='')}"


def build_install(
    server_name: str, kind: str, command: str | None, args: list[str], env: Mapping[str, str], url: str | None
) -> Install:
    """The install panel of one transport (``kind``: stdio, streamable-http or sse)."""
    key = config_key(server_name)
    secrets = _unique_ids(s for s in (_secret(k, v) for k, v in env.items()) if s is not None)
    placeholders = {s.name: s.placeholder for s in secrets}
    prompts = {s.name: "${input:" + s.input_id + "}" for s in secrets}
    if kind == "stdio":
        entry = _stdio_entry(command or "", args, env, placeholders)
        vscode_entry = {"type": "stdio", **_stdio_entry(command or "", args, env, prompts)}
        added = ["claude", "mcp", "add", "--transport", "stdio"]
        for name, value in env.items():
            added += ["--env", f"{name}={placeholders.get(name, value)}"]
        added += [key, "--", command or "", *args]
    else:
        entry = {"type": _URL_TYPES.get(kind, kind), "url": url or ""}
        vscode_entry = dict(entry)
        added = ["claude", "mcp", "add", "--transport", _URL_TYPES.get(kind, kind), key, url or ""]
    inputs = [
        {"type": "promptString", "id": s.input_id, "description": s.description or s.name, "password": s.password}
        for s in secrets
    ]
    vscode_file: dict[str, Any] = {"inputs": inputs} if inputs else {}
    vscode_file["servers"] = {key: vscode_entry}
    vscode_link = {"name": key, **vscode_entry, **({"inputs": inputs} if inputs else {})}
    servers = visible_json({"mcpServers": {key: entry}})
    clients = (
        ClientSetup("claude-desktop", config=servers if kind == "stdio" else None),
        ClientSetup("claude-code", command=visible(shlex.join(added))),
        ClientSetup("vscode", visible_json(vscode_file), link=VSCODE_INSTALL + quote(_compact(vscode_link), safe="")),
        ClientSetup("cursor", config=servers, link=_cursor_link(key, entry)),
        ClientSetup("json", config=servers),
    )
    return Install(key=key, url=visible(url) if url is not None else None, clients=clients, secrets=secrets)
