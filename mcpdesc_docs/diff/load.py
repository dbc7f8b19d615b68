"""The two sides of a diff: a description file, or ``git:REF:PATH`` read from a repository's
history (``history.py``). Each side must be readable as a
description of a known format (else its problems are reported, located, and nothing is
compared); one with validation errors is still compared, and the errors counted, since an
example that no longer fits its schema says nothing about what changed for a client."""

from __future__ import annotations

from pathlib import Path

from ..errors import DescriptionError, ProjectError
from ..records import record
from ..source.git_spec import GIT_PREFIX
from ..source.limits import DEFAULT_LIMITS, Limits
from ..source.load import Source, format_of, parse_bytes, read_source
from ..validation.validator import validate_source
from .view import View, view_of


@record
class Side:
    name: str
    """How reports name it: the path, or ``git:REF:PATH``."""
    file: str
    """The file annotations point at (the PATH of a ``git:`` side)."""
    source: Source
    view: View
    version: str | None
    """``info.version``, when it is a string (the Changes page says "since 1.2.0")."""
    errors: int = 0
    """Validation errors found in it (``validate`` shows them)."""


def _from_git(spec: str, limits: Limits, cwd: Path | None) -> tuple[Source, str]:
    from .history import read_from_history  # dulwich, only for a git: side

    raw, path = read_from_history(spec, limits.max_bytes, cwd)
    return parse_bytes(raw, spec, fmt=format_of(path), limits=limits), path


def read_side_source(spec: str, limits: Limits = DEFAULT_LIMITS, cwd: Path | None = None) -> tuple[Source, str]:
    """A side's text, parsed, and the file annotations name. UsageError when it cannot be
    read; ProjectError when it is not JSON or YAML in the profile. ``cwd``: where a ``git:``
    side's repository is looked for (default: the current directory)."""
    try:
        if spec.startswith(GIT_PREFIX):
            return _from_git(spec, limits, cwd)
        return read_source(Path(spec), limits=limits, name=spec), spec
    except DescriptionError as exc:
        raise ProjectError(exc.diagnostics) from None


def side_of(spec: str, source: Source, file: str, limits: Limits = DEFAULT_LIMITS) -> Side:
    """A side read by ``read_side_source``, validated and seen as a client sees it.
    ProjectError (located diagnostics) when it is no description of a known format."""
    result = validate_source(source, limits)
    errors = [d for d in result.diagnostics if d.is_error]
    if result.checked is None:
        raise ProjectError(errors or result.diagnostics)
    document = result.checked.document
    info = document.data.get("info")
    version = info.get("version") if isinstance(info, dict) else None
    return Side(spec, file, source, view_of(document), version if isinstance(version, str) else None, len(errors))


def read_side(spec: str, limits: Limits = DEFAULT_LIMITS, cwd: Path | None = None) -> Side:
    """One side, read and validated (``read_side_source``, then ``side_of``)."""
    source, file = read_side_source(spec, limits, cwd)
    return side_of(spec, source, file, limits)


__all__ = ["Side", "read_side", "read_side_source", "side_of"]
