"""What a rule finds, before the runner stamps it with the rule's id, and the bounds on how
much one check may find.

Its own module, below both the rules' registry and the Document: the Document records the
findings of reference resolution, and the registry runs the rules over a Document, so
neither may be where the other's vocabulary lives.
"""

from __future__ import annotations

from ..diagnostics import Diagnostic, Severity, error
from ..records import record
from ..source.limits import LIMITS_RULE


@record
class Finding:
    """One problem a rule found; it becomes a Diagnostic once the runner adds the rule id."""

    severity: Severity
    code: str
    message: str
    path: str
    requirement: str | None = None
    hint: str | None = None

    @classmethod
    def error(
        cls, code: str, message: str, path: str, requirement: str | None = None, *, hint: str | None = None
    ) -> Finding:
        return cls(Severity.ERROR, code, message, path, requirement, hint)

    @classmethod
    def warning(
        cls, code: str, message: str, path: str, requirement: str | None = None, *, hint: str | None = None
    ) -> Finding:
        return cls(Severity.WARNING, code, message, path, requirement, hint)

    def stamped(self, rule_id: str) -> Diagnostic:
        return Diagnostic(self.severity, rule_id, self.code, self.message, self.path, self.requirement, hint=self.hint)


INTERNAL_ERROR = "internal-error"
"""The code of the diagnostic that stands for a crashed rule."""
TOO_MANY_FINDINGS = "input-too-many-findings"
"""The code of the diagnostic that stands for the findings a check stopped before."""

MAX_FINDINGS = 10_000
"""Findings one check (a rule, or the structural schema) collects before it stops. A
report shows far fewer (diagnostics.MAX_SHOWN); this bounds the memory and time a hostile
description can make one check spend, whatever the check, with one diagnostic saying so."""


def too_many_findings(check: str) -> Diagnostic:
    """The one diagnostic that stands for the findings a check did not collect."""
    return error(
        LIMITS_RULE,
        TOO_MANY_FINDINGS,
        f"the check for {check} stopped after {MAX_FINDINGS} problems, so the description is only partly "
        "checked; fix these and validate again",
        "",
    )
