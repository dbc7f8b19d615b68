"""Build the page model (``model.Site``) from a validated description.

Each area has its module (server, transports, security, primitives, elicitations,
examples, components); they are functions over a ``BuildContext`` that is complete
before the first of them runs, so no area depends on another having run first.
"""

from __future__ import annotations

import json
from dataclasses import replace

from ..kinds import KIND_NAMES
from ..spec.migration import migrate_070
from ..spec.versions import SPEC_0_7_0, SPEC_0_8_0
from ..validation.document import Document, Elicitation
from .components import Repeats, build_components, component_uses
from .context import BuildContext
from .primitives import PageCache, build_pages
from .security import inherited_view, security_schemes, server_view
from .server import build_capabilities, build_server, build_tags, declared_tags
from .site import Site
from .transports import build_transports
from .values import extensions, string


def build_context(document: Document) -> BuildContext:
    elicitations: dict[str, list[Elicitation]] = {}
    for elicitation in document.elicitations:
        elicitations.setdefault(elicitation.primitive.pointer, []).append(elicitation)
    transports = build_transports(document)
    return BuildContext(
        document=document,
        transports=transports,
        inherited_security={kind: inherited_view(document.data, transports, kind) for kind in KIND_NAMES},
        declared_tags=declared_tags(document),
        elicitations={pointer: tuple(found) for pointer, found in elicitations.items()},
        repeats=Repeats(lambda: len(json.dumps(document.data, ensure_ascii=False, separators=(",", ":")))),
    )


def _site_of(document: Document, cache: PageCache | None = None) -> Site:
    """The page model of a 0.8.0 or later document."""
    context = build_context(document)
    data = document.data
    return Site(
        server=build_server(document),
        specification=document.specification.name,
        mcpdesc=str(data.get("mcpdesc", "")),
        schema_uri=string(data, "$schema"),
        protocol_versions=document.root_scope,
        instructions=string(data, "instructions"),
        transports=context.transports,
        security_schemes=security_schemes(document),
        security=server_view(context),
        capabilities=build_capabilities(document),
        tags=build_tags(document),
        pages=build_pages(context, cache),
        components=build_components(document, component_uses(document, context.elicitations)),
        extensions=extensions(data),
    )


def build_site(document: Document, cache: PageCache | None = None) -> Site:
    """The page model of a document that passed validation (the Document validation built);
    ``cache`` (``serve``'s) reuses the previous build's unchanged pages.
    A 0.7.0 description is read through its migration (for display only: nothing is
    invented, missing parts stay missing), so one model and one set of templates serve
    every format version."""
    if document.specification == SPEC_0_7_0:
        data = document.data
        migrated = migrate_070(data, SPEC_0_8_0, for_display=True)
        site = _site_of(Document.build(migrated.data, SPEC_0_8_0))
        return replace(
            site,
            specification=SPEC_0_7_0.name,
            mcpdesc="0.7.0",
            schema_uri=string(data, "$schema"),
            legacy_format="0.7.0",
        )
    return _site_of(document, cache)


__all__ = ["build_context", "build_site"]
