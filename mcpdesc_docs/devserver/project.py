"""The builder ``serve`` uses for a project: the pipeline, re-read on every rebuild."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from ..config import Config, load_config
from ..diagnostics import format_text, write_line, write_report
from ..errors import ProjectError, UsageError
from ..model.primitives import PageCache
from ..pipeline import BuildSession, render_description, validate_description
from ..portal.serve import PortalSession
from ..render.pages import RenderCache
from ..resources import builtin_dir
from ..source.git_spec import GIT_PREFIX
from ..validation.rule_cache import RuleCache
from .builder import Rebuild
from .watch import real_path


class ProjectBuilder:
    """Reads the config and the description afresh each time (editing either is an edit
    like any other) and reports in the terminal as ``build`` does. Pages whose content did
    not change are reused between builds until a template or theme file changes, an
    edit inside one item of the description re-parses only that item, and the local
    rules check again only the primitives an edit changed."""

    def __init__(self, path: Path, *, out: TextIO, err: TextIO) -> None:
        self.path = path
        self.out = out
        self.err = err
        self._config: Config | None = None
        self.session = BuildSession()
        """What outlives a build: the incremental readers, the memos and every cache."""
        self.portal = PortalSession()
        """A portal's servers, kept by content key (``descriptions:``)."""

    @property
    def page_cache(self) -> PageCache:
        return self.session.page_cache

    @property
    def rule_cache(self) -> RuleCache:
        return self.session.rule_cache

    @property
    def render_cache(self) -> RenderCache:
        return self.session.render_cache

    @property
    def config(self) -> Config | None:
        """The config of the last build that could read one."""
        return self._config

    def build(self, changed: Sequence[str] = ()) -> Rebuild:
        theme_changed = any(self._is_theme_file(path) for path in changed)
        try:
            config = load_config(self.path)
            self._config = config
            if config.is_portal:
                return self._build_portal(config)
            self.session.begin(config, theme_changed=theme_changed)
            validation = validate_description(config, self.session)
            outcome = render_description(config, validation, self.session)
        except ProjectError as exc:
            self.err.write(format_text(exc.diagnostics))
            return Rebuild(None, tuple(exc.diagnostics))
        except UsageError as exc:
            write_line(self.err, f"mcpdesc-docs: error: {exc}")
            return Rebuild(None, message=str(exc))
        validation = outcome.validation
        if validation.diagnostics or outcome.files is None:
            spec = validation.specification.name if validation.specification else None
            write_report(self.out, validation.diagnostics, validation.file, spec, "text", text=validation.text)
            # Standard output piped to a file or another program is block-buffered: without
            # this the problems of an edit would show up only when serve exits.
            self.out.flush()
        return Rebuild(outcome.files, tuple(validation.diagnostics), pages=outcome.pages)

    def _build_portal(self, config: Config) -> Rebuild:
        """Every server whose content changed rendered again, the others kept; a rejected
        description is reported here and listed on the portal's rejected page."""
        files, results = self.portal.build(config)
        for result in results:
            if result.rendered and result.diagnostics:
                spec = result.specification
                write_report(self.out, result.diagnostics, result.report_name, spec, "text", text=result.text)
        self.out.flush()
        diagnostics = tuple(d for result in results for d in result.diagnostics)
        return Rebuild(files, diagnostics, pages=sum(r.pages for r in results))

    def _theme_roots(self) -> list[Path]:
        roots = [builtin_dir("templates"), builtin_dir("themes")]
        if self._config is not None and self._config.theme.custom_dir is not None:
            roots.append(self._config.theme.custom_dir)
        return roots

    def _is_theme_file(self, path: str) -> bool:
        candidate = real_path(path)
        return any(candidate.is_relative_to(real_path(root)) for root in self._theme_roots())

    def watch_paths(self) -> list[Path]:
        """What the site is made of, and nothing else (a log file written beside the
        description must not rebuild in a loop): the config, the description, extra_css
        files, the custom_dir and the built-in templates and themes."""
        config = self._config
        paths = [builtin_dir("templates"), builtin_dir("themes")]
        if config is None:
            # No config read yet: any change beside PATH may be the fix.
            paths.append(self.path if self.path.is_dir() else self.path.parent)
            return paths
        if config.config_file is not None:
            paths.append(config.config_file)
        if config.is_portal:
            # A new file a glob would match: the directories the descriptions are in.
            paths.extend(sorted({server.path.parent for server in config.descriptions}))
        else:
            paths.append(config.description)
        if config.previous is not None and not config.previous.startswith(GIT_PREFIX):
            paths.append(Path(config.previous))
        paths.extend(config.project_dir / css for css in config.extra_css)
        if config.theme.custom_dir is not None:
            paths.append(config.theme.custom_dir)
        return paths

    def ignore_paths(self) -> list[Path]:
        return [self._config.site_dir] if self._config is not None else []
