"""RFC 6570 URI templates: parsing comes from the ``uri-template`` library (already required
by jsonschema's ``uri-template`` format); this module adds the reverse question the library
does not answer: could a given URI be an expansion of the template?"""

from __future__ import annotations

import re
from functools import lru_cache

import uri_template

_UNRESERVED = r"A-Za-z0-9\-._~"
_PCT = r"%[0-9A-Fa-f]{2}"
_RESERVED = r":/?#\[\]@!$&'()*+,;="
# What one expanded value may contain, by operator: "+" and "#" keep reserved characters.
_PLAIN_VALUE = rf"(?:[{_UNRESERVED}]|{_PCT})*"
_RESERVED_VALUE = rf"(?:[{_UNRESERVED}{_RESERVED}]|{_PCT})*"


def is_valid_template(template: str) -> bool:
    return bool(uri_template.validate(template))


def variable_names(template: str) -> list[str]:
    """The variables of a template, operators and modifiers stripped ({+path} -> path, {id:3} -> id)."""
    return list(uri_template.URITemplate(template).variable_names)


def _expression_pattern(operator: str) -> str:
    if operator in ("", "+"):
        value = _PLAIN_VALUE if operator == "" else _RESERVED_VALUE
        return rf"(?:{value}(?:,{value})*)?"
    if operator == "#":
        return rf"(?:#{_RESERVED_VALUE}(?:,{_RESERVED_VALUE})*)?"
    if operator in (".", "/"):
        return rf"(?:{re.escape(operator)}{_PLAIN_VALUE}(?:[,{re.escape(operator)}]{_PLAIN_VALUE})*)?"
    if operator == ";":
        return rf"(?:;[{_UNRESERVED}%]+(?:={_PLAIN_VALUE}(?:,{_PLAIN_VALUE})*)?)*"
    if operator in ("?", "&"):
        pair = rf"[{_UNRESERVED}%]+={_PLAIN_VALUE}(?:,{_PLAIN_VALUE})*"
        return rf"(?:{re.escape(operator)}{pair}(?:&{pair})*)?"
    return ".*"


@lru_cache(maxsize=256)
def _matcher(template: str) -> re.Pattern[str]:
    parts = []
    for expansion in uri_template.URITemplate(template).expansions:
        literal = getattr(expansion, "value", None)
        if isinstance(literal, str) and not hasattr(expansion, "operator"):
            parts.append(re.escape(literal))
        else:
            parts.append(_expression_pattern(str(getattr(expansion, "operator", ""))))
    return re.compile("".join(parts))


def could_expand_to(template: str, uri: str) -> bool:
    """True when some variable values make the template expand to ``uri``."""
    return _matcher(template).fullmatch(uri) is not None


__all__ = ["could_expand_to", "is_valid_template", "variable_names"]
