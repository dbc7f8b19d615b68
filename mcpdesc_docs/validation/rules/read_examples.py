"""Resource, resource-template, prompt and completion examples (digest 2.10-2.13, 4.8)."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterator, Mapping
from typing import Any

from ...rule_docs import RuleDoc, fragment
from ...source import pointer as jp
from ...spec.revisions import before, describe
from ..budget import OVER_BUDGET
from ..document import Document, Primitive, as_list, as_object
from ..findings import Finding
from ..registry import rule
from ..uri_templates import could_expand_to, is_valid_template, variable_names
from .results import RESULT_TYPE_REVISION, Example, completed, content_blocks, examples_of, meta_floor, result_type

READ_KINDS = ("resource", "resource-template")
COMPLETION_FLOOR = "2025-03-26"
CONTEXT_FLOOR = "2025-06-18"


def _read_examples(document: Document) -> Iterator[Example]:
    for kind in READ_KINDS:
        yield from examples_of(document, kind)


def _requested_uri(example: Example) -> str | None:
    value = example.primitive.data.get("uri") if example.primitive.kind == "resource" else example.data.get("uri")
    return value if isinstance(value, str) else None


@rule(
    "mcpdesc.resource-example.result",
    doc=RuleDoc(
        summary=(
            "A resource example's result is a completed read result: no JSON-RPC envelope (`jsonrpc`, `id`, "
            "`error`) and no fields of an unfinished request."
        ),
        rationale=(
            "Examples show what `resources/read` returns, not the message around it; envelope or in-progress fields "
            "would be shown as part of the result."
        ),
        bad=fragment(
            """
            resources:
              - uri: file:///README.md
                name: readme
                examples:
                  read:
                    result:
                      contents:
                        - uri: file:///README.md
                          text: "# Example"
                      jsonrpc: "2.0"
            """
        ),
        good=fragment(
            """
            resources:
              - uri: file:///README.md
                name: readme
                examples:
                  read:
                    result:
                      contents:
                        - uri: file:///README.md
                          text: "# Example"
            """
        ),
        requirements=("digest §4.8", "digest §2.10"),
        codes=("resource-example-json-rpc-envelope", "incomplete-resource-example-result"),
    ),
)
def read_result_completed(document: Document) -> Iterator[Finding]:
    for example in _read_examples(document):
        result = as_object(example.data.get("result"))
        at = jp.join(example.pointer, "result")
        yield from completed(
            result,
            at,
            example.label,
            "resource-example-json-rpc-envelope",
            "incomplete-resource-example-result",
        )


@rule(
    "mcp.resource-example.protocol-shape",
    doc=RuleDoc(
        summary=(
            "A resource example's result has the shape its protocol versions give a read result: `resultType`, "
            "`ttlMs` and `cacheScope` for 2026-07-28 only, `_meta` from 2025-06-18."
        ),
        rationale=(
            "2026-07-28 made the cache fields required and earlier versions do not have them, so one example cannot "
            "serve both: split the declaration by scope."
        ),
        bad=fragment(
            """
            resources:
              - uri: file:///README.md
                name: readme
                examples:
                  read:
                    result:
                      contents:
                        - uri: file:///README.md
                          text: "# Example"
                      ttlMs: 60000
            """
        ),
        good=fragment(
            """
            resources:
              - uri: file:///README.md
                name: readme
                examples:
                  read:
                    result:
                      contents:
                        - uri: file:///README.md
                          text: "# Example"
            """
        ),
        requirements=("digest §4.8", "digest §2.10"),
        codes=(
            "resource-example-result-version-mismatch",
            "resource-example-cache-fields-version-mismatch",
            "resource-example-content-version-mismatch",
        ),
    ),
)
def read_result_shape(document: Document) -> Iterator[Finding]:
    for example in _read_examples(document):
        result = as_object(example.data.get("result"))
        at = jp.join(example.pointer, "result")
        scope = example.primitive.scope
        yield from result_type(result, at, scope, example.label, "resource-example-result-version-mismatch")
        yield from meta_floor(result, at, scope, example.label, "resource-example-result-version-mismatch")
        early = before(scope, RESULT_TYPE_REVISION)
        for member in ("ttlMs", "cacheScope"):
            if RESULT_TYPE_REVISION in scope and member not in result:
                yield Finding.error(
                    "resource-example-cache-fields-version-mismatch",
                    f"{example.label}: protocol version {RESULT_TYPE_REVISION} requires {member!r} in read results",
                    at,
                )
            if early and member in result:
                yield Finding.error(
                    "resource-example-cache-fields-version-mismatch",
                    f"{example.label}: {member!r} is not defined by protocol version(s) {describe(early)}",
                    jp.join(at, member),
                )
        for index, entry in enumerate(as_list(result.get("contents"))):
            yield from meta_floor(
                as_object(entry),
                jp.join(at, "contents", index),
                scope,
                example.label,
                "resource-example-content-version-mismatch",
            )


def _blob_length(blob: str) -> int | None:
    """Decoded length of canonical base64, else None."""
    try:
        decoded = base64.b64decode(blob, validate=True)
    except (binascii.Error, ValueError):
        return None
    return len(decoded) if base64.b64encode(decoded).decode("ascii") == blob else None


@rule(
    "mcpdesc.resource-example.content",
    doc=RuleDoc(
        summary=(
            "Resource example contents are consistent: a `blob` is canonical base64 (an error); the requested URI, "
            "the MIME type and a static `size` match the declaration (warnings)."
        ),
        rationale=(
            "A reader trusts an example to show what the resource really returns; contents that contradict the "
            "declaration mislead."
        ),
        bad=fragment(
            """
            resources:
              - uri: file:///README.md
                name: readme
                examples:
                  read:
                    result:
                      contents:
                        - uri: file:///README.md
                          blob: "not base64!"
            """
        ),
        good=fragment(
            """
            resources:
              - uri: file:///README.md
                name: readme
                examples:
                  read:
                    result:
                      contents:
                        - uri: file:///README.md
                          blob: IyBFeGFtcGxl
            """
        ),
        requirements=("digest §4.8", "digest §2.10"),
        codes=(
            "invalid-resource-example-base64",
            "resource-example-requested-uri-not-returned",
            "resource-example-mime-type-mismatch",
            "resource-example-size-mismatch",
        ),
    ),
)
def read_contents(document: Document) -> Iterator[Finding]:
    for example in _read_examples(document):
        result = as_object(example.data.get("result"))
        contents = [as_object(entry) for entry in as_list(result.get("contents"))]
        at = jp.join(example.pointer, "result", "contents")
        requested = _requested_uri(example)
        total = 0
        measurable = True
        measured = False
        for index, entry in enumerate(contents):
            blob = entry.get("blob")
            counts = requested is None or entry.get("uri") == requested
            if isinstance(blob, str):
                length = _blob_length(blob)
                if length is None:
                    measurable = False
                    yield Finding.error(
                        "invalid-resource-example-base64",
                        f"{example.label}: blob is not canonical base64 (RFC 4648, with padding)",
                        jp.join(at, index, "blob"),
                    )
                elif counts:
                    total += length
                    measured = True
            elif isinstance(entry.get("text"), str) and counts:
                total += len(entry["text"].encode("utf-8"))
                measured = True
            declared_mime = example.primitive.data.get("mimeType")
            entry_mime = entry.get("mimeType")
            # Only the entry for the requested URI is the declared resource; others (a
            # directory's children, say) may well have types of their own.
            describes_declaration = requested is None or entry.get("uri") == requested
            if (
                describes_declaration
                and isinstance(declared_mime, str)
                and isinstance(entry_mime, str)
                and entry_mime  # an empty one is an error of the structural check
                and entry_mime != declared_mime
            ):
                yield Finding.warning(
                    "resource-example-mime-type-mismatch",
                    f"{example.label}: the entry's mimeType {entry_mime!r} differs from the "
                    f"declaration's {declared_mime!r}",
                    jp.join(at, index, "mimeType"),
                )
        if contents and requested is not None and not any(entry.get("uri") == requested for entry in contents):
            yield Finding.warning(
                "resource-example-requested-uri-not-returned",
                f"{example.label}: no contents entry has the requested URI {requested!r}",
                at,
            )
        size = example.primitive.data.get("size")
        if (
            example.primitive.kind == "resource"
            and isinstance(size, int | float)
            and not isinstance(size, bool)
            and measured
            and measurable
            and total != size
        ):
            yield Finding.warning(
                "resource-example-size-mismatch",
                f"{example.label}: the example holds {total} bytes but the resource declares size {size}",
                at,
            )


@rule(
    "mcpdesc.resource-template-example.uri",
    doc=RuleDoc(
        summary=(
            "A resource template is a valid RFC 6570 URI template, and each of its examples' `uri` is an expansion "
            "of it."
        ),
        rationale=(
            "The example shows one resource the template yields; a URI the template cannot produce documents a "
            "resource that does not exist."
        ),
        bad=fragment(
            """
            resourceTemplates:
              - uriTemplate: file:///{path}
                name: file
                examples:
                  readme:
                    uri: https://example.com/README.md
                    result:
                      contents:
                        - uri: https://example.com/README.md
                          text: "# Example"
            """
        ),
        good=fragment(
            """
            resourceTemplates:
              - uriTemplate: file:///{path}
                name: file
                examples:
                  readme:
                    uri: file:///README.md
                    result:
                      contents:
                        - uri: file:///README.md
                          text: "# Example"
            """
        ),
        requirements=("digest §4.8", "digest §2.11"),
        codes=(
            "resource-template-example-invalid-template",
            "resource-template-example-invalid-expansion",
            "incomplete-resource-template-example-check",
        ),
    ),
)
def template_example_uri(document: Document) -> Iterator[Finding]:
    for template in document.primitives_of("resource-template"):
        pattern = template.data.get("uriTemplate")
        if not isinstance(pattern, str):
            continue
        valid = is_valid_template(pattern)
        if not valid:
            yield Finding.error(
                "resource-template-example-invalid-template",
                f"{template.label}: uriTemplate is not a valid RFC 6570 URI template",
                jp.join(template.pointer, "uriTemplate"),
            )
            continue
        for example in examples_of(document, "resource-template"):
            if example.primitive is not template:
                continue
            uri = example.data.get("uri")
            if not isinstance(uri, str):
                continue
            expands = could_expand_to(pattern, uri, document.budget)
            if expands is None:
                yield Finding.warning(
                    "incomplete-resource-template-example-check",
                    f"{example.label}: whether its uri is an expansion of the uriTemplate could not be checked "
                    f"({OVER_BUDGET})",
                    jp.join(example.pointer, "uri"),
                )
            elif not expands:
                yield Finding.error(
                    "resource-template-example-invalid-expansion",
                    f"{example.label}: {uri!r} is not an expansion of {pattern!r}",
                    jp.join(example.pointer, "uri"),
                )


def _declared_arguments(prompt: Primitive) -> dict[str, bool]:
    arguments: dict[str, bool] = {}
    for raw in as_list(prompt.data.get("arguments")):
        argument = as_object(raw)
        if isinstance(argument.get("name"), str):
            arguments[argument["name"]] = argument.get("required") is True
    return arguments


@rule(
    "mcpdesc.prompt-example.arguments",
    doc=RuleDoc(
        summary="A prompt example's `arguments` name only declared arguments, and every required one.",
        rationale=(
            "The example shows a `prompts/get` call; one with unknown or missing arguments would fail against the "
            "server."
        ),
        bad=fragment(
            """
            prompts:
              - name: summarize
                arguments:
                  - name: topic
                    required: true
                examples:
                  weather:
                    arguments: {subject: weather}
                    result:
                      messages:
                        - role: user
                          content:
                            type: text
                            text: Summarize the weather.
            """
        ),
        good=fragment(
            """
            prompts:
              - name: summarize
                arguments:
                  - name: topic
                    required: true
                examples:
                  weather:
                    arguments: {topic: weather}
                    result:
                      messages:
                        - role: user
                          content:
                            type: text
                            text: Summarize the weather.
            """
        ),
        requirements=("digest §4.8", "digest §2.12"),
        codes=("prompt-example-unknown-argument", "prompt-example-missing-required-argument"),
    ),
)
def prompt_example_arguments(document: Document) -> Iterator[Finding]:
    for example in examples_of(document, "prompt"):
        declared = _declared_arguments(example.primitive)
        given = as_object(example.data.get("arguments"))
        for name in given:
            if name not in declared:
                yield Finding.error(
                    "prompt-example-unknown-argument",
                    f"{example.label}: {name!r} is not an argument of the prompt",
                    jp.join(example.pointer, "arguments", name),
                )
        for name, required in declared.items():
            if required and name not in given:
                yield Finding.error(
                    "prompt-example-missing-required-argument",
                    f"{example.label}: the required argument {name!r} is missing",
                    jp.join(example.pointer, "arguments") if "arguments" in example.data else example.pointer,
                )


@rule(
    "mcpdesc.prompt-example.result",
    doc=RuleDoc(
        summary=(
            "A prompt example's result is a completed `prompts/get` result: no JSON-RPC envelope and no fields of "
            "an unfinished request."
        ),
        rationale=(
            "Examples show the result itself; envelope or in-progress fields would be shown as if they were part of it."
        ),
        bad=fragment(
            """
            prompts:
              - name: summarize
                examples:
                  short:
                    result:
                      messages:
                        - role: user
                          content:
                            type: text
                            text: Summarize this.
                      id: 7
            """
        ),
        good=fragment(
            """
            prompts:
              - name: summarize
                examples:
                  short:
                    result:
                      messages:
                        - role: user
                          content:
                            type: text
                            text: Summarize this.
            """
        ),
        requirements=("digest §4.8", "digest §2.12"),
        codes=("prompt-example-json-rpc-envelope", "incomplete-prompt-example-result"),
    ),
)
def prompt_example_result(document: Document) -> Iterator[Finding]:
    for example in examples_of(document, "prompt"):
        result = as_object(example.data.get("result"))
        at = jp.join(example.pointer, "result")
        yield from completed(
            result, at, example.label, "prompt-example-json-rpc-envelope", "incomplete-prompt-example-result"
        )


@rule(
    "mcp.prompt-example.protocol-shape",
    doc=RuleDoc(
        summary=(
            "A prompt example's result and messages use only what its protocol versions define (`resultType` for "
            "2026-07-28 only, `_meta` and newer content types from their first version)."
        ),
        rationale="A result shaped for another protocol version is not one a client of the declared versions receives.",
        bad=fragment(
            """
            prompts:
              - name: summarize
                examples:
                  short:
                    result:
                      messages:
                        - role: user
                          content:
                            type: text
                            text: Summarize this.
                      resultType: complete
            """
        ),
        good=fragment(
            """
            prompts:
              - name: summarize
                examples:
                  short:
                    result:
                      messages:
                        - role: user
                          content:
                            type: text
                            text: Summarize this.
            """
        ),
        requirements=("digest §4.8", "digest §2.12"),
        codes=("prompt-example-result-version-mismatch", "prompt-example-content-version-mismatch"),
    ),
)
def prompt_example_shape(document: Document) -> Iterator[Finding]:
    for example in examples_of(document, "prompt"):
        result = as_object(example.data.get("result"))
        at = jp.join(example.pointer, "result")
        scope = example.primitive.scope
        yield from result_type(result, at, scope, example.label, "prompt-example-result-version-mismatch")
        yield from meta_floor(result, at, scope, example.label, "prompt-example-result-version-mismatch")
        for index, raw in enumerate(as_list(result.get("messages"))):
            message = as_object(raw)
            if "content" in message:
                yield from content_blocks(
                    message["content"],
                    jp.join(at, "messages", index, "content"),
                    scope,
                    example.label,
                    "prompt-example-content-version-mismatch",
                )


def _completion_targets(primitive: Primitive) -> tuple[set[str] | None, str]:
    """The names a completion may target, or None when the template cannot be parsed."""
    if primitive.kind == "prompt":
        return set(_declared_arguments(primitive)), "prompt"
    pattern = primitive.data.get("uriTemplate")
    if not isinstance(pattern, str) or not is_valid_template(pattern):
        return None, "resource-template"
    return set(variable_names(pattern)), "resource-template"


def _completion_examples(document: Document) -> Iterator[Example]:
    for kind in ("prompt", "resource-template"):
        yield from examples_of(document, kind, "completionExamples")


@rule(
    "mcpdesc.completion-example.target",
    doc=RuleDoc(
        summary=(
            "A completion example completes a declared prompt argument or a variable of the template, and its "
            "`context` names other ones."
        ),
        rationale=(
            "Completions are requested for a named argument; an example for an unknown one documents a request the "
            "server cannot answer."
        ),
        bad=fragment(
            """
            prompts:
              - name: summarize
                arguments:
                  - name: topic
                completionExamples:
                  topics:
                    argument:
                      name: subject
                      value: we
                    result:
                      completion:
                        values: [weather]
            """
        ),
        good=fragment(
            """
            prompts:
              - name: summarize
                arguments:
                  - name: topic
                completionExamples:
                  topics:
                    argument:
                      name: topic
                      value: we
                    result:
                      completion:
                        values: [weather]
            """
        ),
        requirements=("digest §4.8", "digest §2.13"),
        codes=(
            "prompt-completion-example-unknown-argument",
            "resource-template-completion-example-unknown-variable",
            "resource-template-completion-example-invalid-template",
            "prompt-completion-example-context-unknown-argument",
            "resource-template-completion-example-context-unknown-variable",
            "completion-example-duplicate-target-context",
        ),
    ),
)
def completion_targets(document: Document) -> Iterator[Finding]:
    for example in _completion_examples(document):
        targets, kind = _completion_targets(example.primitive)
        if targets is None:
            yield Finding.error(
                "resource-template-completion-example-invalid-template",
                f"{example.label}: the template's uriTemplate is not a valid RFC 6570 URI template",
                jp.join(example.primitive.pointer, "uriTemplate"),
            )
            continue
        noun = "argument of the prompt" if kind == "prompt" else "variable of the URI template"
        argument = as_object(example.data.get("argument")).get("name")
        if isinstance(argument, str) and argument not in targets:
            yield Finding.error(
                "prompt-completion-example-unknown-argument"
                if kind == "prompt"
                else "resource-template-completion-example-unknown-variable",
                f"{example.label}: {argument!r} is not an {noun}",
                jp.join(example.pointer, "argument", "name"),
            )
        context = as_object(as_object(example.data.get("context")).get("arguments"))
        for name in context:
            at = jp.join(example.pointer, "context", "arguments", name)
            if name == argument:
                yield Finding.error(
                    "completion-example-duplicate-target-context",
                    f"{example.label}: the context repeats the argument being completed ({name!r})",
                    at,
                )
            elif name not in targets:
                yield Finding.error(
                    "prompt-completion-example-context-unknown-argument"
                    if kind == "prompt"
                    else "resource-template-completion-example-context-unknown-variable",
                    f"{example.label}: context names {name!r}, which is not an {noun}",
                    at,
                )


@rule(
    "mcp.completion-example.protocol-version",
    doc=RuleDoc(
        summary=(
            "Completion examples appear only where every protocol version in scope has completions (2025-03-26 and "
            "later; `context` from 2025-06-18), with a result of the versions' shape."
        ),
        rationale=(
            "Completion did not exist before 2025-03-26, and the example's result must be one the declared versions "
            "return."
        ),
        bad=fragment(
            """
            protocolVersions: ["2024-11-05", "2025-11-25"]
            prompts:
              - name: summarize
                arguments:
                  - name: topic
                completionExamples:
                  topics:
                    argument:
                      name: topic
                      value: we
                    result:
                      completion:
                        values: [weather]
            """
        ),
        good=fragment(
            """
            protocolVersions: ["2025-11-25"]
            prompts:
              - name: summarize
                arguments:
                  - name: topic
                completionExamples:
                  topics:
                    argument:
                      name: topic
                      value: we
                    result:
                      completion:
                        values: [weather]
            """
        ),
        requirements=("digest §4.8", "digest §2.13"),
        codes=(
            "completion-example-version-mismatch",
            "completion-example-context-version-mismatch",
            "completion-example-result-version-mismatch",
            "completion-example-json-rpc-envelope",
            "incomplete-completion-example-result",
        ),
    ),
)
def completion_versions(document: Document) -> Iterator[Finding]:
    for example in _completion_examples(document):
        scope = example.primitive.scope
        early = before(scope, COMPLETION_FLOOR)
        if early:
            yield Finding.error(
                "completion-example-version-mismatch",
                f"{example.label}: completion is not defined by protocol version(s) {describe(early)} "
                f"({COMPLETION_FLOOR} and later)",
                example.pointer,
            )
        early_context = before(scope, CONTEXT_FLOOR)
        if "context" in example.data and early_context:
            yield Finding.error(
                "completion-example-context-version-mismatch",
                f"{example.label}: completion context is not defined by protocol version(s) "
                f"{describe(early_context)} ({CONTEXT_FLOOR} and later)",
                jp.join(example.pointer, "context"),
            )
        result: Mapping[str, Any] = as_object(example.data.get("result"))
        at = jp.join(example.pointer, "result")
        yield from result_type(result, at, scope, example.label, "completion-example-result-version-mismatch")
        yield from meta_floor(result, at, scope, example.label, "completion-example-result-version-mismatch")
        yield from completed(
            result,
            at,
            example.label,
            "completion-example-json-rpc-envelope",
            "incomplete-completion-example-result",
        )
