"""A valid 0.9.0 description that exercises every example, _meta, client-requirement and
tool-schema rule, so that each rule has something to accept (and, mutated, to refuse)."""

from __future__ import annotations

import copy
from typing import Any

FORM = {
    "type": "object",
    "properties": {"confirm": {"type": "boolean", "title": "Confirm", "default": False}},
    "required": ["confirm"],
}

RICH: dict[str, Any] = {
    "mcpdesc": "0.9.0",
    "info": {"name": "rich", "version": "1.0.0"},
    "protocolVersions": ["2025-06-18", "2025-11-25", "2026-07-28"],
    "components": {
        "schemas": {"Query": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}},
        "toolExamples": {
            "found": {
                "input": {"q": "printer"},
                "result": {"content": [{"type": "text", "text": "1 hit"}], "structuredContent": {"hits": 1}},
            }
        },
    },
    "tools": [
        {
            "name": "search",
            "protocolVersions": ["2025-11-25"],
            "inputSchema": {"$componentRef": "#/components/schemas/Query"},
            "outputSchema": {"type": "object", "properties": {"hits": {"type": "integer"}}, "required": ["hits"]},
            "_meta": {"example.com/team": "search"},
            "clientRequirements": {"elicitation": {"form": {}, "url": {}}, "roots": {}, "sampling": {"tools": {}}},
            "elicitations": [
                {"name": "confirm", "mode": "form", "message": "Go on?", "requestedSchema": FORM},
                {"name": "sign_in", "mode": "url", "message": "Sign in", "url": "https://example.com/sign-in"},
            ],
            "examples": {
                "found": {"$componentRef": "#/components/toolExamples/found"},
                "failed": {
                    "input": {"q": "x"},
                    "result": {
                        "content": [
                            {"type": "text", "text": "no index", "_meta": {"example.com/trace": "t1"}},
                            {
                                "type": "resource_link",
                                "uri": "file:///i",
                                "name": "index",
                                "icons": [{"src": "https://e.com/i.png"}],
                            },
                            {"type": "audio", "data": "AAAA", "mimeType": "audio/wav"},
                        ],
                        "isError": True,
                        "_meta": {"io.modelcontextprotocol/related-task": {"taskId": "t-1"}},
                    },
                },
            },
            "interactionExamples": {
                "confirmed": {
                    "input": {"q": "printer"},
                    "steps": [
                        {"type": "roots", "request": {}, "response": {"roots": [{"uri": "file:///work"}]}},
                        {
                            "type": "sampling",
                            "request": {
                                "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}],
                                "maxTokens": 10,
                                "tools": [{"name": "t", "inputSchema": {"type": "object"}}],
                            },
                            "response": {"role": "assistant", "content": {"type": "text", "text": "ok"}, "model": "m"},
                        },
                        {
                            "type": "elicitation",
                            "declaration": "confirm",
                            "request": {"mode": "form", "message": "Go on?", "requestedSchema": FORM},
                            "response": {"action": "accept", "content": {"confirm": True}},
                        },
                        {
                            "type": "elicitation",
                            "declaration": "sign_in",
                            "request": {"mode": "url", "message": "Sign in", "url": "https://example.com/sign-in"},
                            "response": {"action": "decline"},
                        },
                    ],
                    "result": {"content": [], "structuredContent": {"hits": 2}},
                }
            },
        },
        {
            "name": "headers",
            "protocolVersions": ["2026-07-28"],
            "inputSchema": {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "properties": {
                    "region": {"type": "string", "x-mcp-header": "X-Region"},
                    "nested": {"type": "object", "properties": {"flag": {"type": "boolean", "x-mcp-header": "X-Flag"}}},
                },
            },
            "clientRequirements": {"elicitation": {"form": {}}, "extensions": {"io.modelcontextprotocol/ui": {}}},
            "examples": {
                "ok": {
                    "input": {"region": "eu"},
                    "result": {
                        "resultType": "complete",
                        "content": [{"type": "text", "text": "done"}],
                        "_meta": {
                            "traceparent": "00-abc-def-01",
                            "io.modelcontextprotocol/serverInfo": {"name": "s", "version": "1"},
                        },
                    },
                }
            },
        },
        {
            "name": "legacy",
            "protocolVersions": ["2025-06-18"],
            "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
        },
    ],
    "resources": [
        {
            "uri": "docs://guide",
            "name": "guide",
            "protocolVersions": ["2025-11-25"],
            "mimeType": "text/plain",
            "size": 5,
            "examples": {
                "guide": {"result": {"contents": [{"uri": "docs://guide", "mimeType": "text/plain", "text": "hello"}]}}
            },
        },
        {
            "uri": "docs://logo",
            "name": "logo",
            "protocolVersions": ["2026-07-28"],
            "mimeType": "image/png",
            "examples": {
                "logo": {
                    "result": {
                        "resultType": "complete",
                        "ttlMs": 1000,
                        "cacheScope": "public",
                        "contents": [{"uri": "docs://logo", "mimeType": "image/png", "blob": "aGVsbG8="}],
                    }
                }
            },
        },
    ],
    "resourceTemplates": [
        {
            "uriTemplate": "docs://{section}/{+path}",
            "name": "page",
            "protocolVersions": ["2025-11-25"],
            "examples": {
                "intro": {
                    "uri": "docs://guide/intro/start.md",
                    "result": {"contents": [{"uri": "docs://guide/intro/start.md", "text": "x"}]},
                }
            },
            "completionExamples": {
                "section": {
                    "argument": {"name": "section", "value": "gu"},
                    "result": {"completion": {"values": ["guide"]}},
                },
                "path": {
                    "argument": {"name": "path", "value": "in"},
                    "context": {"arguments": {"section": "guide"}},
                    "result": {"completion": {"values": ["intro/"], "total": 1, "hasMore": False}},
                },
            },
        }
    ],
    "prompts": [
        {
            "name": "summarise",
            "protocolVersions": ["2025-11-25"],
            "arguments": [{"name": "topic", "required": True}, {"name": "tone"}],
            "examples": {
                "short": {
                    "arguments": {"topic": "printers"},
                    "result": {
                        "messages": [{"role": "user", "content": {"type": "text", "text": "Summarise printers"}}]
                    },
                }
            },
            "completionExamples": {
                "topic": {
                    "argument": {"name": "topic", "value": "pr"},
                    "context": {"arguments": {"tone": "brief"}},
                    "result": {"completion": {"values": ["printers"]}},
                }
            },
        }
    ],
}


def rich() -> dict[str, Any]:
    return copy.deepcopy(RICH)
