"""The semantic rules in ``serve``: what the local rules found, kept per primitive between
rebuilds, so that an edit checks again only the primitives it changed.

A rule registered with ``local=True`` (registry.Rule.local) finds two kinds of things: some
about the root (transports, capabilities, security schemes, tags: every member but the four
primitive collections), and some about one primitive, located under its pointer, which
depend on that primitive and the root alone. So while the root is unchanged, the findings
about a primitive that is unchanged (the same object at the same pointer: ``serve`` hands
unchanged values over as the very objects of the last read) are those of last time; only a
changed primitive is checked again, alone (``Document.alone``), with the other findings
taken from what was kept. What changed is not worked out here: the build session computes
it once per rebuild (``source.changes``) and tells every cache (``advance``).

This holds only while no primitive holds a ``$componentRef``: a shared component's form
schema is reported once for all the primitives using it, and a reference cycle once for
the whole cycle, so a finding is not the affair of one primitive. Descriptions with
references are checked in full on every rebuild, as ``build`` checks them.
"""

from __future__ import annotations

from collections.abc import Container, Iterable
from dataclasses import dataclass, field

from ..diagnostics import Diagnostic
from ..source.changes import RootMembers, SourceChange, Staleness, root_members
from .document import Document, Elicitation, Primitive
from .findings import INTERNAL_ERROR, MAX_FINDINGS, TOO_MANY_FINDINGS
from .memo import ByObject
from .references import COMPONENT_REF
from .registry import Rule, findings_of

_STOPPED = frozenset({INTERNAL_ERROR, TOO_MANY_FINDINGS})
"""Codes of a rule that stopped short (it crashed, or found too many): its findings are not
the sum of its parts, so they are not kept."""

FEW_CHANGED = 32
"""Changed primitives that are always checked alone, however small the description."""
CHANGED_SHARE = 8
"""Beyond FEW_CHANGED, more than one primitive in CHANGED_SHARE changed (an item inserted
near the top moves every pointer after it) is checked in full: checking each alone costs
more per primitive than one pass over them all."""


def _holds_reference(value: object) -> bool:
    """Whether a ``$componentRef`` appears anywhere in the value (a loop, not recursion:
    the data may be deep)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if COMPONENT_REF in item:
                return True
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _owner(path: str, pointers: Container[str]) -> str | None:
    """The pointer of the primitive a finding lies in (``/tools/3`` for ``/tools/3/name``),
    or None for a finding about the root."""
    parts = path.split("/", 3)
    if len(parts) < 3 or parts[0]:
        return None
    head = f"/{parts[1]}/{parts[2]}"
    return head if head in pointers else None


def _within(path: str, pointer: str) -> bool:
    return path == pointer or path.startswith(pointer + "/")


@dataclass(slots=True)
class _Kept:
    """One local rule's findings, split by where they are."""

    root: list[Diagnostic] = field(default_factory=list)
    parts: dict[str, list[Diagnostic]] = field(default_factory=dict)
    """Primitive pointer -> the findings under it (primitives without any are left out)."""

    def size(self) -> int:
        return len(self.root) + sum(len(part) for part in self.parts.values())

    def findings(self) -> list[Diagnostic]:
        return [*self.root, *(finding for part in self.parts.values() for finding in part)]


def _split(found: list[Diagnostic], pointers: Container[str]) -> _Kept | None:
    if any(finding.code in _STOPPED for finding in found):
        return None
    kept = _Kept()
    for finding in found:
        owner = _owner(finding.path or "", pointers)
        if owner is None:
            kept.root.append(finding)
        else:
            kept.parts.setdefault(owner, []).append(finding)
    return kept


