"""``git:REF:PATH``: how a description in a repository's history is named (``diff``'s sides,
the config's ``previous``). Only the name is read here; ``diff/history.py`` reads the file."""

from __future__ import annotations

GIT_PREFIX = "git:"


def split_git_spec(spec: str) -> tuple[str, str] | None:
    """(REF, PATH) of ``git:REF:PATH``; None when ``spec`` starts ``git:`` but names no REF
    or no PATH (or does not start so)."""
    if not spec.startswith(GIT_PREFIX):
        return None
    ref, colon, path = spec.removeprefix(GIT_PREFIX).partition(":")
    return (ref, path) if colon and ref and path else None


__all__ = ["GIT_PREFIX", "split_git_spec"]
