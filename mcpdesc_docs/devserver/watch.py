"""Watching the project: which changes count, and the stream of debounced batches."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

from watchfiles import Change, DefaultFilter, watch

ChangeBatch = set[tuple[Change, str]]


class ChangeFilter(DefaultFilter):
    """watchfiles' defaults (version control, caches, editor swap files), plus the paths the
    builder and the server write themselves: their own output must never trigger a build."""

    def __init__(self, ignore: Sequence[Path]) -> None:
        super().__init__()
        # Whole path components, not string prefixes: ignoring site/ must not ignore site.css.
        self._ignored = tuple(path.resolve() for path in ignore)

    def __call__(self, change: Change, path: str) -> bool:
        if not super().__call__(change, path):
            return False
        candidate = Path(path).resolve()
        return not any(candidate == ignored or ignored in candidate.parents for ignored in self._ignored)

    def relevant(self, batch: Iterable[tuple[Change, str]]) -> list[str]:
        """The changed paths of a batch that should cause a rebuild, sorted."""
        return sorted({path for change, path in batch if self(change, path)})


def file_changes(paths: Sequence[Path], stop_event: threading.Event) -> Iterable[ChangeBatch]:
    """Debounced batches of raw changes under ``paths`` until ``stop_event`` is set. They are
    filtered by the consumer (one ``ChangeFilter``), so test sources go through the same filter."""
    existing = [str(p.resolve()) for p in paths if p.exists()]
    return watch(*existing, debounce=150, step=30, stop_event=stop_event, raise_interrupt=True)
