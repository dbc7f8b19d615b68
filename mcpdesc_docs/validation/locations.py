"""What kind of object a JSON Pointer lands in, and which members rule governs it."""

from __future__ import annotations

from collections.abc import Sequence

from ..kinds import BY_COLLECTION
from .rule_ids import FORM_SCHEMA_MEMBERS, INPUT_SCHEMA_MEMBERS

_EXAMPLE_MEMBERS = {"examples", "interactionExamples", "completionExamples"}


def object_kind(parts: Sequence[str | int]) -> str:
    """The innermost spec object (by our naming) that contains the location."""
    if not parts:
        return "document"
    head = parts[0]
    if head in BY_COLLECTION:
        if len(parts) < 3:
            return BY_COLLECTION[str(head)].name if len(parts) == 2 else "document"
        member = parts[2]
        if member == "elicitations" and len(parts) >= 4:
            if len(parts) >= 5 and parts[4] == "requestedSchema" and len(parts) > 5:
                return "form-schema"
            return "elicitation"
        if member in _EXAMPLE_MEMBERS and len(parts) >= 4:
            return "examples"
        if member == "security" and len(parts) >= 4:
            return "security-requirement"
        if member == "clientRequirements":
            return "client-requirements"
        if member == "inputSchema":
            return "input-schema"
        if member == "outputSchema":
            return "output-schema"
        return BY_COLLECTION[str(head)].name
    if head == "transports":
        return "security-requirement" if "security" in parts[2:3] and len(parts) >= 4 else "transport"
    if head == "security":
        return "security-requirement"
    if head == "securitySchemes":
        return "oauth-flows" if "flows" in parts else "security-scheme"
    return {
        "info": "info",
        "capabilities": "capabilities",
        "components": "components",
        "tags": "tags",
    }.get(str(head), "document")


MEMBERS_RULE: dict[str, str] = {
    "document": "mcpdesc.document.members",
    "info": "mcpdesc.info.members",
    "transport": "mcpdesc.transport.members",
    "security-scheme": "mcpdesc.security.scheme-members",
    "oauth-flows": "mcpdesc.security.oauth-flows",
    "security-requirement": "mcpdesc.security.requirement-members",
    "capabilities": "mcpdesc.capabilities.members",
    "components": "mcpdesc.components.members",
    "tags": "mcpdesc.tags.members",
    "tool": "mcpdesc.tool.members",
    "resource": "mcpdesc.resource.members",
    "resource-template": "mcpdesc.resource-template.members",
    "prompt": "mcpdesc.prompt.members",
    "elicitation": "mcpdesc.elicitation.members",
    "form-schema": FORM_SCHEMA_MEMBERS,
    "examples": "mcpdesc.examples.members",
    "client-requirements": "mcpdesc.client-requirements.members",
    "input-schema": INPUT_SCHEMA_MEMBERS,
    "output-schema": "mcp.tool.output-schema.members",
}
