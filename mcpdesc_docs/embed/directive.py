"""What a fenced ``mcpdesc`` block asks for: its body is a YAML mapping of options.

    ```mcpdesc
    path: sample-site/helpdesk.mcpdesc.yaml
    tool: create_ticket
    ```

A fence, not MkDocs' ``::: name`` line: mkdocstrings reads every line that starts with
``:::`` as an identifier to document, so ``::: mcpdesc ...`` would be taken by it on any
site that uses it; a fenced block with its own info string is left alone by mkdocstrings,
and shows as a plain code block wherever the extension is not installed (GitHub)."""

from __future__ import annotations

import yaml

from ..kinds import BY_COLLECTION, BY_NAME, KINDS
from ..records import record

PRIMITIVE_OPTIONS: dict[str, str] = {kind.name: kind.name for kind in KINDS}
"""``tool: NAME``, ``resource: NAME``, ``resource-template: NAME``, ``prompt: NAME``."""
KNOWN_OPTIONS = ("path", "kind", "heading", *PRIMITIVE_OPTIONS)
DEFAULT_HEADING = 2
MAX_OPTIONS_TEXT = 4096


class DirectiveError(ValueError):
    """A block whose options cannot be read (its message says which and why)."""


@record
class Selection:
    path: str
    """The description, relative to the extension's ``base_dir``."""
    kind: str | None = None
    """A kind's name: every primitive of it (or the one named ``name``)."""
    name: str | None = None
    """One primitive's name (``kind`` is then its kind)."""
    heading: int = DEFAULT_HEADING
    """The level of the block's top headings (a primitive's title, or a kind's)."""


def read_selection(text: str) -> Selection:
    """The options of a block, or DirectiveError."""
    if len(text) > MAX_OPTIONS_TEXT:
        raise DirectiveError(f"the options are longer than {MAX_OPTIONS_TEXT} characters")
    try:
        options = yaml.safe_load(text) if text.strip() else None
    except yaml.YAMLError as exc:
        raise DirectiveError(f"the options are not YAML: {str(exc).splitlines()[0]}") from None
    if not isinstance(options, dict):
        raise DirectiveError("the options must be a mapping, at least `path: FILE`")
    unknown = sorted(str(key) for key in options if key not in KNOWN_OPTIONS)
    if unknown:
        raise DirectiveError(f"unknown option {unknown[0]!r} (known: {', '.join(KNOWN_OPTIONS)})")
    path = options.get("path")
    if not isinstance(path, str) or not path or "\0" in path:
        raise DirectiveError("`path` must name the description file")
    chosen = [key for key in PRIMITIVE_OPTIONS if key in options]
    if len(chosen) > 1 or (chosen and "kind" in options):
        raise DirectiveError("name one primitive (tool, resource, ...) or one kind, not several")
    heading = options.get("heading", DEFAULT_HEADING)
    if not isinstance(heading, int) or isinstance(heading, bool) or not 1 <= heading <= 5:
        raise DirectiveError("`heading` must be a heading level from 1 to 5")
    if chosen:
        name = options[chosen[0]]
        if not isinstance(name, str) or not name:
            raise DirectiveError(f"`{chosen[0]}` must be the primitive's name")
        return Selection(path, kind=chosen[0], name=name, heading=heading)
    kind = options.get("kind")
    if kind is None:
        return Selection(path, heading=heading)
    found = (BY_NAME.get(kind) or BY_COLLECTION.get(kind)) if isinstance(kind, str) else None
    if found is None:
        kinds = ", ".join(k.collection for k in KINDS)
        raise DirectiveError(f"`kind` must be one of {kinds}")
    return Selection(path, kind=found.name, heading=heading)
