"""MCP protocol revisions ("protocol versions") and what each one supports."""

from __future__ import annotations

from collections.abc import Iterable

REVISIONS: tuple[str, ...] = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28")
"""The closed set, oldest first; ISO dates, so string order is chronological order."""

LEGACY: frozenset[str] = frozenset({"2024-11-05", "2025-03-26"})
"""Revisions that get structural and selected sound checks only (spec section 3.5)."""

COMPLETE_VALIDATION_FLOOR = "2025-06-18"


def before(revisions: Iterable[str], floor: str) -> list[str]:
    """The revisions in scope that are older than ``floor``, sorted."""
    return sorted(r for r in revisions if r < floor)


def outside(revisions: Iterable[str], allowed: Iterable[str]) -> list[str]:
    allowed_set = set(allowed)
    return sorted(r for r in revisions if r not in allowed_set)


def modern(revisions: Iterable[str]) -> list[str]:
    """The revisions that get complete protocol-specific validation."""
    return sorted(r for r in revisions if r not in LEGACY)


def describe(revisions: Iterable[str]) -> str:
    return ", ".join(sorted(revisions))
