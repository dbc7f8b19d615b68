"""Describing a running MCP server: connect with the official SDK, list what it serves,
write a description, compare one with the server, refresh one in place.

The only stage that starts a process or opens a connection, and only to the server the
user names (``commands.describe``).
"""
