"""The ways to connect: ``transports``."""

from __future__ import annotations

import shlex

from ..validation.document import Document, as_list, as_object, strings
from .security import transport_view
from .site import Transport
from .urls import transport_anchor
from .values import extensions, root_level_scope, string


def build_transports(document: Document) -> tuple[Transport, ...]:
    server_default = "security" in document.data
    transports = []
    for index, item in enumerate(as_list(document.data.get("transports"))):
        data = as_object(item)
        kind = string(data, "type") or "?"
        command = string(data, "command")
        args = tuple(strings(data.get("args")))
        transports.append(
            Transport(
                index=index,
                anchor=transport_anchor(index),
                type=kind,
                url=string(data, "url"),
                command=command,
                args=args,
                command_line=shlex.join([command, *args]) if command is not None else None,
                env=tuple((k, str(v)) for k, v in as_object(data.get("env")).items()),
                scope=root_level_scope(document, data),
                security=transport_view(data, server_default),
                legacy=kind == "sse",
                extensions=extensions(data),
            )
        )
    return tuple(transports)
