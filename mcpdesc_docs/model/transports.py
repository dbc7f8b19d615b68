"""The ways to connect: ``transports``."""

from __future__ import annotations

import shlex

from ..diagnostics import visible
from ..validation.document import Document, as_list, as_object, strings
from .install import PANELS, build_install
from .security import transport_view
from .site import Transport
from .urls import transport_anchor
from .values import extensions, root_level_scope, string


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
        install = build_install(server, kind, command, list(args), dict(env), url)
        shown = install if index < PANELS else None
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
                client_config=install.clients[-1].config or "",
                install=shown,
            )
        )
    return tuple(transports)
