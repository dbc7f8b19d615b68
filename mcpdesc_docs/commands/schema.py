"""``mcpdesc-docs schema [VERSION|config]``: print a JSON Schema for editors (docs/integrations.md)."""

from __future__ import annotations

from typing import TextIO

from ..diagnostics import write_json
from ..errors import ExitCode, UsageError
from ..spec.schema_export import config_schema, exported_schema, specification_named

CONFIG = "config"
VERSIONS = ("0.9.0", "0.8.0", "0.7.0")


def schema_for(target: str) -> dict[str, object]:
    """The schema of a format version (``0.9.0``...) or of mcpdesc-docs.yml (``config``)."""
    return config_schema() if target == CONFIG else exported_schema(specification_named(target))


def run(target: str | None, *, spec: str | None, out: TextIO) -> int:
    if target is not None and spec is not None and target != spec:
        raise UsageError(f"schema: {target!r} and --spec {spec} name different schemas; give one")
    write_json(out, schema_for(target or spec or VERSIONS[0]))
    return ExitCode.OK
