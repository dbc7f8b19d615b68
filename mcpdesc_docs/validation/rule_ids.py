"""Rule ids that the structural check and a semantic rule both report under, or that one
rule's explanation names, written once here (every other id is written once, where its
rule is registered)."""

COMPONENT_REFERENCES = "mcpdesc.components.references"
FORM_SCHEMA_MEMBERS = "mcp.elicitation.form-schema.members"
INPUT_SCHEMA_MEMBERS = "mcp.tool.input-schema.members"
PROTOCOL_SCOPE_CONSISTENCY = "mcpdesc.protocol-scope.consistency"
EXTENSION_PLACEMENT = "mcpdesc.extensions.placement"
TOOL_SCHEMA_VALID = "mcp.tool.schema-valid"
