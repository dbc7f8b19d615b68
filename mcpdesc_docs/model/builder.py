"""Build the page model (``model.Site``) from a validated description."""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any
from urllib.parse import urlsplit

from ..kinds import BY_NAME, KIND_NAMES
from ..render.markdown import is_safe_link
from ..source import pointer as jp
from ..spec.migration import migrate_070
from ..spec.versions import SPEC_0_7_0, SPEC_0_8_0, Specification
from ..validation.document import Document, Primitive, Resolved, as_list, as_object, explicit_scope, strings
from .forms import build_form_preview
from .schema_tree import SchemaTree, build_schema_tree, dump_json, number_text
from .site import (
    Alternative,
    CapabilityEntry,
    CapabilitySet,
    CompletionExample,
    Component,
    Contact,
    Elicitation,
    Example,
    Hint,
    Icon,
    InteractionExample,
    JsonItem,
    License,
    Link,
    OAuthFlow,
    Page,
    PromptArgument,
    Requirement,
    RequirementTerm,
    Scope,
    SecurityScheme,
    SecurityView,
    Server,
    Site,
    Step,
    Tag,
    TagRef,
    Transport,
    TransportSecurity,
    Variant,
)
from .urls import PageAnchors, anchor_id, primitive_pages, tag_pages


def _string(data: Mapping[str, Any], key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) else None


def _extensions(data: Mapping[str, Any]) -> tuple[JsonItem, ...]:
    return tuple(JsonItem(key, dump_json(value)) for key, value in data.items() if key.startswith("x-"))


def _link(value: object) -> Link | None:
    if not isinstance(value, str):
        return None
    # Only absolute http(s)/mailto URLs become hyperlinks; anything else stays text.
    return Link(value, is_safe_link(value) and bool(urlsplit(value).scheme))


def _icons(value: object) -> tuple[Icon, ...]:
    icons = []
    for item in as_list(value):
        icon = as_object(item)
        icons.append(
            Icon(
                src=_string(icon, "src") or "",
                mime_type=_string(icon, "mimeType"),
                sizes=tuple(strings(icon.get("sizes"))),
                theme=_string(icon, "theme"),
                extensions=_extensions(icon),
            )
        )
    return tuple(icons)


# --- builder ---------------------------------------------------------------------------

_HINTS = {
    "readOnlyHint": ("Read-only", "May change data"),
    "destructiveHint": ("May delete or overwrite data", "Only adds data"),
    "idempotentHint": ("Idempotent: repeating a call has no further effect", "Not idempotent"),
    "openWorldHint": ("Talks to the outside world", "Closed world: only the server's own data"),
}
_FLOW_LABELS = {
    "authorizationCode": "Authorization code",
    "clientCredentials": "Client credentials",
    "implicit": "Implicit",
    "password": "Password",
}
_SCHEME_WORDS = {
    "http": "HTTP authentication",
    "apiKey": "API key",
    "oauth2": "OAuth 2.0",
    "openIdConnect": "OpenID Connect",
}
_TRANSPORT_LABELS = {"streamable-http": "Streamable HTTP", "stdio": "stdio", "sse": "HTTP+SSE (legacy)"}
_CAPABILITY_FLAGS = {
    "listChanged": "notifies when the list changes",
    "subscribe": "supports subscriptions",
}


