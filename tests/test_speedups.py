"""The Jinja speed-ups against stock Jinja: the same sites, byte for byte, and the switch
really gives stock Jinja."""

from __future__ import annotations

from pathlib import Path

import jinja2
import markupsafe
import pytest

from mcpdesc_docs.config import ThemeConfig
from mcpdesc_docs.render import escaping
from mcpdesc_docs.render.speedups import STOCK_JINJA_VARIABLE, SpedUpEnvironment, stock_jinja_requested
from mcpdesc_docs.render.theme import create_environment, load_theme

from .shared_data import EXAMPLES_DIR, require
from .sites import SAMPLE, build, snapshot

CORPUS_EXAMPLES = ("0.8.0-full-featured.yaml", "0.8.0-reusable-components.yaml", "0.8.0-multi-version.yaml")
"""The examples that use the most of the templates (elicitation, components, versions)."""


def built_site(description: Path, site_dir: Path, monkeypatch: pytest.MonkeyPatch, *, stock: bool) -> dict[str, bytes]:
    if stock:
        monkeypatch.setenv(STOCK_JINJA_VARIABLE, "1")
    else:
        monkeypatch.delenv(STOCK_JINJA_VARIABLE, raising=False)
    code, _, err = build(description, site_dir)
    assert code == 0, err
    return snapshot(site_dir)


@pytest.mark.parametrize("name", ["sample", *CORPUS_EXAMPLES])
def test_the_speed_ups_build_the_same_bytes_as_stock_jinja(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    description = SAMPLE if name == "sample" else require(EXAMPLES_DIR / name, f"the example {name}")
    sped_up = built_site(description, tmp_path / "sped-up", monkeypatch, stock=False)
    stock = built_site(description, tmp_path / "stock", monkeypatch, stock=True)
    assert sped_up.keys() == stock.keys()
    differing = [path for path in sped_up if sped_up[path] != stock[path]]
    assert differing == []
    assert len(sped_up) > 10


def test_the_switch_gives_stock_jinja(monkeypatch: pytest.MonkeyPatch) -> None:
    theme = load_theme(ThemeConfig())
    monkeypatch.setenv(STOCK_JINJA_VARIABLE, "1")
    assert stock_jinja_requested()
    stock = create_environment(theme)
    assert type(stock) is jinja2.Environment
    assert stock.bytecode_cache is None  # compiled afresh: nothing cached by the sped-up code generator
    assert stock.from_string("{{ v }}").root_render_func.__globals__["escape"] is markupsafe.escape
    for off in ("", "0"):
        monkeypatch.setenv(STOCK_JINJA_VARIABLE, off)
        sped_up = create_environment(theme)
        assert type(sped_up) is SpedUpEnvironment
        assert sped_up.from_string("{{ v }}").root_render_func.__globals__["escape"] is escaping.escape
    # The argument overrides the environment variable, both ways.
    assert type(create_environment(theme, stock_jinja=True)) is jinja2.Environment
    monkeypatch.setenv(STOCK_JINJA_VARIABLE, "1")
    assert type(create_environment(theme, stock_jinja=False)) is SpedUpEnvironment
