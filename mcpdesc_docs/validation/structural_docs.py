"""The explanations (rule_docs.RuleDoc) of the rules the structural check reports under
that no semantic rule is registered for: the members rules of locations.MEMBERS_RULE and
the other ids of structural.py. (An id both report under is explained where its semantic
rule is registered.)"""

from __future__ import annotations

from ..rule_docs import RuleDoc
from ..spec.versions import VERSION_RULE
from .locations import MEMBERS_RULE
from .rule_ids import TOOL_SCHEMA_VALID
from .structural import _EXAMPLE_NAME, _EXTENSION_NAME, _NON_EMPTY, _SCHEME_NAME, _SUPPORTED_VERSIONS

SCHEMA_CODES = (
    "missing-member",
    "unknown-member",
    "wrong-type",
    "invalid-value",
    "pattern-mismatch",
    "empty-string",
    "too-short",
    "duplicate-items",
    "out-of-range",
    "empty-collection",
    "too-few-items",
    "invalid-uri",
    "invalid-email",
    "schema-validation",
)
"""The codes a failure of the structural schema carries, by the keyword that failed
(structural._diagnose); ``schema-validation`` where no more specific code applies."""

_MEMBERS_REQUIREMENTS = ("digest §1 (root is closed)", "digest §4.1")
_TOOL = "  - name: search\n    inputSchema: {type: object}\n"


def _members(summary: str, rationale: str, bad: str, good: str, *requirements: str) -> RuleDoc:
    return RuleDoc(summary, rationale, bad, good, (*requirements, *_MEMBERS_REQUIREMENTS), SCHEMA_CODES)


