"""What differs between the variants of one identity (declarations for different protocol
versions): a page shows each later variant with what changed since the one before, so a
reader compares two near-identical copies at a glance.

Facts only: each facet compared is named by a key (``words.html`` says it in words), and
schema rows, arguments, cards and examples are compared by name. The comparison walks each
variant's rows once (the tables are already bounded by ``schema_tree.MAX_ROWS``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from itertools import pairwise

from .schema_tree import SchemaRow, SchemaTree
from .site import Change, Elicitation, Variant, VariantChanges, newest

MAX_NAMES = 12
"""Names listed per kind of change; more are counted (the tables below show them all)."""


def _row_key(variant: Variant, row: SchemaRow) -> str:
    # Anchors carry the variant's prefix ("variant-2-input-x.y"): the rest names the row.
    prefix = "" if variant.anchor == "declaration" else f"{variant.anchor}-"
    return row.anchor.removeprefix(prefix)


def _row_facts(row: SchemaRow) -> tuple[object, ...]:
    return (row.types, row.required, row.constraints, row.choices, row.default, row.description, row.flags)


def _rows(variant: Variant, tree: SchemaTree | None) -> dict[str, tuple[str, tuple[object, ...]]]:
    if tree is None:
        return {}
    return {_row_key(variant, row): (row.name, _row_facts(row)) for row in tree.rows if row.is_property}


def _by_name(
    before: Mapping[str, tuple[str, object]], after: Mapping[str, tuple[str, object]], facet: str
) -> Change | None:
    added = tuple(after[k][0] for k in after if k not in before)
    removed = tuple(before[k][0] for k in before if k not in after)
    changed = tuple(after[k][0] for k in after if k in before and before[k][1] != after[k][1])
    if not (added or removed or changed):
        return None
    return Change(facet, added[:MAX_NAMES], removed[:MAX_NAMES], changed[:MAX_NAMES])


def _named(items: Iterable[tuple[str, object]]) -> dict[str, tuple[str, object]]:
    return {name: (name, facts) for name, facts in items}


def _card_facts(card: Elicitation) -> tuple[object, ...]:
    # Everything a card shows: a later variant folds an unchanged section, so a fact left
    # out here would be hidden behind "Same as for MCP ...".
    shown = (card.mode, card.message, card.when, card.on_decline, card.on_cancel, card.url)
    return (*shown, card.schema_json, card.extensions)


def _example_facts(variant: Variant) -> dict[str, tuple[str, object]]:
    """Examples, interaction examples and completion examples by name (anchors aside: they
    carry the variant's prefix)."""
    facts: dict[str, tuple[str, object]] = {}
    for example in variant.examples:
        facts[f"example:{example.name}"] = (example.name, replace(example, anchor=""))
    for interaction in variant.interaction_examples:
        steps = tuple(replace(step, declaration_anchor=None) for step in interaction.steps)
        facts[f"interaction:{interaction.name}"] = (interaction.name, replace(interaction, anchor="", steps=steps))
    for completion in variant.completion_examples:
        facts[f"completion:{completion.name}"] = (completion.name, replace(completion, anchor=""))
    return facts


def _scalar(facet: str, old: object, new: object) -> Change | None:
    """A facet without names: added when ``before`` had none, removed when ``after`` has none."""
    if old == new:
        return None
    if old in (None, (), ""):
        return Change(facet, how="added")
    if new in (None, (), ""):
        return Change(facet, how="removed")
    return Change(facet, how="changed")


def _scalars(before: Variant, after: Variant) -> Iterable[Change | None]:
    for facet, attribute in _SCALAR_FACETS:
        yield _scalar(facet, getattr(before, attribute), getattr(after, attribute))
    yield _scalar("deprecated", before.deprecated or None, after.deprecated or None)


_SCALAR_FACETS = (
    ("title", "title"),
    ("description", "description"),
    ("hints", "hints"),
    ("annotation_title", "annotation_title"),
    ("annotations", "annotation_extras"),
    ("resource_annotations", "resource_annotations"),
    ("execution", "execution"),
    ("uri", "uri"),
    ("uri_template", "uri_template"),
    ("mime_type", "mime_type"),
    ("size", "size"),
    ("icons", "icons"),
    ("tags", "tags"),
    ("security", "security"),
    ("client_requirements", "client_requirements"),
    ("meta", "meta"),
    ("extensions", "extensions"),
)
"""Facets compared whole, with the Variant attribute each is, in page order."""


def compare_variants(before: Variant, after: Variant) -> VariantChanges:
    """What ``after`` changes from ``before``, facet by facet, in page order."""
    changes: list[Change | None] = list(_scalars(before, after))
    changes.append(_by_name(_rows(before, before.input_schema), _rows(after, after.input_schema), "parameters"))
    if (before.output_schema is None) != (after.output_schema is None):
        changes.append(_scalar("output", before.output_schema, after.output_schema))
    else:
        changes.append(_by_name(_rows(before, before.output_schema), _rows(after, after.output_schema), "output"))
    changes.append(
        _by_name(
            _named((a.name, (a.required, a.title, a.description, a.extensions)) for a in before.arguments),
            _named((a.name, (a.required, a.title, a.description, a.extensions)) for a in after.arguments),
            "arguments",
        )
    )
    changes.append(
        _by_name(
            _named((c.name, _card_facts(c)) for c in before.elicitations),
            _named((c.name, _card_facts(c)) for c in after.elicitations),
            "elicitations",
        )
    )
    changes.append(_by_name(_example_facts(before), _example_facts(after), "examples"))
    since = min(after.scope.versions, default="")
    return VariantChanges(before.scope.versions, tuple(c for c in changes if c is not None), since)


def page_changes(variants: tuple[Variant, ...]) -> tuple[VariantChanges | None, ...]:
    """For each variant, what differs from the variant for the protocol versions just
    before its own (None for the oldest), whatever order the description lists them in."""
    order = sorted(range(len(variants)), key=lambda i: newest(variants[i]))
    changes: list[VariantChanges | None] = [None] * len(variants)
    for older, newer in pairwise(order):
        changes[newer] = compare_variants(variants[older], variants[newer])
    return tuple(changes)
