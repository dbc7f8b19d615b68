"""``mcpdesc-docs gh-deploy``: build in memory, then publish to a branch (``publish.ghpages``)."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from ..config import load_config
from ..diagnostics import write_line
from ..errors import ExitCode
from ..pipeline import render_description
from ..publish.ghpages import prepare, publish
from .validate import report


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
) -> int:
    target = prepare(load_config(Path(path)), remote=remote, branch=branch, push=push)
    outcome = render_description(target.config)
    report(outcome.validation, "text", out)
    if outcome.files is None:
        write_line(err, f"mcpdesc-docs: nothing published; {target.branch!r} was left as it was")
        return ExitCode.INVALID
    published = publish(target, outcome.files, message=message, force=force)
    if not published.changed:
        write_line(err, f"mcpdesc-docs: the site is unchanged; {target.branch!r} stays at {published.commit[:12]}")
        return ExitCode.OK
    write_line(err, f"mcpdesc-docs: published {published.commit[:12]} to {published.where}")
    if target.config.site_url and push:
        write_line(err, f"mcpdesc-docs: the site will appear at {target.config.site_url}")
    return ExitCode.OK