_MEMBERS_DOCS: dict[str, RuleDoc] = {
    "document": _members(
        "The root object has `mcpdesc`, `info` and `protocolVersions`, and no member the format does not define.",
        "The root is a closed object: an unknown member is most often a misspelt one whose content would be "
        "silently ignored (specification extensions start with `x-`).",
        "servers:\n  - https://example.com/mcp\n",
        "x-servers:\n  - https://example.com/mcp\n",
        "digest §1",
    ),
    "info": _members(
        "`info` has a `name` and a `version`, and only the members the Info object defines.",
        "`info` names the server a site documents; its members are closed so that a typo is reported rather than "
        "dropped from the page.",
        "info:\n  name: example\n  version: 1.0.0\n  homepage: https://example.com\n",
        "info:\n  name: example\n  version: 1.0.0\n  websiteUrl: https://example.com\n",
        "digest §2.1",
    ),
    "transport": _members(
        "Each transport has a known `type` and the members that type requires (`command` for stdio, `url` for HTTP).",
        "A transport tells clients how to connect; one without its command or URL cannot be used.",
        "transports:\n  - type: stdio\n",
        "transports:\n  - type: stdio\n    command: example-server\n",
        "digest §2.4",
    ),
    "security-scheme": _members(
        "Each security scheme has a known `type` and the members that type requires.",
        "A scheme without, for example, the HTTP authentication `scheme` or an API key's location does not say "
        "how a client authenticates.",
        "securitySchemes:\n  token:\n    type: http\n",
        "securitySchemes:\n  token:\n    type: http\n    scheme: bearer\n",
        "digest §2.5",
    ),
    "oauth-flows": _members(
        "An OAuth 2 scheme declares at least one flow, each with its required URLs and `scopes`.",
        "Clients obtain tokens through the flows; a flow without its token URL or scope map cannot be followed.",
        "securitySchemes:\n  oauth:\n    type: oauth2\n    flows:\n      clientCredentials:\n        scopes: {}\n",
        "securitySchemes:\n  oauth:\n    type: oauth2\n    flows:\n      clientCredentials:\n"
        "        tokenUrl: https://example.com/token\n        scopes: {}\n",
        "digest §2.5",
        "digest §4.4",
    ),
    "security-requirement": _members(
        "A security requirement maps scheme names to arrays of scope strings.",
        "The array lists the scopes a call needs; any other value cannot be read as scopes.",
        "securitySchemes:\n  token:\n    type: http\n    scheme: bearer\nsecurity:\n  - token: read\n",
        "securitySchemes:\n  token:\n    type: http\n    scheme: bearer\nsecurity:\n  - token: []\n",
        "digest §2.5",
    ),
    "capabilities": _members(
        "Each Capabilities object holds only the server capabilities MCP defines, with values of their shape.",
        "Capabilities say which protocol features the server offers; an unknown or misspelt one is a claim no "
        "client can act on.",
        "capabilities:\n  - toolz: {listChanged: true}\n",
        "capabilities:\n  - tools: {listChanged: true}\n",
        "digest §2.6",
    ),
    "components": _members(
        "`components` holds only the namespaces the format defines, each a non-empty map of named values.",
        "References name a namespace (`schemas`, `toolExamples`, ...); a value in an unknown namespace can never "
        "be referenced.",
        "components:\n  widgets:\n    Query: {type: object}\n",
        "components:\n  schemas:\n    Query: {type: object}\n",
        "digest §2.17",
    ),
    "tags": _members(
        "Each root tag has a `name`, and only the members the Tag object defines.",
        "Tags group primitives on the site's pages by name; a tag without one cannot be referenced or shown.",
        "tags:\n  - description: Search tools\n",
        "tags:\n  - name: search\n    description: Search tools\n",
        "digest §2.16",
    ),
    "tool": _members(
        "Each tool has a `name` and an `inputSchema`, and only the members the Tool object defines.",
        "A tool is closed like every declaration; an unknown member is usually a misspelling (`summary` for "
        "`description`) whose text would never reach the page.",
        "tools:\n" + _TOOL + "    summary: Find documents\n",
        "tools:\n" + _TOOL + "    description: Find documents\n",
        "digest §2.7",
    ),
    "resource": _members(
        "Each resource has a `uri` and a `name`, and only the members the Resource object defines.",
        "Clients read a resource by its URI and list it by its name; without them it can be neither read nor listed.",
        "resources:\n  - uri: file:///README.md\n",
        "resources:\n  - uri: file:///README.md\n    name: readme\n",
        "digest §2.10",
    ),
    "resource-template": _members(
        "Each resource template has a `uriTemplate` and a `name`, and only the members the object defines.",
        "The template is what clients expand to read resources, the name what they list it by.",
        "resourceTemplates:\n  - uriTemplate: file:///{path}\n",
        "resourceTemplates:\n  - uriTemplate: file:///{path}\n    name: file\n",
        "digest §2.11",
    ),
    "prompt": _members(
        "Each prompt has a `name`, and only the members the Prompt object (and its arguments) define.",
        "Clients get a prompt by name; one without it cannot be requested.",
        "prompts:\n  - description: Summarize a document\n",
        "prompts:\n  - name: summarize\n    description: Summarize a document\n",
        "digest §2.12",
    ),
    "elicitation": _members(
        "Each elicitation declaration has a well-formed `name`, a `mode` and a non-empty `message`, and the "
        "members of its mode: `requestedSchema` for form mode, `url` for url mode.",
        "A declaration documents what the server may ask the user during a call; without its message or the "
        "schema or URL of its mode it does not say what will be asked.",
        "tools:\n" + _TOOL + "    elicitations:\n      - name: confirm\n        mode: form\n"
        "        requestedSchema:\n          type: object\n          properties:\n            ok: {type: boolean}\n",
        "tools:\n" + _TOOL + "    elicitations:\n      - name: confirm\n        mode: form\n"
        "        message: Delete the index?\n"
        "        requestedSchema:\n          type: object\n          properties:\n            ok: {type: boolean}\n",
        "digest §2.14",
        "digest §4.9",
        "req-elicitation-declaration-fields",
        "req-elicitation-message",
        "req-elicitation-form-schema-required",
        "req-elicitation-form-no-url",
        "req-elicitation-url-no-schema",
        "req-elicitations-non-empty",
    ),
    "examples": _members(
        "Each example holds the members its kind defines (a tool example: an `input` object and a `result`).",
        "An example is rendered as a call and its result; without either half it shows nothing a reader can use.",
        "tools:\n" + _TOOL + "    examples:\n      empty:\n        input: {}\n"
        "        result:\n          content: []\n        summary: Nothing found\n",
        "tools:\n" + _TOOL + "    examples:\n      empty:\n        input: {}\n        result:\n          content: []\n",
        "digest §2.8",
        "digest §2.9",
        "digest §2.13",
    ),
    "client-requirements": _members(
        "`clientRequirements` is a non-empty object of client capabilities, without a `protocolVersions` of its own.",
        "It says which client capabilities a call needs and follows its primitive's scope; an empty one says nothing.",
        "tools:\n" + _TOOL + "    clientRequirements: {}\n",
        "tools:\n" + _TOOL + "    clientRequirements:\n      elicitation: {}\n",
        "digest §2.15",
        "digest §4.10",
    ),
    "output-schema": RuleDoc(
        summary="A tool's `outputSchema` is a JSON Schema object or boolean (or a reference to `components.schemas`).",
        rationale="The output schema describes `structuredContent`; anything other than a schema cannot describe it.",
        bad='protocolVersions: ["2026-07-28"]\ntools:\n' + _TOOL + "    outputSchema: text\n",
        good='protocolVersions: ["2026-07-28"]\ntools:\n' + _TOOL + "    outputSchema: {type: string}\n",
        requirements=("digest §2.7", "digest §4.7", *_MEMBERS_REQUIREMENTS),
        codes=SCHEMA_CODES,
        also=(TOOL_SCHEMA_VALID,),
    ),
}

