"""Tools, resources, resource templates and prompts: one page per identity, one variant per declaration."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..kinds import KIND_NAMES
from ..source.changes import SourceChange, Staleness
from ..validation.document import Primitive, as_list, as_object, strings
from .components import resolve, schema_site
from .context import BuildContext
from .elicitations import build_elicitation
from .examples import build_completion_examples, build_examples, build_interaction_examples
from .requests import build_request_sample
from .schema_tree import SchemaTree, build_schema_tree, dump_json, linked_tree, number_text
from .security import primitive_view
from .site import Hint, JsonItem, Page, PromptArgument, ResourceAnnotation, Scope, TagRef, Variant
from .urls import PageAnchors, PageRef, primitive_pages, section_prefix, tag_anchor
from .values import extensions, icons, string
from .variant_diff import page_changes

TOOL_HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
"""Tool annotations with a defined meaning, in the order pages list them."""
_RESOURCE_ANNOTATIONS = ("audience", "priority", "lastModified")


_WRITE_HINTS = ("destructiveHint", "idempotentHint")
"""Hints MCP gives a meaning only for tools that are not read-only."""


def _hints(annotations: Mapping[str, Any]) -> tuple[Hint, ...]:
    # A read-only tool neither destroys nor repeats effects: "Read-only · Only adds data"
    # would contradict itself, so the write hints of such a tool are not shown.
    read_only = annotations.get("readOnlyHint") is True
    return tuple(
        Hint(key, annotations[key])
        for key in TOOL_HINTS
        if isinstance(annotations.get(key), bool) and not (read_only and key in _WRITE_HINTS)
    )


def _resource_annotations(annotations: Mapping[str, Any]) -> tuple[ResourceAnnotation, ...]:
    found = []
    if "audience" in annotations:
        found.append(ResourceAnnotation("audience", tuple(strings(annotations["audience"]))))
    priority = number_text(annotations.get("priority"))
    if priority is not None:
        found.append(ResourceAnnotation("priority", (priority,)))
    last_modified = string(annotations, "lastModified")
    if last_modified is not None:
        found.append(ResourceAnnotation("lastModified", (last_modified,)))
    return tuple(found)


def _annotation_extras(kind: str, annotations: Mapping[str, Any]) -> tuple[JsonItem, ...]:
    """Annotation members without a defined meaning, kept as data. A tool's annotation
    ``title`` has one (the display title, when the tool has no ``title`` of its own)."""
    known = {*TOOL_HINTS, "title"} if kind == "tool" else set(_RESOURCE_ANNOTATIONS)
    return tuple(JsonItem(k, dump_json(v)) for k, v in annotations.items() if k not in known)


def _tag_refs(context: BuildContext, data: Mapping[str, Any]) -> tuple[TagRef, ...]:
    return tuple(TagRef(t, tag_anchor(t), t in context.declared_tags) for t in strings(data.get("tags")))


def _schema(
    context: BuildContext, primitive: Primitive, key: str, prefix: str, page: PageRef, section: str
) -> SchemaTree | None:
    site = schema_site(primitive, key)
    if site is None:
        return None
    value, component = resolve(context.document, site)
    link = context.repeats.elsewhere(component)
    if link is not None:
        return linked_tree(link)
    tree = build_schema_tree(value, prefix, component=component)
    context.repeats.shown(component, tree.weight, page.at(section), page.name)
    return tree


def _arguments(data: Mapping[str, Any]) -> tuple[PromptArgument, ...]:
    return tuple(
        PromptArgument(
            name=string(a, "name") or "",
            title=string(a, "title"),
            description=string(a, "description"),
            required=a.get("required") is True,
            extensions=extensions(a),
        )
        for a in (as_object(x) for x in as_list(data.get("arguments")))
    )


def build_variant(
    context: BuildContext, primitive: Primitive, anchor: str, anchors: PageAnchors, page: PageRef
) -> Variant:
    """One declaration. ``anchors`` is its page's: the variant takes its cards' and
    examples' ids from it in reading order, after the variants before it."""
    data = primitive.data
    kind = primitive.kind
    annotations = as_object(data.get("annotations"))
    annotation_title = string(annotations, "title") if kind == "tool" else None
    elicitations = tuple(
        build_elicitation(context, declared, position, anchors, page)
        for position, declared in enumerate(context.elicitations.get(primitive.pointer, ()))
    )
    requirements = as_object(data.get("clientRequirements")) if "clientRequirements" in data else None
    prefix = section_prefix(anchor)
    return Variant(
        kind=kind,
        pointer=primitive.pointer,
        anchor=anchor,
        name=string(data, "name") or "",
        title=string(data, "title") or annotation_title,
        annotation_title=annotation_title if string(data, "title") not in (None, annotation_title) else None,
        description=string(data, "description"),
        request=build_request_sample(context, primitive),
        scope=Scope(primitive.scope, primitive.scope_is_explicit),
        deprecated=data.get("deprecated") is True,
        tags=_tag_refs(context, data),
        icons=icons(data.get("icons")),
        hints=_hints(annotations) if kind == "tool" else (),
        resource_annotations=_resource_annotations(annotations) if kind != "tool" else (),
        annotation_extras=_annotation_extras(kind, annotations),
        security=primitive_view(context, data, kind),
        client_requirements=JsonItem("clientRequirements", dump_json(requirements))
        if requirements is not None
        else None,
        client_requirement_names=tuple(k for k in (requirements or {}) if not k.startswith("x-")),
        elicitations=elicitations,
        examples=build_examples(context, primitive, anchors, page),
        interaction_examples=build_interaction_examples(primitive, elicitations, anchors),
        completion_examples=build_completion_examples(primitive, anchors),
        input_schema=_schema(context, primitive, "inputSchema", f"{prefix}input", page, f"{prefix}parameters"),
        output_schema=_schema(context, primitive, "outputSchema", f"{prefix}output", page, f"{prefix}output"),
        execution=string(as_object(data.get("execution")), "taskSupport"),
        uri=string(data, "uri"),
        uri_template=string(data, "uriTemplate"),
        mime_type=string(data, "mimeType"),
        size=number_text(data.get("size")),
        arguments=_arguments(data),
        meta=dump_json(data["_meta"]) if "_meta" in data else None,
        extensions=extensions(data),
    )


