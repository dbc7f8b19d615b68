"""The client-side search index, built from the page model at build time.

Each entry points at the exact anchor of what it describes (a page, a parameter row, an
elicitation card, an example ...). The index is written twice: ``search-index.json`` for
tools, and ``search-index.js`` (the same data assigned to a global) which pages load with a
script element, so search also works when the site is opened from ``file://``, where
``fetch`` is refused.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from ..kinds import BY_NAME
from ..model.forms import Option
from ..model.schema_tree import SchemaRow
from ..model.site import Page, Site, Variant, first_sentence, label
from ..records import record
from .markdown import plain_text
from .words import Words

MAX_TEXT = 240


@record
class Entry:
    title: str
    kind: str
    """What the entry is, in words: "Tool", "Parameter of search_tickets", ..."""
    url: str
    """Site-relative, with the anchor."""
    text: str
    """Plain text searched and shown under the title."""
    names: str
    """Identifiers, matched with priority (space separated)."""
    versions: str = ""
    """The protocol versions that offer it (space separated), when not all of the
    server's: the protocol-version view leaves the others out of the results."""


def _clip(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1].rstrip() + "…"


def _only_in(versions: tuple[str, ...], site: Site) -> str:
    return "" if set(site.protocol_versions) <= set(versions) else " ".join(versions)


_TEMPLATE_EXPRESSION = re.compile(r"\{[+#./;?&=,!@|]?([^}]*)\}")


def _template_variables(template: str | None) -> list[str]:
    """The variable names of an RFC 6570 URI template (``{+path}``, ``{?q,limit*}``), each once."""
    names: dict[str, None] = {}
    for expression in _TEMPLATE_EXPRESSION.findall(template or ""):
        for spec in expression.split(","):
            name = spec.split(":", 1)[0].rstrip("*").strip()
            if name:
                names.setdefault(name, None)
    return list(names)


def _choice_words(row: SchemaRow) -> list[str]:
    """A row's enum values and consts as words (strings without their JSON quotes), and the
    title of a ``const`` option: "urgent" finds the parameter that accepts it."""
    words = [choice[1:-1] if choice.startswith('"') else choice for choice in row.choices]
    return [*words, row.title] if row.title and not row.is_property else words


def _option_words(options: Iterable[Option]) -> list[str]:
    """A form field's choices: each value, and its label when that says more."""
    words: dict[str, None] = {}
    for option in options:
        words.setdefault(option.value, None)
        if option.label.lower() != option.value.lower():
            words.setdefault(option.label, None)
    return [f"· one of: {' · '.join(words)}"] if words else []


def _property_entries(rows: Iterable[SchemaRow], kind: str, path: str, versions: str) -> list[Entry]:
    """One entry per property row; the options and items under a property (rows that are not
    properties) lend it their enum values and const titles."""
    found: list[tuple[SchemaRow, list[str]]] = []
    for row in rows:
        if row.is_property:
            found.append((row, _choice_words(row)))
        elif found and row.depth > found[-1][0].depth:
            found[-1][1].extend(_choice_words(row))
    entries = []
    for row, choices in found:
        described = " ".join(filter(None, [row.title, plain_text(row.description, inline=True)]))
        values = " ".join(dict.fromkeys(choices))
        text = f"{described} · one of: {values}" if values and described else (values or described)
        entries.append(Entry(row.name, kind, f"{path}#{row.anchor}", _clip(text), row.name, versions))
    return entries


def _variant_entries(site: Site, page: Page, variant: Variant) -> list[Entry]:
    entries: list[Entry] = []
    owner = f"{BY_NAME[page.kind].singular.lower()} {label(page.label)}"  # on each of its entries
    if len(page.variants) > 1:
        # Otherwise the variants' entries would read the same and only their links differ.
        owner += f" for MCP {', '.join(variant.scope.versions)}"
    versions = _only_in(variant.scope.versions, site)
    for tree, what in ((variant.input_schema, "Parameter"), (variant.output_schema, "Output field")):
        if tree is not None:
            entries.extend(_property_entries(tree.rows, f"{what} of {owner}", page.path, versions))
    for name in _template_variables(variant.uri_template):
        entries.append(
            Entry(name, f"URI template variable of {owner}", f"{page.path}#{variant.anchor}", "", name, versions)
        )
    prefix = "" if variant.anchor == "declaration" else f"{variant.anchor}-"
    for argument in variant.arguments:
        entries.append(
            Entry(
                argument.name,
                f"Argument of {owner}",
                f"{page.path}#{prefix}arguments",
                _clip(" ".join(filter(None, [argument.title, plain_text(argument.description, inline=True)]))),
                argument.name,
                versions,
            )
        )
    for card in variant.elicitations:
        entries.append(
            Entry(
                card.name,
                f"{'Form' if card.mode == 'form' else 'URL'} elicitation of {owner}",
                f"{page.path}#{card.anchor}",
                _clip(" ".join(filter(None, [card.message, card.when]))),
                card.name,
                _only_in(card.scope.versions, site),  # a declaration may narrow its tool's scope
            )
        )
        # The form's fields, by property name and label: a reader looks for "assignee".
        for position, form_field in enumerate(card.form.fields if card.form else (), start=1):
            entries.append(
                Entry(
                    form_field.name,
                    f"Form field of elicitation {card.name} ({owner})",
                    f"{page.path}#{card.anchor}-f{position}",
                    _clip(
                        " ".join(filter(None, [form_field.label, form_field.help, *_option_words(form_field.options)]))
                    ),
                    form_field.name,
                    _only_in(card.scope.versions, site),
                )
            )
    named: list[tuple[str, str]] = [(e.name, e.anchor) for e in variant.examples]
    named += [(e.name, e.anchor) for e in variant.interaction_examples]
    named += [(e.name, e.anchor) for e in variant.completion_examples]
    for name, anchor in named:
        entries.append(Entry(name, f"Example of {owner}", f"{page.path}#{anchor}", "", name, versions))
    return entries


