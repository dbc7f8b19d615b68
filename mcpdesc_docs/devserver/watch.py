"""Watching the project: which changes count, and the stream of debounced batches."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

from watchfiles import Change, DefaultFilter, watch

ChangeBatch = set[tuple[Change, str]]


class ChangeFilter(DefaultFilter):
    """The changes that count: under a watched directory or to a watched file, minus
    watchfiles' defaults (version control, caches, editor swap files) and the paths the
    builder and the server write themselves (their own output must never trigger a build)."""

    def __init__(self, watched: Sequence[Path], ignore: Sequence[Path]) -> None:
        super().__init__()
        # Whole path components, not string prefixes: ignoring site/ must not ignore site.css.
        resolved = [path.resolve() for path in watched]
        self._files = frozenset(path for path in resolved if not path.is_dir())
        self._directories = tuple(path for path in resolved if path.is_dir())
        self._ignored = tuple(path.resolve() for path in ignore)

    def __call__(self, change: Change, path: str) -> bool:
        if not super().__call__(change, path):
            return False
        candidate = Path(path).resolve()
        if any(candidate == ignored or ignored in candidate.parents for ignored in self._ignored):
            return False
        return candidate in self._files or any(d == candidate or d in candidate.parents for d in self._directories)

    def relevant(self, batch: Iterable[tuple[Change, str]]) -> list[str]:
        """The changed paths of a batch that should cause a rebuild, sorted."""
        return sorted({path for change, path in batch if self(change, path)})


def watch_roots(paths: Sequence[Path]) -> list[str]:
    """What to ask the operating system to watch: directories as they are, and for a file
    its directory (editors save by replacing the file, which a watch on the file itself
    would lose); the filter then keeps only the watched files' changes."""
    roots: dict[str, None] = {}
    for path in paths:
        resolved = path.resolve()
        target = resolved if resolved.is_dir() else resolved.parent
        if target.exists():
            roots.setdefault(str(target), None)
    return list(roots)


def file_changes(paths: Sequence[Path], stop_event: threading.Event) -> Iterable[ChangeBatch]:
    """Debounced batches of raw changes under ``paths`` until ``stop_event`` is set. They are
    filtered by the consumer (one ``ChangeFilter``), so test sources go through the same filter."""
    return watch(*watch_roots(paths), debounce=150, step=30, stop_event=stop_event, raise_interrupt=True)
