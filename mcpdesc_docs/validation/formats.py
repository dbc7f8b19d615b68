"""The JSON Schema formats our schemas and the dialects' meta-schemas assert, checked as
jsonschema checks them, without importing jsonschema.

Deciding that a valid description is valid must not cost jsonschema's import (about a
tenth of a second: referencing, attrs, its format checkers): the compiled (Rust)
validators call these back instead of jsonschema's checkers. Each is the function
jsonschema's checker for that format calls, so the answers are the same;
``tests/test_formats.py`` compares them on many strings.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, partial

from .linear_regex import is_regex

FORMATS = ("email", "regex", "uri", "uri-reference")
"""Every format named by our structural schemas and by the meta-schemas of the dialects
tool schemas may declare (a test walks them all)."""

_RFC3986_RULES = {"uri": "URI", "uri-reference": "URI_reference"}

_PCHAR = r"A-Za-z0-9._~!$&'()*+,;=:@-"
_PLAIN_URI = re.compile(
    rf"[A-Za-z][A-Za-z0-9+.-]*://[A-Za-z0-9._~-]*(?::[0-9]*)?(?:/[/{_PCHAR}]*)?(?:\?[/?{_PCHAR}]*)?(?:#[/?{_PCHAR}]*)?"
)
"""A subset of RFC 3986's URIs (and so of its URI references) that most URLs in
descriptions fall in, the dialects' ``$schema`` URIs among them: a scheme, ``//``, a
host of unreserved characters, a port, and a path, query and fragment of unescaped
characters they allow. A string it matches whole is a URI without asking the full
grammar; any other string asks it. Every production here is one of the RFC's (host:
``reg-name``; path: ``path-abempty``); a test holds it to rfc3986-validator's verdict on
random strings."""
_FRAGMENT_ONLY = re.compile(rf"#[/?{_PCHAR}]*")
"""The same-document references (``#/$defs/item``) schemas hold: URI references."""


@cache
def _rfc3986() -> Callable[..., object]:
    from rfc3986_validator import validate_rfc3986  # type: ignore[import-untyped]

    result: Callable[..., object] = validate_rfc3986
    return result


def conforms(format_name: str, value: object) -> bool:
    """Whether ``value`` is valid under ``format_name`` as jsonschema's 2020-12 and draft-07
    checkers say (only strings are checked; a format not in FORMATS passes)."""
    if not isinstance(value, str):
        return True
    if format_name == "email":
        return "@" in value
    if format_name == "regex":
        return is_regex(value)
    rule = _RFC3986_RULES.get(format_name)
    if rule is None:
        return True
    if _PLAIN_URI.fullmatch(value):
        return True
    if rule == "URI_reference" and _FRAGMENT_ONLY.fullmatch(value):
        return True
    try:
        return bool(_rfc3986()(value, rule=rule))
    except ValueError:  # jsonschema counts it as not conforming (uri-reference)
        return False


def checkers() -> dict[str, Callable[[str], bool]]:
    """FORMATS as jsonschema-rs takes format callbacks."""
    return {name: partial(conforms, name) for name in FORMATS}


__all__ = ["FORMATS", "checkers", "conforms"]
