"""The ways to connect: ``transports``."""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from typing import Any

from ..diagnostics import visible, visible_json
from ..validation.document import Document, as_list, as_object, strings
from .security import transport_view
from .site import Transport
from .urls import transport_anchor
from .values import extensions, root_level_scope, string

_CLIENT_TYPES = {"streamable-http": "http", "sse": "sse"}
"""The ``type`` an ``mcpServers`` entry gives a transport reached by URL."""


def client_config(server: str, kind: str, data: Mapping[str, Any]) -> str:
    """The ``mcpServers`` JSON that MCP clients (Claude Desktop, Cursor, VS Code ...) read:
    command, args and env for stdio; the type and URL for HTTP. Invisible and
    direction-changing characters are JSON escapes, which mean the same characters."""
    entry: dict[str, Any]
    if kind == "stdio":
        entry = {"command": string(data, "command") or ""}
        args = strings(data.get("args"))
        if args:
            entry["args"] = args
        env = as_object(data.get("env"))
        if env:
            entry["env"] = {k: str(v) for k, v in env.items()}
    else:
        entry = {"type": _CLIENT_TYPES.get(kind, kind), "url": string(data, "url") or ""}
    return visible_json({"mcpServers": {server or "server": entry}})


def build_transports(document: Document) -> tuple[Transport, ...]:
    server_default = "security" in document.data
    server = string(as_object(document.data.get("info")), "name") or ""
    transports = []
    for index, item in enumerate(as_list(document.data.get("transports"))):
        data = as_object(item)
        kind = string(data, "type") or "?"
        command = string(data, "command")
        args = tuple(strings(data.get("args")))
        url = string(data, "url")
        env = tuple((k, str(v)) for k, v in as_object(data.get("env")).items())
        copied = [url or "", command or "", *args, *(text for pair in env for text in pair)]
        transports.append(
            Transport(
                index=index,
                anchor=transport_anchor(index),
                type=kind,
                url=visible(url) if url is not None else None,
                command=visible(command) if command is not None else None,
                args=tuple(visible(a) for a in args),
                command_line=visible(shlex.join([command, *args])) if command is not None else None,
                env=tuple((visible(k), visible(v)) for k, v in env),
                hidden_characters=any(visible(text) != text for text in copied),
                scope=root_level_scope(document, data),
                security=transport_view(data, server_default),
                legacy=kind == "sse",
                extensions=extensions(data),
                client_config=client_config(server, kind, data),
            )
        )
    return tuple(transports)
