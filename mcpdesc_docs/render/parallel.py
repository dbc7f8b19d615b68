"""A large site's primitive pages rendered in worker processes of the tool's own.

The workers are forked once the site's model is made, so they share it (copy-on-write)
instead of receiving it; each renders a run of consecutive pages (neighbours share most
of their sidebar, which a worker renders once), writes them straight into the staging
directory, and sends back only the pages' search entries, in order. Nothing else is run:
no program, no connection; a fork is the only new process.

Workers die with the build: each asks the kernel to end it when its parent dies
(``PR_SET_PDEATHSIG``), and the pool is shut down before the build returns, however it
ends. A worker that dies (killed, out of memory) fails the build with one clear message;
the staging directory is then deleted and the previous site is untouched.
"""

from __future__ import annotations

import ctypes
import os
import signal
from collections.abc import Callable
from typing import Any, TypeVar

from ..errors import UsageError

MIN_PAGES_PER_WORKER = 50
"""Below this many pages a worker costs more (forking, loading the templates, its own
sidebar fragments) than it saves; smaller sites render in the build's own process. On 2
cores (15 alternated builds each, medians): two workers broke even at 84 pages (0.607 s
against 0.617 s in one process), lost at 50 (0.539 s against 0.495 s) and won at 123
(0.77-0.78 s against 0.84-0.85 s, YAML and JSON). So a build forks two workers from 100
pages."""
CHUNKS_PER_WORKER = 4
"""Runs of pages per worker: enough that a fast worker takes over from a slow one."""
_PR_SET_PDEATHSIG = 1

Chunk = Callable[[int, int], tuple[list[str], int]]
"""Renders pages ``start:stop`` and writes them: their search entries, and pages rendered."""

_work: Callable[[int, int], Any] | None = None
"""The chunk renderer of the build being forked (a closure over its model, its theme and
its staging directory): set just before the workers are forked, which inherit it."""

Result = TypeVar("Result")


class BuildWorkerError(UsageError):
    """A worker stopped before its pages were written (exit 2)."""


def usable_cores() -> int:
    """The cores this process may run on (its affinity, a container's limit), at least one."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def jobs_allowed(requested: int | None, configured: int | None) -> int:
    """The workers a build may use: ``-j`` over the config's ``jobs:``, and the usable
    cores when neither says (or ``-j auto``, 0)."""
    chosen = requested if requested is not None else configured
    return chosen or usable_cores()


def workers_for(pages: int, jobs: int) -> int:
    """How many workers render ``pages`` pages when ``jobs`` may: 1 means in-process."""
    if jobs <= 1 or not hasattr(os, "fork"):
        return 1
    return max(1, min(jobs, pages // MIN_PAGES_PER_WORKER))


def _die_with_parent() -> None:
    """In each worker: ended by the kernel if the build's process dies, so none outlives
    it even when it is killed outright (Linux; elsewhere the pool's pipes close)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the build's to handle
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _run(start: int, stop: int) -> Any:
    if _work is None:  # pragma: no cover - only a worker forked by render_in_workers runs this
        raise RuntimeError("a build worker was started without its work")
    return _work(start, stop)


def render_in_workers(
    pages: int, chunk: Chunk, workers: int, meanwhile: Callable[[], None] | None = None
) -> tuple[list[str], int]:
    """``chunk`` over ``0:pages`` in ``workers`` forked processes: the search entries in page
    order, and the pages rendered. ``meanwhile`` runs in this process once the work is
    handed out: the build renders its other pages then, instead of leaving a core idle
    before the fork."""
    entries: list[str] = []
    rendered = 0
    for found, count in map_in_workers(pages, chunk, workers, meanwhile):
        entries.extend(found)
        rendered += count
    return entries, rendered


def map_in_workers(
    items: int, chunk: Callable[[int, int], Result], workers: int, meanwhile: Callable[[], None] | None = None
) -> list[Result]:
    """``chunk`` over consecutive runs of ``0:items`` in ``workers`` forked processes: each
    run's result, in order (a portal renders its servers so, each run a few servers).
    ``meanwhile`` runs in this process once the runs are handed out."""
    # Imported here: a small site never forks, and these cost a build 15 ms to import.
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    global _work
    size = max(1, -(-items // (workers * CHUNKS_PER_WORKER)))
    bounds = [(start, min(start + size, items)) for start in range(0, items, size)]
    _work = chunk
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"), initializer=_die_with_parent)
    try:
        futures = [pool.submit(_run, start, stop) for start, stop in bounds]
        if meanwhile is not None:
            meanwhile()
        return [future.result() for future in futures]
    except BrokenProcessPool:
        raise BuildWorkerError(
            "a build worker stopped before its pages were written (killed, or out of memory); "
            "nothing was published (try -j 1)"
        ) from None
    finally:
        _work = None
        pool.shutdown(wait=True, cancel_futures=True)


__all__ = ["BuildWorkerError", "jobs_allowed", "map_in_workers", "render_in_workers", "usable_cores", "workers_for"]
