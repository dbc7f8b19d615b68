"""The documentation: a short README that keeps the two set-up commands CI relies on, and
pages in docs/ that a reader finds from docs/index.md and the MkDocs site lists."""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from markdown_it import MarkdownIt

from .shared_data import ROOT

DOCS = ROOT / "docs"
README = ROOT / "README.md"
MAX_README_BYTES = 12 * 1024
BUILD_THE_SAMPLE = "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/mcpdesc-docs build sample-site"
TEST_COMMAND = ".venv/bin/ruff check . && .venv/bin/mypy && .venv/bin/pytest"


def local_links(page: Path) -> set[Path]:
    """The files a Markdown page links to by relative path (anchors dropped)."""
    tokens = MarkdownIt("commonmark").parse(page.read_text(encoding="utf-8"))
    targets: set[Path] = set()
    for token in tokens:
        for child in token.children or []:
            href = str(child.attrs.get("href", "")) if child.type == "link_open" else ""
            path = href.split("#", 1)[0]
            if path and not re.match(r"[a-z][a-z0-9+.-]*:", path):
                targets.add((page.parent / path).resolve())
    return targets


def test_every_page_is_reachable_from_the_index():
    pages = {page.resolve() for page in DOCS.glob("*.md")}
    reached, queue = set(), [(DOCS / "index.md").resolve()]
    while queue:
        page = queue.pop()
        if page in reached or page not in pages:
            continue
        reached.add(page)
        queue.extend(local_links(page))
    assert sorted(p.name for p in pages - reached) == []


def test_the_site_lists_every_page():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))

    def listed(entries: list) -> set[str]:
        found: set[str] = set()
        for entry in entries:
            for value in entry.values() if isinstance(entry, dict) else [entry]:
                found |= listed(value) if isinstance(value, list) else {value}
        return found

    assert config["docs_dir"] == "docs"
    assert {page.name for page in DOCS.glob("*.md")} <= listed(config["nav"])


def test_the_readme_is_short_and_keeps_the_set_up_commands():
    text = README.read_text(encoding="utf-8")
    assert len(text.encode()) <= MAX_README_BYTES
    blocks = re.findall(r"```sh\n(.*?)\n```", text, re.DOTALL)
    assert BUILD_THE_SAMPLE in blocks
    [tests] = [block for block in blocks if block.endswith(TEST_COMMAND)]
    assert "pip install -e '.[test]'" in tests
    # CI runs the README's test command (with pytest's arguments after it).
    assert TEST_COMMAND in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_readme_links_to_the_docs():
    assert (DOCS / "index.md").resolve() in local_links(README)
