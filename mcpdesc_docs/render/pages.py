"""Render the page model with the theme: Site -> {relative path: bytes}."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from html import escape as _html_escape
from pathlib import Path
from typing import Any, TypedDict
from urllib.parse import urlsplit

import jinja2
from markupsafe import Markup, escape

from .. import __version__
from ..config import Config
from ..diagnostics import Diagnostic, Severity
from ..errors import ProjectError
from ..kinds import KIND_NAMES, KINDS
from ..model.navigation import Navigation, NavKindView
from ..model.schema_tree import group_rows
from ..model.site import Page, Scope, Site, Tag, label
from ..records import record
from ..rule_docs import RuleDoc
from ..source.changes import SourceChange
from .data_text import ItemTexts
from .highlight import highlight
from .markdown import render_inline, render_markdown
from .parallel import render_in_workers, workers_for
from .search import entries_json, page_entries, search_files
from .speedups import called_directly
from .theme import Theme, create_environment
from .twins import llms_txt, page_twin, twin_path
from .version_menu import VersionMenu
from .words import WORDS_TEMPLATE, Words


@record
class Download:
    label: str
    path: str
    content: bytes


class TemplateContext(TypedDict):
    site: Site
    page: Page | None
    tag: Tag | None
    """Set on tag pages."""
    root: str
    """The way from this page to the site root ("" or "../"), for scripts."""
    previous_page: Page | None
    next_page: Page | None
    nav: tuple[NavKindView, ...]
    downloads: tuple[Download, ...]
    twin: str | None
    """The Markdown twin of this page, site-relative."""
    site_title: str
    current_path: str
    canonical_url: str | None
    extra_css: tuple[str, ...]
    repo_url: str | None
    copyright: str | None
    generator_version: str
    kinds: tuple[str, ...]
    kind_titles: Mapping[str, str]
    kind_singular: Mapping[str, str]
    kind_dirs: Mapping[str, str]
    scope_all: Scope
    base_href: str | None
    """Set on 404.html only, when the site's address is known: GitHub Pages serves that page
    at any depth, so its relative links must start from the site root."""
    versions: VersionMenu | None
    """The published versions, when ``gh-deploy --version`` builds the site (else None)."""
    portal: str | None
    """The portal's title, when the site is one server of a portal (its home is
    ``{{ root }}../index.html``); else None."""


# What templates know of the kinds, by kind name (templates receive names, not Kind objects).
_KIND_TITLES = {kind.name: kind.title for kind in KINDS}
_KIND_SINGULAR = {kind.name: kind.singular for kind in KINDS}
_KIND_DIRS = {kind.name: kind.directory for kind in KINDS}


TEMPLATE_RULE = "mcpdesc-docs.template"
"""The rule id of template problems (ours: templates are the theme's code, not the description's)."""
TEMPLATE_DOC = RuleDoc(
    summary="A theme's templates (in `theme.custom_dir`) are valid Jinja that renders without error.",
    rationale=(
        "Templates are the site's code, not the description's; a broken one stops the build (exit 2) and the "
        "previous site is left as it was."
    ),
    bad="<h1>{{ page.title </h1>\n",
    good="<h1>{{ page.title }}</h1>\n",
    requirements=("mcpdesc-docs themes (not a format rule)",),
    codes=("template-error",),
)


class TemplateError(ProjectError):
    """A theme template failed (exit 2), located by template file and line."""

    @classmethod
    def at(cls, file: str, line: int | None, code: str, message: str) -> TemplateError:
        found = Diagnostic(Severity.ERROR, TEMPLATE_RULE, code, message, None, line=line, file=file)
        return cls([found])


def relative_url(from_page: str, target: str) -> str:
    """A link from one site path to another that works from file:// and under any base path.
    Site paths are plain (no '.' or '..'), so string work is enough, and fast."""
    here = from_page.rpartition("/")[0]
    there, _, name = target.rpartition("/")
    if here == there:
        return name or "./"
    return "../" * (here.count("/") + 1 if here else 0) + target


@called_directly
class RelativeLinks:
    """``url(target)`` in a template: the way from the page being rendered to a file of the
    site. It is a global, set to each page in turn, rather than a variable of the page, so
    that the macros of ``partials/macros.html`` link from the right page although they are
    imported without context (and so made once per build, not once per page).

    ``shared_assets``: the site is one server of a portal, whose ``assets/`` are the
    portal's, one level up (every server's pages use the same theme)."""

    __slots__ = ("shared_assets", "shown_on")

    def __init__(self, *, shared_assets: bool = False) -> None:
        self.shown_on = ""
        self.shared_assets = shared_assets

    def __call__(self, target: str) -> str:
        if self.shared_assets and target.startswith("assets/"):
            return "../" * (self.shown_on.count("/") + 1) + target
        return relative_url(self.shown_on, target)


def _context(
    site: Site,
    config: Config,
    navigation: Navigation,
    path: str,
    page: Page | None,
    *,
    downloads: tuple[Download, ...] = (),
    tag: Tag | None = None,
    base_href: str | None = None,
    versions: VersionMenu | None = None,
) -> TemplateContext:
    previous_page, next_page = navigation.neighbours(page)
    return TemplateContext(
        site=site,
        page=page,
        tag=tag,
        root="../" * path.count("/"),
        previous_page=previous_page,
        next_page=next_page,
        nav=navigation.view(page, tag),
        downloads=downloads,
        twin=twin_path(page.path) if page is not None else None,
        site_title=label(config.site_name or site.server.title),
        current_path=path,
        canonical_url=(config.site_url + path) if config.site_url and path != "404.html" else None,
        extra_css=config.extra_css,
        repo_url=config.repo_url,
        copyright=config.copyright,
        generator_version=__version__,
        kinds=KIND_NAMES,
        kind_titles=_KIND_TITLES,
        kind_singular=_KIND_SINGULAR,
        kind_dirs=_KIND_DIRS,
        scope_all=Scope(site.protocol_versions, True),
        base_href=base_href,
        versions=versions,
        portal=config.portal_title,
    )


def _render(env: jinja2.Environment, template: str, context: TemplateContext) -> bytes:
    with located_template_errors(template):
        return env.get_template(template).render(**context).encode("utf-8")


@contextmanager
def located_template_errors(template: str) -> Iterator[None]:
    """Turn a Jinja failure into a TemplateError located in the template at fault."""
    try:
        yield
    except jinja2.TemplateSyntaxError as exc:
        raise TemplateError.at(
            exc.filename or exc.name or template,
            exc.lineno,
            "template-syntax-error",
            f"template syntax error: {exc.message}",
        ) from exc
    except jinja2.TemplateError as exc:
        file, line = _template_location(exc, template)
        raise TemplateError.at(file, line, "template-error", f"template error: {exc}") from exc


def _template_location(exc: BaseException, fallback: str) -> tuple[str, int | None]:
    """File and line of the innermost template frame: Jinja rewrites tracebacks so that
    frames of compiled templates carry the template's file name and line."""
    location: tuple[str, int | None] = (fallback, None)
    trace = exc.__traceback__
    while trace is not None:
        filename = trace.tb_frame.f_code.co_filename
        if filename.endswith((".html", ".xml", ".j2")):
            location = (filename, trace.tb_lineno)
        trace = trace.tb_next
    return location


