"""An MCP server that misbehaves on purpose, in raw JSON-RPC, for the describe tests.

``python hostile_server.py BEHAVIOUR [stdio | http PORT]``. Every behaviour answers the
handshake at 2025-11-25 like a real server unless it is about the handshake; the HTTP
form listens on 127.0.0.1 only and stops by itself after a minute.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

BEHAVIOUR, _, PID_FILE = sys.argv[1].partition(":")
"""``lingering-child:PATH`` writes its child's pid to PATH."""
VERSION = "2025-11-25"
CHUNK = b"x" * 65536


def tool(index: int) -> dict[str, Any]:
    return {"name": f"tool_{index}", "inputSchema": {"type": "object"}}


def initialize(params: dict[str, Any]) -> dict[str, Any]:
    if BEHAVIOUR == "error-32000":
        raise ServerError(-32000, "the backing store is down")
    if BEHAVIOUR == "huge-error":
        raise ServerError(-32603, "boom " * 400_000)
    if params.get("protocolVersion") != VERSION:
        return {"protocolVersion": VERSION, "capabilities": {}, "serverInfo": {"name": "hostile", "version": "1"}}
    version = "" if BEHAVIOUR == "empty-version" else "1.0"
    return {
        "protocolVersion": VERSION,
        "capabilities": {"tools": {}},
        "serverInfo": {"name": "hostile", "version": version},
    }


def tools_list(params: dict[str, Any]) -> dict[str, Any]:
    if BEHAVIOUR == "many-tools":
        return {"tools": [tool(i) for i in range(300_000)]}
    if BEHAVIOUR == "endless-pages":
        page = int(params.get("cursor") or 0)
        threading.Event().wait(0.2)
        return {"tools": [tool(page)], "nextCursor": str(page + 1)}
    if BEHAVIOUR == "huge-integer":
        schema = {"type": "object", "properties": {"n": {"type": "integer", "maximum": int("9" * 4001)}}}
        return {"tools": [{"name": "count", "inputSchema": schema}]}
    return {"tools": [tool(0)]}


class ServerError(Exception):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    if "id" not in message:
        return None
    handlers = {"initialize": initialize, "tools/list": tools_list}
    handler = handlers.get(message.get("method", ""))
    try:
        if handler is None:
            raise ServerError(-32601, "method not found")
        result = handler(message.get("params") or {})
    except ServerError as exc:
        return {"jsonrpc": "2.0", "id": message["id"], "error": {"code": exc.code, "message": exc.message}}
    return {"jsonrpc": "2.0", "id": message["id"], "result": result}


def endless() -> Iterator[bytes]:
    yield b'{"jsonrpc": "2.0", "id": 1, "result": {"padding": "'
    while True:
        yield CHUNK


def serve_stdio() -> None:
    if BEHAVIOUR == "stderr-flood":
        for _ in range(1024 * 16):  # 1 GiB, as it comes, then a last word, and gone
            sys.stderr.buffer.write(CHUNK)
        sys.stderr.buffer.write(b"\nthe last words of a flooded standard error\n")
        sys.stderr.flush()
        sys.exit(3)
    if BEHAVIOUR == "lingering-child":
        # A child in the server's process group that outlives the server (which exits on EOF).
        child = subprocess.Popen([sys.executable, "-c", "import time\nwhile True: time.sleep(0.1)"])
        with open(PID_FILE, "w") as handle:
            handle.write(str(child.pid))
    for line in sys.stdin.buffer:
        message = json.loads(line)
        if BEHAVIOUR == "endless-line" and message.get("method") == "initialize":
            for chunk in endless():
                sys.stdout.buffer.write(chunk)
        reply = answer(message)
        if reply is not None:
            sys.stdout.buffer.write(json.dumps(reply).encode() + b"\n")
            sys.stdout.flush()


class Handler(BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_DELETE(self) -> None:
        self.send_response(200)
        self.end_headers()

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        message = json.loads(body)
        if BEHAVIOUR == "endless-body" and message.get("method") == "initialize":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            try:
                for chunk in endless():
                    self.wfile.write(chunk)
            except OSError:
                return
        reply = answer(message)
        if reply is None:
            self.send_response(202)
            self.end_headers()
            return
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("mcp-session-id", "s1")
        self.end_headers()
        self.wfile.write(data)


def serve_http(port: int) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    threading.Timer(60, server.shutdown).start()
    server.serve_forever()


if __name__ == "__main__":
    if sys.argv[2:3] == ["http"]:
        serve_http(int(sys.argv[3]))
    else:
        serve_stdio()
