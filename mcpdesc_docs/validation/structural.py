"""Structural validation: our JSON Schema, with each failure turned into one diagnostic
that names the spec rule it breaks (not jsonschema's raw text).

A valid document is decided by the compiled copy (:mod:`.compiled_schema`); jsonschema is
imported only to word what is wrong with an invalid one."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING, Any, cast

from ..diagnostics import Diagnostic, error
from ..kinds import BY_NAME
from ..source import pointer as jp
from ..spec.schema import document_schema
from ..spec.schema070 import document_schema_070
from ..spec.versions import SPEC_0_7_0, VERSION_RULE, Specification
from .compiled_schema import structure_is_valid
from .findings import MAX_FINDINGS, too_many_findings
from .locations import MEMBERS_RULE, object_kind
from .rule_ids import COMPONENT_REFERENCES, EXTENSION_PLACEMENT, INPUT_SCHEMA_MEMBERS, PROTOCOL_SCOPE_CONSISTENCY
from .suggest import did_you_mean

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError
    from jsonschema.protocols import Validator

# The rule ids a schema failure is reported under besides the members rules (locations.py).
_SUPPORTED_VERSIONS = "mcpdesc.protocol-versions.supported"
_NON_EMPTY = "mcpdesc.collections.non-empty"
_SCHEME_NAME = "mcpdesc.security.scheme-name"
_EXTENSION_NAME = "mcp.extensions.identifier-grammar"
_EXAMPLE_NAME = "mcpdesc.examples.names"

STRUCTURAL_RULES: frozenset[str] = frozenset(
    {
        *MEMBERS_RULE.values(),
        COMPONENT_REFERENCES,
        EXTENSION_PLACEMENT,
        PROTOCOL_SCOPE_CONSISTENCY,
        _SUPPORTED_VERSIONS,
        _NON_EMPTY,
        _SCHEME_NAME,
        _EXTENSION_NAME,
        _EXAMPLE_NAME,
        VERSION_RULE,
    }
)
"""Every rule id a structural failure of a 0.8.0 or 0.9.0-rc.3 document can carry."""


@cache
def _validator(spec: Specification) -> Validator:
    from jsonschema import Draft202012Validator

    from .schema_keywords import extend_dialect, pattern, unique_items

    # jsonschema's uniqueItems compares objects pairwise: 4,000 of them in protocolVersions
    # took 17 s. Our schema's patterns are written as ECMA-262 reads them, where `$` is the
    # end of the text; Python's re also lets it match before a final newline, so that
    # `name: "tool\n"` would pass `^[A-Za-z0-9._-]+$`. RE2 (which examples' patterns run on
    # already) reads `$` as ECMA-262 does. Every other keyword is jsonschema's.
    structural = extend_dialect(Draft202012Validator, {"uniqueItems": unique_items, "pattern": pattern})
    schema = document_schema_070() if spec == SPEC_0_7_0 else document_schema(spec)
    return structural(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


def validate_structure(data: object, spec: Specification) -> list[Diagnostic]:
    if structure_is_valid(data, spec):  # compiled, proven to agree; jsonschema explains the rest
        return []
    from jsonschema.exceptions import best_match

    diagnostics: dict[tuple[str | None, str, str], Diagnostic] = {}
    for raw in _validator(spec).iter_errors(cast(Any, data)):
        if len(diagnostics) >= MAX_FINDINGS:  # jsonschema finds them lazily: stop asking
            return [*diagnostics.values(), too_many_findings("the document's structure")]
        leaf = best_match(raw.context) if raw.context and raw.validator != "anyOf" else raw
        for diagnostic in _diagnose(leaf):
            if spec == SPEC_0_7_0:
                diagnostic = legacy_rule(diagnostic)
            diagnostics.setdefault((diagnostic.path, diagnostic.code, diagnostic.message), diagnostic)
    return list(diagnostics.values())


def legacy_rule(diagnostic: Diagnostic) -> Diagnostic:
    """No 0.9.0-rc.3 requirement anchors apply to 0.7.0, nor the 0.8/0.9 rule ids."""
    return replace(diagnostic, rule=legacy_rule_id(diagnostic.rule), requirement=None)


def legacy_rule_id(rule_id: str) -> str:
    """0.7.0 has no rule ids of its own; ours are ``mcpdesc07.*`` (never the 0.8/0.9 ids,
    which name rules of another format)."""
    rest = rule_id.split(".", 1)[1] if "." in rule_id else rule_id
    return f"mcpdesc07.{rest}"


_TYPE_NAMES = {
    dict: "an object",
    list: "an array",
    str: "a string",
    bool: "a boolean",
    int: "an integer",
    float: "a number",
    type(None): "null",
}


def _describe_type(value: object) -> str:
    return _TYPE_NAMES.get(type(value), type(value).__name__)


def _expected_type(expected: object) -> str:
    names = expected if isinstance(expected, list) else [expected]
    articles = {"object": "an object", "array": "an array", "integer": "an integer"}
    return " or ".join(articles.get(str(name), f"a {name}") for name in names)


def _choices(values: list[object]) -> str:
    shown = ", ".join(repr(value) for value in values[:8])
    return shown + (", ..." if len(values) > 8 else "")


_EXAMPLE_NOUNS = {
    "examples": "example",
    "interactionExamples": "interaction example",
    "completionExamples": "completion example",
}


def _example_label(parts: list[str | int], instance: object) -> str:
    """``text content block in example 'basic'``, ``'context' of completion example 'bad'``:
    where inside an example a failure sits, in the words of MCP's objects."""
    at = max(i for i, part in enumerate(parts[:-1]) if part in _EXAMPLE_NOUNS)
    example = f"{_EXAMPLE_NOUNS[str(parts[at])]} {parts[at + 1]!r}"
    inner = [part for part in parts[at + 2 :] if isinstance(part, str)]
    if not inner:
        return example
    kind = instance.get("type") if isinstance(instance, dict) else None
    if inner[-1] in ("content", "resource") and isinstance(parts[-1], int | str) and isinstance(kind, str):
        return f"{kind} content block in {example}"
    if inner[-1] in ("contents", "resource"):
        return f"resource contents in {example}"
    return f"{inner[-1]!r} of {example}"


