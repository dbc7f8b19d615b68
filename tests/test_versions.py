"""Specification detection from `mcpdesc` and `$schema`."""

from __future__ import annotations

import pytest

from mcpdesc_docs.spec.versions import SPEC_0_7_0, SPEC_0_8_0, SPEC_0_9_0_RC_3, detect


@pytest.mark.parametrize(("value", "expected"), [("0.9.0", SPEC_0_9_0_RC_3), ("0.8.0", SPEC_0_8_0)])
def test_known_versions(value: str, expected: object) -> None:
    detection = detect({"mcpdesc": value})
    assert detection.specification is expected
    assert detection.diagnostics == []


def test_canonical_schema_uris_are_recognised() -> None:
    for spec in (SPEC_0_9_0_RC_3, SPEC_0_8_0, SPEC_0_7_0):
        assert detect({"mcpdesc": spec.mcpdesc, "$schema": spec.schema_uri}).diagnostics == []
    cisco = "https://developer.cisco.com/mcp-description/schema/0.7.0"
    assert detect({"mcpdesc": "0.7.0", "$schema": cisco}) == detect({"mcpdesc": "0.7.0"})
    assert detect({"mcpdesc": "0.7.0"}).specification == SPEC_0_7_0


@pytest.mark.parametrize("value", ["0.6.0", "0.9.0-rc.3", "1.0.0"])
def test_unsupported_versions(value: str) -> None:
    detection = detect({"mcpdesc": value})
    assert detection.specification is None
    (diagnostic,) = detection.diagnostics
    assert diagnostic.message == f"unsupported mcpdesc version {value!r}; supported: 0.9.0, 0.8.0, 0.7.0"
    assert diagnostic.path == "/mcpdesc"


def test_missing_version() -> None:
    (diagnostic,) = detect({"info": {}}).diagnostics
    assert diagnostic.code == "missing-snapshot-identity"


def test_contradictory_schema_is_an_error() -> None:
    detection = detect({"mcpdesc": "0.9.0", "$schema": "https://mcpdesc.org/schema/mcp-description/0.8.0.json"})
    (diagnostic,) = detection.diagnostics
    assert diagnostic.is_error
    assert diagnostic.code == "contradictory-snapshot-identity"


def test_prerelease_and_foreign_schema_uris_warn() -> None:
    for uri in ("https://mcpdesc.org/schema/mcp-description/0.8.0-rc.2.json", "https://example.com/my-schema.json"):
        (diagnostic,) = detect({"mcpdesc": "0.8.0", "$schema": uri}).diagnostics
        assert not diagnostic.is_error
        assert diagnostic.code == "unknown-schema-identity"
