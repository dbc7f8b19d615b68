"""Component references, resolved as a stage of their own, before any rule runs.

``Document.build`` ends with :func:`resolve_references`: every use site a ``$componentRef``
may stand at, and every component, is followed once, and every reason one does not resolve
is recorded. What the rules (and the page model) then read is finished: asking for a use
site looks its answer up and changes nothing, so no rule sees what another asked before it
and the order the rules run in cannot change what they find.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Protocol

from ..kinds import BY_NAME
from ..records import record
from ..source import pointer as jp
from ..spec.schema import NAMESPACES
from .findings import Finding

COMPONENT_REF = "$componentRef"
MAX_CHAIN_SHOWN = 12
"""Links of a reference cycle its message names; a longer one is shortened in the middle."""

Component = tuple[str, str]
"""(namespace, name)."""


class Declaration(Protocol):
    """What reference_sites reads of a document's primitives and elicitation declarations
    (document.py's ``Primitive`` and ``Elicitation``, which import this module)."""

    @property
    def pointer(self) -> str: ...

    @property
    def data(self) -> Mapping[str, Any]: ...


class PrimitiveDeclaration(Declaration, Protocol):
    @property
    def kind(self) -> str: ...


def is_reference(value: object) -> bool:
    return isinstance(value, dict) and COMPONENT_REF in value


def _members(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def _reference_problem(target: object, namespace: str, components: Mapping[str, Any]) -> tuple[str, str] | None:
    """(code, message) when a ``$componentRef`` value does not name an existing component
    of the namespace its place needs, else None."""
    if not isinstance(target, str):
        return "schema-validation", "'$componentRef' must be a string"
    parts = target.split("/")
    if len(parts) != 4 or parts[:2] != ["#", "components"]:
        return "schema-validation", f"malformed component reference {target!r}"
    _, _, target_namespace, name = parts
    if target_namespace != namespace:
        return (
            "wrong-component-reference-namespace",
            f"{target!r} points into '{target_namespace}', but this use site needs a '{namespace}' component",
        )
    if name not in _members(components.get(target_namespace)):
        return (
            "missing-component-reference-target",
            f"{target!r} does not exist (no component {name!r} in '{target_namespace}')",
        )
    return None


@record
class Resolved:
    """A use site's value after following ``$componentRef`` chains."""

    value: Any
    pointer: str
    """Where the value itself lives (the component, when the use site is a reference)."""
    via: str | None
    """The use site's pointer when the value came from a component, else None."""


def reference_sites(
    primitives: Sequence[PrimitiveDeclaration], elicitations: Sequence[Declaration]
) -> Iterator[tuple[object, str, str]]:
    """(value, pointer, namespace needed) for every Reference Object that stands outside
    ``components``. The pointer is made only for a reference: most sites hold none, and
    this runs on every rebuild in serve."""
    for primitive in primitives:
        if primitive.kind == "tool":
            for member in ("inputSchema", "outputSchema"):
                if is_reference(value := primitive.data.get(member)):
                    yield value, jp.join(primitive.pointer, member), "schemas"
        for name, example in _members(primitive.data.get("examples")).items():
            if is_reference(example):
                yield example, jp.join(primitive.pointer, "examples", name), BY_NAME[primitive.kind].examples_namespace
    for elicitation in elicitations:
        if is_reference(value := elicitation.data.get("requestedSchema")):
            yield value, jp.join(elicitation.pointer, "requestedSchema"), "schemas"


class References:
    """What the ``$componentRef`` values of one description stand for. Made complete by
    :func:`resolve_references`; read-only after that."""

    def __init__(self, components: Mapping[str, Any]) -> None:
        self._components = components
        self.problems: list[Finding] = []
        """Why references do not resolve: one finding per broken use site or component (a
        cycle: one for the whole cycle); the component references rule reports them."""
        self._sites: dict[str, Resolved | None] = {}
        """Use site pointer -> what it resolves to."""
        self._chains: dict[Component, tuple[Any, str] | None] = {}
        """Component -> (value, pointer) at the end of its chain, or None when it is broken."""

    def resolve(self, value: object, pointer: str, namespace: str) -> Resolved | None:
        """What the use site at ``pointer`` stands for: its own value, or the one at the end
        of its reference's chain; None when the reference does not resolve (the reason is
        among ``problems``)."""
        if not is_reference(value):
            return Resolved(value, pointer, None)
        if pointer in self._sites:
            return self._sites[pointer]
        # A reference where reference_sites lists none (no caller asks for one): worked out
        # from what the stage found, recording nothing.
        target = _members(value).get(COMPONENT_REF)
        if _reference_problem(target, namespace, self._components) is not None:
            return None
        _, _, target_namespace, name = str(target).split("/")
        outcome = self._chains.get((target_namespace, name))
        return Resolved(outcome[0], outcome[1], pointer) if outcome is not None else None

    # The stage's steps: only resolve_references calls them.

    def _record_site(self, value: object, pointer: str, namespace: str) -> None:
        """Follow a use site's reference. A problem with the site's own reference is
        recorded at the site; one further down the chain belongs to the component where it
        is, and is recorded there, once, whichever use sites lead to it."""
        if pointer in self._sites:
            return
        target = self._target(value, pointer, namespace)
        outcome = self._follow(target) if target is not None else None
        self._sites[pointer] = Resolved(outcome[0], outcome[1], pointer) if outcome is not None else None

    def _target(self, value: object, at: str, namespace: str) -> Component | None:
        """The existing component a reference at ``at`` names; None, with the problem
        recorded at the reference, when there is none such."""
        target = _members(value).get(COMPONENT_REF)
        problem = _reference_problem(target, namespace, self._components)
        if problem is not None:
            self._fail(jp.join(at, COMPONENT_REF), *problem)
            return None
        _, _, target_namespace, name = str(target).split("/")
        return target_namespace, name

    def _follow(self, key: Component) -> tuple[Any, str] | None:
        """(value, pointer) at the end of an existing component's chain, or None when the
        chain is broken. Each component is followed once, however many use sites and
        chains pass through it: the walk stops at the first component already known and
        records its outcome for every component it passed, so N chained components cost N
        steps in all (following each use site's whole chain was N^2), and it is a loop, so
        a long chain cannot exhaust the stack."""
        path: list[Component] = []
        on_path: dict[Component, int] = {}
        current: Component | None = key
        outcome: tuple[Any, str] | None = None
        while current is not None:
            if current in self._chains:
                outcome = self._chains[current]
                break
            if current in on_path:
                self._cycle(path[on_path[current] :])
                break
            on_path[current] = len(path)
            path.append(current)
            namespace, name = current
            value = _members(self._components.get(namespace))[name]
            pointer = jp.join("", "components", namespace, name)
            if not is_reference(value):
                outcome = (value, pointer)
                break
            # A component's reference must stay in its own namespace: the one its use sites need.
            current = self._target(value, pointer, namespace)
        for passed in path:
            self._chains[passed] = outcome
        return outcome

    def _cycle(self, cycle: list[Component]) -> None:
        """One finding per cycle, at the component where the walk entered it, naming the
        chain its reference starts: the components it passes through until it is back."""
        names = [f"#/components/{namespace}/{name}" for namespace, name in cycle]
        links = [*names[1:], names[0], names[1 % len(names)]]
        if len(links) > MAX_CHAIN_SHOWN:  # the message stays one readable line
            hidden = len(links) - MAX_CHAIN_SHOWN
            links = [*links[: MAX_CHAIN_SHOWN - 2], f"... {hidden} more ...", *links[-2:]]
        chain = " -> ".join(links)
        namespace, name = cycle[0]
        self._fail(
            jp.join("", "components", namespace, name, COMPONENT_REF),
            "component-reference-cycle",
            f"component references form a cycle: {chain}",
        )

    def _fail(self, pointer: str, code: str, message: str) -> None:
        """Record why a reference does not resolve."""
        requirement = "req-elicitation-schema-references-resolved" if "/elicitations/" in pointer else None
        self.problems.append(Finding.error(code, message, pointer, requirement))


def resolve_references(
    components: Mapping[str, Any], primitives: Sequence[PrimitiveDeclaration], elicitations: Sequence[Declaration]
) -> References:
    """The stage: every use site (in document order), then every component, used or not (a
    broken chain or a cycle is found even where nothing uses it); each component is followed
    once, so this costs one step per use site and one per component."""
    references = References(components)
    for value, pointer, namespace in reference_sites(primitives, elicitations):
        references._record_site(value, pointer, namespace)
    for namespace in NAMESPACES:
        for name in _members(components.get(namespace)):
            references._follow((namespace, name))
    return references


__all__ = ["COMPONENT_REF", "References", "Resolved", "is_reference", "reference_sites", "resolve_references"]
