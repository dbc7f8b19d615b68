"""Hostile descriptions against validation (issue 15): whatever they hold, within the input
limits, `validate` ends in a time proportional to the input, exits 0 or 1, and says what it
could not check instead of crashing or running for hours.

Inputs that used to hang run in a subprocess with a time and memory bound of about ten times
the target (so a regression fails by its own timeout); linearity is shown by counting work
(budget units, Python calls or lines) at N and 2N, never by timing.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest

MEMORY = 1 << 30
"""Peak address space allowed to a validating subprocess (issue 15: under 1 GB)."""


def bounded_validate(path: Path, seconds: float = 10.0) -> subprocess.CompletedProcess[str]:
    """``mcpdesc-docs validate`` in a subprocess under a wall-clock, CPU and memory bound."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
        resource.setrlimit(resource.RLIMIT_CPU, (int(seconds) + 1, int(seconds) + 1))

    return subprocess.run(
        [sys.executable, "-m", "mcpdesc_docs", "validate", str(path), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=seconds,
        preexec_fn=limit,
        check=False,
    )


# --- 7. Numbers beyond a double ------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
@pytest.mark.parametrize("digits", [5000, 310, 900_000])
def test_a_huge_integer_is_refused_where_it_is(tmp_path, suffix, digits):
    path = tmp_path / f"d{suffix}"
    number = "9" * digits
    if suffix == ".json":
        path.write_text('{"mcpdesc": "0.9.0",\n  "x-n": [1, -' + number + "]}\n")
        expected = (2, 14)
    else:
        path.write_text(f"mcpdesc: 0.9.0\nx-n:\n  - 1\n  - -{number}\n")
        expected = (4, 5)
    result = bounded_validate(path)
    assert result.returncode == 1, result.stderr
    [diagnostic] = json.loads(result.stdout)["diagnostics"]
    assert (diagnostic["rule"], diagnostic["code"]) == ("mcpdesc.input.limits", "input-number-too-large")
    assert (diagnostic["line"], diagnostic["column"]) == expected
    assert f"({digits} digits)" in diagnostic["message"]
    assert len(result.stdout) < 2000  # the number itself is not repeated


def test_the_largest_double_is_still_a_number(tmp_path):
    path = tmp_path / "d.json"
    path.write_text('{"mcpdesc": "0.9.0", "x-n": [' + str(int(sys.float_info.max)) + ", 1.7e308]}")
    result = bounded_validate(path)
    assert "input-number-too-large" not in result.stdout


def test_a_float_overflowing_to_infinity_is_located_in_json(tmp_path):
    path = tmp_path / "d.json"
    path.write_text('{"mcpdesc": "0.9.0",\n  "x-n": [1, 1e99999]}\n')
    result = bounded_validate(path)
    [diagnostic] = json.loads(result.stdout)["diagnostics"]
    assert diagnostic["code"] == "non-finite-number"
    assert (diagnostic["line"], diagnostic["column"]) == (2, 14)
