"""Words for the exported schemas (``mcpdesc-docs schema``): what each member of a
description means and what each enumerated value selects, so that an editor's completion
and hover explain them. Validation never reads these: the structural schemas stay as terse
as the validator needs, and ``schema_export.py`` adds these words to a copy.

A member name means the same in every object that has it (``name`` of a tool, a prompt or
a tag is that declaration's name), so the words are keyed by name; where an object gives a
name a meaning of its own, the words say what it is in each."""

from __future__ import annotations

MEMBER_DOCS: dict[str, str] = {
    # The root
    "$schema": "The schema snapshot this description follows; `mcpdesc` still decides the format version.",
    "mcpdesc": 'The format version of this description, such as "0.9.0".',
    "info": "The server: its name, version, title and how to reach its authors. Applies to every protocol revision.",
    "protocolVersions": (
        "The MCP protocol revisions this applies to. At the root: every revision the server speaks "
        "(non-empty, no repeats); on a declaration: the revisions it exists in (default: all of the root's)."
    ),
    "instructions": "Guidance for the model on how to use the server as a whole (not tied to a revision).",
    "transports": "How clients connect: one entry per transport (stdio, streamable HTTP, legacy SSE).",
    "securitySchemes": "The named ways a client can authenticate, referred to by `security` requirements.",
    "security": (
        "Which security schemes a client must satisfy: a list of alternatives, each a map of scheme name to "
        "the scopes it needs. `[]` clears an inherited requirement; omitted inherits it."
    ),
    "components": "Reusable schemas and examples, referred to with `$componentRef`.",
    "capabilities": (
        "What the server announces at initialization, one entry per set of revisions (their scopes must not overlap)."
    ),
    "tools": "The tools the server offers (its `tools/list`), or in capabilities: the tools capability.",
    "resources": "The fixed resources the server offers, or in capabilities: the resources capability.",
    "resourceTemplates": "The parameterized resources the server offers, each an RFC 6570 URI template.",
    "prompts": "The prompts the server offers, or in capabilities: the prompts capability.",
    "tags": (
        "At the root: the catalogue of tags, in display order. On a declaration: the tags it belongs to "
        "(each declared in the catalogue when there is one)."
    ),
    # Info, contact, license, icons
    "version": "The version of the server (semantic versioning recommended), or of the producer.",
    "title": "A human-readable display name (the name is shown when it is absent).",
    "description": "What this is, for readers (Markdown).",
    "id": "An identifier: for the server a URI, DID or URN; for a tool-use block the call's id.",
    "icons": "Icons to show beside this, each with its source and optionally its type, sizes and theme.",
    "websiteUrl": "The server's home page.",
    "contact": "Who to contact about the server: name, URL and e-mail address.",
    "license": "The license the server is offered under: its name and a URL to its text.",
    "email": "An e-mail address.",
    "src": "The icon itself: an http(s) URL or a `data:` URI.",
    "sizes": 'The sizes the icon is available in, such as "48x48" or "any".',
    "theme": "The colour theme the icon is drawn for.",
    # Transports
    "command": "The program a client starts to run the server over stdio.",
    "args": "The arguments passed to the stdio command.",
    "env": "Environment variables set for the stdio command (name to value).",
    "url": "An absolute URL: a transport's endpoint, a url-mode elicitation's page, or a license's or contact's page.",
    # Security
    "scheme": 'The HTTP authentication scheme, such as "bearer" or "basic".',
    "bearerFormat": 'How a bearer token is formatted, such as "JWT" (a hint for readers).',
    "in": "Where an API key is sent.",
    "flows": "The OAuth 2 flows the server supports (at least one).",
    "openIdConnectUrl": "The OpenID Connect discovery document's URL.",
    "implicit": "The OAuth 2 implicit flow.",
    "password": "The OAuth 2 resource owner password flow.",
    "clientCredentials": "The OAuth 2 client credentials flow.",
    "authorizationCode": "The OAuth 2 authorization code flow.",
    "authorizationUrl": "The authorization endpoint of an OAuth 2 flow.",
    "tokenUrl": "The token endpoint of an OAuth 2 flow.",
    "refreshUrl": "The endpoint for refreshing OAuth 2 tokens.",
    "scopes": "The scopes of an OAuth 2 flow: scope name to what it grants.",
    # Capabilities
    "listChanged": "Whether the server notifies clients when this list changes.",
    "subscribe": "Whether clients can subscribe to changes of a resource.",
    "completions": "The server offers argument completion (revision 2025-03-26 and later).",
    "logging": "The server sends log messages to clients.",
    "tasks": "Task-augmented requests (revision 2025-11-25 only; later revisions use an extension).",
    "extensions": "MCP extensions, by identifier (`prefix/name`), with their settings.",
    "experimental": "Non-standard experimental capabilities, by name.",
    # Primitives
    "name": (
        "The name: of a tool, prompt, resource, argument or tag (as clients see it), of a security scheme's "
        "API key parameter, or of an elicitation declaration (letters, digits, `.`, `_`, `-`)."
    ),
    "inputSchema": (
        "The JSON Schema of the tool's arguments; its root is `type: object`. May be a `$componentRef` to a schema."
    ),
    "outputSchema": "The JSON Schema of the tool's structured result (revision 2025-06-18 and later).",
    "annotations": "Hints about behaviour or audience, for clients (advisory, never trusted).",
    "execution": "How the tool runs as a task (revision 2025-11-25 only).",
    "taskSupport": "Whether calls to the tool may, or must, run as tasks.",
    "examples": "Named examples of a call, read or prompt, each an example or a `$componentRef` to one.",
    "interactionExamples": "Named examples of a tool call with the requests the server makes of the client meanwhile.",
    "elicitations": "The questions the server may ask the user while handling this (elicitation declarations).",
    "deprecated": "Whether this is deprecated: still offered, but not for new use.",
    "_meta": "MCP metadata, passed through as it is (keys follow MCP's `_meta` grammar).",
    "clientRequirements": "The client capabilities this needs to be called, read or got.",
    "uri": "The URI of the resource (any scheme), or of an example's expanded template.",
    "uriTemplate": "The RFC 6570 URI template of the resources this describes.",
    "mimeType": 'The media type of the content, such as "text/markdown".',
    "size": "The resource's size in bytes.",
    "arguments": "A prompt's arguments; in an example, the argument values (name to value).",
    "required": "Whether the argument must be given; in a form schema, the properties that must be answered.",
    "completionExamples": "Named examples of argument completion for this prompt or template.",
    # Annotations
    "readOnlyHint": "The tool does not change its environment (default: false).",
    "destructiveHint": "The tool may destroy or overwrite data (default: true).",
    "idempotentHint": "Calling the tool again with the same arguments has no further effect (default: false).",
    "openWorldHint": "The tool reaches beyond the server, such as the web (default: true).",
    "audience": "Who the content is for: the user, the assistant, or both.",
    "priority": "How important the content is, from 0 (optional) to 1 (essential).",
    "lastModified": "When the content last changed (ISO 8601; revision 2025-06-18 and later).",
    # Elicitations
    "mode": "How the user is asked: a form the client shows, or a page at a URL.",
    "message": "What the user is told when asked.",
    "when": "When the server asks (for readers).",
    "requestedSchema": "The form: a flat JSON Schema of the answers (or a `$componentRef` to one).",
    "onDecline": "What happens when the user declines.",
    "onCancel": "What happens when the user cancels.",
    # Examples
    "input": "The arguments of the call (`{}` when there are none).",
    "result": "The result as the server returns it, without the JSON-RPC envelope.",
    "steps": "The requests the server makes of the client during the call, in order.",
    "declaration": "The name of the tool's elicitation declaration this step asks.",
    "request": "The server's request to the client.",
    "response": "The client's answer.",
    "argument": "The argument being completed: its name and the value typed so far.",
    "context": "The values of the other arguments already given.",
    "content": "The content: a list of content blocks, or the answers of an accepted form.",
    "isError": "Whether the call failed (then the result has no structured content).",
    "contents": "The contents read: each with its URI and either text or a base64 blob.",
    "messages": "The messages: each with a role and one content block.",
    "completion": "The completion values offered, how many there are in all, and whether there are more.",
    "values": "The completions offered, in order (at most 100).",
    "total": "How many completions there are in all.",
    "hasMore": "Whether there are more completions than those listed.",
    "action": "How the user answered.",
    "text": "Text content.",
    "blob": "Binary content, base64-encoded.",
    "data": "Base64-encoded image or audio data.",
    # Components and references
    "$componentRef": "A reference to a component of this document: `#/components/<namespace>/<name>`.",
    "schemas": "Reusable JSON Schemas, by name.",
    "toolExamples": "Reusable tool examples, by name.",
    "resourceExamples": "Reusable resource examples, by name.",
    "resourceTemplateExamples": "Reusable resource template examples, by name.",
    "promptExamples": "Reusable prompt examples, by name.",
    # 0.7.0
    "protocolVersion": "The MCP protocol revision the server speaks (0.7.0; 0.9.0 uses root `protocolVersions`).",
}

