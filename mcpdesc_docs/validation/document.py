"""A read-only view of a structurally checked description that the semantic rules share:
primitives with their effective protocol scopes, elicitation declarations, and resolved
component references."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from ..kinds import BY_NAME, KINDS
from ..records import record
from ..source import pointer as jp
from ..spec.revisions import REVISIONS
from ..spec.versions import Specification
from .budget import Budget
from .findings import Finding
from .json_schema import Compiled, InstanceCheck, check_instance, compile_schema
from .memo import Memos
from .references import References, Resolved, resolve_references

JsonObject = Mapping[str, Any]

Item = TypeVar("Item")


class Replayed(Generic[Item]):
    """The items of one walk, worked out once however many times they are iterated: the
    first iteration drives the walk, step by step as before, and later ones read what it
    found (the same items: references were resolved before any rule walked). A walk that
    raised raises again at the same point, for every rule that meets it."""

    def __init__(self, walk: Iterator[Item]) -> None:
        self._walk = walk
        self._found: list[Item] = []
        self._failure: Exception | None = None
        self._done = False

    def __iter__(self) -> Iterator[Item]:
        if self._done:  # walked to its end: the rules after the first read a plain list
            return iter(self._found)
        return self._replay()

    def _replay(self) -> Iterator[Item]:
        index = 0
        while True:
            if index < len(self._found):
                yield self._found[index]
                index += 1
                continue
            if self._failure is not None:
                raise self._failure
            if self._done:
                return
            try:
                self._found.append(next(self._walk))
            except StopIteration:
                self._done = True
            except Exception as exc:  # noqa: BLE001 - kept for every rule that walks this far, then raised
                self._failure = exc


def as_object(value: object) -> JsonObject:
    return value if isinstance(value, dict) else {}


def as_list(value: object) -> Sequence[Any]:
    return value if isinstance(value, list) else []


def strings(value: object) -> list[str]:
    return [item for item in as_list(value) if isinstance(item, str)]


def explicit_scope(declaration: JsonObject) -> tuple[str, ...] | None:
    scope = declaration.get("protocolVersions")
    if isinstance(scope, list):
        return tuple(item for item in scope if isinstance(item, str))
    return None


def has_explicit_scope(declaration: JsonObject) -> bool:
    """Whether a declaration names its own protocol scope (else it inherits its parent's)."""
    return explicit_scope(declaration) is not None


@record
class Primitive:
    kind: str
    """tool, resource, resource-template or prompt."""
    pointer: str
    data: JsonObject
    scope: tuple[str, ...]
    """The effective protocol scope (explicit, else the root's)."""
    identity: str | None = field(init=False)
    """Its name (or URI, or URI template), when that is a string."""
    label: str = field(init=False)
    """How findings name it."""

    def __post_init__(self) -> None:
        # Worked out once: several rules ask for them for every declaration.
        value = self.data.get(BY_NAME[self.kind].identity)
        identity = value if isinstance(value, str) else None
        object.__setattr__(self, "identity", identity)
        object.__setattr__(self, "label", f"{self.kind.replace('-', ' ')} {identity!r}")

    @property
    def scope_is_explicit(self) -> bool:
        """Whether ``scope`` is the declaration's own (else it is inherited)."""
        return has_explicit_scope(self.data)


@record
class Elicitation:
    primitive: Primitive
    pointer: str
    data: JsonObject
    scope: tuple[str, ...]
    """Explicit scope, or the primitive's effective scope."""
    label: str = field(init=False)
    """How findings name it."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "label", f"elicitation declaration {self.name!r} of {self.primitive.label}")

    @property
    def scope_is_explicit(self) -> bool:
        """Whether ``scope`` is the declaration's own (else it is the primitive's)."""
        return has_explicit_scope(self.data)

    @property
    def name(self) -> str:
        value = self.data.get("name")
        return value if isinstance(value, str) else "?"


@dataclass(slots=True)
class Document:
    """The description as the semantic rules see it."""

    data: JsonObject
    specification: Specification
    root_scope: tuple[str, ...]
    primitives: list[Primitive] = field(default_factory=list)
    elicitations: list[Elicitation] = field(default_factory=list)
    references: References = field(default_factory=lambda: References({}))
    """What every ``$componentRef`` stands for, resolved before any rule runs
    (references.py); ``build`` makes it."""
    memos: Memos = field(default_factory=Memos)
    """Results rules work out from parts of the data, kept by the part's identity: the
    document's own, or for ``serve`` its build session's, shared by all its rebuilds."""
    _budget: Budget | None = None
    _walks: dict[tuple[Callable[..., Iterator[Any]], tuple[str, ...]], Replayed[Any]] = field(default_factory=dict)

    @classmethod
    def build(cls, data: JsonObject, specification: Specification, memos: Memos | None = None) -> Document:
        root_scope = tuple(s for s in strings(data.get("protocolVersions")) if s in REVISIONS)
        document = cls(data, specification, root_scope, memos=memos if memos is not None else Memos())
        for kind in KINDS:
            # The collections' names and "elicitations" hold no "~" or "/" to escape, so the
            # pointers are written out directly (jp.join's escaping, 15,000 times at N=5,000).
            for index, item in enumerate(as_list(data.get(kind.collection))):
                declaration = as_object(item)
                pointer = f"/{kind.collection}/{index}"
                primitive = Primitive(kind.name, pointer, declaration, explicit_scope(declaration) or root_scope)
                document.primitives.append(primitive)
                for position, raw in enumerate(as_list(declaration.get("elicitations"))):
                    elicitation = as_object(raw)
                    document.elicitations.append(
                        Elicitation(
                            primitive,
                            f"{pointer}/elicitations/{position}",
                            elicitation,
                            explicit_scope(elicitation) or primitive.scope,
                        )
                    )
        # The rules read the document only once this stage is done (see references.py).
        document.references = resolve_references(document.components, document.primitives, document.elicitations)
        return document

    def alone(self, primitive: Primitive, elicitations: list[Elicitation], root: JsonObject) -> Document:
        """The document as it would be with ``primitive`` (and its ``elicitations``) its only
        primitive: ``root`` holds the root's members other than the primitive collections.
        Compiled schemas and resolved references are shared with this document. What a
        local rule finds here is what it finds for that primitive in the whole
        (registry.Rule.local)."""
        return Document(
            root,
            self.specification,
            self.root_scope,
            [primitive],
            elicitations,
            references=self.references,
            memos=self.memos,
        )

    def walked_once(self, walk: Callable[..., Iterator[Item]], *arguments: str) -> Iterable[Item]:
        """What ``walk(self, *arguments)`` yields, for the several rules that walk the same
        sites (a tool's schemas, the form schemas, the examples): walked once per document."""
        key = (walk, arguments)
        replayed = self._walks.get(key)
        if replayed is None:
            replayed = self._walks[key] = Replayed(walk(self, *arguments))
        return replayed

    def drop_walks(self) -> None:
        """Forget what ``walked_once`` kept, once the rules are done (at 20,000 tools it is
        tens of megabytes the page model has no use for)."""
        self._walks.clear()

    def scope_of(self, declaration: JsonObject) -> tuple[str, ...]:
        """The effective scope of a declaration directly under the root (a transport, a
        capability set): its own, else the root's."""
        return explicit_scope(declaration) or self.root_scope

    def primitives_of(self, kind: str) -> Iterator[Primitive]:
        return (p for p in self.primitives if p.kind == kind)

    @property
    def components(self) -> JsonObject:
        return as_object(self.data.get("components"))

    def resolve(self, value: object, pointer: str, namespace: str) -> Resolved | None:
        """What a use site stands for, as the resolution stage found it (``References.resolve``)."""
        return self.references.resolve(value, pointer, namespace)

    @property
    def resolution_problems(self) -> list[Finding]:
        """Why references do not resolve: one finding per broken use site or component (a
        cycle: one for the whole cycle); the component references rule reports them."""
        return self.references.problems

    @property
    def budget(self) -> Budget:
        """What checking this document's examples may spend, in all (see budget.py)."""
        if self._budget is None:
            self._budget = Budget.for_document(self.data)
        return self._budget

    def compiled_schema(self, schema: object) -> Compiled:
        """A schema of this document, compiled once per object: one tool's schema checks
        every example of the tool, and compiling is keyed by the schema's text, which would
        otherwise be written out again for each example."""
        return self.memos.by_object(compile_schema)(schema)

    def check_instance(self, schema: object, instance: object) -> InstanceCheck:
        """``instance`` checked against ``schema`` (a schema of this document), within the budget."""
        return check_instance(self.compiled_schema(schema), instance, self.budget)

    def resolved_form_schema(self, elicitation: Elicitation) -> Resolved | None:
        value = elicitation.data.get("requestedSchema")
        if value is None:
            return None
        return self.resolve(value, jp.join(elicitation.pointer, "requestedSchema"), "schemas")


def client_requirement_extensions(document: Document) -> Iterator[tuple[str, JsonObject]]:
    """(pointer, map) of each primitive's ``clientRequirements.extensions``, where declared."""
    for primitive in document.primitives:
        extensions = as_object(as_object(primitive.data.get("clientRequirements")).get("extensions"))
        if extensions:
            yield jp.join(primitive.pointer, "clientRequirements", "extensions"), extensions