def _label(parts: list[str | int], instance: object) -> str:
    """A short human name for the object a failure sits in."""
    kind = object_kind(parts)
    if kind == "examples" and any(part in _EXAMPLE_NOUNS for part in parts[:-1]):
        return _example_label(parts, instance)
    if kind == "elicitation" and isinstance(instance, dict) and isinstance(instance.get("name"), str):
        return f"elicitation declaration {instance['name']!r}"
    if kind in BY_NAME and isinstance(instance, dict):
        identity = instance.get("name") or instance.get("uriTemplate") or instance.get("uri")
        if isinstance(identity, str):
            return f"{kind.replace('-', ' ')} {identity!r}"
    return kind.replace("-", " ")


def _rule(parts: list[str | int], keyword: str) -> tuple[str, str | None]:
    """The rule id (and, where the schema does not say, the requirement) of a failure."""
    kind = object_kind(parts)
    last = parts[-1] if parts else None
    in_scope = "protocolVersions" in parts[-2:]
    if in_scope:
        if kind == "elicitation":
            return PROTOCOL_SCOPE_CONSISTENCY, "req-elicitation-scope"
        return _SUPPORTED_VERSIONS, None
    if "$componentRef" in parts:
        return COMPONENT_REFERENCES, "req-elicitation-schema-references-resolved" if kind in (
            "elicitation",
            "form-schema",
        ) else None
    if keyword in ("minItems", "minProperties"):
        if last == "elicitations":
            return MEMBERS_RULE[object_kind(parts[:-1])], "req-elicitations-non-empty"
        if kind not in ("form-schema", "input-schema", "output-schema", "client-requirements"):
            return _NON_EMPTY, None
    if keyword == "propertyNames":
        if last == "securitySchemes":
            return _SCHEME_NAME, None
        if last == "extensions":
            return _EXTENSION_NAME, None
        if kind == "examples" or last in ("examples", "interactionExamples", "completionExamples"):
            return _EXAMPLE_NAME, None
    if keyword == "const" and parts == ["mcpdesc"]:
        return VERSION_RULE, None
    return MEMBERS_RULE[kind], None


