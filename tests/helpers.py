"""Small builders shared by the tests."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from mcpdesc_docs.diagnostics import Diagnostic
from mcpdesc_docs.validation.validator import check_document

PATIENCE = 60.0
"""Seconds a test waits for something that happens at once (a server starting, a thread
ending, a reply on loopback) before taking it for hung. Long on purpose: a loaded machine
can stall a process for seconds, and a test must not fail for it (no test measures speed)."""

VERSIONS = ("0.9.0", "0.8.0")


def base_document(version: str = "0.9.0", **root: Any) -> dict[str, Any]:
    """A valid description with one tool carrying one form-mode elicitation."""
    document: dict[str, Any] = {
        "mcpdesc": version,
        "info": {"name": "example", "version": "1.0.0"},
        "protocolVersions": ["2025-06-18", "2025-11-25", "2026-07-28"],
        "tools": [
            {
                "name": "assign_issue",
                "inputSchema": {"type": "object", "properties": {"issue": {"type": "integer"}}},
                "elicitations": [
                    {
                        "name": "choose_assignee",
                        "mode": "form",
                        "message": "Who should own this issue?",
                        "requestedSchema": {
                            "type": "object",
                            "properties": {"assignee": {"type": "string", "title": "Assignee"}},
                            "required": ["assignee"],
                        },
                    }
                ],
            }
        ],
    }
    document.update(copy.deepcopy(root))
    return document


def elicitation(document: dict[str, Any], index: int = 0) -> dict[str, Any]:
    declaration: dict[str, Any] = document["tools"][0]["elicitations"][index]
    return declaration


def diagnostics_of(document: dict[str, Any]) -> list[Diagnostic]:
    return check_document(document).diagnostics


def errors_of(document: dict[str, Any]) -> list[Diagnostic]:
    return [d for d in diagnostics_of(document) if d.is_error]


def describe(diagnostics: list[Diagnostic]) -> str:
    return "\n".join(f"{d.severity.value} {d.rule} {d.requirement} {d.code} {d.path}: {d.message}" for d in diagnostics)


Path = tuple[str | int, ...]
"""Where a value sits in a document: member names and item indices."""


def walk(value: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    """Every value in a JSON-like document with its path, the document itself first."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from walk(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from walk(item, (*path, index))


AUDITED = """
import sys

events = []
WATCHED = {"urllib.Request", "http.client.connect", "subprocess.Popen", "os.system", "os.exec", "os.posix_spawn"}
WATCHED.add("os.fork")

def _hook(event, args):
    if event.startswith("socket.") or event in WATCHED:
        events.append(event)

sys.addaudithook(_hook)
"""
"""The start of a probe script run in a child process: from there on, ``events`` records
every audit event of a connection, a program run or a fork (build's workers are forks)."""

CLI_AUDIT_PROBE = (
    AUDITED
    + """
from mcpdesc_docs.cli import main

code = main(sys.argv[1:])
print("EVENTS", sorted(set(events)))
sys.exit(code)
"""
)
"""``python -c CLI_AUDIT_PROBE ARGS...`` runs the command line and prints what it did."""
