"""Synthetic descriptions for benchmarks: N tools with realistic input schemas and two
elicitation declarations each, N/10 resources and N/10 prompts.

    .venv/bin/python bench/generate.py [--mcpdesc 0.7.0] N [OUT.yaml | OUT.json]

``--mcpdesc 0.7.0`` writes the same data as a 0.7.0 description (for tools that read only
0.7.0, such as mcpcontract); ``description_070`` says what 0.7.0 cannot hold.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import yaml


def tool(index: int) -> dict[str, Any]:
    name = f"tool_{index:05d}"
    return {
        "name": name,
        "title": f"Tool number {index}",
        "description": f"Does task {index}: reads the **inventory**, checks `quota` and writes a report.",
        "tags": ["work"],
        "annotations": {"readOnlyHint": index % 2 == 0, "idempotentHint": True},
        "inputSchema": {
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "What to look for.", "minLength": 1, "maxLength": 200},
                "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
                "include_archived": {"type": "boolean", "default": False},
                "sort": {"type": "string", "enum": ["newest", "oldest", "relevance"]},
                "filters": {
                    "type": "object",
                    "properties": {
                        "owner": {"type": "string", "format": "email"},
                        "labels": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
                    },
                },
            },
            "required": ["query"],
            "additionalProperties": False,
        },
        "elicitations": [
            {
                "name": "confirm",
                "mode": "form",
                "when": "Before anything is changed.",
                "message": f"Run task {index} now?",
                "requestedSchema": {
                    "type": "object",
                    "properties": {
                        "confirm": {"type": "boolean", "title": "Confirm", "default": False},
                        "note": {"type": "string", "title": "Note", "maxLength": 200},
                    },
                    "required": ["confirm"],
                },
                "onDecline": "Nothing happens.",
                "onCancel": "Nothing happens.",
            },
            {
                "name": "sign_in",
                "mode": "url",
                "protocolVersions": ["2025-11-25"],
                "message": "Sign in to continue.",
                "url": f"https://auth.example.com/start?tool={name}",
            },
        ],
    }


def description(n: int) -> dict[str, Any]:
    return {
        "mcpdesc": "0.9.0",
        "info": {"name": "bench", "version": "1.0.0", "description": f"A synthetic server with {n} tools."},
        "protocolVersions": ["2025-06-18", "2025-11-25"],
        "transports": [{"type": "stdio", "command": "bench"}],
        "tags": [{"name": "work", "description": "Everything."}],
        "tools": [tool(i) for i in range(n)],
        "resources": [
            {
                "uri": f"bench://docs/{i}",
                "name": f"doc_{i:05d}",
                "mimeType": "text/markdown",
                "description": f"Doc {i}.",
            }
            for i in range(max(1, n // 10))
        ],
        "prompts": [
            {
                "name": f"prompt_{i:05d}",
                "description": f"Prompt {i}.",
                "arguments": [{"name": "topic", "required": True}, {"name": "tone"}],
            }
            for i in range(max(1, n // 10))
        ],
    }


PROTOCOL_VERSION_070 = "2025-11-25"
"""The one protocol version the 0.7.0 twin declares: 0.7.0 holds a single
``info.protocolVersion``, and this is the newer of the two the 0.9.0 description lists."""


def description_070(n: int) -> dict[str, Any]:
    """``description(n)`` as 0.7.0, the same data wherever 0.7.0 has a place for it: the
    protocol version moves into ``info`` (one only, ``PROTOCOL_VERSION_070``) and the tools'
    elicitation declarations are left out (0.7.0 closes tools and has no member for them;
    they arrived in 0.8.0). Migrating it to 0.9.0 gives back ``description(n)`` less those
    two differences (a test checks this)."""
    data = description(n)
    twin: dict[str, Any] = {}
    for key, value in data.items():
        if key == "mcpdesc":
            twin[key] = "0.7.0"
        elif key == "info":
            twin[key] = {**value, "protocolVersion": PROTOCOL_VERSION_070}
        elif key == "protocolVersions":
            continue
        elif key == "tools":
            twin[key] = [{k: v for k, v in tool.items() if k != "elicitations"} for tool in value]
        else:
            twin[key] = value
    return twin


def dump(data: dict[str, Any], path: Path) -> Path:
    """``data`` written to ``path``: JSON (indented) for a ``.json`` name, else YAML."""
    if path.suffix == ".json":
        text = json.dumps(data, indent=2)
    else:
        text = yaml.dump(data, Dumper=yaml.CSafeDumper, sort_keys=False)
    path.write_text(text, encoding="utf-8")
    return path


def write(n: int, path: Path, mcpdesc: str = "0.9.0") -> Path:
    """The N-tool description, as ``mcpdesc`` (0.9.0 or 0.7.0), at ``path``."""
    if mcpdesc not in ("0.9.0", "0.7.0"):
        raise ValueError(f"no generator for mcpdesc {mcpdesc}")
    return dump(description_070(n) if mcpdesc == "0.7.0" else description(n), path)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="write a synthetic N-tool description")
    parser.add_argument("--mcpdesc", choices=("0.9.0", "0.7.0"), default="0.9.0")
    parser.add_argument("n", type=int)
    parser.add_argument("out", nargs="?")
    options = parser.parse_args(sys.argv[1:])
    target = Path(options.out or f"bench-{options.n}.mcpdesc.yaml")
    print(write(options.n, target, options.mcpdesc))
