"""The theme: a Jinja environment over the template search path, and the static assets.

Search path: the project's ``custom_dir`` -> ``themes/<name>/templates`` -> the shared
``templates/``. The prefix ``base/`` always names the shared template, so an override can
extend the file it replaces (``{% extends "base/page.html" %}``).
"""

from __future__ import annotations

from pathlib import Path

import jinja2

from ..config import ThemeConfig
from ..errors import UsageError
from ..records import record
from ..resources import available_themes, builtin_dir
from .speedups import make_environment


@record
class Theme:
    name: str
    template_dirs: tuple[Path, ...]
    """Highest priority first."""
    asset_dirs: tuple[Path, ...]
    """Highest priority first; each is copied to ``assets/`` (earlier ones win)."""

    @property
    def watch_paths(self) -> tuple[Path, ...]:
        return (*self.template_dirs, *self.asset_dirs)


def load_theme(config: ThemeConfig) -> Theme:
    themes = available_themes()
    if config.name not in themes:
        raise UsageError(f"unknown theme {config.name!r} (available: {', '.join(themes)})")
    theme_dir = builtin_dir("themes") / config.name
    template_dirs: list[Path] = []
    asset_dirs: list[Path] = []
    if config.custom_dir is not None:
        template_dirs.append(config.custom_dir)
        asset_dirs.append(config.custom_dir / "assets")
    if (theme_dir / "templates").is_dir():
        template_dirs.append(theme_dir / "templates")
    template_dirs.append(builtin_dir("templates"))
    asset_dirs.append(theme_dir / "assets")
    return Theme(config.name, tuple(template_dirs), tuple(d for d in asset_dirs if d.is_dir()))


def create_environment(theme: Theme, *, stock_jinja: bool | None = None) -> jinja2.Environment:
    """A fresh environment per build: autoescape everywhere, undefined names are errors.
    Compiled templates come from the per-user cache when their source is unchanged.
    ``stock_jinja``: see ``speedups.make_environment``."""
    loader = jinja2.ChoiceLoader(
        [
            jinja2.PrefixLoader({"base": jinja2.FileSystemLoader(builtin_dir("templates"))}),
            jinja2.FileSystemLoader([str(d) for d in theme.template_dirs]),
        ]
    )
    return make_environment(
        # The settings that change the compiled code, so part of the cache key.
        ("autoescape", "StrictUndefined", "trim", "lstrip", "keep_newline"),
        stock=stock_jinja,
        loader=loader,
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        auto_reload=False,
        # Never reloaded, so every template it loads is kept in a plain dict: Jinja's
        # default, a locked LRU of 400, made each of a page's 25 includes pay for its
        # bookkeeping (1% of the function calls of a build at N = 1,000; the same bytes).
        # A theme has a few dozen templates.
        cache_size=-1,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
