"""The two sides of a diff: a description file, or ``git:REF:PATH`` read from a repository's
history (``git cat-file``, as ``git show REF:PATH`` names it: PATH from the repository's
root, or ``./PATH`` from the current directory). Each side must be readable as a
description of a known format (else its problems are reported, located, and nothing is
compared); one with validation errors is still compared, and the errors counted, since an
example that no longer fits its schema says nothing about what changed for a client."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import BinaryIO, cast

from ..errors import DescriptionError, ProjectError, UsageError
from ..source.limits import DEFAULT_LIMITS, Limits
from ..source.load import Format, Source, parse_bytes, read_at_most, read_source
from ..validation.validator import validate_source
from .view import View, view_of

GIT_PREFIX = "git:"
GIT_TIMEOUT = 60.0


@dataclass(frozen=True, slots=True)
class Side:
    name: str
    """How reports name it: the path, or ``git:REF:PATH``."""
    file: str
    """The file annotations point at (the PATH of a ``git:`` side)."""
    source: Source
    view: View
    version: str | None
    """``info.version``, when it is a string (the Changes page says "since 1.2.0")."""
    errors: int = 0
    """Validation errors found in it (``validate`` shows them)."""


def _format_of(path: str) -> Format | None:
    suffix = PurePosixPath(path).suffix.lower()
    return "json" if suffix == ".json" else "yaml" if suffix in {".yaml", ".yml"} else None


def _from_git(spec: str, limits: Limits) -> tuple[Source, str]:
    ref, colon, path = spec.removeprefix(GIT_PREFIX).partition(":")
    if not colon or not ref or not path:
        raise UsageError(f"{spec}: write git:REF:PATH (for example git:main:server.mcpdesc.yaml)")
    if ref.startswith("-"):
        raise UsageError(f"{spec}: a git revision cannot start with '-'")
    git = shutil.which("git")
    if git is None:
        raise UsageError(f"{spec}: git is not installed")
    with subprocess.Popen(
        [git, "cat-file", "blob", f"{ref}:{path}"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as child:
        stdout, stderr = cast("BinaryIO", child.stdout), cast("BinaryIO", child.stderr)
        raw = read_at_most(stdout, limits.max_bytes + 1)  # no more than a file may hold
        stdout.close()
        try:
            problem = stderr.read(4096).decode("utf-8", "replace").strip()
            code = child.wait(timeout=GIT_TIMEOUT)
        except subprocess.TimeoutExpired:
            child.kill()
            raise UsageError(f"{spec}: git did not answer in {GIT_TIMEOUT:.0f} s") from None
    if code != 0 and len(raw) <= limits.max_bytes:
        first = problem.splitlines()[0] if problem else f"git exited with {code}"
        raise UsageError(f"{spec}: {first}")
    return parse_bytes(raw, spec, fmt=_format_of(path), limits=limits), path.removeprefix("./")


def read_side(spec: str, limits: Limits = DEFAULT_LIMITS) -> Side:
    """One side, read and validated. UsageError when it cannot be read; ProjectError (with
    located diagnostics) when it is not a valid description."""
    try:
        if spec.startswith(GIT_PREFIX):
            source, file = _from_git(spec, limits)
        else:
            source, file = read_source(Path(spec), limits=limits, name=spec), spec
    except DescriptionError as exc:
        raise ProjectError(exc.diagnostics) from None
    result = validate_source(source, limits)
    errors = [d for d in result.diagnostics if d.is_error]
    if result.checked is None:
        raise ProjectError(errors or result.diagnostics)
    document = result.checked.document
    info = document.data.get("info")
    version = info.get("version") if isinstance(info, dict) else None
    return Side(spec, file, source, view_of(document), version if isinstance(version, str) else None, len(errors))


__all__ = ["GIT_PREFIX", "Side", "read_side"]
