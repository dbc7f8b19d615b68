"""Readers of description values that every area of the page model shares."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from ..validation.document import Document, JsonObject, as_list, as_object, has_explicit_scope, strings
from .links import is_safe_link
from .schema_tree import dump_json
from .site import Icon, JsonItem, Link, Scope


def string(data: Mapping[str, Any], key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) else None


def extensions(data: Mapping[str, Any]) -> tuple[JsonItem, ...]:
    return tuple(JsonItem(key, dump_json(value)) for key, value in data.items() if key.startswith("x-"))


def link(value: object) -> Link | None:
    if not isinstance(value, str):
        return None
    # Only absolute http(s)/mailto URLs become hyperlinks; anything else stays text.
    return Link(value, is_safe_link(value) and bool(urlsplit(value).scheme))


def icons(value: object) -> tuple[Icon, ...]:
    found = []
    for item in as_list(value):
        icon = as_object(item)
        found.append(
            Icon(
                src=string(icon, "src") or "",
                mime_type=string(icon, "mimeType"),
                sizes=tuple(strings(icon.get("sizes"))),
                theme=string(icon, "theme"),
                extensions=extensions(icon),
            )
        )
    return tuple(found)


def root_level_scope(document: Document, declaration: JsonObject) -> Scope:
    """The scope of a transport or capability set, as the Document sees it."""
    return Scope(document.scope_of(declaration), has_explicit_scope(declaration))
