"""mcpdesc-docs: validate MCP Descriptions and turn them into documentation sites."""

__version__ = "0.1.0"
