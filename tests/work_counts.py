"""Counting work instead of timing it: tests compare the counts at N and 2N."""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from mcpdesc_docs.model import schema_tree
from mcpdesc_docs.render import markdown, pages


def fresh_caches() -> None:
    """Text-keyed caches (kept for ``serve``) would let one size reuse the other's work."""
    markdown.clear_caches()
    schema_tree._tree_of_text.cache_clear()
    pages.breakable.cache_clear()


@contextmanager
def no_collections() -> Iterator[None]:
    """No garbage collection inside the block: a collection runs the Python callbacks in
    ``gc.callbacks`` (hypothesis installs one once any of its tests has run), which would
    be counted as the work's own calls whenever the allocations happen to trigger one."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def calls(work: Callable[[], Any]) -> int:
    """Python function calls made by ``work``, with the text caches emptied first."""
    fresh_caches()
    count = 0

    def profile(frame: object, event: str, arg: object) -> None:
        nonlocal count
        if event == "call":
            count += 1

    with no_collections():
        sys.setprofile(profile)
        try:
            work()
        finally:
            sys.setprofile(None)
    return count


def lines(work: Callable[[], Any]) -> int:
    """Python lines executed by ``work`` (caches emptied first): unlike calls, this counts
    the turns of a loop too."""
    fresh_caches()
    count = 0

    def trace(frame: Any, event: str, arg: object) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return trace

    with no_collections():
        sys.settrace(trace)
        try:
            work()
        finally:
            sys.settrace(None)
    return count
