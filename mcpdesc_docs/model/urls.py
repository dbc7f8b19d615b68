"""Where things live on the site: page paths, tag page paths and the ids of anchors.

Page and tag paths and the page model's ids are made here, and every repeat on the site
(schema table rows included) is told apart by ``UniqueNames``: slugs of ``[a-z0-9._-]``,
a repeat gets ``-2``, ``-3`` ..., the same rule everywhere, checked in one place.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from typing import NamedTuple

from ..kinds import BY_NAME

_SLUG_UNSAFE = re.compile(r"[^a-z0-9._-]+")
_ANCHOR_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_FOLD = str.maketrans({"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "ł": "l", "þ": "th", "ı": "i"})
_WINDOWS_RESERVED = frozenset(
    {"con", "prn", "aux", "nul", *(f"com{n}" for n in range(1, 10)), *(f"lpt{n}" for n in range(1, 10))}
)
MAX_SLUG = 80

SINGLE_VARIANT = "declaration"
"""The section id of a page's only variant (several variants get ``variant-1`` ...)."""


def _digest(name: str) -> str:
    return hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]


def folded_accents(text: str) -> str:
    """``text`` with accented Latin letters folded to their ASCII letters (and the marks of
    other scripts dropped)."""
    if text.isascii():  # most names: NFKD leaves ASCII as it is, and none of it combines
        return text
    decomposed = unicodedata.normalize("NFKD", text.translate(_FOLD))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def slugify(name: str) -> str:
    """A file-name-safe, deterministic slug of only [a-z0-9._-]: never '.', '..', hidden, a
    Windows device name or longer than MAX_SLUG. Accented Latin letters are folded to ASCII
    so names stay readable; names with nothing left (other scripts) get a stable hash."""
    ascii_only = folded_accents(name.lower())
    slug = _SLUG_UNSAFE.sub("-", ascii_only).strip("-.")
    slug = re.sub(r"\.{2,}", ".", slug)
    if not slug:
        return f"item-{_digest(name)}" if name else "item"
    if len(slug) > MAX_SLUG:
        slug = f"{slug[: MAX_SLUG - 9].rstrip('-.')}-{_digest(name)}"
    if slug.split(".")[0] in _WINDOWS_RESERVED:
        slug = f"{slug}-"
    return slug


def anchor_id(prefix: str, name: str) -> str:
    part = _ANCHOR_UNSAFE.sub("-", name).strip("-")
    return f"{prefix}-{part}" if part else prefix


class UniqueNames:
    """Names unique within one namespace (a directory, a page): the first ``base`` is
    ``base`` itself, a repeat gets ``base-2``, ``base-3`` ... the first one not yet taken.

    Each base remembers the suffix it reached, so n equal names cost O(n), not O(n²): the
    suffixes below it were taken when it got there, and taken names stay taken."""

    def __init__(self) -> None:
        self._taken: set[str] = set()
        self._next_suffix: dict[str, int] = {}
        self.probes = 0
        """Candidates looked at so far: the tests check that it grows linearly."""

    def take(self, base: str) -> str:
        self.probes += 1
        if base not in self._taken:
            self._taken.add(base)
            return base
        suffix = self._next_suffix.get(base, 2)
        while True:
            candidate = f"{base}-{suffix}"
            self.probes += 1
            if candidate not in self._taken:
                break
            # Only names of another base's making ("a-2" declared before a repeated "a") are
            # skipped here, and each can block just one base: the work stays linear overall.
            suffix += 1
        self._next_suffix[base] = suffix + 1
        self._taken.add(candidate)
        return candidate


class PagePaths:
    """The site paths of one directory's pages, e.g. ``tools/search.html``: slugs of the
    names, unique within the directory."""

    def __init__(self, directory: str) -> None:
        self.directory = directory
        self._slugs = UniqueNames()

    def take(self, name: str) -> tuple[str, str]:
        """The slug and the path of the next page named ``name``."""
        slug = self._slugs.take(slugify(name))
        return slug, f"{self.directory}/{slug}.html"


def primitive_pages(kind: str) -> PagePaths:
    return PagePaths(BY_NAME[kind].directory)


def tag_pages() -> PagePaths:
    return PagePaths("tags")


class PageRef(NamedTuple):
    """A primitive page as the parts built for it know it: its path and its name."""

    path: str
    name: str

    def at(self, anchor: str) -> str:
        return f"{self.path}#{anchor}"


class PageAnchors:
    """The ids one primitive page hands out, in the page's reading order: the variants'
    sections first, then each variant's elicitation cards and examples. A repeat (two
    variants declaring the same elicitation name) gets a suffix, as ``UniqueNames`` does."""

    def __init__(self) -> None:
        self._ids = UniqueNames()

    def variants(self, count: int) -> list[str]:
        if count == 1:
            return [SINGLE_VARIANT]
        return [self._ids.take(f"variant-{n}") for n in range(1, count + 1)]

    def elicitation(self, name: str) -> str:
        return self._ids.take(anchor_id("elicitation", name))

    def example(self, name: str) -> str:
        return self._ids.take(anchor_id("example", name))

    def interaction(self, name: str) -> str:
        return self._ids.take(anchor_id("interaction", name))

    def completion(self, name: str) -> str:
        return self._ids.take(anchor_id("completion", name))


def section_prefix(variant_anchor: str) -> str:
    """What the ids inside a variant's sections start with (``variant-2-input-...``)."""
    return "" if variant_anchor == SINGLE_VARIANT else f"{variant_anchor}-"


# Ids on the overview page: one per declaration, so they need no allocation.


def transport_anchor(index: int) -> str:
    return f"transport-{index + 1}"


def capabilities_anchor(index: int) -> str:
    return f"capabilities-{index + 1}"


def scheme_anchor(name: str) -> str:
    return anchor_id("scheme", name)


def tag_anchor(name: str) -> str:
    return anchor_id("tag", name)


def component_anchor(namespace: str, name: str) -> str:
    return anchor_id(f"component-{namespace}", name)


__all__ = ["PageAnchors", "PagePaths", "PageRef", "UniqueNames", "anchor_id", "slugify"]
