"""Write the rendered site: staged in a temporary sibling directory, swapped in only when
complete, so a failed build never touches the previous site and no stale file survives."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

from .errors import UsageError

MARKER = ".mcpdesc-docs"
"""Every site a build writes has it, and a build replaces only directories that do. Not
``.nojekyll``: MkDocs, Sphinx and many Pages checkouts write that too."""
MARKER_TEXT = b"This directory is a site built by mcpdesc-docs; each build replaces it whole.\n"
_LEGACY_GENERATOR = b'<meta name="generator" content="mcpdesc-docs '
"""How a site from before the marker shows that we wrote it (with ``.nojekyll``)."""
_STAGING = re.compile(r"\.(?P<name>.+)\.(?:staging|old)-(?:(?P<pid>\d+)-)?[^/-]+")
_STALE_SECONDS = 24 * 3600
"""After a day a staging directory is stale whoever made it (its pid may have been reused)."""
_UNNAMED_STALE_SECONDS = 3600
"""Directories from versions that did not record their pid: stale after an hour."""


def safe_relative_path(name: str) -> PurePosixPath:
    """Reject any output path that could leave the site directory."""
    # Judge the raw segments: PurePosixPath would quietly fold "a//b" and "./x".
    segments = name.split("/")
    if "\\" in name or any(segment in ("", ".", "..") for segment in segments):
        raise ValueError(f"unsafe output path {name!r}")
    return PurePosixPath(name)


def _written_by_us(directory: Path) -> bool:
    if (directory / MARKER).is_file():
        return True
    index = directory / "index.html"
    if not (directory / ".nojekyll").is_file() or not index.is_file():
        return False
    with open(index, "rb") as handle:
        return _LEGACY_GENERATOR in handle.read(4096)


def check_site_dir(site_dir: Path, protected: list[Path]) -> None:
    """Refuse a site directory whose replacement would destroy something that is not a site."""
    target = site_dir.resolve()
    for path in protected:
        resolved = path.resolve()
        if target == resolved or target in resolved.parents:
            raise UsageError(f"the site directory {site_dir} contains {path}; choose another output directory")
    if not target.exists():
        return
    if not target.is_dir():
        raise UsageError(f"{site_dir} exists and is not a directory")
    if (target / ".git").exists():
        # A Pages checkout, or a repository: replacing it would delete its history.
        raise UsageError(f"refusing to replace {site_dir}: it is a git work tree (it holds .git)")
    if any(target.iterdir()) and not _written_by_us(target):
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
    mark: bool = True,
) -> None:
    """``previous``/``previous_dir``: the last build's files and where they are; a file
    whose bytes did not change is hard-linked from there instead of written again.
    ``mark``: write the marker that lets a later build replace this directory."""
    parent = site_dir.resolve().parent
    parent.mkdir(parents=True, exist_ok=True)
    remove_stale_staging(parent, site_dir.name)
    staging = Path(tempfile.mkdtemp(prefix=f".{site_dir.name}.staging-{os.getpid()}-", dir=parent))
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
        if mark:
            (staging / MARKER).write_bytes(MARKER_TEXT)
        os.chmod(staging, 0o755)  # mkdtemp makes it private; a site is meant to be read
        _swap(staging, site_dir.resolve())
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def remove_stale_staging(parent: Path, name: str) -> None:
    """Delete what an interrupted build of ``name`` left beside it: staging and retired
    directories whose process is gone (those of a build still running are kept)."""
    for candidate in parent.glob(f".{glob_escape(name)}.*-*"):
        match = _STAGING.fullmatch(candidate.name)
        if match is None or match["name"] != name or not candidate.is_dir() or candidate.is_symlink():
            continue
        pid = match["pid"]
        age = time.time() - candidate.stat().st_mtime
        gone = pid is not None and not _process_alive(int(pid))
        if gone or age > (_STALE_SECONDS if pid is not None else _UNNAMED_STALE_SECONDS):
            shutil.rmtree(candidate, ignore_errors=True)


def glob_escape(text: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", text)


def _process_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: alive
    return True


def _swap(staging: Path, site_dir: Path) -> None:
    if not site_dir.exists():
        os.replace(staging, site_dir)
        return
    retired = Path(tempfile.mkdtemp(prefix=f".{site_dir.name}.old-{os.getpid()}-", dir=site_dir.parent))
    os.rmdir(retired)
    os.replace(site_dir, retired)
    try:
        os.replace(staging, site_dir)
    except BaseException:
        os.replace(retired, site_dir)  # put the previous site back
        raise
    shutil.rmtree(retired, ignore_errors=True)
