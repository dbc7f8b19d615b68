"""The work grows linearly with the description: doubling N at most (about) doubles the
number of Python function calls in validation and in rendering. Counted, not timed."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mcpdesc_docs.config import Config
from mcpdesc_docs.model.builder import build_site
from mcpdesc_docs.render.pages import render_site
from mcpdesc_docs.render.theme import load_theme
from mcpdesc_docs.validation.validator import check_document

from .work_counts import calls, lines

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from generate import description


def test_validation_is_linear():
    small, large = description(40), description(80)
    check_document(description(5))  # warm caches (compiled schemas)
    ratio = calls(lambda: check_document(large)) / calls(lambda: check_document(small))
    assert ratio <= 2.1, ratio


def test_model_and_rendering_are_linear(tmp_path):
    # Sizes above the sidebar's full-listing limit, where a naive sidebar is quadratic.
    config = Config(description=tmp_path / "d.yaml", site_dir=tmp_path / "site")
    theme = load_theme(config.theme)

    def work(n: int) -> Callable[[], Any]:
        data = description(n)
        document = check_document(data).document
        assert document is not None
        return lambda: render_site(build_site(document), theme, config)

    small, large = work(160), work(320)
    small()  # warm template compilation
    ratio = calls(large) / calls(small)
    assert ratio <= 2.1, ratio


def test_many_pages_of_one_name_are_linear():
    # Resources are identified by URI, so any number may share a name and so a slug:
    # doc, doc-2, doc-3 ... must not each probe the suffixes before them again.
    def work(n: int) -> Callable[[], Any]:
        data = description(1)
        data["resources"] = [{"uri": f"docs://{i}", "name": "doc"} for i in range(n)]
        document = check_document(data).document
        assert document is not None
        return lambda: build_site(document)

    site = work(3)()
    assert [p.path for p in site.pages_of("resource")] == [
        "resources/doc.html",
        "resources/doc-2.html",
        "resources/doc-3.html",
    ]
    ratio = lines(work(800)) / lines(work(400))
    assert ratio <= 2.1, ratio
