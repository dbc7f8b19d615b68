"""The steps of tool interaction examples (digest 2.9): what each protocol version allows,
consistency with the Tool's elicitation declarations, responses, roots, and the client
requirements the Tool declares."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from ...diagnostics import Severity
from ...rule_docs import RuleDoc, fragment
from ...source import pointer as jp
from ...spec.revisions import before, describe
from ..document import Document, as_list, as_object
from ..findings import Finding
from ..registry import rule
from .results import Example, examples_of


def _steps(document: Document) -> Iterator[tuple[Example, int, str, Mapping[str, Any]]]:
    for example in examples_of(document, "tool", "interactionExamples"):
        for index, raw in enumerate(as_list(example.data.get("steps"))):
            if isinstance(raw, Mapping):
                yield example, index, jp.join(example.pointer, "steps", index), raw


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _differ(declared: Any, requested: Any) -> bool:
    """Whether two JSON values differ. Python's ``==`` (which stops at the first difference)
    decides most cases; only values it calls equal are written out, as it also calls 1,
    1.0 and true equal. Every step may name the same declared schema: writing it out for
    each step would cost its size times the number of steps."""
    return declared != requested or _canonical(declared) != _canonical(requested)


def _content_against_schema(
    document: Document, label: str, at: str, schema: Mapping[str, Any], content: Any
) -> Iterator[Finding]:
    check = document.check_instance(schema, content)
    for problem in check.errors:
        yield Finding.error(
            "interaction-example-elicitation-content-schema-mismatch",
            f"{label}: the accepted content does not match the request schema: {problem.message}",
            jp.join(at, "response", "content", *problem.path),
        )
    unchecked = document.compiled_schema(schema).unchecked
    reasons = [*([unchecked] if unchecked else []), *check.unchecked]
    if reasons:
        yield Finding.warning(
            "incomplete-elicitation-content-validation",
            f"{label}: the accepted content could only be partly checked against the request schema "
            f"({'; '.join(reasons)})",
            jp.join(at, "response", "content"),
        )


@rule(
    "mcp.interaction-example.protocol-version",
    doc=RuleDoc(
        summary=(
            "Interaction example steps use only what the tool's protocol versions define: elicitation steps from "
            "2025-06-18, URL mode and sampling `tools`/`toolChoice` from 2025-11-25."
        ),
        rationale=(
            "An interaction example shows requests the server sends the client during a call; a request a protocol "
            "version lacks never happens there."
        ),
        bad=fragment(
            """
            protocolVersions: ["2025-03-26"]
            tools:
              - name: search
                inputSchema: {type: object}
                interactionExamples:
                  pick-folder:
                    input: {}
                    steps:
                      - type: elicitation
                        request:
                          mode: form
                          message: Which folder?
                          requestedSchema:
                            type: object
                            properties:
                              folder: {type: string}
                        response:
                          action: accept
                          content: {folder: docs}
                    result:
                      content:
                        - type: text
                          text: Searched the folder.
            """
        ),
        good=fragment(
            """
            protocolVersions: ["2025-06-18"]
            tools:
              - name: search
                inputSchema: {type: object}
                interactionExamples:
                  pick-folder:
                    input: {}
                    steps:
                      - type: elicitation
                        request:
                          mode: form
                          message: Which folder?
                          requestedSchema:
                            type: object
                            properties:
                              folder: {type: string}
                        response:
                          action: accept
                          content: {folder: docs}
                    result:
                      content:
                        - type: text
                          text: Searched the folder.
            """
        ),
        requirements=("digest §2.9", "digest §4.8"),
        codes=("interaction-example-version-mismatch",),
    ),
    local=True,
)
def step_versions(document: Document) -> Iterator[Finding]:
    code = "interaction-example-version-mismatch"
    for example, _, at, step in _steps(document):
        scope = example.primitive.scope
        kind = step.get("type")
        request = as_object(step.get("request"))
        checks: list[tuple[str, str, str]] = []
        if kind == "elicitation":
            checks.append(("2025-06-18", jp.join(at, "type"), "elicitation steps"))
            if request.get("mode") == "url":
                checks.append(("2025-11-25", jp.join(at, "request", "mode"), "URL-mode elicitation"))
        if kind == "sampling":
            for member in ("tools", "toolChoice"):
                if member in request:
                    checks.append(("2025-11-25", jp.join(at, "request", member), f"sampling {member!r}"))
        for floor, pointer, words in checks:
            early = before(scope, floor)
            if early:
                yield Finding.error(
                    code,
                    f"{example.label}: {words} are not defined by protocol version(s) {describe(early)} "
                    f"({floor} and later)",
                    pointer,
                )


@rule(
    "mcpdesc.interaction-example.steps",
    doc=RuleDoc(
        summary=(
            "Interaction example steps are consistent: a named elicitation declaration exists and matches, "
            "responses fit their action and schema, and roots are `file://` URIs."
        ),
        rationale=(
            "Steps document a conversation between server and client; one that contradicts the tool's declarations "
            "or the protocol's rules documents a conversation that cannot happen."
        ),
        bad=fragment(
            """
            tools:
              - name: search
                inputSchema: {type: object}
                interactionExamples:
                  pick-folder:
                    input: {}
                    steps:
                      - type: roots
                        request: {}
                        response:
                          roots:
                            - uri: https://example.com/docs
                    result:
                      content:
                        - type: text
                          text: Searched the folder.
            """
        ),
        good=fragment(
            """
            tools:
              - name: search
                inputSchema: {type: object}
                interactionExamples:
                  pick-folder:
                    input: {}
                    steps:
                      - type: roots
                        request: {}
                        response:
                          roots:
                            - uri: file:///home/user/docs
                    result:
                      content:
                        - type: text
                          text: Searched the folder.
            """
        ),
        requirements=("digest §2.9", "digest §4.8"),
        codes=(
            "unknown-elicitation-declaration",
            "interaction-example-elicitation-declaration-mismatch",
            "interaction-example-elicitation-response-mismatch",
            "interaction-example-elicitation-content-schema-mismatch",
            "interaction-example-roots-uri",
            "incomplete-elicitation-content-validation",
        ),
    ),
)
def step_consistency(document: Document) -> Iterator[Finding]:
    for example, index, at, step in _steps(document):
        kind = step.get("type")
        request = as_object(step.get("request"))
        response = as_object(step.get("response"))
        label = f"{example.label}, step {index + 1}"
        if kind == "elicitation":
            yield from _elicitation_step(document, example, label, at, step, request, response)
        elif kind == "roots":
            for position, root in enumerate(as_list(response.get("roots"))):
                uri = as_object(root).get("uri")
                if isinstance(uri, str) and not uri.startswith("file://"):
                    yield Finding.error(
                        "interaction-example-roots-uri",
                        f"{label}: root URIs must start with file:// (got {uri!r})",
                        jp.join(at, "response", "roots", position, "uri"),
                    )


def _elicitation_step(
    document: Document,
    example: Example,
    label: str,
    at: str,
    step: Mapping[str, Any],
    request: Mapping[str, Any],
    response: Mapping[str, Any],
) -> Iterator[Finding]:
    mode = request.get("mode")
    action = response.get("action")
    if "content" in response and (action != "accept" or mode == "url"):
        yield Finding.error(
            "interaction-example-elicitation-response-mismatch",
            f"{label}: only an accepted form-mode elicitation returns content (this is {mode} / {action})",
            jp.join(at, "response", "content"),
        )
    if mode == "form" and action == "accept":
        if "content" not in response:
            yield Finding.error(
                "interaction-example-elicitation-response-mismatch",
                f"{label}: an accepted form-mode elicitation returns the user's content",
                jp.join(at, "response"),
            )
        elif isinstance(request.get("requestedSchema"), Mapping):
            yield from _content_against_schema(document, label, at, request["requestedSchema"], response["content"])
    name = step.get("declaration")
    if not isinstance(name, str):
        return
    declarations: dict[str, tuple[int, Mapping[str, Any]]] = {}
    for position, raw in enumerate(as_list(example.primitive.data.get("elicitations"))):
        declaration = as_object(raw)
        # Only a string name can match the step's (the schema reports the others, which may
        # not even be hashable).
        if isinstance(declaration.get("name"), str):
            declarations[declaration["name"]] = (position, declaration)
    if name not in declarations:
        yield Finding.error(
            "unknown-elicitation-declaration",
            f"{label}: {example.primitive.label} has no elicitation declaration named {name!r}",
            jp.join(at, "declaration"),
        )
        return
    position, declaration = declarations[name]
    mismatch = "interaction-example-elicitation-declaration-mismatch"
    if declaration.get("mode") != mode:
        yield Finding.error(
            mismatch,
            f"{label}: the request's mode {mode!r} differs from declaration {name!r} ({declaration.get('mode')!r})",
            jp.join(at, "request", "mode"),
        )
        return
    if mode == "form" and "requestedSchema" in declaration:
        pointer = jp.join(example.primitive.pointer, "elicitations", position, "requestedSchema")
        resolved = document.resolve(declaration["requestedSchema"], pointer, "schemas")
        if resolved is not None and _differ(resolved.value, request.get("requestedSchema")):
            yield Finding.error(
                mismatch,
                f"{label}: the requestedSchema differs from the one declaration {name!r} declares",
                jp.join(at, "request", "requestedSchema"),
            )
    if mode == "url" and "url" in declaration and declaration["url"] != request.get("url"):
        yield Finding.error(
            mismatch,
            f"{label}: the URL differs from the one declaration {name!r} fixes",
            jp.join(at, "request", "url"),
        )


@rule(
    "mcpdesc.interaction-example.client-requirements",
    doc=RuleDoc(
        summary=(
            "Interaction example steps agree with the tool's explicit `clientRequirements` (a roots step needs "
            "`roots`, a URL elicitation `elicitation.url`)."
        ),
        rationale=(
            "The requirements say which client capabilities a call needs; a step using one they leave out means one "
            "of the two is wrong. Nothing is inferred when no requirements are declared."
        ),
        bad=fragment(
            """
            tools:
              - name: search
                inputSchema: {type: object}
                clientRequirements:
                  elicitation: {}
                interactionExamples:
                  pick-folder:
                    input: {}
                    steps:
                      - type: roots
                        request: {}
                        response:
                          roots:
                            - uri: file:///home/user/docs
                    result:
                      content:
                        - type: text
                          text: Searched the folder.
            """
        ),
        good=fragment(
            """
            tools:
              - name: search
                inputSchema: {type: object}
                clientRequirements:
                  roots: {}
                interactionExamples:
                  pick-folder:
                    input: {}
                    steps:
                      - type: roots
                        request: {}
                        response:
                          roots:
                            - uri: file:///home/user/docs
                    result:
                      content:
                        - type: text
                          text: Searched the folder.
            """
        ),
        requirements=("digest §2.9", "digest §2.15"),
        codes=("interaction-example-client-requirements-contradiction",),
        severity=Severity.WARNING,
    ),
)
def contradicts_requirements(document: Document) -> Iterator[Finding]:
    code = "interaction-example-client-requirements-contradiction"
    for example, index, at, step in _steps(document):
        tool = example.primitive.data
        if "clientRequirements" not in tool:
            continue  # requirements are never inferred when none are declared
        requirements = as_object(tool["clientRequirements"])
        kind = step.get("type")
        label = f"{example.label}, step {index + 1}"
        missing: str | None = None
        if kind in ("roots", "sampling") and kind not in requirements:
            missing = kind
        elif kind == "elicitation":
            mode = as_object(step.get("request")).get("mode")
            elicitation = requirements.get("elicitation")
            # An empty elicitation capability means form mode only (as before modes existed).
            if elicitation is None:
                missing = "elicitation"
            elif isinstance(elicitation, Mapping) and (
                (mode == "url" and "url" not in elicitation)
                or (mode == "form" and elicitation and "form" not in elicitation)
            ):
                missing = f"elicitation.{mode}"
        if missing:
            yield Finding.warning(
                code,
                f"{label}: the step needs the client capability {missing!r}, which the tool's clientRequirements "
                "do not list",
                jp.join(at, "type"),
            )
