"""The 0.9.0-rc.3 elicitation chapter (section 12): names, restricted form schemas,
their consistency, and which modes and vocabularies each protocol version supports.

Form schemas are checked after component references are resolved
(req-elicitation-schema-references-resolved); a problem inside a referenced schema is
reported where the schema lives, naming the declaration that uses it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import Any, TypeGuard

from ...records import record
from ...rule_docs import RuleDoc, fragment
from ...source import pointer as jp
from ..document import Document, Elicitation, as_object
from ..findings import MAX_FINDINGS, Finding
from ..memo import ByObjectAt
from ..references import Resolved
from ..registry import rule
from ..rule_ids import FORM_SCHEMA_MEMBERS
from ..suggest import did_you_mean

FIRST_FORM_REVISION = "2025-06-18"
"""2025-06-18 introduced elicitation (form mode only, with the narrower vocabulary)."""

_ROOT_KEYWORDS = ("$schema", "type", "properties", "required")
_COMMON = ("type", "title", "description")
_VARIANT_KEYWORDS: dict[str, tuple[str, ...]] = {
    "string": ("minLength", "maxLength", "format", "default"),
    "legacy enum": ("enum", "enumNames", "default"),
    "titled single-select": ("oneOf", "default"),
    "number": ("minimum", "maximum", "default"),
    "integer": ("minimum", "maximum", "default"),
    "boolean": ("default",),
    "multi-select": ("items", "minItems", "maxItems", "default"),
}
FORMATS = ("email", "uri", "date", "date-time")


def _is_number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _strings(value: object) -> TypeGuard[list[str]]:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _variant(prop: dict[str, Any]) -> str | None:
    kind = prop.get("type")
    if kind == "string":
        if "enum" in prop:
            return "legacy enum"
        if "oneOf" in prop:
            return "titled single-select"
        return "string"
    if kind == "array":
        return "multi-select"
    if kind in ("number", "integer", "boolean"):
        return str(kind)
    return None


def _choices(prop: dict[str, Any], variant: str) -> list[str] | None:
    """The values a single- or multi-select property offers (None when not a select)."""
    if variant == "legacy enum" and _strings(prop.get("enum")):
        return list(prop["enum"])
    if variant == "titled single-select" and isinstance(prop.get("oneOf"), list):
        return [o["const"] for o in prop["oneOf"] if isinstance(o, dict) and isinstance(o.get("const"), str)]
    if variant == "multi-select":
        items = as_object(prop.get("items"))
        if _strings(items.get("enum")):
            return list(items["enum"])
        if isinstance(items.get("anyOf"), list):
            return [o["const"] for o in items["anyOf"] if isinstance(o, dict) and isinstance(o.get("const"), str)]
    return None


@record
class _FormSchema:
    """A resolved requestedSchema and how to report on it."""

    elicitation: Elicitation
    schema: Any
    pointer: str
    properties: tuple[tuple[str, dict[str, Any]], ...]
    """(name, property) of each property that is an object; three rules walk them."""

    @classmethod
    def of(cls, elicitation: Elicitation, resolved: Resolved) -> _FormSchema:
        members = as_object(as_object(resolved.value).get("properties")).items()
        properties = tuple((name, prop) for name, prop in members if isinstance(prop, dict))
        return cls(elicitation, resolved.value, resolved.pointer, properties)

    def property_pointer(self, name: str) -> str:
        # Made when a check needs it, not with the view: in serve most schemas are the
        # last build's, whose findings are kept, and their pointers are never read.
        return jp.join(self.pointer, "properties", name)

    def context(self) -> str:
        where = self.elicitation.label
        if self.pointer.startswith("/components/"):
            return f"{where} (schema from {self.pointer})"
        return where


def _form_schemas(document: Document) -> Iterable[_FormSchema]:
    return document.walked_once(_walk_form_schemas)


def _walk_form_schemas(document: Document) -> Iterator[_FormSchema]:
    for elicitation in document.elicitations:
        if elicitation.data.get("mode") != "form":
            continue
        resolved = document.resolved_form_schema(elicitation)
        if resolved is not None:
            yield _FormSchema.of(elicitation, resolved)


@rule(
    "mcpdesc.elicitation.name-unique",
    doc=RuleDoc(
        summary="Elicitation declarations of one primitive have distinct names.",
        rationale=(
            "Interaction examples and readers refer to a declaration by its name; two of one name cannot be told apart."
        ),
        bad=fragment(
            """
            tools:
              - name: delete_index
                inputSchema: {type: object}
                elicitations:
                  - name: confirm
                    mode: form
                    message: Delete the index?
                    requestedSchema:
                      type: object
                      properties:
                          ok: {type: boolean}
                  - name: confirm
                    mode: form
                    message: Delete the index?
                    requestedSchema:
                      type: object
                      properties:
                          ok: {type: boolean}
            """
        ),
        good=fragment(
            """
            tools:
              - name: delete_index
                inputSchema: {type: object}
                elicitations:
                  - name: confirm
                    mode: form
                    message: Delete the index?
                    requestedSchema:
                      type: object
                      properties:
                          ok: {type: boolean}
                  - name: confirm_again
                    mode: form
                    message: Delete the index?
                    requestedSchema:
                      type: object
                      properties:
                          ok: {type: boolean}
            """
        ),
        requirements=("digest §4.9", "req-elicitation-name-unique"),
        codes=("duplicate-elicitation-name",),
    ),
    local=True,
)
def names_unique(document: Document) -> Iterator[Finding]:
    first: dict[tuple[str, str], str] = {}
    for elicitation in document.elicitations:
        name = elicitation.data.get("name")
        if not isinstance(name, str):
            continue
        key = (elicitation.primitive.pointer, name)
        if key in first:
            yield Finding.error(
                "duplicate-elicitation-name",
                f"{elicitation.primitive.label} declares elicitation {name!r} twice "
                f"(first at {first[key]}); names are case-sensitive and unique per primitive",
                jp.join(elicitation.pointer, "name"),
                "req-elicitation-name-unique",
            )
        else:
            first[key] = elicitation.pointer


def _members_problem(form: _FormSchema, pointer: str, code: str, message: str) -> Finding:
    return Finding.error(
        code, f"{message} in the requestedSchema of {form.context()}", pointer, "req-elicitation-form-shape"
    )


def _check_root(form: _FormSchema) -> Iterator[Finding]:
    schema = form.schema
    if not isinstance(schema, dict):
        yield _members_problem(
            form, form.pointer, "elicitation-form-schema-not-object", "the schema must be an object schema"
        )
        return
    if schema.get("type") != "object":
        yield _members_problem(
            form,
            jp.join(form.pointer, "type") if "type" in schema else form.pointer,
            "elicitation-form-schema-not-object",
            "the schema root must have type 'object'",
        )
    if not isinstance(schema.get("properties"), dict):
        yield _members_problem(
            form,
            jp.join(form.pointer, "properties") if "properties" in schema else form.pointer,
            "elicitation-form-schema-properties",
            "the schema root needs a 'properties' object",
        )
    for keyword in schema:
        if keyword not in _ROOT_KEYWORDS:
            yield _members_problem(
                form,
                jp.join(form.pointer, keyword),
                "elicitation-form-schema-keyword",
                f"keyword {keyword!r} is not allowed at the root (only {', '.join(_ROOT_KEYWORDS)})"
                + did_you_mean(keyword, _ROOT_KEYWORDS),
            )
    if "$schema" in schema and not isinstance(schema["$schema"], str):
        yield _members_problem(
            form, jp.join(form.pointer, "$schema"), "elicitation-form-schema-value", "'$schema' must be a string"
        )
    required = schema.get("required")
    if "required" in schema and (not _strings(required) or len(set(required)) != len(required)):
        yield _members_problem(
            form,
            jp.join(form.pointer, "required"),
            "elicitation-form-schema-value",
            "'required' must be an array of distinct property names",
        )
    for name, value in as_object(schema.get("properties")).items():
        if not isinstance(value, dict):
            yield _members_problem(
                form,
                jp.join(form.pointer, "properties", name),
                "elicitation-form-schema-property",
                f"property {name!r} must be an object schema",
            )


def _check_property(form: _FormSchema, name: str, prop: dict[str, Any], at: str) -> Iterator[Finding]:
    variant = _variant(prop)
    if variant is None:
        kind = prop.get("type")
        detail = (
            "nested objects are not allowed"
            if kind == "object"
            else (f"type {kind!r} is not supported" if "type" in prop else "it has no 'type'")
        )
        yield _members_problem(
            form,
            jp.join(at, "type") if "type" in prop else at,
            "elicitation-form-schema-type",
            f"property {name!r} is not an MCP primitive schema: {detail} "
            "(string, number, integer, boolean, or an array multi-select)",
        )
        return
    allowed = _COMMON + _VARIANT_KEYWORDS[variant]
    for keyword in prop:
        if keyword not in allowed:
            yield _members_problem(
                form,
                jp.join(at, keyword),
                "elicitation-form-schema-keyword",
                f"keyword {keyword!r} is not allowed in {variant} property {name!r}" + did_you_mean(keyword, allowed),
            )

    def bad(keyword: str, expectation: str) -> Finding:
        return _members_problem(
            form,
            jp.join(at, keyword),
            "elicitation-form-schema-value",
            f"{keyword!r} of property {name!r} must be {expectation}",
        )

    for keyword in ("title", "description"):
        if keyword in prop and not isinstance(prop[keyword], str):
            yield bad(keyword, "a string")
    for keyword in ("minLength", "maxLength", "minItems", "maxItems"):
        if keyword in prop and keyword in allowed and not _is_count(prop[keyword]):
            yield bad(keyword, "a non-negative integer")
    for keyword in ("minimum", "maximum"):
        if keyword in prop and keyword in allowed and not _is_number(prop[keyword]):
            yield bad(keyword, "a number")
    if variant == "string" and "format" in prop and prop["format"] not in FORMATS:
        yield _members_problem(
            form,
            jp.join(at, "format"),
            "elicitation-form-schema-format",
            f"format {prop['format']!r} of property {name!r} is not supported (supported: {', '.join(FORMATS)})",
        )
    if variant == "legacy enum":
        if not _strings(prop["enum"]) or not prop["enum"]:
            yield bad("enum", "a non-empty array of strings")
        if "enumNames" in prop and not _strings(prop["enumNames"]):
            yield bad("enumNames", "an array of strings")
    if variant == "titled single-select":
        yield from _check_titled_options(form, name, prop.get("oneOf"), jp.join(at, "oneOf"))
    if variant == "multi-select":
        yield from _check_items(form, name, prop.get("items"), jp.join(at, "items"))
    if "default" in prop:
        default = prop["default"]
        expected = {
            "string": (isinstance(default, str), "a string"),
            "legacy enum": (isinstance(default, str), "a string"),
            "titled single-select": (isinstance(default, str), "a string"),
            "number": (_is_number(default), "a number"),
            "integer": (isinstance(default, int) and not isinstance(default, bool), "an integer"),
            "boolean": (isinstance(default, bool), "a boolean"),
            "multi-select": (_strings(default), "an array of strings"),
        }[variant]
        if not expected[0]:
            yield bad("default", expected[1])


def _check_titled_options(form: _FormSchema, name: str, options: object, at: str) -> Iterator[Finding]:
    if not isinstance(options, list) or not options:
        yield _members_problem(
            form,
            at,
            "elicitation-form-schema-value",
            f"the options of property {name!r} must be a non-empty array of {{const, title}} objects",
        )
        return
    for index, option in enumerate(options):
        if not (
            isinstance(option, dict)
            and set(option) == {"const", "title"}
            and isinstance(option["const"], str)
            and isinstance(option["title"], str)
        ):
            yield _members_problem(
                form,
                jp.join(at, index),
                "elicitation-form-schema-value",
                f"option {index} of property {name!r} must be exactly {{const: string, title: string}}",
            )


def _check_items(form: _FormSchema, name: str, items: object, at: str) -> Iterator[Finding]:
    if isinstance(items, dict) and set(items) == {"type", "enum"} and items["type"] == "string":
        if not _strings(items["enum"]) or not items["enum"]:
            yield _members_problem(
                form,
                jp.join(at, "enum"),
                "elicitation-form-schema-value",
                f"the item choices of property {name!r} must be a non-empty array of strings",
            )
        return
    if isinstance(items, dict) and set(items) == {"anyOf"}:
        yield from _check_titled_options(form, name, items["anyOf"], jp.join(at, "anyOf"))
        return
    yield _members_problem(
        form,
        at,
        "elicitation-form-schema-nesting",
        f"array property {name!r} must be a multi-select: items {{type: string, enum: [...]}} "
        "or {anyOf: [{const, title}, ...]}; other arrays are not allowed",
    )


FormCheck = Callable[[_FormSchema], Iterator[Finding]]


def _found_in(document: Document, form: _FormSchema, check: FormCheck) -> tuple[Finding, ...]:
    """What ``check`` finds in one form schema, which depends on nothing but the schema, its
    pointer and its context: kept by schema object in the document's memos (``serve``'s
    last for all its rebuilds), so that ``serve`` checks again only the schemas an edit
    changed. At most MAX_FINDINGS + 1 are kept (the rule stops there)."""
    memo: ByObjectAt[tuple[Finding, ...]] = document.memos.by_object_at(check)
    return memo.get(form.schema, (form.pointer, form.context()), lambda: tuple(islice(check(form), MAX_FINDINGS + 1)))


def _member_findings(form: _FormSchema) -> Iterator[Finding]:
    yield from _check_root(form)
    for name, prop in form.properties:
        yield from _check_property(form, name, prop, form.property_pointer(name))


@rule(
    FORM_SCHEMA_MEMBERS,
    doc=RuleDoc(
        summary=(
            "A form-mode `requestedSchema` is a flat object schema: primitive properties (string, number, integer, "
            "boolean, enums, multi-select) with only the keywords MCP allows."
        ),
        rationale=(
            "Clients render the schema as a form; MCP restricts it so that every client can, and nested objects or "
            "arbitrary keywords cannot be shown as form fields."
        ),
        bad=fragment(
            """
            tools:
              - name: delete_index
                inputSchema: {type: object}
                elicitations:
                  - name: confirm
                    mode: form
                    message: Delete the index?
                    requestedSchema:
                      type: object
                      properties:
                          address:
                            type: object
                            properties:
                              city: {type: string}
            """
        ),
        good=fragment(
            """
            tools:
              - name: delete_index
                inputSchema: {type: object}
                elicitations:
                  - name: confirm
                    mode: form
                    message: Delete the index?
                    requestedSchema:
                      type: object
                      properties:
                          city: {type: string, title: City}
            """
        ),
        requirements=("digest §4.9", "digest §2.14", "req-elicitation-form-shape"),
        codes=(
            "elicitation-form-schema-not-object",
            "elicitation-form-schema-properties",
            "elicitation-form-schema-keyword",
            "elicitation-form-schema-value",
            "elicitation-form-schema-property",
            "elicitation-form-schema-type",
            "elicitation-form-schema-format",
            "elicitation-form-schema-nesting",
            "schema-validation",
            "unknown-member",
            "wrong-type",
            "invalid-value",
            "missing-member",
        ),
    ),
    local=True,
)
def form_schema_members(document: Document) -> Iterator[Finding]:
    checked: set[str] = set()
    for form in _form_schemas(document):
        if form.pointer in checked:
            continue  # a shared component is reported once, where it lives
        checked.add(form.pointer)
        yield from _found_in(document, form, _member_findings)


@rule(
    "mcp.elicitation.form-schema.protocol-shape",
    doc=RuleDoc(
        summary=(
            "When 2025-06-18 is in scope, a form schema uses none of what later versions added: `$schema`, `oneOf` "
            "choices, multi-select arrays, non-boolean defaults."
        ),
        rationale=(
            "2025-06-18 defined a smaller form vocabulary; clients speaking it cannot render the later additions."
        ),
        bad=fragment(
            """
            protocolVersions: ["2025-06-18"]
            tools:
              - name: delete_index
                inputSchema: {type: object}
                elicitations:
                  - name: confirm
                    mode: form
                    message: Delete the index?
                    requestedSchema:
                      type: object
                      properties:
                          size:
                            type: string
                            enum: [small, large]
                            default: small
            """
        ),
        good=fragment(
            """
            protocolVersions: ["2025-06-18"]
            tools:
              - name: delete_index
                inputSchema: {type: object}
                elicitations:
                  - name: confirm
                    mode: form
                    message: Delete the index?
                    requestedSchema:
                      type: object
                      properties:
                          size:
                            type: string
                            enum: [small, large]
            """
        ),
        requirements=("digest §4.9", "req-elicitation-form-vocabulary"),
        codes=("elicitation-form-schema-version-mismatch",),
    ),
    local=True,
)
def form_schema_protocol_shape(document: Document) -> Iterator[Finding]:
    for form in _form_schemas(document):
        if FIRST_FORM_REVISION not in form.elicitation.scope:
            continue

        def mismatch(pointer: str, what: str, form: _FormSchema = form) -> Finding:
            return Finding.error(
                "elicitation-form-schema-version-mismatch",
                f"{form.context()} applies to {FIRST_FORM_REVISION}, whose form schemas do not allow {what}; "
                "narrow its protocolVersions or split the declaration",
                pointer,
                "req-elicitation-form-vocabulary",
            )

        if "$schema" in as_object(form.schema):
            yield mismatch(jp.join(form.pointer, "$schema"), "'$schema'")
        for name, prop in form.properties:
            variant = _variant(prop)
            if variant == "titled single-select":
                yield mismatch(
                    jp.join(form.property_pointer(name), "oneOf"), f"titled single-select enums (property {name!r})"
                )
            elif variant == "multi-select":
                yield mismatch(form.property_pointer(name), f"multi-select arrays (property {name!r})")
            if "default" in prop and variant not in ("boolean", "multi-select", None):
                yield mismatch(
                    jp.join(form.property_pointer(name), "default"), f"a default on a non-boolean property ({name!r})"
                )


@rule(
    "mcpdesc.elicitation.form-schema.consistency",
    doc=RuleDoc(
        summary=(
            "A form schema is consistent: `required` names declared properties, `enumNames` matches `enum`, "
            "defaults are among the choices, and minimums do not exceed maximums."
        ),
        rationale=(
            "An inconsistent form cannot be filled in: a required field that is not shown, or a default that is not "
            "one of the choices."
        ),
        bad=fragment(
            """
            tools:
              - name: delete_index
                inputSchema: {type: object}
                elicitations:
                  - name: confirm
                    mode: form
                    message: Delete the index?
                    requestedSchema:
                      type: object
                      properties:
                          ok: {type: boolean}
                      required: [ok, reason]
            """
        ),
        good=fragment(
            """
            tools:
              - name: delete_index
                inputSchema: {type: object}
                elicitations:
                  - name: confirm
                    mode: form
                    message: Delete the index?
                    requestedSchema:
                      type: object
                      properties:
                          ok: {type: boolean}
                      required: [ok]
            """
        ),
        requirements=(
            "digest §4.9",
            "req-elicitation-form-required",
            "req-elicitation-form-enum-names",
            "req-elicitation-form-defaults",
            "req-elicitation-form-ranges",
        ),
        codes=(
            "elicitation-form-required-property-unknown",
            "elicitation-form-enum-names-mismatch",
            "elicitation-form-default-outside-enum",
            "elicitation-form-invalid-range",
        ),
    ),
    local=True,
)
def form_schema_consistency(document: Document) -> Iterator[Finding]:
    checked: set[str] = set()
    for form in _form_schemas(document):
        if form.pointer in checked:
            continue
        checked.add(form.pointer)
        yield from _found_in(document, form, _consistency_findings)


def _consistency_findings(form: _FormSchema) -> Iterator[Finding]:
    schema = as_object(form.schema)
    declared = as_object(schema.get("properties"))
    required = schema.get("required")
    if isinstance(required, list):
        for index, name in enumerate(required):
            if isinstance(name, str) and name not in declared:
                yield Finding.error(
                    "elicitation-form-required-property-unknown",
                    f"'required' names {name!r}, which is not a property of the requestedSchema of {form.context()}",
                    jp.join(form.pointer, "required", index),
                    "req-elicitation-form-required",
                )
    for name, prop in form.properties:
        yield from _property_consistency(form, name, prop, form.property_pointer(name))


def _property_consistency(form: _FormSchema, name: str, prop: dict[str, Any], at: str) -> Iterator[Finding]:
    variant = _variant(prop)
    if variant is None:
        return
    enum = prop.get("enum")
    names = prop.get("enumNames")
    if variant == "legacy enum" and isinstance(enum, list) and isinstance(names, list) and len(names) != len(enum):
        yield Finding.error(
            "elicitation-form-enum-names-mismatch",
            f"property {name!r} has {len(enum)} enum values but {len(names)} enumNames",
            jp.join(at, "enumNames"),
            "req-elicitation-form-enum-names",
        )
    choices = _choices(prop, variant)
    if choices is not None and "default" in prop:
        default = prop["default"]
        outside = (
            [v for v in default if v not in choices]
            if isinstance(default, list)
            else ([default] if default not in choices else [])
        )
        if outside:
            yield Finding.error(
                "elicitation-form-default-outside-enum",
                f"default {', '.join(repr(v) for v in outside)} of property {name!r} is not among its choices "
                f"({', '.join(repr(c) for c in choices)})",
                jp.join(at, "default"),
                "req-elicitation-form-defaults",
            )
    for low, high in (("minLength", "maxLength"), ("minimum", "maximum"), ("minItems", "maxItems")):
        lo, hi = prop.get(low), prop.get(high)
        if _is_number(lo) and _is_number(hi) and lo > hi:
            yield Finding.error(
                "elicitation-form-invalid-range",
                f"property {name!r} has {low} {lo} greater than {high} {hi}",
                jp.join(at, low),
                "req-elicitation-form-ranges",
            )


@rule(
    "mcp.elicitation.protocol-version",
    doc=RuleDoc(
        summary="A url-mode elicitation is not declared for 2025-06-18, which has form mode only.",
        rationale=(
            "URL mode arrived in 2025-11-25; split a declaration that must also serve 2025-06-18 clients into a "
            "form-mode one for them."
        ),
        bad=fragment(
            """
            protocolVersions: ["2025-06-18", "2025-11-25"]
            tools:
              - name: delete_index
                inputSchema: {type: object}
                elicitations:
                  - name: sign_in
                    mode: url
                    message: Sign in to continue.
                    url: https://example.com/login
            """
        ),
        good=fragment(
            """
            protocolVersions: ["2025-06-18", "2025-11-25"]
            tools:
              - name: delete_index
                inputSchema: {type: object}
                elicitations:
                  - name: sign_in
                    mode: url
                    message: Sign in to continue.
                    protocolVersions: ["2025-11-25"]
                    url: https://example.com/login
            """
        ),
        requirements=("digest §4.9", "req-elicitation-protocol-versions"),
        codes=("elicitation-mode-not-supported-by-version",),
    ),
    local=True,
)
def mode_supported(document: Document) -> Iterator[Finding]:
    for elicitation in document.elicitations:
        if elicitation.data.get("mode") == "url" and FIRST_FORM_REVISION in elicitation.scope:
            yield Finding.error(
                "elicitation-mode-not-supported-by-version",
                f"{elicitation.label} uses url mode, which MCP {FIRST_FORM_REVISION} does not support; "
                "limit its protocolVersions to 2025-11-25 and later, or split it",
                jp.join(elicitation.pointer, "mode"),
                "req-elicitation-protocol-versions",
            )
