"""What every area of the page model reads: the document and the parts built before it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..records import record
from ..validation.document import Document, Elicitation
from .components import Repeats
from .site import SecurityView, Transport


@record
class BuildContext:
    """Made once per build (``builder.build_context``), before any page: an area that needs
    the transports or the tag catalogue finds them here, already built, whatever order the
    areas are built in."""

    document: Document
    transports: tuple[Transport, ...]
    declared_tags: frozenset[str]
    """The names in the root ``tags`` catalogue."""
    elicitations: Mapping[str, tuple[Elicitation, ...]]
    """Each primitive's elicitation declarations, by the primitive's pointer."""
    inherited_security: Mapping[str, SecurityView]
    """By primitive kind: what a declaration without its own requirement gets."""
    repeats: Repeats
    """The one part filled in while pages are built (in page order): which components
    have been shown in full, and where."""

    @property
    def data(self) -> Mapping[str, Any]:
        return self.document.data

    @property
    def root_scope(self) -> tuple[str, ...]:
        return self.document.root_scope

    @property
    def server_default(self) -> bool:
        """Whether the server declares a default security requirement."""
        return "security" in self.document.data