class _Builder:
    def __init__(self, document: Document) -> None:
        self.document = document
        self.data = document.data
        self.root_scope = document.root_scope
        self.declared_tags = {
            name for name in (_string(as_object(t), "name") for t in as_list(self.data.get("tags"))) if name
        }
        self.has_tag_catalogue = "tags" in self.data
        self.component_uses: dict[str, list[str]] = {}
        self.transports: tuple[Transport, ...] = ()

    # scope and security ----------------------------------------------------------------

    def scope(self, declaration: Mapping[str, Any], parent: tuple[str, ...]) -> Scope:
        explicit = explicit_scope(declaration)
        return Scope(explicit, True) if explicit is not None else Scope(parent, False)

    def requirement(self, value: object) -> Requirement:
        alternatives = []
        for item in as_list(value):
            terms = tuple(
                RequirementTerm(scheme, tuple(strings(scopes)), anchor_id("scheme", scheme))
                for scheme, scopes in as_object(item).items()
            )
            alternatives.append(Alternative(terms))
        return Requirement(tuple(alternatives))

    def security(self, declaration: Mapping[str, Any], kind_words: str) -> SecurityView:
        root_has = "security" in self.data
        if "security" in declaration:
            value = declaration["security"]
            if as_list(value) == []:
                return SecurityView(
                    "cleared",
                    "No authentication: this " + kind_words + " explicitly clears the server's requirement."
                    if root_has
                    else "No authentication: this " + kind_words + " explicitly declares none.",
                    self.requirement(value),
                )
            words = "Overrides the server default." if root_has else f"Declared on this {kind_words}."
            return SecurityView("own", words, self.requirement(value))
        by_transport = tuple(
            TransportSecurity(
                transport.label,
                transport.security.requirement if transport.security else None,
                "transport" if transport.security else ("inherited" if root_has else "none"),
            )
            for transport in self.transports
        )
        transport_specific = by_transport if any(t.origin == "transport" for t in by_transport) else ()
        if root_has:
            words = "Inherited from the server."
            if transport_specific:
                words = "Inherited: the transport's requirement applies where it declares one, else the server's."
            return SecurityView("inherited", words, self.requirement(self.data["security"]), transport_specific)
        if transport_specific:
            return SecurityView("inherited", "Inherited from the transport used to connect.", None, transport_specific)
        return SecurityView("none", "No security requirement is declared.", None)

    # server level ----------------------------------------------------------------------

    def server(self) -> Server:
        info = as_object(self.data.get("info"))
        contact = as_object(info.get("contact")) if "contact" in info else None
        license_ = as_object(info.get("license")) if "license" in info else None
        name = _string(info, "name") or ""
        return Server(
            name=name,
            title=_string(info, "title") or name,
            version=_string(info, "version") or "",
            description=_string(info, "description"),
            id=_string(info, "id"),
            icons=_icons(info.get("icons")),
            website=_link(info.get("websiteUrl")),
            contact=Contact(
                _string(contact, "name"), _link(contact.get("url")), _string(contact, "email"), _extensions(contact)
            )
            if contact is not None
            else None,
            license=License(_string(license_, "name") or "", _link(license_.get("url")), _extensions(license_))
            if license_ is not None
            else None,
            extensions=_extensions(info),
        )

    def build_transports(self) -> tuple[Transport, ...]:
        transports = []
        for index, item in enumerate(as_list(self.data.get("transports"))):
            data = as_object(item)
            kind = _string(data, "type") or "?"
            command = _string(data, "command")
            args = tuple(strings(data.get("args")))
            label = _TRANSPORT_LABELS.get(kind, kind)
            security = None
            if "security" in data:
                cleared = as_list(data["security"]) == []
                security = SecurityView(
                    "cleared" if cleared else "own",
                    "No authentication on this transport: it explicitly clears any inherited requirement."
                    if cleared
                    else "This transport declares its own requirement, which replaces the server's default.",
                    self.requirement(data["security"]),
                )
            transports.append(
                Transport(
                    index=index,
                    anchor=f"transport-{index + 1}",
                    type=kind,
                    label=label,
                    url=_string(data, "url"),
                    command=command,
                    args=args,
                    command_line=shlex.join([command, *args]) if command is not None else None,
                    env=tuple((k, str(v)) for k, v in as_object(data.get("env")).items()),
                    scope=self.scope(data, self.root_scope),
                    security=security,
                    legacy=kind == "sse",
                    extensions=_extensions(data),
                )
            )
        return tuple(transports)

    def security_schemes(self) -> tuple[SecurityScheme, ...]:
        schemes = []
        for name, item in as_object(self.data.get("securitySchemes")).items():
            data = as_object(item)
            kind = _string(data, "type") or "?"
            details: list[tuple[str, str]] = []
            for key, label in (
                ("scheme", "Scheme"),
                ("bearerFormat", "Bearer format"),
                ("name", "Parameter name"),
                ("in", "Sent in"),
                ("openIdConnectUrl", "OpenID Connect discovery URL"),
            ):
                if isinstance(data.get(key), str):
                    details.append((label, data[key]))
            flows = []
            flows_data = as_object(data.get("flows"))
            for flow_name, flow_item in flows_data.items():
                if flow_name.startswith("x-"):
                    continue
                flow = as_object(flow_item)
                flows.append(
                    OAuthFlow(
                        kind=flow_name,
                        label=_FLOW_LABELS.get(flow_name, flow_name),
                        authorization_url=_string(flow, "authorizationUrl"),
                        token_url=_string(flow, "tokenUrl"),
                        refresh_url=_string(flow, "refreshUrl"),
                        scopes=tuple((str(k), str(v)) for k, v in as_object(flow.get("scopes")).items()),
                        extensions=_extensions(flow),
                    )
                )
            schemes.append(
                SecurityScheme(
                    name=name,
                    anchor=anchor_id("scheme", name),
                    type=kind,
                    type_words=_SCHEME_WORDS.get(kind, kind),
                    description=_string(data, "description"),
                    details=tuple(details),
                    flows=tuple(flows),
                    extensions=(*_extensions(data), *_extensions(flows_data)),
                )
            )
        return tuple(schemes)

    def capabilities(self) -> tuple[CapabilitySet, ...]:
        sets = []
        for index, item in enumerate(as_list(self.data.get("capabilities"))):
            data = as_object(item)
            entries = []
            for name, value in data.items():
                if name == "protocolVersions" or name.startswith("x-"):
                    continue
                value_object = as_object(value)
                words = tuple(
                    _CAPABILITY_FLAGS.get(flag, flag) + ("" if flag_value is True else " (declared false)")
                    for flag, flag_value in value_object.items()
                    if flag in _CAPABILITY_FLAGS and isinstance(flag_value, bool)
                )
                rest = {k: v for k, v in value_object.items() if k not in _CAPABILITY_FLAGS}
                entries.append(CapabilityEntry(name, words, dump_json(rest) if rest else None))
            sets.append(
                CapabilitySet(
                    anchor=f"capabilities-{index + 1}",
                    scope=self.scope(data, self.root_scope),
                    entries=tuple(entries),
                    extensions=_extensions(data),
                )
            )
        return tuple(sets)

    def tags(self) -> tuple[Tag, ...]:
        tags = []
        paths = tag_pages()
        for item in as_list(self.data.get("tags")):
            data = as_object(item)
            name = _string(data, "name") or ""
            _, path = paths.take(name)
            tags.append(Tag(name, anchor_id("tag", name), _string(data, "description"), _extensions(data), path))
        return tuple(tags)

    def components(self) -> tuple[Component, ...]:
        components = []
        for namespace, entries in self.document.components.items():
            if namespace.startswith("x-"):
                continue
            for name, value in as_object(entries).items():
                target = f"#/components/{namespace}/{name}"
                components.append(
                    Component(
                        namespace,
                        name,
                        anchor_id(f"component-{namespace}", name),
                        dump_json(value),
                        tuple(self.component_uses.get(target, ())),
                    )
                )
        return tuple(components)

    # primitives ------------------------------------------------------------------------

    def resolve(self, value: object, pointer: str, namespace: str) -> tuple[Any, str | None]:
        """The value at a use site and the component it came from (the first link of the chain)."""
        resolved: Resolved | None = self.document.resolve(value, pointer, namespace)
        if resolved is None:  # cannot happen on a validated document
            return value, None
        component = None
        if resolved.via is not None:
            component = as_object(value).get("$componentRef")
            if isinstance(component, str):
                self.component_uses.setdefault(component, []).append(pointer)
            final = "#" + resolved.pointer
            if final != component:
                self.component_uses.setdefault(final, []).append(pointer)
        return resolved.value, component if isinstance(component, str) else None

    def tag_refs(self, data: Mapping[str, Any]) -> tuple[TagRef, ...]:
        return tuple(TagRef(t, anchor_id("tag", t), t in self.declared_tags) for t in strings(data.get("tags")))

    def hints(self, annotations: Mapping[str, Any]) -> tuple[Hint, ...]:
        hints = []
        for key, (yes, no) in _HINTS.items():
            value = annotations.get(key)
            if isinstance(value, bool):
                hints.append(Hint(key, yes if value else no, f"{key}: {'true' if value else 'false'}"))
        return tuple(hints)

    def resource_annotation_words(self, annotations: Mapping[str, Any]) -> tuple[str, ...]:
        words = []
        audience = strings(annotations.get("audience"))
        if "audience" in annotations:
            words.append("Intended for: " + (", ".join(audience) if audience else "nobody listed"))
        priority = number_text(annotations.get("priority"))
        if priority is not None:
            words.append(f"Priority {priority} (0 = optional, 1 = required)")
        if isinstance(annotations.get("lastModified"), str):
            words.append(f"Last modified {annotations['lastModified']}")
        return tuple(words)

    def elicitations(self, primitive: Primitive, variant_scope: Scope, anchors: PageAnchors) -> tuple[Elicitation, ...]:
        cards = []
        for index, item in enumerate(as_list(primitive.data.get("elicitations"))):
            data = as_object(item)
            pointer = jp.join(primitive.pointer, "elicitations", index)
            name = _string(data, "name") or f"elicitation-{index + 1}"
            mode = _string(data, "mode") or "form"
            form = None
            schema_json = None
            component = None
            if "requestedSchema" in data:
                schema, component = self.resolve(
                    data["requestedSchema"], jp.join(pointer, "requestedSchema"), "schemas"
                )
                form = build_form_preview(as_object(schema))
                schema_json = dump_json(schema)
            cards.append(
                Elicitation(
                    name=name,
                    anchor=anchors.elicitation(name),
                    mode=mode,
                    message=_string(data, "message") or "",
                    when=_string(data, "when"),
                    on_decline=_string(data, "onDecline"),
                    on_cancel=_string(data, "onCancel"),
                    url=_string(data, "url"),
                    scope=self.scope(data, variant_scope.versions),
                    form=form,
                    schema_json=schema_json,
                    schema_component=component,
                    extensions=_extensions(data),
                )
            )
        return tuple(cards)

    def examples(self, primitive: Primitive, anchors: PageAnchors) -> tuple[Example, ...]:
        examples = []
        namespace = BY_NAME[primitive.kind].examples_namespace
        for name, raw in as_object(primitive.data.get("examples")).items():
            value, component = self.resolve(raw, jp.join(primitive.pointer, "examples", name), namespace)
            data = as_object(value)
            result = as_object(data.get("result"))
            is_error = result.get("isError") is True
            parts: list[JsonItem] = []
            if "uri" in data:
                parts.append(JsonItem("URI", str(data["uri"])))
            if "input" in data:
                parts.append(JsonItem("Arguments", dump_json(data["input"])))
            if "arguments" in data:
                parts.append(JsonItem("Arguments", dump_json(data["arguments"])))
            if "result" in data:
                parts.append(JsonItem("Error result" if is_error else "Result", dump_json(data["result"])))
            examples.append(
                Example(
                    name=name,
                    anchor=anchors.example(name),
                    component=component,
                    parts=tuple(parts),
                    is_error=is_error,
                    extensions=_extensions(data),
                )
            )
        return tuple(examples)

    def interaction_examples(
        self, primitive: Primitive, elicitations: Sequence[Elicitation], anchors: PageAnchors
    ) -> tuple[InteractionExample, ...]:
        by_name = {e.name: e.anchor for e in elicitations}
        examples = []
        for name, raw in as_object(primitive.data.get("interactionExamples")).items():
            data = as_object(raw)
            steps = []
            for number, step_raw in enumerate(as_list(data.get("steps")), start=1):
                step = as_object(step_raw)
                kind = _string(step, "type") or "?"
                request = as_object(step.get("request"))
                response = as_object(step.get("response"))
                declaration = _string(step, "declaration")
                outcome: str | None
                if kind == "elicitation":
                    mode = _string(request, "mode") or "form"
                    heading = f"The server asks the user ({mode} elicitation)"
                    action = _string(response, "action")
                    outcome = {
                        "accept": "The user accepts.",
                        "decline": "The user declines.",
                        "cancel": "The user cancels.",
                    }.get(action or "", f"Action: {action}")
                elif kind == "sampling":
                    heading = "The server asks the client's model for a completion (sampling)"
                    model = _string(response, "model")
                    outcome = f"The client answers with model {model}." if model else None
                elif kind == "roots":
                    heading = "The server asks the client for its roots"
                    outcome = f"The client lists {len(as_list(response.get('roots')))} root(s)."
                else:
                    heading, outcome = kind, None
                steps.append(
                    Step(
                        number=number,
                        type=kind,
                        heading=heading,
                        declaration=declaration,
                        declaration_anchor=by_name.get(declaration) if declaration else None,
                        outcome=outcome,
                        request=dump_json(step.get("request")),
                        response=dump_json(step.get("response")),
                        extensions=_extensions(step),
                    )
                )
            result = data.get("result")
            examples.append(
                InteractionExample(
                    name=name,
                    anchor=anchors.interaction(name),
                    input=dump_json(data.get("input")),
                    steps=tuple(steps),
                    result=dump_json(result),
                    is_error=as_object(result).get("isError") is True,
                    extensions=_extensions(data),
                )
            )
        return tuple(examples)

    def completion_examples(self, primitive: Primitive, anchors: PageAnchors) -> tuple[CompletionExample, ...]:
        examples = []
        for name, raw in as_object(primitive.data.get("completionExamples")).items():
            data = as_object(raw)
            argument = as_object(data.get("argument"))
            context = as_object(as_object(data.get("context")).get("arguments"))
            result = as_object(data.get("result"))
            completion = as_object(result.get("completion"))
            extra = {k: v for k, v in result.items() if k != "completion"}
            extra_completion = {k: v for k, v in completion.items() if k not in ("values", "total", "hasMore")}
            if extra_completion:
                extra["completion"] = extra_completion
            has_more = completion.get("hasMore")
            examples.append(
                CompletionExample(
                    name=name,
                    anchor=anchors.completion(name),
                    argument=_string(argument, "name") or "",
                    value=_string(argument, "value") or "",
                    context=tuple((str(k), str(v)) for k, v in context.items()),
                    values=tuple(strings(completion.get("values"))),
                    total=number_text(completion.get("total")),
                    has_more=has_more if isinstance(has_more, bool) else None,
                    result_extra=JsonItem("More of the result", dump_json(extra)) if extra else None,
                    extensions=(
                        *_extensions(data),
                        *_extensions(argument),
                        *_extensions(as_object(data.get("context"))),
                    ),
                )
            )
        return tuple(examples)

    def schema(self, primitive: Primitive, key: str, prefix: str) -> SchemaTree | None:
        if key not in primitive.data:
            return None
        value, component = self.resolve(primitive.data[key], jp.join(primitive.pointer, key), "schemas")
        return build_schema_tree(value, prefix, component=component)

    def variant(self, primitive: Primitive, anchor: str, anchors: PageAnchors) -> Variant:
        data = primitive.data
        kind = primitive.kind
        scope = self.scope(data, self.root_scope)
        annotations = as_object(data.get("annotations"))
        known_annotations = set(_HINTS) | {"title"} if kind == "tool" else {"audience", "priority", "lastModified"}
        extras = {k: v for k, v in annotations.items() if k not in known_annotations}
        annotation_title = _string(annotations, "title") if kind == "tool" else None
        if annotation_title is not None:
            extras = {"title": annotation_title, **extras}
        elicitations = self.elicitations(primitive, scope, anchors)
        requirements = as_object(data.get("clientRequirements")) if "clientRequirements" in data else None
        prefix = "" if anchor == "declaration" else f"{anchor}-"
        return Variant(
            kind=kind,
            pointer=primitive.pointer,
            anchor=anchor,
            name=_string(data, "name") or "",
            title=_string(data, "title") or annotation_title,
            description=_string(data, "description"),
            scope=scope,
            deprecated=data.get("deprecated") is True,
            tags=self.tag_refs(data),
            icons=_icons(data.get("icons")),
            hints=self.hints(annotations) if kind == "tool" else (),
            annotation_words=self.resource_annotation_words(annotations) if kind != "tool" else (),
            annotation_extras=tuple(JsonItem(k, dump_json(v)) for k, v in extras.items()),
            security=self.security(data, BY_NAME[kind].singular.lower()),
            client_requirements=JsonItem("clientRequirements", dump_json(requirements))
            if requirements is not None
            else None,
            client_requirement_names=tuple(k for k in (requirements or {}) if not k.startswith("x-")),
            elicitations=elicitations,
            examples=self.examples(primitive, anchors),
            interaction_examples=self.interaction_examples(primitive, elicitations, anchors),
            completion_examples=self.completion_examples(primitive, anchors),
            input_schema=self.schema(primitive, "inputSchema", f"{prefix}input"),
            output_schema=self.schema(primitive, "outputSchema", f"{prefix}output"),
            execution=_string(as_object(data.get("execution")), "taskSupport"),
            uri=_string(data, "uri"),
            uri_template=_string(data, "uriTemplate"),
            mime_type=_string(data, "mimeType"),
            size=number_text(data.get("size")),
            arguments=tuple(
                PromptArgument(
                    name=_string(a, "name") or "",
                    title=_string(a, "title"),
                    description=_string(a, "description"),
                    required=a.get("required") is True,
                    extensions=_extensions(a),
                )
                for a in (as_object(x) for x in as_list(data.get("arguments")))
            ),
            meta=dump_json(data["_meta"]) if "_meta" in data else None,
            extensions=_extensions(data),
        )

    def pages(self) -> tuple[Page, ...]:
        pages: list[Page] = []
        for kind in KIND_NAMES:
            groups: dict[str, list[Primitive]] = {}
            for primitive in self.document.primitives_of(kind):
                # Same identity = same page (validation guarantees disjoint scopes).
                groups.setdefault(primitive.identity or primitive.pointer, []).append(primitive)
            paths = primitive_pages(kind)
            for members in groups.values():
                name = _string(members[0].data, "name") or ""
                slug, path = paths.take(name)
                anchors = PageAnchors()
                variant_anchors = anchors.variants(len(members))
                variants = tuple(self.variant(p, a, anchors) for p, a in zip(members, variant_anchors, strict=True))
                union = sorted({v for variant in variants for v in variant.scope.versions})
                scope = Scope(tuple(union), any(v.scope.explicit for v in variants))
                pages.append(Page(kind, name, slug, path, variants, scope))
        return tuple(pages)

    def build(self, specification: Specification) -> Site:
        self.transports = self.build_transports()
        pages = self.pages()
        schema_uri = self.data.get("$schema")
        return Site(
            server=self.server(),
            specification=specification.name,
            mcpdesc=str(self.data.get("mcpdesc", "")),
            schema_uri=schema_uri if isinstance(schema_uri, str) else None,
            protocol_versions=self.root_scope,
            instructions=_string(self.data, "instructions"),
            transports=self.transports,
            security_schemes=self.security_schemes(),
            security=self.root_security(),
            capabilities=self.capabilities(),
            tags=self.tags(),
            pages=pages,
            components=self.components(),
            extensions=_extensions(self.data),
        )

    def root_security(self) -> SecurityView:
        by_transport = tuple(
            TransportSecurity(t.label, t.security.requirement, "transport") for t in self.transports if t.security
        )
        if "security" not in self.data:
            words = "The server declares no default security requirement."
            if by_transport:
                words += " Some transports declare their own:"
            return SecurityView("none", words, None, by_transport)
        value = self.data["security"]
        if by_transport:
            # Listed so readers see at once that the default is replaced on those transports.
            by_transport = (*by_transport, TransportSecurity("any other transport", self.requirement(value), "root"))
        if as_list(value) == []:
            return SecurityView(
                "cleared", "The server explicitly requires no authentication.", self.requirement(value), by_transport
            )
        return SecurityView(
            "own",
            "The server's default: it applies wherever no other requirement is declared.",
            self.requirement(value),
            by_transport,
        )


def build_site(data: Mapping[str, Any], specification: Specification) -> Site:
    """The page model of a description that passed validation. A 0.7.0 description is read
    through its migration (for display only: nothing is invented, missing parts stay
    missing), so one model and one set of templates serve every format version."""
    if specification == SPEC_0_7_0:
        migrated = migrate_070(data, SPEC_0_8_0, for_display=True)
        document = Document.build(migrated.data, SPEC_0_8_0)
        site = _Builder(document).build(specification)
        return replace(site, mcpdesc="0.7.0", schema_uri=_string(data, "$schema"), legacy_format="0.7.0")
    document = Document.build(data, specification)
    return _Builder(document).build(specification)


__all__ = ["build_site"]
