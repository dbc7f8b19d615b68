"""Per-version knowledge of the mcpdesc format: versions, protocol revisions, schemas."""
