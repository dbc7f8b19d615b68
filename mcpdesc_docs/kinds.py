"""The four primitive kinds, once: how each is named in a description, in rule ids and on the site."""

from __future__ import annotations

from .records import record


@record
class Kind:
    name: str
    """``tool``, ``resource``, ``resource-template`` or ``prompt``: the name rule ids, page
    hooks (``data-primitive``) and the page model use."""
    collection: str
    """The root member that lists them (``resourceTemplates``)."""
    identity: str
    """The member that identifies one (``name``, ``uri`` or ``uriTemplate``)."""
    examples_namespace: str
    """The components namespace their ``examples`` may reference (``toolExamples``)."""
    directory: str
    """The site directory of their pages (``resource-templates``)."""
    title: str
    """The catalogue heading (``Resource templates``)."""
    singular: str
    """One of them, capitalised (``Resource template``)."""


TOOL = Kind("tool", "tools", "name", "toolExamples", "tools", "Tools", "Tool")
RESOURCE = Kind("resource", "resources", "uri", "resourceExamples", "resources", "Resources", "Resource")
RESOURCE_TEMPLATE = Kind(
    "resource-template",
    "resourceTemplates",
    "uriTemplate",
    "resourceTemplateExamples",
    "resource-templates",
    "Resource templates",
    "Resource template",
)
PROMPT = Kind("prompt", "prompts", "name", "promptExamples", "prompts", "Prompts", "Prompt")

KINDS: tuple[Kind, ...] = (TOOL, RESOURCE, RESOURCE_TEMPLATE, PROMPT)
"""In the order descriptions, catalogues and sidebars list them."""
KIND_NAMES: tuple[str, ...] = tuple(kind.name for kind in KINDS)
BY_NAME: dict[str, Kind] = {kind.name: kind for kind in KINDS}
BY_COLLECTION: dict[str, Kind] = {kind.collection: kind for kind in KINDS}
