"""Write the rendered site: staged in a temporary sibling directory, swapped in only when
complete, so a failed build never touches the previous site and no stale file survives."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

from .errors import UsageError

MARKER = ".nojekyll"
"""Every site we write has it; a non-empty directory without it is not ours to replace."""


def safe_relative_path(name: str) -> PurePosixPath:
    """Reject any output path that could leave the site directory."""
    # Judge the raw segments: PurePosixPath would quietly fold "a//b" and "./x".
    segments = name.split("/")
    if "\\" in name or any(segment in ("", ".", "..") for segment in segments):
        raise ValueError(f"unsafe output path {name!r}")
    return PurePosixPath(name)


def check_site_dir(site_dir: Path, protected: list[Path]) -> None:
    """Refuse a site directory whose replacement would destroy something that is not a site."""
    target = site_dir.resolve()
    for path in protected:
        resolved = path.resolve()
        if target == resolved or target in resolved.parents:
            raise UsageError(f"the site directory {site_dir} contains {path}; choose another output directory")
    if target.exists():
        if not target.is_dir():
            raise UsageError(f"{site_dir} exists and is not a directory")
        if any(target.iterdir()) and not (target / MARKER).exists():
            raise UsageError(
                f"refusing to replace {site_dir}: it is not empty and was not written by mcpdesc-docs "
                f"(no {MARKER}); remove it or choose another output directory"
            )


def write_site(
    files: Mapping[str, bytes],
    site_dir: Path,
    *,
    previous: Mapping[str, bytes] | None = None,
    previous_dir: Path | None = None,
) -> None:
    """``previous``/``previous_dir``: the last build's files and where they are; a file
    whose bytes did not change is hard-linked from there instead of written again."""
    parent = site_dir.resolve().parent
    parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{site_dir.name}.staging-", dir=parent))
    made: set[Path] = set()
    try:
        for name, content in sorted(files.items()):
            relative = safe_relative_path(name)
            target = staging.joinpath(*relative.parts)
            if target.parent not in made:
                target.parent.mkdir(parents=True, exist_ok=True)
                made.add(target.parent)
            if previous is not None and previous_dir is not None and previous.get(name) == content:
                try:
                    os.link(previous_dir.joinpath(*relative.parts), target)
                    continue
                except OSError:
                    pass  # another file system, or the file is gone: write it
            target.write_bytes(content)
        os.chmod(staging, 0o755)  # mkdtemp makes it private; a site is meant to be read
        _swap(staging, site_dir.resolve())
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _swap(staging: Path, site_dir: Path) -> None:
    if not site_dir.exists():
        os.replace(staging, site_dir)
        return
    retired = Path(tempfile.mkdtemp(prefix=f".{site_dir.name}.old-", dir=site_dir.parent))
    os.rmdir(retired)
    os.replace(site_dir, retired)
    try:
        os.replace(staging, site_dir)
    except BaseException:
        os.replace(retired, site_dir)  # put the previous site back
        raise
    shutil.rmtree(retired, ignore_errors=True)
