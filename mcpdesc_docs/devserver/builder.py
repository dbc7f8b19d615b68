"""What the dev server needs from whoever builds the site: the seam that keeps the server
free of the pipeline (MkDocs gives its live-reload server a builder callback the same way)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Protocol

from ..diagnostics import Diagnostic
from ..records import record


@record
class Rebuild:
    """The outcome of one build: the site's files, or why there are none."""

    files: Mapping[str, bytes] | None
    """Site-relative POSIX path -> content; None when the build failed."""
    diagnostics: tuple[Diagnostic, ...] = ()
    """Located problems (the description's, the config's, a template's)."""
    message: str | None = None
    """A problem that has no location (a missing file, a usage problem)."""
    pages: int = 0

    @property
    def ok(self) -> bool:
        return self.files is not None


class Builder(Protocol):
    """Builds the site on demand and says which files it depends on."""

    def build(self, changed: Sequence[str] = ()) -> Rebuild:
        """Build once. ``changed`` lists the paths whose change caused this build (empty for
        the first), so the builder can tell what it may reuse."""
        ...

    def watch_paths(self) -> Sequence[Path]:
        """Files and directories whose changes should trigger a rebuild."""
        ...

    def ignore_paths(self) -> Sequence[Path]:
        """Paths under the watched ones whose changes never should (an output directory)."""
        ...
