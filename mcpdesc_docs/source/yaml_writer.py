"""Writing data as YAML that reads back, under the spec's YAML profile, as the same data.

JSON text is YAML 1.2, so the data's JSON serves (the C encoder: fast), with the few
characters a YAML reader takes differently escaped. PyYAML's writer is only needed for a
member name too long for a YAML implicit key, and then writes every string quoted (a
plain ``1e5``, ``no`` or ``2026-07-28`` means a number, a boolean or a date to some
readers, and ``1e5`` a number to the profile).
"""

from __future__ import annotations

import json
import re

import yaml

# The characters JSON leaves raw that YAML readers refuse (C1 controls, U+FFFE/U+FFFF) or
# read as line breaks (YAML 1.1's NEL, LS, PS): JSON's \u escapes keep the text both.
_NOT_YAML_PRINTABLE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")
# YAML allows an implicit key of at most 1,024 characters; JSON text has only implicit keys.
_LONGEST_KEY = 1000
_SHORT_KEY = (_LONGEST_KEY - 2) // 6
"""Only a name longer than this can take 1,000 characters as JSON (\\u escapes: 6 each)."""


def _escape_for_yaml(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def yaml_text_of_json(text: str) -> str:
    """JSON text as YAML that reads back as the same data (when no member name is too long)."""
    return _NOT_YAML_PRINTABLE.sub(_escape_for_yaml, text)


def is_long_key(key: str) -> bool:
    """Whether a member name is too long for a YAML implicit key once written as JSON."""
    return len(key) > _SHORT_KEY and len(json.dumps(key)) > _LONGEST_KEY


def _has_long_key(data: object) -> bool:
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if any(len(key) > _SHORT_KEY and is_long_key(key) for key in value):
                return True
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return False


class _QuotedStringsDumper(yaml.CSafeDumper):
    """Every string double-quoted, so none can read back as a number, a boolean or null."""


_QuotedStringsDumper.add_representer(
    str, lambda dumper, text: dumper.represent_scalar("tag:yaml.org,2002:str", text, style='"')
)


def json_as_yaml(data: object, indent: int | None) -> str | None:
    """The data's JSON text as YAML, without a line end; None when a member name is too
    long for a YAML key (PyYAML's writer is then needed)."""
    if _has_long_key(data):
        return None
    return yaml_text_of_json(json.dumps(data, indent=indent, ensure_ascii=False))


def yaml_text(data: object, indent: int | None) -> str:
    """The data (JSON values) as YAML that reads back as the same data; ``indent`` as for
    ``json.dumps``."""
    text = json_as_yaml(data, indent)
    if text is None:
        return yaml.dump(data, Dumper=_QuotedStringsDumper, sort_keys=False, allow_unicode=True)
    return text + "\n"
