"""Small descriptions that attack the cost of validating and building them, one (or a few)
per class of the hostile-input review (issue 15). Each is within the default limits."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

Doc = dict[str, Any]

TEXT_RESULT = {"content": [{"type": "text", "text": "ok"}]}
ESCAPES = "\x1b[2J\x1b]0;owned\x07\r\n::error file=x.yaml,line=1::forged\n::add-mask::secret\u202egnp.exe\x9b31m"


def base() -> Doc:
    return {
        "mcpdesc": "0.9.0",
        "info": {"name": "hostile", "version": "1.0.0"},
        "protocolVersions": ["2025-11-25"],
        "transports": [{"type": "stdio", "command": "hostile-server"}],
        "tools": [{"name": "probe", "inputSchema": {"type": "object"}}],
    }


def tool(name: str, **members: Any) -> Doc:
    return {"name": name, "inputSchema": {"type": "object"}, **members}


def regex_backtracking() -> Doc:
    doc = base()
    schema = {
        "type": "object",
        "properties": {"q": {"type": "string", "pattern": "^(a+)+$"}},
        "patternProperties": {"^(b+)+$": {"type": "string"}},
    }
    example = {"input": {"q": "a" * 40 + "!", "b" * 40 + "!": "x"}, "result": TEXT_RESULT}
    doc["tools"] = [tool("search", inputSchema=schema, examples={"slow": example})]
    return doc


def regex_deep_nesting() -> Doc:
    doc = base()
    pattern = "(" * 5000 + "a" + ")" * 5000
    schema = {"type": "object", "properties": {"q": {"type": "string", "pattern": pattern}}}
    doc["tools"] = [tool("search", inputSchema=schema, examples={"e": {"input": {"q": "a"}, "result": TEXT_RESULT}})]
    return doc


def uri_template_backtracking() -> Doc:
    doc = base()
    template = "x://" + "".join(f"{{+v{i}}}" for i in range(14))
    uri = "x://" + "," * 60 + "\x00"
    doc["resourceTemplates"] = [
        {
            "name": "t",
            "uriTemplate": template,
            "examples": {"e": {"uri": uri, "result": {"contents": [{"uri": uri, "text": "x"}]}}},
        }
    ]
    return doc


def ref_fan_out() -> Doc:
    doc = base()
    levels = 24
    defs: Doc = {}
    for level in range(levels):
        following = {"$ref": f"#/$defs/l{level + 1}"} if level + 1 < levels else {"type": "string"}
        defs[f"l{level}"] = {"type": "object", "properties": {name: following for name in "abcd"}}
    schema = {"type": "object", "properties": {"root": {"$ref": "#/$defs/l0"}}, "$defs": defs}
    doc["tools"] = [tool("deep", inputSchema=schema, outputSchema=schema)]
    return doc


def shared_ref_alternatives() -> Doc:
    # Each level offers the next one twice: evaluating (or drawing) every path is 2^40.
    doc = base()
    levels = 40
    defs: Doc = {}
    for level in range(levels):
        following = {"$ref": f"#/$defs/d{level + 1}"} if level + 1 < levels else {"type": "string"}
        defs[f"d{level}"] = {"anyOf": [following, following]}
    schema = {"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}}, "$defs": defs}
    doc["tools"] = [tool("choices", inputSchema=schema, examples={"e": {"input": {"x": "a"}, "result": TEXT_RESULT}})]
    return doc


def big_example() -> Doc:
    doc = base()
    example = {"input": {"items": [{"k": i} for i in range(100_000)]}, "result": TEXT_RESULT}
    doc["tools"] = [tool("bulk", examples={"e": example})]
    return doc


def many_tags() -> Doc:
    doc = base()
    doc["tags"] = [{"name": f"t{i}"} for i in range(50_000)]
    return doc


def duplicate_names() -> Doc:
    doc = base()
    doc["tools"] = [tool("same") for _ in range(2000)]
    return doc


def many_capabilities() -> Doc:
    doc = base()
    doc["capabilities"] = [{"tools": {}} for _ in range(5000)]
    return doc


def component_chains() -> Doc:
    doc = base()
    count = 2000
    schemas: Doc = {f"c{i}": {"$componentRef": f"#/components/schemas/c{i + 1}"} for i in range(count)}
    schemas[f"c{count}"] = {"type": "object"}
    schemas["loop0"] = {"$componentRef": "#/components/schemas/loop1"}
    schemas["loop1"] = {"$componentRef": "#/components/schemas/loop0"}
    doc["components"] = {"schemas": schemas}
    doc["tools"] = [
        tool(f"t{i}", inputSchema={"$componentRef": f"#/components/schemas/{'c0' if i % 2 else 'loop0'}"})
        for i in range(400)
    ]
    return doc


def self_reference() -> Doc:
    doc = base()
    schema: Doc = {"type": "object", "properties": {"next": {"$ref": "#"}}}
    nested: Doc = {"type": "string"}
    for _ in range(120):
        nested = {"type": "array", "items": nested}
    value: Any = "x"
    for _ in range(60):
        value = {"next": value}
    schema["properties"]["deep"] = nested
    doc["tools"] = [tool("loop", inputSchema=schema, examples={"e": {"input": value, "result": TEXT_RESULT}})]
    return doc


def huge_numbers() -> Doc:
    doc = base()
    doc["info"]["x-big"] = "HUGE"  # replaced by a literal in the text
    return doc


def injection() -> Doc:
    doc = base()
    doc["tools"] = [tool("t" + ESCAPES, **{"bad" + ESCAPES: 1, "description": ESCAPES})]
    doc["info"]["name" + ESCAPES] = ESCAPES
    return doc


def markdown_pathology() -> Doc:
    doc = base()
    texts = [">" * 50_000, "*a " * 60_000, "[" * 100_000, "`" * 50_000 + "x", "_" * 80_000]
    doc["tools"] = [tool(f"md{i}", description=text) for i, text in enumerate(texts)]
    doc["info"]["description"] = "- " * 60_000
    return doc


def similar_slugs() -> Doc:
    doc = base()
    # Names that differ but slug alike ("a", "a-2", ...), in the order that made probing quadratic.
    doc["tools"] = [tool("a" + "!" * (i % 7) + "?" * (i // 7)) for i in range(5000)]
    return doc


CASES: dict[str, Callable[[], Doc]] = {
    "regex-backtracking": regex_backtracking,
    "regex-deep-nesting": regex_deep_nesting,
    "uri-template-backtracking": uri_template_backtracking,
    "ref-fan-out": ref_fan_out,
    "shared-ref-alternatives": shared_ref_alternatives,
    "big-example": big_example,
    "many-tags": many_tags,
    "duplicate-names": duplicate_names,
    "many-capabilities": many_capabilities,
    "component-chains": component_chains,
    "self-reference": self_reference,
    "huge-numbers": huge_numbers,
    "injection": injection,
    "markdown-pathology": markdown_pathology,
    "similar-slugs": similar_slugs,
}


def text_of(case: str) -> str:
    """The case as JSON text (a few cases are literals that no JSON encoder writes)."""
    document = copy.deepcopy(CASES[case]())
    text = json.dumps(document, ensure_ascii=False)
    if case == "huge-numbers":
        text = text.replace('"HUGE"', "9" * 6000).replace('"version": "1.0.0"', '"version": "1.0.0", "x-e": 1e999999')
    return text


SMALL_HOSTILE_CASES: list[Callable[[], Doc]] = [
    regex_backtracking,
    uri_template_backtracking,
    ref_fan_out,
    self_reference,
    injection,
]
"""Seeds for the fuzzer: small enough that a mutation of them stays quick when all is well."""
