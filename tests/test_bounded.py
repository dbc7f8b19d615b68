"""The property docs/security.md promises, checked on hostile descriptions of
every class found: within the limits, ``validate`` and ``build`` end in time and memory,
exit 0 or 1, print a bounded amount of plain text with nothing a terminal or a CI runner
would act on, and write a bounded site."""

from __future__ import annotations

import gc
import re
import sys
import warnings
from pathlib import Path

import pytest
import yaml

from .bounded import run_bounded
from .hostile_documents import CASES, text_of

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from generate import write as write_description

SECONDS = 50.0
"""CPU seconds: ten times the target for a 1 MB file (these are smaller)."""
PEAK_RSS = 1024**3
MAX_OUTPUT = 2 * 1024 * 1024
"""Bytes of printed text: the diagnostics are capped per rule and in total."""
SITE_FACTOR = 40
SITE_PER_PAGE = 10 * 1024
SITE_CONSTANT = 2 * 1024 * 1024
"""A site's size is bounded by a multiple of its input, a page skeleton (header, sidebar
window, footer) per page, and the theme: pages are bounded by limits.max_primitives."""
# C0 (but newline ending a line), DEL, C1, and the bidi and invisible format characters.
UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
WORKFLOW_COMMAND = re.compile(r"^\s*::", re.MULTILINE)


def write_case(tmp_path: Path, case: str, fmt: str) -> Path:
    text = text_of(case)
    if fmt == "yaml" and case not in ("huge-numbers", "injection"):
        # (For those two the JSON text is the YAML: it keeps literals no YAML emitter writes.)
        text = yaml.safe_dump(yaml.safe_load(text), allow_unicode=True, sort_keys=False, width=1_000_000)
    path = tmp_path / f"{case}.mcpdesc.{fmt}"
    path.write_text(text, encoding="utf-8")
    return path


def check_printed(text: str, *, workflow_commands: bool = False) -> None:
    assert len(text.encode()) <= MAX_OUTPUT, f"{len(text.encode())} bytes printed"
    assert "internal error" not in text
    assert "Traceback" not in text
    unsafe = UNSAFE.search(text)
    assert unsafe is None, (
        f"unescaped {unsafe.group()!r} at {unsafe.start()}: {text[max(0, unsafe.start() - 60) : unsafe.start() + 20]!r}"
    )
    if not workflow_commands:
        assert WORKFLOW_COMMAND.search(text) is None, "a line a CI runner would execute"


@pytest.mark.parametrize("fmt", ["json", "yaml"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_validate_is_bounded_on_hostile_input(tmp_path: Path, case: str, fmt: str) -> None:
    path = write_case(tmp_path, case, fmt)
    for output_format in ("text", "github", "json"):
        done = run_bounded("validate", str(path), "--format", output_format, seconds=SECONDS)
        assert done.returncode in (0, 1), done.stdout[-2000:] + done.stderr[-2000:]
        assert done.peak_rss_bytes < PEAK_RSS, f"{done.peak_rss_bytes / 2**20:.0f} MB"
        check_printed(done.stdout, workflow_commands=output_format == "github")
        check_printed(done.stderr)
        if output_format == "github":
            lines = done.stdout.splitlines()
            if lines and lines[-1].startswith("... and "):
                lines.pop()  # what the cap left out, counted
            assert all(re.match(r"::(error|warning) file=", line) for line in lines)


@pytest.mark.parametrize("case", sorted(CASES))
def test_build_is_bounded_on_hostile_input(tmp_path: Path, case: str) -> None:
    path = write_case(tmp_path, case, "json")
    site = tmp_path / "site"
    done = run_bounded("build", str(path), "-o", str(site), seconds=SECONDS)
    assert done.returncode in (0, 1), done.stdout[-2000:] + done.stderr[-2000:]
    assert done.peak_rss_bytes < PEAK_RSS, f"{done.peak_rss_bytes / 2**20:.0f} MB"
    check_printed(done.stdout)
    check_printed(done.stderr)
    if done.returncode == 0:
        size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
        pages = sum(1 for _ in site.rglob("*.html"))
        assert size <= SITE_FACTOR * path.stat().st_size + SITE_PER_PAGE * pages + SITE_CONSTANT, f"{size} bytes"
    else:
        assert not site.exists()


def test_a_child_over_its_cpu_budget_is_stopped_reaped_and_reported(tmp_path: Path) -> None:
    # About three CPU seconds of validation (3,000 tools), allowed one: the kernel stops it at
    # one CPU second however loaded the machine is, and the child is reaped, so no Popen
    # is left to warn that it still runs (a warning the suite turns into an error).
    path = tmp_path / "large.mcpdesc.yaml"
    write_description(3000, path)
    with pytest.raises(AssertionError, match=r"used over 1 s of CPU time"):
        run_bounded("validate", str(path), seconds=1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gc.collect()
    assert [w for w in caught if issubclass(w.category, ResourceWarning)] == []