_BREAK_AFTER = re.compile(r"(?<=[_./:-])(?=.)|(?<=[a-z0-9])(?=[A-Z])")


@lru_cache(maxsize=16384)
def breakable(text: str) -> Markup:
    """``text`` escaped, with line-break opportunities (``<wbr>``) after ``_ . / : -`` and
    between camelCase words: a narrow sidebar or phone table wraps ``search_tickets`` as
    ``search_`` / ``tickets``, never in the middle of a word.

    Memoised: every page's sidebar breaks the same names again (47,000 calls for 1,200
    distinct names at N = 1,000), and the result is an immutable string."""
    return Markup("<wbr>").join(escape(part) for part in _BREAK_AFTER.split(text))


def xml_escape(text: str) -> str:
    # xml.sax.saxutils would pull urllib and the email package into every start-up.
    return _html_escape(text, quote=False)


def sitemap_xml(site_url: str, paths: Iterable[str]) -> bytes:
    """``sitemap.xml`` listing ``paths`` under ``site_url`` (a site's, or a portal's)."""
    urls = "".join(f"  <url><loc>{xml_escape(site_url + p)}</loc></url>\n" for p in paths)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' + urls + "</urlset>\n"
    ).encode()


def asset_files(directories: Iterable[Path], config: Config) -> dict[str, bytes]:
    """Every file under ``directories`` as ``assets/<its path there>`` (lowest priority
    first: a later directory's file replaces an earlier one's), then the project's extra
    CSS, where the config names it."""
    files: dict[str, bytes] = {}
    for directory in directories:
        for file in sorted(directory.rglob("*")) if directory.is_dir() else ():
            if file.is_file() and not file.is_symlink():
                files["assets/" + file.relative_to(directory).as_posix()] = file.read_bytes()
    for css in config.extra_css:
        files[css] = (config.project_dir / css).read_bytes()
    return files


