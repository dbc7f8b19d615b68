"""RFC 6901 JSON Pointers."""

from __future__ import annotations

from collections.abc import Iterable, Mapping


def escape(segment: str | int) -> str:
    return str(segment).replace("~", "~0").replace("/", "~1")


def join(base: str, *segments: str | int) -> str:
    # The rules name a site for every value they look at (tens of thousands per build):
    # most segments need no escaping, and a loop is several times cheaper than a join.
    for segment in segments:
        text = segment if isinstance(segment, str) else str(segment)
        if "~" in text or "/" in text:
            text = text.replace("~", "~0").replace("/", "~1")
        base = f"{base}/{text}"
    return base


def from_parts(parts: Iterable[str | int]) -> str:
    return join("", *parts)


def split(pointer: str) -> list[str]:
    if not pointer:
        return []
    return [part.replace("~1", "/").replace("~0", "~") for part in pointer[1:].split("/")]


def parent(pointer: str) -> str:
    return pointer[: pointer.rfind("/")] if pointer else ""


def lookup(data: object, pointer: str) -> object:
    """The value a pointer names in a JSON document, or None when it names nothing."""
    value = data
    for part in split(pointer):
        if isinstance(value, Mapping):
            value = value.get(part)
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return None
    return value
