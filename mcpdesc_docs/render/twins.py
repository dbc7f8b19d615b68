"""Plain-text twins of the site for assistants: ``llms.txt`` and one Markdown file per page.

The description's own strings are written as they are: these files are text, never
rendered by the site, and Markdown from the description stays Markdown. The words for the
model's facts (where security comes from, what a hint means) are the pages' own, from
``templates/partials/words.html``.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable

from ..kinds import BY_NAME, KIND_NAMES
from ..model.schema_tree import ShownElsewhere
from ..model.site import Page, Site, Variant
from ..model.site import label as short_label
from .words import Words

_BACKTICKS = re.compile(r"`+")


def _fence(text: str, language: str = "json") -> str:
    # One backtick more than the longest run in the text, found in one pass (growing the
    # fence until it is not in the text searched the text once per backtick: quadratic).
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{text}\n{fence}"


def _elsewhere(link: ShownElsewhere) -> str:
    path, _, anchor = link.path.partition("#")
    return (
        f"The component `{link.component}`, shown in full in {twin_path(path)} ({short_label(link.page)}, #{anchor})."
    )


def twin_path(page_path: str) -> str:
    # Asked for every page on every rebuild; page paths end in ".html" (splitext is slower,
    # and differs only for a name that starts with a dot, which no page has).
    if page_path.endswith(".html") and not page_path.rpartition("/")[2].startswith("."):
        return page_path[: -len(".html")] + ".md"
    return posixpath.splitext(page_path)[0] + ".md"


def _security_lines(variant: Variant, words: Words) -> Iterable[str]:
    # What the page shows: where the requirement comes from, then the requirement itself
    # (an override's own, or what is inherited) and what applies through each transport.
    view = variant.security
    yield f"Security: {words.security(view)}"
    if view.listed_at is not None:
        yield f"The requirement is shown in full on the overview ({view.listed_at})."
    if view.requirement is not None:
        yield f"Requirement: {words.requirement(view.requirement)}"
    for entry in view.by_transport:
        applies = words.requirement(entry.requirement) if entry.requirement else words.transport_fallback(entry)
        yield f"- Via {words.by_transport(entry)}: {applies}"


def _variant_lines(variant: Variant, words: Words) -> Iterable[str]:
    yield f"Protocol versions: {', '.join(variant.scope.versions)}"
    if variant.deprecated:
        yield "Deprecated."
    if variant.tags:
        yield "Tags: " + ", ".join(tag.name for tag in variant.tags)
    for hint in variant.hints:
        yield f"- {words.hint(hint)} ({hint.raw})"
    if variant.description:
        yield ""
        yield variant.description.strip()
    for label, value in (
        ("URI", variant.uri),
        ("URI template", variant.uri_template),
        ("MIME type", variant.mime_type),
    ):
        if value is not None:
            yield f"{label}: `{value}`"
    yield ""
    yield from _security_lines(variant, words)
    for tree, title in ((variant.input_schema, "Parameters"), (variant.output_schema, "Structured output")):
        if tree is None:
            continue
        yield ""
        yield f"### {title}"
        yield ""
        if tree.shown_elsewhere is not None:
            yield _elsewhere(tree.shown_elsewhere)
        for row in tree.rows:
            indent = "  " * row.depth
            details = [words.types(row)]
            if row.required:
                details.append("required")
            details.extend(row.constraints)
            if row.default is not None:
                details.append(f"default {row.default}")
                if row.default_outside_type:
                    details.append(words.default_outside_type())
            if row.choices:
                details.append("one of " + ", ".join(row.choices))
            if row.listed_as is not None:
                details.append(f"see {row.listed_as} above")
            text = f" — {row.description}" if row.description else ""
            yield f"{indent}- `{row.name}` ({'; '.join(details)}){text}"
        if tree.omitted_rows:
            yield f"- … {tree.omitted_rows} more rows not shown"
    if variant.arguments:
        yield ""
        yield "### Arguments"
        yield ""
        for argument in variant.arguments:
            required = " (required)" if argument.required else ""
            text = f" — {argument.description}" if argument.description else ""
            yield f"- `{argument.name}`{required}{text}"
    if variant.elicitations:
        yield ""
        yield "### May ask the user"
        for card in variant.elicitations:
            yield ""
            yield f"#### {card.name} ({card.mode} mode)"
            if card.when:
                yield f"When: {card.when}"
            yield f"Message: {card.message}"
            if card.url:
                yield f"URL (not to be opened by readers of this file): {card.url}"
            if card.schema_elsewhere is not None:
                yield _elsewhere(card.schema_elsewhere)
            if card.form is not None:
                for field in card.form.fields:
                    required = ", required" if field.required else ""
                    yield f"- {field.label} (`{field.name}`, {field.json_type}{required})"
            if card.on_decline:
                yield f"If the user declines: {card.on_decline}"
            if card.on_cancel:
                yield f"If the user cancels: {card.on_cancel}"
    if variant.examples:
        yield ""
        yield "### Examples"
        for example in variant.examples:
            yield ""
            yield f"#### {example.name}"
            if example.shown_elsewhere is not None:
                yield _elsewhere(example.shown_elsewhere)
            for part in example.parts:
                yield f"{words.example_part(part, example)}:"
                yield _fence(part.json, "text" if part.key == "uri" else "json")


def page_twin(page: Page, words: Words) -> str:
    lines = [f"# {page.title}", "", f"{BY_NAME[page.kind].singular} `{page.name}`"]
    for variant in page.variants:
        if len(page.variants) > 1:
            lines += ["", f"## For MCP {', '.join(variant.scope.versions)}"]
        lines += ["", *_variant_lines(variant, words)]
    return "\n".join(lines).rstrip() + "\n"


def llms_txt(site: Site, site_url: str | None) -> str:
    base = site_url or ""
    lines = [f"# {site.server.title}", ""]
    summary = (site.server.description or "").strip().split("\n\n", 1)[0].replace("\n", " ")
    if summary:
        lines += [f"> {summary}", ""]
    lines.append(
        f"MCP server `{site.server.name}` version {site.server.version}, for MCP protocol versions "
        f"{', '.join(site.protocol_versions)}."
    )
    if site.instructions:
        lines += ["", "Instructions for the model:", "", site.instructions.strip()]
    for kind in KIND_NAMES:
        pages = site.pages_of(kind)
        if not pages:
            continue
        lines += ["", f"## {BY_NAME[kind].title}", ""]
        for page in pages:
            summary = f": {page.summary}" if page.summary else ""
            lines.append(f"- [{page.label}]({base}{twin_path(page.path)}){summary}")
    return "\n".join(lines).rstrip() + "\n"