def _assets(theme: Theme, config: Config) -> dict[str, bytes]:
    # A custom_dir file replaces the theme's. A portal's servers share the portal's
    # (``RelativeLinks.shared_assets``), so theirs are left out.
    return asset_files(reversed(theme.asset_dirs) if config.portal_title is None else (), config)


@dataclass(slots=True)
class RenderCache:
    """What the previous build rendered, so ``serve`` re-renders only the pages that changed.

    A page's HTML depends on its own model, on what every page shows (header, tags,
    downloads, config, the order and grouping of the pages: the ``skeleton``) and on what it
    shows of some pages around it (their titles and marks in its sidebar, its neighbours:
    its ``chrome``). While the skeleton is unchanged, a page whose model and chrome compare
    equal is taken from the cache: a title edited at N = 1,000 re-renders the twenty-odd
    pages whose sidebars show it, not all of them."""

    skeleton: object = None
    pages: dict[str, PageOutput] = field(default_factory=dict)
    rendered: int = 0
    """Pages rendered (not reused) by the last build, for tests and the bench."""
    items: ItemTexts = field(default_factory=ItemTexts)
    """The texts of the description's values, for its downloads (``render.data_text``)."""
    fragments: dict[FragmentKey, tuple[Page, Markup]] = field(default_factory=dict)
    """What ``page_fragments`` showed in the last build (see ``PageFragments``)."""
    fragments_rendered: int = 0
    """Fragments rendered (not reused) by the last build."""

    def advance(self, change: SourceChange) -> None:
        """What changed, as the build session worked it out: a template or theme file (or
        another config, or a first read) makes everything rendered stale; the description's
        own changes show in the page models, which are compared as they are rendered."""
        if change.theme or change.everything:
            self.skeleton, self.pages, self.fragments = None, {}, {}


FragmentKey = tuple[str, str, int]
"""(partial, directory of the page it is shown on, id of the page model)."""


KEPT_IN_BUILD = 1024
"""Fragments a build keeps for reuse (serve keeps all): the sidebar of a page shows the
entries of some twenty pages around it, rendered just before."""


class PageFragments:
    """``page_fragments(partial, pages)`` in a template: the partial rendered for each page
    model, as ``p``, in the context of the page being rendered, one after the other. The
    overview and the tag pages show one for every page and the sidebar one for each of its
    entries, so a fragment is rendered once for the page model and the directory it is shown
    from (links are relative), and reused while the build keeps it (the last
    ``KEPT_IN_BUILD``, enough for the sidebars of the pages after); on its own page it is
    rendered apart (the sidebar marks the current page) and not kept, since that page is the
    only one to show it so. ``serve`` keeps the others for the next build too, as long as
    the page model is the same object and the site's skeleton is unchanged. A partial
    should therefore show nothing but its page (``catalogue_item.html``, ``tag_item.html``
    and ``nav_item.html`` do)."""

    def __init__(
        self, env: jinja2.Environment, previous: dict[FragmentKey, tuple[Page, Markup]], *, keep_all: bool
    ) -> None:
        self._env = env
        self._previous = previous
        # serve keeps what each build showed, for the next (keep_all); a build keeps the
        # latest few only: the sidebar asks again for the entries of the pages just before,
        # and at 20,000 pages keeping them all was 25 MB.
        self._bound = None if keep_all else KEPT_IN_BUILD
        self.kept: dict[FragmentKey, tuple[Page, Markup]] = {}
        self.rendered = 0

    @jinja2.pass_context
    def __call__(self, context: jinja2.runtime.Context, partial: str, pages: Iterable[Page]) -> Markup:
        shown_on = str(context["current_path"])
        directory = shown_on.rpartition("/")[0]
        kept = self.kept
        texts: list[Markup] = []
        for page in pages:
            if shown_on == page.path:  # shown on its own page: needed once per build
                texts.append(self._render(context, partial, page))
                continue
            key = (partial, directory, id(page))
            found = kept.get(key)
            if found is None:
                found = self._previous.get(key)
                if found is None or found[0] is not page:
                    found = (page, self._render(context, partial, page))
                kept[key] = found
                if self._bound is not None and len(kept) > self._bound:
                    del kept[next(iter(kept))]  # the oldest
            texts.append(found[1])
        return Markup("".join(texts))  # each is Markup already: Markup.join would escape each again

    def _render(self, context: jinja2.runtime.Context, partial: str, page: Page) -> Markup:
        self.rendered += 1
        return Markup(self._env.get_template(partial).render(context.get_all() | {"p": page}))


