"""A description's data written out for its downloads: as JSON text, and as YAML.

``serve`` writes both downloads after every edit, and at thousands of tools writing out
the whole document is a good part of a rebuild. With ``ItemTexts`` the compact text of
each value under the root, and of each item of a collection there (a tool, a prompt ...),
is kept by the value's identity: an edit writes out only what it changed, since unchanged
values keep their objects from one read to the next (``source.incremental``). The text is
put together exactly as ``json.dumps`` writes it: ``{"k": v, ...}`` and ``[a, b]``.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from ..source.yaml_writer import is_long_key, json_as_yaml, yaml_text, yaml_text_of_json
from ..validation.memo import ByObject


def _compact_json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _compact_yaml(value: object) -> str | None:
    """None when a member name is too long for YAML: the whole document is written then."""
    return json_as_yaml(value, None)


class ItemTexts:
    """The compact JSON and YAML texts of a description's values, kept by object."""

    def __init__(self) -> None:
        self.json: ByObject[str] = ByObject(_compact_json)
        self.yaml: ByObject[str | None] = ByObject(_compact_yaml)


def _assembled(data: object, text_of: Callable[[object], str | None], *, yaml: bool) -> str | None:
    """The compact text of the root object from its values' kept texts; None when the
    root is not an object of string keys or a value's text cannot be put together."""
    if not isinstance(data, dict) or not all(isinstance(key, str) for key in data):
        return None
    members = []
    for key, value in data.items():
        if yaml and is_long_key(key):
            return None
        if isinstance(value, list):
            texts = [found for found in map(text_of, value) if found is not None]
            if len(texts) != len(value):
                return None
            text = f"[{', '.join(texts)}]"
        else:
            found = text_of(value)
            if found is None:
                return None
            text = found
        name = json.dumps(key, ensure_ascii=False)
        members.append(f"{yaml_text_of_json(name) if yaml else name}: {text}")
    return f"{{{', '.join(members)}}}"


def json_text(data: object, indent: int | None, items: ItemTexts | None = None) -> str:
    """``json.dumps(data, indent=indent, ensure_ascii=False)`` and a line end."""
    if indent is None and items is not None and (text := _assembled(data, items.json, yaml=False)) is not None:
        return text + "\n"
    return json.dumps(data, indent=indent, ensure_ascii=False) + "\n"


def yaml_download_text(data: object, indent: int | None, items: ItemTexts | None = None) -> str:
    """``yaml_text(data, indent)``, from kept texts when there are some."""
    if indent is None and items is not None and (text := _assembled(data, items.yaml, yaml=True)) is not None:
        return text + "\n"
    return yaml_text(data, indent)
