"""A small MCP server written with the official SDK, for the ``describe`` tests.

``python helpdesk_server.py [stdio|http PORT] [--changed]``: ``--changed`` is the same
server one release later (a tool added, one removed, one schema changed), so ``--check``
has something to find and ``--update`` something to refresh.
"""

from __future__ import annotations

import sys
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp_types import Icon, ToolAnnotations
from pydantic import BaseModel, Field

CHANGED = "--changed" in sys.argv


class Reporter(BaseModel):
    name: str
    email: str | None = None


class Ticket(BaseModel):
    id: int
    status: str


server = MCPServer(
    name="helpdesk",
    title="Helpdesk",
    version="2.0.0" if CHANGED else "1.4.0",
    instructions="Search before you create a ticket.",
    website_url="https://helpdesk.example/",
)


@server.tool(
    title="Create a ticket",
    annotations=ToolAnnotations(destructive_hint=False, idempotent_hint=False),
    icons=[Icon(src="https://helpdesk.example/ticket.png", mime_type="image/png")],
    meta={"example.com/team": "support"},
)
def create_ticket(
    summary: Annotated[str, Field(description="One line saying what is wrong")],
    reporter: Reporter,
    priority: Literal["low", "normal", "urgent"] = "normal",
) -> Ticket:
    """Open a new ticket."""
    return Ticket(id=1, status="open")


if CHANGED:

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    def search_tickets(query: str, limit: Annotated[int, Field(ge=1, le=50)] = 20) -> list[Ticket]:
        """Find tickets matching the words of a query, newest first."""
        return []

    @server.tool()
    def close_ticket(ticket_id: int) -> str:
        """Close a ticket."""
        return "closed"

else:

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    def search_tickets(query: str) -> list[Ticket]:
        """Find tickets matching a query."""
        return []

    @server.tool()
    def delete_ticket(ticket_id: int) -> str:
        """Delete a ticket for good."""
        return "deleted"


@server.resource("helpdesk://queues", name="queues", title="Queues", mime_type="application/json")
def queues() -> str:
    """Every queue tickets can be filed in."""
    return "[]"


@server.resource("helpdesk://tickets/{ticket_id}", name="ticket", mime_type="application/json")
def ticket(ticket_id: str) -> str:
    """One ticket, by id."""
    return "{}"


@server.prompt(title="Triage")
def triage(ticket_id: str, tone: str = "neutral") -> str:
    """Decide a ticket's queue and priority."""
    return f"Triage ticket {ticket_id} in a {tone} tone."


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "http":
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        server.run("stdio")