def _diagnose(err: ValidationError) -> Iterator[Diagnostic]:
    parts: list[str | int] = list(err.absolute_path)
    path = jp.from_parts(parts)
    schema: dict[str, Any] = err.schema if isinstance(err.schema, dict) else {}
    keyword = str(err.validator)
    if keyword != "propertyNames" and "propertyNames" in err.relative_schema_path:
        # jsonschema reports a bad name as the failing keyword inside propertyNames.
        keyword = "propertyNames"
    expected: Any = err.validator_value
    rule, requirement = _rule(parts, keyword)
    requirement = schema.get("x-requirement") or requirement
    instance = err.instance
    if isinstance(instance, dict) and "$componentRef" in instance:
        # A Reference Object with siblings, or otherwise malformed: a reference problem.
        rule = COMPONENT_REFERENCES
    label = _label(parts, instance)

    def make(code: str, message: str, at: str = path) -> Diagnostic:
        return error(rule, code, message, at, requirement)

    # Value-level failures name the member (or item) they are about.
    subject = (
        f"{parts[-1]!r}" if parts and isinstance(parts[-1], str) else f"item {parts[-1]}" if parts else "the document"
    )

    if "x-message" in schema:
        name = repr(instance["name"]) if isinstance(instance, dict) and isinstance(instance.get("name"), str) else ""
        member = schema.get("x-member")
        code = str(schema.get("x-code", "schema-validation"))
        message = str(schema["x-message"]).format(name=name).replace("  ", " ")
        yield make(code, message, jp.join(path, member) if member else path)
    elif keyword == "required":
        # jsonschema reports each missing member separately; duplicates are merged above.
        present = instance if isinstance(instance, dict) else {}
        for missing in expected:
            if missing not in present:
                if missing == "inputSchema" and object_kind(parts) == "tool":
                    # Its own rule in the digest (4.7): every tool declares its input schema.
                    yield error(
                        INPUT_SCHEMA_MEMBERS,
                        "missing-member",
                        f"{label} is missing required member 'inputSchema'",
                        path,
                        requirement,
                    )
                    continue
                yield make("missing-member", f"{label} is missing required member {missing!r}")
    elif keyword == "additionalProperties" and isinstance(instance, dict):
        declared = set(schema.get("properties", {}))
        patterns = [re.compile(p) for p in schema.get("patternProperties", {})]
        for key in instance:
            if key in declared or any(p.search(key) for p in patterns):
                continue
            if key.startswith("x-") and rule != COMPONENT_REFERENCES:
                # A specification extension where the specification allows none: not an
                # unknown member of the object but an extension out of place (digest 2.19).
                meta = " (MCP objects carry metadata in _meta)" if "_meta" in declared else ""
                yield error(
                    EXTENSION_PLACEMENT,
                    "extension-not-allowed",
                    f"{label} does not allow specification extensions such as {key!r}{meta}",
                    jp.join(path, key),
                )
                continue
            hint = did_you_mean(key, declared) or (
                " (specification extensions start with 'x-')" if "patternProperties" in schema else ""
            )
            yield make("unknown-member", f"{label} has unknown member {key!r}{hint}", jp.join(path, key))
    elif keyword in ("minItems", "minProperties"):
        what = f"{parts[-1]!r}" if parts else "the document"
        if expected == 1:
            yield make("empty-collection", f"{what} must not be empty when present")
        else:
            yield make("too-few-items", f"{what} needs at least {expected} entries")
    elif keyword == "type":
        yield make("wrong-type", f"{subject} must be {_expected_type(expected)}, not {_describe_type(instance)}")
    elif keyword == "enum":
        yield make("invalid-value", f"{subject} value {instance!r} is not one of {_choices(list(expected))}")
    elif keyword == "const":
        yield make("invalid-value", f"{subject} must be {expected!r}, not {instance!r}")
    elif keyword == "pattern":
        yield make("pattern-mismatch", f"{subject} value {instance!r} does not match {expected}")
    elif keyword == "propertyNames":
        # jsonschema reports the object; the offending name is the failing instance.
        yield make(
            "invalid-name", f"name {instance!r} does not match {best_pattern(err)}", jp.join(path, str(instance))
        )
    elif keyword == "format":
        yield make(f"invalid-{expected}", f"{subject} value {instance!r} is not a valid {expected}")
    elif keyword == "minLength":
        if expected == 1:
            yield make("empty-string", f"{subject} must not be empty")
        else:
            yield make("too-short", f"{subject} must be at least {expected} characters long")
    elif keyword == "uniqueItems":
        yield make("duplicate-items", f"{subject} must not contain duplicate entries")
    elif keyword in ("minimum", "maximum"):
        yield make(
            "out-of-range",
            f"{instance!r} is {'below' if keyword == 'minimum' else 'above'} the {keyword} {expected}",
        )
    elif keyword == "anyOf" and all(isinstance(option, dict) and list(option) == ["required"] for option in expected):
        names = ", ".join(repr(option["required"][0]) for option in expected)
        yield make("missing-member", f"{label} needs at least one of {names}")
    else:
        yield make("schema-validation", err.message)


def best_pattern(err: ValidationError) -> str:
    schema: Any = err.validator_value
    if isinstance(schema, dict) and "pattern" in schema:
        return str(schema["pattern"])
    if err.validator == "pattern" and isinstance(schema, str):
        return schema
    return "the allowed name pattern"