ENUM_DOCS: dict[str, str] = {
    # Transports
    "stdio": "The client starts the server as a process and talks over its standard input and output.",
    "streamable-http": "Streamable HTTP at a URL (revision 2025-03-26 and later).",
    "sse": "The legacy HTTP+SSE transport (superseded by streamable HTTP from 2025-03-26).",
    # Security schemes
    "http": "HTTP authentication (the `Authorization` header), such as a bearer token.",
    "apiKey": "An API key in a header, query parameter or cookie.",
    "oauth2": "OAuth 2, with one or more flows.",
    "openIdConnect": "OpenID Connect, from its discovery document.",
    "header": "In an HTTP header.",
    "query": "In a query parameter.",
    "cookie": "In a cookie.",
    # Protocol revisions
    "2024-11-05": "MCP revision 2024-11-05 (legacy).",
    "2025-03-26": "MCP revision 2025-03-26 (legacy).",
    "2025-06-18": "MCP revision 2025-06-18.",
    "2025-11-25": "MCP revision 2025-11-25.",
    "2026-07-28": "MCP revision 2026-07-28.",
    # Elicitation
    "form": "The client shows a form built from `requestedSchema`.",
    "url": "The client sends the user to a page at `url` (revision 2025-11-25 and later).",
    "accept": "The user answered.",
    "decline": "The user declined to answer.",
    "cancel": "The user dismissed the request.",
    # Task support
    "forbidden": "Calls never run as tasks (the default).",
    "optional": "A client may run a call as a task.",
    "required": "Every call must run as a task.",
    # Audience, roles and themes
    "user": "The human user.",
    "assistant": "The model.",
    "light": "For a light background.",
    "dark": "For a dark background.",
    # Content blocks
    "text": "A text block.",
    "image": "An image, base64-encoded.",
    "audio": "Audio, base64-encoded (revision 2025-03-26 and later).",
    "resource": "An embedded resource's contents.",
    "resource_link": "A link to a resource (revision 2025-06-18 and later).",
    "tool_use": "The model's request to call a tool (in sampling).",
    "tool_result": "The result of a tool call (in sampling).",
    # Interaction steps
    "elicitation": "The server asks the user a question.",
    "sampling": "The server asks the client's model for a completion.",
    "roots": "The server asks the client for its roots.",
    # Sampling
    "none": "Include no context; or, as a tool choice, call no tool.",
    "thisServer": "Include context from this server.",
    "allServers": "Include context from every connected server.",
    "auto": "The model decides whether to call a tool.",
    # Caching
    "public": "Any cache may keep the result.",
    "private": "Only the client's own cache may keep the result.",
}
