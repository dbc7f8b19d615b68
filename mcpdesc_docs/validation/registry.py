"""Semantic rules: a registry of small functions keyed by the spec's rule id.

Each rule receives the shared :class:`~mcpdesc_docs.validation.document.Document` view and
yields every problem it finds; the validator runs all of them and collects everything.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeAlias

from ..diagnostics import Diagnostic
from .document import Document

Rule: TypeAlias = Callable[[Document], Iterable[Diagnostic]]

REGISTRY: dict[str, Rule] = {}


def rule(rule_id: str) -> Callable[[Rule], Rule]:
    """Register a check under the rule id it enforces (one function per id)."""

    def register(function: Rule) -> Rule:
        if rule_id in REGISTRY:
            raise RuntimeError(f"rule {rule_id} registered twice")
        REGISTRY[rule_id] = function
        return function

    return register


def load_rules() -> dict[str, Rule]:
    # Importing the modules registers their rules.
    from .rules import (  # noqa: F401
        applicability,
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
    )

    return REGISTRY
