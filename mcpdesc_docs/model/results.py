"""Example results as a reader reads them: a prompt's messages by role with their full
text, text content as text (Markdown when its MIME type says so, JSON formatted),
``structuredContent`` as a table of its members, media and links as what they are.
The raw JSON stays on the page beside this (``examples.html``'s JSON tab).

Untrusted and bounded: at most ``MAX_BLOCKS`` blocks and ``MAX_FIELDS`` table rows per
result; texts are shown whole (the description's size limits bound them already).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from ..validation.document import as_list, as_object
from .schema_tree import dump_json
from .site import ResultBlock
from .values import string

MAX_BLOCKS = 100
"""Blocks shown for one result (the JSON tab has the rest)."""
MAX_FIELDS = 100
"""Members of ``structuredContent`` shown as rows."""

_JSON = re.compile(r"^application/(?:[\w.+-]*\+)?json(?:\s*;.*)?$", re.IGNORECASE)
_MARKDOWN = re.compile(r"^text/(?:markdown|x-markdown)(?:\s*;.*)?$", re.IGNORECASE)


def _text_block(text: str, media_type: str | None, uri: str | None, role: str | None) -> ResultBlock:
    if media_type and _MARKDOWN.match(media_type):
        return ResultBlock("markdown", text, uri=uri, role=role, media_type=media_type)
    if media_type and _JSON.match(media_type):
        try:
            return ResultBlock("json", dump_json(json.loads(text)), uri=uri, role=role, media_type=media_type)
        except (ValueError, RecursionError):
            pass  # not JSON after all: shown as the text it is
    return ResultBlock("text", text, uri=uri, role=role, media_type=media_type)


def _byte_count(data: object) -> str | None:
    if not isinstance(data, str):
        return None
    try:
        return str(len(base64.b64decode(data, validate=True)))
    except (binascii.Error, ValueError):
        return None


def _contents(item: Mapping[str, Any], role: str | None) -> ResultBlock:
    """A resource's contents (``resources/read``, or embedded in a content block)."""
    uri = string(item, "uri")
    media_type = string(item, "mimeType")
    text = item.get("text")
    if isinstance(text, str):
        return _text_block(text, media_type, uri, role)
    return ResultBlock("media", _byte_count(item.get("blob")) or "", uri=uri, role=role, media_type=media_type)


def _content_block(block: Mapping[str, Any], role: str | None = None) -> ResultBlock:
    kind = string(block, "type")
    if kind == "text":
        return ResultBlock("text", string(block, "text") or "", role=role)
    if kind in ("image", "audio"):
        size = _byte_count(block.get("data")) or ""
        return ResultBlock("media", size, role=role, media_type=string(block, "mimeType"))
    if kind == "resource_link":
        name = string(block, "title") or string(block, "name")
        return ResultBlock("link", string(block, "description") or "", uri=string(block, "uri"), role=role, name=name)
    if kind == "resource":
        return _contents(as_object(block.get("resource")), role)
    return ResultBlock("data", dump_json(block), role=role)


def _fields(structured: Mapping[str, Any]) -> ResultBlock:
    rows = tuple(
        (str(key), value if isinstance(value, str) else json.dumps(value, ensure_ascii=False))
        for key, value in list(structured.items())[:MAX_FIELDS]
    )
    return ResultBlock("fields", rows=rows)


def _blocks(kind: str, result: Mapping[str, Any]) -> Iterator[ResultBlock]:
    if kind == "prompt":
        for message in as_list(result.get("messages")):
            data = as_object(message)
            yield _content_block(as_object(data.get("content")), string(data, "role") or "?")
    elif kind in ("resource", "resource-template"):
        for item in as_list(result.get("contents")):
            yield _contents(as_object(item), None)
    else:
        for block in as_list(result.get("content")):
            yield _content_block(as_object(block))
        structured = result.get("structuredContent")
        if isinstance(structured, Mapping) and structured:
            yield _fields(structured)


def readable_result(kind: str, result: object) -> tuple[ResultBlock, ...]:
    """The blocks of an example's ``result`` for a primitive of ``kind``, in order."""
    if not isinstance(result, Mapping):
        return ()
    blocks = []
    for block in _blocks(kind, result):
        blocks.append(block)
        if len(blocks) >= MAX_BLOCKS:
            break
    return tuple(blocks)


__all__ = ["readable_result"]
