"""Golden diagnostic text: what a user sees for a handful of broken inputs, byte for byte.

Each case is a command run in tests/golden/ (so file names print as written); its exit
code, stdout and stderr are compared with ``<case>.out``. After a deliberate change of
wording, refresh them with ``pytest tests/test_golden.py --update-golden`` and review the
diff like any other change.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .sites import run

GOLDEN = Path(__file__).parent / "golden"

CASES: dict[str, tuple[str, ...]] = {
    "yaml-profile": ("validate", "duplicate-key.mcpdesc.yaml"),
    "yaml-syntax": ("validate", "yaml-syntax.mcpdesc.yaml"),
    "yaml-syntax-json": ("validate", "yaml-syntax.mcpdesc.yaml", "--format", "json"),
    "did-you-mean": ("validate", "did-you-mean.mcpdesc.yaml"),
    "elicitation-form-url": ("validate", "form-url.mcpdesc.yaml"),
    "structure": ("validate", "structure.mcpdesc.json"),
    "warning": ("validate", "warning.mcpdesc.yaml"),
    "warning-strict-github": ("validate", "warning.mcpdesc.yaml", "--strict", "--format", "github"),
    "structure-json": ("validate", "structure.mcpdesc.json", "--format", "json"),
    "config": ("build", "config-case"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_diagnostic_text_matches_the_golden_file(case: str, monkeypatch: pytest.MonkeyPatch, request) -> None:
    monkeypatch.chdir(GOLDEN)
    code, out, err = run(*CASES[case])
    actual = f"$ mcpdesc-docs {' '.join(CASES[case])}\nexit {code}\n--- stdout\n{out}--- stderr\n{err}"
    expected_file = GOLDEN / f"{case}.out"
    if request.config.getoption("--update-golden"):
        expected_file.write_text(actual, encoding="utf-8")
    assert expected_file.is_file(), f"no golden file for {case}: run pytest with --update-golden"
    assert actual == expected_file.read_text(encoding="utf-8")


def test_every_golden_file_has_a_case() -> None:
    assert {p.stem for p in GOLDEN.glob("*.out")} == set(CASES)
