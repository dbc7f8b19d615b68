"""Descriptions of about 1 MB that are slow on purpose (issue 30, items 11 and 12): each
is valid, so ``build`` goes all the way. Profile them, or time them with
``bench/hostile.py CASE OUT.json && /usr/bin/time mcpdesc-docs build OUT.json``.

    .venv/bin/python bench/hostile.py CASE OUT.json    (CASE: one of CASES)
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

Doc = dict[str, Any]
TEXT_RESULT = {"content": [{"type": "text", "text": "ok"}]}


def _base(tools: list[Doc]) -> Doc:
    return {
        "mcpdesc": "0.9.0",
        "info": {"name": "hostile", "version": "1.0.0"},
        "protocolVersions": ["2025-11-25"],
        "transports": [{"type": "stdio", "command": "hostile-server"}],
        "tools": tools,
    }


def yaml_fences(blocks: int = 50, size: int = 19_980) -> Doc:
    """Fenced ``yaml`` blocks of ``! ! ! ...`` within the highlighting cap: a tag per
    two characters on one line, on which Pygments' lexer tried its key rule each time.
    Each block differs (by a last line, a comment) so that none is answered from a cache."""
    block = ("! " * (size // 2)).strip()
    tools = [
        {
            "name": f"t{index}",
            "inputSchema": {"type": "object"},
            "description": f"```yaml\n{block}\n# block {index}\n```",
        }
        for index in range(blocks)
    ]
    return _base(tools)


def markdown_brackets(fields: int = 11, size: int = 95_000) -> Doc:
    """About 1 MB of ``![`` in descriptions, each field just under MAX_MARKDOWN (and each
    its own, so that none is answered from the cache of rendered text)."""
    tools = [
        {"name": f"t{index}", "inputSchema": {"type": "object"}, "description": "![" * (size // 2) + str(index)}
        for index in range(fields)
    ]
    return _base(tools)


def wide_schema(properties: int = 20_000, examples: int = 40) -> Doc:
    """One tool with an input schema of 20,000 properties, and examples that each fill 100
    of them: about 1.2 MB. jsonschema took 0.6 ms a property to check the schema against
    its meta-schema."""
    schema = {
        "type": "object",
        "properties": {
            f"field_{index:05d}": {"type": "string", "description": f"Field {index}."} for index in range(properties)
        },
    }
    step = properties // 100
    example_inputs = {
        f"e{number}": {
            "input": {f"field_{index:05d}": f"v{number}" for index in range(number % step, properties, step)},
            "result": TEXT_RESULT,
        }
        for number in range(examples)
    }
    tool = {"name": "wide", "inputSchema": schema, "examples": example_inputs}
    return _base([tool])


CASES: dict[str, Callable[[], Doc]] = {
    "yaml-fences": yaml_fences,
    "markdown-brackets": markdown_brackets,
    "wide-schema": wide_schema,
}


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in CASES:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    text = json.dumps(CASES[argv[0]](), indent=1)
    Path(argv[1]).write_text(text, encoding="utf-8")
    print(f"{argv[1]}: {len(text.encode()):,} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