STRUCTURAL_DOCS: dict[str, RuleDoc] = {
    **{MEMBERS_RULE[kind]: doc for kind, doc in _MEMBERS_DOCS.items()},
    VERSION_RULE: RuleDoc(
        summary="`mcpdesc` names a format version this tool reads (0.9.0, 0.8.0, 0.7.0), and `$schema` agrees with it.",
        rationale=(
            "The version decides which schema and rules apply; a description of an unknown version cannot be "
            "checked against the right ones. A `$schema` naming another snapshot is a contradiction (an error), "
            "one this tool does not know a warning."
        ),
        bad='mcpdesc: "0.6.0"\n',
        good='mcpdesc: "0.9.0"\n',
        requirements=("digest §0", "digest §4.1"),
        codes=(
            "missing-snapshot-identity",
            "unsupported-specification",
            "contradictory-snapshot-identity",
            "unknown-schema-identity",
            "invalid-value",
        ),
    ),
    _SUPPORTED_VERSIONS: RuleDoc(
        summary="`protocolVersions` lists MCP protocol revisions the format knows, each once.",
        rationale=(
            "Revisions are a closed set (2024-11-05 to 2026-07-28); every scope rule compares against them, so an "
            "unknown or repeated revision makes the scope meaningless."
        ),
        bad='protocolVersions: ["2025-11-25", "2025-12-01"]\n',
        good='protocolVersions: ["2025-06-18", "2025-11-25"]\n',
        requirements=("digest §1", "digest §3", "digest §4.1"),
        codes=SCHEMA_CODES,
    ),
    _NON_EMPTY: RuleDoc(
        summary="Declaration collections (`tools`, `resources`, `tags`, `securitySchemes`, ...) are not empty.",
        rationale=(
            "Producers omit a collection they have nothing for; an empty one is ambiguous and is rejected, so that "
            "omission alone means no declaration."
        ),
        bad="tools: []\n",
        good="tools:\n" + _TOOL,
        requirements=("digest §1 (ordinary declaration collections)", "digest §4.1"),
        codes=("empty-collection", "too-few-items"),
    ),
    _SCHEME_NAME: RuleDoc(
        summary="Security scheme names match `^[A-Za-z0-9._-]+$`.",
        rationale="Requirements refer to schemes by name, and the names become parts of page anchors.",
        bad='securitySchemes:\n  "api key":\n    type: http\n    scheme: bearer\n',
        good="securitySchemes:\n  api-key:\n    type: http\n    scheme: bearer\n",
        requirements=("digest §1", "digest §4.4"),
        codes=("invalid-name",),
    ),
    _EXTENSION_NAME: RuleDoc(
        summary="Extension identifiers (keys of `extensions` maps) are a dotted authority, a slash and a name.",
        rationale=(
            "MCP extension identifiers look like `com.example/feature`: the authority says who defines the "
            "extension, so clients can tell extensions apart."
        ),
        bad='protocolVersions: ["2026-07-28"]\ncapabilities:\n  - extensions:\n      search-boost: {}\n',
        good='protocolVersions: ["2026-07-28"]\ncapabilities:\n  - extensions:\n      com.example/search-boost: {}\n',
        requirements=("digest §2.6", "digest §4.3"),
        codes=("invalid-name",),
    ),
    _EXAMPLE_NAME: RuleDoc(
        summary="Names of examples, interaction and completion examples and components match `^[A-Za-z0-9._-]+$`.",
        rationale="The names label examples on the page and are used in anchors and component references.",
        bad="tools:\n" + _TOOL + "    examples:\n      no results:\n        input: {}\n"
        "        result:\n          content: []\n",
        good="tools:\n" + _TOOL + "    examples:\n      no-results:\n        input: {}\n"
        "        result:\n          content: []\n",
        requirements=("digest §4.8",),
        codes=("invalid-name",),
    ),
}
