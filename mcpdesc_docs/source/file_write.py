"""Writing a user's file so that no failure can cost them the file they had.

The new text is written to a file beside the target (the same directory, so the same file
system), flushed to disk, given the target's mode and, where the process may, its owner
and group, and only then renamed over the target. ``os.replace`` is atomic: a reader sees
the old file or the new one, never a part of either, and a full disk, a missing permission
or a killed process leaves the original byte for byte as it was. A symbolic link stays a
link: the file it leads to is the one replaced. A target that is not a regular file (a
pipe, ``/dev/stdout``) cannot be replaced and is written into.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path

# Room for the staging name's dot and suffix within the usual 255-byte name limit.
_LONGEST_STAGED_STEM = 100


class FileWriteError(OSError):
    """A write that did not happen; the message says what became of the target."""


def write_user_file(path: str | os.PathLike[str], text: str) -> None:
    """Replace (or create) ``path`` with ``text`` as UTF-8, all or nothing."""
    data = text.encode("utf-8")
    shown = os.fspath(path)
    try:
        existing = os.stat(path)
    except FileNotFoundError:
        existing = None
    except OSError as exc:
        raise _failure(shown, exc, existed=True) from exc
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        _write_into(shown, data)
        return
    target = Path(os.path.realpath(path))
    try:
        _replace(target, data, existing)
    except OSError as exc:
        raise _failure(shown, exc, existed=existing is not None) from exc


def _failure(shown: str, exc: OSError, *, existed: bool) -> FileWriteError:
    outcome = "the file is as it was" if existed else "nothing was written"
    return FileWriteError(exc.errno, f"cannot write {shown}: {exc.strerror or exc}; {outcome}")


def _write_into(shown: str, data: bytes) -> None:
    try:
        with open(shown, "wb") as stream:
            stream.write(data)
    except OSError as exc:
        raise FileWriteError(exc.errno, f"cannot write {shown}: {exc.strerror or exc}") from exc


def _replace(target: Path, data: bytes, existing: os.stat_result | None) -> None:
    staging, handle = _staging_file(target, existing)
    try:
        with os.fdopen(handle, "wb") as stream:
            if existing is not None:
                _keep_owner_and_mode(stream.fileno(), existing)
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(staging, target)
    except BaseException:
        with contextlib.suppress(OSError):
            staging.unlink()
        raise
    _sync_directory(target.parent)


def _staging_file(target: Path, existing: os.stat_result | None) -> tuple[Path, int]:
    # A new file gets what open() would give it (0o666 less the umask); a replacement starts
    # private and takes the original's mode once its owner is settled.
    mode = 0o600 if existing is not None else 0o666
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    stem = target.name[:_LONGEST_STAGED_STEM]
    while True:
        staging = target.with_name(f".{stem}.{secrets.token_hex(4)}.tmp")
        try:
            return staging, os.open(staging, flags, mode)
        except FileExistsError:
            continue


def _keep_owner_and_mode(handle: int, existing: os.stat_result) -> None:
    mode = stat.S_IMODE(existing.st_mode)
    owned = os.fstat(handle)
    if (owned.st_uid, owned.st_gid) != (existing.st_uid, existing.st_gid):
        # Only root may give a file away; anyone may pass it to a group they belong to.
        for owner in (existing.st_uid, -1):
            try:
                os.fchown(handle, owner, existing.st_gid)
                break
            except PermissionError:
                continue
        owned = os.fstat(handle)
        if (owned.st_uid, owned.st_gid) != (existing.st_uid, existing.st_gid):
            # Set-id bits mean "run as that owner"; on a file owned by someone else they
            # would mean something the original never did.
            mode &= ~(stat.S_ISUID | stat.S_ISGID)
    os.fchmod(handle, mode)


def _sync_directory(directory: Path) -> None:
    """Make the rename itself durable; some file systems cannot, and the file is in place."""
    with contextlib.suppress(OSError):
        handle = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(handle)
        finally:
            os.close(handle)
