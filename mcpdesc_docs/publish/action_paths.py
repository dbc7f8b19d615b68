"""``python -m mcpdesc_docs.publish.action_paths PATH``: where a project's description and
site are, for the GitHub Action (``action.yml``) to hand to ``describe --check`` and to the
Pages upload. Printed as ``name=value`` lines, the form ``$GITHUB_OUTPUT`` takes, relative
to the working directory (the repository root), since every ``with:`` path is read so."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ..config import load_config
from ..diagnostics import write_line
from ..errors import ExitCode, UsageError


def outputs(path: str) -> dict[str, str]:
    """The step outputs for PATH (a project directory, its config, or a description)."""
    config = load_config(Path(path))
    return {
        "description": os.path.relpath(config.description),
        "site-dir": os.path.relpath(config.site_dir),
    }


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        write_line(sys.stderr, "usage: python -m mcpdesc_docs.publish.action_paths PATH")
        return ExitCode.USAGE
    try:
        found = outputs(argv[0])
    except UsageError as exc:  # a ProjectError too
        # The build step before this one has reported the details as annotations.
        write_line(sys.stderr, f"mcpdesc-docs: {exc}")
        return ExitCode.USAGE
    for name, value in found.items():
        # A newline in a value would start another output (or a workflow command).
        if "\n" in value or "\r" in value:
            write_line(sys.stderr, f"mcpdesc-docs: the {name} path holds a line break; rename it")
            return ExitCode.USAGE
        write_line(sys.stdout, f"{name}={value}")
    return ExitCode.OK


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