class RuleCache:
    """What the local rules found in the last description ``serve`` checked. ``run`` gives
    the findings of every rule, as a full run would; ``advance`` must tell it, before each
    run, what changed since the last."""

    def __init__(self) -> None:
        self._pointers: set[str] | None = None
        """The pointers of the primitives the kept findings are of (None: nothing kept)."""
        self._kept: dict[str, _Kept] = {}
        self._references = ByObject(_holds_reference)
        self._staleness = Staleness()
        self.checked_alone = 0
        """Primitives the last run checked alone (for tests: an edit of one tool checks one)."""
        self.checked_in_full = False
        """Whether the last run checked the whole description."""

    def advance(self, change: SourceChange) -> None:
        self._staleness.add(change)

    def run(self, document: Document, rules: Iterable[Rule]) -> list[Diagnostic]:
        staleness = self._staleness
        staleness.check_told("the rule cache")
        try:
            return self._run(document, list(rules), staleness)
        finally:
            staleness.caught_up()

    def _run(self, document: Document, rules: list[Rule], staleness: Staleness) -> list[Diagnostic]:
        self.checked_alone, self.checked_in_full = 0, True
        if any(self._references(primitive.data) for primitive in document.primitives):
            self._forget()
            return findings_of(rules, document)
        if self._pointers is None or staleness.everything or staleness.root:
            # A reference outside the components (a transport's security, say) is resolved by
            # the rules too. Looked for only when the root changed.
            root = root_members(document.data)
            if any(_holds_reference(value) for key, value in root if key != "components"):
                self._forget()
                return findings_of(rules, document)
            return self._run_and_keep(document, rules)
        changed = [primitive for primitive in document.primitives if primitive.pointer in staleness.primitives]
        if len(changed) > max(FEW_CHANGED, len(document.primitives) // CHANGED_SHARE):
            return self._run_and_keep(document, rules)
        self.checked_alone, self.checked_in_full = len(changed), False
        return self._run_changed(document, rules, changed, self._pointers)

    def _forget(self) -> None:
        self._pointers, self._kept = None, {}

    def _run_and_keep(self, document: Document, rules: list[Rule]) -> list[Diagnostic]:
        pointers = {primitive.pointer for primitive in document.primitives}
        found: list[Diagnostic] = []
        self._kept = {}
        for registered in rules:
            result = registered.run(document)
            found.extend(result)
            if registered.local:
                self._keep(registered.id, result, pointers)
        self._pointers = pointers
        return found

    def _keep(self, rule_id: str, found: list[Diagnostic], pointers: Container[str]) -> None:
        kept = _split(found, pointers)
        if kept is None:
            self._kept.pop(rule_id, None)
        else:
            self._kept[rule_id] = kept

    def _run_changed(
        self, document: Document, rules: list[Rule], changed: list[Primitive], before: set[str]
    ) -> list[Diagnostic]:
        current = {primitive.pointer for primitive in document.primitives}
        removed = [pointer for pointer in before if pointer not in current]
        root = root_members(document.data)
        views = self._views(document, root, changed)
        found: list[Diagnostic] = []
        for registered in rules:
            kept = self._kept.get(registered.id) if registered.local else None
            if kept is not None and self._update(kept, registered, views, removed):
                found.extend(kept.findings())
                continue
            # Not local, or it stopped short now or last time: the whole description, as a build does.
            result = registered.run(document)
            found.extend(result)
            if registered.local:
                self._keep(registered.id, result, current)
        self._pointers = current
        return found

    @staticmethod
    def _views(document: Document, root: RootMembers, changed: list[Primitive]) -> list[tuple[str, Document]]:
        """Each changed primitive as the only one of the document, in document order."""
        elicitations: dict[str, list[Elicitation]] = {primitive.pointer: [] for primitive in changed}
        for elicitation in document.elicitations:
            mine = elicitations.get(elicitation.primitive.pointer)
            if mine is not None:
                mine.append(elicitation)
        data = dict(root)
        return [
            (primitive.pointer, document.alone(primitive, elicitations[primitive.pointer], data))
            for primitive in changed
        ]

    @staticmethod
    def _update(kept: _Kept, registered: Rule, views: list[tuple[str, Document]], removed: list[str]) -> bool:
        """Check the changed primitives alone and put what the rule finds there in place of
        what was kept; False (``kept`` then stands for nothing) when the rule stopped short."""
        fresh: list[tuple[str, list[Diagnostic]]] = []
        for pointer, view in views:
            result = registered.run(view)
            if any(finding.code in _STOPPED for finding in result):
                return False
            # The view's root findings are those kept: the root is the same.
            fresh.append((pointer, [finding for finding in result if _within(finding.path or "", pointer)]))
        for pointer in removed:
            kept.parts.pop(pointer, None)
        for pointer, part in fresh:
            if part:
                kept.parts[pointer] = part
            else:
                kept.parts.pop(pointer, None)
        return kept.size() <= MAX_FINDINGS


__all__ = ["RuleCache"]
