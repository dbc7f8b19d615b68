"""``build`` of a portal (``descriptions:``), and ``build --shard K/N``: each description
reported as ``validate`` reports it; a rejected one stops the build (exit 1, the previous
site untouched) unless ``--keep-going`` publishes the others and lists it."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from ..config import Config
from ..diagnostics import format_sarif, json_report, write_json, write_line, write_report
from ..errors import ExitCode
from ..output import StagedSite, check_site_dir
from ..pipeline import protected_paths
from ..portal.build import PortalOutcome, build_portal
from ..portal.server import ServerResult
from ..process_switches import frozen_heap
from ..render.parallel import jobs_allowed
from .validate import rule_help


def report_results(results: list[ServerResult], output_format: str, out: TextIO) -> None:
    """Every description's problems, in the config's order: one SARIF log or one JSON list
    for them all, text and GitHub annotations one after another."""
    if output_format == "sarif":
        out.write(format_sarif([d for r in results for d in r.diagnostics], rule_help))
    elif output_format == "json":
        write_json(out, [json_report(r.diagnostics, r.report_name, r.specification) for r in results if r.rendered])
    else:
        for result in results:
            if result.rendered and (result.diagnostics or output_format == "text"):
                spec = result.specification
                write_report(out, result.diagnostics, result.report_name, spec, output_format, text=result.text)


def portal_protected(config: Config) -> list[Path]:
    return [*protected_paths(config), *(server.path for server in config.descriptions)]


def build(
    config: Config,
    *,
    jobs: int | None,
    keep_going: bool,
    shard: tuple[int, int] | None,
    output_format: str,
    out: TextIO,
    err: TextIO,
) -> tuple[PortalOutcome, Path] | ExitCode:
    """Render the portal (or one shard of it) into the site directory: what was built and
    where, or the exit code of a build that stopped."""
    check_site_dir(config.site_dir, portal_protected(config))
    previous = config.site_dir if config.site_dir.is_dir() else None
    with frozen_heap(), StagedSite(config.site_dir) as staged:
        workers = jobs_allowed(jobs, config.jobs)
        outcome = build_portal(config, staged, jobs=workers, shard=shard, reuse_from=previous)
        report_results(outcome.results, output_format, out)
        rejected = outcome.rejected
        for result in rejected:
            write_line(err, f"mcpdesc-docs: {result.report_name}: rejected (left out of the portal)")
        if rejected and not keep_going:
            noun = "description was" if len(rejected) == 1 else "descriptions were"
            write_line(
                err,
                f"mcpdesc-docs: build aborted; {len(rejected)} {noun} rejected and {config.site_dir} was left "
                "unchanged (--keep-going publishes the others)",
            )
            return ExitCode.INVALID
        staged.commit()
    rendered = len(outcome.rendered)
    write_line(
        err,
        f"mcpdesc-docs: {len(outcome.results) - len(rejected)} of {len(outcome.results)} servers published; "
        f"{rendered} rendered, {len(outcome.results) - len(rejected) - rendered} unchanged",
    )
    return outcome, config.site_dir