def page_entries(site: Site, page: Page) -> list[Entry]:
    """A primitive page's entries: the page itself, then what its variants declare."""
    description = next((v.description for v in page.variants if v.description), None)
    entries = [
        Entry(
            page.title,
            BY_NAME[page.kind].singular + (" (deprecated)" if page.deprecated else ""),
            page.path,
            _clip(first_sentence(plain_text(description), MAX_TEXT) if description else ""),
            " ".join({page.name, *(v.name for v in page.variants)}),
            _only_in(page.scope.versions, site),
        )
    ]
    for variant in page.variants:
        entries.extend(_variant_entries(site, page, variant))
    return _unique(entries)


def site_entries(site: Site, words: Words) -> tuple[list[Entry], list[Entry]]:
    """The entries that belong to no primitive page: the overview's (first in the index)
    and the tags' and security schemes' (last)."""
    overview = Entry(
        site.server.title,
        "Server overview",
        "index.html",
        _clip(plain_text(site.server.description)),
        site.server.name,
    )
    after: list[Entry] = []
    for tag in site.tags:
        after.append(Entry(tag.name, "Tag", tag.path, _clip(plain_text(tag.description)), tag.name))
    for scheme in site.security_schemes:
        after.append(
            Entry(
                scheme.name,
                f"Security scheme ({words.scheme_type(scheme.type)})",
                f"index.html#{scheme.anchor}",
                _clip(plain_text(scheme.description)),
                scheme.name,
            )
        )
        for flow in scheme.flows:
            for scope, description in flow.scopes:
                after.append(
                    Entry(
                        scope,
                        f"OAuth scope of {scheme.name}",
                        f"index.html#{scheme.anchor}",
                        _clip(description),
                        scope,
                    )
                )
    return [overview], _unique(after)


def build_search_index(site: Site, words: Words) -> list[Entry]:
    """Every entry, in index order. Each page's urls start with its own path and the rest
    with ``index.html`` or a tag page's, so duplicates (same url and title) can only occur
    within one group: removing them group by group is the same as over the whole index."""
    before, after = site_entries(site, words)
    return [*before, *(entry for page in site.pages for entry in page_entries(site, page)), *after]


def _unique(entries: list[Entry]) -> list[Entry]:
    seen: set[tuple[str, str]] = set()
    kept = []
    for entry in entries:
        key = (entry.url, entry.title)
        if key not in seen:
            seen.add(key)
            kept.append(entry)
    return kept


def entries_json(entries: list[Entry]) -> str:
    """Entries as the members of a JSON array, without the brackets (the index is the
    pages' pieces joined with commas, so an unchanged page's piece can be reused)."""
    # Field by field: dataclasses.asdict deep-copies and is several times slower.
    data = [
        {"title": e.title, "kind": e.kind, "url": e.url, "text": e.text, "names": e.names}
        | ({"versions": e.versions} if e.versions else {})
        for e in entries
    ]
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))[1:-1]


def search_files(site: Site, words: Words, page_pieces: Iterable[str] | None = None) -> dict[str, bytes]:
    """``page_pieces``: each primitive page's ``entries_json(page_entries(...))``, in page
    order (made here when not given)."""
    if page_pieces is None:
        page_pieces = (entries_json(page_entries(site, page)) for page in site.pages)
    before, after = site_entries(site, words)
    pieces = [entries_json(before), *page_pieces, entries_json(after)]
    text = "[" + ",".join(piece for piece in pieces if piece) + "]"
    return {
        "search-index.json": text.encode("utf-8"),
        "search-index.js": f"window.MCPDESC_SEARCH_INDEX = {text};\n".encode(),
    }
