"""What a rule id means, for users: the documentation each rule declares where it is
defined (registered, or named by the structural check or the reader), so that no rule can
be added without it. ``mcpdesc-docs rules`` and docs/rules.md show it; every diagnostic
points to it."""

from __future__ import annotations

import textwrap

from .diagnostics import Severity
from .records import record


@record
class RuleDoc:
    """A rule's explanation. ``bad`` and ``good`` are YAML fragments of a description: the
    top-level members they hold replace those of a minimal valid description (the one
    ``mcpdesc-docs rules`` names), and tests/test_rule_docs.py holds each to its word (the bad
    one is reported under the rule, with one of ``codes``, and the good one is clean)."""

    summary: str
    """One line: what the rule requires."""
    rationale: str
    """Why: what breaks, for a reader or a client, when a description ignores it."""
    bad: str
    good: str
    requirements: tuple[str, ...]
    """Where the requirement is written: the mcpdesc reference digest's section, and the
    0.9.0-rc.3 chapter's ``req-*`` anchors where they apply."""
    codes: tuple[str, ...]
    """The specific codes the rule reports (a diagnostic's ``code``)."""
    severity: Severity = Severity.ERROR
    """The severity of what the bad example shows; a rule may also report the other one
    (listed among its codes), e.g. a warning where it could not check everything."""
    also: tuple[str, ...] = ()
    """Other rules the bad example cannot help breaking too (one mistake, two rules)."""


def fragment(text: str) -> str:
    """A YAML example as written in the code, indented with it: dedented, without the
    leading line break of the triple quotes."""
    return textwrap.dedent(text).lstrip("\n")
