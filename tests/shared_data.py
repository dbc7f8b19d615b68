"""Where the shared test data lives (read in place, never copied), and what a test does
when it is missing: in CI (``CI`` set) that is a failure saying where it looked, so a run
without the corpus can never pass by collecting nothing; elsewhere the test is skipped
with the same message, so a fresh clone outside this layout still runs the rest."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CORPUS = Path(os.environ.get("MCPDESC_CORPUS", SHARED / "corpus"))
"""The upstream corpus (conformance fixtures, examples, 0.7.0 dumps); MCPDESC_CORPUS moves it."""
SPEC = Path(os.environ.get("MCPDESC_SPEC", SHARED / "spec"))
"""The specification text (the elicitation chapter); MCPDESC_SPEC moves it."""

CONFORMANCE = CORPUS / "conformance-0.8.0"
EXAMPLES_DIR = CORPUS / "examples"
EXAMPLES_070_DIR = CORPUS / "examples-0.7.0"
DESCRIPTION_SUFFIXES = {".yaml", ".yml", ".json"}


def descriptions_in(directory: Path) -> list[Path]:
    """The description files of a corpus folder, sorted; none when it is missing (its guard
    test then says so)."""
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.iterdir() if p.is_file() and p.suffix in DESCRIPTION_SUFFIXES)


def require(path: Path, what: str, variable: str = "MCPDESC_CORPUS") -> Path:
    """``path`` when it exists; otherwise fail under CI and skip elsewhere, naming the place."""
    if path.exists():
        return path
    message = f"corpus missing: {what}; looked for {path} (set {variable} to where it is)"
    if os.environ.get("CI"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message)
