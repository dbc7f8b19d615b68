"""Watching the project: which changes count, and the stream of debounced batches."""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from watchfiles import Change, DefaultFilter, watch

from ..records import record

ChangeBatch = set[tuple[Change, str]]


def real_path(path: str | os.PathLike[str]) -> Path:
    """``path`` absolute, with its symbolic links followed as far as they lead. Unlike
    ``Path.resolve`` (Python 3.11) it never raises: a description replaced by a link to
    itself is a broken file for the build to report, not a crash of the watcher."""
    return Path(os.path.realpath(path))


class ChangeFilter(DefaultFilter):
    """The changes that count: under a watched directory or to a watched file, minus
    watchfiles' defaults (version control, caches, editor swap files) and the paths the
    builder and the server write themselves (their own output must never trigger a build)."""

    def __init__(self, watched: Sequence[Path], ignore: Sequence[Path]) -> None:
        super().__init__()
        # Whole path components, not string prefixes: ignoring site/ must not ignore site.css.
        resolved = [real_path(path) for path in watched]
        self._files = frozenset(path for path in resolved if not path.is_dir())
        self._directories = tuple(path for path in resolved if path.is_dir())
        self._ignored = tuple(real_path(path) for path in ignore)

    def __call__(self, change: Change, path: str) -> bool:
        if not super().__call__(change, path):
            return False
        candidate = real_path(path)
        if any(candidate == ignored or ignored in candidate.parents for ignored in self._ignored):
            return False
        return candidate in self._files or any(d == candidate or d in candidate.parents for d in self._directories)

    def relevant(self, batch: Iterable[tuple[Change, str]]) -> list[str]:
        """The changed paths of a batch that should cause a rebuild, sorted."""
        return sorted({path for change, path in batch if self(change, path)})


@record
class WatchRoots:
    """What to ask the operating system to watch."""

    trees: list[str]
    """Directories watched with everything under them (a custom_dir, the built-in themes)."""
    directories: list[str]
    """Directories watched for their own entries only: those holding a watched file."""


def watch_roots(paths: Sequence[Path]) -> WatchRoots:
    """Directories as they are, with their subdirectories; for a file, its directory
    (editors save by replacing the file, which a watch on the file itself would lose) but
    not that directory's subdirectories: a description's directory is the project's, and
    what else it holds (a node_modules, a directory serve may not read) is none of serve's
    business. The filter then keeps only the watched files' changes."""
    trees: dict[str, None] = {}
    directories: dict[str, None] = {}
    for path in paths:
        resolved = real_path(path)
        if resolved.is_dir():
            trees.setdefault(str(resolved), None)
        elif resolved.parent.exists():
            directories.setdefault(str(resolved.parent), None)
    # A directory already inside a watched tree would report each change twice.
    inside_a_tree = [d for d in directories if any(Path(d).is_relative_to(tree) for tree in trees)]
    for directory in inside_a_tree:
        del directories[directory]
    return WatchRoots(list(trees), list(directories))


def file_changes(paths: Sequence[Path], stop_event: threading.Event) -> Iterable[ChangeBatch]:
    """Debounced batches of raw changes under ``paths`` until ``stop_event`` is set. They are
    filtered by the consumer (one ``ChangeFilter``), so test sources go through the same filter.
    What cannot be read (a subdirectory of a custom_dir that serve's user may not list) is
    left out instead of ending the watch."""
    roots = watch_roots(paths)
    watches = [
        watch(
            *watched,
            debounce=150,
            step=30,
            stop_event=stop_event,
            raise_interrupt=True,
            recursive=recursive,
            ignore_permission_denied=True,
        )
        for watched, recursive in ((roots.trees, True), (roots.directories, False))
        if watched
    ]
    if len(watches) == 1:
        return watches[0]
    return _merged(watches)


_END = None


def _merged(sources: Sequence[Iterator[ChangeBatch]]) -> Iterator[ChangeBatch]:
    """The batches of several watches as one stream (watchfiles watches all its paths either
    recursively or not). Each source runs in a thread of its own and ends with the stop
    event; the first error of any source ends the stream with that error."""
    batches: queue.Queue[ChangeBatch | BaseException | None] = queue.Queue()

    def drain(source: Iterator[ChangeBatch]) -> None:
        try:
            for batch in source:
                batches.put(batch)
        except BaseException as exc:  # noqa: BLE001 - handed to the consumer, which raises it
            batches.put(exc)
        finally:
            batches.put(_END)

    for source in sources:
        threading.Thread(target=drain, args=(source,), daemon=True).start()
    running = len(sources)
    while running:
        item = batches.get()
        if item is _END:
            running -= 1
        elif isinstance(item, BaseException):
            raise item
        else:
            yield item
