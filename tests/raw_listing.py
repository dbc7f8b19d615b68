"""An independent listing of a server, in raw JSON-RPC: what the tests compare ``describe``
with. Deliberately plain (one initialize, one listing per method, no tolerance, no
bounds) and sharing no code with ``mcpdesc_docs.describe``."""

from __future__ import annotations

import json
import subprocess
import urllib.request
from typing import Any

METHODS = {
    "tools": "tools/list",
    "resources": "resources/list",
    "resourceTemplates": "resources/templates/list",
    "prompts": "prompts/list",
}
CLIENT = {"name": "raw-listing", "version": "0"}


def _all_pages(ask: Any, collection: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    cursor = None
    while True:
        result = ask(METHODS[collection], {"cursor": cursor} if cursor else {})
        items.extend(result[collection])
        cursor = result.get("nextCursor")
        if not cursor:
            return items


def stdio_listing(command: list[str], version: str, capabilities: dict[str, Any]) -> dict[str, Any]:
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert process.stdin is not None
    assert process.stdout is not None
    counter = iter(range(1, 10_000))

    def send(message: dict[str, Any]) -> None:
        process.stdin.write(json.dumps(message).encode() + b"\n")  # type: ignore[union-attr]
        process.stdin.flush()  # type: ignore[union-attr]

    def ask(method: str, params: dict[str, Any]) -> dict[str, Any]:
        ident = next(counter)
        send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        while True:
            message = json.loads(process.stdout.readline())  # type: ignore[union-attr]
            if "method" in message and "id" in message:  # the server asks something: say no
                send({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "no"}})
            elif message.get("id") == ident:
                return message["result"]  # type: ignore[no-any-return]

    try:
        init = ask("initialize", {"protocolVersion": version, "capabilities": capabilities, "clientInfo": CLIENT})
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        listing: dict[str, Any] = {"initialize": init}
        for collection in METHODS:
            kind = "resources" if collection == "resourceTemplates" else collection
            listing[collection] = _all_pages(ask, collection) if kind in init["capabilities"] else []
        return listing
    finally:
        process.kill()
        process.wait(timeout=10)
        process.stdin.close()
        process.stdout.close()


def http_initialize(url: str, version: str) -> tuple[dict[str, Any] | None, str | None]:
    """The initialize result at ``version`` over streamable HTTP (None when refused) and the session id."""
    body = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"protocolVersion": version, "capabilities": {}, "clientInfo": CLIENT},
        }
    ).encode()
    request = urllib.request.Request(
        url,
        data=body,
        headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            session = response.headers.get("mcp-session-id")
            text = response.read().decode()
    except urllib.error.HTTPError:
        return None, None
    events = [line[5:] for line in text.splitlines() if line.startswith("data:") and line[5:].strip()]
    data = json.loads(events[0]) if events else json.loads(text)
    return data.get("result"), session