@record
class PageOutput:
    """What one primitive page contributes to the site: its HTML, its Markdown twin and its
    piece of the search index (all three depend only on the page and the skeleton)."""

    page: Page
    chrome: Chrome | None
    """What the page shows of the others, when serve keeps it; else None."""
    html: bytes
    twin: bytes
    search: str


def _skeleton(site: Site, config: Config, downloads: tuple[Download, ...], versions: VersionMenu | None) -> object:
    # What every primitive page shows alike. Of the other pages, only what orders and groups
    # the sidebar and the previous/next links (paths, names, deprecation, scopes, first
    # tags): their titles and marks are part of each page's own ``_chrome``, and summaries
    # appear only on the overview and tag pages, which are always rendered.
    structure = tuple((p.path, p.name, p.label, p.deprecated, p.scope, p.tag_names) for p in site.pages)
    changelog = site.changelog
    return (
        config,
        site.server,
        site.specification,
        site.mcpdesc,
        site.schema_uri,
        site.protocol_versions,
        site.legacy_format,
        site.tags,
        structure,
        tuple((d.label, d.path) for d in downloads),
        (changelog.since, changelog.path) if changelog is not None else None,
        versions,
    )


@record
class Chrome:
    """What a primitive page shows of the pages around it beyond the skeleton: the entries
    its sidebar lists (every page on a small site, some twenty-five on a large one, each
    with its title and behaviour marks), its neighbours' labels, and its own "changed
    since" note."""

    listed: tuple[Page, ...]
    neighbours: tuple[Page | None, Page | None]
    changed: object

    def shows_as(self, other: Chrome) -> bool:
        """Whether a page with this chrome looks as with ``other`` (its skeleton unchanged).
        Pages are compared by what the sidebar shows of them, and by identity first: a
        rebuild keeps the model of every page it did not change."""
        return (
            len(self.listed) == len(other.listed)
            and all(a is b or _listed_as(a) == _listed_as(b) for a, b in zip(self.listed, other.listed, strict=True))
            and all(
                a is b or (a is not None and b is not None and a.path == b.path and a.label == b.label)
                for a, b in zip(self.neighbours, other.neighbours, strict=True)
            )
            and self.changed == other.changed
        )


def _listed_as(page: Page) -> tuple[object, ...]:
    return page.path, page.label, page.title, page.risk, page.deprecated


def _chrome(site: Site, navigation: Navigation, page: Page) -> Chrome:
    changed = site.changelog.by_page.get(page.path) if site.changelog is not None else None
    return Chrome(navigation.listed(page), navigation.neighbours(page), changed)


def page_environment(theme: Theme) -> jinja2.Environment:
    """The theme's environment with the filters every page's templates use (the globals,
    ``url`` first, are the caller's: they differ between a site and an embedded page)."""
    env = create_environment(theme)
    env.filters["markdown"] = render_markdown
    env.filters["inline_markdown"] = render_inline
    env.filters["label"] = label
    env.filters["breakable"] = breakable
    env.filters["highlight"] = highlight
    env.filters["group_rows"] = group_rows
    return env


Sink = Callable[[str, bytes], None]
"""Takes each file of the site as it is rendered (site-relative path, content)."""


@record
class Parallel:
    """How ``build`` lets primitive pages render in worker processes (``render.parallel``)."""

    jobs: int
    """Workers at most (1: render in this process)."""
    settle: Callable[[], None]
    """Called before the workers are forked: the sink finishes what it was writing, so no
    thread of this process is in the middle of anything a worker inherits."""
    worker_sink: Callable[[], Sink]
    """Called in each worker: a sink that writes straight into the staging directory."""


