"""The stage chain: load -> validate -> model -> render, in memory; writing is the caller's.

Commands, the dev server and gh-deploy all go through here, so they build the same site
from the same description in the same way.

Everything that outlives one build is in one place: ``serve`` holds a ``BuildSession`` for
all its rebuilds; ``build`` and ``validate`` run without one (each stage then keeps what
it needs for that one run and lets it go).

Per rebuild the session works out once what changed since the last read
(``source.changes``: root members, primitive pointers, theme files, the config) and tells
every cache it owns; no cache compares sources itself. The stages stay functions of their
input: each takes at most the session (or, below the pipeline, the part of it that belongs
to its stage) as an optional argument.

What is cached by value rather than by object or by what came before (a Markdown text's
HTML, a compiled pattern, a highlighted snippet) stays in the functions' own bounded
``lru_cache``: such a result cannot go stale and holds nothing of a description alive.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from .config import Config
from .model.builder import build_site
from .model.changelog import ChangeLog, build_changelog
from .model.primitives import PageCache
from .model.site import Site
from .model.urls import slugify
from .records import record
from .render.data_text import ItemTexts, json_text, yaml_download_text
from .render.pages import Download, Parallel, RenderCache, Sink, render_site
from .render.theme import load_theme
from .render.version_menu import VersionMenu
from .source.changes import EVERYTHING, Snapshot, SourceChange
from .source.incremental import IncrementalJson, IncrementalYaml, SameObjects
from .source.limits import Limits
from .source.load import Readers, Source
from .validation.document import Document
from .validation.memo import Memos
from .validation.rule_cache import RuleCache
from .validation.validator import ValidationResult, validate_file

if TYPE_CHECKING:  # imported when a project names a previous description (changelog_since)
    from .diff.load import Side


@record
class BuildOutcome:
    validation: ValidationResult
    files: dict[str, bytes] | None
    """None when validation failed and nothing was rendered."""
    pages: int = 0
    """HTML pages written: the overview, one per primitive and per tag, and 404.html."""
    legacy_format: str | None = None
    """The older format the description is written in (0.7.0): the build says, in the
    terminal, that ``migrate`` converts it (a note for the author, not for readers)."""
    site: Site | None = None
    """The page model the pages were rendered from (a portal lists the server from it)."""


class BuildSession:
    """The readers that re-parse only an edited item, the hand-over of unchanged values,
    the rules' identity memos, and the caches of rule findings, page models and rendered
    pages. Satisfies ``validation.validator.CheckSession``."""

    def __init__(self) -> None:
        self._yaml, self._json = IncrementalYaml(), IncrementalJson()
        self._same = SameObjects()
        self.memos = Memos()
        self.rule_cache = RuleCache()
        self.page_cache = PageCache()
        self.render_cache = RenderCache()
        self._config: Config | None = None
        self._snapshot: Snapshot | None = None
        self._theme_changed = False
        self.last_change: SourceChange | None = None
        """What the last read changed (for tests and the bench)."""
        self.previous_side: tuple[tuple[str, str, Limits], Side] | None = None
        """The config's ``previous`` description as last validated, by its name, text and
        limits (``changelog_since``)."""

    @property
    def readers(self) -> Readers:
        return Readers(self._yaml.read, self._json.read)

    def begin(self, config: Config, *, theme_changed: bool = False) -> None:
        """A rebuild starts with ``config`` (just read). Another config than last time
        (limits, suppressions, theme, navigation ...) keeps nothing; a theme file's change
        is held until a read of the description is told about it."""
        if config != self._config:
            self._snapshot = None
        self._config = config
        self._theme_changed |= theme_changed

    def same_objects(self, data: object) -> object:
        """``data`` with the unchanged values replaced by the last read's objects; then the
        one change check of this rebuild, told to every cache."""
        kept = self._same.keep(data)
        self._yaml.adopt(data, kept)
        self._json.adopt(data, kept)
        snapshot = Snapshot.of(kept) if type(kept) is dict else None
        change = SourceChange.between(self._snapshot, snapshot) if snapshot is not None else EVERYTHING
        if self._theme_changed:
            change = replace(change, theme=True)
        self._snapshot, self._theme_changed, self.last_change = snapshot, False, change
        self.rule_cache.advance(change)
        self.page_cache.advance(change)
        self.render_cache.advance(change)
        return kept


def changelog_since(config: Config, document: Document, site: Site, session: BuildSession | None = None) -> ChangeLog:
    """What changed since the previous description the config names. Its text is read on
    every build (a ``git:`` one may move with its branch); serve's ``session`` validates it
    again only when that text changed. Imported here: only a project with ``previous``
    needs the diff (and dulwich, for ``git:``)."""
    from .diff.changes import compare
    from .diff.load import read_side_source, side_of
    from .diff.view import view_of

    spec = config.previous or ""
    source, file = read_side_source(spec, config.limits, cwd=config.project_dir)
    key = (spec, source.text, config.limits)
    kept = session.previous_side if session is not None else None
    if kept is not None and kept[0] == key:
        previous = kept[1]
    else:
        previous = side_of(spec, source, file, config.limits)
        if session is not None:
            session.previous_side = (key, previous)
    changes, _ = compare(previous.view, view_of(document))
    return build_changelog(changes, site.pages, previous.version or previous.name, previous.name)


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


def validate_description(config: Config, session: BuildSession | None = None) -> ValidationResult:
    """Read and validate the config's description (``session``: serve's, for a rebuild)."""
    return validate_file(
        config.description,
        name=str(config.description),
        limits=config.limits,
        suppress=config.suppress,
        session=session,
    )


def render_description(
    config: Config,
    validation: ValidationResult | None = None,
    session: BuildSession | None = None,
    sink: Sink | None = None,
    modelled: Callable[[], object] | None = None,
    versions: VersionMenu | None = None,
    parallel: Parallel | None = None,
) -> BuildOutcome:
    """Validate (unless already done) and render in memory; nothing is written. A
    ``session`` (``serve``'s) carries what it can from one build to the next; without a
    ``validation`` it is begun here. With a ``sink`` the files go to it as they are made
    (``BuildOutcome.files`` is then empty). ``modelled`` is called once the site's model
    is made, before any page is rendered (``build`` freezes the collector's view of what
    exists then). ``versions``: the version menu of a versioned deploy. ``parallel``: how
    ``build`` lets workers render a large site's pages (they write straight to its
    staging directory, past ``sink``)."""
    if validation is None:
        if session is not None:
            session.begin(config)
        validation = validate_description(config, session)
    checked = validation.accepted(strict=config.strict)
    if checked is None:
        return BuildOutcome(validation, None)
    site = build_site(checked.document, session.page_cache if session is not None else None)
    if config.previous is not None:
        site = replace(site, changelog=changelog_since(config, checked.document, site, session))
    if modelled is not None:
        modelled()
    files: dict[str, bytes] = {}
    cache = session.render_cache if session is not None else None
    downloads = description_downloads(checked.source, cache.items if cache is not None else None)
    theme = load_theme(config.theme)
    render_site(site, theme, config, downloads, cache, sink or files.__setitem__, versions, parallel)
    return BuildOutcome(validation, files, html_pages(site), site.legacy_format, site)


def html_pages(site: Site) -> int:
    """The HTML pages a site has: the overview, one per primitive and per tag, the Changes
    page, and 404.html."""
    return 2 + len(site.pages) + len(site.tags) + (site.changelog is not None)
