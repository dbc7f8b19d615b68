"""``did you mean`` hints for misspelt member names, as compilers and linters give them."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

CUTOFF = 0.75
"""difflib's similarity ratio a known name needs to be offered: ``inputSchma`` (0.95) and
``readOnlyHnt`` (0.96) are, ``colour`` for ``title`` is not."""


def closest(name: str, known: Iterable[str]) -> str | None:
    """The known name ``name`` most likely misspells, if one is close enough."""
    close = difflib.get_close_matches(name, sorted(set(known)), n=1, cutoff=CUTOFF)
    return close[0] if close else None


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """`` (did you mean 'inputSchema'?)``, or "" when no known name is close."""
    match = closest(name, known)
    return f" (did you mean {match!r}?)" if match else ""
