"""Semantic rules: one registry of small functions keyed by the spec's rule id, for every format.

A rule receives the shared :class:`~mcpdesc_docs.validation.document.Document` view and
yields a :class:`~mcpdesc_docs.validation.findings.Finding` for every problem it sees: what
is wrong and where, but not its own id. The runner stamps each finding with the id the rule
is registered under, so the id is written once, at registration (as jsonschema's validator
adds the keyword to what a keyword function yields).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeAlias

from ..diagnostics import Diagnostic, Severity
from ..records import record
from ..rule_docs import RuleDoc
from ..spec.versions import SPEC_0_8_0, SPEC_0_9_0_RC_3, Specification
from .document import Document
from .findings import INTERNAL_ERROR, MAX_FINDINGS, Finding, too_many_findings

Check: TypeAlias = Callable[[Document], Iterable[Finding]]

CURRENT_FORMATS: tuple[Specification, ...] = (SPEC_0_9_0_RC_3, SPEC_0_8_0)
"""The formats a rule applies to unless it says otherwise: 0.8.0 and 0.9.0-rc.3 share their rules."""


@record
class Rule:
    """A registered check and the formats whose documents it checks."""

    id: str
    check: Check
    formats: tuple[Specification, ...]
    local: bool = False
    """Whether what the rule finds splits into a part about the root (everything outside
    the primitive collections) and one part per primitive, located under the primitive's
    pointer and depending on that primitive and the root only, in a description whose
    primitives hold no component reference. ``serve`` then keeps the parts per primitive
    between rebuilds and checks again only the primitives an edit changed (rule_cache.py)."""
    doc: RuleDoc | None = None
    """What the rule means, for users (``mcpdesc-docs rules ID``); :func:`rule` requires it."""

    def run(self, document: Document) -> list[Diagnostic]:
        """The rule's findings as diagnostics, at most MAX_FINDINGS of them. A crash is our
        bug, never the document's: it becomes one more error after what the rule found before
        it, so nothing is lost, the other rules still run, and the document is reported
        invalid rather than unchecked."""
        found: list[Diagnostic] = []
        try:
            for finding in self.check(document):
                if len(found) == MAX_FINDINGS:
                    found.append(too_many_findings(f"rule {self.id}"))
                    break
                found.append(finding.stamped(self.id))
        except Exception as exc:  # noqa: BLE001 - reported as a diagnostic naming the rule
            found.append(self._crash(exc))
        return found

    def _crash(self, exc: Exception) -> Diagnostic:
        return Diagnostic(
            Severity.ERROR,
            self.id,
            INTERNAL_ERROR,
            f"internal error: the check for rule {self.id} crashed with {type(exc).__name__}: {exc}; "
            "this is a bug in mcpdesc-docs, please report it together with the description",
            "",
        )


REGISTRY: dict[str, Rule] = {}


def rule(
    rule_id: str, *, doc: RuleDoc, formats: tuple[Specification, ...] = CURRENT_FORMATS, local: bool = False
) -> Callable[[Check], Check]:
    """Register a check under the rule id it enforces (one function per id, in any format),
    with the explanation users read (docs/rules.md, ``mcpdesc-docs rules ID``).
    ``local``: see :attr:`Rule.local`; tests/test_rule_cache.py holds every such rule to it."""

    def register(function: Check) -> Check:
        if rule_id in REGISTRY:
            raise RuntimeError(f"rule {rule_id} registered twice")
        REGISTRY[rule_id] = Rule(rule_id, function, formats, local, doc)
        return function

    return register


def load_rules() -> dict[str, Rule]:
    """Every registered rule, of every format, in registration order."""
    # Importing the modules registers their rules.
    from .rules import (  # noqa: F401
        applicability,
        authoring,
        client_requirements,
        components,
        elicitation,
        extensions,
        interaction_examples,
        meta,
        read_examples,
        scope,
        security,
        tags,
        tool_examples,
        tool_schemas,
        v070,
    )

    return REGISTRY


def rules_for(specification: Specification) -> dict[str, Rule]:
    """The rules that check documents of one format, in registration order."""
    return {rule_id: registered for rule_id, registered in load_rules().items() if specification in registered.formats}


def findings_of(rules: Iterable[Rule], document: Document) -> list[Diagnostic]:
    """What the rules find in the document, rule by rule."""
    return [finding for registered in rules for finding in registered.run(document)]
