"""The stage chain: load -> validate -> model -> render, in memory; writing is the caller's.

Commands, the dev server and gh-deploy all go through here, so they build the same site
from the same description in the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .config import Config
from .model.builder import build_site
from .model.primitives import PageCache
from .model.urls import slugify
from .render.data_text import ItemTexts, json_text, yaml_download_text
from .render.pages import Download, RenderCache, Sink, render_site
from .render.theme import load_theme
from .source.load import Source
from .validation.validator import ValidationResult, validate_file


@dataclass(frozen=True, slots=True)
class BuildOutcome:
    validation: ValidationResult
    files: dict[str, bytes] | None
    """None when validation failed and nothing was rendered."""
    pages: int = 0
    """HTML pages written: the overview, one per primitive and per tag, and 404.html."""
    legacy_format: str | None = None
    """The older format the description is written in (0.7.0): the build says, in the
    terminal, that ``migrate`` converts it (a note for the author, not for readers)."""


def description_downloads(source: Source, items: ItemTexts | None = None) -> tuple[Download, ...]:
    """The description as written, and the same data in the other format. Named by the
    format, never by the source file's extension: ``x.html`` must not be published as a
    page (it would be served as HTML, outside the pages' Content-Security-Policy).
    ``items``: serve's texts of unchanged values, kept from the previous build."""
    stem = slugify(download_stem(Path(source.name).name))
    original = Download(source.format.upper(), f"description/{stem}.{source.format}", source.text.encode("utf-8"))
    # Indented JSON goes through the pure-Python encoder; large descriptions stay compact.
    indent = 2 if len(source.text) < 256 * 1024 else None
    if source.format == "yaml":
        converted = json_text(source.data, indent, items)
        other = Download("JSON", f"description/{stem}.json", converted.encode("utf-8"))
    else:
        converted = yaml_download_text(source.data, indent, items)
        other = Download("YAML", f"description/{stem}.yaml", converted.encode("utf-8"))
    return (original, other)


def download_stem(name: str) -> str:
    """The file name without a description extension (``helpdesk.mcpdesc.yaml`` -> ``helpdesk.mcpdesc``)."""
    for suffix in (".yaml", ".yml", ".json"):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return name


def protected_paths(config: Config) -> list[Path]:
    """What the site directory must never contain (it is replaced wholesale)."""
    paths = [config.description]
    if config.config_file is not None:
        paths.append(config.config_file)
    if config.theme.custom_dir is not None:
        paths.append(config.theme.custom_dir)
    paths.extend(config.project_dir / css for css in config.extra_css)
    return paths


def render_description(
    config: Config,
    validation: ValidationResult | None = None,
    cache: RenderCache | None = None,
    page_cache: PageCache | None = None,
    sink: Sink | None = None,
    modelled: Callable[[], object] | None = None,
) -> BuildOutcome:
    """Validate (unless already done) and render in memory; nothing is written. The
    caches (``serve``'s) carry pages from one build to the next. With a ``sink`` the files
    go to it as they are made (``BuildOutcome.files`` is then empty). ``modelled`` is
    called once the site's model is made, before any page is rendered (``build`` freezes
    the collector's view of what exists then)."""
    if validation is None:
        validation = validate_file(
            config.description, name=str(config.description), limits=config.limits, suppress=config.suppress
        )
    checked = validation.accepted(strict=config.strict)
    if checked is None:
        return BuildOutcome(validation, None)
    site = build_site(checked.document, page_cache)
    if modelled is not None:
        modelled()
    files: dict[str, bytes] = {}
    keep = sink if sink is not None else files.__setitem__
    pages: set[str] = set()

    def counted(path: str, content: bytes) -> None:
        if path.endswith(".html"):
            pages.add(path)
        keep(path, content)

    downloads = description_downloads(checked.source, cache.items if cache is not None else None)
    render_site(site, load_theme(config.theme), config, downloads, cache, counted)
    return BuildOutcome(validation, files, len(pages), site.legacy_format)
