"""Security requirements: scheme references, scope lists, OAuth scope catalogues."""

from __future__ import annotations

from collections.abc import Iterator

from ...diagnostics import Severity
from ...rule_docs import RuleDoc, fragment
from ...source import pointer as jp
from ..document import Document, as_list, as_object
from ..findings import Finding
from ..registry import rule


def requirement_arrays(document: Document) -> Iterator[tuple[str, list[object]]]:
    """Every Security Requirement Array in the document, with its pointer."""
    if isinstance(document.data.get("security"), list):
        yield "/security", document.data["security"]
    for index, transport in enumerate(as_list(document.data.get("transports"))):
        security = as_object(transport).get("security")
        if isinstance(security, list):
            yield jp.join("", "transports", index, "security"), security
    for primitive in document.primitives:
        security = primitive.data.get("security")
        if isinstance(security, list):
            yield jp.join(primitive.pointer, "security"), security


def _requirements(document: Document) -> Iterator[tuple[str, str, list[object]]]:
    """(pointer of the scope list, scheme name, scopes) for every requirement entry."""
    for array_pointer, array in requirement_arrays(document):
        for index, requirement in enumerate(array):
            for scheme, scopes in as_object(requirement).items():
                yield jp.join(array_pointer, index, scheme), scheme, list(as_list(scopes))


def _schemes(document: Document) -> dict[str, dict[str, object]]:
    return {name: dict(as_object(value)) for name, value in as_object(document.data.get("securitySchemes")).items()}


@rule(
    "mcpdesc.security.scheme-references",
    doc=RuleDoc(
        summary="Every scheme a security requirement names is declared in `securitySchemes`.",
        rationale=(
            "A requirement is resolved through the scheme it names; an undeclared one gives clients no way to "
            "authenticate."
        ),
        bad=fragment(
            """
            securitySchemes:
              token:
                type: http
                scheme: bearer
            security:
              - bearer: []
            """
        ),
        good=fragment(
            """
            securitySchemes:
              token:
                type: http
                scheme: bearer
            security:
              - token: []
            """
        ),
        requirements=("digest §4.4", "digest §2.5"),
        codes=("unknown-security-scheme",),
    ),
    local=True,
)
def schemes_declared(document: Document) -> Iterator[Finding]:
    schemes = _schemes(document)
    for pointer, scheme, _ in _requirements(document):
        if scheme not in schemes:
            known = ", ".join(sorted(schemes)) or "none are declared"
            yield Finding.error(
                "unknown-security-scheme",
                f"security requirement names scheme {scheme!r}, which 'securitySchemes' does not declare "
                f"(declared: {known})",
                pointer,
            )


@rule(
    "mcpdesc.security.scope-unique",
    doc=RuleDoc(
        summary="A security requirement lists each scope once.",
        rationale="A repeated scope adds nothing and usually hides a typo in the scope meant.",
        bad=fragment(
            """
            securitySchemes:
              oauth:
                type: oauth2
                flows:
                  clientCredentials:
                    tokenUrl: https://example.com/token
                    scopes:
                      read: Read documents
            security:
              - oauth: [read, read]
            """
        ),
        good=fragment(
            """
            securitySchemes:
              oauth:
                type: oauth2
                flows:
                  clientCredentials:
                    tokenUrl: https://example.com/token
                    scopes:
                      read: Read documents
            security:
              - oauth: [read]
            """
        ),
        requirements=("digest §4.4",),
        codes=("duplicate-security-scope",),
    ),
    local=True,
)
def scopes_unique(document: Document) -> Iterator[Finding]:
    for pointer, scheme, scopes in _requirements(document):
        seen: set[str] = set()
        for index, scope in enumerate(scopes):
            if not isinstance(scope, str):
                continue  # the schema reports it (and it may not even be hashable)
            if scope in seen:
                yield Finding.error(
                    "duplicate-security-scope",
                    f"scope {scope!r} is listed twice for scheme {scheme!r}",
                    jp.join(pointer, index),
                )
            seen.add(scope)


@rule(
    "mcpdesc.security.non-oauth-scopes",
    doc=RuleDoc(
        summary="Requirements of `http` and `apiKey` schemes list no scopes.",
        rationale="Only OAuth 2 and OpenID Connect have scopes; scopes on another scheme mean nothing to a client.",
        bad=fragment(
            """
            securitySchemes:
              token:
                type: http
                scheme: bearer
            security:
              - token: [read]
            """
        ),
        good=fragment(
            """
            securitySchemes:
              token:
                type: http
                scheme: bearer
            security:
              - token: []
            """
        ),
        requirements=("digest §4.4",),
        codes=("non-oauth-scope-misuse",),
    ),
    local=True,
)
def scopes_only_for_oauth(document: Document) -> Iterator[Finding]:
    schemes = _schemes(document)
    for pointer, scheme, scopes in _requirements(document):
        scheme_type = schemes.get(scheme, {}).get("type")
        if scheme_type in ("http", "apiKey") and scopes:
            yield Finding.error(
                "non-oauth-scope-misuse",
                f"scheme {scheme!r} is of type {scheme_type!r}, which has no scopes; use an empty list",
                pointer,
            )


@rule(
    "mcpdesc.security.scope-catalogue",
    doc=RuleDoc(
        summary=(
            "OAuth 2 scopes a requirement names are listed in a flow of the scheme (OpenID Connect scopes cannot be "
            "checked)."
        ),
        rationale=(
            "A scope no flow lists is one a client cannot request; it is likely misspelt. Warned, since the server "
            "may still grant it."
        ),
        bad=fragment(
            """
            securitySchemes:
              oauth:
                type: oauth2
                flows:
                  clientCredentials:
                    tokenUrl: https://example.com/token
                    scopes:
                      read: Read documents
            security:
              - oauth: [write]
            """
        ),
        good=fragment(
            """
            securitySchemes:
              oauth:
                type: oauth2
                flows:
                  clientCredentials:
                    tokenUrl: https://example.com/token
                    scopes:
                      read: Read documents
            security:
              - oauth: [read]
            """
        ),
        requirements=("digest §4.4",),
        codes=("uncatalogued-oauth-scope",),
        severity=Severity.WARNING,
    ),
    local=True,
)
def oauth_scopes_catalogued(document: Document) -> Iterator[Finding]:
    schemes = _schemes(document)
    for pointer, scheme, scopes in _requirements(document):
        definition = schemes.get(scheme, {})
        if definition.get("type") == "oauth2":
            catalogue: set[str] = set()
            for flow in as_object(definition.get("flows")).values():
                catalogue.update(as_object(as_object(flow).get("scopes")))
            for index, scope in enumerate(scopes):
                if isinstance(scope, str) and scope not in catalogue:
                    yield Finding.warning(
                        "uncatalogued-oauth-scope",
                        f"scope {scope!r} is not listed in any flow of OAuth scheme {scheme!r}",
                        jp.join(pointer, index),
                    )
        elif definition.get("type") == "openIdConnect":
            for index, scope in enumerate(scopes):
                if isinstance(scope, str):
                    yield Finding.warning(
                        "uncatalogued-oauth-scope",
                        f"scope {scope!r} of OpenID Connect scheme {scheme!r} cannot be checked: "
                        "the description has no static scope catalogue for it",
                        jp.join(pointer, index),
                    )
