"""Components: the places that may refer to one (use sites), and who refers to each.

The page builders and the uses pass find the use sites through the same functions here,
so a component's "used N times" counts exactly the references the pages show.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from ..kinds import BY_NAME
from ..records import record
from ..source import pointer as jp
from ..validation.document import Document, Primitive, as_object
from ..validation.document import Elicitation as DeclaredElicitation
from .schema_tree import ShownElsewhere, dump_json
from .site import Component
from .urls import component_anchor

REPEAT_FACTOR = 4
"""What components shown again may add to the site, in bytes, per byte of the description."""
REPEAT_FLOOR = 2_000_000
"""... and in any case (so small descriptions never link)."""


@record
class UseSite:
    """A place where the description may write a ``$componentRef`` instead of a value."""

    pointer: str
    value: object
    namespace: str
    """The components namespace a reference here must point into."""


def schema_site(primitive: Primitive, key: str) -> UseSite | None:
    """``inputSchema`` or ``outputSchema``, when declared."""
    if key not in primitive.data:
        return None
    return UseSite(jp.join(primitive.pointer, key), primitive.data[key], "schemas")


def requested_schema_site(elicitation: DeclaredElicitation) -> UseSite | None:
    if "requestedSchema" not in elicitation.data:
        return None
    return UseSite(jp.join(elicitation.pointer, "requestedSchema"), elicitation.data["requestedSchema"], "schemas")


def example_sites(primitive: Primitive) -> Iterator[tuple[str, UseSite]]:
    """Each named example, with its use site."""
    namespace = BY_NAME[primitive.kind].examples_namespace
    for name, value in as_object(primitive.data.get("examples")).items():
        yield name, UseSite(jp.join(primitive.pointer, "examples", name), value, namespace)


def use_sites(primitive: Primitive, elicitations: Sequence[DeclaredElicitation]) -> Iterator[UseSite]:
    """All of a primitive's use sites, in the order its page shows them."""
    for elicitation in elicitations:
        site = requested_schema_site(elicitation)
        if site is not None:
            yield site
    for _, site in example_sites(primitive):
        yield site
    for key in ("inputSchema", "outputSchema"):
        schema = schema_site(primitive, key)
        if schema is not None:
            yield schema


class Repeats:
    """Components shown at every use, within a budget for the site.

    A ``$componentRef`` costs a few bytes wherever it is written, and what it names is
    shown in full at each use: 2,000 tools naming one large schema would write it 2,000
    times. So each component is shown in full where it is first used (in page order), and
    again while the repeats stay within ``REPEAT_FACTOR`` times the description's size
    (plus ``REPEAT_FLOOR``); past that, a use links to the first. Descriptions that reuse
    components the usual way never reach the budget and show every use in full."""

    def __init__(self, description_size: Callable[[], int]) -> None:
        # The size is measured on first need (serialising a large description costs, and
        # most never show a component twice).
        self._description_size = description_size
        self._budget: int | None = None
        self._first: dict[str, tuple[ShownElsewhere, int]] = {}
        self.uses = 0
        """Calls about a component so far: a page built without any neither read nor
        changed this state, so it can be reused in a later build (``PageCache``)."""

    def elsewhere(self, component: str | None) -> ShownElsewhere | None:
        """Where this use should link to instead of showing the component, or None to show
        it here (its first use, or a repeat within the budget, which it is charged)."""
        if component is None:
            return None
        self.uses += 1
        first = self._first.get(component)
        if first is None:
            return None
        link, weight = first
        if self._budget is None:
            self._budget = REPEAT_FACTOR * self._description_size() + REPEAT_FLOOR
        if weight > self._budget:
            return link
        self._budget -= weight
        return None

    def shown(self, component: str | None, weight: int, path: str, page: str) -> None:
        """A use showed the component in full (``weight``: about its bytes)."""
        if component is None:
            return
        self.uses += 1
        if component not in self._first:
            self._first[component] = (ShownElsewhere(component, path, page), weight)


def resolve(document: Document, site: UseSite) -> tuple[Any, str | None]:
    """The value at a use site and the component it names (the first link of the chain)."""
    resolved = document.resolve(site.value, site.pointer, site.namespace)
    if resolved is None or resolved.via is None:  # None cannot happen on a validated document
        return site.value, None
    named = as_object(site.value).get("$componentRef")
    return resolved.value, named if isinstance(named, str) else None


def component_uses(
    document: Document, elicitations: Mapping[str, Sequence[DeclaredElicitation]]
) -> dict[str, tuple[str, ...]]:
    """The use sites referring to each component (``#/components/<namespace>/<name>``):
    the one a use site names and, when a chain leads further, the one it ends at."""
    if not document.components:
        return {}  # a validated document refers to nothing when it has nothing to refer to
    uses: dict[str, list[str]] = {}
    for primitive in document.primitives:
        for site in use_sites(primitive, elicitations.get(primitive.pointer, ())):
            resolved = document.resolve(site.value, site.pointer, site.namespace)
            if resolved is None or resolved.via is None:
                continue
            named = as_object(site.value).get("$componentRef")
            if isinstance(named, str):
                uses.setdefault(named, []).append(site.pointer)
            final = "#" + resolved.pointer
            if final != named:
                uses.setdefault(final, []).append(site.pointer)
    return {target: tuple(pointers) for target, pointers in uses.items()}


def build_components(document: Document, uses: Mapping[str, tuple[str, ...]]) -> tuple[Component, ...]:
    components = []
    for namespace, entries in document.components.items():
        if namespace.startswith("x-"):
            continue
        for name, value in as_object(entries).items():
            target = f"#/components/{namespace}/{name}"
            components.append(
                Component(namespace, name, component_anchor(namespace, name), dump_json(value), uses.get(target, ()))
            )
    return tuple(components)
