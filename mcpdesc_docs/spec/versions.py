"""Which mcpdesc specification a document follows (never by fetching ``$schema``)."""

from __future__ import annotations

import re

from ..diagnostics import Diagnostic, error, warning
from ..records import record


@record
class Specification:
    """One supported snapshot of the mcpdesc format."""

    name: str
    """The snapshot, e.g. ``0.9.0-rc.3``."""
    mcpdesc: str
    """The value documents carry in their ``mcpdesc`` member."""
    schema_uri: str
    """The canonical ``$schema`` URI of the snapshot."""


SPEC_0_9_0_RC_3 = Specification("0.9.0-rc.3", "0.9.0", "https://mcpdesc.org/schema/mcp-description/0.9.0-rc.3.json")
SPEC_0_8_0 = Specification("0.8.0", "0.8.0", "https://mcpdesc.org/schema/mcp-description/0.8.0.json")
SPEC_0_7_0 = Specification("0.7.0", "0.7.0", "https://mcpdesc.org/schema/mcp-description/0.7.0.json")
"""The previous stable format, which descriptions dumped from live servers use today."""
SUPPORTED: tuple[Specification, ...] = (SPEC_0_9_0_RC_3, SPEC_0_8_0, SPEC_0_7_0)
# 0.7.0's own $id (its canonical text lived in cisco-open/mcptoolkit-contract).
_ALIASES = {"https://developer.cisco.com/mcp-description/schema/0.7.0": SPEC_0_7_0}

VERSION_RULE = "mcpdesc.document.version"
# mcpdesc.org snapshot URIs: .../schema/mcp-description/<version>[-<prerelease>].json, and
# the short form early 0.8.0 drafts used (.../schema/0.8.0.json).
_MCPDESC_ORG = re.compile(
    r"https://mcpdesc\.org/schema/(?:mcp-description/)?"
    r"(?P<version>\d+\.\d+\.\d+)(?:-(?P<pre>[0-9A-Za-z.-]+))?\.json"
)


@record
class Detection:
    specification: Specification | None
    diagnostics: list[Diagnostic]


def _supported_list() -> str:
    return ", ".join(spec.mcpdesc for spec in SUPPORTED)


def detect(data: object) -> Detection:
    """Choose the rules for a document from ``mcpdesc`` (and ``$schema`` when present)."""
    if not isinstance(data, dict):
        return Detection(
            None, [error("mcpdesc.document.members", "schema-validation", "a description must be an object", "")]
        )
    version = data.get("mcpdesc")
    if version is None:
        return Detection(
            None,
            [
                error(
                    VERSION_RULE,
                    "missing-snapshot-identity",
                    f"missing required member 'mcpdesc' (supported: {_supported_list()})",
                    "",
                )
            ],
        )
    if not isinstance(version, str):
        return Detection(
            None,
            [
                error(
                    VERSION_RULE,
                    "unsupported-specification",
                    f"'mcpdesc' must be a string such as \"0.9.0\", not {version!r}",
                    "/mcpdesc",
                )
            ],
        )
    spec = next((s for s in SUPPORTED if s.mcpdesc == version), None)
    if spec is None:
        return Detection(
            None,
            [
                error(
                    VERSION_RULE,
                    "unsupported-specification",
                    f"unsupported mcpdesc version {version!r}; supported: {_supported_list()}",
                    "/mcpdesc",
                )
            ],
        )
    diagnostics: list[Diagnostic] = []
    schema_uri = data.get("$schema")
    if isinstance(schema_uri, str) and _ALIASES.get(schema_uri) is spec:
        return Detection(spec, diagnostics)
    if isinstance(schema_uri, str) and schema_uri != spec.schema_uri:
        match = _MCPDESC_ORG.fullmatch(schema_uri)
        if match and match.group("version") != version:
            diagnostics.append(
                error(
                    VERSION_RULE,
                    "contradictory-snapshot-identity",
                    f"$schema names mcpdesc {match.group('version')} but 'mcpdesc' is {version!r}",
                    "/$schema",
                )
            )
        elif match:
            diagnostics.append(
                warning(
                    VERSION_RULE,
                    "unknown-schema-identity",
                    f"$schema names snapshot {schema_uri!r}; validated against {spec.name} "
                    f"(canonical $schema: {spec.schema_uri})",
                    "/$schema",
                )
            )
        else:
            diagnostics.append(
                warning(
                    VERSION_RULE,
                    "unknown-schema-identity",
                    f"$schema {schema_uri!r} is not a known mcpdesc schema; validated against "
                    f"{spec.name} from 'mcpdesc' (canonical $schema: {spec.schema_uri})",
                    "/$schema",
                )
            )
    return Detection(spec, diagnostics)
