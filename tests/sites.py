"""Helpers for tests that build sites and inspect the HTML as parsed trees."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

from bs4 import BeautifulSoup

from mcpdesc_docs.cli import main
from mcpdesc_docs.source.load import read_source

from .shared_data import CORPUS, EXAMPLES_DIR, ROOT, descriptions_in

SAMPLE_DIR = ROOT / "sample-site"
SAMPLE = SAMPLE_DIR / "helpdesk.mcpdesc.yaml"
EXAMPLES = descriptions_in(EXAMPLES_DIR)
"""The upstream 0.8.0 examples, read in place (none without the corpus: test_corpus says so)."""


def description_files() -> list[Path]:
    """Every description the project has at hand: the corpus (when present), test fixtures, the sample."""
    roots = [CORPUS, ROOT / "tests" / "fixtures", SAMPLE_DIR]
    suffixes = {".yaml", ".yml", ".json"}
    return sorted(p for root in roots if root.is_dir() for p in root.rglob("*") if p.suffix in suffixes)


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def build(path: Path, site_dir: Path, *extra: str) -> tuple[int, str, str]:
    return run("build", str(path), "-o", str(site_dir), *extra)


def load_data(path: Path) -> dict:
    data = read_source(path).data
    assert isinstance(data, dict)
    return data


def parse(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def html_pages(site_dir: Path) -> Iterator[Path]:
    yield from sorted(site_dir.rglob("*.html"))


def snapshot(directory: Path) -> dict[str, bytes]:
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}
