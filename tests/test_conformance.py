"""Upstream conformance fixtures: the folder a file sits in is its verdict.

The corpus is read in place from ``../shared/corpus/conformance-0.8.0`` (or
``$MCPDESC_CORPUS/conformance-0.8.0``): folders whose name contains ``invalid`` expect at
least one error, ``warning`` at least one warning and no error, ``valid`` no diagnostic.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mcpdesc_docs.validate import validate_file

from .helpers import describe

CORPUS = Path(os.environ.get("MCPDESC_CORPUS", Path(__file__).resolve().parents[2] / "shared" / "corpus"))
CONFORMANCE = CORPUS / "conformance-0.8.0"


def verdict_of(path: Path) -> str | None:
    for folder in reversed(path.relative_to(CONFORMANCE).parts[:-1]):
        name = folder.lower()
        for verdict in ("invalid", "warning", "valid"):
            if verdict in name:
                return verdict
    return None


def fixtures() -> list[tuple[Path, str]]:
    if not CONFORMANCE.is_dir():
        return []
    found = []
    for path in sorted(CONFORMANCE.rglob("*")):
        verdict = verdict_of(path) if path.suffix in {".json", ".yaml", ".yml"} else None
        if path.is_file() and verdict:
            found.append((path, verdict))
    return found


FIXTURES = fixtures()

# The rule that makes each fixture invalid or a warning, read from the specification (the
# digest's rule tables), not from this validator's output. Fixtures of the corpus without
# an entry here are checked for their verdict only.
EXPECTED_RULES: dict[str, str] = {
    # x-* names inside a component namespace are names; the value must still be an example.
    "component-extension-boundaries.json": "mcpdesc.components.members",
    # URL mode is not defined by 2025-06-18 (digest 4.9).
    "elicitation-version-mismatch.json": "mcp.elicitation.protocol-version",
    # x-* is not allowed on domain-keyed maps such as securitySchemes (digest 2.19, 4.1).
    "object-level-extension-in-domain-map.json": "mcpdesc.extensions.placement",
    # sse associated with 2025-03-26 or later (digest 4.3).
    "legacy-sse-modern-revision.json": "mcp.transport.legacy-sse",
    # capabilities.extensions before 2026-07-28 (digest 4.3, Proposal 0021).
    "pre-standard-extension-capabilities.json": "mcp.capabilities.extensions-pre-standard",
    # a reserved-prefix extension id missing from the official catalogue (digest 2.6).
    "unknown-reserved-extension-identifier.json": "mcp.extensions.identifier-authority",
}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    # No corpus, no cases (rather than one skipped placeholder); .ci/run says so.
    if "fixture_path" in metafunc.fixturenames and FIXTURES:
        metafunc.parametrize(
            ("fixture_path", "verdict"), FIXTURES, ids=[str(p.relative_to(CONFORMANCE)) for p, _ in FIXTURES]
        )


if FIXTURES:

    def test_fixture_verdict(fixture_path: Path, verdict: str) -> None:
        result = validate_file(fixture_path)
        errors = [d for d in result.diagnostics if d.is_error]
        warnings = [d for d in result.diagnostics if not d.is_error]
        expected_rule = EXPECTED_RULES.get(fixture_path.name)
        if expected_rule is not None:
            wanted = errors if verdict == "invalid" else warnings
            assert expected_rule in {d.rule for d in wanted}, describe(result.diagnostics)
        if verdict == "invalid":
            assert errors, "expected at least one error"
        elif verdict == "warning":
            assert not errors, describe(errors)
            assert warnings, "expected at least one warning"
        else:
            assert not result.diagnostics, describe(result.diagnostics)