def page_groups(context: BuildContext, kind: str) -> list[list[Primitive]]:
    """A kind's declarations grouped by identity, in document order: one group per page
    (validation guarantees that declarations sharing an identity have disjoint scopes)."""
    groups: dict[str, list[Primitive]] = {}
    for primitive in context.document.primitives_of(kind):
        groups.setdefault(primitive.identity or primitive.pointer, []).append(primitive)
    return list(groups.values())


class PageCache:
    """The pages of the previous build, for ``serve``: a page is reused while its
    declarations are unchanged (the same objects at the same pointers: ``IncrementalYaml``
    keeps the items an edit did not touch, and ``SameObjects`` the values a full parse
    found equal) and everything outside the four collections is unchanged. What changed
    is worked out once per rebuild by the build session, which tells this cache
    (``advance``), even for a rebuild that made no pages. Pages whose schemas or examples
    name a component are always built: whether a use shows the component or links to its
    first use depends on the pages before it."""

    def __init__(self) -> None:
        self._pages: dict[tuple[str, tuple[str, ...]], Page] = {}
        self._staleness = Staleness()
        self.built = 0
        """Pages built (not reused) by the last build, for tests and the bench."""

    def advance(self, change: SourceChange) -> None:
        self._staleness.add(change)

    def begin(self) -> None:
        staleness = self._staleness
        staleness.check_told("the page cache")
        if staleness.everything or staleness.root:
            self._pages = {}
        else:
            self._pages = {
                key: page
                for key, page in self._pages.items()
                if not any(pointer in staleness.primitives for pointer in key[1])
            }
        staleness.caught_up()
        self.built = 0

    def get(self, path: str, members: list[Primitive]) -> Page | None:
        return self._pages.get((path, tuple(member.pointer for member in members)))

    def keep(self, path: str, members: list[Primitive], page: Page) -> None:
        self._pages[(path, tuple(member.pointer for member in members))] = page


def build_pages(context: BuildContext, cache: PageCache | None = None) -> tuple[Page, ...]:
    if cache is not None:
        cache.begin()
    pages: list[Page] = []
    for kind in KIND_NAMES:
        paths = primitive_pages(kind)
        for members in page_groups(context, kind):
            name = string(members[0].data, "name") or ""
            slug, path = paths.take(name)
            reused = cache.get(path, members) if cache is not None else None
            if reused is not None:
                pages.append(reused)
                continue
            uses = context.repeats.uses
            anchors = PageAnchors()
            variant_anchors = anchors.variants(len(members))
            variants = tuple(
                build_variant(context, primitive, anchor, anchors, PageRef(path, name))
                for primitive, anchor in zip(members, variant_anchors, strict=True)
            )
            union = sorted({v for variant in variants for v in variant.scope.versions})
            scope = Scope(tuple(union), any(v.scope.explicit for v in variants))
            page = Page(kind, name, slug, path, variants, scope, page_changes(variants))
            pages.append(page)
            if cache is not None:
                cache.built += 1
                if context.repeats.uses == uses:
                    cache.keep(path, members, page)
    return tuple(pages)


__all__ = ["PageCache", "build_pages", "build_variant"]
