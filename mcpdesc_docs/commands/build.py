"""``mcpdesc-docs build [PATH]``: validate, then render the site and swap it in."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TextIO

from ..config import Config, load_config
from ..diagnostics import write_line
from ..errors import ExitCode, UsageError
from ..output import StagedSite, check_site_dir
from ..pipeline import BuildOutcome, protected_paths, render_description
from ..process_switches import frozen_heap
from ..render.pages import Parallel
from ..render.parallel import jobs_allowed
from ..validation.validator import validate_file
from .validate import report

INTERRUPTED = "interrupted; the previous site is unchanged"
"""What Ctrl-C during a build says: the pages went to a staging directory, which is
deleted, and the site directory was never touched."""


def run(
    path: str,
    *,
    site_dir: str | None,
    strict: bool,
    output_format: str,
    out: TextIO,
    err: TextIO,
    jobs: int | None = None,
    keep_going: bool = False,
    shard: tuple[int, int] | None = None,
) -> int:
    """``jobs``: worker processes (0: the usable cores; None: the config's ``jobs``).
    ``keep_going`` and ``shard``: a portal's (``commands.portal``)."""
    started = time.perf_counter()
    try:
        config = load_config(Path(path), site_dir=Path(site_dir) if site_dir else None, strict=strict)
        if config.is_portal:
            if shard is not None and site_dir is None:
                raise UsageError("--shard K/N writes the shard into the directory -o names")
            return _portal(config, jobs, keep_going, shard, output_format, out, err, started)
        if keep_going or shard is not None:
            raise UsageError("--keep-going and --shard apply to a portal (a config with 'descriptions')")
        built = _build(config, jobs=jobs, output_format=output_format, out=out, err=err)
    except KeyboardInterrupt:
        # StagedSite has deleted what was staged on its way out, and the site directory
        # is only touched by the swap, which either happened (and _build returned) or did
        # not. One line instead of the traceback of wherever rendering happened to be.
        write_line(err, f"mcpdesc-docs: {INTERRUPTED}")
        return ExitCode.INTERRUPTED
    if isinstance(built, ExitCode):
        return built
    outcome, written_to = built
    elapsed = time.perf_counter() - started
    noun = "page" if outcome.pages == 1 else "pages"
    write_line(err, f"mcpdesc-docs: built {outcome.pages} {noun} into {written_to} in {elapsed:.2f} s")
    if outcome.legacy_format is not None:
        # Advice for the author, so it is said here rather than on the pages readers see.
        legacy = outcome.legacy_format
        write_line(err, f"note: the description is mcpdesc {legacy}; `mcpdesc-docs migrate` converts it to 0.9.0")
    return ExitCode.OK


def _portal(
    config: Config,
    jobs: int | None,
    keep_going: bool,
    shard: tuple[int, int] | None,
    output_format: str,
    out: TextIO,
    err: TextIO,
    started: float,
) -> int:
    # Ctrl-C is run's to report, as for one description. Imported here: a site of one
    # description does not load the portal's modules.
    from . import portal

    built = portal.build(
        config, jobs=jobs, keep_going=keep_going, shard=shard, output_format=output_format, out=out, err=err
    )
    if isinstance(built, ExitCode):
        return built
    outcome, written_to = built
    what = f"shard {shard[0]}/{shard[1]}" if shard is not None else "the portal"
    elapsed = time.perf_counter() - started
    write_line(err, f"mcpdesc-docs: built {what}, {outcome.pages} pages, into {written_to} in {elapsed:.2f} s")
    return ExitCode.OK


def _build(
    config: Config,
    *,
    jobs: int | None,
    output_format: str,
    out: TextIO,
    err: TextIO,
) -> tuple[BuildOutcome, Path] | ExitCode:
    """Validate and, when the description is accepted, write the site: what was built and
    where, or the exit code of a build that stopped."""
    check_site_dir(config.site_dir, protected_paths(config))
    validation = validate_file(
        config.description, name=str(config.description), limits=config.limits, suppress=config.suppress
    )
    report(validation, output_format, out)
    if validation.accepted(strict=config.strict) is None:
        write_line(err, f"mcpdesc-docs: build aborted; {config.site_dir} was left unchanged")
        return ExitCode.INVALID
    # The parsed description, the rules' views of it and the site's model live until the
    # build ends. Frozen once validated and once modelled, they are no longer walked by
    # every full collection while pages render: 0.72 s -> 0.42 s of full collections at
    # 5,000 tools. Unfrozen after, for a caller that goes on in this process.
    # Pages are written into the staging directory as they are rendered (not held in
    # memory); only a complete site replaces the previous one.
    with frozen_heap() as freeze_what_is_new, StagedSite(config.site_dir) as staged:
        parallel = Parallel(jobs_allowed(jobs, config.jobs), staged.settle, lambda: staged.worker_write)
        outcome = render_description(
            config, validation, sink=staged.write, modelled=freeze_what_is_new, parallel=parallel
        )
        staged.commit()
    return outcome, config.site_dir