def render_site(
    site: Site,
    theme: Theme,
    config: Config,
    downloads: tuple[Download, ...] = (),
    cache: RenderCache | None = None,
    sink: Sink | None = None,
    versions: VersionMenu | None = None,
    parallel: Parallel | None = None,
) -> dict[str, bytes]:
    """The site's files. With a ``sink`` each file is handed to it as soon as it is made
    and none is kept (``build`` writes pages as they come instead of holding the whole
    site in memory), and the result is empty. ``versions``: the version menu every page
    shows (``gh-deploy --version``). ``parallel``: a large site's primitive pages may be
    rendered by forked workers (``build``; never with serve's ``cache``)."""
    env = page_environment(theme)
    navigation = Navigation(site)
    skeleton = _skeleton(site, config, downloads, versions) if cache is not None else None
    same_skeleton = cache is not None and cache.skeleton == skeleton
    reusable = cache.pages if cache is not None and same_skeleton else {}
    fragments = PageFragments(
        env, cache.fragments if cache is not None and same_skeleton else {}, keep_all=cache is not None
    )
    env.globals["page_fragments"] = fragments
    links = env.globals["url"] = RelativeLinks(shared_assets=config.portal_title is not None)
    rendered = 0
    outputs: dict[str, bytes] = {}
    emit: Sink = sink if sink is not None else outputs.__setitem__

    def page(template: str, path: str, primitive: Page | None = None, **extra: Any) -> bytes:
        nonlocal rendered
        links.shown_on = path
        context = _context(site, config, navigation, path, primitive, downloads=downloads, versions=versions, **extra)
        html = _render(env, template, context)
        rendered += 1
        return html

    with located_template_errors(WORDS_TEMPLATE):  # the twins and the index speak the theme's words
        words = Words(env)
    fresh: dict[str, PageOutput] = {}

    def primitive_output(primitive: Page) -> PageOutput:
        chrome = _chrome(site, navigation, primitive) if cache is not None else None
        previous = reusable.get(primitive.path)
        if (
            previous is not None
            and previous.chrome is not None
            and chrome is not None
            and previous.chrome.shows_as(chrome)
            and previous.page == primitive
        ):
            return previous
        html = page("primitive.html", primitive.path, primitive)
        with located_template_errors(WORDS_TEMPLATE):
            twin = page_twin(primitive, words).encode("utf-8")
            search = entries_json(page_entries(site, primitive))
        return PageOutput(primitive, chrome, html, twin, search)

    def write_pages(pages: Sequence[Page], write: Sink) -> list[str]:
        """Render and write ``pages`` and their twins; their search entries, in order."""
        pieces = []
        for primitive in pages:
            output = primitive_output(primitive)
            if cache is not None:
                fresh[primitive.path] = output
            write(primitive.path, output.html)
            write(twin_path(primitive.path), output.twin)
            pieces.append(output.search)
        return pieces

    def site_pages() -> None:
        """The pages that are not one primitive's: the overview, the tags, the changes, 404."""
        emit("index.html", page("index.html", "index.html"))
        for tag in site.tags:
            emit(tag.path, page("tag.html", tag.path, tag=tag))
        if site.changelog is not None:
            emit(site.changelog.path, page("changes.html", site.changelog.path))
        base_href = urlsplit(config.site_url).path if config.site_url else None
        emit("404.html", page("404.html", "404.html", base_href=base_href))

    workers = workers_for(len(site.pages), parallel.jobs) if parallel is not None and cache is None else 1
    if parallel is not None and workers > 1:
        worker_settings = parallel

        def chunk(start: int, stop: int) -> tuple[list[str], int]:
            before = rendered
            return write_pages(site.pages[start:stop], worker_settings.worker_sink()), rendered - before

        parallel.settle()
        search_pieces, in_workers = render_in_workers(len(site.pages), chunk, workers, meanwhile=site_pages)
        rendered += in_workers
    else:
        site_pages()
        search_pieces = write_pages(site.pages, emit)
    if config.site_url:
        listed = ["index.html", *(p.path for p in site.pages), *(t.path for t in site.tags)]
        listed += [site.changelog.path] if site.changelog is not None else []
        emit("sitemap.xml", sitemap_xml(config.site_url, listed))
    emit(".nojekyll", b"")
    with located_template_errors(WORDS_TEMPLATE):
        for path, content in search_files(site, words, search_pieces).items():
            emit(path, content)
        emit("llms.txt", llms_txt(site, config.site_url).encode("utf-8"))
    for download in downloads:
        emit(download.path, download.content)
    for path, content in _assets(theme, config).items():
        emit(path, content)
    if cache is not None:
        cache.skeleton, cache.pages, cache.rendered = skeleton, fresh, rendered
        cache.fragments, cache.fragments_rendered = fragments.kept, fragments.rendered
    return outputs


def render_context_keys() -> list[str]:
    """The names every template can use (documented for theme authors): the page's
    variables and the globals ``render_site`` adds."""
    return [*TemplateContext.__annotations__, "url", "page_fragments"]


__all__ = ["Download", "RenderCache", "Sink", "TemplateError", "page_environment", "relative_url", "render_site"]
