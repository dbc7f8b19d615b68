"""Which items of two sequences (lines, or the identities of sequence items) stay, in time
that grows with their length, not with its square.

``difflib.SequenceMatcher`` looks for the longest common run again and again; without its
junk heuristic (which would leave lines such as ``type: string`` unmatched) that is
quadratic on the files ``migrate`` edits. This is a patience diff instead: common leading
and trailing items are matched first, then the items that occur exactly once on each side
are paired where their order agrees (the longest increasing run), and the gaps between
those pairs are matched the same way, down to a fixed depth; a gap small enough is matched
exactly, by difflib. Each level visits every item at most once, so the work is at most
``_DEPTH`` passes over the input (and a sort); what is left unmatched at the last level is
reported as changed, which costs exactness, never correctness: the caller replaces it whole.
"""

from __future__ import annotations

import bisect
import difflib
from collections.abc import Hashable, Sequence
from typing import Literal

_DEPTH = 8
# A range this small (the product of its two lengths) is matched exactly, by difflib: at most
# 64 times the length of its longer side, so the total stays linear.
_SMALL = 4096

Tag = Literal["equal", "replace", "delete", "insert"]
Opcode = tuple[Tag, int, int, int, int]


def opcodes(a: Sequence[Hashable], b: Sequence[Hashable]) -> list[Opcode]:
    """How ``a`` becomes ``b``, in ``difflib.SequenceMatcher.get_opcodes``'s form."""
    found: list[Opcode] = []
    i = j = 0
    for a_start, b_start, size in _blocks(_matches(a, b)):
        if i < a_start or j < b_start:
            found.append((_gap_tag(a_start - i, b_start - j), i, a_start, j, b_start))
        found.append(("equal", a_start, a_start + size, b_start, b_start + size))
        i, j = a_start + size, b_start + size
    if i < len(a) or j < len(b):
        found.append((_gap_tag(len(a) - i, len(b) - j), i, len(a), j, len(b)))
    return found


def _gap_tag(removed: int, added: int) -> Tag:
    return "replace" if removed and added else ("delete" if removed else "insert")


def _blocks(pairs: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """Matched index pairs (in order) as runs ``(a start, b start, length)``."""
    runs: list[tuple[int, int, int]] = []
    for i, j in pairs:
        if runs and runs[-1][0] + runs[-1][2] == i and runs[-1][1] + runs[-1][2] == j:
            runs[-1] = (runs[-1][0], runs[-1][1], runs[-1][2] + 1)
        else:
            runs.append((i, j, 1))
    return runs


def _matches(a: Sequence[Hashable], b: Sequence[Hashable]) -> list[tuple[int, int]]:
    pairs: list[tuple[int, int]] = []
    # Ranges a[a_lo:a_hi], b[b_lo:b_hi] still to match, and the depth left to them.
    pending = [(0, len(a), 0, len(b), _DEPTH)]
    while pending:
        a_lo, a_hi, b_lo, b_hi, depth = pending.pop()
        while a_lo < a_hi and b_lo < b_hi and a[a_lo] == b[b_lo]:
            pairs.append((a_lo, b_lo))
            a_lo, b_lo = a_lo + 1, b_lo + 1
        while a_lo < a_hi and b_lo < b_hi and a[a_hi - 1] == b[b_hi - 1]:
            a_hi, b_hi = a_hi - 1, b_hi - 1
            pairs.append((a_hi, b_hi))
        if a_lo == a_hi or b_lo == b_hi:
            continue
        if (a_hi - a_lo) * (b_hi - b_lo) <= _SMALL:
            pairs.extend(_closest(a, b, a_lo, a_hi, b_lo, b_hi))
            continue
        anchors = _unique_in_order(a, b, a_lo, a_hi, b_lo, b_hi) if depth else []
        if not anchors:
            continue  # nothing to hold on to: the range is a change
        starts = [(a_lo, b_lo)] + [(i + 1, j + 1) for i, j in anchors]
        ends = [*anchors, (a_hi, b_hi)]
        pairs.extend(anchors)
        for (gap_a, gap_b), (end_a, end_b) in zip(starts, ends, strict=True):
            if gap_a < end_a and gap_b < end_b:
                pending.append((gap_a, end_a, gap_b, end_b, depth - 1))
    pairs.sort()
    return pairs


def _closest(
    a: Sequence[Hashable], b: Sequence[Hashable], a_lo: int, a_hi: int, b_lo: int, b_hi: int
) -> list[tuple[int, int]]:
    matcher = difflib.SequenceMatcher(None, a[a_lo:a_hi], b[b_lo:b_hi], autojunk=False)
    return [(a_lo + i + k, b_lo + j + k) for i, j, size in matcher.get_matching_blocks() for k in range(size)]


def _unique_in_order(
    a: Sequence[Hashable], b: Sequence[Hashable], a_lo: int, a_hi: int, b_lo: int, b_hi: int
) -> list[tuple[int, int]]:
    """Pairs of items that occur once in ``a[a_lo:a_hi]`` and once in ``b[b_lo:b_hi]``, the
    longest run of them that is in the same order on both sides."""
    in_a = _once(a, a_lo, a_hi)
    in_b = _once(b, b_lo, b_hi)
    candidates = [(i, in_b[item]) for item, i in in_a.items() if i >= 0 and in_b.get(item, -1) >= 0]
    candidates.sort()
    # Patience sorting: tails[k] is the smallest b index ending an increasing run of k + 1.
    tails: list[int] = []
    tail_pair: list[int] = []
    previous: list[int] = []
    for index, (_, j) in enumerate(candidates):
        k = bisect.bisect_left(tails, j)
        previous.append(tail_pair[k - 1] if k else -1)
        if k == len(tails):
            tails.append(j)
            tail_pair.append(index)
        else:
            tails[k] = j
            tail_pair[k] = index
    run: list[tuple[int, int]] = []
    index = tail_pair[-1] if tail_pair else -1
    while index >= 0:
        run.append(candidates[index])
        index = previous[index]
    run.reverse()
    return run


def _once(items: Sequence[Hashable], lo: int, hi: int) -> dict[Hashable, int]:
    """Each item of ``items[lo:hi]`` with its index, or -1 when it occurs more than once."""
    seen: dict[Hashable, int] = {}
    for index in range(lo, hi):
        item = items[index]
        seen[item] = -1 if item in seen else index
    return seen
