"""Process-wide interpreter settings a build changes, each set only for the work that needs
it and put back on the way out, whatever ends that work (an error, Ctrl-C): a caller that
runs ``main`` in its own process (tests, an editor plugin) gets its interpreter back as it
was."""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager


def _nothing() -> None:
    pass


@contextmanager
def frozen_heap() -> Iterator[Callable[[], None]]:
    """Freeze what the process holds now (``gc.freeze``), so full collections no longer walk
    it, and unfreeze it on leaving. Gives a function that freezes what was made since (call
    it once a large structure is complete).

    When something is frozen already, the caller manages the permanent generation (serve's
    heap tidier does): unfreezing ours would unfreeze theirs as well, so nothing is frozen
    or unfrozen here and the function does nothing."""
    if gc.get_freeze_count():
        yield _nothing
        return
    gc.freeze()
    try:
        yield gc.freeze
    finally:
        gc.unfreeze()


@contextmanager
def switch_interval_at_most(seconds: float) -> Iterator[None]:
    """Let threads take the GIL from each other at least every ``seconds`` inside the block
    (``sys.setswitchinterval``); the interval before is restored on leaving."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(min(before, seconds))
    try:
        yield
    finally:
        sys.setswitchinterval(before)


__all__ = ["frozen_heap", "switch_interval_at_most"]
