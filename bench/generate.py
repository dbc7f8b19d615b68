"""Synthetic descriptions for benchmarks: N tools with realistic input schemas and two
elicitation declarations each, N/10 resources and N/10 prompts.

    .venv/bin/python bench/generate.py [--mcpdesc 0.7.0] N [OUT.yaml | OUT.json]

``--mcpdesc 0.7.0`` writes the same data as a 0.7.0 description (for tools that read only
0.7.0, such as mcpcontract); ``description_070`` says what 0.7.0 cannot hold.

And portals: N servers of about 20 primitives each (tools with schemas, a few resources
and prompts, tags, some elicitations), varied and the same for the same seed, one
description a file in ``DIR/servers/``, with a ``DIR/mcpdesc-docs.yml`` naming them.

    .venv/bin/python bench/generate.py --portal N DIR [SEED]
"""

from __future__ import annotations

import argparse
import copy
import json
import random
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


PORTAL_PRIMITIVES = 20
"""About how many primitives each server of a portal has."""
PORTAL_FOLDER = "servers"
_TOPICS = ("tickets", "invoices", "files", "builds", "alerts", "calendar", "notes", "orders", "users", "metrics")
_PROPERTIES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("query", {"type": "string", "description": "What to look for.", "minLength": 1, "maxLength": 200}),
    ("limit", {"type": "integer", "minimum": 1, "maximum": 100, "default": 20}),
    ("cursor", {"type": "string", "description": "Where the previous page ended."}),
    ("since", {"type": "string", "format": "date-time"}),
    ("owner", {"type": "string", "format": "email"}),
    ("state", {"type": "string", "enum": ["open", "closed", "all"], "default": "open"}),
    ("labels", {"type": "array", "items": {"type": "string"}, "uniqueItems": True}),
    ("dry_run", {"type": "boolean", "default": False}),
    ("amount", {"type": "number", "minimum": 0}),
    ("options", {"type": "object", "properties": {"verbose": {"type": "boolean"}, "depth": {"type": "integer"}}}),
)


def _portal_tool(chance: random.Random, topic: str, index: int, tags: list[str]) -> dict[str, Any]:
    verb = chance.choice(("list", "get", "create", "update", "close", "search", "export", "sync"))
    chosen = chance.sample(_PROPERTIES, chance.randint(1, 6))
    declared: dict[str, Any] = {
        "name": f"{verb}_{topic}_{index}",
        "title": f"{verb.capitalize()} {topic} ({index})",
        "description": f"{verb.capitalize()}s {topic}: reads the **{topic}** store and returns what it found.",
        "tags": chance.sample(tags, chance.randint(1, len(tags))),
        "annotations": {"readOnlyHint": verb in ("list", "get", "search", "export")},
        "inputSchema": {
            "type": "object",
            # Copies: a value shared between tools would be written as a YAML anchor.
            "properties": {name: copy.deepcopy(schema) for name, schema in chosen},
            "required": [chosen[0][0]],
            "additionalProperties": False,
        },
    }
    if chance.random() < 0.25:
        declared["elicitations"] = [
            {
                "name": "confirm",
                "mode": "form",
                "message": f"{verb.capitalize()} these {topic} now?",
                "requestedSchema": {
                    "type": "object",
                    "properties": {"confirm": {"type": "boolean", "title": "Confirm", "default": False}},
                    "required": ["confirm"],
                },
            }
        ]
    return declared


def portal_description(index: int, seed: int = 0) -> dict[str, Any]:
    """Server ``index`` of a portal: about PORTAL_PRIMITIVES primitives, the same for the
    same index and seed."""
    chance = random.Random(f"portal:{seed}:{index}")
    topic = chance.choice(_TOPICS)
    tags = [f"{topic}-{part}" for part in chance.sample(("read", "write", "admin", "reports"), chance.randint(2, 4))]
    resources, prompts = chance.randint(1, 4), chance.randint(1, 3)
    tools = PORTAL_PRIMITIVES - resources - prompts + chance.randint(-2, 2)
    return {
        "mcpdesc": "0.9.0",
        "info": {
            "name": f"server-{index:04d}",
            "title": f"Server {index} ({topic})",
            "version": f"{chance.randint(0, 3)}.{chance.randint(0, 20)}.0",
            "description": f"A synthetic server of the portal bench, about {topic}.",
        },
        "protocolVersions": ["2025-06-18", "2025-11-25"],
        "transports": [{"type": "stdio", "command": f"server-{index:04d}"}],
        "tags": [{"name": tag, "description": f"What touches {tag}."} for tag in tags],
        "tools": [_portal_tool(chance, topic, i, tags) for i in range(tools)],
        "resources": [
            {
                "uri": f"{topic}://server-{index}/doc/{i}",
                "name": f"doc_{i}",
                "mimeType": "text/markdown",
                "description": f"Document {i} about {topic}.",
            }
            for i in range(resources)
        ],
        "prompts": [
            {
                "name": f"summarize_{i}",
                "description": f"Summarize {topic}, way {i}.",
                "arguments": [{"name": "topic", "required": True}, {"name": "tone"}][: chance.randint(1, 2)],
            }
            for i in range(prompts)
        ],
    }


def write_portal(n: int, directory: Path, seed: int = 0) -> list[Path]:
    """N descriptions in ``directory/servers/`` and the ``mcpdesc-docs.yml`` naming them."""
    folder = directory / PORTAL_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for index in range(n):
        path = folder / f"server-{index:04d}.mcpdesc.yaml"
        text = yaml.dump(portal_description(index, seed), Dumper=yaml.CSafeDumper, sort_keys=False)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    config = {"site_name": f"Portal of {n} servers", "descriptions": [f"{PORTAL_FOLDER}/*.mcpdesc.yaml"]}
    (directory / "mcpdesc-docs.yml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    return written


if __name__ == "__main__" and sys.argv[1:2] == ["--portal"]:
    print(len(write_portal(int(sys.argv[2]), Path(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) > 4 else 0)))
elif __name__ == "__main__":
    parser = argparse.ArgumentParser(description="write a synthetic N-tool description")
    parser.add_argument("--mcpdesc", choices=("0.9.0", "0.7.0"), default="0.9.0")
    parser.add_argument("n", type=int)
    parser.add_argument("out", nargs="?")
    options = parser.parse_args(sys.argv[1:])
    target = Path(options.out or f"bench-{options.n}.mcpdesc.yaml")
    print(write(options.n, target, options.mcpdesc))
