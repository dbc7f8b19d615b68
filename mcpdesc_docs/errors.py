"""Exit codes, and the exception types that carry a user-facing outcome rather than a bug."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .diagnostics import Diagnostic


class ExitCode(enum.IntEnum):
    """The process exit status, for every command (as ruff and the CLI contract define it)."""

    OK = 0
    """Success; warnings allowed."""
    INVALID = 1
    """The description is invalid: any error, or any warning under ``--strict``; for
    ``diff --fail-on``, a change of the level asked for."""
    USAGE = 2
    """Usage, configuration, I/O, theme or internal problem."""
    INTERRUPTED = 130
    """Stopped by Ctrl-C (SIGINT): 128 plus the signal's number, as a shell reports it."""


class UsageError(Exception):
    """A problem with how the tool was called, or with the files it was pointed at (exit 2)."""


class DescriptionError(Exception):
    """The description cannot be read as a document at all (exit 1, located diagnostics)."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics
        self.text: str | None = None
        """The description's text when it could be decoded (reports quote its lines)."""


class ProjectError(UsageError):
    """A located problem in the project's own files, not the description: the config or a
    theme template (exit 2). Carries diagnostics, so every output format can show them."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics

    def __reduce__(self) -> tuple[type[ProjectError], tuple[list[Diagnostic]]]:
        # Made again from its diagnostics, not its message: a build worker (render.parallel)
        # hands a template's error back to the build whole.
        return (type(self), (self.diagnostics,))
