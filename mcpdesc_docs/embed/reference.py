"""A description's reference, rendered for a host page: read, validated and modelled once
per file version (a site may show one description on many pages), then each block's
primitives rendered by the site's own template of a page body
(``partials/primitive_body.html``) and fitted into the host page (``fitting.py``)."""

from __future__ import annotations

from pathlib import Path

import jinja2
from markupsafe import Markup, escape

from ..config import ThemeConfig
from ..diagnostics import format_text, summary_line
from ..errors import UsageError
from ..kinds import BY_NAME, KINDS
from ..model.builder import build_site
from ..model.site import Page, Site
from ..records import record
from ..render.pages import located_template_errors, page_environment
from ..render.theme import load_theme
from ..validation.validator import validate_file
from .directive import Selection
from .fitting import SITE_LINK, Fitting, page_prefix

BODY_TEMPLATE = "partials/primitive_body.html"
BODY_SECTION_LEVEL = 2
"""The level of a page body's section headings (``Parameters``...) as the template writes them."""
MAX_LISTED = 12
KEPT_DESCRIPTIONS = 16
"""Descriptions kept read and modelled in a process: MkDocs makes a Markdown instance (and
so an extension) per page, and a site may show one description on many pages."""
KIND_SINGULAR = {kind.name: kind.singular for kind in KINDS}


class EmbedError(Exception):
    """The block cannot be shown: its message says where and why (a description's own
    problems as located diagnostics)."""


@record
class Described:
    site: Site
    warnings: str
    """The description's warnings, as ``validate`` prints them (empty when none)."""


# (file, name shown in diagnostics, modification time, size, strict) -> what was read.
_kept: dict[tuple[Path, str, int, int, bool], Described] = {}
_environment: list[jinja2.Environment] = []


class References:
    """The renderer of one host's blocks."""

    def __init__(self, base_dir: Path, *, site_url: str | None = None, strict: bool = False) -> None:
        self.base_dir = base_dir
        self.site_url = site_url
        self.strict = strict

    def described(self, path: str) -> Described:
        """The description at ``path`` (relative to ``base_dir``), validated; EmbedError
        when it has errors (or warnings, when strict) or lies outside ``base_dir``."""
        file = self._file(path)
        stamp = file.stat()
        key = (file, path, stamp.st_mtime_ns, stamp.st_size, self.strict)
        kept = _kept.get(key)
        if kept is not None:
            return kept
        try:
            result = validate_file(file, name=path)
        except UsageError as exc:
            raise EmbedError(str(exc)) from None
        report = format_text(result.diagnostics, result.text, path)
        spec = result.specification.name if result.specification else None
        checked = result.accepted(strict=self.strict)
        if checked is None:
            raise EmbedError(report + summary_line(result.diagnostics, path, spec))
        described = Described(build_site(checked.document), report)
        _kept[key] = described
        if len(_kept) > KEPT_DESCRIPTIONS:
            del _kept[next(iter(_kept))]  # the oldest
        return described

    def render(self, selection: Selection) -> tuple[Markup, str]:
        """The block's HTML and the description's warnings."""
        described = self.described(selection.path)
        pages = _chosen(described.site, selection)
        fitting = Fitting({p.path: page_prefix(p.path) for p in pages}, self.site_url)
        level = selection.heading
        parts: list[str] = []
        if selection.kind is None:  # the whole reference: a heading per kind
            for kind in KINDS:
                of_kind = [p for p in pages if p.kind == kind.name]
                if of_kind:
                    parts.append(f'<h{level} class="mcpdesc-kind-title">{escape(kind.title)}</h{level}>\n')
                    parts.extend(self._primitive(described.site, p, level + 1, fitting) for p in of_kind)
        else:
            parts.extend(self._primitive(described.site, p, level, fitting) for p in pages)
        html = Markup('<div class="mcpdesc-embed">\n' + "".join(parts) + "</div>")
        return html, described.warnings

    def _primitive(self, site: Site, page: Page, level: int, fitting: Fitting) -> str:
        prefix = page_prefix(page.path)
        try:
            with located_template_errors(BODY_TEMPLATE):
                body = (
                    _body_environment()
                    .get_template(BODY_TEMPLATE)
                    .render(site=site, page=page, kind_singular=KIND_SINGULAR)
                )
        except UsageError as exc:  # a TemplateError: a fault of the theme, located in it
            raise EmbedError(str(exc)) from None
        name = f" <code>{escape(page.name)}</code>" if page.name and page.name != page.title else ""
        return (
            f'<section class="mcpdesc-primitive" id="{escape(prefix)}" data-primitive="{escape(page.kind)}">\n'
            f'<h{level} class="mcpdesc-title"><span class="mcpdesc-kind">{escape(KIND_SINGULAR[page.kind])}</span> '
            f"{escape(page.title)}{name}</h{level}>\n"
            f"{fitting.fit(body, prefix, level + 1 - BODY_SECTION_LEVEL)}</section>\n"
        )

    def _file(self, path: str) -> Path:
        base = self.base_dir.resolve()
        file = (base / path).resolve()
        if Path(path).is_absolute() or not file.is_relative_to(base):
            raise EmbedError(f"{path}: the description must be inside {base} (the extension's base_dir)")
        if not file.is_file():
            raise EmbedError(f"{path}: no such file (paths are relative to {base}, the extension's base_dir)")
        return file


def _body_environment() -> jinja2.Environment:
    """The default theme's environment, made once per process (its ``url`` is the same for
    every block: links are resolved afterwards, by ``Fitting``)."""
    if not _environment:
        env = page_environment(load_theme(ThemeConfig()))
        # Before any template is loaded: templates keep the globals they were loaded with.
        env.globals["url"] = SITE_LINK.__add__
        _environment.append(env)
    return _environment[0]


def _chosen(site: Site, selection: Selection) -> list[Page]:
    if selection.kind is None:
        return list(site.pages)
    of_kind = list(site.pages_of(selection.kind))
    kind = BY_NAME[selection.kind]
    if selection.name is None:
        if not of_kind:
            raise EmbedError(f"{selection.path} declares no {kind.collection}")
        return of_kind
    named = [p for p in of_kind if p.name == selection.name]
    if not named:
        names = ", ".join(p.name for p in of_kind[:MAX_LISTED]) + (", ..." if len(of_kind) > MAX_LISTED else "")
        raise EmbedError(
            f"{selection.path} declares no {kind.singular.lower()} named {selection.name!r}"
            + (f" (it has {names})" if names else "")
        )
    return named
