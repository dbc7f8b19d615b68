"""``mcpdesc-docs new [--portal] DIR``: scaffold a documentation project (or a portal of
many servers) with a Pages workflow."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from ..diagnostics import write_line
from ..errors import ExitCode
from ..publish.scaffold import PORTAL, PORTAL_DESCRIPTIONS, SITE, create_project


def run(directory: str, *, err: TextIO, portal: bool = False) -> int:
    target = Path(directory)
    scaffold = create_project(target, PORTAL if portal else SITE)
    write_line(err, f"mcpdesc-docs: created {target} with {', '.join(scaffold.files)}")
    if scaffold.in_repository and scaffold.project_dir != ".":
        write_line(
            err,
            f"mcpdesc-docs: created {scaffold.workflow} at the root of the repository: every push to "
            f"{scaffold.branch} builds {scaffold.project_dir}/ and publishes its site on GitHub Pages",
        )
    else:
        write_line(
            err,
            f"mcpdesc-docs: with {target} as the repository's root, every push to {scaffold.branch} "
            "builds the site and publishes it on GitHub Pages",
        )
    write_line(err, "mcpdesc-docs: on GitHub, once: Settings > Pages > Build and deployment > Source: GitHub Actions")
    if portal:
        servers, folder = target / "servers.json", target / PORTAL_DESCRIPTIONS
        write_line(
            err,
            f"mcpdesc-docs: next: list your servers in {servers}, then "
            f"mcpdesc-docs describe --servers {servers} -o {folder}, and remove the two example descriptions there",
        )
        return ExitCode.OK
    write_line(err, f"mcpdesc-docs: next: mcpdesc-docs serve {target}")
    return ExitCode.OK
