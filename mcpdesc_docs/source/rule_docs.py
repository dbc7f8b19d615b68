"""The explanations of the rules the reader reports under (rule_docs.RuleDoc): problems of
the text itself, found before any rule of the format can look at it."""

from __future__ import annotations

from ..rule_docs import RuleDoc
from .limits import LIMITS_RULE
from .positions import PROFILE_RULE, SYNTAX_RULE

SOURCE_DOCS: dict[str, RuleDoc] = {
    SYNTAX_RULE: RuleDoc(
        summary="A description is well-formed JSON or YAML.",
        rationale=(
            "Nothing can be checked or rendered from text that does not parse; the reader stops at the first "
            "syntax error and reports where it is."
        ),
        bad="tools: [\n",
        good="tools:\n  - name: search\n    inputSchema: {type: object}\n",
        requirements=("digest §1 (serializations)",),
        codes=("json-syntax", "yaml-syntax", "lone-surrogate"),
    ),
    PROFILE_RULE: RuleDoc(
        summary=(
            "YAML descriptions keep to the JSON-compatible profile: one document, string keys, no duplicate keys, "
            "tags, anchors or aliases, and finite numbers."
        ),
        rationale=(
            "The format is defined on JSON data; YAML features without a JSON equivalent would be read differently "
            "by different tools (a duplicate key silently drops one value, an alias repeats a subtree)."
        ),
        bad="info:\n  name: example\n  name: again\n  version: 1.0.0\n",
        good="info:\n  name: example\n  version: 1.0.0\n",
        requirements=("digest §1 (serializations)", "digest §4.1"),
        codes=(
            "duplicate-key",
            "yaml-alias",
            "yaml-anchor",
            "yaml-tag",
            "non-string-key",
            "multiple-documents",
            "empty-document",
            "non-finite-number",
            "invalid-utf-8",
        ),
    ),
    LIMITS_RULE: RuleDoc(
        summary="A description stays within the reader's size limits (bytes, nesting, values, string length, numbers).",
        rationale=(
            "A description is untrusted input: the limits bound the memory and time it can cost to read and check, "
            "and an integer beyond the range of a double means different things to different readers. Raise the "
            "limits under `limits:` in mcpdesc-docs.yml when a real description needs more."
        ),
        bad="x-size: 1" + "0" * 309 + "\n",
        good="x-size: 10\n",
        requirements=("digest §1 (data model: size and depth limits)",),
        codes=(
            "input-limits",
            "input-too-large",
            "input-too-deep",
            "input-too-many-nodes",
            "input-string-too-long",
            "input-number-too-large",
            "input-too-many-primitives",
            "input-too-many-findings",
        ),
    ),
}
