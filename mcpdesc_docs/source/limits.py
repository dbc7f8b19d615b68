"""Bounds on untrusted input, applied before and while it is parsed."""

from __future__ import annotations

from dataclasses import dataclass

LIMITS_RULE = "mcpdesc.input.limits"


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds applied to untrusted input before and while it is parsed."""

    max_bytes: int = 32 * 1024 * 1024
    max_depth: int = 128
    max_nodes: int = 2_000_000
    max_string_length: int = 1_000_000
    """Characters in one string (a key or a value)."""
    max_primitives: int = 10_000
    """Tools, resources, resource templates and prompts together (checked by the validator)."""

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return ("max_bytes", "max_depth", "max_nodes", "max_string_length", "max_primitives")


DEFAULT_LIMITS = Limits()
