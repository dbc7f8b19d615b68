"""Validate one description many times in one process and report the time (run by hand).

    .venv/bin/python bench/validate_many.py [FILE] [TIMES]

The default file is the corpus's 0.8.0-full-featured.yaml (../shared/corpus/examples, or
$MCPDESC_CORPUS/examples); the target is 100 validations in under 2 seconds in total.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from mcpdesc_docs.validation.validator import validate_file

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("MCPDESC_CORPUS", ROOT.parent / "shared" / "corpus"))


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else CORPUS / "examples" / "0.8.0-full-featured.yaml"
    times = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    started = time.perf_counter()
    first = validate_file(path)
    first_done = time.perf_counter()
    for _ in range(times - 1):
        result = validate_file(path)
        assert result.diagnostics == first.diagnostics
    total = time.perf_counter() - started
    print(
        f"{path.name}: {times} validations in {total:.3f} s (first {first_done - started:.3f} s, "
        f"then {(total - (first_done - started)) / max(times - 1, 1) * 1000:.1f} ms each); "
        f"{first.errors} errors, {first.warnings} warnings"
    )


if __name__ == "__main__":
    main()
