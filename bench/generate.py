"""Synthetic descriptions for benchmarks: N tools with realistic input schemas and two
elicitation declarations each, N/10 resources and N/10 prompts.

    .venv/bin/python bench/generate.py N [OUT.yaml]
"""

from __future__ import annotations

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


def write(n: int, path: Path) -> Path:
    path.write_text(yaml.dump(description(n), Dumper=yaml.CSafeDumper, sort_keys=False), encoding="utf-8")
    return path


if __name__ == "__main__":
    count = int(sys.argv[1])
    target = Path(sys.argv[2] if len(sys.argv) > 2 else f"bench-{count}.mcpdesc.yaml")
    print(write(count, target))
