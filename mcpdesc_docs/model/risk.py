"""What a tool may do to the world, as the marks lists show beside its name.

MCP gives tool annotations defaults for when a server says nothing: not read-only,
destructive, not idempotent, open world. A reader should see those assumptions too (as
the MCP Inspector shows them), so a mark says whether it was declared or only implied.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..records import record

DEFAULTS = {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False, "openWorldHint": True}
"""MCP's values for the behaviour hints a tool leaves out."""


@record
class RiskMark:
    key: str
    """``read-only``, ``destructive``, ``non-destructive``, ``idempotent`` or ``open-world``;
    ``partials/words.html`` words it."""
    tone: str
    """``ok`` (green), ``danger`` (red), ``warn`` (amber) or ``neutral``."""
    implied: bool
    """Not declared: what MCP assumes when the hint is left out (shown dashed)."""


def risk_marks(declared: Iterable[tuple[str, bool]]) -> tuple[RiskMark, ...]:
    """The marks of a tool declaring these (hint, value) pairs, most telling first."""
    hints = dict(declared)

    def value(key: str) -> tuple[bool, bool]:
        """The hint's value, and whether it was only implied."""
        return (hints[key], False) if key in hints else (DEFAULTS[key], True)

    marks = []
    read_only, implied = value("readOnlyHint")
    if read_only:
        marks.append(RiskMark("read-only", "ok", implied))
    else:
        destructive, implied = value("destructiveHint")
        if destructive:
            marks.append(RiskMark("destructive", "danger", implied))
        else:
            marks.append(RiskMark("non-destructive", "neutral", implied))
        if hints.get("idempotentHint") is True:
            marks.append(RiskMark("idempotent", "neutral", False))
    open_world, implied = value("openWorldHint")
    if open_world:
        marks.append(RiskMark("open-world", "warn", implied))
    return tuple(marks)
