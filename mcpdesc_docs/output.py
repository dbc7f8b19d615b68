"""Write the rendered site: staged in a temporary sibling directory, swapped in only when
complete, so a failed build never touches the previous site and no stale file survives."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
import threading
import time
from collections import deque
from collections.abc import Mapping
from contextlib import ExitStack
from functools import partial
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from .errors import UsageError
from .process_switches import switch_interval_at_most

if TYPE_CHECKING:
    from concurrent.futures import Executor

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


WRITER_SWITCH_INTERVAL = 0.0002
"""Seconds the rendering thread may keep the GIL while the writer waits for it, as long
as the writer runs (Python's default is 0.005). Each of the writer's system calls gives
the GIL up, and getting it back costs up to this interval: at 5 ms the writer fell
behind and most files were written at the end; at 0.2 ms a build at 1,000 tools took
3.7 s against 4.7 s (5.6 s writing in the rendering thread), in the same hour."""
QUEUED_BYTES = 1 << 20
"""Bytes rendered but not yet written, at most (a file larger than this waits until the
queue is empty): bounds the memory waiting on the disk. Counting files instead let a run
of large tag pages hold 10 MB more at 5,000 tools."""


class _FileWriter:
    """Write files in a background thread while the caller renders the next page.

    Creating a file is a system call that releases the GIL and costs far more than
    writing its bytes: 0.4-0.8 ms of kernel time each on this project's virtual machine
    (ext4), against 20 µs on tmpfs, and a build at 1,000 tools creates 2,400 files. One
    thread, not several: threads creating files in the same directory contend for it in
    the kernel, which doubled the system time and saved nothing.

    The first failure (disk full, permissions) is raised in the caller's thread, at its
    next ``put`` or at ``finish``; files queued after it are dropped, as a sequential
    writer would never have reached them."""

    def __init__(self, budget: int = QUEUED_BYTES) -> None:
        self._budget = budget
        self._pending: deque[tuple[Path, bytes] | None] = deque()
        self._held = 0
        """Bytes queued or being written."""
        self._changed = threading.Condition()
        self._failure: BaseException | None = None
        self._abandoned = False
        # A daemon thread: an interpreter that is exiting never waits on a disk.
        self._thread = threading.Thread(target=self._run, name="mcpdesc-docs writer", daemon=True)
        self._thread.start()
        # For as long as the thread runs: ``finish`` leaves it, on every path.
        self._fast_switching = ExitStack()
        self._fast_switching.enter_context(switch_interval_at_most(WRITER_SWITCH_INTERVAL))

    def _run(self) -> None:
        while True:
            with self._changed:
                while not self._pending:
                    self._changed.wait()
                item = self._pending.popleft()
            if item is None:
                return
            path, content = item
            if self._failure is None and not self._abandoned:
                try:
                    _write_file(path, content)
                except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
                    self._failure = exc
            with self._changed:
                self._held -= len(content)
                self._changed.notify_all()

    def put(self, path: Path, content: bytes) -> None:
        self._raise_failure()
        self._enqueue((path, content), len(content))

    def _enqueue(self, item: tuple[Path, bytes] | None, size: int) -> None:
        with self._changed:
            while self._held and self._held + size > self._budget:
                self._changed.wait()
            self._pending.append(item)
            self._held += size
            self._changed.notify_all()

    def finish(self, *, abandon: bool = False) -> None:
        """Wait until the thread has stopped. ``abandon``: drop what is still queued (the
        caller is about to delete the directory, and no file may appear in it after)."""
        if abandon:
            self._abandoned = True
        try:
            self._enqueue(None, 0)
            self._thread.join()
        finally:  # an interrupt while waiting must not leave the process switching fast
            self._fast_switching.close()
        if not abandon:
            self._raise_failure()

    def _raise_failure(self) -> None:
        if self._failure is not None:
            raise self._failure


def _write_file(path: Path, content: bytes) -> None:
    """``path.write_bytes(content)`` in three system calls rather than six (no ``fstat``,
    ``isatty`` or ``lseek``): each one gives up the GIL, and the writer thread then waits
    for the rendering thread to hand it back."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0) | os.O_CLOEXEC, 0o666)
    try:
        view = memoryview(content)
        while view:
            view = view[os.write(descriptor, view) :]
    finally:
        os.close(descriptor)


PROBED_FILES = 64
"""Files a site writes itself, timed, before it judges the disk (and again after each as
many, until it hands the writing to a thread)."""
SLOW_FILE_SECONDS = 0.0002
"""Mean time to create and write one file above which a thread takes the writing over.
A thread costs the rendering thread about 0.1 ms a file (handing the GIL back and forth),
so it pays only on a disk slower than that: this project's virtual machine swings between
0.05 and 0.8 ms a file within an hour; a laptop's SSD takes a few hundredths of a
millisecond."""


class StagedSite:
    """A site being written: files go into a temporary sibling of ``site_dir`` as they come
    (a build streams its pages here instead of holding the whole site in memory), and
    ``commit`` swaps the directory in. Leaving the ``with`` block without committing (an
    error, an interrupt, an invalid description) deletes what was staged and leaves the
    previous site as it was.

    Files are written as they come, and timed; on a disk that proves slow (see
    ``SLOW_FILE_SECONDS``) a thread writes the rest while the next pages are rendered.
    ``threaded`` decides it instead of the timing (tests).

    ``mark``: write the marker that lets a later build replace this directory."""

    def __init__(self, site_dir: Path, *, mark: bool = True, threaded: bool | None = None) -> None:
        self.site_dir = site_dir
        self.mark = mark
        self.threaded = threaded
        self._staging: Path | None = None
        self._made: set[Path] = set()
        self._writer: _FileWriter | None = None
        self._probed = 0
        self._probe_seconds = 0.0
        self._kept: list[PurePosixPath] = []

    def __enter__(self) -> StagedSite:
        parent = self.site_dir.resolve().parent
        parent.mkdir(parents=True, exist_ok=True)
        remove_stale_staging(parent, self.site_dir.name)
        self._staging = Path(tempfile.mkdtemp(prefix=f".{self.site_dir.name}.staging-{os.getpid()}-", dir=parent))
        if self.threaded:
            self._writer = _FileWriter()
        return self

    def write(self, name: str, content: bytes) -> None:
        """Write one file, or queue it for the writer thread. An unsafe name is refused
        here; the thread's failure to write is raised by a later ``write`` or by ``commit``."""
        if self._staging is None:
            raise RuntimeError("StagedSite.write outside its with block, or after commit")
        relative = safe_relative_path(name)
        target = self._staging.joinpath(*relative.parts)
        if target.parent not in self._made:
            # Here, not in the writer thread: a directory exists before a file is queued in it.
            target.parent.mkdir(parents=True, exist_ok=True)
            self._made.add(target.parent)
        if self._writer is not None:
            self._writer.put(target, content)
            return
        started = time.perf_counter()
        _write_file(target, content)
        if self.threaded is None:
            self._judge_disk(time.perf_counter() - started)

    def _judge_disk(self, seconds: float) -> None:
        self._probed += 1
        self._probe_seconds += seconds
        if self._probed < PROBED_FILES:
            return
        if self._probe_seconds / self._probed > SLOW_FILE_SECONDS:
            self._writer = _FileWriter()
        self._probed, self._probe_seconds = 0, 0.0

    def settle(self) -> None:
        """Finish what the writer thread holds and stop it (the next files are written
        in the caller's thread), so that no thread is busy when the build forks workers."""
        if self._writer is not None:
            writer, self._writer = self._writer, None
            writer.finish()
        self.threaded = False

    def worker_write(self, name: str, content: bytes) -> None:
        """``write`` for a forked worker: straight to the staging directory, in the
        worker's own thread (it inherits no writer thread)."""
        if self._staging is None:
            raise RuntimeError("StagedSite.worker_write outside its with block")
        target = self._staging.joinpath(*safe_relative_path(name).parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        _write_file(target, content)

    def adopt_tree(self, name: str, source: Path) -> None:
        """Put the files of ``source`` (a directory of the previous site) under ``name``:
        hard links where the file system allows (the previous site is replaced, never
        written into, so the files are shared safely), copies elsewhere."""
        if self._staging is None:
            raise RuntimeError("StagedSite.adopt_tree outside its with block")
        target = self._staging.joinpath(*safe_relative_path(name).parts)
        for directory, _, files in os.walk(source):  # links to directories are not followed
            here = target / Path(directory).relative_to(source)
            here.mkdir(parents=True, exist_ok=True)
            for file in files:
                if (Path(directory) / file).is_symlink():  # nothing outside the tree is read
                    continue
                try:
                    os.link(Path(directory) / file, here / file)
                except OSError:
                    shutil.copyfile(Path(directory) / file, here / file)

    def keep(self, name: str) -> None:
        """Carry the previous site's directory ``name`` into the new site as it is: moved
        across when the build commits, just before the swap (a rename each, where copying
        or linking a portal's unchanged servers cost a file system call per file, and
        deleting the retired copies as many again). Until then the previous site is
        untouched; if a move fails, those done are moved back."""
        if self._staging is None:
            raise RuntimeError("StagedSite.keep outside its with block")
        self._kept.append(safe_relative_path(name))

    def commit(self) -> None:
        staging = self._staging
        if staging is None:
            raise RuntimeError("StagedSite.commit outside its with block, or twice")
        if self._writer is not None:
            writer, self._writer = self._writer, None
            writer.finish()
        if self.mark:
            (staging / MARKER).write_bytes(MARKER_TEXT)
        os.chmod(staging, 0o755)  # mkdtemp makes it private; a site is meant to be read
        site_dir = self.site_dir.resolve()
        moved: list[PurePosixPath] = []
        try:
            for name in self._kept:
                target = staging.joinpath(*name.parts)
                target.parent.mkdir(parents=True, exist_ok=True)
                os.rename(site_dir.joinpath(*name.parts), target)
                moved.append(name)
            _swap(staging, site_dir)
        except BaseException:
            for name in reversed(moved):
                os.rename(staging.joinpath(*name.parts), site_dir.joinpath(*name.parts))
            raise
        self._staging = None

    def __exit__(self, *exc_info: object) -> None:
        if self._writer is not None:
            self._writer.finish(abandon=True)
            self._writer = None
        if self._staging is not None:
            delete_tree(self._staging)
            self._staging = None


def write_site(files: Mapping[str, bytes], site_dir: Path, *, mark: bool = True, threaded: bool | None = None) -> None:
    """Write a whole site at once (see ``StagedSite``)."""
    with StagedSite(site_dir, mark=mark, threaded=threaded) as staged:
        for name, content in files.items():
            staged.write(name, content)
        staged.commit()


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
            delete_tree(candidate)


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


DELETING_THREADS = 4
"""Threads that unlink a large directory's files when a site is deleted. Unlinking waits
on the kernel with the GIL released, and the kernel's work on this project's virtual
machine (ext4 mounted with ``discard``) overlaps: the previous site of a 5,000-tool build
(6,000 files, five-sixths of them in one directory) went in 1.0-1.1 s against 1.7 s for
``shutil.rmtree``, and that of a 1,000-tool build in 0.24-0.31 s against 0.31-0.39 s
(three runs each, from a synced copy). Eight threads were no faster than four."""
FILES_PER_BATCH = 128
"""Files one thread unlinks at a time; a directory with fewer than two batches is
unlinked in the calling thread."""


def delete_tree(root: Path) -> None:
    """``shutil.rmtree(root, ignore_errors=True)``, sooner for a large site: the files of a
    large directory are unlinked by ``DELETING_THREADS`` threads. Every name is unlinked
    relative to its directory's descriptor, as ``rmtree`` does, and ``os.fwalk`` descends
    into no link: a link in the tree is removed, never what it points to."""
    pool: Executor | None = None
    try:
        for _directory, _subdirectories, files, directory_fd in os.fwalk(root):
            if len(files) < 2 * FILES_PER_BATCH:
                _unlink_all(directory_fd, files)
                continue
            if pool is None:
                # Imported here: most builds replace a site too small to need threads.
                from concurrent.futures import ThreadPoolExecutor

                pool = ThreadPoolExecutor(DELETING_THREADS, thread_name_prefix="mcpdesc-docs delete")
            batches = [files[start : start + FILES_PER_BATCH] for start in range(0, len(files), FILES_PER_BATCH)]
            # Waited for here: fwalk closes the directory's descriptor once it moves on.
            for _ in pool.map(partial(_unlink_all, directory_fd), batches):
                pass
    except OSError:
        pass  # rmtree below removes what is left, or ignores it as before
    finally:
        if pool is not None:
            pool.shutdown()
    shutil.rmtree(root, ignore_errors=True)


def _unlink_all(directory_fd: int, names: list[str]) -> None:
    for name in names:
        with contextlib.suppress(OSError):  # left to the rmtree that follows
            os.unlink(name, dir_fd=directory_fd)


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
    delete_tree(retired)
