"""``mcpdesc-docs gh-deploy``: build in memory, then publish to a branch (``publish.ghpages``),
as the whole branch or, with ``--version``, as one version of several (``publish.versioned``).
A portal is built into a scratch directory and published whole."""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TextIO
from urllib.parse import quote

from ..config import Config, load_config
from ..diagnostics import write_line
from ..errors import ExitCode, UsageError
from ..output import MARKER
from ..pipeline import render_description
from ..publish.ghpages import Published, Target, branch_file, prepare, publish
from ..publish.versioned import VersionedChange, branch_versions, publish_versioned
from ..publish.versions import MAX_VERSIONS_FILE, VERSIONS_FILE, check_name
from ..records import record
from ..render.version_menu import VersionMenu
from . import portal
from .validate import report


@record
class VersionOptions:
    """``--version``, ``--alias``, ``--title``, ``--delete-version`` and ``--set-default``."""

    version: str | None = None
    aliases: tuple[str, ...] = ()
    title: str | None = None
    delete: str | None = None
    set_default: str | None = None

    @property
    def versioned(self) -> bool:
        return any((self.version, self.delete, self.set_default))


def run(
    path: str,
    *,
    remote: str,
    branch: str,
    message: str | None,
    push: bool,
    force: bool,
    out: TextIO,
    err: TextIO,
    versions: VersionOptions | None = None,
) -> int:
    options = versions or VersionOptions()
    _check_options(options)
    config = load_config(Path(path))
    if config.is_portal and options.versioned:
        raise UsageError("a portal is published whole: --version and its options apply to one description's site")
    target = prepare(config, remote=remote, branch=branch, push=push)
    if options.versioned:
        published = _publish_versioned(target, options, message=message, force=force, out=out, err=err)
    else:
        if branch_file(target, VERSIONS_FILE, MAX_VERSIONS_FILE) is not None:
            raise UsageError(
                f"{target.branch!r} holds versioned documentation ({VERSIONS_FILE}); a plain gh-deploy "
                "would replace every version: publish with --version, or to another --branch"
            )
        if target.config.is_portal:
            files = _portal_files(target.config, out, err)
        else:
            outcome = render_description(target.config)
            report(outcome.validation, "text", out)
            files = outcome.files
        published = None if files is None else publish(target, files, message=message, force=force)
    if published is None:
        write_line(err, f"mcpdesc-docs: nothing published; {target.branch!r} was left as it was")
        return ExitCode.INVALID
    if not published.changed:
        write_line(err, f"mcpdesc-docs: the site is unchanged; {target.branch!r} stays at {published.commit[:12]}")
        return ExitCode.OK
    write_line(err, f"mcpdesc-docs: published {published.commit[:12]} to {published.where}")
    if target.config.site_url and push:
        write_line(err, f"mcpdesc-docs: the site will appear at {target.config.site_url}")
    return ExitCode.OK


def _portal_files(config: Config, out: TextIO, err: TextIO) -> Mapping[str, bytes] | None:
    """The portal's files, built as ``build`` builds it (every description must pass), into a
    scratch directory that is deleted after; None when a description was rejected."""
    with tempfile.TemporaryDirectory(prefix="mcpdesc-docs-portal-") as scratch:
        site = Path(scratch) / "site"
        built = portal.build(
            replace(config, site_dir=site),
            jobs=None,
            keep_going=False,
            shard=None,
            output_format="text",
            out=out,
            err=err,
        )
        if isinstance(built, ExitCode):
            return None
        # The marker that lets a build replace its own output is not part of the site.
        return {
            file.relative_to(site).as_posix(): file.read_bytes()
            for file in sorted(site.rglob("*"))
            if file.is_file() and file.relative_to(site).as_posix() != MARKER
        }


def _check_options(options: VersionOptions) -> None:
    if options.version is not None:
        check_name(options.version, "version")
        for alias in options.aliases:
            check_name(alias, "alias")
    elif options.aliases or options.title is not None:
        raise UsageError("--alias and --title describe a version: give --version too")
    if options.delete is not None and (options.version is not None or options.set_default is not None):
        raise UsageError("--delete-version is a change of its own: give it without --version or --set-default")
    if options.title is not None and not (0 < len(options.title) <= 200 and options.title.isprintable()):
        raise UsageError("--title takes a printable title of up to 200 characters")


def _publish_versioned(
    target: Target, options: VersionOptions, *, message: str | None, force: bool, out: TextIO, err: TextIO
) -> Published | None:
    on_branch = branch_versions(target)
    site_name = target.config.site_name or "Documentation"
    if options.delete is not None:
        change = VersionedChange(on_branch.delete(options.delete), None, site_name, f"deletion of {options.delete}")
        _say_default(on_branch.default, change.versions.default, err)
        return publish_versioned(target, None, change, message=message, force=force)
    if options.version is None:  # then --set-default alone (``versioned`` says one of the three is given)
        default = on_branch.with_default(options.set_default or "")
        change = VersionedChange(default, None, site_name, f"a new default, {options.set_default}")
        return publish_versioned(target, None, change, message=message, force=force)

    version = options.version
    after = on_branch.deploy(version, options.aliases, options.title)
    if options.set_default is not None:
        after = after.with_default(options.set_default)
    config = target.config
    if config.site_url:  # canonical links, the sitemap and 404.html's <base> point into the version
        config = replace(config, site_url=f"{config.site_url}{quote(version, safe='')}/")
    outcome = render_description(config, versions=VersionMenu(version, after.entries))
    report(outcome.validation, "text", out)
    if outcome.files is None:
        return None
    change = VersionedChange(after, version, site_name, f"version {version}")
    published = publish_versioned(target, outcome.files, change, message=message, force=force)
    moved = [a for a in options.aliases if (owner := on_branch.find(a)) is not None and owner.version != version]
    for alias in moved:
        write_line(err, f"mcpdesc-docs: alias {alias!r} moved to {version!r}")
    return published


def _say_default(before: str | None, after: str | None, err: TextIO) -> None:
    if before != after:
        write_line(err, f"mcpdesc-docs: the default is now {after!r}" if after else "mcpdesc-docs: no version is left")
