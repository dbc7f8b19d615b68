"""A primitive's examples: calls with their results, interactions, completions."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence

from ..source import pointer as jp
from ..validation.document import Primitive, as_list, as_object, strings
from .components import example_sites, resolve
from .context import BuildContext
from .results import readable_result
from .schema_tree import dump_json, number_text
from .site import CompletionExample, Elicitation, Example, ExamplePart, InteractionExample, ResultBlock, Step
from .urls import PageAnchors, PageRef
from .values import extensions, string

_PART_KEYS = ("uri", "input", "arguments", "result")
"""The members of an example shown as its parts, in this order."""
_JSON_MEDIA_TYPE = re.compile(r"^application/(?:[\w.+-]*\+)?json(?:\s*;.*)?$", re.IGNORECASE)


def _embedded_json(value: object, path: str = "") -> Iterator[ExamplePart]:
    """Text contents whose media type is JSON (``mimeType: application/json``, ``+json``),
    pretty-printed: in the result they are one escaped string, unreadable as written."""
    if isinstance(value, Mapping):
        media_type, text = value.get("mimeType"), value.get("text")
        if isinstance(media_type, str) and isinstance(text, str) and _JSON_MEDIA_TYPE.match(media_type):
            try:
                parsed = json.loads(text)
            except (ValueError, RecursionError):
                parsed = None  # not JSON after all: the result shows it as it is
            else:
                yield ExamplePart("embedded", dump_json(parsed), source=f"{path}/text", media_type=media_type)
        for key, member in value.items():
            yield from _embedded_json(member, f"{path}/{jp.escape(str(key))}")
    elif isinstance(value, list):
        for index, member in enumerate(value):
            yield from _embedded_json(member, f"{path}/{index}")


def build_examples(
    context: BuildContext, primitive: Primitive, anchors: PageAnchors, page: PageRef
) -> tuple[Example, ...]:
    examples = []
    for name, site in example_sites(primitive):
        value, component = resolve(context.document, site)
        data = as_object(value)
        anchor = anchors.example(name)
        elsewhere = context.repeats.elsewhere(component)
        parts: tuple[ExamplePart, ...] = ()
        readable: tuple[ResultBlock, ...] = ()
        if elsewhere is None:
            readable = readable_result(primitive.kind, data.get("result"))
            parts = tuple(
                ExamplePart(key, str(data[key]) if key == "uri" else dump_json(data[key]))
                for key in _PART_KEYS
                if key in data
            ) + tuple(_embedded_json(data.get("result"), "/result"))
            context.repeats.shown(component, sum(len(part.json) for part in parts), page.at(anchor), page.name)
        examples.append(
            Example(
                name=name,
                anchor=anchor,
                component=component,
                parts=parts,
                is_error=as_object(data.get("result")).get("isError") is True,
                extensions=extensions(data) if elsewhere is None else (),
                shown_elsewhere=elsewhere,
                readable=readable,
            )
        )
    return tuple(examples)


def _step(number: int, raw: object, declaration_anchors: dict[str, str]) -> Step:
    step = as_object(raw)
    kind = string(step, "type") or "?"
    request = as_object(step.get("request"))
    response = as_object(step.get("response"))
    declaration = string(step, "declaration")
    return Step(
        number=number,
        type=kind,
        declaration=declaration,
        declaration_anchor=declaration_anchors.get(declaration) if declaration else None,
        mode=(string(request, "mode") or "form") if kind == "elicitation" else None,
        action=string(response, "action") if kind == "elicitation" else None,
        model=string(response, "model") if kind == "sampling" else None,
        roots=len(as_list(response.get("roots"))) if kind == "roots" else None,
        request=dump_json(step.get("request")),
        response=dump_json(step.get("response")),
        extensions=extensions(step),
    )


def build_interaction_examples(
    primitive: Primitive, elicitations: Sequence[Elicitation], anchors: PageAnchors
) -> tuple[InteractionExample, ...]:
    declaration_anchors = {e.name: e.anchor for e in elicitations}
    examples = []
    for name, raw in as_object(primitive.data.get("interactionExamples")).items():
        data = as_object(raw)
        result = data.get("result")
        examples.append(
            InteractionExample(
                name=name,
                anchor=anchors.interaction(name),
                input=dump_json(data.get("input")),
                steps=tuple(
                    _step(number, step, declaration_anchors)
                    for number, step in enumerate(as_list(data.get("steps")), start=1)
                ),
                result=dump_json(result),
                is_error=as_object(result).get("isError") is True,
                extensions=extensions(data),
            )
        )
    return tuple(examples)


def build_completion_examples(primitive: Primitive, anchors: PageAnchors) -> tuple[CompletionExample, ...]:
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
                argument=string(argument, "name") or "",
                value=string(argument, "value") or "",
                context=tuple((str(k), str(v)) for k, v in context.items()),
                values=tuple(strings(completion.get("values"))),
                total=number_text(completion.get("total")),
                has_more=has_more if isinstance(has_more, bool) else None,
                result_extra=dump_json(extra) if extra else None,
                extensions=(
                    *extensions(data),
                    *extensions(argument),
                    *extensions(as_object(data.get("context"))),
                ),
            )
        )
    return tuple(examples)
