"""Security: requirements, the schemes they name, and where each requirement comes from.

Inheritance, most specific first: a primitive's own ``security``, else the transport's
(for clients connecting through a transport that declares one), else the server's default.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..validation.document import Document, as_list, as_object, strings
from .site import (
    Alternative,
    OAuthFlow,
    Requirement,
    RequirementTerm,
    SecurityScheme,
    SecurityView,
    Transport,
    TransportSecurity,
)
from .urls import scheme_anchor
from .values import extensions, string

if TYPE_CHECKING:
    from .context import BuildContext

_SCHEME_DETAILS = ("scheme", "bearerFormat", "name", "in", "openIdConnectUrl")
"""The string members of a scheme shown as its details, in this order."""
REPEAT_LIMIT = 2_000
"""Characters (scheme names, scopes, transports) of an inherited requirement shown on every
page that inherits it; a longer one is shown once, on the overview, and linked: it is
written once in the description but would be copied onto every page."""


def requirement(value: object) -> Requirement:
    alternatives = []
    for item in as_list(value):
        terms = tuple(
            RequirementTerm(scheme, tuple(strings(scopes)), scheme_anchor(scheme))
            for scheme, scopes in as_object(item).items()
        )
        alternatives.append(Alternative(terms))
    return Requirement(tuple(alternatives))


def _clears(value: object) -> bool:
    # ``security: []`` is a requirement of its own: that none applies.
    return as_list(value) == []


def transport_view(declaration: Mapping[str, Any], server_default: bool) -> SecurityView | None:
    """A transport's own requirement, or None when it declares none."""
    if "security" not in declaration:
        return None
    value = declaration["security"]
    return SecurityView("cleared" if _clears(value) else "own", "transport", server_default, requirement(value))


def inherited_by_transport(transports: tuple[Transport, ...], server_default: bool) -> tuple[TransportSecurity, ...]:
    """What a declaration without its own requirement gets through each transport; empty
    when no transport declares its own (then the server's default alone applies)."""
    entries = tuple(
        TransportSecurity(
            transport.type,
            transport.security.requirement if transport.security else None,
            "transport" if transport.security else ("inherited" if server_default else "none"),
        )
        for transport in transports
    )
    return entries if any(entry.origin == "transport" for entry in entries) else ()


def primitive_view(context: BuildContext, declaration: Mapping[str, Any], kind: str) -> SecurityView:
    if "security" in declaration:
        value = declaration["security"]
        return SecurityView("cleared" if _clears(value) else "own", kind, context.server_default, requirement(value))
    return context.inherited_security[kind]


def inherited_view(data: Mapping[str, Any], transports: tuple[Transport, ...], kind: str) -> SecurityView:
    """What a declaration of ``kind`` without a requirement of its own gets: the same for
    all of them, so it is made once per build."""
    server_default = "security" in data
    by_transport = inherited_by_transport(transports, server_default)
    if not server_default and not by_transport:
        return SecurityView("none", kind, False, None)
    inherited = requirement(data["security"]) if server_default else None
    size = _size(inherited) + sum(
        len(entry.transport_type or "") + 20 + _size(entry.requirement) for entry in by_transport
    )
    if size > REPEAT_LIMIT:
        return SecurityView(
            "inherited", kind, server_default, None, listed_at="index.html#security", via_transports=bool(by_transport)
        )
    return SecurityView("inherited", kind, server_default, inherited, by_transport)


def _size(found: Requirement | None) -> int:
    """About the characters a requirement shows."""
    if found is None:
        return 0
    return sum(
        len(term.scheme) + 20 + sum(len(scope) + 2 for scope in term.scopes)
        for alternative in found.alternatives
        for term in alternative.terms
    ) + 20 * len(found.alternatives)


def server_view(context: BuildContext) -> SecurityView:
    by_transport = tuple(
        TransportSecurity(t.type, t.security.requirement, "transport") for t in context.transports if t.security
    )
    if not context.server_default:
        return SecurityView("none", "server", False, None, by_transport)
    value = context.data["security"]
    if by_transport:
        # Listed so readers see at once that the default is replaced on those transports.
        by_transport = (*by_transport, TransportSecurity(None, requirement(value), "root"))
    return SecurityView("cleared" if _clears(value) else "own", "server", True, requirement(value), by_transport)


def security_schemes(document: Document) -> tuple[SecurityScheme, ...]:
    schemes = []
    for name, item in as_object(document.data.get("securitySchemes")).items():
        data = as_object(item)
        flows_data = as_object(data.get("flows"))
        schemes.append(
            SecurityScheme(
                name=name,
                anchor=scheme_anchor(name),
                type=string(data, "type") or "?",
                description=string(data, "description"),
                details=tuple((key, data[key]) for key in _SCHEME_DETAILS if isinstance(data.get(key), str)),
                flows=tuple(
                    _flow(kind, as_object(flow)) for kind, flow in flows_data.items() if not kind.startswith("x-")
                ),
                extensions=(*extensions(data), *extensions(flows_data)),
            )
        )
    return tuple(schemes)


def _flow(kind: str, flow: Mapping[str, Any]) -> OAuthFlow:
    return OAuthFlow(
        kind=kind,
        authorization_url=string(flow, "authorizationUrl"),
        token_url=string(flow, "tokenUrl"),
        refresh_url=string(flow, "refreshUrl"),
        scopes=tuple((str(k), str(v)) for k, v in as_object(flow.get("scopes")).items()),
        extensions=extensions(flow),
    )
