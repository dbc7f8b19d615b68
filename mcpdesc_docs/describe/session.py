"""A JSON-RPC session over one transport: requests, their answers, and the server's own
requests, which ``describe`` answers safely (an empty roots list; sampling and elicitation
declined with an error that says who is asking)."""

from __future__ import annotations

from typing import Any

from .budget import DescribeError
from .transport import Message, Transport

_SHOWN_MESSAGE = 200
DECLINED = -32601
"""The error code of the server's requests that describe declines (sampling, elicitation)."""


class ServerError(DescribeError):
    """The server answered a request with a JSON-RPC error."""

    def __init__(self, method: str, code: object, message: object) -> None:
        text = " ".join(str(message).split()) if message is not None else ""
        clipped = text if len(text) <= _SHOWN_MESSAGE else text[: _SHOWN_MESSAGE - 3] + "..."
        self.code = code if isinstance(code, int) and not isinstance(code, bool) else None
        shown_code = self.code if self.code is not None else "?"
        super().__init__(f"the server answered {method} with error {shown_code}" + (f": {clipped}" if clipped else ""))
        self.method = method


def _answer(request: Message) -> Message:
    method = request.get("method")
    if method == "roots/list":
        return {"roots": []}
    if method == "ping":
        return {}
    raise KeyError(method)


class Session:
    def __init__(self, transport: Transport) -> None:
        self.transport = transport
        self._next_id = 0

    def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """The result the server answers ``method`` with; ServerError for an error answer."""
        self._next_id += 1
        ident = self._next_id
        message: Message = {"jsonrpc": "2.0", "id": ident, "method": method}
        if params is not None:
            message["params"] = params
        for incoming in self.transport.exchange(message):
            if "method" in incoming:
                self._incoming(incoming)
            elif (incoming.get("id") == ident and "result" in incoming) or (
                # An error about a request the server could not attribute comes with a null id.
                "error" in incoming and incoming.get("id") in (ident, None)
            ):
                if "error" in incoming:
                    error = incoming["error"] if isinstance(incoming["error"], dict) else {}
                    raise ServerError(method, error.get("code"), error.get("message"))
                result = incoming["result"]
                if not isinstance(result, dict):
                    raise DescribeError(f"the server answered {method} with a result that is not an object")
                return result
        raise DescribeError(f"the server ended its answer to {method} without a result")

    def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        message: Message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.transport.post(message)

    def _incoming(self, message: Message) -> None:
        method = message.get("method")
        if "id" not in message:
            return  # a notification (a list changed, a log line): nothing a listing needs
        try:
            reply: Message = {"jsonrpc": "2.0", "id": message["id"], "result": _answer(message)}
        except KeyError:
            shown = method[:60] if isinstance(method, str) else "?"
            reply = {
                "jsonrpc": "2.0",
                "id": message["id"],
                "error": {
                    "code": DECLINED,
                    "message": f"mcpdesc-docs describe only lists what a server offers; it does not answer {shown}",
                },
            }
        self.transport.post(reply)
